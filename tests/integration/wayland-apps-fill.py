#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# wayland-apps.sh's check that a full-screen client drew its background: in a capture
# (binary PPM), the pixels of colour RRGGBB span the whole output (their bounding box) and
# are at least MIN_PERCENT of it. Prints "X Y W H PERCENT"; exits 1 with "FAIL: ..."
# otherwise.
# Usage: wayland-apps-fill.py CAP RRGGBB MIN_PERCENT
import sys

path, colour, need = sys.argv[1], bytes.fromhex(sys.argv[2]), float(sys.argv[3])
data = open(path, "rb").read()
magic, dims, maxval, px = data.split(b"\n", 3)
w, h = map(int, dims.split())
n, x0, y0, x1, y1 = 0, w, h, -1, -1
for y in range(h):
    row = px[y * w * 3:(y + 1) * w * 3]
    hits = [x for x in range(w) if row[x * 3:x * 3 + 3] == colour]
    if hits:
        n += len(hits)
        x0, x1 = min(x0, hits[0]), max(x1, hits[-1])
        y0, y1 = min(y0, y), max(y1, y)
pct = 100.0 * n / (w * h)
if not n:
    sys.exit(f"FAIL: no pixel of #{sys.argv[2]} on the {w}x{h} output")
print(f"{x0} {y0} {x1 + 1 - x0} {y1 + 1 - y0} {pct:.1f}")
if (x0, y0, x1 + 1, y1 + 1) != (0, 0, w, h):
    sys.exit(f"FAIL: #{sys.argv[2]} spans {x1 + 1 - x0}x{y1 + 1 - y0} at ({x0}, {y0}), "
             f"not the whole {w}x{h} output")
if pct < need:
    sys.exit(f"FAIL: #{sys.argv[2]} covers {pct:.1f} % of the output, want {need} % or more")
