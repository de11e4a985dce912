#!/usr/bin/env bash
# The plan-safety properties of issue 31 over their FULL grids (`swift test` runs a seeded sample):
#   - CaloriePrecedenceTests/everyTargetFollowsThePrecedence: sex × 40–160 kg (5 kg steps) ×
#     ages 16–80 (4-year steps) × 4 goals × pregnancy (no, trimester unknown, 1, 2, 3) × body fat
#     known or not: kcal never below the sex's floor nor BMR, a pregnant client never in deficit,
#     otherwise inside the goal's band.
#   - ProteinBasisTests/proteinPerKgOfItsBasisStaysInItsRange and
#     TrainingSafetyTests/aPregnantClientTrainsModeratelyWithACaution (their grids are whole in
#     `swift test` already).
# Release build: the debug one is slow. Exits 1 when a property fails.
#
#   scripts/plan-safety-grid.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --build-tests -Xswiftc -enable-testing 2>&1 | grep -E "error|warning: |Build complete" | tail -3
REGIMEN_NUTRITION_GRID=full swift test -c release -Xswiftc -enable-testing --skip-build \
    --filter 'CaloriePrecedenceTests|ProteinBasisTests|TrainingSafetyTests' 2>&1 \
    | grep -E "✘|✔ Test .* passed after|Test run with"
