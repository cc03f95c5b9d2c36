#!/usr/bin/env python3
"""Fails when a public symbol declared in the project's sources has no doc comment.

Reads the symbol graphs that `swift build -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir
-Xswiftc DIR` writes (one file per module, plus one per module the code extends). A symbol counts
when its declaration is in this repository's `Sources/`: protocol witnesses, operators and the
members of extensions on standard types included. Members the compiler synthesizes (`hashValue` of
an enum) and members inherited from the standard library have no location here and are skipped:
they have no source line to document.

Usage: scripts/check-doc-coverage.py SYMBOL_GRAPH_DIR [MODULE...]
"""

import glob
import json
import os
import sys


def undocumented(directory, modules):
    found = []
    for path in sorted(glob.glob(os.path.join(directory, "*.symbols.json"))):
        module = os.path.basename(path).split(".symbols.json")[0].split("@")[0]
        if modules and module not in modules:
            continue
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            location = symbol.get("location")
            if not location or "/Sources/" not in location.get("uri", ""):
                continue
            if symbol.get("docComment", {}).get("lines"):
                continue
            source = location["uri"].split("/Sources/", 1)[1]
            line = location.get("position", {}).get("line", 0) + 1
            name = ".".join(symbol.get("pathComponents", []))
            found.append((source, line, symbol["kind"]["displayName"], name))
    return sorted(set(found))


def main(arguments):
    if len(arguments) < 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    missing = undocumented(arguments[0], set(arguments[1:]))
    for source, line, kind, name in missing:
        print(f"Sources/{source}:{line}: error: public {kind.lower()} '{name}' has no doc comment")
    if missing:
        print(f"{len(missing)} public symbols without a doc comment", file=sys.stderr)
        return 1
    print("every public symbol has a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
