#!/usr/bin/env bash
# Every generated mutant of the bundled Firestore policies through `rules diff`'s queries
# (MutantTests with REGIMEN_MUTANTS=all): prints how many were reported different with a
# confirmed counterexample, proved equivalent, or left unknown (with the construct named), and
# the caught rate. Needs z3 on PATH and a build (`swift build -j 1 --build-tests`).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v z3 >/dev/null || { echo "error: z3 is not on PATH (apt-get install -y z3)" >&2; exit 2; }
REGIMEN_MUTANTS=all REGIMEN_REQUIRE_SOLVER=1 swift test -j 1 --skip-build --filter MutantTests 2>&1 | grep -E "mutants:|unknown:|✘|error" || true
