#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two images pixel for pixel (red, green, blue; alpha ignored).

Usage: ppm-compare.py A B [--expect-mismatch]
A and B are binary PPM (P6, maxval 255) or PNG files (8 bits a channel, RGB or RGBA,
not interlaced: what QEMU's screendump and libdispman's tools write). Prints the number
of differing pixels and the first one. Exit 0 when the images are equal (with
--expect-mismatch: when they differ), 1 otherwise or for an unreadable file.
"""
import struct
import sys
import zlib


def read_ppm(data):
    fields, pos = [], 2
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos)
            continue
        start = pos
        while pos < len(data) and not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(int(data[start:pos]))
    w, h, maxval = fields
    if maxval != 255:
        raise ValueError("PPM maxval %d, not 255" % maxval)
    px = data[pos + 1:]
    if len(px) != w * h * 3:
        raise ValueError("PPM %dx%d has %d bytes of pixels" % (w, h, len(px)))
    return w, h, px


def read_png(data):
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        pos += 12 + n
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if not hdr:
        raise ValueError("PNG without IHDR")
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("PNG depth %d colour type %d interlace %d not supported" % (
            depth, ctype, interlace))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    out = bytearray()
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xff
            elif f == 2:
                line[i] = (line[i] + b) & 0xff
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 0xff
            elif f != 0:
                raise ValueError("PNG filter %d" % f)
        prev = line
        if bpp == 3:
            out += line
        else:
            for i in range(0, stride, 4):
                out += line[i:i + 3]
    return w, h, bytes(out)


def read_image(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"P6"):
        return read_ppm(data)
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return read_png(data)
    raise ValueError("%s is neither a P6 PPM nor a PNG" % path)


def main():
    args = [a for a in sys.argv[1:] if a != "--expect-mismatch"]
    expect_mismatch = len(args) != len(sys.argv) - 1
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        (wa, ha, a), (wb, hb, b) = read_image(args[0]), read_image(args[1])
    except (OSError, ValueError, zlib.error, struct.error) as e:
        print("FAIL: %s" % e)
        return 1
    if (wa, ha) != (wb, hb):
        print("%s is %dx%d, %s is %dx%d: every pixel differs" % (args[0], wa, ha, args[1], wb, hb))
        diff = max(wa * ha, wb * hb)
    else:
        diff, first = 0, None
        mv_a, mv_b = memoryview(a), memoryview(b)
        if mv_a != mv_b:
            for i in range(wa * ha):
                if mv_a[3 * i:3 * i + 3] != mv_b[3 * i:3 * i + 3]:
                    if first is None:
                        first = i
                    diff += 1
        print("%s vs %s (%dx%d): %d pixels differ" % (args[0], args[1], wa, ha, diff))
        if first is not None:
            print("first at %d,%d: %s vs %s" % (first % wa, first // wa,
                                                bytes(a[3 * first:3 * first + 3]).hex(),
                                                bytes(b[3 * first:3 * first + 3]).hex()))
    if expect_mismatch:
        if diff:
            return 0
        print("FAIL: the images are equal, a mismatch was expected")
        return 1
    return 0 if diff == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
