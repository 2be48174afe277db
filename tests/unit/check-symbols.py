#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the shared library's exports against the symbol map and the installed headers.

usage: check-symbols.py [--prefix dispman_wayland_] READELF LIBRARY VERSION HEADER...

With --prefix P the exports must be named P*, in nodes P.upper() + <major>.<minor>
(libdispman-wayland: dispman_wayland_*, DISPMAN_WAYLAND_0.1); the default is dispman_.

Fails unless
- every symbol the library defines in its dynamic table (the version node's own symbol
  aside) is named dispman_* and bound to a version node DISPMAN_<major>.<minor>, with
  <major>.<minor> of the project VERSION for the newest node;
- every function declared in the HEADERs is exported, and every export is declared there
  (no internal helper leaks out under the public prefix).
"""
import re
import subprocess
import sys

args = sys.argv[1:]
prefix = 'dispman_'
if args[:1] == ['--prefix']:
    prefix, args = args[1], args[2:]
readelf, lib, version = args[:3]
headers = args[3:]
major, minor = version.split('.')[:2]
NODE = prefix.upper()
node = f'{NODE}{major}.{minor}'

out = subprocess.run([readelf, '--dyn-syms', '--wide', lib], check=True,
                     capture_output=True, text=True).stdout
errors = []
exported = {}
for line in out.splitlines():
    f = line.split()
    # Num: Value Size Type Bind Vis Ndx Name
    if len(f) < 8 or not f[0].endswith(':') or not f[0][:-1].isdigit():
        continue
    typ, bind, ndx, name = f[3], f[4], f[6], f[7]
    if ndx == 'UND' or bind == 'LOCAL':
        continue
    base, sep, ver = name.partition('@')
    ver = ver.lstrip('@')
    if typ == 'OBJECT' and ndx == 'ABS' and base.startswith(NODE):
        continue  # the version node's own symbol
    if not sep or not re.fullmatch(re.escape(NODE) + r'\d+\.\d+', ver):
        errors.append(f'{name}: exported without a {NODE}x.y version node')
    if not base.startswith(prefix):
        errors.append(f'{name}: exported without the {prefix} prefix')
    exported[base] = ver

if node not in set(exported.values()):
    errors.append(f'no symbol carries {node}, the node of project version {version}')

declared = set()
for h in headers:
    text = open(h).read()
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    # A declaration: "<type> [*]dispman_name(" at the start of a statement; function
    # pointer typedefs "(*dispman_x_callback)(" do not match.
    for m in re.finditer(r'(?:^|[;}])\s*(?:const\s+)?(?:struct\s+|enum\s+)?\w+[\s*]+'
                         r'(' + prefix + r'\w+)\s*\(', text, flags=re.M):
        declared.add(m.group(1))

for name in sorted(declared - exported.keys()):
    errors.append(f'{name}: declared in a header, not exported')
for name in sorted(exported.keys() - declared):
    errors.append(f'{name}: exported, declared in no installed header')

for e in errors:
    print(e)
print(f'{len(exported)} exported, {len(declared)} declared, {len(errors)} problems')
sys.exit(1 if errors else 0)
