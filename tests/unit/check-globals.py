#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Fail on process-wide mutable state in the library's objects.

usage: check-globals.py OBJDUMP ARCHIVE

The header promises that objects of one device are used from one thread at a time, and
that different devices may live on different threads: so no writable variable may be
shared between devices. This lists every object symbol in a writable data section (.data,
.bss and their subsections, not .data.rel.ro) of ARCHIVE's members and fails unless it is
in ALLOWED: the log handler and level, which the header documents as process-wide.
"""
import re
import subprocess
import sys

ALLOWED = {
    ('log.c', 'log_handler'), ('log.c', 'log_data'), ('log.c', 'log_level'),
}

objdump, archive = sys.argv[1:3]
out = subprocess.run([objdump, '-t', archive], check=True, capture_output=True,
                     text=True).stdout
member = None
found = []
for line in out.splitlines():
    m = re.match(r'^(\S+)\.o:\s+file format', line)
    if m:
        member = m.group(1).split('/')[-1]
        # wayland-scanner's tables (interface type arrays) are written by the loader's
        # relocations only; it emits them without const
        if member.startswith('meson-generated_') and member.endswith('-protocol.c'):
            member = None
        continue
    if member is None:
        continue
    f = line.split()
    if len(f) < 4 or not re.fullmatch(r'[0-9a-f]+', f[0]):
        continue
    section = next((x for x in f if x.startswith('.')), None)
    name = f[-1]
    if section is None or name == section or name.startswith('.'):
        continue
    if not re.match(r'\.(data|bss)', section) or section.startswith('.data.rel.ro'):
        continue
    if ' O ' not in line and '\tO ' not in line and not re.search(r'\sO\s', line):
        continue
    found.append((member, re.sub(r'\.\d+$', '', name), section))

bad = [(m, n, s) for m, n, s in found if (m, n) not in ALLOWED]
for m, n, s in bad:
    print(f'{m}: {n} ({s}) is shared by every device: keep it in the device or the object')
print(f'{len(found)} writable variables, {len(bad)} not allowed')
sys.exit(1 if bad else 0)
