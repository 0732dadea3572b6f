#!/usr/bin/env python3
"""The feature files of Flipbook's Lottie tests: small Lottie (Bodymovin JSON) files, one per
feature or small group of features of issue 38, written out by hand here as Python data and
saved to Tests/Fixtures/lottie/features/<name>.json (see Tests/Fixtures/lottie/README.md).

Original work for this project, under its licence. Each file is a 200x200 (a few: 100x100 or
200x120) composition at 30 fps with a few dozen frames, animated where the feature is about
animation. `scripts/lottie-references.py --features` then renders the reference frames.

  python3 scripts/lottie-feature-files.py          # rewrites every feature file (deterministic)

Some features are rendered by neither reference player (ThorVG 1.0.4 and rlottie ignore merge
paths, `mm`): for those an *equivalent* file, drawing the same picture with features both
players do draw (masks, even-odd fills), is written to features/equivalents/<name>.json and the
references are rendered from it (`lottie-references.py` takes equivalents/<name>.json when it
exists).
"""
import base64
import io
import json
import math
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(REPO, 'Tests', 'Fixtures', 'lottie', 'features')

# ---------------------------------------------------------------- values and keyframes

EASE_OUT = {'x': [0.333], 'y': [0]}
EASE_IN = {'x': [0.667], 'y': [1]}


def st(v):
    """A static property."""
    return {'a': 0, 'k': v}


def _s(v):
    if isinstance(v, tuple):
        return list(v)
    return v if isinstance(v, list) else [v]


def an(*kfs, ease='ease'):
    """An animated property from (frame, value) pairs, or (frame, value, easing) triples where
    easing is 'ease' (AE's default easy ease), 'linear', 'hold', or an (o, i) pair of handle
    dicts, and for spatial properties (frame, value, easing, to, ti). The last keyframe has only
    its time and value."""
    out = []
    for n, kf in enumerate(kfs):
        t, v = kf[0], kf[1]
        e = kf[2] if len(kf) > 2 else ease
        k = {'t': t, 's': _s(v)}
        if n < len(kfs) - 1:
            if e == 'hold':
                k['h'] = 1
            elif e == 'linear':
                k['o'] = {'x': [0], 'y': [0]}
                k['i'] = {'x': [1], 'y': [1]}
            elif e == 'ease':
                k['o'] = dict(EASE_OUT)
                k['i'] = dict(EASE_IN)
            else:
                k['o'], k['i'] = e
            if len(kf) > 3:
                k['to'], k['ti'] = kf[3], kf[4]
        out.append(k)
    return {'a': 1, 'k': out}


def color(hexstr, a=1):
    h = hexstr.lstrip('#')
    return [round(int(h[i:i + 2], 16) / 255, 4) for i in (0, 2, 4)] + [a]


RED, ORANGE, YELLOW, GREEN = color('#e63946'), color('#f4a261'), color('#ffd166'), color('#06d6a0')
BLUE, NAVY, PURPLE, WHITE = color('#118ab2'), color('#073b4c'), color('#8338ec'), color('#ffffff')
BLACK, GREY, TEAL, PINK = color('#000000'), color('#8d99ae'), color('#2a9d8f'), color('#ff70a6')

# ---------------------------------------------------------------- shapes

def rc(p, s, r=0, d=1, nm='Rectangle'):
    return {'ty': 'rc', 'nm': nm, 'd': d, 'p': p if isinstance(p, dict) else st(p),
            's': s if isinstance(s, dict) else st(s), 'r': r if isinstance(r, dict) else st(r)}


def el(p, s, d=1, nm='Ellipse'):
    return {'ty': 'el', 'nm': nm, 'd': d, 'p': p if isinstance(p, dict) else st(p),
            's': s if isinstance(s, dict) else st(s)}


def _prop(v):
    return v if isinstance(v, dict) else st(v)


def sr(p, outer, points, inner=None, os_=0, is_=0, r=0, star=True, d=1, nm='Polystar'):
    item = {'ty': 'sr', 'nm': nm, 'sy': 1 if star else 2, 'd': d, 'p': _prop(p), 'or': _prop(outer),
            'os': _prop(os_), 'pt': _prop(points), 'r': _prop(r)}
    if star:
        item['ir'] = _prop(inner)
        item['is'] = _prop(is_)
    return item


def bez(pts, closed=True, ins=None, outs=None):
    n = len(pts)
    return {'c': closed, 'v': [list(p) for p in pts],
            'i': [list(p) for p in (ins or [(0, 0)] * n)], 'o': [list(p) for p in (outs or [(0, 0)] * n)]}


def sh(k, nm='Path', d=1):
    """A free path: k a bezier dict (static) or an animated property whose values are beziers."""
    return {'ty': 'sh', 'nm': nm, 'd': d, 'ks': k if 'a' in k else st(k)}


def path_an(*kfs, ease='ease'):
    """Animated bezier: keyframe values are bezier dicts (wrapped in a list as Bodymovin does)."""
    p = an(*[(kf[0], [kf[1]]) + tuple(kf[2:]) for kf in kfs], ease=ease)
    return p


def ellipse_bez(cx, cy, rx, ry, reverse=False):
    """An ellipse as a closed bezier, starting at the top, clockwise as After Effects draws it
    (kappa 0.5523)."""
    k = 0.5523
    v = [(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)]
    i = [(-rx * k, 0), (0, -ry * k), (rx * k, 0), (0, ry * k)]
    o = [(rx * k, 0), (0, ry * k), (-rx * k, 0), (0, -ry * k)]
    if reverse:
        v, i, o = v[:1] + v[:0:-1], o[:1] + o[:0:-1], i[:1] + i[:0:-1]
    return bez(v, True, i, o)


def rect_bez(x, y, w, h):
    return bez([(x + w, y), (x + w, y + h), (x, y + h), (x, y)])


def fl(c, o=100, r=1, nm='Fill'):
    return {'ty': 'fl', 'nm': nm, 'c': _prop(c), 'o': _prop(o), 'r': r}


def stk(c, w, o=100, lc=2, lj=2, ml=4, dashes=None, nm='Stroke'):
    item = {'ty': 'st', 'nm': nm, 'c': _prop(c), 'o': _prop(o), 'w': _prop(w), 'lc': lc, 'lj': lj, 'ml': ml}
    if dashes:
        item['d'] = [{'n': n, 'nm': {'d': 'dash', 'g': 'gap', 'o': 'offset'}[n], 'v': _prop(v)} for n, v in dashes]
    return item


def stops(colors, alphas=None):
    """Gradient stops: colours [(offset, [r, g, b, …]), …], opacity stops [(offset, a), …]."""
    k = []
    for off, c in colors:
        k += [off, c[0], c[1], c[2]]
    for off, a in alphas or []:
        k += [off, a]
    return {'p': len(colors), 'k': st(k)}


def gf(s, e, g, radial=False, h=None, a=None, o=100, r=1, nm='Gradient Fill'):
    item = {'ty': 'gf', 'nm': nm, 't': 2 if radial else 1, 's': _prop(s), 'e': _prop(e), 'g': g,
            'o': _prop(o), 'r': r}
    if h is not None:
        item['h'] = _prop(h)
    if a is not None:
        item['a'] = _prop(a)
    return item


def gs(s, e, g, w, radial=False, h=None, a=None, o=100, lc=2, lj=2, ml=4, nm='Gradient Stroke'):
    item = gf(s, e, g, radial, h, a, o, nm=nm)
    item['ty'] = 'gs'
    del item['r']
    item.update({'w': _prop(w), 'lc': lc, 'lj': lj, 'ml': ml})
    return item


def tm(s=0, e=100, o=0, m=1, nm='Trim Paths'):
    return {'ty': 'tm', 'nm': nm, 's': _prop(s), 'e': _prop(e), 'o': _prop(o), 'm': m}


def rd(r, nm='Round Corners'):
    return {'ty': 'rd', 'nm': nm, 'r': _prop(r)}


def mm(mode, nm='Merge Paths'):
    return {'ty': 'mm', 'nm': nm, 'mm': mode}


def tr(p=(0, 0), a=(0, 0), s=(100, 100), r=0, o=100, sk=None, sa=None, extra=None):
    t = {'ty': 'tr', 'p': _prop(list(p) if isinstance(p, tuple) else p),
         'a': _prop(list(a) if isinstance(a, tuple) else a),
         's': _prop(list(s) if isinstance(s, tuple) else s), 'r': _prop(r), 'o': _prop(o)}
    if sk is not None:
        t['sk'] = _prop(sk)
        t['sa'] = _prop(sa if sa is not None else 0)
    if extra:
        t.update(extra)
    return t


def gr(items, nm='Group', hd=None, **kw):
    g = {'ty': 'gr', 'nm': nm, 'it': list(items) + [tr(**kw)]}
    if hd:
        g['hd'] = True
    return g


def rp(c, o=0, m=1, p=(0, 0), a=(0, 0), s=(100, 100), r=0, so=100, eo=100, nm='Repeater'):
    t = tr(p=p, a=a, s=s, r=r)
    del t['o']
    t['so'] = _prop(so)
    t['eo'] = _prop(eo)
    return {'ty': 'rp', 'nm': nm, 'c': _prop(c), 'o': _prop(o), 'm': m, 'tr': t}

# ---------------------------------------------------------------- layers

def ks(p=(0, 0), a=(0, 0), s=(100, 100), r=0, o=100, sk=None, sa=None, px=None, py=None):
    k = {'o': _prop(o), 'r': _prop(r), 'a': _prop(list(a) if isinstance(a, tuple) else a),
         's': _prop(list(s) if isinstance(s, tuple) else s)}
    if px is not None:
        k['p'] = {'s': True, 'x': _prop(px), 'y': _prop(py)}
    else:
        k['p'] = _prop(list(p) if isinstance(p, tuple) else p)
    if sk is not None:
        k['sk'] = _prop(sk)
        k['sa'] = _prop(sa if sa is not None else 0)
    return k


def layer(ty, ind, nm, transform=None, ip=0, op=None, **extra):
    l = {'ddd': 0, 'ind': ind, 'ty': ty, 'nm': nm, 'sr': 1, 'ks': transform or ks(), 'ao': 0,
         'ip': ip, 'op': op if op is not None else 9999, 'st': 0, 'bm': 0}
    l.update(extra)
    return l


def shape_layer(ind, nm, shapes, transform=None, **extra):
    return layer(4, ind, nm, transform, shapes=shapes, **extra)


def mask(pt, mode='a', inv=False, o=100, x=0, nm='Mask', f=None):
    m = {'inv': inv, 'mode': mode, 'pt': pt if 'a' in pt else st(pt), 'o': _prop(o), 'x': _prop(x), 'nm': nm}
    if f is not None:
        m['f'] = _prop(f)
    return m


def comp(name, n, layers, w=200, h=200, fr=30, assets=None, **extra):
    for l in layers:
        if l.get('op') == 9999:
            l['op'] = n
    d = {'v': '5.7.4', 'fr': fr, 'ip': 0, 'op': n, 'w': w, 'h': h, 'nm': name, 'ddd': 0,
         'assets': assets or [], 'layers': layers, 'markers': []}
    d.update(extra)
    return d


def background(ind=99, c='#f1faee', w=200, h=200, n=None):
    """A full-composition solid at the bottom (so transparency and colour errors both count)."""
    return layer(1, ind, 'Background', sc=c, sw=w, sh=h)

# ---------------------------------------------------------------- the features

FILES = {}


def feature(fn):
    FILES[fn.__name__.replace('_', '-')] = fn
    return fn


@feature
def rect_roundness():
    n = 40
    return comp('rect-roundness', n, [
        shape_layer(1, 'Rects', [
            gr([rc([50, 45], [70, 50], 0), fl(RED)], nm='Sharp'),
            gr([rc([145, 50], [70, 70], an((0, 0), (n - 1, 35))), fl(BLUE), stk(NAVY, 4)], nm='Roundness 0 to 35'),
            gr([rc([100, 145], an((0, [40, 90]), (n - 1, [170, 30])), 20), stk(PURPLE, 6, lj=1)],
               nm='Size animated, roundness clamped'),
            gr([rc([40, 150], [40, 40], 60, d=3), fl(GREEN, 80)], nm='Roundness above half the side'),
        ]),
        background(),
    ])


@feature
def ellipse():
    n = 40
    return comp('ellipse', n, [
        shape_layer(1, 'Ellipses', [
            gr([el([50, 50], [70, 70]), fl(ORANGE)], nm='Circle'),
            gr([el([140, 60], an((0, [100, 30]), (n - 1, [30, 90]))), stk(NAVY, 5), fl(YELLOW)], nm='Size animated'),
            gr([el(an((0, [30, 150], 'linear'), (n - 1, [170, 150])), [50, 30], d=3), fl(TEAL, 70)], nm='Moving, reversed'),
        ]),
        background(),
    ])


@feature
def star_roundness():
    n = 40
    return comp('star-roundness', n, [
        shape_layer(1, 'Stars', [
            gr([sr([55, 55], 45, 5, 20), fl(YELLOW), stk(ORANGE, 3, lj=1)], nm='Plain star'),
            gr([sr([145, 55], 45, 6, 22, os_=an((0, 0), (n - 1, 60)), is_=an((0, 0), (n - 1, -40)),
                   r=an((0, 0), (n - 1, 90))), fl(PINK)], nm='Roundness and rotation animated'),
            gr([sr([100, 145], an((0, 30), (n - 1, 50)), 8, an((0, 25), (n - 1, 12)), os_=30, is_=30),
                stk(PURPLE, 4)], nm='Radii animated'),
        ]),
        background(),
    ])


@feature
def polygon():
    n = 40
    return comp('polygon', n, [
        shape_layer(1, 'Polygons', [
            gr([sr([55, 55], 45, 3, star=False), fl(GREEN)], nm='Triangle'),
            gr([sr([145, 55], 42, 6, star=False, os_=an((0, 0), (n - 1, 100)), r=15), fl(BLUE), stk(NAVY, 3)],
               nm='Hexagon, roundness 0 to 100'),
            gr([sr([100, 145], 45, 5, star=False, r=an((0, 0), (n - 1, 72), ease='linear'), d=3), stk(RED, 6, lj=1)],
               nm='Pentagon rotating, reversed'),
        ]),
        background(),
    ])


@feature
def free_path():
    n = 40
    wave0 = bez([(20, 60), (100, 60), (180, 60)], False, [(0, 0), (-30, 40), (-30, -40)], [(30, -40), (30, 40), (0, 0)])
    wave1 = bez([(20, 40), (100, 80), (180, 40)], False, [(0, 0), (-40, -40), (-10, 30)], [(40, 0), (30, -30), (0, 0)])
    blob0 = bez([(100, 110), (160, 150), (100, 190), (40, 150)], True,
                [(-30, 0), (0, -25), (30, 0), (0, 25)], [(30, 0), (0, 25), (-30, 0), (0, -25)])
    blob1 = bez([(100, 120), (170, 140), (110, 185), (30, 160)], True,
                [(-40, 10), (10, -30), (40, 0), (-10, 30)], [(40, -10), (-10, 30), (-40, 0), (10, -30)])
    open_fill = bez([(20, 100), (60, 190), (20, 190)], False)
    return comp('free-path', n, [
        shape_layer(1, 'Paths', [
            gr([sh(path_an((0, wave0), (n - 1, wave1))), stk(NAVY, 6, lc=2)], nm='Open wave, animated'),
            gr([sh(path_an((0, blob0), (n - 1, blob1))), fl(ORANGE), stk(RED, 3)], nm='Closed blob, animated'),
            gr([sh(open_fill), fl(GREEN)], nm='Open path filled'),
        ]),
        background(),
    ])


@feature
def fill_evenodd_opacity():
    n = 40
    nested = [sh(rect_bez(15, 15, 80, 80), nm='Outer'), sh(rect_bez(35, 35, 40, 40), nm='Inner')]
    pts = [(55 + 40 * math.sin(k * 4 * math.pi / 5), 150 - 40 * math.cos(k * 4 * math.pi / 5)) for k in range(5)]
    pentagram = sh(bez(pts), nm='Pentagram')
    pts2 = [(145 + 40 * math.sin(k * 4 * math.pi / 5), 150 - 40 * math.cos(k * 4 * math.pi / 5)) for k in range(5)]
    return comp('fill-evenodd-opacity', n, [
        shape_layer(1, 'Fills', [
            gr(nested + [fl(BLUE, r=1)], nm='Nested, non-zero'),
            gr([sh(rect_bez(105, 15, 80, 80)), sh(rect_bez(125, 35, 40, 40)),
                fl(an((0, RED), (n - 1, PURPLE)), an((0, 100), (n - 1, 30)), r=2)], nm='Nested, even-odd, colour and opacity'),
            gr([pentagram, fl(ORANGE, r=1)], nm='Pentagram, non-zero'),
            gr([sh(bez(pts2)), fl(GREEN, 75, r=2)], nm='Pentagram, even-odd'),
        ]),
        background(),
    ])


@feature
def stroke_caps_joins_miter():
    n = 20
    def zig(y, dy=18):
        return bez([(25, y + dy), (65, y - dy), (105, y + dy), (145, y - dy), (175, y + dy)], False)
    return comp('stroke-caps-joins-miter', n, [
        shape_layer(1, 'Strokes', [
            gr([sh(zig(30)), stk(RED, 10, lc=1, lj=1, ml=4)], nm='Butt cap, miter join'),
            gr([sh(zig(75)), stk(BLUE, 10, lc=2, lj=2)], nm='Round cap, round join'),
            gr([sh(zig(120)), stk(GREEN, 10, lc=3, lj=3)], nm='Square cap, bevel join'),
            gr([sh(bez([(20, 190), (50, 150), (80, 190)], False)), stk(PURPLE, 8, lc=1, lj=1, ml=1)], nm='Sharp, miter limit 1'),
            gr([sh(bez([(110, 190), (140, 150), (170, 190)], False)),
                stk(ORANGE, an((0, 4), (n - 1, 10)), lc=1, lj=1, ml=10)], nm='Sharp, miter limit 10, width animated'),
        ]),
        background(),
    ])


@feature
def stroke_dash_animated_offset():
    n = 40
    return comp('stroke-dash-animated-offset', n, [
        shape_layer(1, 'Dashes', [
            gr([el([60, 60], [80, 80]), stk(RED, 8, lc=1, dashes=[('d', 20), ('g', 10), ('o', an((0, 0), (n - 1, 60), ease='linear'))])],
               nm='Circle, offset animated'),
            gr([sh(bez([(110, 30), (190, 90)], False)),
                stk(BLUE, 6, lc=2, dashes=[('d', an((0, 4), (n - 1, 20))), ('g', an((0, 16), (n - 1, 6))), ('o', 0)])],
               nm='Line, lengths animated'),
            gr([rc([100, 150], [150, 60], 10), stk(GREEN, 5, lc=3, lj=2,
                                                   dashes=[('d', 25), ('g', 8), ('d', 4), ('g', 8), ('o', an((0, 0), (n - 1, -45)))])],
               nm='Rounded rect, two dash pairs'),
        ]),
        background(),
    ])


@feature
def gradient_linear_fill():
    n = 40
    g3 = stops([(0, RED), (0.5, YELLOW), (1, BLUE)])
    return comp('gradient-linear-fill', n, [
        shape_layer(1, 'Linear', [
            gr([rc([100, 55], [180, 90], 12), gf(an((0, [10, 55]), (n - 1, [100, 10])), an((0, [190, 55]), (n - 1, [100, 100])), g3)],
               nm='Start and end animated'),
            gr([el([100, 150], [180, 80]),
                gf([20, 150], [180, 150], {'p': 2, 'k': an((0, [0, 0.1, 0.8, 0.3, 1, 1, 0.3, 0.5]),
                                                          (n - 1, [0, 1, 0.9, 0.2, 1, 0.1, 0.2, 0.9]))})],
               nm='Colours animated'),
        ]),
        background(),
    ])


@feature
def gradient_radial_highlight():
    n = 40
    g3 = stops([(0, WHITE), (0.4, ORANGE), (1, NAVY)])
    return comp('gradient-radial-highlight', n, [
        shape_layer(1, 'Radial', [
            gr([el([55, 55], [90, 90]), gf([55, 55], [100, 55], g3, radial=True, h=0, a=0)], nm='Plain radial'),
            gr([el([145, 55], [90, 90]), gf([145, 55], [190, 55], g3, radial=True, h=50, a=an((0, 0), (n - 1, 270)))],
               nm='Highlight 50, angle animated'),
            gr([rc([100, 145], [180, 90], 20),
                # the end point stays level with the centre: ThorVG 1.0.4 takes the radius as
                # max(|dx|, |dy|) + 0.375 min(|dx|, |dy|), exact only along an axis (Flipbook, as
                # lottie-web and After Effects, the distance)
                gf([100, 145], an((0, [180, 145]), (n - 1, [135, 145])), stops([(0, YELLOW), (1, PURPLE)]),
                   radial=True, h=an((0, -60), (n - 1, 80)), a=30)], nm='Highlight length and radius animated'),
        ]),
        background(),
    ])


@feature
def gradient_stroke():
    n = 40
    return comp('gradient-stroke', n, [
        shape_layer(1, 'Gradient strokes', [
            gr([sh(bez([(20, 40), (100, 90), (180, 40)], False, [(0, 0), (-40, 0), (0, 0)], [(0, 0), (40, 0), (0, 0)])),
                gs([20, 40], [180, 40], stops([(0, RED), (0.5, GREEN), (1, BLUE)]), 14, lc=2, lj=2)], nm='Linear'),
            gr([el([100, 145], [100, 80]),
                gs([100, 145], [160, 145], stops([(0, YELLOW), (1, PURPLE)]), an((0, 6), (n - 1, 20)), radial=True,
                   o=an((0, 100), (n - 1, 60)))], nm='Radial, width and opacity animated'),
        ]),
        background(),
    ])


@feature
def gradient_opacity_stops():
    n = 30
    return comp('gradient-opacity-stops', n, [
        shape_layer(1, 'Gradients', [
            gr([rc([100, 50], [180, 80]),
                gf([10, 50], [190, 50], stops([(0, BLUE), (1, RED)], [(0, 1), (0.3, 0.2), (0.7, 1), (1, 0)]))],
               nm='Linear, four opacity stops'),
            gr([el([100, 145], [120, 90]),
                gf([100, 145], [160, 145], stops([(0, YELLOW), (0.5, GREEN), (1, NAVY)], [(0, 0), (1, 1)]), radial=True,
                   o=an((0, 100), (n - 1, 50)))], nm='Radial, opacity stops and layer opacity'),
        ]),
        shape_layer(2, 'Stripes', [gr([rc([100, 100], [40, 200]), fl(GREY)], nm='Stripe')]),
    ])


@feature
def trim_simultaneous():
    n = 40
    return comp('trim-simultaneous', n, [
        shape_layer(1, 'Trimmed', [
            gr([
                sh(bez([(20, 30), (180, 30)], False)),
                el([60, 110], [70, 70]),
                rc([145, 110], [70, 70], 8),
                sh(bez([(20, 180), (100, 150), (180, 180)], False)),
                tm(an((0, 0), (n - 1, 40)), an((0, 10), (n - 1, 100)), 0, m=1),
                stk(NAVY, 6, lc=1),
            ], nm='Four paths, one trim'),
        ]),
        background(),
    ])


@feature
def trim_individual_offset():
    n, s, e = TRIM_INDIVIDUAL['n'], TRIM_INDIVIDUAL['s'], TRIM_INDIVIDUAL['e']
    return comp('trim-individual-offset', n, [
        shape_layer(1, 'Trimmed', [
            gr([shape for shape, _ in _trim_individual_shapes()] + [
                tm(s, e, an((0, 0), (n - 1, 360), ease='linear'), m=2),
                stk(RED, 6, lc=2),
            ], nm='Four paths trimmed as one'),
        ]),
        background(),
    ])


@feature
def trim_shape_starts():
    """Where a trim starts on each primitive, both directions: rectangles, ellipses, stars and
    polygons have a defined first vertex (After Effects' conventions)."""
    n = 40
    e = an((0, 5), (n - 1, 70), ease='linear')
    def cell(shape, c):
        return [shape, tm(0, e, 0), stk(c, 5, lc=1)]
    return comp('trim-shape-starts', n, [
        shape_layer(1, 'Trimmed', [
            gr(cell(rc([40, 40], [60, 50]), RED), nm='Rect'),
            gr(cell(rc([100, 40], [50, 50], 10, d=3), BLUE), nm='Rounded rect, reversed'),
            gr(cell(el([160, 40], [50, 50]), GREEN), nm='Ellipse'),
            gr(cell(el([40, 110], [50, 60], d=3), PURPLE), nm='Ellipse reversed'),
            gr(cell(sr([100, 110], 30, 5, 14), ORANGE), nm='Star'),
            gr(cell(sr([160, 110], 30, 6, star=False, d=3), NAVY), nm='Polygon reversed'),
            gr(cell(sr([70, 170], 28, 4, star=False, r=45), TEAL), nm='Square polygon rotated'),
            gr(cell(rc([140, 170], [80, 36], 0, d=3), PINK), nm='Rect reversed'),
        ]),
        background(),
    ])


@feature
def trim_on_fill():
    n = 40
    return comp('trim-on-fill', n, [
        shape_layer(1, 'Trimmed fills', [
            gr([el([55, 55], [90, 90]), tm(0, an((0, 10), (n - 1, 100))), fl(BLUE)], nm='Ellipse fill'),
            gr([sr([145, 55], 45, 5, 20), tm(an((0, 0), (n - 1, 30)), 80, an((0, 0), (n - 1, 90))), fl(ORANGE), stk(NAVY, 2)],
               nm='Star fill and stroke'),
            gr([sh(bez([(20, 190), (60, 110), (100, 190), (140, 110), (180, 190)], False)),
                tm(an((0, 0), (n - 1, 50)), 100), fl(GREEN, 80)], nm='Open zigzag fill'),
        ]),
        background(),
    ])


def _grid():
    return gr([gr([rc([0, 0], [10, 10]), fl(GREEN)], nm='Cell', p=(150, 110)),
               rp(3, 0, 1, p=(14, 0), nm='Columns'), rp(3, 0, 1, p=(0, 14), nm='Rows')], nm='Nested repeaters')


@feature
def repeater_transform_opacity():
    """Repeaters: copies, offset, transform (position, rotation and scale per copy about the
    anchor), start and end opacity, animated copies, nested repeaters. The copies' opacities are
    lottie-web's (copy i of n: so + (eo − so)·i/(n − 1); After Effects' first copy has the start
    opacity, the last the end one); ThorVG 1.0.4 uses (i + 1)/n, rlottie i/n: the references
    come from an equivalent drawing each copy as a group with its own transform and opacity."""
    n = 40
    return comp('repeater-transform-opacity', n, [
        shape_layer(1, 'Repeaters', [
            gr([rc([20, 40], [16, 40], 3), fl(RED), stk(NAVY, 2),
                rp(6, 0, 1, p=(28, 0), a=(0, 0), s=(95, 95), r=8, so=100, eo=20)], nm='Six copies, fading'),
            gr([el([100, 140], [14, 14]), fl(BLUE),
                rp(an((0, 1), (n - 1, 12), ease='linear'), an((0, 0), (n - 1, 1)), 2, p=(0, -40), a=(100, 140),
                   s=(100, 100), r=30, so=40, eo=100)], nm='Copies 1 to 12 around a centre, below'),
            _grid(),
        ]),
        background(),
    ])


def _ease(t, o=(0.333, 0), i=(0.667, 1)):
    """The progress of a cubic timing curve at linear fraction t (bisection on x)."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        u = (lo + hi) / 2
        x = 3 * (1 - u) ** 2 * u * o[0] + 3 * (1 - u) * u * u * i[0] + u ** 3
        lo, hi = (u, hi) if x < t else (lo, u)
    u = (lo + hi) / 2
    return 3 * (1 - u) ** 2 * u * o[1] + 3 * (1 - u) * u * u * i[1] + u ** 3


def _repeater_equivalent():
    n = 40
    ks_ = [0, n // 4, n // 2, 3 * n // 4, n - 1]
    rects = []
    for i in reversed(range(6)):        # copy 5 on top (composite above)
        rects.append(gr([rc([20, 40], [16, 40], 3), fl(RED), stk(NAVY, 2)], nm='Copy %d' % i,
                        p=(28 * i, 0), r=8 * i, s=(100 * 0.95 ** i, 100 * 0.95 ** i), o=100 - 80 * i / 5))
    dots = []
    for i in range(12):
        pos, rot, opa = [], [], []
        for k in ks_:
            copies = int(1 + 11 * k / (n - 1))
            mu = i + _ease(k / (n - 1))
            pos.append((k, [100, 140 - 40 * mu], 'hold'))
            rot.append((k, 30 * mu, 'hold'))
            visible = 40 if copies == 1 else 40 + 60 * i / (copies - 1)
            opa.append((k, visible if i < copies else 0, 'hold'))
        dots.append(gr([el([100, 140], [14, 14]), fl(BLUE)], nm='Copy %d' % i, a=(100, 140), p=an(*pos), r=an(*rot), o=an(*opa)))
    return comp('repeater-transform-opacity (equivalent)', n, [
        shape_layer(1, 'Repeaters', [gr(rects, nm='Six copies, fading'), gr(dots, nm='Copies around a centre'), _grid()]),
        background(),
    ])


@feature
def rounded_corners():
    n = 40
    r = an((0, 0), (n - 1, 30))
    return comp('rounded-corners', n, [
        shape_layer(1, 'Rounded', [
            gr([rc([55, 55], [80, 70]), rd(r), fl(RED)], nm='Rect'),
            gr([sr([145, 55], 45, 5, 20), rd(r), fl(ORANGE), stk(NAVY, 2)], nm='Star'),
            gr([sr([55, 150], 42, 3, star=False), rd(12), fl(GREEN)], nm='Triangle, static'),
            gr([sh(bez([(110, 190), (130, 110), (160, 170), (190, 110)], False)), rd(r), stk(PURPLE, 6, lj=1)],
               nm='Open polyline'),
        ]),
        background(),
    ])


def op(a, lj=1, ml=4, nm='Offset Paths'):
    return {'ty': 'op', 'nm': nm, 'a': _prop(a), 'lj': lj, 'ml': _prop(ml)}


def pb(a, nm='Pucker & Bloat'):
    return {'ty': 'pb', 'nm': nm, 'a': _prop(a)}


@feature
def offset_path():
    """Offset paths (`op`): closed shapes grown and shrunk (amount animated through 0), each line
    join (1 miter with its limit, 2 round, 3 bevel), a curve, a reversed shape."""
    n = 40
    grow = an((0, -8), (n - 1, 12))
    return comp('offset-path', n, [
        shape_layer(1, 'Offset paths', [
            gr([rc([45, 45], [50, 40]), op(grow, lj=1), fl(RED), stk(NAVY, 2)], nm='Rect, miter'),
            gr([sr([145, 50], 30, 5, 14), op(an((0, 0), (n - 1, 8)), lj=2), fl(ORANGE)], nm='Star, round'),
            gr([sr([50, 145], 32, 3, star=False), op(10, lj=3), fl(GREEN)], nm='Triangle, bevel, static'),
            gr([el([150, 145], [50, 36], d=3), op(grow, lj=1, ml=2), fl(BLUE, 80), stk(NAVY, 2)],
               nm='Ellipse reversed'),
        ]),
        background(),
    ])


@feature
def pucker_bloat():
    n = 40
    return comp('pucker-bloat', n, [
        shape_layer(1, 'Pucker and bloat', [
            gr([rc([55, 55], [70, 70]), pb(an((0, -60), (n - 1, 60))), fl(PURPLE)], nm='Square, -60 to 60'),
            gr([sr([145, 55], 40, 6, 20), pb(40), fl(ORANGE), stk(NAVY, 2)], nm='Star bloated'),
            gr([el([100, 145], [90, 70]), pb(an((0, 0), (n - 1, -80))), fl(TEAL)], nm='Ellipse puckered'),
        ]),
        background(),
    ])


def zz(size, ridges, points=1, nm='Zig Zag'):
    return {'ty': 'zz', 'nm': nm, 's': _prop(size), 'r': _prop(ridges), 'pt': _prop(points)}


ZIGZAG_SHAPES = [
    ('rect', (rect_bez(20, 25, 70, 50), 6, 3, 1), RED),
    ('ellipse', (ellipse_bez(145, 50, 35, 28), 5, 4, 2), BLUE),
    ('polyline', (bez([(20, 170), (70, 120), (120, 170), (180, 120)], False), 5, 2, 1), GREEN),
]


@feature
def zig_zag():
    """Zig-zag (`zz`): corner and smooth points, closed and open paths. ThorVG 1.0.4 does not
    draw zig-zags (later ThorVG does): the references come from an equivalent holding the
    zig-zagged outlines as plain paths, computed by this script as lottie-web's ZigZagModifier
    does (`_zigzag`)."""
    n = 20
    groups = []
    for nm, (b, size, ridges, points), c in ZIGZAG_SHAPES:
        groups.append(gr([sh(b), zz(size, ridges, points), fl(c, 60), stk(NAVY, 2, lj=1)], nm=nm))
    return comp('zig-zag', n, [shape_layer(1, 'Zig-zags', groups, ks(p=(100, 100), a=(100, 100), r=an((0, 0), (n - 1, 10)))),
                               background()])


def _zigzag(b, amplitude, ridges, smooth):
    """lottie-web's ZigZagModifier.processPath on a bezier dict (relative tangents)."""
    v, ti, to, closed = b['v'], b['i'], b['o'], b['c']
    n = len(v)
    count = n if closed else n - 1
    out = {'c': closed, 'v': [], 'i': [], 'o': []}
    step = 2 * (ridges + 1)
    def add(p, angle, direction, out_len, in_len):
        q = (p[0] + math.cos(angle) * direction * amplitude, p[1] - math.sin(angle) * direction * amplitude)
        ao, ai = angle - math.pi / 2, angle + math.pi / 2
        out['v'].append(list(q))
        out['o'].append([math.cos(ao) * out_len, -math.sin(ao) * out_len])
        out['i'].append([math.cos(ai) * in_len, -math.sin(ai) * in_len])
    def corner(cur, direction):
        prev, nxt, p = v[n - 1 if cur == 0 else cur - 1], v[(cur + 1) % n], v[cur % n]
        vx, vy = nxt[0] - prev[0], nxt[1] - prev[1]
        angle = math.atan2(0, 1) - math.atan2(-vx, vy)
        pd = math.dist(p, prev) if smooth else 0
        nd = math.dist(p, nxt) if smooth else 0
        add(p, angle, direction, nd / step, pd / step)
    direction = -1
    corner(0, direction)
    for i in range(count):
        j = (i + 1) % n
        p0, p3 = v[i], v[j]
        c1 = (p0[0] + to[i][0], p0[1] + to[i][1])
        c2 = (p3[0] + ti[j][0], p3[1] + ti[j][1])
        if c1 == tuple(p0):
            c1 = (p0[0] + (p3[0] - p0[0]) / 3, p0[1] + (p3[1] - p0[1]) / 3)
        if c2 == tuple(p3):
            c2 = (p0[0] + (p3[0] - p0[0]) * 2 / 3, p0[1] + (p3[1] - p0[1]) * 2 / 3)
        chord = math.dist(p0, p3) if smooth else 0
        direction = -direction
        for k in range(ridges):
            t = (k + 1) / (ridges + 1)
            u = 1 - t
            pt = [u ** 3 * p0[c] + 3 * u * u * t * c1[c] + 3 * u * t * t * c2[c] + t ** 3 * p3[c] for c in (0, 1)]
            d = [3 * (u * u * (c1[c] - p0[c]) + 2 * u * t * (c2[c] - c1[c]) + t * t * (p3[c] - c2[c])) for c in (0, 1)]
            add(pt, math.atan2(d[0], d[1]), direction, chord / step, chord / step)
            direction = -direction
        corner(i + 1, direction)
    return out


def _zigzag_equivalent():
    n = 20
    groups = []
    for nm, (b, size, ridges, points), c in ZIGZAG_SHAPES:
        groups.append(gr([sh(_zigzag(b, size, ridges, points == 2)), fl(c, 60), stk(NAVY, 2, lj=1)], nm=nm))
    return comp('zig-zag (equivalent)', n, [shape_layer(1, 'Zig-zags', groups, ks(p=(100, 100), a=(100, 100), r=an((0, 0), (n - 1, 10)))),
                                            background()])


def _merge_file(name, mode, n):
    moving = an((0, [70, 100], 'linear'), (n - 1, [130, 100]))
    items = [rc([100, 100], [120, 100], 0, nm='Rect'), el(moving, [90, 90], nm='Moving circle')]
    if mode == 3:
        items.append(el([100, 165], [60, 60], nm='Second circle'))
    return comp(name, n, [
        shape_layer(1, 'Merged', [gr(items + [mm(mode), fl(BLUE), stk(NAVY, 3)], nm='Merge')]),
        background(),
    ])


def _circle_moving(n, r=45):
    return path_an((0, ellipse_bez(70, 100, r, r), 'linear'), (n - 1, ellipse_bez(130, 100, r, r)))


EQUIVALENTS = {}


@feature
def merge_add():
    return _merge_file('merge-add', 2, 30)


@feature
def merge_subtract():
    return _merge_file('merge-subtract', 3, 30)


@feature
def merge_intersect():
    return _merge_file('merge-intersect', 4, 30)


@feature
def merge_exclude():
    return _merge_file('merge-exclude', 5, 30)


def _equivalents():
    """The pictures of the merge files drawn without merge paths (see the module doc)."""
    n = 30
    rect = rect_bez(40, 50, 120, 100)
    out = {}
    # add: one filled and stroked outline of the union = both shapes in one fill (non-zero),
    # stroked as the union's outline: the layer's fill, and the stroke of each shape masked to
    # outside the other shape.
    circle = _circle_moving(n)
    out['merge-add'] = comp('merge-add (equivalent)', n, [
        shape_layer(1, 'Union fill', [gr([sh(rect), sh(circle), fl(BLUE)])]),
        shape_layer(2, 'Rect outline outside the circle', [gr([sh(rect), stk(NAVY, 3)])],
                    hasMask=True, masksProperties=[mask(circle, 's')]),
        shape_layer(3, 'Circle outline outside the rect', [gr([sh(circle), stk(NAVY, 3)])],
                    hasMask=True, masksProperties=[mask(rect, 's')]),
        background(),
    ])
    second = ellipse_bez(100, 165, 30, 30)
    out['merge-subtract'] = comp('merge-subtract (equivalent)', n, [
        shape_layer(1, 'Rect minus circles', [gr([sh(rect), fl(BLUE)])], hasMask=True,
                    masksProperties=[mask(circle, 's'), mask(second, 's')]),
        shape_layer(2, 'Rect outline outside the circles', [gr([sh(rect), stk(NAVY, 3)])], hasMask=True,
                    masksProperties=[mask(circle, 's'), mask(second, 's')]),
        shape_layer(3, 'Moving circle outline inside the rect, outside the second circle', [gr([sh(circle), stk(NAVY, 3)])],
                    hasMask=True, masksProperties=[mask(rect, 'a'), mask(second, 's')]),
        shape_layer(4, 'Second circle outline inside the rect, outside the moving circle', [gr([sh(second), stk(NAVY, 3)])],
                    hasMask=True, masksProperties=[mask(rect, 'a'), mask(circle, 's')]),
        background(),
    ])
    out['merge-intersect'] = comp('merge-intersect (equivalent)', n, [
        shape_layer(1, 'Rect within the circle', [gr([sh(rect), fl(BLUE)])], hasMask=True,
                    masksProperties=[mask(circle, 'a')]),
        shape_layer(2, 'Rect outline within the circle', [gr([sh(rect), stk(NAVY, 3)])], hasMask=True,
                    masksProperties=[mask(circle, 'a')]),
        shape_layer(3, 'Circle outline within the rect', [gr([sh(circle), stk(NAVY, 3)])], hasMask=True,
                    masksProperties=[mask(rect, 'a')]),
        background(),
    ])
    out['trim-individual-offset'] = _trim_individual_equivalent()
    out['repeater-transform-opacity'] = _repeater_equivalent()
    out['zig-zag'] = _zigzag_equivalent()
    # Mask feather (neither player feathers): the same ellipse as an alpha matte blurred by
    # ThorVG's Gaussian blur effect (σ = 0.3 × blurriness) to σ = 0.38 × feather, Skottie's
    # feather (and Flipbook's).
    nf = 20
    out['mask-feather'] = comp('mask-feather (equivalent)', nf, [
        shape_layer(1, 'Blurred ellipse matte', [gr([sh(ellipse_bez(100, 100, 60, 50)), fl(WHITE)])], td=1,
                    ef=[gaussian_blur(an((0, 0), (nf - 1, 6 * 0.38 / 0.3)))]),
        shape_layer(2, 'Feathered', [gr([rc([100, 100], [160, 160]), fl(PURPLE)])], tt=1),
        background(ind=3),
    ])
    out['keyframes-per-dimension-easing'] = _per_dimension_equivalent()
    solid = FILES['null-solid-image']()
    for l in solid['layers']:
        if l['ind'] == 5:
            # ThorVG 1.0.4 applies a solid layer's opacity twice (the layer's and again the
            # solid's own fill): the same solid as a shape layer, whose opacity it applies once
            l['ty'] = 4
            l['shapes'] = [gr([rc([l.pop('sw') / 2, l.pop('sh') / 2], [60, 40]), fl(color(l.pop('sc')))])]
    solid['nm'] += ' (equivalent)'
    out['null-solid-image'] = solid
    out['merge-exclude'] = comp('merge-exclude (equivalent)', n, [
        shape_layer(1, 'Exclusive or', [gr([sh(rect), sh(circle), fl(BLUE, r=2), stk(NAVY, 3)])]),
        background(),
    ])
    return out


def _bezier_length(b, steps=2000):
    n = len(b['v'])
    total = 0
    for j in range(n if b['c'] else n - 1):
        p0, p3 = b['v'][j], b['v'][(j + 1) % n]
        p1 = [p0[0] + b['o'][j][0], p0[1] + b['o'][j][1]]
        p2 = [p3[0] + b['i'][(j + 1) % n][0], p3[1] + b['i'][(j + 1) % n][1]]
        prev = p0
        for q in range(1, steps + 1):
            t = q / steps
            u = 1 - t
            pt = [u ** 3 * p0[c] + 3 * u * u * t * p1[c] + 3 * u * t * t * p2[c] + t ** 3 * p3[c] for c in (0, 1)]
            total += math.hypot(pt[0] - prev[0], pt[1] - prev[1])
            prev = pt
    return total


TRIM_INDIVIDUAL = dict(n=40, s=10, e=45)


def _trim_individual_shapes():
    return [
        (sh(bez([(20, 30), (180, 30)], False)), bez([(20, 30), (180, 30)], False)),
        (el([60, 110], [70, 70]), ellipse_bez(60, 110, 35, 35)),
        (rc([145, 110], [70, 70]), rect_bez(110, 75, 70, 70)),
        (sh(bez([(20, 180), (100, 150), (180, 180)], False)), bez([(20, 180), (100, 150), (180, 180)], False)),
    ]


def _trim_individual_equivalent():
    """trim-individual-offset's picture at its five sampled frames, each shape trimmed on its own
    (simultaneous trims, hold keyframes) to the part lottie-web's TrimModifier gives it: the
    shapes in file order are one sequence (m = 2). ThorVG 1.0.4 and rlottie each take the
    shapes in another order."""
    n, s0, e0 = TRIM_INDIVIDUAL['n'], TRIM_INDIVIDUAL['s'], TRIM_INDIVIDUAL['e']
    shapes = _trim_individual_shapes()
    lengths = [_bezier_length(b) for _, b in shapes]
    total = sum(lengths)
    ks_ = [0, n // 4, n // 2, 3 * n // 4, n - 1]
    per_copy = {}   # (shape, edge index) -> [(frame, a, b)]
    for k in ks_:
        o = (360 * k / (n - 1)) % 360 / 360
        s, e = s0 / 100 + o, e0 / 100 + o
        s, e = round(s * 10000) / 10000, round(e * 10000) / 10000
        spans = [(s, e)] if e <= 1 else ([(s - 1, e - 1)] if s >= 1 else [(s, 1), (0, e - 1)])
        added = 0
        for i, length in enumerate(lengths):
            edges = []
            for a, b in spans:
                if b * total < added or a * total > added + length:
                    continue
                ss = 0 if a * total <= added else (a * total - added) / length
                ee = 1 if b * total >= added + length else (b * total - added) / length
                edges.append((ss, ee))
            added += length
            for j in range(2):
                a, b = edges[j] if j < len(edges) else (0, 0)
                per_copy.setdefault((i, j), []).append((k, a * 100, b * 100))
    groups = []
    for (i, j), vals in sorted(per_copy.items()):
        start = an(*[(k, a, 'hold') for k, a, _ in vals])
        end = an(*[(k, b, 'hold') for k, _, b in vals])
        groups.append(gr([shapes[i][0], tm(start, end, 0, m=1), stk(RED, 6, lc=2)], nm='Shape %d part %d' % (i, j)))
    return comp('trim-individual-offset (equivalent)', n, [shape_layer(1, 'Trimmed', groups), background()])


@feature
def group_transforms():
    n = 40
    inner = gr([rc([0, 0], [40, 40]), fl(RED)], nm='Inner', p=an((0, (30, 0)), (n - 1, (-30, 0))), a=(20, 20),
               r=an((0, 0), (n - 1, 180)), o=60)
    return comp('group-transforms', n, [
        shape_layer(1, 'Groups', [
            gr([inner, gr([el([0, 0], [70, 70]), fl(BLUE)], nm='Ellipse')], nm='Outer', p=(60, 60), s=(120, 80), r=20),
            gr([gr([sr([0, 0], 30, 5, 14), fl(YELLOW), stk(NAVY, 3)], nm='Star group', p=(0, 0), s=an((0, (50, 50)), (n - 1, (120, 60))),
                   sk=an((0, 0), (n - 1, 30)), sa=45)], nm='Skewed', p=(145, 60), o=an((0, 100), (n - 1, 40))),
            gr([gr([gr([rc([0, 0], [30, 30]), fl(GREEN)], nm='Level 3', r=45, p=(20, 0))], nm='Level 2', r=an((0, 0), (n - 1, -90)),
                   s=(150, 150))], nm='Level 1', p=(100, 150), a=(10, 0)),
        ]),
        background(),
    ])


@feature
def group_styles_nested():
    """A style paints every path listed before it in its group, nested groups' paths included
    (through their transforms); groups without styles of their own here. (Where a nested group
    has its own fill too, After Effects and lottie-web paint the path with both, ThorVG with the
    nearest only: not tested against ThorVG.)"""
    n = 30
    return comp('group-styles-nested', n, [
        shape_layer(1, 'Styles over nested groups', [
            gr([
                gr([rc([0, 0], [40, 40])], nm='Square, rotating', p=(-30, 0), r=an((0, 0), (n - 1, 90))),
                gr([gr([el([0, 0], [36, 36])], nm='Circle', p=(30, 0), s=an((0, (100, 100)), (n - 1, (60, 140))))],
                   nm='Wrapper'),
                fl(ORANGE), stk(NAVY, 4, lj=1),
            ], nm='Shared fill and stroke', p=(100, 60)),
            gr([
                gr([sr([0, 0], 30, 5, 14)], nm='Star', p=(-40, 0)),
                gr([rc([0, 0], [50, 30], 8)], nm='Rounded rect', p=(30, 0), r=20),
                gs([-70, 0], [60, 0], stops([(0, GREEN), (1, PURPLE)]), 6),
                gf([-70, -30], [60, 30], stops([(0, YELLOW), (1, PINK)])),
            ], nm='Shared gradients', p=(100, 150)),
        ]),
        background(),
    ])


@feature
def layer_transform_anchor_position_split():
    n = 40
    box = [gr([rc([0, 0], [50, 50]), fl(TEAL), stk(NAVY, 3)]), gr([el([-25, -25], [10, 10]), fl(RED)], nm='Corner dot')]
    return comp('layer-transform-anchor-position-split', n, [
        shape_layer(1, 'Split position, eased differently', box,
                    ks(px=an((0, 40), (n - 1, 160), ease=({'x': [0.7], 'y': [0]}, {'x': [0.3], 'y': [1]})),
                       py=an((0, 40), (n - 1, 100), ease='linear'), a=(-25, -25), r=an((0, 0), (n - 1, 45)))),
        shape_layer(2, 'Anchor animated', box,
                    ks(p=(100, 150), a=an((0, (0, 0)), (n - 1, (40, 20))), s=an((0, (100, 100)), (n - 1, (60, 140))))),
        background(),
    ])


@feature
def scale_xy_on_stroke():
    n = 40
    return comp('scale-xy-on-stroke', n, [
        shape_layer(1, 'Layer scaled 200 x 50', [gr([el([0, 0], [30, 30]), stk(RED, 6)]),
                                                 gr([rc([0, 0], [40, 40]), stk(NAVY, 3, lj=1)])],
                    ks(p=(60, 50), s=(200, 50))),
        shape_layer(2, 'Group scaled 50 x 180', [gr([sh(bez([(-40, -20), (0, 20), (40, -20)], False)), stk(BLUE, 8, lj=1, lc=1)],
                                                    s=(50, 180))], ks(p=(150, 60))),
        shape_layer(3, 'Scale animated', [gr([sr([0, 0], 30, 5, 15), stk(PURPLE, 5, lj=2), fl(YELLOW)])],
                    ks(p=(100, 150), s=an((0, (150, 60)), (n - 1, (50, 160))))),
        background(),
    ])


@feature
def rotation_skew_opacity():
    n = 40
    shapes = [gr([rc([0, 0], [60, 40]), fl(ORANGE), stk(NAVY, 3)])]
    return comp('rotation-skew-opacity', n, [
        shape_layer(1, 'Rotating', shapes, ks(p=(55, 55), r=an((0, 0), (n - 1, 270), ease='linear'))),
        shape_layer(2, 'Skewed', shapes, ks(p=(145, 55), sk=an((0, -40), (n - 1, 40)), sa=an((0, 0), (n - 1, 90)))),
        shape_layer(3, 'Fading', shapes, ks(p=(55, 145), o=an((0, 100), (n - 1, 10)), r=-30)),
        shape_layer(4, 'All three', shapes, ks(p=(145, 145), r=an((0, 0), (n - 1, -120)), sk=25, sa=30,
                                               o=an((0, 30), (n - 1, 100)), s=(120, 80))),
        background(),
    ])


@feature
def keyframes_linear_bezier_hold():
    n = 40
    sq = [gr([rc([0, 0], [24, 24]), fl(BLUE)])]
    overshoot = ({'x': [0.5], 'y': [-0.6]}, {'x': [0.5], 'y': [1.6]})
    return comp('keyframes-linear-bezier-hold', n, [
        shape_layer(1, 'Linear', sq, ks(p=an((0, (20, 25), 'linear'), (20, (180, 25), 'linear'), (n - 1, (100, 25))))),
        shape_layer(2, 'Eased', sq, ks(p=an((0, (20, 65)), (n - 1, (180, 65))))),
        shape_layer(3, 'Overshoot', sq, ks(p=an((0, (40, 105), overshoot), (n - 1, (160, 105))))),
        shape_layer(4, 'Hold', sq, ks(p=an((0, (20, 145), 'hold'), (10, (80, 145), 'hold'), (25, (140, 145), 'linear'),
                                           (n - 1, (180, 145))))),
        background(),
    ])


PER_DIM = ({'x': [0.9, 0.1], 'y': [0, 0]}, {'x': [1, 0.1], 'y': [1, 1]})


@feature
def keyframes_per_dimension_easing():
    """Easing handles per dimension (`o.x`, `o.y` arrays): x eases in slowly, y quickly, on a
    scale and on an unsplit position (lottie-web, lottie-ios and rlottie ease each dimension on
    its own; ThorVG 1.0.4 takes the first dimension's handles for all: the references come from
    an equivalent with split position and nested scales)."""
    n = 30
    sq = [gr([rc([0, 0], [24, 24]), fl(BLUE), stk(NAVY, 2)])]
    return comp('keyframes-per-dimension-easing', n, [
        shape_layer(1, 'Scale eased per dimension', sq, ks(p=(60, 100), s=an((0, (50, 50), PER_DIM), (n - 1, (250, 400))))),
        shape_layer(2, 'Position eased per dimension', sq, ks(p=an((0, (110, 20), PER_DIM), (n - 1, (180, 180))))),
        background(),
    ])


def _per_dimension_equivalent():
    n = 30
    ex = ({'x': [0.9], 'y': [0]}, {'x': [1], 'y': [1]})
    ey = ({'x': [0.1], 'y': [0]}, {'x': [0.1], 'y': [1]})
    sq = [gr([rc([0, 0], [24, 24]), fl(BLUE), stk(NAVY, 2)])]
    nested = [gr([gr(sq, nm='y', s=an((0, (100, 50), ey), (n - 1, (100, 400))))], nm='x', s=an((0, (50, 100), ex), (n - 1, (250, 100))))]
    return comp('keyframes-per-dimension-easing (equivalent)', n, [
        shape_layer(1, 'Scale eased per dimension', nested, ks(p=(60, 100))),
        shape_layer(2, 'Position eased per dimension', sq, ks(px=an((0, 110, ex), (n - 1, 180)), py=an((0, 20, ey), (n - 1, 180)))),
        background(),
    ])


@feature
def spatial_bezier_motion_path():
    n = 40
    dot = [gr([el([0, 0], [20, 20]), fl(RED), stk(NAVY, 2)])]
    return comp('spatial-bezier-motion-path', n, [
        shape_layer(1, 'Arc', dot, ks(p=an((0, (30, 170), 'ease', [0, -120], [-60, 0]), (n - 1, (170, 40))))),
        shape_layer(2, 'S curve, three keyframes', dot,
                    ks(p=an((0, (20, 40), 'linear', [60, 0], [-60, 0]), (20, (100, 100), 'linear', [60, 0], [-10, -80]),
                            (n - 1, (180, 170))))),
        background(),
    ])


@feature
def auto_orient():
    n = 40
    arrow = [gr([sh(bez([(-18, -10), (18, 0), (-18, 10), (-10, 0)])), fl(PURPLE), stk(NAVY, 2)])]
    return comp('auto-orient', n, [
        shape_layer(1, 'Arrow on a curve', arrow,
                    ks(p=an((0, (20, 170), 'ease', [30, -150], [-40, 40]), (n - 1, (180, 40)))), ao=1),
        shape_layer(2, 'Arrow on a line, rotated 30 on top', arrow,
                    ks(p=an((0, (20, 60), 'linear'), (n - 1, (180, 120))), r=30), ao=1),
        background(),
    ])


@feature
def parenting():
    n = 40
    arm = [gr([rc([30, 0], [60, 14], 7), fl(BLUE)])]
    return comp('parenting', n, [
        shape_layer(4, 'Grandchild', [gr([el([0, 0], [20, 20]), fl(RED)])], ks(p=(60, 0)), parent=3),
        shape_layer(3, 'Child: second segment, own anchor', arm,
                    ks(p=(60, 0), r=an((0, 0), (n - 1, 90))), parent=2),
        shape_layer(2, 'Parent: first segment, 30 % opacity (not inherited)', arm,
                    ks(p=(0, 0), r=an((0, -30), (n - 1, 60)), o=30), parent=1),
        layer(3, 1, 'Null: pivot, scaled, moving', ks(p=an((0, (60, 100)), (n - 1, (90, 110))), s=(120, 120))),
        layer(3, 5, 'Null outside its in/out points (still transforms its child)', ks(p=(150, 150), r=45), ip=100, op=200),
        shape_layer(6, 'Child of the invisible null', [gr([rc([0, 0], [40, 20]), fl(GREEN)])], ks(p=(0, 0)), parent=5),
        background(),
    ])


def _image_data(kind):
    """A small deterministic test picture: 40x30, a gradient with a disc and, for PNG, a
    transparent border."""
    from PIL import Image, ImageDraw
    w, h = 40, 30
    im = Image.new('RGBA', (w, h))
    px = im.load()
    for y in range(h):
        for x in range(w):
            px[x, y] = (int(255 * x / (w - 1)), int(255 * y / (h - 1)), 160, 255)
    d = ImageDraw.Draw(im)
    d.ellipse([12, 7, 28, 23], fill=(255, 255, 255, 255))
    buf = io.BytesIO()
    if kind == 'png':
        for y in range(h):
            for x in range(w):
                if x < 4 or y < 4 or x >= w - 4 or y >= h - 4:
                    px[x, y] = (0, 0, 0, 0)
                elif x < 8:
                    r, g, b, _ = px[x, y]
                    px[x, y] = (r, g, b, 128)
        im.save(buf, 'PNG', optimize=False, compress_level=9)
    else:
        im.convert('RGB').save(buf, 'JPEG', quality=90)
    return buf.getvalue()


@feature
def null_solid_image():
    n = 30
    png = 'data:image/png;base64,' + base64.b64encode(_image_data('png')).decode()
    jpg = 'data:image/jpeg;base64,' + base64.b64encode(_image_data('jpeg')).decode()
    assets = [{'id': 'image_png', 'w': 40, 'h': 30, 'u': '', 'p': png, 'e': 1},
              {'id': 'image_jpeg', 'w': 40, 'h': 30, 'u': '', 'p': jpg, 'e': 1}]
    return comp('null-solid-image', n, [
        layer(2, 1, 'PNG, scaled 2x', ks(p=(10, 10), s=(200, 200)), refId='image_png', parent=4),
        layer(2, 2, 'JPEG, scaled 2x', ks(p=(100, 10), s=(200, 200)), refId='image_jpeg', parent=4),
        layer(2, 3, 'PNG, rotated', ks(p=(100, 150), a=(20, 15), r=an((0, 0), (n - 1, 30)), s=(150, 150)), refId='image_png'),
        layer(3, 4, 'Null holding the images', ks(p=an((0, (0, 0)), (n - 1, (0, 20))))),
        layer(1, 5, 'Solid, rotated, half opacity', ks(p=(40, 150), a=(30, 20), r=-20, o=50), sc='#e63946', sw=60, sh=40),
        layer(1, 6, 'Solid background', ks(), sc='#a8dadc', sw=200, sh=200),
    ], assets=assets)


@feature
def image_external():
    n = 10
    assets = [{'id': 'image_file', 'w': 40, 'h': 30, 'u': 'images/', 'p': 'picture.png', 'e': 0}]
    return comp('image-external', n, [
        layer(2, 1, 'PNG beside the JSON', ks(p=(20, 30), s=(400, 400)), refId='image_file'),
        background(ind=2),
    ], assets=assets)


@feature
def precomp_timeremap_stretch_starttime_inout():
    n = 60
    inner = [
        shape_layer(1, 'Spinner', [gr([rc([0, 0], [40, 16], 4), fl(RED), stk(NAVY, 2)])],
                    ks(p=an((0, (10, 50), 'linear'), (60, (90, 50))), r=an((0, 0), (60, 360), ease='linear'))),
        layer(1, 2, 'Precomp background', ks(), sc='#ffd166', sw=100, sh=100),
    ]
    inner[0]['op'] = 120
    inner[1]['op'] = 120
    assets = [{'id': 'comp_spinner', 'nm': 'Spinner', 'fr': 30, 'layers': inner}]
    def inst(ind, nm, p, **extra):
        l = layer(0, ind, nm, ks(p=p, a=(50, 50), s=(90, 90)), refId='comp_spinner', w=100, h=100)
        l.update(extra)
        return l
    return comp('precomp-timeremap-stretch-starttime-inout', n, [
        inst(1, 'Plain', (50, 50)),
        inst(2, 'Start time 20', (150, 50), st=20),
        inst(3, 'Stretch 2', (50, 150), sr=2),
        inst(4, 'Time remap: back and forth, in 15 out 50', (150, 150), ip=15, op=50,
             tm=an((0, 1.5), (30, 0.2), (n - 1, 1))),
        background(),
    ], assets=assets)


@feature
def masks_modes():
    n = 30
    cells = [('a', 'Add'), ('s', 'Subtract'), ('i', 'Intersect'), ('l', 'Lighten'), ('d', 'Darken'), ('f', 'Difference')]
    layers = []
    for k, (mode, nm) in enumerate(cells):
        cx, cy = 35 + (k % 3) * 65, 55 + (k // 3) * 90
        first = ellipse_bez(cx - 10, cy, 24, 30)
        second = path_an((0, ellipse_bez(cx + 4, cy - 8, 22, 22)), (n - 1, ellipse_bez(cx + 12, cy + 10, 22, 22)))
        layers.append(shape_layer(k + 1, 'Mask ' + nm, [gr([rc([cx, cy], [60, 80]), fl([0.1, 0.4, 0.8, 1])])],
                                  hasMask=True, masksProperties=[mask(first, 'a', o=70, nm='First (add, 70 %)'),
                                                                 mask(second, mode, o=80, nm=nm + ' (80 %)')]))
    return comp('masks-modes', n, layers + [background(ind=10)])


@feature
def mask_inverted_opacity_expansion():
    n = 40
    star = bez([(100 + 40 * math.sin(k * math.pi / 4) * (1 if k % 2 == 0 else 0.5),
                 100 - 40 * math.cos(k * math.pi / 4) * (1 if k % 2 == 0 else 0.5)) for k in range(8)])
    return comp('mask-inverted-opacity-expansion', n, [
        shape_layer(1, 'Inverted mask', [gr([rc([55, 55], [90, 90]), fl(RED)])], hasMask=True,
                    masksProperties=[mask(ellipse_bez(55, 55, 25, 25), 'a', inv=True)]),
        shape_layer(2, 'Opacity animated', [gr([rc([145, 55], [90, 90]), fl(BLUE)])], hasMask=True,
                    masksProperties=[mask(ellipse_bez(145, 55, 35, 35), 'a', o=an((0, 100), (n - 1, 20)))]),
        shape_layer(3, 'Expansion -10 to 15', [gr([rc([100, 100], [180, 90]), fl(GREEN)])], ks(p=(0, 50)), hasMask=True,
                    masksProperties=[mask(star, 'a', x=an((0, -10), (n - 1, 15)))]),
        background(),
    ])


@feature
def mask_feather():
    n = 20
    return comp('mask-feather', n, [
        shape_layer(1, 'Feathered', [gr([rc([100, 100], [160, 160]), fl(PURPLE)])], hasMask=True,
                    masksProperties=[mask(ellipse_bez(100, 100, 60, 50), 'a', f=an((0, [0, 0]), (n - 1, [6, 6])))]),
        background(),
    ])


@feature
def mattes():
    n = 30
    layers = []
    names = {1: 'alpha', 2: 'alpha inverted', 3: 'luma', 4: 'luma inverted'}
    ind = 1
    for k, mode in enumerate((1, 2, 3, 4)):
        cx, cy = 50 + (k % 2) * 100, 50 + (k // 2) * 100
        # the matte: a bright opaque disc on a dark half-transparent square (alpha and luma differ)
        matte = shape_layer(ind, 'Matte for ' + names[mode], [
            gr([el(an((0, [cx - 15, cy]), (n - 1, [cx + 15, cy])), [50, 50]), fl(color('#e0e0e0'))]),
            gr([rc([cx, cy], [70, 70]), fl(color('#303030'), 60)]),
        ], td=1)
        target = shape_layer(ind + 1, 'Matted: ' + names[mode], [
            gr([rc([cx, cy - 20], [90, 40]), fl(RED)]), gr([rc([cx, cy + 20], [90, 40]), fl(BLUE)])], tt=mode)
        layers += [matte, target]
        ind += 2
    return comp('mattes', n, layers + [background(ind=20)])


@feature
def matte_parent_index():
    """The newer matte form: `tp` names the matte layer by its `ind`, anywhere above."""
    n = 20
    return comp('matte-parent-index', n, [
        shape_layer(1, 'Matte (named by tp)', [gr([sr([100, 100], an((0, 40), (n - 1, 90)), 5, 35), fl(WHITE)])], td=1),
        shape_layer(2, 'Unrelated layer between', [gr([rc([30, 30], [40, 40]), fl(GREEN)])]),
        shape_layer(3, 'Matted', [gr([el([100, 100], [60, 60]), fl(NAVY)]), gr([rc([100, 100], [160, 160]), fl(ORANGE)])],
                    tt=1, tp=1),
        background(ind=4),
    ])


def _blend_file(name, modes):
    n = 10
    layers = []
    for k, mode in enumerate(modes):
        cx, cy = 25 + (k % 4) * 50, 25 + (k // 4) * 50
        layers.append(shape_layer(mode, 'bm %d' % mode, [gr([el([cx, cy], [38, 38]), fl([0.9, 0.5, 0.2, 1], 85)])],
                                  bm=mode))
    rows = (len(modes) + 3) // 4
    stripes = [gr([rc([100, 25 + 50 * j], [200, 50]), gf([0, 0], [200, 0], stops([(0, NAVY), (0.5, color('#7fc8f8')), (1, YELLOW)]))],
                  nm='Row %d' % j) for j in range(rows)]
    half = gr([rc([100, 25 * rows], [60, 50 * rows]), fl(color('#40916c'), 70)], nm='Translucent band')
    layers.append(shape_layer(20, 'Backdrop', [half] + stripes))
    return comp(name, n, layers, h=50 * rows)


@feature
def blend_modes():
    """Layer blend modes 1–11 (multiply … exclusion: the separable ones), 85 % opaque discs over
    a gradient and a translucent band."""
    return _blend_file('blend-modes', list(range(1, 12)))


@feature
def blend_modes_hsl_add():
    """Blend modes 12–16: hue, saturation, colour, luminosity (Flipbook: the W3C formulas;
    ThorVG's differ by up to 27 levels) and add (Flipbook: Core Animation's plusLighter, the sum;
    ThorVG mixes min(1, s + d) by the layer's opacity). rlottie draws no blend modes, so this
    file keeps the rule's (loose) tolerance."""
    return _blend_file('blend-modes-hsl-add', list(range(12, 17)))


def _control(ty, nm, v):
    return {'ty': ty, 'nm': nm, 'v': _prop(v)}


def drop_shadow(color=(0, 0, 0, 1), opacity=127.5, direction=135, distance=10, softness=10):
    return {'ty': 25, 'nm': 'Drop Shadow', 'mn': 'ADBE Drop Shadow', 'en': 1, 'ef': [
        _control(2, 'Shadow Color', list(color)), _control(0, 'Opacity', opacity), _control(0, 'Direction', direction),
        _control(0, 'Distance', distance), _control(0, 'Softness', softness), _control(7, 'Shadow Only', 0)]}


def gaussian_blur(blurriness):
    return {'ty': 29, 'nm': 'Gaussian Blur', 'mn': 'ADBE Gaussian Blur 2', 'en': 1, 'ef': [
        _control(0, 'Blurriness', blurriness), _control(7, 'Blur Dimensions', 1), _control(7, 'Repeat Edge Pixels', 0)]}


def fill_effect(c, opacity=1):
    return {'ty': 21, 'nm': 'Fill', 'mn': 'ADBE Fill', 'en': 1, 'ef': [
        _control(10, 'Fill Mask', 0), _control(7, 'All Masks', 0), _control(2, 'Color', c), _control(7, 'Invert', 0),
        _control(0, 'Horizontal Feather', 0), _control(0, 'Vertical Feather', 0), _control(0, 'Opacity', opacity)]}


@feature
def effect_drop_shadow():
    """The drop shadow effect (ty 25): colour, opacity, direction, distance, softness, animated.
    Not here, because ThorVG 1.0.4 draws them otherwise (unit tests cover them): a shape
    layer's shadow keeps the composition's direction when the layer turns (After Effects,
    Skottie; ThorVG turns it with the layer, as for a solid here), and masks cut the content
    before its shadow is cast (ThorVG casts the shadow of the unmasked content)."""
    n = 30
    shapes = [gr([rc([0, 0], [50, 36], 6), fl(ORANGE)]), gr([el([18, -12], [24, 24]), fl(BLUE)])]
    return comp('effect-drop-shadow', n, [
        shape_layer(1, 'Shadow animated', shapes, ks(p=(55, 55)),
                    ef=[drop_shadow(distance=an((0, 4), (n - 1, 14)), direction=an((0, 90), (n - 1, 200)), softness=8)]),
        layer(1, 2, 'Solid rotated 40, red shadow (turns with it)', ks(p=(145, 55), a=(25, 18), r=40), sc='#f4a261', sw=50, sh=36,
              ef=[drop_shadow(color=(0.8, 0, 0, 1), opacity=200, distance=8, softness=0)]),
        shape_layer(3, 'Opacity animated', shapes, ks(p=(100, 145)),
                    ef=[drop_shadow(opacity=an((0, 60), (n - 1, 255)), distance=10, softness=4)]),
        background(),
    ])


@feature
def effect_fill():
    """The fill effect (ty 21): the layer's content recoloured, its coverage kept; animated colour."""
    n = 30
    shapes = [gr([sr([0, 0], 36, 5, 16), fl(ORANGE), stk(NAVY, 4)]), gr([el([0, 0], [90, 40]), fl(BLUE, 50)])]
    return comp('effect-fill', n, [
        shape_layer(1, 'Filled red', shapes, ks(p=(60, 60)), ef=[fill_effect(RED)]),
        shape_layer(2, 'Fill colour animated', shapes, ks(p=(140, 140), r=20),
                    ef=[fill_effect(an((0, GREEN), (n - 1, PURPLE)))]),
        background(),
    ])


@feature
def composite_icon():
    """Features together, as an exported icon animation has them: a null bouncing (overshooting
    ease) and parenting a precomposition whose layers draw a check mark by a trim (round caps
    and joins) over a rounded, gradient-filled badge; an inverted alpha matte cutting a ring;
    the precomposition layer's own opacity (the whole group fades, overlaps not showing)."""
    n = 45
    check = bez([(-18, 0), (-5, 13), (20, -14)], False)
    inner = [
        shape_layer(1, 'Check', [gr([sh(check), tm(0, an((5, 0), (30, 100)), 0), stk(WHITE, 7, lc=2, lj=2)])],
                    ks(p=(50, 50))),
        shape_layer(2, 'Badge', [gr([sr([0, 0], 38, 8, 32, os_=0, is_=0), rd(6),
                                     gf([-30, -30], [30, 30], stops([(0, GREEN), (1, TEAL)]))])],
                    ks(p=(50, 50), r=an((0, 0), (44, 45)))),
    ]
    for l in inner:
        l['op'] = 45
    assets = [{'id': 'comp_badge', 'nm': 'Badge', 'fr': 30, 'layers': inner}]
    overshoot = ({'x': [0.4], 'y': [0]}, {'x': [0.3], 'y': [1.5]})
    return comp('composite-icon', n, [
        layer(3, 1, 'Bounce', ks(p=(100, 100), s=an((0, (40, 40), overshoot), (20, (100, 100)), (n - 1, (100, 100))))),
        dict(layer(0, 2, 'Badge precomp', ks(p=(0, 0), a=(50, 50), o=an((0, 0), (10, 80))), refId='comp_badge', w=100, h=100),
             parent=1),
        shape_layer(3, 'Ring cut-out (matte)', [gr([el([100, 100], an((0, [60, 60]), (n - 1, [150, 150]))), fl(WHITE)])], td=1),
        shape_layer(4, 'Ring', [gr([el([100, 100], [170, 170]), fl(PURPLE, 70)])], tt=2),
        background(),
    ], assets=assets)


@feature
def composite_nested_precomps():
    """Precompositions inside precompositions: the outer instance time-remapped and masked,
    the inner one stretched and starting late, a blend mode on a precomposition layer, layers
    parented across in/out points inside."""
    n = 60
    leaf = [
        shape_layer(1, 'Dot', [gr([el([0, 0], [16, 16]), fl(RED)])], ks(p=an((0, (10, 30), 'linear'), (40, (70, 30))))),
        shape_layer(2, 'Bar', [gr([rc([0, 0], [60, 10]), fl(NAVY)])], ks(p=(40, 50)), ip=10, op=50),
    ]
    for l in leaf:
        l['op'] = min(l['op'], 60) if l['op'] != 9999 else 60
    middle = [
        dict(layer(0, 1, 'Leaf, stretched x2, starts at 5', ks(p=(40, 40), a=(40, 40)), refId='comp_leaf', w=80, h=80),
             sr=2, st=5, op=120),
        dict(shape_layer(2, 'Square multiplied', [gr([rc([40, 40], [50, 50]), fl(YELLOW)])], bm=1), op=120),
        layer(1, 3, 'Middle background', ks(), sc='#a8dadc', sw=80, sh=80, op=120),
    ]
    assets = [{'id': 'comp_leaf', 'nm': 'Leaf', 'fr': 30, 'layers': leaf},
              {'id': 'comp_middle', 'nm': 'Middle', 'fr': 30, 'layers': middle}]
    return comp('composite-nested-precomps', n, [
        dict(layer(0, 1, 'Remapped, masked', ks(p=(100, 100), a=(40, 40), s=(200, 200)), refId='comp_middle', w=80, h=80,
                   tm=an((0, 0), (30, 3), (n - 1, 1)), hasMask=True,
                   masksProperties=[mask(ellipse_bez(40, 40, 36, 30), 'a')])),
        background(),
    ], assets=assets)


@feature
def layer_3d_flat():
    """3D layers (`ddd: 1`) as exports often have them: three-component anchor, position and
    scale, rotation as `rz`, and a small `rx`/`ry` turn (drawn without perspective, as ThorVG
    and rlottie do: no camera)."""
    n = 30
    shapes = [gr([rc([0, 0], [60, 40], 6), fl(ORANGE), stk(NAVY, 3)])]
    def ks3(p, rz, rx=0, ry=0):
        return {'o': st(100), 'a': st([0, 0, 0]), 'p': _prop(p), 's': st([100, 100, 100]),
                'rx': _prop(rx), 'ry': _prop(ry), 'rz': _prop(rz), 'or': st([0, 0, 0])}
    l1 = shape_layer(1, '3D, rz animated', shapes, ks3([60, 60, 0], an((0, 0), (n - 1, 90))))
    l2 = shape_layer(2, '3D, rx 40', shapes, ks3([140, 60, 0], 0, rx=40))
    l3 = shape_layer(3, '3D, ry animated', shapes, ks3([100, 150, 0], 0, ry=an((0, 0), (n - 1, 60))))
    for l in (l1, l2, l3):
        l['ddd'] = 1
    return comp('layer-3d-flat', n, [l1, l2, l3, background()], ddd=1)


@feature
def hidden_layers_items():
    n = 20
    return comp('hidden-layers-items', n, [
        shape_layer(1, 'Hidden layer', [gr([rc([100, 100], [200, 200]), fl(RED)])], hd=True),
        shape_layer(2, 'Visible, with hidden items', [
            gr([rc([50, 50], [60, 60]), fl(RED)], nm='Hidden group', hd=True),
            gr([el([150, 50], [60, 60]), dict(fl(RED), hd=True), fl(BLUE)], nm='Hidden fill above a visible one'),
            gr([dict(rc([50, 150], [60, 60]), hd=True), el([50, 150], [50, 50]), fl(GREEN)], nm='Hidden shape'),
            gr([rc([150, 150], [60, 60]), dict(stk(RED, 12), hd=True), dict(tm(0, 30), hd=True), stk(NAVY, 4)],
               nm='Hidden stroke and trim'),
        ]),
        shape_layer(3, 'Masked with a hidden-mode mask', [gr([rc([100, 100], [30, 30]), fl(PURPLE)])], hasMask=True,
                    masksProperties=[mask(ellipse_bez(100, 100, 5, 5), 'n')]),
        background(),
    ])


@feature
def markers():
    n = 30
    d = comp('markers', n, [
        shape_layer(1, 'Box', [gr([rc([0, 0], [40, 40]), fl(TEAL)])],
                    ks(p=an((0, (30, 100)), (10, (100, 100)), (20, (100, 40)), (n - 1, (170, 160))))),
        background(),
    ])
    # at the sampled frames 0, 7, 15 (N = 30): FeatureReferenceTests plays from marker to marker
    # and compares with the references of those frames
    d['markers'] = [{'tm': 0, 'cm': 'intro', 'dr': 7}, {'tm': 7, 'cm': 'rise', 'dr': 8},
                    {'tm': 15, 'cm': 'outro', 'dr': 14}]
    return d


# Glyphs: a tiny hand-drawn font, units of 100 per size-100 em (as After Effects exports).
def _glyph(ch, w, shapes):
    return {'ch': ch, 'size': 100, 'style': 'Regular', 'w': w, 'fFamily': 'Boxy',
            'data': {'shapes': [{'ty': 'gr', 'nm': ch, 'it': shapes + [tr()]}]}}


def _boxy_chars():
    def poly(*pts):
        return sh(bez(pts))
    return [
        _glyph('H', 62, [poly((6, 0), (18, 0), (18, -30), (44, -30), (44, 0), (56, 0), (56, -72), (44, -72), (44, -42),
                             (18, -42), (18, -72), (6, -72))]),
        _glyph('I', 26, [poly((7, 0), (19, 0), (19, -72), (7, -72))]),
        _glyph('O', 70, [sh(ellipse_bez(35, -36, 30, 36)), sh(ellipse_bez(35, -36, 17, 24, reverse=True))]),
        _glyph('L', 50, [poly((6, 0), (46, 0), (46, -12), (18, -12), (18, -72), (6, -72))]),
        _glyph('A', 64, [poly((2, 0), (15, 0), (20, -16), (44, -16), (49, 0), (62, 0), (38, -72), (26, -72)),
                         poly((24, -27), (40, -27), (32, -54))]),
        _glyph(' ', 24, []),
    ]


def _text_layer(ind, nm, docs, p, font, **extra):
    return layer(5, ind, nm, ks(p=p), t={'d': {'k': docs}, 'p': {}, 'm': {'g': 1, 'a': st([0, 0])}, 'a': []}, **extra)


def _doc(t, text, size, font, fc, j=0, tr_=0, lh=None, fs=None, box=None, caps=None):
    s = {'s': size, 'f': font, 't': text, 'j': j, 'tr': tr_, 'lh': lh or size * 1.2, 'ls': 0, 'fc': fc[:3]}
    if fs:
        s['sc'], s['sw'], s['of'] = fs[0][:3], fs[1], True
    if box:
        s['ps'], s['sz'] = box
    if caps is not None:
        s['ca'] = caps
    return {'s': s, 't': t}


@feature
def text_box_stroke():
    """Glyph text in a box (`sz`, `ps`: wrapped at spaces to the box width), left and centred,
    with an outline (`sc`, `sw`, `of`: stroke over the fill) and the all-caps flag (`ca`)."""
    n = 10
    fonts = {'list': [{'fName': 'Boxy-Regular', 'fFamily': 'Boxy', 'fStyle': 'Regular', 'ascent': 72}]}
    return comp('text-box-stroke', n, [
        _text_layer(1, 'Box, left', [_doc(0, 'HOLA HALO LILA AH', 26, 'Boxy-Regular', BLUE, lh=30,
                                          box=([0, 0], [150, 90]))], (20, 10), 'Boxy'),
        # All caps: After Effects exports the text already upper-cased (ThorVG relies on it)
        _text_layer(2, 'Box, centred, outlined, caps', [_doc(0, 'HOLA AHI LILA', 24, 'Boxy-Regular', YELLOW, j=2, lh=28,
                                                             fs=(NAVY, 2), box=([0, 0], [120, 80]), caps=1)],
                    (40, 110), 'Boxy'),
        background(),
    ], fonts=fonts, chars=_boxy_chars())


@feature
def text_glyphs():
    n = 40
    fonts = {'list': [{'fName': 'Boxy-Regular', 'fFamily': 'Boxy', 'fStyle': 'Regular', 'ascent': 72}]}
    return comp('text-glyphs', n, [
        _text_layer(1, 'Left, two lines', [_doc(0, 'HOLA\rHI', 40, 'Boxy-Regular', NAVY)], (10, 50), 'Boxy'),
        _text_layer(2, 'Centred, tracking, changes at frame 20',
                    [_doc(0, 'HALO', 30, 'Boxy-Regular', RED, j=2, tr_=100), _doc(20, 'LILA', 30, 'Boxy-Regular', BLUE, j=2, tr_=100)],
                    (100, 170), 'Boxy'),
        dict(_text_layer(3, 'Right-justified, rotating', [_doc(0, 'AH', 36, 'Boxy-Regular', GREEN, j=1)],
                         (190, 120), 'Boxy'), ks=ks(p=(190, 120), r=an((0, 0), (n - 1, -30)))),
        background(),
    ], fonts=fonts, chars=_boxy_chars())


@feature
def text_font():
    n = 10
    fonts = {'list': [{'fName': 'DejaVuSans', 'fFamily': 'DejaVu Sans', 'fStyle': 'Book', 'ascent': 75}]}
    return comp('text-font', n, [
        _text_layer(1, 'Font text, left', [_doc(0, 'Flipbook', 32, 'DejaVuSans', NAVY)], (10, 60), 'DejaVuSans'),
        _text_layer(2, 'Font text, centred', [_doc(0, 'Lottie 38', 28, 'DejaVuSans', RED, j=2)], (100, 130), 'DejaVuSans'),
        background(),
    ], fonts=fonts)


def dumps(v, indent=0, width=110):
    """JSON with short values on one line and long objects and arrays broken over lines (smaller
    than indent=1, still readable)."""
    flat = json.dumps(v, separators=(', ', ': '))
    if len(flat) + indent <= width or not isinstance(v, (dict, list)) or not v:
        return flat
    pad = ' ' * (indent + 1)
    if isinstance(v, dict):
        items = ['%s%s: %s' % (pad, json.dumps(k), dumps(x, indent + 1, width)) for k, x in v.items()]
        return '{\n' + ',\n'.join(items) + '\n' + ' ' * indent + '}'
    items = [pad + dumps(x, indent + 1, width) for x in v]
    return '[\n' + ',\n'.join(items) + '\n' + ' ' * indent + ']'


def main():
    os.makedirs(os.path.join(OUT, 'equivalents'), exist_ok=True)
    os.makedirs(os.path.join(OUT, 'images'), exist_ok=True)
    names = sys.argv[1:] or list(FILES)
    for name in names:
        doc = FILES[name]()
        with open(os.path.join(OUT, name + '.json'), 'w') as f:
            f.write(dumps(doc) + '\n')
    for name, doc in _equivalents().items():
        with open(os.path.join(OUT, 'equivalents', name + '.json'), 'w') as f:
            f.write(dumps(doc) + '\n')
    with open(os.path.join(OUT, 'images', 'picture.png'), 'wb') as f:
        f.write(_image_data('png'))
    print('wrote %d feature files to %s' % (len(names), OUT))


if __name__ == '__main__':
    main()
