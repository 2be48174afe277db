#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Render a man page with `man -l` and fail on a groff warning or a missing section.

man does not pass groff's warnings on when its output is not a terminal, so the page
is also run through `groff -man -ww -z` (the formatter man uses) for warnings.

usage: check-man.py MAN PAGE
"""
import os
import re
import subprocess
import sys


def main():
    man, page = sys.argv[1], sys.argv[2]
    env = dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING="0", LC_ALL="C.UTF-8",
               MANPAGER="cat", PAGER="cat")
    r = subprocess.run([man, "--warnings=all", "-E", "UTF-8", "-l", page], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = re.sub(r".\x08", "", r.stdout)  # overstrike bold and underline
    print(out)
    if r.returncode != 0:
        print("FAIL: man -l exited with %d: %s" % (r.returncode, r.stderr))
        return 1
    if r.stderr.strip():
        print("FAIL: warnings while rendering:\n" + r.stderr)
        return 1
    g = subprocess.run(["groff", "-man", "-ww", "-z", page], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if g.returncode != 0 or g.stderr.strip():
        print("FAIL: groff warnings:\n" + g.stderr)
        return 1
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"):
        if section not in out.splitlines():
            print("FAIL: no %s section" % section)
            return 1
    name = os.path.basename(page).rsplit(".", 1)[0]
    if name not in out:
        print("FAIL: the page does not name %s" % name)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
