#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The "Must show" of dispman-info, on vkms in the test guest.

Usage: dispman-info-check.py DISPMAN_INFO text|json|dot [device]

Runs dispman-info in the given form and checks that its output lists the vkms device's
CRTC, the Virtual and Writeback connectors, and 10 planes (1 primary, 8 overlay, 1 cursor)
with the formats vkms gives them, wired to the CRTC. The text form is parsed as the
indented key/list tree it is, the JSON form with json, the DOT form node by node and edge
by edge. Exit 0 when everything is there, 1 with the reasons otherwise.
"""
import json
import re
import subprocess
import sys

PRIMARY_FORMATS = {"XR24", "XR48", "RG16"}
OTHER_FORMATS = {"AR24", "XR24", "XR48", "AR48", "RG16"}
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


def check_model(m, form):
    check(m["driver"] == "vkms", "%s: driver is %r, not vkms" % (form, m["driver"]))
    check(len(m["crtcs"]) == 1, "%s: %d CRTCs, vkms has 1" % (form, len(m["crtcs"])))
    crtc = m["crtcs"][0] if m["crtcs"] else None
    names = {c[0]: c for c in m["connectors"]}
    check("Virtual-1" in names and not names["Virtual-1"][1],
          "%s: no Virtual-1 (non-writeback) connector in %s" % (form, list(names)))
    check("Writeback-1" in names and names["Writeback-1"][1],
          "%s: no Writeback-1 writeback connector in %s" % (form, list(names)))
    planes = m["planes"]
    types = [p["type"] for p in planes]
    check(len(planes) == 10, "%s: %d planes, want 10" % (form, len(planes)))
    check(types.count("primary") == 1, "%s: %d primary planes" % (form, types.count("primary")))
    check(types.count("overlay") == 8, "%s: %d overlay planes" % (form, types.count("overlay")))
    check(types.count("cursor") == 1, "%s: %d cursor planes" % (form, types.count("cursor")))
    for p in planes:
        want = PRIMARY_FORMATS if p["type"] == "primary" else OTHER_FORMATS
        check(p["formats"] == want, "%s: plane %d (%s) formats %s, want %s" % (
            form, p["id"], p["type"], sorted(p["formats"]), sorted(want)))
        check(crtc in p["crtcs"], "%s: plane %d not linked to CRTC %s" % (form, p["id"], crtc))
    print("%s: driver %s, CRTC %s, connectors %s, planes %s" % (
        form, m["driver"], m["crtcs"], ", ".join("%s%s" % (c[0], " (writeback)" if c[1] else "")
                                                 for c in m["connectors"]),
        ", ".join("%d %s [%s]" % (p["id"], p["type"], " ".join(sorted(p["formats"])))
                  for p in planes)))


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[2] not in ("text", "json", "dot"):
        print(__doc__, file=sys.stderr)
        return 2
    tool, form = sys.argv[1], sys.argv[2]
    cmd = [tool, "--" + form] + sys.argv[3:]
    run = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(run.stderr)
    print("$ %s: exit %d, %d lines" % (" ".join(cmd), run.returncode,
                                       len(run.stdout.splitlines())))
    if run.returncode != 0:
        print("FAIL: dispman-info exited with %d" % run.returncode)
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
    check_model(model, form)
    if errors:
        print(run.stdout)
        for e in errors:
            print("FAIL: " + e)
        return 1
    print("PASS: dispman-info --%s lists the vkms CRTC, Virtual-1, Writeback-1 and 10 planes "
          "with their formats" % form)
    return 0


if __name__ == "__main__":
    sys.exit(main())
