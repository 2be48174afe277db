#!/usr/bin/env python3
"""Write a short synthetic Y4M clip (4:2:0): colour bars that scroll and a
white box that moves, so that a screenshot shows which frame it is.

Usage: gen-y4m.py OUT.y4m [WIDTH HEIGHT FRAMES FPS]"""
import sys

out = sys.argv[1]
w, h, frames, fps = (int(a) for a in (sys.argv[2:6] if len(sys.argv) >= 6 else (640, 360, 90, 30)))
# BT.601 limited-range Y, U, V of white, yellow, cyan, green, magenta, red, blue, black
bars = [(235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128)]
with open(out, "wb") as f:
    f.write(b"YUV4MPEG2 W%d H%d F%d:1 Ip A1:1 C420jpeg\n" % (w, h, fps))
    for n in range(frames):
        shift = n * 4
        ys, us, vs = bytearray(), bytearray(), bytearray()
        row_y = bytes(bars[((x + shift) * 8 // w) % 8][0] for x in range(w))
        row_u = bytes(bars[((2 * x + shift) * 8 // w) % 8][1] for x in range(w // 2))
        row_v = bytes(bars[((2 * x + shift) * 8 // w) % 8][2] for x in range(w // 2))
        bx, by, bs = (n * 6) % (w - 64), h // 2 - 32, 64
        for y in range(h):
            if by <= y < by + bs:
                ys += row_y[:bx] + bytes([235]) * bs + row_y[bx + bs:]
            else:
                ys += row_y
        for y in range(h // 2):
            if by <= 2 * y < by + bs:
                us += row_u[:bx // 2] + bytes([128]) * (bs // 2) + row_u[(bx + bs) // 2:]
                vs += row_v[:bx // 2] + bytes([128]) * (bs // 2) + row_v[(bx + bs) // 2:]
            else:
                us += row_u
                vs += row_v
        f.write(b"FRAME\n" + ys + us + vs)
