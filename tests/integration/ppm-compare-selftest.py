#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Host check of ppm-compare.py, the guest tests' screendump comparison: equal PPM and
PNG images (every PNG filter type) compare equal, one changed pixel or another size is
found, --expect-mismatch inverts the result. Usage: ppm-compare-selftest.py PPM_COMPARE"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

W, H = 37, 23


def pixels(seed):
    return bytes(((x * 7 + y * 13 + c * 50 + seed) * 31) & 0xff
                 for y in range(H) for x in range(W) for c in range(3))


def ppm(path, px, w=W, h=H):
    with open(path, "wb") as f:
        f.write(b"P6\n# a comment\n%d %d\n255\n" % (w, h) + px)


def png(path, px, alpha):
    bpp = 4 if alpha else 3
    raw, prev = b"", bytes(W * bpp)
    for y in range(H):
        line = bytearray()
        for x in range(W):
            line += px[(y * W + x) * 3:(y * W + x) * 3 + 3] + (b"\x80" if alpha else b"")
        f = y % 5  # every filter type, encoded as ppm-compare.py must decode it
        enc = bytearray(len(line))
        for i in range(len(line)):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            pr = [0, a, b, (a + b) // 2, 0][f]
            if f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
            enc[i] = (line[i] - pr) & 0xff
        raw += bytes([f]) + bytes(enc)
        prev = bytes(line)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xffffffff)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(
            ">IIBBBBB", W, H, 8, 6 if alpha else 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def run(tool, *args):
    r = subprocess.run([sys.executable, tool] + list(args), stdout=subprocess.PIPE, text=True)
    print("ppm-compare %s -> %d: %s" % (" ".join(os.path.basename(a) for a in args),
                                        r.returncode, r.stdout.strip().splitlines()[0]))
    return r.returncode


def main():
    tool = sys.argv[1]
    d = tempfile.mkdtemp()
    a, b = pixels(1), bytearray(pixels(1))
    b[(5 * W + 9) * 3 + 1] ^= 0x40
    ppm(f"{d}/a.ppm", a)
    ppm(f"{d}/b.ppm", bytes(b))
    ppm(f"{d}/small.ppm", a[:W * (H - 1) * 3], W, H - 1)
    png(f"{d}/a.png", a, False)
    png(f"{d}/a-rgba.png", a, True)
    png(f"{d}/b.png", bytes(b), False)
    want = [
        (0, ["a.ppm", "a.png"]), (0, ["a.ppm", "a-rgba.png"]), (1, ["a.ppm", "b.ppm"]),
        (1, ["a.png", "b.png"]), (1, ["a.ppm", "small.ppm"]),
        (0, ["a.ppm", "b.png", "--expect-mismatch"]), (1, ["a.ppm", "a.png", "--expect-mismatch"]),
    ]
    bad = 0
    for rc, args in want:
        got = run(tool, *[f"{d}/{x}" if not x.startswith("--") else x for x in args])
        if got != rc:
            print("FAIL: exit %d, want %d" % (got, rc))
            bad += 1
    shutil.rmtree(d)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
