#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail when a binary links libdrm or carries the mock libdrm.

usage: check-no-drm.py READELF BINARY

The planner's unit test (test-plan) must run on the planner alone: no libdrm among its
NEEDED libraries, and no drm* function in its symbol table (the mock libdrm of tests/mock
is a static library: linking it would define drmModeAtomicCommit and friends). Run against
test-alloc, which links the mock, this check fails (meson test plan@no-drm-detects).
"""
import re
import subprocess
import sys

readelf, binary = sys.argv[1:3]
dyn = subprocess.run([readelf, '-d', binary], check=True, capture_output=True,
                     text=True).stdout
syms = subprocess.run([readelf, '-sW', binary], check=True, capture_output=True,
                      text=True).stdout
bad = [m for m in re.findall(r'\(NEEDED\).*\[(.*)\]', dyn) if 'drm' in m]
for line in syms.splitlines():
    f = line.split()
    if len(f) >= 8 and f[3] == 'FUNC' and re.match(r'drm[A-Z_]', f[7]):
        bad.append(f[7].split('@')[0])
bad = sorted(set(bad))
if bad:
    print('%s links libdrm or the mock: %s' % (binary, ', '.join(bad[:10])))
    sys.exit(1)
print('%s: no libdrm' % binary)
