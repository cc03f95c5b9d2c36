#!/usr/bin/env python3
"""Checks the layers of Sources/ObjectGraph (Docs/Architecture.md, "Layers").

Reads the compiler's index store of a debug build, so every use is one the compiler resolved: a
type, a member of an extension, an initializer, a case. Fails when

- a file uses a name defined in a folder of a higher layer (the table below),
- the largest cycle of files (each using a name defined in the next) has more than MAX_CYCLE files,
- a file's name breaks the naming rules: `X+Y.swift` declares only extensions of `X` (and private
  helpers); `X.swift` declares `X` and no other public type (an alias may sit beside it); no
  source file is named like a test.

Usage: scripts/check-architecture.py [--store PATH] [--verbose]
Run after `swift build` (the debug build writes the index store).
"""

import argparse
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from indexstore import IndexStore, ROLE_DEFINITION, ROLE_REFERENCE  # noqa: E402

MODULE = "Sources/ObjectGraph"
MAX_CYCLE = 20

# Layers, bottom to top: a folder may use its own layer and every layer below it.
LAYERS = [
    ("Base", ["Support", "Errors", "Values"]),
    ("Model", ["Model"]),
    ("Tables", ["Tables"]),
    ("Stores", ["Stores"]),
    ("Predicates", ["Predicates"]),
    ("Query engine", ["QueryEngine"]),
    ("Commit engine", ["CommitEngine"]),
    ("Object graph", ["Objects", "Context", "Fetching"]),
    ("Container", ["Container"]),
]

# Layers of one level that must not use each other although neither is above the other.
# (The table in Docs/Architecture.md: the query language and the engine know no store, and the
# language no committed table.)
SIDEWAYS = {("Stores", "Predicates"), ("Predicates", "Stores"), ("Predicates", "Tables"), ("Query engine", "Stores")}

# Exceptions to SIDEWAYS by the used file's folder: the query engine's SQL translator may use the
# SQL seam (schema layout, dialect, values, connections that take functions), no other store code.
SIDEWAYS_ALLOWED = {("Query engine", "Stores/SQL")}


def layer_of_folder():
    table = {}
    for number, (name, folders) in enumerate(LAYERS):
        for folder in folders:
            table[folder] = (number, name)
    return table


def store_path(explicit):
    if explicit:
        return explicit
    bin_path = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True,
                              check=True).stdout.strip()
    return os.path.join(bin_path, "index", "store")


def read_index(store, root):
    """(defined: usr -> file, used: file -> [(usr, name, line)]) for the files under root."""
    units = {}
    for unit_name in store.unit_names():
        unit = store.unit(unit_name)
        if unit and unit[0].startswith(root) and os.path.exists(unit[0]):
            units[unit[0]] = unit
    defined = {}
    used = collections.defaultdict(list)
    for main_file, (_, _, records) in units.items():
        for record, path in records:
            if path != main_file:
                continue
            for usr, name, roles, line in store.occurrences(record):
                if roles & ROLE_DEFINITION:
                    defined.setdefault(usr, main_file)
                if roles & ROLE_REFERENCE:
                    used[main_file].append((usr, name, line))
    return sorted(units), defined, used


def file_uses(files, defined, used, folder, layers):
    """(edges: file -> files whose names it uses, upward: [(file, line, name, defining file)] for
    each first use of a name from a higher layer, or sideways between layers that must not meet)."""
    edges = collections.defaultdict(set)
    upward = []
    reported = set()
    for path in files:
        own = layers.get(folder(path))
        for usr, name, line in used[path]:
            target = defined.get(usr)
            if not target or target == path:
                continue
            edges[path].add(target)
            theirs = layers.get(folder(target))
            if not own or not theirs or (path, usr) in reported:
                continue
            if (own[1], os.path.basename(os.path.dirname(os.path.dirname(target))) + "/"
                    + os.path.basename(os.path.dirname(target))) in SIDEWAYS_ALLOWED:
                continue
            if theirs[0] > own[0] or (own[1], theirs[1]) in SIDEWAYS:
                reported.add((path, usr))
                upward.append((path, line, name, target))
    return edges, upward


def largest_cycle(files, edges):
    """The largest strongly connected set of files (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for start in files:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                found.append(component)
    return max(found, key=len) if found else []


TOP_LEVEL = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?P<access>(?:public|package|internal|fileprivate|private)\s+)?"
    r"(?:(?:final|indirect|nonisolated)\s+)*(?P<kind>struct|class|enum|protocol|actor|typealias|extension)\s+"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_.]*)")


def naming_problems(path, relative):
    name = os.path.basename(path)[:-len(".swift")]
    problems = []
    if re.search(r"Tests?$", name):
        problems.append("%s: a source file named like a test" % relative)
    declared_primary = False
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            match = TOP_LEVEL.match(line)
            if not match:
                continue
            access = (match.group("access") or "").strip()
            kind, declared = match.group("kind"), match.group("name")
            if declared.split(".")[0] == name.split("+")[0]:
                declared_primary = True
            if access in ("private", "fileprivate"):
                continue
            if "+" in name:
                extended = name.split("+")[0]
                if kind != "extension" or declared.split(".")[0] != extended:
                    problems.append("%s:%d: %s %s; a file %s.swift only extends %s" % (
                        relative, number, "extends" if kind == "extension" else "declares", declared, name,
                        extended))
            elif kind not in ("extension", "typealias") and access == "public" and declared != name:
                problems.append("%s:%d: declares public %s; %s.swift holds one primary type, %s" % (
                    relative, number, declared, name, name))
    if not declared_primary:
        problems.append("%s: declares no %s" % (relative, name.split("+")[0]))
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--store", help="index store path (default: the debug build's)")
    parser.add_argument("--verbose", action="store_true", help="list the files of the largest cycle")
    arguments = parser.parse_args()

    project = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    os.chdir(project)
    root = os.path.join(project, MODULE) + "/"
    files, defined, used = read_index(IndexStore(store_path(arguments.store)), root)
    on_disk = sorted(os.path.join(directory, name) for directory, _, names in os.walk(root)
                     for name in names if name.endswith(".swift"))
    missing = [path for path in on_disk if path not in files]
    if missing:
        print("error: the index has no record of %d files (build first): %s" % (
            len(missing), ", ".join(os.path.relpath(path, root) for path in missing[:5])))
        return 1

    layers = layer_of_folder()
    failures = []

    def folder(path):
        parts = os.path.relpath(path, root).split(os.sep)
        return parts[0] if len(parts) > 1 else ""

    for path in files:
        if folder(path) not in layers:
            failures.append("%s: folder %r is in no layer" % (os.path.relpath(path, project), folder(path)))

    edges, upward = file_uses(files, defined, used, folder, layers)
    for path, line, name, target in upward:
        own, theirs = layers[folder(path)], layers[folder(target)]
        failures.append("%s:%d: %s (layer %s) uses %s from %s (layer %s)" % (
            os.path.relpath(path, project), line, folder(path), own[1], name,
            os.path.relpath(target, root), theirs[1]))

    for path in files:
        failures.extend(naming_problems(path, os.path.relpath(path, project)))

    cycle = largest_cycle(files, edges)
    print("layer check: %d files, largest file cycle %d (at most %d)" % (len(files), len(cycle), MAX_CYCLE))
    if len(cycle) > MAX_CYCLE or arguments.verbose:
        for path in sorted(cycle):
            print("  cycle: %s" % os.path.relpath(path, root))
    if len(cycle) > MAX_CYCLE:
        failures.append("the largest file cycle has %d files (at most %d)" % (len(cycle), MAX_CYCLE))
    for failure in failures:
        print("error: " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
