#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The "Must show" of dispman-info, on the device under test in the test guest.

Usage: dispman-info-check.py DISPMAN_INFO text|json|dot [device]

Runs dispman-info in the given form (on the device it discovers, which must be
$DISPMAN_DEVICE, or on the given device) and compares what it lists with the kernel's
own answer for the same device: the driver, the CRTCs, the connectors (id, name,
writeback or not, status) and every plane (id, type, formats, possible CRTCs). The
kernel's answer comes from Debian's drm_info -j (driver, CRTCs, connectors), the
connectors' sysfs names, and libdrm's modetest -p (planes: a non-atomic client sees the
virtualized cursor planes that 6.12 hides from atomic clients without the hotspot cap,
as libdispman, which sets it, does). The text form is parsed as the indented key/list
tree it is, the JSON form with json, the DOT form node by node and edge by edge.
Exit 0 when both agree, 1 with the reasons otherwise.
"""
import glob
import json
import os
import re
import subprocess
import sys

errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)
    return cond


def parse_text(text):
    """The text form: 'key: value', 'key:' followed by a deeper block, '- item' lists."""
    lines = [l for l in text.splitlines() if l.strip()]
    pos = 0

    def indent(line):
        return len(line) - len(line.lstrip(" "))

    def block(level):
        nonlocal pos
        if lines[pos].strip().startswith("-"):
            items = []
            while pos < len(lines) and indent(lines[pos]) == level and \
                    lines[pos].strip().startswith("-"):
                item = lines[pos].strip()[1:].strip()
                pos += 1
                if item == "" and pos < len(lines) and indent(lines[pos]) > level:
                    items.append(block(indent(lines[pos])))
                else:
                    items.append(item)
            return items
        obj = {}
        while pos < len(lines) and indent(lines[pos]) == level and \
                not lines[pos].strip().startswith("-"):
            key, _, value = lines[pos].strip().partition(":")
            value = value.strip()
            pos += 1
            if value == "" and pos < len(lines) and indent(lines[pos]) > level:
                obj[key] = block(indent(lines[pos]))
            else:
                obj[key] = value
        return obj

    tree = block(0)
    if pos != len(lines):
        raise ValueError("unparsed text from line %d: %r" % (pos + 1, lines[pos]))
    return tree


def model_from_tree(tree):
    """A common model from the text or JSON tree."""
    def as_list(v):
        return v if isinstance(v, list) else []
    return {
        "driver": str(tree.get("driver", "")),
        "crtcs": [int(c["id"]) for c in as_list(tree.get("crtcs"))],
        "connectors": [(c["name"], str(c["writeback"]).lower() == "true", c["status"])
                       for c in as_list(tree.get("connectors"))],
        "planes": [{"id": int(p["id"]), "type": p["type"],
                    "formats": set(as_list(p.get("formats"))),
                    "crtcs": {int(x) for x in as_list(p.get("possible_crtcs"))}}
                   for p in as_list(tree.get("planes"))],
    }


def model_from_dot(text):
    check(text.lstrip().startswith("digraph"), "DOT output does not start with digraph")
    check(text.rstrip().endswith("}"), "DOT output does not end with }")
    m = {"driver": "", "crtcs": [], "connectors": [], "planes": []}
    edges = set()
    conn_ids = {}
    for line in text.splitlines():
        line = line.strip()
        g = re.match(r'^label\s*=\s*"([^"]*)"', line)
        if g:
            m["driver"] = g.group(1).split()[0] if g.group(1) else ""
        e = re.match(r"^(\w+)\s*->\s*(\w+)", line)
        if e:
            edges.add((e.group(1), e.group(2)))
            continue
        p = re.match(r'^plane_(\d+) \[label="\{plane \d+\|(\w+)\|([^}]*)\}"', line)
        if p:
            m["planes"].append({"id": int(p.group(1)), "type": p.group(2),
                                "formats": set(p.group(3).split()), "crtcs": set()})
            continue
        c = re.match(r'^crtc_(\d+) \[label="\{CRTC \d+\|', line)
        if c:
            m["crtcs"].append(int(c.group(1)))
            continue
        k = re.match(r'^connector_(\d+) \[label="\{connector \d+\|([\w-]+)\|(\w+)\}"', line)
        if k:
            wb = k.group(2).startswith("Writeback")
            m["connectors"].append((k.group(2), wb, k.group(3)))
            conn_ids[k.group(2)] = int(k.group(1))
    for p in m["planes"]:
        p["crtcs"] = {int(b[5:]) for a, b in edges
                      if a == "plane_%d" % p["id"] and b.startswith("crtc_")}
    # Every connector must be reachable from the CRTC through an encoder.
    for name, cid in conn_ids.items():
        encs = {a for a, b in edges if b == "connector_%d" % cid and a.startswith("encoder_")}
        from_crtc = {b for a, b in edges if a.startswith("crtc_") and b in encs}
        check(from_crtc, "DOT: no crtc -> encoder -> %s path" % name)
    return m


def fourcc(code):
    return "".join(chr((code >> (8 * i)) & 0xff) for i in range(4)).rstrip(" \0")


def kernel_model(device):
    """What the kernel says about device (see the module's docstring)."""
    run = subprocess.run(["drm_info", "-j", device], stdout=subprocess.PIPE, text=True,
                         check=True)
    info = json.loads(run.stdout)[device]
    crtcs = [c["id"] for c in info["crtcs"]]
    card = os.path.basename(os.path.realpath(device))
    names = {}
    for d in glob.glob("/sys/class/drm/%s-*" % card):
        name = os.path.basename(d)[len(card) + 1:]
        try:
            with open(os.path.join(d, "connector_id")) as f:
                names[int(f.read())] = name
        except OSError:
            names.setdefault(None, []).append(name)
    status = {1: "connected", 2: "disconnected", 3: "unknown"}
    if None in names:
        # No connector_id in sysfs (Linux 6.1): within each connector type, ids and
        # the names' numbers both follow the order of creation.
        type_names = {1: "VGA", 7: "LVDS", 10: "DP", 11: "HDMI-A", 14: "eDP", 15: "Virtual",
                      16: "DSI", 18: "Writeback"}
        left = names.pop(None)
        for t in {c["type"] for c in info["connectors"]}:
            prefix = type_names.get(t, "?") + "-"
            ids = sorted(c["id"] for c in info["connectors"] if c["type"] == t)
            nm = sorted((n for n in left if n.startswith(prefix) and
                         n[len(prefix):].isdigit()), key=lambda n: int(n[len(prefix):]))
            if len(nm) == len(ids):
                names.update(zip(ids, nm))
    conns = []
    for c in info["connectors"]:
        conns.append((c["id"], names.get(c["id"]), c["type"] == 18, status.get(c["status"], "?")))
    model = {"driver": info["driver"]["name"], "crtcs": crtcs, "connectors": conns}
    # Planes: modetest -M DRIVER -p (it opens the first device of that driver: in these
    # guests a driver has one device).
    run = subprocess.run(["modetest", "-M", model["driver"], "-p"], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    planes, cur, in_planes, in_type = [], None, False, False
    crtc_order = []
    for line in run.stdout.splitlines():
        if line.startswith("CRTCs:"):
            in_planes = False
        if line.startswith("Planes:"):
            in_planes = True
            continue
        m = re.match(r"^(\d+)\t\d+\t\d+\t.*\t(0x[0-9a-f]+)$", line)
        if in_planes and m:
            cur = {"id": int(m.group(1)), "mask": int(m.group(2), 16), "formats": set(),
                   "type": None}
            planes.append(cur)
            continue
        if not in_planes:
            m = re.match(r"^(\d+)\t\d+\t\(", line)
            if m:
                crtc_order.append(int(m.group(1)))
            continue
        if cur is None:
            continue
        m = re.match(r"^\s+formats:(.*)$", line)
        if m:
            cur["formats"] = set(m.group(1).split())
        elif re.match(r"^\s+\d+ type:$", line):
            in_type = True
        elif in_type and re.match(r"^\s+value: \d+$", line):
            cur["type"] = {0: "overlay", 1: "primary", 2: "cursor"}.get(int(line.split()[-1]))
            in_type = False
    check(run.returncode == 0 and planes, "modetest -M %s -p listed no planes (exit %d)" % (
        model["driver"], run.returncode))
    check(crtc_order == crtcs or not planes,
          "modetest's CRTCs %s are not drm_info's %s" % (crtc_order, crtcs))
    model["planes"] = [{"id": p["id"], "type": p["type"], "formats": p["formats"],
                        "crtcs": {crtcs[i] for i in range(len(crtcs)) if p["mask"] >> i & 1}}
                       for p in planes]
    return model


def check_model(m, k, form):
    """m: what dispman-info said; k: what the kernel said."""
    check(m["driver"] == k["driver"], "%s: driver is %r, the kernel says %r" % (
        form, m["driver"], k["driver"]))
    check(sorted(m["crtcs"]) == sorted(k["crtcs"]) and m["crtcs"],
          "%s: CRTCs %s, the kernel has %s" % (form, m["crtcs"], k["crtcs"]))
    # Connectors: names, writeback, status (the text and JSON forms do not give ids
    # for every connector consistently with DOT, so compare by name).
    kc = {c[1]: c for c in k["connectors"] if c[1]}
    check(len(kc) == len(k["connectors"]),
          "%s: sysfs names only %d of the kernel's %d connectors" % (form, len(kc),
                                                                   len(k["connectors"])))
    mc = {c[0]: c for c in m["connectors"]}
    check(set(mc) == set(kc), "%s: connectors %s, the kernel has %s" % (
        form, sorted(mc), sorted(kc)))
    for name in set(mc) & set(kc):
        check(mc[name][1] == kc[name][2], "%s: %s writeback %s, the kernel says %s" % (
            form, name, mc[name][1], kc[name][2]))
        check(mc[name][2] == kc[name][3], "%s: %s is %s, the kernel says %s" % (
            form, name, mc[name][2], kc[name][3]))
    kp = {p["id"]: p for p in k["planes"]}
    mp = {p["id"]: p for p in m["planes"]}
    check(set(mp) == set(kp), "%s: planes %s, the kernel has %s" % (
        form, sorted(mp), sorted(kp)))
    for pid in sorted(set(mp) & set(kp)):
        a, b = mp[pid], kp[pid]
        check(a["type"] == b["type"], "%s: plane %d is %s, the kernel says %s" % (
            form, pid, a["type"], b["type"]))
        check(a["formats"] == b["formats"], "%s: plane %d formats %s, the kernel says %s" % (
            form, pid, sorted(a["formats"]), sorted(b["formats"])))
        check(a["crtcs"] == b["crtcs"], "%s: plane %d CRTCs %s, the kernel says %s" % (
            form, pid, sorted(a["crtcs"]), sorted(b["crtcs"])))
    check(any(p["type"] == "primary" for p in m["planes"]), "%s: no primary plane" % form)
    print("%s: driver %s, CRTCs %s, connectors %s, planes %s" % (
        form, m["driver"], m["crtcs"], ", ".join("%s%s" % (c[0], " (writeback)" if c[1] else "")
                                                 for c in m["connectors"]),
        ", ".join("%d %s [%s]" % (p["id"], p["type"], " ".join(sorted(p["formats"])))
                  for p in m["planes"])))


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in ("text", "json", "dot"):
        print(__doc__, file=sys.stderr)
        return 2
    tool, form = sys.argv[1], sys.argv[2]
    cmd = [tool, "--" + form] + sys.argv[3:]
    device = sys.argv[3] if len(sys.argv) > 3 else (
        os.environ.get("DISPMAN_DEVICE") or os.environ.get("DISPMAN_TEST_DEVICE") or
        "/dev/dri/card0")
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(run.stderr)
    print("$ %s: exit %d, %d lines" % (" ".join(cmd), run.returncode,
                                       len(run.stdout.splitlines())))
    if run.returncode != 0:
        print("FAIL: dispman-info exited with %d" % run.returncode)
        return 1
    # After dispman-info: its probe (GETCONNECTOR) is what turns a writeback connector's
    # status from unknown to connected, and drm_info reads the current state.
    try:
        kernel = kernel_model(device)
    except (OSError, subprocess.CalledProcessError, ValueError, KeyError) as e:
        print("FAIL: cannot read the kernel's answer for %s: %r" % (device, e))
        return 1
    try:
        if form == "json":
            model = model_from_tree(json.loads(run.stdout))
        elif form == "text":
            model = model_from_tree(parse_text(run.stdout))
        else:
            model = model_from_dot(run.stdout)
    except (ValueError, KeyError, TypeError) as e:
        print(run.stdout)
        print("FAIL: cannot parse the %s output: %r" % (form, e))
        return 1
    check_model(model, kernel, form)
    if errors:
        print(run.stdout)
        for e in errors:
            print("FAIL: " + e)
        return 1
    print("PASS: dispman-info --%s lists %s's %d CRTCs, %d connectors and %d planes as the "
          "kernel does" % (form, device, len(kernel["crtcs"]), len(kernel["connectors"]),
                           len(kernel["planes"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
