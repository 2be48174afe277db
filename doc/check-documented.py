#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail on an exported libdispman symbol the API reference does not document.

usage: check-documented.py LIBDISPMAN_SO DOXYGEN_XML_DIR [MIN_SYMBOLS]

MIN_SYMBOLS (default 10) guards against reading the wrong library.

The exported functions are the dynamic symbols of the built library (what
src/dispman.map lets out). Each must appear in Doxygen's XML as a function with a
non-empty description, i.e. with a doc comment (/** ... */) in an installed header.
"""
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def exported(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "W", "i") and parts[2].startswith("dispman_"):
            syms.add(parts[2].split("@")[0])
    return syms


def text(el):
    return "".join(el.itertext()).strip() if el is not None else ""


def documented(xml_dir):
    docs = {}
    for name in os.listdir(xml_dir):
        if not name.endswith("_8h.xml"):
            continue
        root = ET.parse(os.path.join(xml_dir, name)).getroot()
        for m in root.iter("memberdef"):
            if m.get("kind") != "function":
                continue
            desc = text(m.find("briefdescription")) + text(m.find("detaileddescription"))
            docs[text(m.find("name"))] = (desc, name)
    return docs


def main():
    lib, xml_dir = sys.argv[1], sys.argv[2]
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    syms = exported(lib)
    if len(syms) < least:
        print("FAIL: only %d dispman_* symbols exported by %s?" % (len(syms), lib))
        return 1
    docs = documented(xml_dir)
    missing = sorted(s for s in syms if s not in docs)
    empty = sorted(s for s in syms if s in docs and not docs[s][0])
    for s in missing:
        print("not in any installed header: %s" % s)
    for s in empty:
        print("no doc comment: %s" % s)
    print("%d exported functions, %d documented" % (len(syms), len(syms) - len(missing) -
                                                     len(empty)))
    return 1 if missing or empty else 0


if __name__ == "__main__":
    sys.exit(main())
