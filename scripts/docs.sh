#!/usr/bin/env bash
# Builds RegimenKit's documentation offline with the toolchain's own tools (symbol graph
# extraction and DocC, no package plugin) and fails when a public symbol declared in
# Sources/RegimenKit has no documentation comment or DocC reports a problem.
#   scripts/docs.sh [OUTPUT_DIR]      (default .build/docs/RegimenKit)
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs/RegimenKit}
graphs=$(mktemp -d)
trap 'rm -rf "$graphs"' EXIT

swift build --target RegimenKit >/dev/null
modules=$(swift build --show-bin-path)/Modules
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')
includes=()
while IFS= read -r map; do includes+=(-I "$(dirname "$map")"); done < <(find .build/checkouts -name module.modulemap)
swift symbolgraph-extract -module-name RegimenKit -target "$triple" -I "$modules" "${includes[@]}" \
    -minimum-access-level public -output-dir "$graphs"

python3 - "$graphs" <<'PY'
import glob, json, sys
missing = []
for path in glob.glob(sys.argv[1] + "/RegimenKit*.symbols.json"):
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        if "/Sources/RegimenKit/" in uri and not symbol.get("docComment"):
            missing.append(".".join(symbol["pathComponents"]))
for name in sorted(missing):
    print(f"error: public symbol without documentation: {name}", file=sys.stderr)
sys.exit(1 if missing else 0)
PY

log=$(mktemp)
mkdir -p "$(dirname "$output")"   # docc writes the folder itself but not its parents (a fresh clone has none)
docc convert Sources/RegimenKit/RegimenKit.docc --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name RegimenKit --fallback-bundle-identifier org.regimen.RegimenKit \
    --output-path "$output" --analyze 2>&1 | tee "$log"
if grep -E "(warning|error):" "$log"; then
    rm -f "$log"
    echo "error: DocC reported problems in RegimenKit's documentation" >&2
    exit 1
fi
rm -f "$log"
echo "documentation written to $output"
