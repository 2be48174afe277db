#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A minimal VNC (RFB 3.8, RFC 6143) viewer for the remote-control test (kiosk-vkbd.sh):
what a VNC user's viewer does, from a script.

    vnc-client.py HOST PORT OUT_DIR EXPECT ACTIONS...
    vnc-client.py unix SOCKET_PATH OUT_DIR EXPECT ACTIONS...   (a server on a Unix socket)

Connects with security type None and asks for raw pixels of the whole screen, frame after
frame, until the most common pixel of a frame is EXPECT ("R,G,B") or 120 s have passed (a
server may answer before it has captured the screen: once, wayvnc 0.5's first frame was
all grey, 0x606060, none of whose pixels the compositor had drawn).
Writes the last frame as OUT_DIR/vnc.ppm and prints "size W H", "frames N" and
"colour R G B SHARE" (that frame's most common pixel and the share of pixels that have
it; "first R G B SHARE" before it: the same of the first frame). Then performs ACTIONS in order:
"click:X,Y" (the pointer to X,Y, left button pressed and released), "type:TEXT" (a key
press and release per ASCII character, as X keysyms) and "sleep:SECONDS". Exit 0, or 1
with a message.
"""
import array
import collections
import socket
import struct
import sys
import time


def recv_exact(s, n):
    data = bytearray()
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise SystemExit(f"vnc-client: the server closed the connection ({len(data)} of "
                             f"{n} bytes)")
        data += chunk
    return bytes(data)


def handshake(s):
    version = recv_exact(s, 12)
    if not version.startswith(b"RFB 003."):
        raise SystemExit(f"vnc-client: not an RFB server: {version!r}")
    s.sendall(b"RFB 003.008\n")
    n = recv_exact(s, 1)[0]
    if n == 0:
        length = struct.unpack(">I", recv_exact(s, 4))[0]
        raise SystemExit("vnc-client: refused: " + recv_exact(s, length).decode(errors="replace"))
    types = recv_exact(s, n)
    if 1 not in types:
        raise SystemExit(f"vnc-client: no security type None among {list(types)}")
    s.sendall(bytes([1]))
    if struct.unpack(">I", recv_exact(s, 4))[0] != 0:
        raise SystemExit("vnc-client: security handshake failed")
    s.sendall(bytes([1]))  # ClientInit: shared
    w, h = struct.unpack(">HH", recv_exact(s, 4))
    pf = recv_exact(s, 16)
    name_len = struct.unpack(">I", recv_exact(s, 4))[0]
    recv_exact(s, name_len)
    return w, h


def set_format(s):
    # 32 bits per pixel, depth 24, little endian, true colour, red at bits 16, green 8, blue 0
    pf = struct.pack(">BBBBHHHBBBxxx", 32, 24, 0, 1, 255, 255, 255, 16, 8, 0)
    s.sendall(struct.pack(">Bxxx", 0) + pf)
    s.sendall(struct.pack(">BxHi", 2, 1, 0))  # SetEncodings: raw only


def read_frame(s, w, h, timeout):
    """Requests the whole screen until one update has covered it; returns its pixels."""
    px = bytearray(w * h * 4)
    covered = 0
    end = time.monotonic() + timeout
    s.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, w, h))
    while covered < w * h:
        if time.monotonic() > end:
            raise SystemExit(f"vnc-client: {covered} of {w * h} pixels within {timeout} s")
        kind = recv_exact(s, 1)[0]
        if kind == 0:  # FramebufferUpdate
            n = struct.unpack(">xH", recv_exact(s, 3))[0]
            for _ in range(n):
                x, y, rw, rh, enc = struct.unpack(">HHHHi", recv_exact(s, 12))
                if enc != 0:
                    raise SystemExit(f"vnc-client: encoding {enc}, asked for raw only")
                data = recv_exact(s, rw * rh * 4)
                for row in range(rh):
                    o = ((y + row) * w + x) * 4
                    px[o:o + rw * 4] = data[row * rw * 4:(row + 1) * rw * 4]
                covered += rw * rh
            if covered < w * h:
                s.sendall(struct.pack(">BBHHHH", 3, 0, 0, 0, w, h))
        elif kind == 2:  # Bell
            pass
        elif kind == 3:  # ServerCutText
            length = struct.unpack(">xxxI", recv_exact(s, 7))[0]
            recv_exact(s, length)
        else:
            raise SystemExit(f"vnc-client: unexpected server message {kind}")
    return px


def pointer(s, mask, x, y):
    s.sendall(struct.pack(">BBHH", 5, mask, x, y))


def key(s, down, keysym):
    s.sendall(struct.pack(">BBxxI", 4, 1 if down else 0, keysym))


def main():
    if len(sys.argv) < 5:
        raise SystemExit(__doc__)
    host, port, out = sys.argv[1], sys.argv[2], sys.argv[3]
    s = None
    for _ in range(100):
        try:
            if host == "unix":
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.settimeout(60)
                s.connect(port)
            else:
                s = socket.create_connection((host, int(port)), timeout=60)
            break
        except OSError:
            s = None
            time.sleep(0.3)
    if s is None:
        raise SystemExit(f"vnc-client: cannot connect to {host} {port}")
    w, h = handshake(s)
    set_format(s)
    expect = tuple(int(v) for v in sys.argv[4].split(","))
    end = time.monotonic() + 120
    frames = 0
    while True:
        px = read_frame(s, w, h, 120)
        frames += 1
        # slices and array.count work in C: a per-pixel Python loop over a frame takes
        # tens of seconds in an emulated guest
        px[3::4] = bytes(w * h)
        sample = collections.Counter(bytes(px[i:i + 3]) for i in range(0, len(px), 4 * 97))
        b, g, r = sample.most_common(1)[0][0]
        n = array.array("I", bytes(px)).count(r << 16 | g << 8 | b)
        if frames == 1:
            print(f"first {r} {g} {b} {n / (w * h):.4f}", flush=True)
        if (r, g, b) == expect or time.monotonic() > end:
            break
        time.sleep(0.5)
    rgb = bytearray(w * h * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = px[2::4], px[1::4], px[0::4]
    with open(f"{out}/vnc.ppm", "wb") as f:
        f.write(b"P6\n%d %d\n255\n" % (w, h))
        f.write(rgb)
    print(f"size {w} {h}")
    print(f"frames {frames}")
    print(f"colour {r} {g} {b} {n / (w * h):.4f}", flush=True)
    for action in sys.argv[5:]:
        what, _, arg = action.partition(":")
        if what == "click":
            x, y = (int(v) for v in arg.split(","))
            pointer(s, 0, x, y)
            time.sleep(0.2)
            pointer(s, 1, x, y)
            time.sleep(0.2)
            pointer(s, 0, x, y)
        elif what == "type":
            for ch in arg:
                key(s, True, ord(ch))
                key(s, False, ord(ch))
        elif what == "sleep":
            time.sleep(float(arg))
        else:
            raise SystemExit(f"vnc-client: unknown action {action}")
        print(f"done {action}", flush=True)
    time.sleep(1)
    s.close()


if __name__ == "__main__":
    main()
