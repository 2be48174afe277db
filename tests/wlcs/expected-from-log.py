#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Print expected-failures.txt lines for the failures of a wlcs log (run-wlcs.sh keeps the
log in $DISPMAN_VM_OUT/wlcs-PROFILE.log), each with its cause when the log shows one:

    tests/wlcs/expected-from-log.py wlcs-vkms-6.12.log

A failure already in expected-failures.txt gets its reason from there; one of no known
cause is printed with the reason "UNKNOWN": look at it before listing
it (fix the compositor instead when the fault is there).
"""
import re
import sys

WLCS_BUG = ('wlcs 1.5 commits a buffer before acking the first configure '
            '(fixed in wlcs 1.8.1, 2a5bfbc): is the module lenient? '
            '(dispman_wayland_set_lenient_configure)')
# the causes already listed in tests/wlcs/expected-failures.txt, by test name
KNOWN = {}
try:
    import os
    for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  'expected-failures.txt')):
        if line.strip() and not line.startswith('#'):
            n, _, why = line.strip().partition(' ')
            KNOWN[n] = why
except OSError:
    pass

text = open(sys.argv[1], errors='replace').read()
for block in re.split(r'^\[ RUN      \] ', text, flags=re.M)[1:]:
    name = block.split('\n', 1)[0].split(',')[0].strip()
    if not re.search(r'^\[  FAILED  \] ' + re.escape(name) + r'\b.*\(\d+ ?ms\)$', block, re.M):
        continue
    if 'error 3: buffer committed before the first configure' in block:
        why = WLCS_BUG
    elif name in KNOWN:
        why = KNOWN[name]
    else:
        why = 'UNKNOWN'
    print(name, why)
