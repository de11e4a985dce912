#!/usr/bin/env bash
# Issue 32's properties over the full grid: 200 generated 8-week sequences (each week's adapted
# plan is the next week's plan, varied profiles and goals — one in four a pregnant woman or a small
# woman of 65+, whom the calorie precedence's floors bind), then two neutral weeks each.
# Prints the figures: kcal outside the effective band, kcal changes inside one trend window,
# load steps outside 2.5–5% without the extended-reps path, weeks changed without a log line,
# sequences not back at baseline. `swift test` runs a seeded sample of 40 of the same.
set -euo pipefail
cd "$(dirname "$0")/.."
SEQUENCES="${1:-200}"
ADAPT_SIM_SEQUENCES="$SEQUENCES" swift test -j 1 --filter 'AdaptationOverWeeksTests/eightWeekSequencesKeepEveryProperty' 2>&1 \
  | grep -E 'adaptation simulation: |✘|error:|passed after|failed after'
