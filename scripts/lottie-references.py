#!/usr/bin/env python3
"""Reference frames for Flipbook's Lottie acceptance tests (issue 38), rendered by ThorVG and
checked against rlottie.

For each fixture in Tests/Fixtures/lottie/fixtures/ and each of the frames k = 0, N/4, N/2,
3N/4, N-1 (N = op - ip, integer division; frame k is the file's frame ip + k), both players
render a 512x512 frame (the composition fitted preserving aspect ratio and centred,
transparent background). Written to Tests/Fixtures/lottie/references/:

  <fixture>/thorvg_512_<k>.png   ThorVG's frame. PNG stores straight alpha: the premultiplied
                                 RGBA8 buffer is un-premultiplied for the file and the test
                                 premultiplies it again on load (FlipbookPNG's rules; the round
                                 trip is checked here and its largest error recorded).
  references.json                per fixture: comp size, ip, op, fps, N, the frames; per frame
                                 the ThorVG-rlottie disagreement (mean |delta| over premultiplied
                                 RGBA8, all pixels, all four channels, 0-255) and the tolerance
                                 max(1.5, 1.5 x disagreement); engine versions; this command.

With --features, the same for the feature files instead (Tests/Fixtures/lottie/features/*.json,
one small hand-written Lottie file per feature, made by scripts/lottie-feature-files.py): every
file, 200x200 (fitted and centred the same way), written to features/references/ (the file paths
in its references.json relative to features/). Differences from the fixtures' run: ThorVG gets
the bundled DejaVuSans.ttf loaded (the text-font feature names it); where
features/equivalents/<name>.json exists both players render that file instead (a feature they do
not draw, or draw wrongly, drawn with features they get right: the entry names it as
`referenceFile`); rlottie renders each frame from a fresh load (it caches trim results between
frames on some files) and a frame that changes when rendered after another one is listed in
`rlottieOrderDependentFrames` instead of stopping the run. Naming files renders only those and
keeps the other entries.

Run with the peers venv (numpy, pillow, rlottie-python, thorvg-python; see
../shared/peers/lottie/README.md):

  /tmp/peers-venv/bin/python scripts/lottie-references.py              # the four fixtures
  /tmp/peers-venv/bin/python scripts/lottie-references.py --features   # the feature files

The engines are driven exactly as the peers' Lottie benchmark drives them: its RlottieEngine
and ThorvgEngine classes are imported from ../shared/peers/lottie/bench_lottie.py (override
the folder with --peers), so the references and the benchmark's figures come from the same
calls (rlottie: lottie_animation_render, BGRA premultiplied, swapped to RGBA; ThorVG: SwCanvas,
ABGR8888 = RGBA bytes premultiplied, 0 worker threads, picture set_size + translate for the
centred fit). Output is deterministic: the same engines give the same bytes.
"""
import argparse
import ctypes
import json
import os
import shlex
import sys

import numpy as np
from PIL import Image

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE = 512
FEATURE_SIZE = 200
# Feature files whose frames rlottie 1.3.8 does not draw right (a feature it lacks or gets
# wrong, checked by looking at both players' frames: see Tests/Fixtures/lottie/README.md), so
# its disagreement with ThorVG says nothing about how far a correct player may be: their
# tolerance is the rule's floor, 1.5, whatever the disagreement.
STRICT = {
    'auto-orient': 'rlottie orients the first and last frames along x',
    'blend-modes': 'rlottie draws no blend modes',
    'effect-drop-shadow': 'rlottie draws no layer effects',
    'effect-fill': 'rlottie draws no layer effects',
    'gradient-opacity-stops': 'rlottie misreads opacity stops',
    'group-transforms': 'rlottie draws no skew',
    'hidden-layers-items': 'rlottie draws hidden groups and drops a layer with a mode "n" mask',
    'mask-inverted-opacity-expansion': 'rlottie draws no mask expansion',
    'masks-modes': 'rlottie draws lighten and darken masks as add',
    'matte-parent-index': 'rlottie ignores tp (mattes by the layer above)',
    'mattes': 'rlottie reads luma mattes otherwise',
    'offset-path': 'rlottie draws no offset paths',
    'polygon': 'rlottie turns polygons by another angle',
    'pucker-bloat': 'rlottie draws no pucker and bloat',
    'rotation-skew-opacity': 'rlottie draws no skew',
    'rounded-corners': 'rlottie rounds only rectangles',
    'scale-xy-on-stroke': 'rlottie scales strokes uniformly',
    'star-roundness': 'rlottie rounds and turns stars otherwise',
    'stroke-dash-animated-offset': 'rlottie starts dash patterns elsewhere',
    'text-box-stroke': 'rlottie draws no text',
    'text-font': 'rlottie draws no text',
    'text-glyphs': 'rlottie draws no text',
    'trim-shape-starts': 'rlottie turns polygons by another angle',
}

# the font the text-font feature names (fName "DejaVuSans"): ThorVG finds a loaded font by its
# file name; Flipbook bundles the same file
FONT = os.path.join(REPO, 'Sources', 'CFlipbookText', 'fonts', 'DejaVuSans.ttf')
FIXTURES = ['LottieLogo1', 'MotionCorpse_Jrcanest', 'issue_2066', 'issue_769']


def frames_of(n):
    """The five frames the acceptance test checks: 0, N/4, N/2, 3N/4, N-1 (integer division)."""
    return [0, n // 4, n // 2, 3 * n // 4, n - 1]


def premultiply(straight):
    """straight RGBA8 -> premultiplied RGBA8 with FlipbookPNG's rule (PixelRounding.premultiply):
    c' = (c * a + 127) // 255; alpha unchanged."""
    a = straight[..., 3:4].astype(np.uint32)
    out = straight.copy()
    out[..., :3] = ((straight[..., :3].astype(np.uint32) * a + 127) // 255).astype(np.uint8)
    return out


def clip_to_rect(premul, x, y, w, h):
    """premul with every pixel that lies wholly outside the rectangle (x, y, w, h) set to 0:
    what a player that clips to the composition (as ThorVG does) would keep of a frame drawn
    without the clip (as rlottie draws it). Pixels the edge crosses are kept as they are (they
    carry the layer's own anti-aliased edge already). Used for an informational figure."""
    H, W = premul.shape[:2]
    ys, xs = np.arange(H), np.arange(W)
    inside = ((ys + 1 > y) & (ys < y + h))[:, None] & ((xs + 1 > x) & (xs < x + w))[None, :]
    return np.where(inside[..., None], premul, 0).astype(np.uint8)


def mean_abs_delta(a, b):
    return float(np.abs(a.astype(np.int16) - b.astype(np.int16)).mean())


def fnv1a64(data):
    """FNV-1a, 64 bits, of a bytes object (the Swift test recomputes it on the loaded buffer)."""
    h = 0xCBF29CE484222325
    for b in data:              # sequential by nature; ~0.3 s for a 1 MiB frame
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return '%016x' % h


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--peers', default=os.path.join(os.path.dirname(REPO), 'shared', 'peers', 'lottie'),
                    help='folder of bench_lottie.py (default: ../shared/peers/lottie)')
    ap.add_argument('--fixtures', default=None,
                    help='folder of the Lottie files (default: fixtures/, or features/ with --features)')
    ap.add_argument('--out', default=None,
                    help='folder for the references (default: references/, or features/references/)')
    ap.add_argument('--features', action='store_true',
                    help='the feature files (Tests/Fixtures/lottie/features/*.json, every one) at %dx%d '
                         'instead of the four fixtures at %dx%d' % (FEATURE_SIZE, FEATURE_SIZE, SIZE, SIZE))
    ap.add_argument('names', nargs='*', help='with --features: only these files (stems); the others '
                                             'keep their entries in references.json')
    a = ap.parse_args()
    lottie_dir = os.path.join(REPO, 'Tests', 'Fixtures', 'lottie')
    if a.features:
        a.fixtures = a.fixtures or os.path.join(lottie_dir, 'features')
        a.out = a.out or os.path.join(a.fixtures, 'references')
        size = FEATURE_SIZE
        names = sorted(f[:-5] for f in os.listdir(a.fixtures) if f.endswith('.json'))
    else:
        a.fixtures = a.fixtures or os.path.join(lottie_dir, 'fixtures')
        a.out = a.out or os.path.join(lottie_dir, 'references')
        size = SIZE
        names = FIXTURES
    # the file path written into references.json, relative to the folder LottieReferences reads
    # (Tests/Fixtures/lottie for the fixtures, Tests/Fixtures/lottie/features for the features)
    rel = (lambda fx: '%s.json' % fx) if a.features else (lambda fx: 'fixtures/%s.json' % fx)

    sys.path.insert(0, os.path.abspath(a.peers))
    try:
        from bench_lottie import RlottieEngine, ThorvgEngine, fit_rect, load_meta, unpremultiply
    except ImportError as e:
        sys.exit('cannot import bench_lottie from %s (%s): pass --peers' % (a.peers, e))

    thorvg, rlottie = ThorvgEngine(), RlottieEngine()
    if a.features:
        lib = thorvg.engine.thorvg_lib
        lib.tvg_font_load.argtypes = [ctypes.c_char_p]
        lib.tvg_font_load.restype = ctypes.c_int
        r = lib.tvg_font_load(FONT.encode())
        assert r == 0, 'tvg_font_load(%s): %d' % (FONT, r)
    import PIL
    doc = {
        'about': 'Reference frames for the Lottie acceptance tests: ThorVG renders, rlottie as '
                 'the second opinion. See Tests/Fixtures/lottie/README.md.',
        'command': ' '.join(['/tmp/peers-venv/bin/python', 'scripts/lottie-references.py']
                            + [shlex.quote(x) for x in sys.argv[1:]]),
        'engines': {'thorvg': thorvg.version, 'rlottie': rlottie.version,
                    'numpy': np.__version__, 'pillow': PIL.__version__,
                    'python': '%d.%d.%d' % sys.version_info[:3]},
        'size': [size, size],
        'fit': 'scale = min(W/w, H/h), offset = half the slack (centred), transparent background',
        'delta': 'mean |thorvg - rlottie| over premultiplied RGBA8, all pixels, all four channels, 0-255',
        'tolerance': 'max(1.5, 1.5 * disagreement)',
        'png': 'straight alpha (un-premultiplied: c = (c\' * 255 + a // 2) // a, clamped); '
               'premultiply on load with c\' = (c * a + 127) // 255',
        'fixtures': [],
    }
    if a.features:
        doc['about'] = ('Reference frames for the Lottie feature tests: ThorVG renders, rlottie as the '
                        'second opinion. See Tests/Fixtures/lottie/README.md.')
        doc['equivalents'] = ('where features/equivalents/<name>.json exists, both players render it '
                              'instead of <name>.json (a feature they do not draw, drawn with others)')
        doc['tolerance'] = ('max(1.5, 1.5 * disagreement); 1.5 for the files whose entry gives '
                            'rlottieDisagreementIgnored (rlottie does not draw them right)')
        previous = os.path.join(a.out, 'references.json')
        kept = {}
        if a.names and os.path.exists(previous):
            with open(previous) as f:
                kept = {e['name']: e for e in json.load(f)['fixtures']}
        for n in a.names:
            assert n in names, 'no feature file %s.json' % n

    worst_roundtrip = 0
    for fx in names:
        if a.features and a.names and fx not in a.names:
            if fx in kept:
                doc['fixtures'].append(kept[fx])
                continue
            sys.exit('%s: not in the previous references.json; render it too' % fx)
        path = os.path.join(a.fixtures, fx + '.json')
        meta = load_meta(path)
        source = path
        equivalent = os.path.join(a.fixtures, 'equivalents', fx + '.json')
        if a.features and os.path.exists(equivalent):
            source = equivalent
        for key in ('ip', 'op', 'fr'):               # 0.0 -> 0 in the JSON when integral
            if meta[key] == int(meta[key]):
                meta[key] = int(meta[key])
        n = int(round(meta['op'] - meta['ip']))
        ks = frames_of(n)
        thorvg.load(source, meta)
        rlottie.load(source, meta)
        thorvg.set_size(size, size)
        rlottie.set_size(size, size)
        os.makedirs(os.path.join(a.out, fx), exist_ok=True)
        entry = {'name': fx, 'file': rel(fx),
                 'width': meta['w'], 'height': meta['h'], 'ip': meta['ip'], 'op': meta['op'],
                 'fps': meta['fr'], 'frameCount': n, 'frames': []}
        if source != path:
            entry['referenceFile'] = 'equivalents/%s.json' % fx
        if a.features and fx in STRICT:
            entry['rlottieDisagreementIgnored'] = STRICT[fx]
        for k in ks:
            thorvg.render(k)
            t = thorvg.rgba()
            if a.features:
                # rlottie caches some shape data between frames (trims, on some feature files a
                # frame differs when rendered after another one): each frame from a fresh load
                rlottie.load(source, meta)
                rlottie.set_size(size, size)
            rlottie.render(k)
            r = rlottie.rgba()
            # the same frame again, after another one: nothing may depend on the order (ThorVG
            # always; rlottie on the fixtures, and on the features only recorded)
            for eng, first in ((thorvg, t), (rlottie, r)):
                eng.render(ks[-1] if k != ks[-1] else 0)
                eng.render(k)
                if a.features and eng is rlottie:
                    if not np.array_equal(first, eng.rgba()):
                        entry.setdefault('rlottieOrderDependentFrames', []).append(k)
                    continue
                assert np.array_equal(first, eng.rgba()), '%s %d: %s depends on order' % (fx, k, eng.name)
            over = int(np.count_nonzero(t[..., :3] > t[..., 3:4]))
            assert over == 0, '%s %d: ThorVG wrote %d colour bytes above alpha' % (fx, k, over)

            d = np.abs(t.astype(np.int16) - r.astype(np.int16))
            delta_sum = int(d.sum())
            disagreement = delta_sum / d.size        # exact at 512x512 (d.size = 2^20)
            tolerance = 1.5 if a.features and fx in STRICT else max(1.5, 1.5 * disagreement)
            # informational: the disagreement with rlottie's frame clipped to the comp rect
            # (rlottie does not clip, ThorVG does), and what a 1-px shift of ThorVG's own frame
            # costs (right, down), to judge how tight the tolerance is for that frame
            clipped = mean_abs_delta(t, clip_to_rect(r, *fit_rect(meta['w'], meta['h'], size, size)[:4]))
            shift = max(mean_abs_delta(t[:, 1:], t[:, :-1]) * (size - 1) / size,
                        mean_abs_delta(t[1:], t[:-1]) * (size - 1) / size)

            png = os.path.join(a.out, fx, 'thorvg_%d_%d.png' % (size, k))
            Image.fromarray(unpremultiply(t), 'RGBA').save(png, compress_level=9)
            back = premultiply(np.asarray(Image.open(png).convert('RGBA')))
            roundtrip = int(np.abs(back.astype(np.int16) - t.astype(np.int16)).max())
            worst_roundtrip = max(worst_roundtrip, roundtrip)

            entry['frames'].append({
                'k': k, 'frame': meta['ip'] + k,
                'png': '%s/thorvg_%d_%d.png' % (fx, size, k),
                'disagreement': disagreement, 'absDeltaSum': delta_sum,
                'percentPixelsOffBy16': float((d.max(axis=2) > 16).mean() * 100),
                'tolerance': tolerance,
                'disagreementWithRlottieClipped': clipped,
                'deltaOfOnePixelShift': shift,
                'coveredPixels': {'thorvg': int(np.count_nonzero(t[..., 3])),
                                  'rlottie': int(np.count_nonzero(r[..., 3]))},
                'byteSum': int(t.astype(np.uint64).sum()),
                'fnv1a64': fnv1a64(t.tobytes()),
                'pngRoundTripMaxError': roundtrip,
            })
            print('%-22s k=%3d  delta %6.3f  tol %6.3f  clipped %6.3f  1px shift %6.3f  >16 %5.2f%%  '
                  'px thorvg %6d rlottie %6d  png round trip max err %d' % (
                      fx, k, disagreement, tolerance, clipped, shift,
                      entry['frames'][-1]['percentPixelsOffBy16'],
                      entry['frames'][-1]['coveredPixels']['thorvg'],
                      entry['frames'][-1]['coveredPixels']['rlottie'], roundtrip), flush=True)
        doc['fixtures'].append(entry)
    doc['pngRoundTripMaxError'] = worst_roundtrip
    with open(os.path.join(a.out, 'references.json'), 'w') as f:
        json.dump(doc, f, indent=1)
        f.write('\n')
    print('wrote %s (PNG round trip: largest error %d level(s))'
          % (os.path.join(a.out, 'references.json'), worst_roundtrip))


if __name__ == '__main__':
    main()
