#!/usr/bin/env bash
# The plan-safety properties of issue 31 over their FULL grids (`swift test` runs a seeded sample):
#   - CaloriePrecedenceTests/everyTargetFollowsThePrecedence: sex × 40–160 kg (5 kg steps) ×
#     ages 16–80 (4-year steps) × 4 goals × pregnancy (no, trimester unknown, 1, 2, 3) × body fat
#     known or not: kcal never below the sex's floor nor BMR, a pregnant client never in deficit,
#     otherwise inside the goal's band.
#   - ExerciseChoiceTests/everyPlanOfTheGridChoosesExercisesAsTheRulesSay: sex × 40–160 kg
#     (10 kg steps) × 3 heights × experience × equipment × goal × 1–6 days (22,464 plans):
#     bodyweight-only share ≤ 25% in a full gym (core excepted), ≤ 2 exercises per small muscle
#     in a session, the strength goal's main patterns at their weekly minimum, 1-day upper/lower
#     balance, supersets of ≥ 2, bodyweight rep ranges, no body-weight lifts at BMI ≥ 40 (it
#     prints each property's figures).
#   - ProteinBasisTests/proteinPerKgOfItsBasisStaysInItsRange and
#     TrainingSafetyTests/aPregnantClientTrainsModeratelyWithACaution (their grids are whole in
#     `swift test` already).
# Release build: the debug one is slow. Exits 1 when a property fails.
#
#   scripts/plan-safety-grid.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -j 1 -c release --build-tests -Xswiftc -enable-testing 2>&1 | grep -E "error|warning: |Build complete" | tail -3
REGIMEN_NUTRITION_GRID=full swift test -j 1 -c release -Xswiftc -enable-testing --skip-build \
    --filter 'CaloriePrecedenceTests|ProteinBasisTests|TrainingSafetyTests|ExerciseChoiceTests' 2>&1 \
    | grep -E "✘|✔ Test .* passed after|Test run with|grid: |  e\.g\. "
