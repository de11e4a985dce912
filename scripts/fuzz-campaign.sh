#!/usr/bin/env bash
# Runs every fuzz target in turn until it has executed RUNS inputs (default 1,000,000) or spent
# its time budget, and prints one summary line per target: executions, coverage, and the
# out-of-memory, timeout and crash counts.
#   scripts/fuzz-campaign.sh [RUNS] [SECONDS_PER_TARGET] [TARGET...]
#   FUZZ_MAX_LEN=4096 scripts/fuzz-campaign.sh ...   mutate inputs up to that many bytes
#
# scripts/fuzz.sh lets inputs grow to 64 KiB, so that whole rule files and test files mutate;
# a campaign may cap them lower to spend its time on more, smaller inputs (the shipped files
# still run first, whole, as seeds).
#
# On a loaded machine a process can be starved of CPU for more than a second, which libFuzzer's
# 1 s timeout would report as a slow input and end the run; the campaign allows FUZZ_TIMEOUT
# seconds per input (default 10) and reports the slowest input it met
# (stat::slowest_unit_time_sec). Every slow or timed-out input the run saved is then run again
# alone and its time printed: that time, not the starved one, must stay under 1 s.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1000000}; budget=${2:-3600}
shift $(( $# > 2 ? 2 : $# ))
targets=${*:-$(scripts/fuzz.sh list)}
# FUZZ_SANITIZE=fuzzer: the build without AddressSanitizer (see scripts/fuzz.sh).
scratch=.build-fuzz; [ "${FUZZ_SANITIZE:-fuzzer,address}" = fuzzer ] && scratch=.build-fuzz-fuzzer
mkdir -p "$scratch/logs"
for target in $targets; do
    log=$scratch/logs/$target.log
    scripts/fuzz.sh "$target" "$budget" -runs="$runs" -timeout="${FUZZ_TIMEOUT:-10}" -report_slow_units=1 ${FUZZ_MAX_LEN:+-max_len=$FUZZ_MAX_LEN} > "$log" 2>&1
    status=$?
    last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov:' | tail -1 | sed 's/ *L: .*//')
    executions=$(grep -o 'number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$')
    slowest=$(grep -oE 'slowest_unit_time_sec: +[0-9]+' "$log" | grep -oE '[0-9]+$')
    findings=$(ls "$scratch"/findings/"$target" 2>/dev/null | wc -l)
    echo "$target: status $status; ${executions:-?} executions; slowest input ${slowest:-?} s; last: ${last:-none}; $findings finding(s)"
    for unit in $(grep -oE "Test unit written to [^ ]+" "$log" | awk '{print $5}' | sort -u); do
        [ -f "$unit" ] || continue
        alone=$(REGIMEN_ROOT="$(pwd)" ASAN_OPTIONS=detect_leaks=0 timeout 60 "$scratch/release/$target" "$unit" 2>&1 | grep -oE "Executed .* in [0-9]+ ms" | grep -oE "[0-9]+ ms$")
        echo "  $(basename "$unit") alone: ${alone:-did not finish in 60 s}"
    done
done
