#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write each ```c block of doc/guide.md to its own file, unchanged, for the guest test
that runs them (tests/integration/guide-run.sh).

usage: extract-guide.py GUIDE.md OUT.c...

The blocks are taken in the page's order, one per OUT file; the number of OUT files must
equal the number of blocks, so a program added to or removed from the page fails the
build until tests/integration/meson.build names it (and says how to check it).
"""
import re
import sys


def main():
    text = open(sys.argv[1]).read()
    outs = sys.argv[2:]
    blocks = re.findall(r"^```c\n(.*?)^```", text, re.S | re.M)
    if len(blocks) != len(outs):
        print("extract-guide.py: %s has %d C programs, the build names %d (%s): name the "
              "new ones in tests/integration/meson.build" %
              (sys.argv[1], len(blocks), len(outs), " ".join(outs)), file=sys.stderr)
        return 1
    for block, out in zip(blocks, outs):
        with open(out, "w") as f:
            f.write(block)
    return 0


if __name__ == "__main__":
    sys.exit(main())
