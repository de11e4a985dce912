#!/usr/bin/env bash
# The near-miss property over every name (issue 30 item 3): for every expression of every shipped
# rule file, each variable, field and compared string, and each string of a fact's list
# (`minor_allowed`), is renamed to a near miss (last letter doubled) and the rules are loaded
# again; then so is every word a rule or catalog file names from a vocabulary the files define
# (a muscle, an equipment tag, an exercise, ingredient or supplement id, a food tag, a goal, …).
# The figures say how many fail at the name's own line:col. `swift test` checks a seeded sample
# of the same properties (NearMissPropertyTests, NearMissReferenceTests).
# Usage: scripts/near-miss.sh   (builds the tests first; about 15 minutes on a debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -j 1 --build-tests >/dev/null 2>&1 || { echo 'near-miss: the build failed (swift build -j 1 --build-tests)' >&2; exit 2; }
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
REGIMEN_NEAR_MISS=all swift test -j 1 --skip-build \
  --filter 'NearMissPropertyTests/aNearMissOfAnyVariableOrFieldFailsCheckAtItsLineAndColumn|NearMissReferenceTests/aNearMissOfAnyWordAFileNamesFailsCheckAtItsLineAndColumn' \
  >"$log" 2>&1 || status=$?
grep '^near-miss: ' "$log" | sed 's/^near-miss: //'
grep -E '✘|Test run with' "$log" | tail -3
exit "$status"
