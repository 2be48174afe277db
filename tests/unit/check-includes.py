#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Check the include structure of src/.

usage: check-includes.py SRC_DIR      check the tree
       check-includes.py --self-test  prove that each rule fails on a bad tree

Rules (doc/architecture.md):
1. No include cycle: neither between headers, nor between modules. The module of foo.h,
   foo.c, foo-bar.c and foo-private.h is foo; foo.c including bar.h is an edge foo -> bar.
   In a subfolder (src/wayland) the same rule names modules wayland/foo.
2. A private header (foo-private.h, or internal.h of a subfolder) is included only by its
   own module (foo.c, foo-*.c; the subfolder's files), and by the files FRIENDS names for
   it: device-private.h, the body of struct dispman_device, by lifecycle.c, which creates
   and destroys the device (and by nothing else).
3. The shared headers (SHARED) include only system headers and other shared headers, and
   the planner (plan.c, plan.h, rect.h) includes no libdrm header and nothing of the
   device: its unit test builds without libdrm.
4. No umbrella header: no src/private.h (the umbrella that once included every core
   header), and no header that includes the headers of UMBRELLA_MODULES or more other
   modules (a .c includes the module headers it uses, so that rule 1 sees its real edges).
"""
import os
import re
import sys
import tempfile

SHARED = {'util.h', 'list.h', 'log.h', 'clock.h', 'rect.h', 'plan.h', 'props.h', 'sized.h',
          'yuv.h'}
PURE = {'plan.c', 'plan.h', 'rect.h'}
PURE_ALLOWED = {'plan.h', 'rect.h'}
UMBRELLA = 'private.h'
# private headers that one file outside their module may include, and which file
FRIENDS = {'device-private.h': {'lifecycle.c'}}
UMBRELLA_MODULES = 3
DRM = re.compile(r'^(xf86drm|drm|libdrm/|xf86drmMode)')
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def module_of(rel):
    """foo-bar.c -> foo; wayland/seat.c -> wayland/seat (a subfolder's files are modules
    of their own, named with the folder); internal.h of a subfolder -> the subfolder."""
    d, base = os.path.split(rel)
    stem = base.rsplit('.', 1)[0]
    if stem == 'internal' and d:
        return d
    stem = stem[:-len('-private')] if stem.endswith('-private') else stem
    stem = stem.split('-')[0]
    return d + '/' + stem if d else stem


def scan(src):
    files = {}
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith(('.c', '.h')):
                rel = os.path.relpath(os.path.join(root, n), src)
                with open(os.path.join(root, n), encoding='utf-8') as f:
                    files[rel] = INCLUDE.findall(f.read())
    return files


def resolve(files, rel, name):
    """The src file a quoted include names: beside the includer, then src/ itself."""
    for cand in (os.path.normpath(os.path.join(os.path.dirname(rel), name)), name):
        if cand in files:
            return cand
    return None


def find_cycle(graph):
    state, stack = {}, []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None


def check(src):
    files = scan(src)
    errors = []
    header_graph, module_graph = {}, {}
    for rel, incs in sorted(files.items()):
        base = os.path.basename(rel)
        mod = module_of(rel)
        for kind, name in incs:
            if kind == '<':
                if (base in PURE) and DRM.match(name):
                    errors.append('%s includes <%s>: the planner must not see libdrm' %
                                  (rel, name))
                continue
            target = resolve(files, rel, name)
            if target is None:
                continue  # config.h, generated protocol headers
            tbase = os.path.basename(target)
            if rel.endswith('.h'):
                header_graph.setdefault(rel, set()).add(target)
            if base in PURE and tbase not in PURE_ALLOWED:
                errors.append('%s includes "%s": the planner includes only %s' %
                              (rel, name, ', '.join(sorted(PURE_ALLOWED))))
            if rel == base and base in SHARED and tbase not in SHARED:
                errors.append('%s is a shared header but includes "%s", a module\'s' %
                              (rel, name))
            private = tbase.endswith('-private.h') or (tbase == 'internal.h' and
                                                         os.path.dirname(target))
            friend = rel in FRIENDS.get(target, ())
            if private and module_of(target) != mod and not friend:
                errors.append('%s includes "%s", the private header of module %s' %
                              (rel, name, module_of(target)))
            tmod = module_of(target)
            if tmod != mod and tbase not in SHARED:
                module_graph.setdefault(mod, set()).add(tmod)
    for rel, incs in sorted(files.items()):
        if os.path.basename(rel) == UMBRELLA:
            errors.append('%s is back: an umbrella header hides which modules a file uses; '
                          'include the module headers instead' % rel)
        elif rel.endswith('.h'):
            mods = set()
            for kind, name in incs:
                target = resolve(files, rel, name) if kind == '"' else None
                if target and os.path.basename(target) not in SHARED and \
                        module_of(target) != module_of(rel):
                    mods.add(module_of(target))
            if len(mods) >= UMBRELLA_MODULES:
                errors.append('%s is an umbrella: it includes the headers of %d modules (%s)' %
                              (rel, len(mods), ', '.join(sorted(mods))))
    c = find_cycle(header_graph)
    if c:
        errors.append('include cycle between headers: ' + ' -> '.join(c))
    c = find_cycle(module_graph)
    if c:
        errors.append('include cycle between modules: ' + ' -> '.join(c))
    return errors


def self_test():
    cases = {
        'header cycle': {'a.h': '#include "b.h"\n', 'b.h': '#include "a.h"\n'},
        'module cycle': {'a.c': '#include "b.h"\n', 'a.h': '', 'b.c': '#include "a.h"\n',
                         'b.h': ''},
        'module cycle in a subfolder': {'w/a.c': '#include "b.h"\n', 'w/a.h': '',
                                        'w/b.c': '#include "a.h"\n', 'w/b.h': ''},
        'private header': {'input-private.h': '', 'compose.c': '#include "input-private.h"\n'},
        'device body outside device.c and lifecycle.c': {
            'device-private.h': '', 'commit.c': '#include "device-private.h"\n'},
        'planner sees libdrm': {'plan.h': '#include <xf86drmMode.h>\n', 'plan.c': ''},
        'planner sees the device': {'plan.c': '#include "device.h"\n', 'device.h': ''},
        'shared header includes a module': {'log.h': '#include "device.h"\n', 'device.h': ''},
        'private.h is back': {'private.h': '#include "a.h"\n', 'a.h': '',
                              'a.c': '#include "a.h"\n'},
        'umbrella header': {'all.h': '#include "a.h"\n#include "b.h"\n#include "c.h"\n',
                            'a.h': '', 'b.h': '', 'c.h': '', 'd.c': '#include "all.h"\n'},
    }
    # a module of two files sharing its private header (output.c, output-pace.c)
    good = {'a.c': '#include "a-private.h"\n#include "b.h"\n#include "log.h"\n',
            'a.h': '#include "list.h"\n',
            'b.h': '', 'log.h': '', 'list.h': '#include "util.h"\n', 'util.h': '',
            'a-x.c': '#include "a-private.h"\n', 'a-private.h': '#include "a.h"\n',
            'device.c': '#include "device-private.h"\n', 'device.h': '',
            'device-private.h': '#include "device.h"\n',
            'lifecycle.c': '#include "device-private.h"\n#include "a.h"\n',
            'plan.c': '#include "plan.h"\n', 'plan.h': '#include "rect.h"\n', 'rect.h': ''}
    fails = 0
    for what, tree in list(cases.items()) + [('a good tree', good)]:
        with tempfile.TemporaryDirectory() as d:
            for n, text in tree.items():
                os.makedirs(os.path.dirname(os.path.join(d, n)), exist_ok=True)
                with open(os.path.join(d, n), 'w', encoding='utf-8') as f:
                    f.write(text)
            errors = check(d)
        want_fail = what != 'a good tree'
        if bool(errors) != want_fail:
            print('self-test: %s: %s' % (what, errors or 'not detected'))
            fails += 1
        else:
            print('self-test: %s: %s' % (what, errors[0] if errors else 'passes'))
    return 1 if fails else 0


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    errors = check(sys.argv[1])
    for e in errors:
        print('error: ' + e)
    sys.exit(1 if errors else 0)
