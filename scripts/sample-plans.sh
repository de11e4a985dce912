#!/usr/bin/env bash
# Regenerates the plans the docs show from the real command, so they never drift from the rules:
#   - docs/sample-plans/NN-name.txt: `regimen plan` of each profile in docs/sample-plans/profiles/
#     (ten corners of the issue-31 grid, walked through by docs/coach-checklist.md);
#   - README.md, between the `plan-example` markers: `regimen plan examples/minimal.yaml`.
# Rerun after any change to rules/, catalogs/ or the planner; `SamplePlansTests` fails until the
# files equal the command's output.
#
#   scripts/sample-plans.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -j 1 --product regimen 2>&1 | { grep -E "error|warning: |complete" || true; } | grep -v swift-distributed | tail -3
regimen=$(swift build -j 1 --product regimen --show-bin-path)/regimen
for profile in docs/sample-plans/profiles/*.yaml; do
    "$regimen" plan "$profile" > "docs/sample-plans/$(basename "$profile" .yaml).txt"
done
echo "docs/sample-plans: $(ls docs/sample-plans/profiles/*.yaml | wc -l) plans"
# README: the block between the markers is replaced by the command and its output.
example=$("$regimen" plan examples/minimal.yaml)
python3 - "$example" <<'PY'
import re, sys
start, end = "<!-- plan-example:start -->", "<!-- plan-example:end -->"
text = open("README.md", encoding="utf-8").read()
if start not in text or end not in text:
    sys.exit("README.md has no plan-example markers")
block = f"{start}\n```text\n$ swift run regimen plan examples/minimal.yaml\n{sys.argv[1]}\n```\n{end}"
head, rest = text.split(start, 1)
open("README.md", "w", encoding="utf-8").write(head + block + rest.split(end, 1)[1])
print("README.md: the plan example regenerated")
PY
