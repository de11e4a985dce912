#!/usr/bin/env bash
# Wall-clock and peak memory of `regimen` on the largest input of each class issue 33 found
# (the second hunt): set operations at 100,000 elements, a 12,000-segment path, 32,000 chained
# lets, replace('')/split('') on a 7 MB string, a profile with 100,000 unknown keys, the slice
# trap, upload-check on a FIFO and a directory. Goal: each at most 2 s and 1 GB on a 2-core
# machine. The tests assert counted cost; this script is where the clock is read.
#
#   scripts/hunt-figures.sh [REGIMEN_BINARY]     (default: .build/release/regimen, else debug)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-}
if [ -z "$bin" ]; then
    if [ -x .build/release/regimen ]; then bin=.build/release/regimen; else bin=.build/debug/regimen; fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 - "$work" <<'PY'
import json, sys, pathlib
w = pathlib.Path(sys.argv[1])
n = 100_000
(w / "sets.json").write_text(json.dumps({"a": list(range(n)), "b": list(range(n // 2, n + n // 2))}))
(w / "text.json").write_text(json.dumps({"s": "a" * 7_000_000}))
depth = 12_000
(w / "deep.rules").write_text("rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    match /{doc=**} {\n      allow read: if doc != null;\n    }\n  }\n}\n")
(w / "deep.path").write_text("/".join(f"s{i}" for i in range(depth)))
lets = 32_000
body = "\n".join(f"      let a{i+1} = a{i} + 1;" for i in range(lets))
(w / "lets.rules").write_text("rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n    function f(a0) {\n" + body + f"\n      return a{lets} > 0;\n    }}\n    match /c/{{d}} {{\n      allow read: if f(1);\n    }}\n  }}\n}}\n")
(w / "profile.yaml").write_text("sex: female\nschedule_days: 3\n" + "".join(f"stray_{i}: 1\n" for i in range(100_000)))
PY
mkfifo "$work/pipe.pdf"
mkdir "$work/dir.pdf"

run() {
    local label=$1; shift
    local out
    out=$( { /usr/bin/time -f "%e %M" "$@" >/dev/null 2>"$work/err"; } 2>&1 || true)
    local figures
    figures=$(tail -1 "$work/err")
    local status
    status=$(grep -o "non-zero status [0-9]*\|signal [0-9]*" "$work/err" | head -1 || true)
    printf '%-48s %8s s %8s MB  %s\n' "$label" "$(echo "$figures" | awk '{print $1}')" "$(echo "$figures" | awk '{printf "%.0f", $2/1024}')" "${status:-exit 0}"
}

printf '%-48s %10s %11s  %s\n' "class / input" "wall" "peak RSS" "outcome"
for m in "a.hasAll(b)" "a.hasOnly(b)" "a.removeAll(b)" "a.toSet().intersection(b.toSet())" "a.toSet().difference(b.toSet())"; do
    run "$m (100,000 each)" "$bin" eval "$m" --vars "$work/sets.json"
done
run "s.replace('', 'z') (7 MB)" "$bin" eval "s.replace('', 'z')" --vars "$work/text.json"
run "s.split('') (7 MB)" "$bin" eval "s.split('')" --vars "$work/text.json"
run "[1,2,3][0:INT64_MIN]" "$bin" eval "[1,2,3][0:(-9223372036854775807 - 1)]"
run "{doc=**} with a 12,000-segment path" "$bin" authorize --rules "$work/deep.rules" --op get --path "$(cat "$work/deep.path")"
run "function of 32,000 chained lets" "$bin" authorize --rules "$work/lets.rules" --op get --path c/x
run "profile with 100,000 unknown keys" "$bin" indexes "$work/profile.yaml"
run "upload-check on a FIFO named .pdf" timeout 10 "$bin" upload-check "$work/pipe.pdf"
run "upload-check on a directory named .pdf" "$bin" upload-check "$work/dir.pdf"
