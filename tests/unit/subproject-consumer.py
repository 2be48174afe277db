#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A consumer project using libdispman as a meson subproject (doc/use-it.md).

Builds the consumer meson.build shown in doc/use-it.md, with this source tree symlinked
as subprojects/libdispman, and checks that only the library is built and installed and
that the consumer's `meson test` runs only the consumer's own test.

usage: subproject-consumer.py MESON SOURCE_ROOT
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# the application (shared with prefix-walkthrough.py)
CONSUMER_C_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "consumer-app.c")

# The targets the library itself needs; anything else is an extra the consumer pays for.
LIBRARY_TARGETS = {"dispman", "dispman-core"}


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if r.returncode != 0:
        print(r.stdout)
        fail("%s exited with %d" % (cmd[0], r.returncode))
    return r.stdout


def doc_meson_block(src):
    text = open(os.path.join(src, "doc", "use-it.md")).read()
    m = re.search(r"<!-- subproject-consumer: meson.build -->\n```meson\n(.*?)```", text, re.S)
    if not m:
        fail("doc/use-it.md has no consumer meson.build block")
    return m.group(1)


def main():
    meson, src = sys.argv[1], os.path.realpath(sys.argv[2])
    tmp = tempfile.mkdtemp(prefix="dispman-consumer-")
    try:
        proj = os.path.join(tmp, "myapp")
        os.makedirs(os.path.join(proj, "subprojects"))
        os.symlink(src, os.path.join(proj, "subprojects", "libdispman"))
        with open(os.path.join(proj, "meson.build"), "w") as f:
            f.write(doc_meson_block(src))
        shutil.copyfile(CONSUMER_C_PATH, os.path.join(proj, "myapp.c"))
        build = os.path.join(tmp, "build")
        env = dict(os.environ)
        for k in list(env):
            if k.startswith("MESON_") or k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LD_LIBRARY_PATH"):
                del env[k]
        out = run([meson, "setup", build, proj, "--force-fallback-for=libdispman",
                   "--wrap-mode=nodownload", "--prefix", os.path.join(tmp, "prefix")], env=env)
        if "libdispman" not in out or "subproject" not in out.lower():
            print(out)
            fail("the subproject was not configured")

        targets = json.loads(run([meson, "introspect", "--targets", build], env=env))
        names = sorted(t["name"] for t in targets)
        print("targets:", names)
        extra = [t["name"] for t in targets
                 if t["subproject"] == "libdispman" and t["name"] not in LIBRARY_TARGETS]
        if extra:
            fail("the subproject builds more than the library: %s" % ", ".join(sorted(extra)))
        if "dispman" not in names or "myapp" not in names:
            fail("the library or the consumer is missing from the targets")

        tests = json.loads(run([meson, "introspect", "--tests", build], env=env))
        test_names = [t["name"] for t in tests]
        print("tests:", test_names)
        if test_names != ["myapp"]:
            fail("the consumer's meson test would run %d tests, not only its own: %s" %
                 (len(test_names), test_names[:8]))

        installed = json.loads(run([meson, "introspect", "--installed", build], env=env))
        bad = [d for d in installed.values()
               if "/bin/" in d or "/man/" in d or "/doc/" in d]
        print("installed:", sorted(installed.values()))
        if bad:
            fail("the subproject installs programs or docs into the consumer: %s" % bad)
        if not any(d.endswith("libdispman.pc") for d in installed.values()):
            fail("the library's .pc is not installed")

        run(["ninja", "-C", build], env=env)
        out = run([meson, "test", "-C", build, "--print-errorlogs"], env=env)
        print(out)
        log = [json.loads(l) for l in open(os.path.join(build, "meson-logs", "testlog.json"))]
        ran = [(t["name"], t["result"]) for t in log]
        if ran != [("myapp", "OK")]:
            fail("meson test ran %s, want only the consumer's test, passing" % ran)
        print("ok: only the library built, only the consumer's test ran")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
