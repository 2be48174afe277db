#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""dispman-info --json against drm_info -j on the same device (run in the guest).

Usage: dispman-info-vs-drm-info.py DISPMAN_INFO [device]

Every object id, and for every connector, encoder, CRTC and plane its kernel fields,
modes with timings, formats, and every property (id, type, flags, raw value, value,
enum names and values, range, object type, decoded IN_FORMATS / MODE_ID /
WRITEBACK_PIXEL_FORMATS) must agree, as must the driver version, the caps, the client
caps both list and the framebuffer size limits. Exit 0 when all agree, 1 with every
difference otherwise.
"""
import json
import subprocess
import sys

errors = []
checked = 0
skipped = []

# drm_info's "type" of a property: the legacy type bits, or the extended type value.
PROP_TYPES = {"range": 2, "enum": 8, "blob": 16, "bitmask": 32, "object": 64,
              "signed range": 128}
OBJECT_TYPES = {"CRTC": 0xcccccccc, "connector": 0xc0c0c0c0, "encoder": 0xe0e0e0e0,
                "mode": 0xdededede, "property": 0xb0b0b0b0, "framebuffer": 0xfbfbfbfb,
                "blob": 0xbbbbbbbb, "plane": 0xeeeeeeee, "any": 0}
STATUS = {"connected": 1, "disconnected": 2, "unknown": 3}
MODE_FIELDS = ["clock", "hdisplay", "hsync_start", "hsync_end", "htotal", "hskew",
               "vdisplay", "vsync_start", "vsync_end", "vtotal", "vscan", "vrefresh",
               "flags", "type", "name"]


def is_cursor(plane):
    for k in ("type", "type_name", "kind"):
        v = plane.get(k)
        if isinstance(v, str):
            return v.lower() == "cursor"
        if isinstance(v, int):
            return v == 2  # DRM_PLANE_TYPE_CURSOR
    for prop in plane.get("properties", []):
        if isinstance(prop, dict) and prop.get("name") == "type":
            v = prop.get("value", prop.get("raw_value"))
            return v in (2, "Cursor", "cursor")
    return False


def same(where, ours, theirs):
    global checked
    checked += 1
    if ours != theirs:
        errors.append("%s: dispman-info %r, drm_info %r" % (where, ours, theirs))


def cmp_mode(where, ours, theirs):
    if theirs is None or ours in (None, "off"):
        same(where + " mode present", ours not in (None, "off"), theirs is not None)
        return
    for f in MODE_FIELDS:
        o, t = ours.get(f), theirs.get(f)
        if f == "flags" and isinstance(o, int) and isinstance(t, int):
            # drm_info sets DRM_CLIENT_CAP_ASPECT_RATIO and gets the picture aspect bits
            # (DRM_MODE_FLAG_PIC_AR_MASK, bits 19-22); dispman-info does not set that cap.
            o, t = o & ~(0xF << 19), t & ~(0xF << 19)
        same("%s.%s" % (where, f), o, t)


def cmp_props(where, ours, theirs):
    same(where + " property names", sorted(ours), sorted(theirs))
    for name in sorted(set(ours) & set(theirs)):
        o, t = ours[name], theirs[name]
        w = "%s property %s" % (where, name)
        same(w + " id", o["id"], t["id"])
        same(w + " flags", o["flags_raw"], t["flags"])
        same(w + " type", PROP_TYPES.get(o["type"]), t["type"])
        same(w + " immutable", "immutable" in o["flags"], t["immutable"])
        same(w + " atomic", "atomic" in o["flags"], t["atomic"])
        if name == "FB_DAMAGE_CLIPS":
            # A per-commit blob: the fbdev emulation's dirty flushes (fbcon's cursor
            # blink, through drm_atomic_helper_dirtyfb) create a new blob for every
            # flush, so its id changes between the two programs' reads (seen on 6.12:
            # 49, then 50). Only that it is a blob property is compared.
            skipped.append(w + " raw_value")
        else:
            same(w + " raw_value", o["raw_value"], t["raw_value"])
        if t["value"] is not None:
            same(w + " value", o["value"], t["value"])
        spec = t["spec"]
        if o["type"] in ("enum", "bitmask"):
            same(w + " enums", [(e["name"], e["value"]) for e in o["enums"]],
                 [(e["name"], e["value"]) for e in spec])
        elif o["type"] in ("range", "signed range"):
            same(w + " range", (o["range"]["min"], o["range"]["max"]),
                 (spec["min"], spec["max"]))
        elif o["type"] == "object":
            same(w + " object type", OBJECT_TYPES.get(o["object_type"]), spec)
        if name == "IN_FORMATS" and t["data"] is not None:
            same(w + " data", sorted((d["modifier"], tuple(sorted(d["formats"])))
                                     for d in o.get("data", [])),
                 sorted((d["modifier"], tuple(sorted(d["formats"]))) for d in t["data"]))
        elif name == "WRITEBACK_PIXEL_FORMATS" and t["data"] is not None:
            same(w + " data", o.get("data"), t["data"])
        elif name == "MODE_ID" and t["data"] is not None:
            cmp_mode(w + " data", o.get("data"), t["data"])


def by_id(objs):
    return {o["id"]: o for o in objs}


def main():
    info = sys.argv[1]
    dev = sys.argv[2] if len(sys.argv) > 2 else "/dev/dri/card0"
    # dispman-info first: opening the device probes the connectors (drmModeGetConnector),
    # which is what sets the writeback connector's status and modes; drm_info reads the
    # current state without probing, so it then sees the same state.
    ours = json.loads(subprocess.run([info, "--json", dev], check=True,
                                     stdout=subprocess.PIPE).stdout)
    try:
        theirs = json.loads(subprocess.run(["drm_info", "-j", dev], check=True,
                                           stdout=subprocess.PIPE).stdout)[dev]
    except FileNotFoundError:
        print("FAIL: drm_info is not installed (Debian package drm-info, scripts/setup-debian)")
        return 1

    d = theirs["driver"]
    same("driver", ours["driver"], d["name"])
    for k, tk in (("desc", "desc"), ("date", "date")):
        same("version " + k, ours["version"][k], d[tk] if k == "desc" else d["version"][tk])
    for k in ("major", "minor", "patch"):
        same("version " + k, ours["version"][k], d["version"][k])
    for cap, v in d["caps"].items():
        if v is not None:
            same("cap " + cap, ours["caps"].get(cap), v)
    for cap, v in d["client_caps"].items():
        same("client cap " + cap, ours["client_caps"].get(cap), v)
    for k, v in theirs["fb_size"].items():
        same("fb_size " + k, ours["fb_size"][k], v)

    oc, tc = by_id(ours["connectors"]), by_id(theirs["connectors"])
    same("connector ids", sorted(oc), sorted(tc))
    for i in sorted(set(oc) & set(tc)):
        o, t = oc[i], tc[i]
        w = "connector %d" % i
        same(w + " type", o["type"], t["type"])
        same(w + " status", STATUS[o["status"]], t["status"])
        same(w + " phy_width", o["width_mm"], t["phy_width"])
        same(w + " phy_height", o["height_mm"], t["phy_height"])
        same(w + " subpixel", o["subpixel"], t["subpixel"])
        same(w + " encoder_id", o["encoder_id"], t["encoder_id"])
        same(w + " encoders", o["encoders"], t["encoders"])
        same(w + " mode count", len(o["modes"]), len(t["modes"]))
        for k, (om, tm) in enumerate(zip(o["modes"], t["modes"])):
            cmp_mode("%s mode %d" % (w, k), om, tm)
        cmp_props(w, o["properties"], t["properties"])

    oe, te = by_id(ours["encoders"]), by_id(theirs["encoders"])
    same("encoder ids", sorted(oe), sorted(te))
    for i in sorted(set(oe) & set(te)):
        o, t = oe[i], te[i]
        w = "encoder %d" % i
        same(w + " type", o["type_code"], t["type"])
        same(w + " crtc_id", o["crtc_id"], t["crtc_id"])
        same(w + " possible_crtcs", o["possible_crtcs_mask"], t["possible_crtcs"])
        same(w + " possible_clones", o["possible_clones"], t["possible_clones"])

    ocr, tcr = by_id(ours["crtcs"]), by_id(theirs["crtcs"])
    same("CRTC ids", sorted(ocr), sorted(tcr))
    for i in sorted(set(ocr) & set(tcr)):
        o, t = ocr[i], tcr[i]
        w = "CRTC %d" % i
        for k in ("fb_id", "x", "y", "gamma_size"):
            same("%s %s" % (w, k), o[k], t[k])
        cmp_mode(w, o["mode"], t.get("mode"))
        cmp_props(w, o["properties"], t["properties"])

    op, tp = by_id(ours["planes"]), by_id(theirs["planes"])
    # libdispman sets DRM_CLIENT_CAP_CURSOR_PLANE_HOTSPOT where the kernel has it, and a
    # virtualized driver (virtio-gpu on 6.12) shows its cursor planes only to such a client:
    # drm_info's planes must all be there, and the extra ones must be cursor planes.
    extra = sorted(set(op) - set(tp))
    same("plane ids", sorted(set(op) & set(tp)) == sorted(tp) and
         all(is_cursor(op[i]) for i in extra), True)
    for i in sorted(set(op) & set(tp)):
        o, t = op[i], tp[i]
        w = "plane %d" % i
        same(w + " possible_crtcs", o["possible_crtcs_mask"], t["possible_crtcs"])
        for k in ("crtc_id", "fb_id", "crtc_x", "crtc_y", "x", "y", "gamma_size"):
            same("%s %s" % (w, k), o[k], t[k])
        same(w + " formats", o["format_codes"], t["formats"])
        cmp_props(w, o["properties"], t["properties"])

    n = (len(oc), len(oe), len(ocr), len(op))
    print("compared %d connectors, %d encoders, %d CRTCs, %d planes: %d checks, %d differences"
          % (n + (checked, len(errors))))
    if skipped:
        print("not compared (per-commit blob ids): " + ", ".join(skipped))
    if checked < 200 or min(n) == 0:
        errors.append("too little compared: %s, %d checks" % (n, checked))
    for e in errors:
        print("FAIL: " + e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
