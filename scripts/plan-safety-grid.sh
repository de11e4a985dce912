#!/usr/bin/env bash
# The plan-safety properties of issue 31 over their FULL grids (`swift test` runs a seeded
# sample of each). Every grid prints, per property, how many checks ran and how many failed.
#   - CaloriePrecedenceTests/everyTargetFollowsThePrecedence (10,200 nutrition plans): sex ×
#     40–160 kg (5 kg steps) × ages 16–80 (4-year steps) × 4 goals × pregnancy (no, trimester
#     unknown, 1, 2, 3) × body fat known or not (seeded: one of the two per point) × experience
#     (seeded): kcal never below the sex's floor nor BMR; inside the goal's band unless a floor
#     won, and then the plan names it; a pregnant client never in deficit and carrying the
#     nutrition caution; protein on the basis the rules name (lean mass, adjusted or total
#     weight) at a g/kg of that basis inside its range.
#   - ExerciseChoiceTests/everyPlanOfTheGridChoosesExercisesAsTheRulesSay (22,464 training
#     plans): sex × 40–160 kg (10 kg steps) × 3 heights × 4 ages × experience × equipment × goal
#     × 1–6 days, with high blood pressure on one plan in six and a woman's plans (ages 16–50)
#     rotating through not pregnant, trimester unknown, 1, 2 and 3 (rotated, not multiplied: the
#     sixfold product would take hours): bodyweight-only share ≤ 25% in a full gym (core
#     excepted), ≤ 2 exercises per small muscle per session, the strength goal's main patterns at
#     their weekly minimum, 1-day upper/lower balance, supersets of ≥ 2, bodyweight rep ranges,
#     no body-weight lifts at BMI ≥ 40, and the pregnancy, blood pressure and 65+ cautions.
#   - VolumeExplanationTests (the same 22,464 plans): each muscle's `--explain` names its band,
#     goal modifier, set credit and injury cut, and its exercise shares add up to its sets.
#   - ProteinBasisTests and TrainingSafetyTests (whole in `swift test` already).
# Release build (the debug one is ~10× slower). About a minute of tests on a quiet machine after
# the build. Exits 1 when a property fails.
#
#   scripts/plan-safety-grid.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -j 1 -c release --build-tests -Xswiftc -enable-testing 2>&1 | grep -E "error|warning: |Build complete" | grep -v swift-distributed | tail -3
log=.build/plan-safety-grid.log
start=$SECONDS
status=0
REGIMEN_NUTRITION_GRID=full swift test -j 1 -c release -Xswiftc -enable-testing --skip-build \
    --filter 'CaloriePrecedenceTests|ProteinBasisTests|TrainingSafetyTests|ExerciseChoiceTests|VolumeExplanationTests' > "$log" 2>&1 || status=$?
grep -E "✘|Test run with|grid: |  e\.g\. " "$log" | cut -c1-400
echo "plan-safety grid: $((SECONDS - start)) s of tests (full log: $log)"
exit "$status"
