#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The player's published pipeline graph against the kernel's own view (run in the guest).

usage: pipeline-check.py PLAYER DISPMAN-INFO

Starts examples/player with the vivid camera (/dev/video0) as its picture-in-picture and a
still grey clip, reads its live graph with `dispman-info --pipeline --pid PID` (JSON, text
and DOT), and checks it against what the kernel says:
- the camera's video node is /dev/video0 with that node's device numbers, and its media
  entity is the one `media-ctl -p` lists with /dev/video0 as its device node, on the media
  device the graph names;
- on a device with an overlay plane: the camera layer is on an overlay plane, and that
  plane's framebuffer in debugfs (/sys/kernel/debug/dri/N/state) is one of the camera's
  buffers (imported from vivid), on the CRTC and connector the graph links it to;
- on a device without one (virtio-gpu): the camera layer is composited, the graph names the
  composition buffer and the plane it is on, and debugfs shows that framebuffer on that
  plane, on that CRTC and connector;
- the DOT output renders with graphviz (dot -Tsvg) and the SVG names the camera's entity.
The JSON, text, DOT and SVG go to $DISPMAN_VM_OUT (the pictures of doc/pipeline.md).
"""
import html
import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

player, info = sys.argv[1], sys.argv[2]
out_dir = os.environ.get("DISPMAN_VM_OUT") or tempfile.mkdtemp(prefix="pipeline-check.")
profile = os.environ.get("DISPMAN_VM_PROFILE", "here")
device = os.environ.get("DISPMAN_DEVICE", "")
failures = []


def fail(msg):
    print("FAIL: " + msg)
    failures.append(msg)


def ok(msg):
    print("ok: " + msg)


# A still grey clip: the video does not change, so the screen changes only with the camera.
tmp = tempfile.mkdtemp(prefix="pipeline-check.")
clip = os.path.join(tmp, "grey.y4m")
with open(clip, "wb") as f:
    w, h = 320, 180
    f.write(b"YUV4MPEG2 W%d H%d F5:1 Ip A1:1 C420jpeg\n" % (w, h))
    for _ in range(2):
        f.write(b"FRAME\n" + bytes([128]) * (w * h * 3 // 2))

# vivid at 2 frames a second: the composition changes seldom enough to compare it with
# debugfs between two snapshots.
subprocess.run(["v4l2-ctl", "-d", "/dev/video0", "--set-parm=2"], capture_output=True)

proc = subprocess.Popen([player, "--camera", "/dev/video0", "--frames", "100000", clip],
                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
pending = b""


def read_until(pattern, timeout):
    """The player's lines until one matches pattern (read from the fd: no hidden buffer)."""
    global pending
    end = time.monotonic() + timeout
    while True:
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            line = line.decode(errors="replace")
            print("  player: " + line)
            m = re.search(pattern, line)
            if m:
                return m
        left = end - time.monotonic()
        if left <= 0:
            return None
        r, _, _ = select.select([proc.stdout], [], [], left)
        if not r:
            return None
        chunk = os.read(proc.stdout.fileno(), 4096)
        if not chunk:
            return None
        pending += chunk


def query(fmt):
    r = subprocess.run([info, "--pipeline", "--" + fmt, "--pid", str(proc.pid)],
                       capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise RuntimeError(f"dispman-info --{fmt} --pid: {r.stderr.strip()}")
    return r.stdout


def debugfs_state():
    minor = re.sub(r"\D", "", os.path.basename(device)) or "0"
    with open(f"/sys/kernel/debug/dri/{minor}/state") as f:
        text = f.read()
    planes, crtcs, conns = {}, {}, {}
    cur = None
    for line in text.splitlines():
        m = re.match(r"(plane|crtc|connector)\[(\d+)\]: (\S+)", line)
        if m:
            kind, oid, name = m.group(1), int(m.group(2)), m.group(3)
            cur = {"id": oid, "name": name}
            {"plane": planes, "crtc": crtcs, "connector": conns}[kind][oid] = cur
            continue
        m = re.match(r"\t(crtc|fb)=(\S+)", line)
        if m and cur is not None and m.group(1) not in cur:
            cur[m.group(1)] = m.group(2)
    return planes, crtcs, conns


def linked(g, src, types, active=True):
    return [g["nodes"][l["sink"]] for l in g["links"]
            if l["source"] == src["index"] and l["type"] in types and
            (l["active"] or not active)]


def linked_to(g, sink, types):
    return [g["nodes"][l["source"]] for l in g["links"]
            if l["sink"] == sink["index"] and l["type"] in types and l["active"]]


def crtc_and_connector(g, plane):
    """The CRTC the graph puts plane on, and the connectors that CRTC drives."""
    crtcs = linked(g, plane, ["crtc"])
    if len(crtcs) != 1:
        return None, []
    conns = []
    for enc in linked(g, crtcs[0], ["encoder"]):
        conns += [c for c in linked(g, enc, ["connector"]) if c["type"] == "connector"]
    return crtcs[0], conns


def check_display_path(g, plane, fbs, what):
    """debugfs: plane shows one of fbs, on the graph's CRTC, which drives its connector.
    Returns True when the framebuffer matched (False: maybe a frame changed in between)."""
    planes, crtcs, conns = debugfs_state()
    kp = planes.get(plane["id"])
    if not kp:
        fail(f"debugfs has no plane[{plane['id']}]")
        return True
    fb = int(kp.get("fb", "0"))
    if fb not in fbs:
        print(f"  debugfs plane[{plane['id']}] fb={fb}, not {what} {sorted(fbs)}")
        return False
    ok(f"debugfs: plane[{plane['id']}] ({plane['kind']}) shows fb {fb}, {what}")
    crtc, gconns = crtc_and_connector(g, plane)
    kcrtc = [c for c in crtcs.values() if c["name"] == kp.get("crtc")]
    if not crtc or len(kcrtc) != 1 or kcrtc[0]["id"] != crtc["id"]:
        fail(f"plane {plane['id']}: graph CRTC {crtc and crtc['id']}, debugfs "
             f"crtc={kp.get('crtc')} ({[c['id'] for c in kcrtc]})")
        return True
    ok(f"plane {plane['id']} on CRTC {crtc['id']} ({kcrtc[0]['name']}) in both")
    kconn = sorted(c["id"] for c in conns.values() if c.get("crtc") == kcrtc[0]["name"])
    gconn = sorted(c["id"] for c in gconns)
    if not gconn or gconn != kconn:
        fail(f"CRTC {crtc['id']} drives connectors {gconn} in the graph, {kconn} in debugfs")
    else:
        ok(f"CRTC {crtc['id']} drives connector {gconn} in both")
    return True


def check_camera_media(g):
    cams = [n for n in g["nodes"] if n["type"] == "camera"]
    if len(cams) != 1:
        fail(f"{len(cams)} camera nodes in the graph, expected 1")
        return None
    cam = cams[0]
    videos = linked_to(g, cam, ["stream"])
    st = os.stat("/dev/video0")
    if len(videos) != 1 or videos[0]["name"] != "/dev/video0" or \
            (videos[0]["major"], videos[0]["minor"]) != (os.major(st.st_rdev), os.minor(st.st_rdev)):
        fail(f"the camera's video node: {videos}")
        return cam
    video = videos[0]
    ok(f"video node /dev/video0 ({video['major']}:{video['minor']}) streams to {cam['name']}")
    ents = linked_to(g, video, ["interface"])
    if len(ents) != 1:
        fail(f"{len(ents)} media entities own /dev/video0 in the graph")
        return cam
    ent = ents[0]
    r = subprocess.run(["media-ctl", "-d", ent["device"], "-p"], capture_output=True, text=True)
    # "- entity 1: vivid-000-vid-cap (1 pad, 0 link)" ... "device node name /dev/video0"
    kernel = None
    for block in re.split(r"\n(?=- entity )", r.stdout):
        m = re.match(r"- entity (\d+): (.+?) \((\d+) pads?", block)
        if m and re.search(r"device node name /dev/video0\b", block):
            kernel = (int(m.group(1)), m.group(2), int(m.group(3)))
    if r.returncode != 0 or not kernel:
        fail(f"media-ctl -d {ent['device']} -p lists no entity with /dev/video0")
    elif kernel != (ent["id"], ent["name"], len(ent["pads"])):
        fail(f"media entity: graph {ent['id']} {ent['name']} {len(ent['pads'])} pads, "
             f"media-ctl {kernel}")
    else:
        ok(f"media entity {ent['id']} '{ent['name']}' with {kernel[2]} pad(s) on "
           f"{ent['device']}, as media-ctl -p says")
    return cam


def check(g, final):
    """One snapshot's display checks; returns False to retry (a frame changed meanwhile)."""
    cam = [n for n in g["nodes"] if n["type"] == "camera"][0]
    bufs = linked(g, cam, ["export", "import", "copy"])
    layers = [n for n in g["nodes"] if n["type"] == "layer" and n.get("camera") == cam["id"]]
    if not bufs or len(layers) != 1:
        fail(f"camera {cam['name']}: {len(bufs)} buffers, {len(layers)} layers")
        return True
    layer = layers[0]
    how = {l["type"] for l in g["links"] if l["source"] == cam["index"]}
    print(f"  camera memory {cam['memory']} ({', '.join(sorted(how))}), layer "
          f"{layer['placement']}")
    overlays = [n for n in g["nodes"] if n["type"] == "plane" and n["kind"] == "overlay"]
    if overlays:
        if layer["placement"]["state"] != "on-plane":
            fail(f"a device with overlay planes: the camera layer is {layer['placement']}")
            return True
        planes = linked(g, layer, ["plane"])
        if len(planes) != 1 or planes[0]["kind"] != "overlay":
            fail(f"the camera layer's plane: {planes}")
            return True
        if not cam["zero_copy"]:
            fail("the camera is not zero-copy on vkms")
        matched = check_display_path(g, planes[0], {b["fb_id"] for b in bufs}, "a camera buffer")
        if not matched and final:
            fail("debugfs never showed a camera buffer on the camera layer's plane")
        return matched or final
    if layer["placement"]["state"] != "composited":
        fail(f"a device without overlay planes: the camera layer is {layer['placement']}")
        return True
    comps = linked(g, layer, ["composed"])
    if len(comps) != 1:
        fail(f"the camera layer is composited but linked to {comps}")
        return True
    comp = comps[0]
    planes = linked(g, comp, ["plane"])
    if len(planes) != 1 or planes[0]["kind"] != "primary":
        fail(f"the composition buffer's plane: {planes}")
        return True
    ok(f"composition path: layer {layer['id']} composed (why: "
       f"{layer['placement']['reason']}) into {comp['name']} fb {comp['fb_id']} on "
       f"primary plane {planes[0]['id']}")
    matched = check_display_path(g, planes[0], {comp["fb_id"]}, "the composition buffer")
    if not matched and final:
        fail("debugfs never showed the graph's composition buffer on its plane")
    return matched or final


try:
    m = read_until(r"pipeline published on (\S+)", 120)
    if not m:
        fail("the player did not publish its pipeline")
        raise SystemExit
    sock = m.group(1)
    if not os.path.exists(sock) or f"dispman-{proc.pid}-" not in sock:
        fail(f"socket {sock} for PID {proc.pid}")
    if not read_until(r"player: ready", 120):
        fail("the player did not get ready")
        raise SystemExit
    # wait until a camera frame is on the layer (the layer has a framebuffer)
    g = None
    end = time.monotonic() + 60
    while time.monotonic() < end:
        g = json.loads(query("json"))
        layers = [n for n in g["nodes"] if n["type"] == "layer" and n.get("camera")]
        if layers and layers[0]["fb_id"] and layers[0]["placement"]["state"] != "not-shown":
            break
        time.sleep(0.5)
    with open(os.path.join(out_dir, f"pipeline-{profile}.json"), "w") as f:
        json.dump(g, f, indent=1)
    print(f"graph of {g['device']} ({g['driver']}): {len(g['nodes'])} nodes, "
          f"{len(g['links'])} links")
    if check_camera_media(g):
        for attempt in range(12):
            g = json.loads(query("json"))
            if check(g, attempt == 11):
                break
    text = query("text")
    with open(os.path.join(out_dir, f"pipeline-{profile}.txt"), "w") as f:
        f.write(text)
    if "camera 1" not in text or "/dev/video0" not in text:
        fail("the text form names no camera 1 on /dev/video0")
    dot = query("dot")
    dot_path = os.path.join(out_dir, f"pipeline-{profile}.dot")
    with open(dot_path, "w") as f:
        f.write(dot)
    r = subprocess.run(["dot", "-Tsvg", dot_path, "-o", dot_path[:-4] + ".svg"],
                       capture_output=True, text=True)
    svg = html.unescape(open(dot_path[:-4] + ".svg").read()) if r.returncode == 0 else ""
    ents = [n["name"] for n in g["nodes"] if n["type"] == "media-entity"]
    if r.returncode != 0 or "<svg" not in svg or not ents or ents[0] not in svg:
        fail(f"dot -Tsvg: rc {r.returncode} {r.stderr.strip()}; entities {ents}")
    else:
        ok(f"dot -Tsvg rendered {len(svg)} bytes naming {ents[0]}")
except (RuntimeError, json.JSONDecodeError, subprocess.TimeoutExpired) as e:
    fail(str(e))
except SystemExit:
    pass
finally:
    proc.send_signal(signal.SIGTERM)
    try:
        rest, _ = proc.communicate(timeout=60)
        for line in (pending + rest).decode(errors="replace").splitlines():
            print("  player: " + line)
    except subprocess.TimeoutExpired:
        proc.kill()
        fail("the player did not stop on SIGTERM")
    subprocess.run(["v4l2-ctl", "-d", "/dev/video0", "--set-parm=30"], capture_output=True)

if proc.returncode not in (0, -signal.SIGTERM):
    fail(f"the player exited with {proc.returncode}")
if failures:
    print(f"FAIL: {len(failures)} check(s) failed")
    sys.exit(1)
print("PASS")
