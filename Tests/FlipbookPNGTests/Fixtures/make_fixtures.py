#!/usr/bin/env python3
"""Writes the hand-built PNG fixtures and expected.json (run once; the outputs are committed).

A tiny independent PNG writer (zlib + struct, no imaging library) covering what Flipbook's
encoder does not write: every colour type and bit depth, tRNS, Adam7, tEXt/zTXt/iTXt, and
bad files. expected.json holds, for each image, the premultiplied RGBA8 pixels Flipbook must
decode, computed here from first principles:
  n-bit gray g   -> g * 255 / (2^n - 1)          (exact for n = 1, 2, 4: bit replication)
  16-bit v       -> round(v * 255 / 65535) = (v * 255 + 32767) // 65535
  tRNS           -> alpha 0 where the sample equals the key (gray/RGB), palette alpha table
  premultiply    -> (c * a + 127) // 255
"""
import json, os, struct, zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def chunk(typ, data):
    return struct.pack('>I', len(data)) + typ + data + struct.pack('>I', zlib.crc32(typ + data) & 0xffffffff)


def pack_row(samples, depth):
    """samples: flat list of ints for one row -> bytes (MSB-first for depth < 8, big-endian 16)."""
    if depth == 8:
        return bytes(samples)
    if depth == 16:
        return b''.join(struct.pack('>H', s) for s in samples)
    out, acc, nbits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        nbits += depth
        if nbits == 8:
            out.append(acc); acc, nbits = 0, 0
    if nbits:
        out.append(acc << (8 - nbits))
    return bytes(out)


def png(w, h, depth, ctype, pixels, interlace=False, extra_before=b'', plte=None, trns=None):
    """pixels[y][x] is a tuple of samples (len = channels)."""
    raw = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for (x0, y0, dx, dy) in passes:
        xs, ys = list(range(x0, w, dx)), list(range(y0, h, dy))
        if not xs or not ys:
            continue
        for y in ys:
            raw.append(0)  # filter type none
            raw += pack_row([s for x in xs for s in pixels[y][x]], depth)
    data = b'\x89PNG\r\n\x1a\n'
    data += chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, depth, ctype, 0, 0, 1 if interlace else 0))
    data += extra_before
    if plte is not None:
        data += chunk(b'PLTE', bytes(c for rgb in plte for c in rgb))
    if trns is not None:
        data += chunk(b'tRNS', trns)
    data += chunk(b'IDAT', zlib.compress(bytes(raw), 9))
    data += chunk(b'IEND', b'')
    return data


def premul(r, g, b, a):
    return [(c * a + 127) // 255 for c in (r, g, b)] + [a]


def to8(v, depth):
    if depth == 16:
        return (v * 255 + 32767) // 65535
    return v * 255 // ((1 << depth) - 1)


expected = {}


def emit(name, w, h, depth, ctype, pixels, straight, **kw):
    data = png(w, h, depth, ctype, pixels, **kw)
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(data)
    flat = []
    for y in range(h):
        for x in range(w):
            flat += premul(*straight(x, y))
    expected[name] = {'width': w, 'height': h, 'bitDepth': depth, 'colorType': ctype,
                      'interlaced': bool(kw.get('interlace')), 'rgba': bytes(flat).hex()}


def gray_fixture(depth, w=9, h=5, interlace=False, key=None):
    m = (1 << depth) - 1
    val = lambda x, y: ((x * 7 + y * 13) * (1 if depth < 16 else 4099) + (0x01FF if depth == 16 else 0)) % (m + 1)
    pixels = [[(val(x, y),) for x in range(w)] for y in range(h)]
    def straight(x, y):
        v = val(x, y); g = to8(v, depth)
        return (g, g, g, 0 if key is not None and v == key else 255)
    trns = struct.pack('>H', key) if key is not None else None
    name = 'gray%d%s%s.png' % (depth, '_trns' if key is not None else '', '_adam7' if interlace else '')
    emit(name, w, h, depth, 0, pixels, straight, interlace=interlace, trns=trns)


for d in (1, 2, 4, 8, 16):
    gray_fixture(d)
gray_fixture(2, w=13, h=11, interlace=True)
gray_fixture(8, key=20)
gray_fixture(16, key=(0x01FF + 4099 * 20) % 65536)

# gray + alpha, 8 and 16 bits
for d in (8, 16):
    m = (1 << d) - 1
    g = lambda x, y: (x * 37 + y * 11 + (0x01FF if d == 16 else 0)) * (257 if d == 16 else 1) % (m + 1)
    a = lambda x, y: (255 - x * 29 - y * 3) * (257 if d == 16 else 1) % (m + 1)
    px = [[(g(x, y), a(x, y)) for x in range(9)] for y in range(5)]
    emit('graya%d.png' % d, 9, 5, d, 4, px, lambda x, y: (to8(g(x, y), d),) * 3 + (to8(a(x, y), d),))

# RGB 8 with tRNS, RGB 16 (values where >>8 and rounding differ)
rgb = lambda x, y: (x * 31 % 256, y * 53 % 256, (x ^ y) * 17 % 256)
emit('rgb8_trns.png', 9, 5, 8, 2, [[rgb(x, y) for x in range(9)] for y in range(5)],
     lambda x, y: rgb(x, y) + (0 if rgb(x, y) == rgb(2, 1) else 255,), trns=struct.pack('>HHH', *rgb(2, 1)))
rgb16 = lambda x, y: (0x01FF + x * 1000, 0x7F80 + y * 300, 0xFF7F - (x + y) * 128)
emit('rgb16.png', 9, 5, 16, 2, [[rgb16(x, y) for x in range(9)] for y in range(5)],
     lambda x, y: tuple(to8(v, 16) for v in rgb16(x, y)) + (255,))

# RGBA 8 and 16 (straight, including alpha 0 and 255), one interlaced
rgba = lambda x, y: (x * 19 % 256, y * 23 % 256, (x * y) % 256, (x * 40 + y * 9) % 256)
emit('rgba8_adam7.png', 13, 11, 8, 6, [[rgba(x, y) for x in range(13)] for y in range(11)], rgba, interlace=True)
rgba16 = lambda x, y: (0x01FF + x * 4000, 0x8080 + y * 500, 0x00FF * x, (x * 9000 + y * 700) % 65536)
emit('rgba16.png', 9, 5, 16, 6, [[rgba16(x, y) for x in range(9)] for y in range(5)],
     lambda x, y: tuple(to8(v, 16) for v in rgba16(x, y)))

# palettes at 1, 2, 4, 8 bits, with and without tRNS (shorter than the palette), one interlaced
for d, with_trns, interlace in ((1, False, False), (2, False, False), (4, False, False), (8, False, False),
                                (2, True, False), (8, True, False), (4, True, True)):
    n = 1 << d
    plte = [((i * 73) % 256, (i * 151 + 7) % 256, (255 - i * 29) % 256) for i in range(n)]
    trns = bytes((i * 97 + 30) % 256 for i in range(max(1, n // 2))) if with_trns else None
    w, h = (13, 11) if interlace else (9, 5)
    idx = lambda x, y: (x * 3 + y * 5) % n
    def straight(x, y, plte=plte, trns=trns, idx=idx):
        i = idx(x, y)
        a = trns[i] if trns is not None and i < len(trns) else 255
        return plte[i] + (a,)
    name = 'pal%d%s%s.png' % (d, '_trns' if with_trns else '', '_adam7' if interlace else '')
    emit(name, w, h, d, 3, [[(idx(x, y),) for x in range(w)] for y in range(h)], straight,
         plte=plte, trns=trns, interlace=interlace)

# text chunks of each kind (tEXt Latin-1, zTXt, iTXt UTF-8)
texts = chunk(b'tEXt', b'flipbook:time\x001.25') + chunk(b'tEXt', b'Comment\x00caf\xe9') \
    + chunk(b'zTXt', b'flipbook:scene\x00\x00' + zlib.compress(b'scene.json')) \
    + chunk(b'iTXt', b'Title\x00\x00\x00\x00\x00\xce\xb1\xce\xb2')
emit('text.png', 2, 2, 8, 0, [[(10,), (20,)], [(30,), (40,)]],
     lambda x, y: ((10, 20, 30, 40)[y * 2 + x],) * 3 + (255,), extra_before=texts)

# a header claiming 100000 x 100000 (valid CRCs; the IDAT is tiny)
with open(os.path.join(HERE, 'huge_header.png'), 'wb') as f:
    f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', 100000, 100000, 8, 6, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(b'\x00' * 64)) + chunk(b'IEND', b''))

with open(os.path.join(HERE, 'expected.json'), 'w') as f:
    json.dump(expected, f, indent=1, sort_keys=True)
print('wrote', len(expected), 'fixtures')
