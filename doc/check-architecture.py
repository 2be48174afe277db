#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""doc/architecture.md stays a page that teaches: at most MAX_WORDS words of prose (fenced
blocks not counted), at least one diagram (a fenced block), and every file and function it
names in backquotes exists in the tree. Usage: check-architecture.py SOURCE_ROOT"""
import os
import re
import sys

MAX_WORDS = 1500


def main():
    root = sys.argv[1]
    text = open(os.path.join(root, 'doc', 'architecture.md'), encoding='utf-8').read()
    blocks = re.findall(r'^```.*?^```', text, flags=re.S | re.M)
    prose = re.sub(r'^```.*?^```', '', text, flags=re.S | re.M)
    words = len(prose.split())
    errors = []
    if words > MAX_WORDS:
        errors.append(f'{words} words of prose, more than {MAX_WORDS}')
    if not blocks:
        errors.append('no diagram (fenced block)')
    sources = []
    for d in ('src', 'include', 'tests', 'tools'):
        for dirpath, _, names in os.walk(os.path.join(root, d)):
            for n in names:
                sources.append(os.path.join(dirpath, n))
    basenames = {os.path.basename(p) for p in sources}
    code = ''.join(open(p, encoding='utf-8', errors='replace').read()
                   for p in sources if p.endswith(('.c', '.h', '.py', '.map')))
    for name in sorted(set(re.findall(r'`(\w[\w./-]*\.(?:c|h|py))`', text))):
        if os.path.basename(name) not in basenames and not name.endswith('*.c'):
            errors.append(f'names a file that does not exist: {name}')
    for fn in sorted(set(re.findall(r'`(\w+)\(\)`', text))):
        if not re.search(r'\b' + re.escape(fn) + r'\s*\(', code):
            errors.append(f'names a function the code does not have: {fn}()')
    for e in errors:
        print('FAIL: doc/architecture.md:', e)
    if not errors:
        print(f'doc/architecture.md: {words} words of prose, {len(blocks)} diagrams')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
