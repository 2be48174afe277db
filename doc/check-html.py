#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail on an exported function the installed HTML reference has no entry for.

usage: check-html.py LIBRARY.so HTML_DIR [MIN_SYMBOLS]

The exported functions are the library's dynamic dispman_* symbols (what src/dispman.map
lets out). Each must have an entry of its own in Doxygen's HTML, what a reader of
share/doc/libdispman/html finds: a member heading "name()" on a header's page (the
page exists only when the header has an @file comment), followed by a description with
text, and a link from the function index (globals_func.html). check-documented.py reads
Doxygen's XML, which keeps functions the HTML leaves out; this reads what is installed.
MIN_SYMBOLS (default 10) guards against reading the wrong library.
"""
import html
import importlib.util
import os
import re
import sys

# the exported functions, read as check-documented.py reads them
_spec = importlib.util.spec_from_file_location(
    "check_documented", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                     "check-documented.py"))
_documented = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_documented)
exported = _documented.exported


def plain(fragment):
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", fragment)).split())


def entries(html_dir):
    """name -> (page#anchor, description text) for every member heading of every page."""
    found = {}
    for page in sorted(os.listdir(html_dir)):
        if not page.endswith(".html"):
            continue
        text = open(os.path.join(html_dir, page), encoding="utf-8").read()
        parts = text.split('<h2 class="memtitle">')
        for part in parts[1:]:
            head = part[:part.find("</h2>")]
            title = plain(head).lstrip("\u25c6").strip()
            anchor = re.search(r'href="(#[^"]*)"', head)
            m = re.search(r'<div class="memdoc">(.*?)</div>\s*</div>', part, re.S)
            desc = plain(m.group(1)) if m else ""
            name = title[:-2] if title.endswith("()") else None
            if name and (name not in found or not found[name][1]):
                found[name] = (page + (anchor.group(1) if anchor else ""), desc)
    return found


def index(html_dir):
    """name -> the link of the function index (globals_func.html)."""
    path = os.path.join(html_dir, "globals_func.html")
    if not os.path.exists(path):
        return {}
    text = open(path, encoding="utf-8").read()
    return dict(re.findall(r'<li>(dispman_\w+)\(\)[^<]*<a [^>]*href="([^"]*)"', text))


def main():
    lib, html_dir = sys.argv[1], sys.argv[2]
    least = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    syms = exported(lib)
    if len(syms) < least:
        print("FAIL: only %d dispman_* symbols exported by %s?" % (len(syms), lib))
        return 1
    found = entries(html_dir)
    listed = index(html_dir)
    bad = 0
    for s in sorted(syms):
        if s not in found:
            print("no entry in the HTML reference: %s" % s)
            bad += 1
        elif not found[s][1]:
            print("an entry without a description: %s (%s)" % (s, found[s][0]))
            bad += 1
        elif listed.get(s) != found[s][0]:
            print("the function index (globals_func.html) does not link %s to its entry "
                  "%s" % (s, found[s][0]))
            bad += 1
    print("%d exported functions, %d with an HTML entry of their own" % (len(syms),
                                                                        len(syms) - bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
