#!/usr/bin/env python3
"""The text workload (`flipbook-benchmarks --workload text`) drawn by Skia, for the same-session
comparison of issue 16 (run by Benchmarks/side-by-side.sh).

60 lines of 80 characters at 14 px plus a 48 px title, DejaVu Sans (the same file Flipbook
bundles: /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf 2.37), black on a 1920x1080 white canvas
cleared every frame, exactly as in Benchmarks/Sources/flipbook-benchmarks/TextWorkloads.swift:
  title "Flipbook text benchmark: the quick brown fox jumps over the lazy dog" at 48 px, line top
  y = 20, x = 40; line i (0..59): 80 characters of the corpus from offset (i * 37) mod n
  (wrapping), 14 px, line top y = 90 + 16 i, x = 40. The baseline is the line top plus the
  font's ascent at that size (hhea ascender / unitsPerEm), as Flipbook places it.
Skia: canvas.drawString per line, Font(typeface, size) with subpixel positioning, no hinting,
antialiased edging (not LCD). drawString maps characters to glyphs one to one: no shaping
(kerning, ligatures) — Flipbook shapes every line with HarfBuzz, so this favours Skia.
warm: one Typeface for every frame (Skia's glyph cache warm after the first frame);
cold: a new Typeface from the file every frame (a new typeface id: empty strike cache).

Usage: /tmp/peers-venv/bin/python Benchmarks/peers-text.py [--frames N] [--save DIR]
Prints one line per variant: median / min ms per frame (one thread).
"""
import argparse, os
import numpy as np
from peer_timing import timed

W, H = 1920, 1080
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CORPUS = ("The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs! "
          "How vexingly quick daft zebras jump; sphinx of black quartz, judge my vow. 0123456789 (AV Wa To fi fl) ")


def lines():
    out = [("Flipbook text benchmark: the quick brown fox jumps over the lazy dog", 48, 20.0)]
    n = len(CORPUS)
    for i in range(60):
        start = (i * 37) % n
        out.append(("".join(CORPUS[(start + k) % n] for k in range(80)), 14, 90.0 + 16 * i))
    return out


def skia_case(cold):
    import skia
    arr = np.empty((H, W, 4), np.uint8)
    surface = skia.Surface(arr, colorType=skia.kRGBA_8888_ColorType, alphaType=skia.kPremul_AlphaType)
    cv = surface.getCanvas()
    paint = skia.Paint(AntiAlias=True, Color=skia.ColorBLACK)
    ls = lines()
    state = {"tf": skia.Typeface.MakeFromFile(FONT)}
    upem, ascender = 2048, 1901            # DejaVu Sans 2.37: head.unitsPerEm, hhea.ascender

    def fonts(tf):
        out = {}
        for size in (48, 14):
            f = skia.Font(tf, size)
            f.setSubpixel(True)
            f.setHinting(skia.FontHinting.kNone)
            f.setEdging(skia.Font.Edging.kAntiAlias)
            out[size] = f
        return out

    state["fonts"] = fonts(state["tf"])

    def frame():
        if cold:
            state["tf"] = skia.Typeface.MakeFromFile(FONT)
            state["fonts"] = fonts(state["tf"])
        cv.clear(skia.ColorWHITE)
        for s, size, top in ls:
            cv.drawString(s, 40, top + ascender * size / upem, state["fonts"][size], paint)
        surface.flushAndSubmit()
    return frame, lambda: arr.copy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--save", default=None)
    a = ap.parse_args()
    for cold in (False, True):
        name = "text-cold" if cold else "text-warm"
        frame, read = skia_case(cold)
        med, mn = timed(frame, a.frames)
        print(f"skia   {name:10s} median {med:8.3f} ms   min {mn:8.3f} ms")
        if a.save:
            from PIL import Image
            os.makedirs(a.save, exist_ok=True)
            Image.fromarray(read(), "RGBA").save(os.path.join(a.save, f"skia-{name}.png"))


if __name__ == "__main__":
    main()
