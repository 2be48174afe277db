#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Pixel checks of wayland-apps.sh's gtk3-popup, gtk4-popup and dnd cases on the compositor's
# captures (binary PPM) of wayland-apps-gtk3.py and wayland-apps-gtk4-popup.py (the same
# colours; no dialog in GTK 4's); each colour is the client's CSS colour, which reaches the
# capture exactly where the surface is opaque.
#   size CAP                     prints "W H"
#   menu CAP BX BY BW BH         the menu's three items (red, blue, yellow) are shown whole,
#                                inside the output, above the button (BX BY BW BH) since
#                                there is no room below it; prints "item2 X Y" (its centre)
#   nomenu CAP                   none of the items' colours on the output
#   box CAP RRGGBB               prints "X Y W H" around every pixel of that colour (exit 1
#                                when there is none): the dnd case's windows and drag icon
#   dialog CAP                   the magenta dialog is at its own size, centred over the
#                                green full-screen parent, which shows all around it
# Exits 1 with "FAIL: ..." when a check fails.
import sys

GREEN, RED, BLUE, YELLOW, MAGENTA = (0x20, 0xc0, 0x60), (0xd0, 0x20, 0x20), \
    (0x20, 0x40, 0xe0), (0xe0, 0xc0, 0x20), (0xc0, 0x30, 0xa0)


def load(path):
    data = open(path, "rb").read()
    magic, dims, maxval, px = data.split(b"\n", 3)
    w, h = map(int, dims.split())
    return w, h, px


def row_find(row, pat, rev=False):
    """the first (last) pixel of row that is pat, or -1"""
    i = row.rfind(pat) if rev else row.find(pat)
    while i >= 0 and i % 3:
        i = row.rfind(pat, 0, i + 2) if rev else row.find(pat, i + 1)
    return i // 3 if i >= 0 else -1


def box(img, colour):
    """(x, y, w, h) around every pixel of colour, and its pixel count; None if none"""
    w, h, px = img
    pat = bytes(colour)
    x0 = y0 = 1 << 30
    x1 = y1 = -1
    n = 0
    for y in range(h):
        row = px[y * w * 3:(y + 1) * w * 3]
        a = row_find(row, pat)
        if a < 0:
            continue
        b = row_find(row, pat, rev=True)
        x0, x1, y0, y1 = min(x0, a), max(x1, b), min(y0, y), max(y1, y)
        n += row.count(pat)  # close enough: an unaligned match is rare
    if x1 < 0:
        return None, 0
    return (x0, y0, x1 + 1 - x0, y1 + 1 - y0), n


def pixel(img, x, y):
    w, h, px = img
    return tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3])


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def menu(img, bx, by, bw, bh):
    w, h, _ = img
    items = []
    for name, colour in (("item1", RED), ("item2", BLUE), ("item3", YELLOW)):
        b, n = box(img, colour)
        if not b:
            fail(f"no {name} of the menu on the {w}x{h} output (its colour is nowhere)")
        print(f"{name}: {b[2]}x{b[3]} at ({b[0]}, {b[1]}), {n} pixels")
        items.append(b)
    hs = [b[3] for b in items]
    if max(hs) - min(hs) > 3:
        fail(f"the items' heights differ ({hs}): the menu is cut by the output's edge")
    if not (items[0][1] < items[1][1] < items[2][1]):
        fail("the items are not top to bottom in their order")
    ux0 = min(b[0] for b in items)
    uy0 = min(b[1] for b in items)
    ux1 = max(b[0] + b[2] for b in items)
    uy1 = max(b[1] + b[3] for b in items)
    print(f"menu items: {ux1 - ux0}x{uy1 - uy0} at ({ux0}, {uy0}); button {bw}x{bh} at "
          f"({bx}, {by}); output {w}x{h}")
    if uy1 > by:
        fail(f"the menu's items reach y={uy1}, below the button's top {by}: not flipped above")
    if by - uy1 > 40:
        fail(f"the menu ends {by - uy1} px above the button: not next to its anchor")
    if ux1 > w or ux0 < 0 or uy0 < 0:
        fail("the menu is not inside the output")
    if ux1 < bx or ux0 > bx + bw:
        fail("the menu is not over the button's columns (not next to its anchor)")
    b = items[1]
    print(f"item2 {b[0] + b[2] // 2} {b[1] + b[3] // 2}")


def dialog(img):
    w, h, _ = img
    d, n = box(img, MAGENTA)
    if not d:
        fail("no magenta dialog on the output")
    x, y, dw, dh = d
    left, right, top, bottom = x, w - (x + dw), y, h - (y + dh)
    print(f"dialog (its content, below its title bar): {dw}x{dh} at ({x}, {y}), {n} pixels; "
          f"margins left {left} right {right} top {top} bottom {bottom} on {w}x{h}")
    if n < dw * dh // 2:
        fail("the magenta box is not a dialog (mostly other colours)")
    if not (300 <= dw <= 420 and 120 <= dh <= 300):
        fail(f"the dialog is {dw}x{dh}, not about its own 360x240 (forced to another size?)")
    if abs(left - right) > 6:
        fail(f"the dialog is not centred across (left {left}, right {right})")
    # its window geometry (title bar and content) is centred: the content's top margin is
    # the bottom one plus the title bar's height
    if bottom < 40 or not (bottom - 6 <= top <= bottom + 100):
        fail(f"the dialog is not centred down (top {top}, bottom {bottom})")
    # the parent shows all around it (beyond the dialog's shadow)
    probes = [(x - 60, y + dh // 2), (x + dw + 59, y + dh // 2), (x + dw // 2, y + dh + 59),
              (x + dw // 2, y - 120), (5, 5), (w - 6, 5), (5, h - 6)]
    bad = [(px, py, pixel(img, px, py)) for px, py in probes if pixel(img, px, py) != GREEN]
    if bad:
        fail(f"not the parent's green around the dialog at {bad}")
    print("the dialog is at its own size, centred over its green parent")


img = load(sys.argv[2])
if sys.argv[1] == "size":
    print(img[0], img[1])
elif sys.argv[1] == "menu":
    menu(img, *map(int, sys.argv[3:7]))
elif sys.argv[1] == "nomenu":
    left = [c for c in (RED, BLUE, YELLOW) if box(img, c)[0]]
    if left:
        fail(f"menu item colours {left} still on the output")
    print("no menu item on the output")
elif sys.argv[1] == "box":
    b, n = box(img, bytes.fromhex(sys.argv[3]))
    if not b:
        fail(f"no #{sys.argv[3]} on the output")
    print(*b)
elif sys.argv[1] == "dialog":
    dialog(img)
else:
    fail("unknown check " + sys.argv[1])
