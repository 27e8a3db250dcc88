#!/usr/bin/env python3
"""Reads PNG files back with the standard library only (zlib, struct): signature, every
chunk's CRC-32, IHDR (8-bit RGB, no interlace), the zlib stream of IDAT (its Adler-32 is
checked by zlib.decompress), the size of the decoded scanlines, and that the image is
not one flat colour. For samples/mlp-fit-image's own PNG writer.
Usage: check_png.py FILE... ; exit 0 when all are good."""
import struct
import sys
import zlib


def check(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return "no PNG signature"
    i, idat, ihdr, end = 8, b"", None, False
    while i < len(data):
        (n,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + n]
        (crc,) = struct.unpack(">I", data[i + 8 + n:i + 12 + n])
        if zlib.crc32(kind + body) != crc:
            return "chunk %r: bad CRC" % kind
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            end = True
        i += 12 + n
    if not ihdr or not end:
        return "IHDR or IEND missing"
    w, h, depth, colour, _, _, interlace = ihdr
    if depth != 8 or colour != 2 or interlace:
        return "not 8-bit RGB without interlace: %r" % (ihdr,)
    raw = zlib.decompress(idat)
    if len(raw) != h * (1 + 3 * w):
        return "%d bytes of scanlines, expected %d" % (len(raw), h * (1 + 3 * w))
    pixels = set(raw[r * (1 + 3 * w) + 1 + 3 * x:r * (1 + 3 * w) + 4 + 3 * x] for r in range(h) for x in range(w))
    if len(pixels) < 2:
        return "one flat colour"
    return None


bad = 0
for p in sys.argv[1:]:
    why = check(p)
    print("%s: %s" % (p, why or "ok"))
    bad += why is not None
sys.exit(1 if bad or len(sys.argv) < 2 else 0)
