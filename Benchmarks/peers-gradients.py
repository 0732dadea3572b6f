#!/usr/bin/env python3
"""The gradient workload (`flipbook-benchmarks --workload gradients`) drawn by Skia and Blend2D,
for the same-session comparison of issue 15 (run by Benchmarks/side-by-side.sh).

200 rotated 160x160 squares at 1080p, one gradient type per workload, on a white canvas cleared
every frame; the items come from the peers' SplitMix64 stream (seed 0x67524144) exactly as in
Benchmarks/Sources/flipbook-benchmarks/GradientWorkloads.swift:
  centre (uniform(80, 1840), uniform(80, 1000)), angle uniform(0, 2*pi), three opaque colours
  (byte, byte, byte) at 0, 0.5, 1; axial from the square's top-left to its bottom-right, radial a
  circle of radius 80 at its centre, conic around its centre starting along +x.
Each engine draws each square as a rectangle under the layer's transform with a gradient paint.

Usage: /tmp/peers-venv/bin/python Benchmarks/peers-gradients.py [--frames N] [--save DIR]
Prints one line per engine and type: median / min ms per frame (one thread).
"""
import argparse, importlib.util, math, os, sys
import numpy as np
from peer_timing import timed

W, H = 1920, 1080
SEED = 0x67524144
M64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.s = seed & M64

    def next(self):
        self.s = (self.s + 0x9E3779B97F4A7C15) & M64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def unit(self):
        return (self.next() >> 11) * 2.0 ** -53

    def uniform(self, a, b):
        return a + (b - a) * self.unit()

    def byte(self):
        return self.next() >> 56


def items():
    r = SplitMix64(SEED)
    out = []
    for _ in range(200):
        cx, cy, a = r.uniform(80, 1840), r.uniform(80, 1000), r.uniform(0, 2 * math.pi)
        colors = [(r.byte(), r.byte(), r.byte()) for _ in range(3)]
        out.append((cx, cy, a, colors))
    return out


def skia_case(kind, its):
    import skia
    arr = np.empty((H, W, 4), np.uint8)
    surface = skia.Surface(arr, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
    cv = surface.getCanvas()
    prepared = []
    for cx, cy, a, cols in its:
        colors = [skia.Color(r, g, b, 255) for r, g, b in cols]
        pos = [0.0, 0.5, 1.0]
        if kind == 'axial':
            sh = skia.GradientShader.MakeLinear([skia.Point(0, 0), skia.Point(160, 160)], colors, pos)
        elif kind == 'radial':
            sh = skia.GradientShader.MakeRadial(skia.Point(80, 80), 80, colors, pos)
        else:
            sh = skia.GradientShader.MakeSweep(80, 80, colors, pos)
        p = skia.Paint(Shader=sh, AntiAlias=True)
        m = skia.Matrix()
        m.setTranslate(cx, cy)
        m.preRotate(math.degrees(a))
        m.preTranslate(-80, -80)
        prepared.append((m, p))
    rect = skia.Rect(0, 0, 160, 160)

    def frame():
        cv.clear(skia.ColorWHITE)
        for m, p in prepared:
            cv.save()
            cv.concat(m)
            cv.drawRect(rect, p)
            cv.restore()
        surface.flushAndSubmit()
    return frame, lambda: arr.copy()


def blend2d_case(kind, its):
    venv_opt = os.path.join(os.path.dirname(os.path.dirname(sys.executable)), 'opt')
    path = os.path.join(venv_opt, 'blend2d_python', 'blend2d', '__init__.py')
    spec = importlib.util.spec_from_file_location('blend2d', path, submodule_search_locations=[os.path.dirname(path)])
    b = importlib.util.module_from_spec(spec)
    sys.modules['blend2d'] = b
    spec.loader.exec_module(b)
    img = b.BLImage(W, H, b.BLFormat.PRGB32)
    ctx = b.BLContext(img)
    prepared = []
    for cx, cy, a, cols in its:
        if kind == 'axial':
            g = b.create_linear_gradient(0, 0, 160, 160)
        elif kind == 'radial':
            g = b.create_radial_gradient(80, 80, 80, 80, 80)
        else:
            g = b.create_conical_gradient(80, 80, 0)
        for off, (r, gg, bb) in zip([0.0, 0.5, 1.0], cols):
            # blend2d-python 1.0.0 takes colour tuples as (b, g, r, a) (see bench.py)
            g.add_stop(off, (bb / 255.0, gg / 255.0, r / 255.0, 1.0))
        c, s = math.cos(a), math.sin(a)
        m = b.Matrix2D(c, s, -s, c, cx - 80 * c + 80 * s, cy - 80 * s - 80 * c)
        prepared.append((m, g))

    rect = b.BLRect(0, 0, 160, 160)

    def frame():
        ctx.reset_transform()
        ctx.comp_op = b.BLCompOp.SRC_COPY
        ctx.set_fill_style((1.0, 1.0, 1.0, 1.0))
        ctx.fill_all()
        ctx.comp_op = b.BLCompOp.SRC_OVER
        for m, g in prepared:
            ctx.reset_transform()
            ctx.transform(m)
            ctx.set_fill_style(g)
            ctx.fill_rect(rect)
        ctx.flush()

    def read():
        ctx.flush()
        x = img.getDataAsNumPy().reshape(H, W, 4)
        return x[..., [2, 1, 0, 3]].copy()
    return frame, read


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--frames', type=int, default=20)
    ap.add_argument('--save', default=None)
    args = ap.parse_args()
    its = items()
    for kind in ['axial', 'radial', 'conic']:
        for name, make in [('skia', skia_case), ('blend2d', blend2d_case)]:
            try:
                frame, read = make(kind, its)
            except Exception as e:  # a peer that cannot draw the type says so
                print('%-8s grad-%-7s unavailable: %s' % (name, kind, e))
                continue
            med, lo = timed(frame, args.frames)
            print('%-8s grad-%-7s median %8.3f ms  min %8.3f ms' % (name, kind, med, lo))
            if args.save:
                from PIL import Image
                Image.fromarray(read()).save(os.path.join(args.save, 'grad-%s_%s.png' % (kind, name)))


if __name__ == '__main__':
    main()
