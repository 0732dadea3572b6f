#!/usr/bin/env python3
"""Writes the seed corpus of the `font` fuzz target (Fuzz/seeds/font/): small fonts of every
container CGFont(_:) reads — TrueType with layout tables, a TrueType collection, a CFF-flavoured
OpenType font, WOFF — cut from the two fonts Flipbook bundles (Sources/CFlipbookText/fonts;
DejaVu: Bitstream Vera licence + public domain changes, Noto Sans Devanagari: OFL 1.1; see the
licence files there). Seeds are renamed "Flipbook Fuzz Seed …" as both licences ask of modified
fonts. Needs fontTools (`pip install fonttools`); the output is committed, so the fuzz runs do not.
"""
import io, os, sys
from fontTools import subset
from fontTools.ttLib import TTFont, TTCollection
from fontTools.fontBuilder import FontBuilder
from fontTools.pens.t2CharStringPen import T2CharStringPen

here = os.path.dirname(os.path.abspath(__file__))
fonts = os.path.join(here, "..", "..", "Sources", "CFlipbookText", "fonts")
out = os.path.join(here, "font")
os.makedirs(out, exist_ok=True)

def rename(font, family):
    for rec in font["name"].names:
        if rec.nameID in (1, 3, 4, 16):
            rec.string = family
        elif rec.nameID == 6:
            rec.string = family.replace(" ", "")

def cut(path, text, family, features=("liga", "kern", "mark", "mkmk", "abvs", "blws", "pres", "psts", "half", "rphf", "akhn", "cjct")):
    options = subset.Options()
    options.layout_features = list(features)
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = False
    font = TTFont(path)
    s = subset.Subsetter(options)
    s.populate(text=text)
    s.subset(font)
    rename(font, family)
    return font

def save(font, name, flavor=None):
    font.flavor = flavor
    p = os.path.join(out, name)
    font.save(p)
    print(name, os.path.getsize(p))

latin = cut(os.path.join(fonts, "DejaVuSans.ttf"), "Aga fi ffl \u03a9\u0451 e\u0301", "Flipbook Fuzz Seed Latin")
save(latin, "latin.ttf")
deva = cut(os.path.join(fonts, "NotoSansDevanagari-Regular.ttf"), "\u0917\u094d\u0930 \u0915\u093f \u0930\u094d\u0915", "Flipbook Fuzz Seed Devanagari")
save(deva, "devanagari.ttf")
save(cut(os.path.join(fonts, "DejaVuSans.ttf"), "Ag", "Flipbook Fuzz Seed WOFF"), "latin.woff", flavor="woff")

# A collection of the two cuts (FreeType reads face 0).
collection = TTCollection()
collection.fonts = [TTFont(os.path.join(out, "latin.ttf")), TTFont(os.path.join(out, "devanagari.ttf"))]
p = os.path.join(out, "pair.ttc"); collection.save(p); print("pair.ttc", os.path.getsize(p))

# A CFF-flavoured OpenType font: the latin cut's outlines as Type 2 charstrings.
source = TTFont(os.path.join(out, "latin.ttf"))
glyphs = source.getGlyphSet()
order = [g for g in source.getGlyphOrder() if g in (".notdef", "A", "g", "a", "space", "f", "i")]
charstrings = {}
for g in order:
    pen = T2CharStringPen(glyphs[g].width, glyphs)
    glyphs[g].draw(pen)
    charstrings[g] = pen.getCharString()
fb = FontBuilder(source["head"].unitsPerEm, isTTF=False)
fb.setupGlyphOrder(order)
cmap = {cp: g for cp, g in source.getBestCmap().items() if g in order}
fb.setupCharacterMap(cmap)
fb.setupCFF("FlipbookFuzzSeedCFF", {"FullName": "Flipbook Fuzz Seed CFF"}, charstrings, {})
fb.setupHorizontalMetrics({g: (glyphs[g].width, 0) for g in order})
fb.setupHorizontalHeader(ascent=source["hhea"].ascent, descent=source["hhea"].descent)
fb.setupNameTable({"familyName": "Flipbook Fuzz Seed CFF", "styleName": "Regular"})
fb.setupOS2(sTypoAscender=source["hhea"].ascent, usWinAscent=source["hhea"].ascent, usWinDescent=-source["hhea"].descent)
fb.setupPost()
p = os.path.join(out, "latin-cff.otf"); fb.save(p); print("latin-cff.otf", os.path.getsize(p))
