#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Find call cycles between the modules of a library, from its object files.

usage: check-calls.py NM OBJDIR...   check the objects of each folder (one library each)
       check-calls.py --self-test    prove that a cycle is found and a good graph passes

An object that references a global symbol another object of the same library defines
is an edge between their modules (foo.c.o and foo-bar.c.o are module foo, as in
check-includes.py). Static functions never appear in the symbol tables, so a static
helper named like another file's function (a "static namesake") makes no edge: the graph
is the real one the linker sees. A cycle of modules is an error.
"""
import importlib.util
import os
import subprocess
import sys

# one cycle finder for both architecture checks: check-includes.py's
_spec = importlib.util.spec_from_file_location(
    'check_includes', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'check-includes.py'))
_includes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_includes)
find_cycle = _includes.find_cycle


def module_of(obj):
    """seat.c.o -> seat; output-pace.c.o -> output; src_wayland_seat.c.o -> seat."""
    stem = os.path.basename(obj).split('.')[0]
    stem = stem.rsplit('_', 1)[-1] if stem.startswith('src_') else stem
    return stem.split('-')[0]


def symbols(nm, objs):
    """{object: (defined globals, undefined references)}, from one run of nm."""
    out = subprocess.run([nm, '-g', '-A'] + objs, capture_output=True, text=True,
                         check=True).stdout
    tables = {o: (set(), set()) for o in objs}
    for line in out.splitlines():
        # "path.o:VALUE T name" (defined) or "path.o:   U name"
        head, _, rest = line.partition('.o:')
        head += '.o'
        f = rest.split()
        if head not in tables or len(f) < 2:
            continue
        tables[head][1 if f[-2] == 'U' else 0].add(f[-1])
    return tables


def graph_of(tables):
    """tables: {module: (defined, undefined)} -> {module: {modules it calls}}."""
    owner = {}
    for mod, (defined, _) in tables.items():
        for s in defined:
            owner[s] = mod
    graph = {}
    for mod, (_, undefined) in tables.items():
        for s in undefined:
            o = owner.get(s)
            if o and o != mod:
                graph.setdefault(mod, set()).add(o)
    return graph


def check(nm, objdir):
    tables = {}
    # generated protocol code is libwayland's shape, not ours
    objs = [os.path.join(objdir, n) for n in sorted(os.listdir(objdir))
            if n.endswith('.o') and 'protocol' not in n]
    for obj, (d, u) in (symbols(nm, objs) if objs else {}).items():
        mod = module_of(obj)
        old = tables.get(mod, (set(), set()))
        tables[mod] = (old[0] | d, old[1] | u)
    if not tables:
        return ['%s: no object files' % objdir]
    c = find_cycle(graph_of(tables))
    return ['call cycle between modules of %s: %s' % (objdir, ' -> '.join(c))] if c else []


def self_test():
    bad = {'a': ({'a_f'}, {'b_g'}), 'b': ({'b_g'}, {'c_h'}), 'c': ({'c_h'}, {'a_f'})}
    # b's static helper a_f would be a namesake: it is not in b's defined set
    good = {'a': ({'a_f'}, {'b_g'}), 'b': ({'b_g'}, {'malloc'}), 'c': ({'c_h'}, {'a_f'})}
    ok = bool(find_cycle(graph_of(bad))) and not find_cycle(graph_of(good))
    ok = ok and module_of('output-pace.c.o') == 'output' and \
        module_of('src_wayland_seat.c.o') == 'seat'
    print('self-test: cycle a -> b -> c -> a %s; a graph without one passes: %s' %
          ('found' if find_cycle(graph_of(bad)) else 'NOT found', not find_cycle(graph_of(good))))
    return 0 if ok else 1


if __name__ == '__main__':
    if sys.argv[1:] == ['--self-test']:
        sys.exit(self_test())
    errors = []
    for d in sys.argv[2:]:
        errors += check(sys.argv[1], d)
    for e in errors:
        print('error: ' + e)
    if not errors:
        print('no call cycle in %d libraries' % len(sys.argv[2:]))
    sys.exit(1 if errors else 0)
