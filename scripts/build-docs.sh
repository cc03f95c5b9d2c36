#!/usr/bin/env bash
# Builds the DocC catalog (Sources/ObjectGraph/ObjectGraph.docc) with the toolchain's `docc`:
# symbol graphs from a debug build of the ObjectGraph module (own build folder), zero DocC
# warnings, every guide of Docs/ an article of the catalog, every public symbol documented.
# Usage: scripts/build-docs.sh [OUTPUT_DIR]   (default: .build-docc/ObjectGraph.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."

catalog=Sources/ObjectGraph/ObjectGraph.docc
output=${1:-.build-docc/ObjectGraph.doccarchive}
graphs=.build-docc/symbol-graphs
# Developer notes that are not user guides stay out of the catalog.
not_articles="Benchmarks Fuzzing"

status=0
for guide in Docs/*.md; do
  name=$(basename "$guide" .md)
  case " $not_articles " in *" $name "*) continue ;; esac
  if [ ! -e "$catalog/$name.md" ]; then
    echo "error: $guide is not an article of $catalog (add: ln -s ../../../Docs/$name.md $catalog/$name.md)" >&2
    status=1
  elif ! grep -q "<doc:$name>" "$catalog/ObjectGraph.md"; then
    echo "error: $catalog/ObjectGraph.md does not list <doc:$name> under its topics" >&2
    status=1
  fi
done
[ "$status" -eq 0 ] || exit 1

# The compiler writes the graphs when it compiles the module: an up-to-date build leaves those of
# its last compile in place; without them, touching a source file makes it compile again.
mkdir -p "$graphs"
build_graphs() {
  swift build --target ObjectGraph --scratch-path .build-docc \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs"
}
build_graphs
if [ ! -f "$graphs/ObjectGraph.symbols.json" ]; then
  touch "$(ls Sources/ObjectGraph/Values/*.swift | head -1)"
  build_graphs
fi

docc_bin=$(command -v docc || echo "$(dirname "$(command -v swift)")/docc")
"$docc_bin" convert "$catalog" --additional-symbol-graph-dir "$graphs" --output-dir "$output" \
  --fallback-display-name ObjectGraph --fallback-bundle-identifier org.objectgraph.ObjectGraph \
  --warnings-as-errors

python3 scripts/check-doc-coverage.py "$graphs" ObjectGraph
echo "documentation: $output"
