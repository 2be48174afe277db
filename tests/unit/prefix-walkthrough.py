#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""doc/use-it.md's "In a prefix of your own", run as the page says (issue 32).

Runs the page's shell block marked <!-- prefix-walkthrough: sh --> unchanged with bash
-e, with HOME a new temporary folder and the current folder a copy of this source tree
(symlinks to its entries), so `meson setup build` configures, builds and installs the
library into $HOME/.local/dispman, and `cc ... myapp.c` builds a program against it
through PKG_CONFIG_PATH. myapp.c is a small program that needs no KMS device. Then
checks what the page promises around the block: the program runs and uses the library of
the prefix (not another one on the system); linked without the rpath it does not start
("cannot open shared object file"), and LD_LIBRARY_PATH set to pkg-config's libdir runs it.

usage: prefix-walkthrough.py SOURCE_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

# the application the page builds (shared with subproject-consumer.py)
MYAPP_C_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "consumer-app.c")


def fail(msg):
    print("FAIL: " + msg, flush=True)
    sys.exit(1)


def main():
    src = os.path.realpath(sys.argv[1])
    text = open(os.path.join(src, "doc", "use-it.md")).read()
    m = re.search(r"<!-- prefix-walkthrough: sh -->\n```sh\n(.*?)```", text, re.S)
    if not m:
        fail("doc/use-it.md has no block marked <!-- prefix-walkthrough: sh -->")
    block = m.group(1)
    print("the page's block:\n" + block, flush=True)
    tmp = tempfile.mkdtemp(prefix="dispman-prefix-")
    try:
        home = os.path.join(tmp, "home")
        work = os.path.join(tmp, "src")
        os.makedirs(home)
        os.makedirs(work)
        for e in os.listdir(src):
            if e.startswith("build") or e == ".git":
                continue
            os.symlink(os.path.join(src, e), os.path.join(work, e))
        shutil.copyfile(MYAPP_C_PATH, os.path.join(work, "myapp.c"))
        env = {k: v for k, v in os.environ.items()
               if not k.startswith("MESON_") and k not in
               ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LD_LIBRARY_PATH", "PKG_CONFIG_PATH",
                "LD_PRELOAD")}
        env["HOME"] = home
        prefix = os.path.join(home, ".local", "dispman")
        # the block, then what the text around it promises, in the same shell (its
        # PKG_CONFIG_PATH and libdir)
        after = r"""
set +e
echo "+ checks after the block"
ldd ./myapp | grep libdispman
case "$(ldd ./myapp | sed -n 's/.*libdispman.so.0 => \([^ ]*\).*/\1/p')" in
"$PREFIX"/*) ;;
*) echo "FAIL: myapp does not use the prefix's libdispman.so.0"; exit 1 ;;
esac
cc -std=c11 -o myapp-norpath myapp.c $(pkg-config --cflags --libs libdispman) || exit 1
out=$(./myapp-norpath 2>&1)
[ $? -ne 0 ] && echo "$out" | grep -q 'libdispman.so.0: cannot open shared object file' || {
	echo "FAIL: without the rpath the program should not start: $out"; exit 1; }
echo "without rpath: $out"
LD_LIBRARY_PATH="$(pkg-config --variable=libdir libdispman)" ./myapp-norpath || {
	echo "FAIL: LD_LIBRARY_PATH did not make it run"; exit 1; }
echo "ok: the walk-through works from $PREFIX"
"""
        env["PREFIX"] = prefix
        script = "set -e\nset -x\n" + block + after
        r = subprocess.run(["bash", "-c", script], cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        # meson and ninja are long: keep the end
        lines = r.stdout.splitlines()
        print("\n".join(lines if len(lines) < 80 else lines[:10] + ["..."] + lines[-60:]))
        if r.returncode != 0:
            fail("the walk-through exited with %d" % r.returncode)
        if not os.path.exists(os.path.join(work, "myapp")):
            fail("no myapp was built")
        if "libdispman " not in r.stdout:
            fail("myapp printed no version")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
