#!/usr/bin/env bash
# Every generated mutant of the bundled Firestore policies through `rules diff`'s queries
# (MutantTests with REGIMEN_MUTANTS=all): one line per mutant (different with a confirmed
# counterexample / proved equivalent / unknown with the construct named / not compilable), the
# caught rate, and the no-false-proof check: every pair proved equivalent (or one direction
# proved) decides the same on the emulator differential's generated requests (10,000 by
# default, written by scripts/emulator/differential.py's generator, no emulator needed) and on
# fresh random variations of the shipped cases.
#
#   scripts/analysis-mutants.sh [TIMEOUT_SECONDS] [GENERATED_REQUESTS]
#
# Needs z3 on PATH and a build (`swift build -j 1 --build-tests`). Exit status 1 when a mutant
# is wrong (a counterexample that does not reproduce, or a proof a request contradicts).
set -euo pipefail
cd "$(dirname "$0")/.."
timeout_seconds=${1:-10}
generated=${2:-10000}
command -v z3 >/dev/null || { echo "error: z3 is not on PATH (apt-get install -y z3)" >&2; exit 2; }
[ -x .build/debug/regimen ] || { echo "error: build first (swift build -j 1 --build-tests)" >&2; exit 2; }
requests=$(mktemp -d)
trap 'rm -rf "$requests"' EXIT
python3 - "$requests" "$generated" <<'EOF'
import os, sys
sys.path.insert(0, "scripts/emulator")
import differential
folder, count = sys.argv[1], int(sys.argv[2])
tests = ["rules/security/workout-tracker/appendix-a.tests.yaml", "rules/security/workout-tracker/corrected.tests.yaml",
         "rules/security/coach-app/firestore.tests.yaml", "rules/security/trainer-student/firestore.tests.yaml",
         "rules/security/planner/firestore.tests.yaml"]
exported = [e for e in differential.regimen_decisions(".build/debug/regimen", tests) if e["service"] == "cloud.firestore"]
files = differential.generated_files(exported, count, 1, folder)
print(f"{count} generated requests (seed 1) in {len(files)} files for the no-false-proof check")
EOF
log=$(mktemp)
status=0
REGIMEN_MUTANTS=all REGIMEN_MUTANT_TIMEOUT=$timeout_seconds REGIMEN_MUTANT_REQUESTS=$requests REGIMEN_REQUIRE_SOLVER=1 \
    swift test -j 1 --skip-build --filter MutantTests > "$log" 2>&1 || status=$?
grep -E "^mutant|mutants:|unknown:|requests for|no-false-proof|✘|error" "$log" || true
rm -f "$log"
echo "solver timeout per query: $timeout_seconds s"
exit $status
