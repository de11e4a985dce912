#!/usr/bin/env bash
# The nutrition property over the FULL grid of Tests/RegimenCoachingTests/NutritionGrid.swift
# (2 sexes × 25 weights (40–160 kg) × 4 goals × 3 experience levels × 3 budgets × 18 diets × 5 meal
# counts = 162,000 profiles); `swift test` runs every 139th of them. Release build: the debug one
# would take hours. Runs in SHARDS pieces (default 8), printing each piece's meals with options per
# diet as it finishes, then the totals; exits 1 if any piece fails (a meal without options whose
# exclusions leave every category a source and whose plan does not say so, any combination outside
# its band, a meal whose protein options span fewer food groups than rules/meals.yaml asks, or an
# omnivore's day with fewer than six protein foods: issue 31). scripts/food-variety-figures.py
# measures the food figures of any binary (an older one too) from the outside.
#
#   scripts/nutrition-grid.sh [SHARDS]
set -euo pipefail
cd "$(dirname "$0")/.."
shards=${1:-8}
swift build -c release --build-tests -Xswiftc -enable-testing 2>&1 | grep -E "error|warning: |Compiling|Build complete" | tail -3
export REGIMEN_NUTRITION_GRID=full
status=0
logs=.build/nutrition-grid
mkdir -p "$logs"
summary="$logs/summary.txt"
: > "$summary"
: > "$logs/meal-counts.txt"
for ((k = 0; k < shards; k++)); do
    REGIMEN_NUTRITION_GRID_SHARD="$k/$shards" swift test -c release -Xswiftc -enable-testing --skip-build \
        --filter 'NutritionPropertyTests/everyMealOfTheGrid' > "$logs/shard-$k.log" 2>&1 || status=1
    grep -E "^nutrition grid|^  exclusions|^  meals per day|^  omnivore days|^  soy-free vegan|^  meals whose protein|✘ Test .* failed after|✔ Test .* passed after" "$logs/shard-$k.log" | grep -v "^↳" || true
    grep -E "^  exclusions" "$logs/shard-$k.log" >> "$summary" || true
    grep -E "^  meals per day" "$logs/shard-$k.log" >> "$logs/meal-counts.txt" || true
done
echo "== profiles with a problem (every shard's whole output is in $logs/)"
grep -h "^↳ sex:" "$logs"/shard-*.log | sed 's/;  [a-z]*: .*//' | sort | uniq -c | sort -rn | head -40 || true
echo "== full grid, all shards: meals with options per diet"
awk '{with[$2] += $3; all[$2] += $5} END {for (d in all) printf "  %-18s %7d of %7d (%.1f%%)\n", d, with[d], all[d], 100 * with[d] / all[d]}' "$summary" | sort
echo "== profiles whose asked number of meals could not be portioned (asked → planned)"
awk '{sub(/:$/, "", $6); n[$4" "$5" "$6] += $7} END {for (k in n) printf "  %s: %d profiles\n", k, n[k]}' "$logs/meal-counts.txt" | sort
exit $status
