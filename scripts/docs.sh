#!/usr/bin/env bash
# Builds RegimenKit's documentation with swift-docc-plugin (`swift package generate-documentation`)
# and fails when DocC reports a problem or a public symbol has no documentation comment: those
# declared in Sources/RegimenKit and those of the lower modules (the types RegimenKit re-exports
# and the types their public members name).
#   scripts/docs.sh [OUTPUT_DIR]      (default .build/docs/RegimenKit.doccarchive)
set -euo pipefail
cd "$(dirname "$0")/.."
output=${1:-.build/docs/RegimenKit.doccarchive}
mkdir -p "$(dirname "$output")"   # docc writes the archive itself but not its parents

log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift package --allow-writing-to-directory "$(dirname "$output")" generate-documentation \
    --target RegimenKit --analyze --warnings-as-errors --output-path "$output" 2>&1 | tee "$log"
if grep -E "^(warning|error):|: (warning|error):" "$log" | grep -v "^warning: 'swift-docc-plugin'"; then
    echo "error: DocC reported problems in RegimenKit's documentation" >&2
    exit 1
fi

# The plugin extracts the symbol graphs under .build/<triple>/extracted-symbols/<package>/RegimenKit.
python3 - <<'PY'
import glob, json, sys
paths = glob.glob(".build/*/extracted-symbols/*/RegimenKit/RegimenKit*.symbols.json")
if not paths:
    sys.exit("error: no symbol graph for RegimenKit was extracted")
missing = []
for path in paths:
    for symbol in json.load(open(path))["symbols"]:
        uri = symbol.get("location", {}).get("uri", "")
        # Extension blocks carry no comment of their own; their members are checked one by one.
        if symbol["kind"]["identifier"] == "swift.extension" or symbol.get("accessLevel") not in ("public", "open"):
            continue
        if "/Sources/RegimenKit/" in uri and not symbol.get("docComment"):
            missing.append(".".join(symbol["pathComponents"]))
for name in sorted(set(missing)):
    print(f"error: public symbol without documentation: {name}", file=sys.stderr)
sys.exit(1 if missing else 0)
PY
# Every module's public symbol graph (`swift package dump-symbol-graph`), for the lower modules'
# public declarations, which RegimenKit's own graph does not carry.
swift package dump-symbol-graph --skip-synthesized-members > "$log" 2>&1 || { cat "$log" >&2; exit 1; }
graphs=$(sed -n 's/^Files written to //p' "$log")
python3 - "$graphs" <<'PY'
import glob, json, os, sys
graphs = sys.argv[1]
modules = ["RegimenLanguage", "RegimenSecurity", "RegimenCoaching", "RegimenTracking", "RegimenKit"]
missing = set()
for module in modules:
    for path in glob.glob(os.path.join(graphs, f"{module}.symbols.json")) + glob.glob(os.path.join(graphs, f"{module}@*.symbols.json")):
        for symbol in json.load(open(path))["symbols"]:
            uri = symbol.get("location", {}).get("uri", "")
            if symbol["kind"]["identifier"] == "swift.extension" or symbol.get("accessLevel") not in ("public", "open"):
                continue
            if "/Sources/" in uri and not symbol.get("docComment"):
                missing.add(uri.split("/Sources/")[1].split("/")[0] + ": " + ".".join(symbol["pathComponents"]))
for name in sorted(missing):
    print(f"error: public symbol without documentation: {name}", file=sys.stderr)
sys.exit(1 if missing else 0)
PY
echo "documentation written to $output"
