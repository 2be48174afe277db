#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compile and link every C example of the docs against the built library.

usage: check-examples.py CC INCLUDE_DIRS LIBDIR FILE.md...  (INCLUDE_DIRS: dirs joined by ':')

Every ```c block of the given Markdown files is a complete program: it is compiled with
-std=c11 -Wall -Wextra -Werror against the installed headers and linked with
libdispman. A block that stops compiling (an API changed, a typo) fails the test.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile


def main():
    cc, inc, libdir, docs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    drm = subprocess.run(["pkg-config", "--cflags", "libdrm"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout.split()
    n = failed = 0
    with tempfile.TemporaryDirectory(prefix="dispman-doc-") as tmp:
        for doc in docs:
            text = open(doc).read()
            for i, m in enumerate(re.finditer(r"^```c\n(.*?)^```", text, re.S | re.M)):
                n += 1
                line = text[:m.start()].count("\n") + 1
                src = os.path.join(tmp, "ex%d.c" % n)
                with open(src, "w") as f:
                    f.write(m.group(1))
                incs = [a for d in inc.split(":") for a in ("-I", d)]
                cmd = shlex.split(cc) + ["-std=c11", "-Wall", "-Wextra", "-Werror"] + incs + \
                    drm + [src, "-o", src[:-2], "-L", libdir, "-ldispman"]
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True)
                where = "%s:%d" % (os.path.basename(doc), line)
                if r.returncode != 0:
                    failed += 1
                    print("FAIL %s:\n%s" % (where, r.stdout))
                else:
                    print("ok   %s" % where)
    print("%d examples, %d failed" % (n, failed))
    if n == 0:
        print("FAIL: no C example found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
