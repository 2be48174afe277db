#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Pixel and kernel-state checks for the dispman-kiosk guest tests.

  wayland-check.py simple-shm CAP0.ppm CAP1.ppm
      both captures show weston-simple-shm's pattern centred on the output, as the
      xdg-shell rule puts a full-screen window smaller than the output (250x250: white
      20-pixel padding, rows of the outer area stepping by 0x080401 per pixel, the
      ring constant along rows), black elsewhere, and the two differ (it animates).
  wayland-check.py smpte CAP.ppm
      videotestsrc's SMPTE bars fill the non-black bounding box: seven bars (white,
      yellow, cyan, green, magenta, red, blue; full intensity in RGB) at a third of
      its height.
  wayland-check.py overlay-dmabuf STATE DRM_INFO.json WIDTH HEIGHT
      the kernel's atomic state (debugfs) has an overlay plane (type from drm_info)
      showing a framebuffer of WIDTH x HEIGHT allocated by dispman-kiosk whose GEM
      object is imported (a dma-buf from another driver).
  wayland-check.py presentation LOG REFRESH_MHZ
      weston-presentation-shm's feedback lines: at least 20, sequence strictly
      increasing, and the time between presentations over the sequence step is the
      mode's refresh period (within 10 %), with the vsync flag.
Exits 1 with a reason on the first failed check.
"""
import json
import re
import sys


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def read_ppm(path):
    data = open(path, "rb").read()
    parts = data.split(b"\n", 3)
    if parts[0] != b"P6":
        fail(f"{path}: not a P6 PPM")
    w, h = map(int, parts[1].split())
    px = parts[3]
    if len(px) < w * h * 3:
        fail(f"{path}: short PPM")
    return w, h, px


def pixel(img, x, y):
    w, h, px = img
    i = (y * w + x) * 3
    return px[i] << 16 | px[i + 1] << 8 | px[i + 2]


def check_simple_shm(img, name):
    w, h, _ = img
    size, pad = 250, 20
    ox, oy = (w - size) // 2, (h - size) // 2  # centred on black

    def at(x, y):  # a pixel in the pattern's own coordinates
        return pixel(img, ox + x, oy + y)

    half = pad + (size - 2 * pad) // 2
    outer = (half - 8) ** 2
    inner = (half - 40) ** 2
    for (x, y) in [(2, 2), (10, 120), (245, 5), (120, 246), (247, 247)]:
        if at(x, y) != 0xFFFFFF:
            fail(f"{name}: padding pixel ({x},{y}) of the window at ({ox},{oy}) is "
                 f"{at(x, y):06x}, not white")
    for (x, y) in [(10, 10), (ox - 10, oy + 100), (ox + size + 10, oy + 10),
                   (ox + 100, oy + size + 10), (w - 1, h - 1)]:
        if pixel(img, x, y) != 0:
            fail(f"{name}: pixel ({x},{y}) outside the surface is {pixel(img, x, y):06x}")
    steps = flats = 0
    for y in range(pad, size - pad):
        for x in range(pad, size - pad - 1):
            r0 = (x - half) ** 2 + (y - half) ** 2
            r1 = (x + 1 - half) ** 2 + (y - half) ** 2
            a, b = at(x, y), at(x + 1, y)
            if r0 >= outer + 600 and r1 >= outer + 600:
                if (a + 0x080401) & 0xFFFFFF != b:
                    fail(f"{name}: outer area ({x},{y})->({x + 1},{y}): {a:06x} -> {b:06x}, "
                         "not a step of 0x080401")
                steps += 1
            elif inner + 600 <= r0 < outer - 600 and inner + 600 <= r1 < outer - 600:
                if a != b:
                    fail(f"{name}: ring ({x},{y})->({x + 1},{y}): {a:06x} != {b:06x}")
                flats += 1
    if steps < 2000 or flats < 2000:
        fail(f"{name}: too few pattern pixels checked ({steps} steps, {flats} flat)")
    return steps, flats


def cmd_simple_shm(a, b):
    i0, i1 = read_ppm(a), read_ppm(b)
    s0 = check_simple_shm(i0, a)
    check_simple_shm(i1, b)
    ox, oy = (i0[0] - 250) // 2, (i0[1] - 250) // 2
    diff = sum(1 for y in range(20, 230, 3) for x in range(20, 230, 3)
               if pixel(i0, ox + x, oy + y) != pixel(i1, ox + x, oy + y))
    if diff < 100:
        fail(f"the two captures differ in only {diff} sampled pixels: frames did not flow")
    print(f"simple-shm pattern ok in both captures ({s0[0]} steps, {s0[1]} flat pairs each), "
          f"{diff} sampled pixels changed between them")


def cmd_smpte(path):
    img = read_ppm(path)
    w, h, _ = img
    xs, ys = [], []
    for y in range(0, h, 4):
        for x in range(0, w, 4):
            if pixel(img, x, y) != 0:
                xs.append(x)
                ys.append(y)
    if not xs:
        fail(f"{path}: the screen is black")
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    bw, bh = x1 - x0 + 1, y1 - y0 + 1
    if bw < 64 or bh < 48:
        fail(f"{path}: the picture is only {bw}x{bh}")
    bars = [0xFFFFFF, 0xFFFF00, 0x00FFFF, 0x00FF00, 0xFF00FF, 0xFF0000, 0x0000FF]
    y = y0 + bh // 3
    for i, want in enumerate(bars):
        x = x0 + int((i + 0.5) * bw / 7)
        got = pixel(img, x, y)
        for sh in (16, 8, 0):
            if abs((got >> sh & 255) - (want >> sh & 255)) > 12:
                fail(f"{path}: bar {i} at ({x},{y}) is {got:06x}, want {want:06x}")
    print(f"SMPTE bars ok in a {bw}x{bh} picture at ({x0},{y0})")


def parse_state(path):
    planes = {}
    cur = None
    for line in open(path):
        m = re.match(r"plane\[(\d+)\]: (\S+)", line)
        if m:
            cur = {"id": int(m.group(1)), "name": m.group(2), "text": ""}
            planes[cur["id"]] = cur
            continue
        if re.match(r"\S", line):
            cur = None
        if cur is not None:
            cur["text"] += line
    return planes


def plane_types(path):
    info = json.load(open(path))
    types = {}
    for dev in info.values() if isinstance(info, dict) else info:
        for p in dev.get("planes", []):
            for name, prop in p.get("properties", {}).items():
                if name == "type":
                    types[p["id"]] = prop.get("value")
    return types


def cmd_overlay_dmabuf(state, drm_info, width, height):
    planes = parse_state(state)
    types = plane_types(drm_info)
    if not types:
        fail(f"{drm_info}: no plane types")
    found = []
    for pid, p in planes.items():
        t = p["text"]
        if "allocated by = dispman-kiosk" not in t or f"size={width}x{height}" not in t:
            continue
        found.append((pid, types.get(pid), "imported=yes" in t))
    if not found:
        fail(f"no plane shows a {width}x{height} framebuffer of dispman-kiosk:\n" +
             open(state).read())
    for pid, ptype, imported in found:
        if ptype == 0 and imported:  # DRM_PLANE_TYPE_OVERLAY
            print(f"plane {pid} ({planes[pid]['name']}, overlay) shows an imported "
                  f"{width}x{height} framebuffer of dispman-kiosk")
            return
    fail(f"the {width}x{height} framebuffer is not an imported one on an overlay plane: "
         f"{found} (type 0 = overlay)")


def cmd_presentation(log, refresh_mhz, no_counter="0"):
    no_counter = no_counter == "1"
    period_us = 1e9 / float(refresh_mhz)
    rows = []
    for line in open(log):
        m = re.search(r"p2p\s+(-?\d+) us.*\[([^\]]*)\].*seq (\d+)", line)
        if m:
            rows.append((int(m.group(1)), m.group(2), int(m.group(3))))
    if len(rows) < 20:
        fail(f"{log}: only {len(rows)} presentation feedback lines")
    if no_counter:
        # The device has no vblank counter (virtio-gpu: every flip carries sequence 0) and
        # does not hold flips to vblank: the feedback must then claim neither.
        for r in rows:
            if r[2] != 0:
                fail(f"sequence {r[2]} from a device without a vblank counter")
            if "s" in r[1]:
                fail(f"sequence 0 (no vblank counter) but flags [{r[1]}] claim vsync")
        print(f"{len(rows)} presented frames, sequence 0 throughout (no vblank counter), "
              f"no vsync claimed")
        return
    ratios = []
    for prev, cur in zip(rows, rows[1:]):
        if cur[2] <= prev[2]:
            fail(f"sequence did not increase: {prev[2]} -> {cur[2]}")
        if "s" not in cur[1]:  # weston's flag letters: s vsync, c hw clock, e completion
            fail(f"flags [{cur[1]}] lack vsync")
        ratios.append(cur[0] / (cur[2] - prev[2]))
    ratios.sort()
    med = ratios[len(ratios) // 2]
    if abs(med - period_us) > 0.1 * period_us:
        fail(f"median time per vblank {med:.0f} us, the mode's period is {period_us:.0f} us")
    # frames shown at the vblank right after the previous one (sequence + 1)
    nxt = sum(1 for p, c in zip(rows, rows[1:]) if c[2] == p[2] + 1) / (len(rows) - 1)
    print(f"{len(rows)} presented frames, sequence {rows[0][2]}..{rows[-1][2]}, "
          f"median {med:.0f} us per vblank (period {period_us:.0f} us), "
          f"{nxt:.0%} at the next vblank")


def main():
    if len(sys.argv) < 2:
        fail(__doc__)
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "simple-shm" and len(args) == 2:
        cmd_simple_shm(*args)
    elif cmd == "smpte" and len(args) == 1:
        cmd_smpte(*args)
    elif cmd == "overlay-dmabuf" and len(args) == 4:
        cmd_overlay_dmabuf(*args)
    elif cmd == "presentation" and len(args) in (2, 3):
        cmd_presentation(*args)
    else:
        fail("bad arguments\n" + __doc__)


main()
