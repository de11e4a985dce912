#!/usr/bin/env bash
# Runs every fuzz target in turn until it has executed RUNS inputs (default 1,000,000) or spent
# its time budget, and prints one summary line per target (executions, coverage, findings).
#   scripts/fuzz-campaign.sh [RUNS] [SECONDS_PER_TARGET]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}; budget=${2:-3600}
mkdir -p .build-fuzz/logs
for target in $(scripts/fuzz.sh list); do
    log=.build-fuzz/logs/$target.log
    scripts/fuzz.sh "$target" "$budget" -runs="$runs" > "$log" 2>&1
    status=$?
    executions=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$')
    coverage=$(grep -oE '(cov|ft): [0-9]+' "$log" | tail -2 | tr '\n' ' ')
    findings=$(ls .build-fuzz/findings/"$target" 2>/dev/null | wc -l)
    echo "$target: status $status, ${executions:-?} executions, ${coverage:-no coverage line}, $findings finding(s)"
done
