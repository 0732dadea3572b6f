#!/usr/bin/env python3
"""Writes the JPEG fixtures and expected.json (the RGB8 pixels Pillow decodes each one to,
base64, row by row from the top; Flipbook adds alpha 255).

Run with a Python that has Pillow (any recent version: it bundles its own libjpeg-turbo, so
the expected pixels come from a decoder other than the system one Flipbook links):

    python3 make_fixtures.py

The tests compare Flipbook's pixels with these within ±2 levels per channel (two builds of
libjpeg-turbo may round differently), and check exact sizes.
"""
import base64
import json
from PIL import Image

W, H = 37, 23  # not multiples of the 8/16-pixel MCU: partial blocks on both edges


def pattern():
    im = Image.new("RGB", (W, H))
    px = im.load()
    for y in range(H):
        for x in range(W):
            px[x, y] = (x * 7 % 256, y * 11 % 256, (x * y * 3) % 256)
    return im


def halves(w, h, left, right):
    im = Image.new("RGB", (w, h), left)
    im.paste(right, (w // 2, 0, w, h))
    return im


expected = {}


def save(name, im, record=True, **options):
    im.save(name, "JPEG", **options)
    if not record:
        return
    back = Image.open(name)
    rgb = back.convert("RGB")  # greyscale: R = G = B
    expected[name] = {
        "width": back.width,
        "height": back.height,
        "colorSpace": {"L": "gray", "RGB": "YCbCr", "CMYK": "CMYK"}[back.mode],
        "progressive": bool(back.info.get("progressive", 0)),
        "rgb": base64.b64encode(rgb.tobytes()).decode("ascii"),
    }


save("baseline.jpg", pattern(), quality=90)                       # 4:2:0
save("baseline444.jpg", pattern(), quality=95, subsampling=0)     # 4:4:4
save("progressive.jpg", pattern(), quality=90, progressive=True)
save("gray.jpg", pattern().convert("L"), quality=90)
save("restart.jpg", pattern(), quality=90, restart_marker_blocks=1)
save("solid.jpg", Image.new("RGB", (16, 16), (200, 40, 90)), quality=95, subsampling=0)
# EXIF orientation 6 ("rotate 90° clockwise to display"): decoded as stored, 24 wide.
exif = Image.Exif()
exif[0x0112] = 6
save("exif-rotate.jpg", halves(24, 16, (220, 30, 30), (30, 30, 220)), quality=95, subsampling=0, exif=exif.tobytes())
save("cmyk.jpg", pattern().convert("CMYK"), record=False, quality=90)

with open("expected.json", "w") as f:
    json.dump(expected, f, indent=1, sort_keys=True)
    f.write("\n")
