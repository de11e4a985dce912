#!/usr/bin/env bash
# Runs every fuzz target in turn until it has executed RUNS inputs (default 1,000,000) or spent
# its time budget, and prints one summary line per target: executions, coverage, and the
# out-of-memory, timeout and crash counts.
#   scripts/fuzz-campaign.sh [RUNS] [SECONDS_PER_TARGET] [TARGET...]
#
# The campaign runs libFuzzer in fork mode with -ignore_timeouts, so one slow input is recorded
# (in .build-fuzz/findings/TARGET) without ending the campaign; on a loaded machine an input can
# be starved past the 1 s limit, so rerun each recorded timeout alone to tell a real one apart
# (scripts/fuzz.sh TARGET 0 FILE runs just FILE).
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}; budget=${2:-3600}
shift $(( $# > 2 ? 2 : $# ))
targets=${*:-$(scripts/fuzz.sh list)}
mkdir -p .build-fuzz/logs
for target in $targets; do
    log=.build-fuzz/logs/$target.log
    scripts/fuzz.sh "$target" "$budget" -runs="$runs" -fork=1 -ignore_timeouts=1 -ignore_ooms=0 -ignore_crashes=0 > "$log" 2>&1
    status=$?
    last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1)
    findings=$(ls .build-fuzz/findings/"$target" 2>/dev/null | wc -l)
    echo "$target: status $status; ${last:-no progress line}; $findings file(s) in findings"
done
