#!/usr/bin/env bash
# The HTTP floor (`regimen serve --floor`: Hummingbird in the same binary, reading the same body
# and answering a fixed decision) is measured on every workload's bodies first; each row adds the
# service's requests/s as a share of the floor's ("÷ floor") and its p99 as a multiple ("p99 ×").
# Measures `regimen serve` (release build, request logging as it ships) with wrk on loopback,
# `-t2 -c32 -d30s`, the median of RUNS runs per workload:
#   - single authorize: the 1,000 mixed writes of `regimen bench-security` (Appendix A's sets
#     path), one request per HTTP request, cycled; its documents served from --documents;
#   - batch authorize: the same 1,000 requests in one body (decisions/s = requests/s × 1,000);
#   - generatePlan for examples/minimal.yaml and examples/complete.yaml;
#   - a forced reload of the bundled set through the admin endpoint (load and check, in process);
#   - the same 1,000 requests against Google's Firestore emulator over its REST API (Appendix A
#     loaded, the workload's documents seeded, 32 requests in flight, one pass per run), as the
#     ratio of the service's single-request decisions/s to the emulator's.
# Prints one table of every figure at the end.
# Usage: scripts/serve-bench.sh            (DURATION=30s RUNS=3 by default; DURATION=3s to try it out)
# EMULATOR=0 leaves the emulator out.
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-30s}
runs=${RUNS:-3}
emulator=${EMULATOR:-1}
command -v wrk >/dev/null || { echo "error: wrk is not installed (Debian: apt-get install -y wrk)" >&2; exit 2; }

swift build -c release --product regimen >/dev/null
bin=.build/release/regimen
work=$(mktemp -d)
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    if [ -n "${floor_pid:-}" ]; then kill "$floor_pid" 2>/dev/null || true; wait "$floor_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT


# The workload as request bodies: one JSON line per request, and the whole batch.
"$bin" bench-security --iterations 1 --write-tests "$work/workload.tests.yaml" >/dev/null
python3 - "$work" <<'PY'
import json, sys, yaml, datetime
work = sys.argv[1]
# `!float 60` keeps an integral double a double; JSON writes it as 60.0, which reads back a double.
yaml.SafeLoader.add_constructor("!float", lambda loader, node: float(loader.construct_scalar(node)))
suite = yaml.safe_load(open(f"{work}/workload.tests.yaml"))
def plain(value):
    if isinstance(value, (datetime.datetime, datetime.date)):
        return {"$timestamp": value.isoformat().replace("+00:00", "Z")}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
documents = plain(suite.get("documents", {}))
requests = [{k: plain(v) for k, v in case.items() if k not in ("name", "expect")} for case in suite["cases"]]
# The documents exist on the server (--documents), as the benchmark's store does in process.
import os
os.makedirs(f"{work}/documents", exist_ok=True)
with open(f"{work}/documents/sets.json", "w") as out:
    json.dump(documents, out)
with open(f"{work}/singles.jsonl", "w") as out:
    for request in requests:
        out.write(json.dumps(request) + "\n")
with open(f"{work}/batch.json", "w") as out:
    json.dump(requests, out)
PY

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/token"
private_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# Admin (the reload figure) is on the private listener only.
# wrk keeps 32 requests in flight: a work queue that holds them all (the default, 16, answers the rest
# 503 at once). --settle 0: the reload figure is the load itself, not the 0.5 s settle interval.
"$bin" serve --port "$port" --private-port "$private_port" --work-queue 64 --settle 0 --poll-interval 0 --documents "$work/documents" --admin-token-file "$work/token" 2> "$work/serve.log" &
pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "$url/readyz" >/dev/null
# The HTTP floor: Hummingbird in the same binary, reading the same body and answering a fixed
# decision; every workload is also reported as a share of the floor's requests/s on its bodies.
floor_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$bin" serve --floor --port "$floor_port" --log-level warning 2> "$work/floor.log" &
floor_pid=$!
floor_url="http://127.0.0.1:$floor_port"
for _ in $(seq 1 100); do curl -fsS -X POST -d '{}' "$floor_url/x" >/dev/null 2>&1 && break; sleep 0.1; done

cat > "$work/post.lua" <<'LUA'
-- POSTs the lines of BODIES (one body per line) in turn, with CONTENT_TYPE.
local bodies = {}
for line in io.lines(os.getenv("BODIES")) do bodies[#bodies + 1] = line end
local index = 0
wrk.method = "POST"
wrk.headers["Content-Type"] = os.getenv("CONTENT_TYPE")
request = function()
    index = index % #bodies + 1
    return wrk.format(nil, nil, nil, bodies[index])
end
LUA
tr '\n' ' ' < "$work/batch.json" > "$work/batch.line"; echo >> "$work/batch.line"
python3 -c 'import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' examples/minimal.yaml > "$work/minimal.line"
python3 -c 'import sys, json, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' examples/complete.yaml > "$work/complete.line"

# Checks that each workload answers 200 before it is measured.
check() {
    local path=$1 file=$2
    local status
    status=$(head -n 1 "$file" | curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' --data-binary @- "$url$path")
    [ "$status" = 200 ] || { echo "error: $path answered $status" >&2; exit 1; }
}
check /v1/policies/workout-tracker/appendix-a:authorize "$work/singles.jsonl"
check /v1/policies/workout-tracker/appendix-a:authorize "$work/batch.line"
check /v1/plans "$work/minimal.line"
check /v1/plans "$work/complete.line"

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
to_ms() { awk '{ v = $1; if (v ~ /us$/) { sub(/us$/, "", v); v /= 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v *= 1000 }; printf "%.2f\n", v }'; }

# Runs wrk RUNS times on one workload; sets RATE (median requests/s) and P99 (median p99, ms).
# TARGET (default the service) names the base URL.
measure() {
    local name=$1 path=$2 file=$3
    local rates="" p99s=""
    for _ in $(seq 1 "$runs"); do
        BODIES="$file" CONTENT_TYPE=application/json wrk -t2 -c32 -d"$duration" --latency -s "$work/post.lua" "${TARGET:-$url}$path" > "$work/wrk.out"
        if grep -q "Non-2xx" "$work/wrk.out"; then grep "Non-2xx" "$work/wrk.out" >&2; echo "error: $name had failed requests" >&2; exit 1; fi
        rates="$rates$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.out")"$'\n'
        p99s="$p99s$(awk '$1 == "99%" { print $2 }' "$work/wrk.out" | to_ms)"$'\n'
    done
    RATE=$(printf '%s' "$rates" | median)
    P99=$(printf '%s' "$p99s" | median)
    echo "measured: $name: $RATE requests/s, p99 $P99 ms" >&2
}

rows=()
per_second() { printf '%.0f' "$(echo "$1" | bc -l)"; }

# The floor on the same bodies first, then the service: each row ends with the service's
# requests/s as a share of the floor's, and its p99 as a multiple of the floor's.
floor_rows=()
versus_floor() {
    local name=$1 path=$2 file=$3
    TARGET=$floor_url measure "floor: $name" "$path" "$file"
    local floor_rate=$RATE floor_p99=$P99
    floor_rows+=("$(printf '%-42s %12s %14s %10s' "floor: $name" "$(per_second "$floor_rate")" "" "$floor_p99")")
    measure "$name" "$path" "$file"
    SHARE=$(printf '%.0f%%' "$(echo "100 * $RATE / $floor_rate" | bc -l)")
    P99X=$(printf '%.1f×' "$(echo "$P99 / $floor_p99" | bc -l)")
}
row() { rows+=("$(printf '%-42s %12s %14s %10s %8s %8s' "$1" "$2" "$3" "$4" "${5:-}" "${6:-}")"); }

versus_floor "authorize, single" /v1/policies/workout-tracker/appendix-a:authorize "$work/singles.jsonl"
single_rate=$RATE
row "authorize, single (Appendix A sets path)" "$(per_second "$RATE")" "$(per_second "$RATE") dec" "$P99" "$SHARE" "$P99X"
versus_floor "authorize, batch of 1,000" /v1/policies/workout-tracker/appendix-a:authorize "$work/batch.line"
row "authorize, batch of 1,000" "$(per_second "$RATE")" "$(per_second "$RATE * 1000") dec" "$P99" "$SHARE" "$P99X"
versus_floor "generatePlan examples/minimal.yaml" /v1/plans "$work/minimal.line"
row "generatePlan examples/minimal.yaml" "$(per_second "$RATE")" "$(per_second "$RATE") plans" "$P99" "$SHARE" "$P99X"
versus_floor "generatePlan examples/complete.yaml" /v1/plans "$work/complete.line"
row "generatePlan examples/complete.yaml" "$(per_second "$RATE")" "$(per_second "$RATE") plans" "$P99" "$SHARE" "$P99X"

reloads=""
for _ in $(seq 1 5); do
    reloads="$reloads$(curl -s -o /dev/null -w '%{time_total}\n' -X POST -H "Authorization: Bearer $(cat "$work/token")" "http://127.0.0.1:$private_port/v1/admin/reload" | awk '{ printf "%.1f\n", $1 * 1000 }')"$'\n'
done
row "reload of the bundled set (median of 5)" "" "$(printf '%s' "$reloads" | median) ms" ""

# The emulator answers the same 1,000 requests: Appendix A as native rules, the workload's
# documents seeded with the owner token, 32 requests in flight. Allowed writes are not undone, so
# a pass measures throughput; agreement is the differential check's business
# (scripts/emulator/differential.py), shown here only as a count.
if [ "$emulator" = 1 ]; then
    "$bin" test --format json --with-requests "$work/workload.tests.yaml" > "$work/workload.export.json" || true
    if python3 - "$work/workload.export.json" "$bin" "$runs" > "$work/emulator.out" <<'PY'
import json, os, statistics, sys, time
from concurrent.futures import ThreadPoolExecutor
sys.path.insert(0, os.path.join(os.getcwd(), "scripts", "emulator"))
import firestore_emulator as fe
import differential
exported, regimen, runs = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3])
if not fe.Emulator.available():
    print("SKIPPED the Firestore emulator is not installed")
    sys.exit(0)
entry = exported[0]
cases = [case for case in entry["cases"] if not case["documents"] and not case["removedDocuments"]]
with fe.Emulator() as emu:
    emu.load_rules(differential.native_rules(regimen, entry["rules"]))
    base = {differential.relative(p): differential.to_driver(d, fe) for p, d in entry["documents"].items()}
    rates, agreed, compared = [], 0, 0
    for run in range(runs):
        emu.clear()
        emu.seed(base)
        started = time.perf_counter()
        with ThreadPoolExecutor(max_workers=32) as pool:
            decisions = list(pool.map(lambda case: differential.emulator_decision(emu, fe, case["request"]), cases))
        rates.append(len(cases) / (time.perf_counter() - started))
        if run == 0:
            # A create whose document an earlier allowed write made answers 409 without a rules
            # decision; the others are compared.
            decided = [(case, d) for case, d in zip(cases, decisions) if d.allowed is not None]
            agreed = sum(1 for case, d in decided if d.allowed == (case["actual"] == "allow"))
            compared = len(decided)
    print(f"OK {statistics.median(rates):.1f} {agreed} {compared}")
PY
    then
        read -r status emulator_rate agreed total < "$work/emulator.out" || true
        if [ "$status" = OK ]; then
            row "Firestore emulator, same requests (REST)" "$(per_second "$emulator_rate")" "$(per_second "$emulator_rate") dec" ""
            row "ratio: service single ÷ emulator" "" "$(printf '%.0f×' "$(echo "$single_rate / $emulator_rate" | bc -l)")" ""
            # The emulator's store moves with each allowed write of a pass while the service's
            # does not, so this count is not an agreement check (differential.py is, write by write).
            echo "emulator: same decision as the service for $agreed of the $total requests it decided in the first pass (its store moved with the allowed writes)" >&2
        else
            row "Firestore emulator" "" "$(cat "$work/emulator.out")" ""
        fi
    else
        echo "error: the emulator run failed" >&2; exit 1
    fi
fi

echo
echo "regimen serve, release build, wrk -t2 -c32 -d$duration on loopback, median of $runs runs"
printf '%-42s %12s %14s %10s %8s %8s\n' "workload" "requests/s" "per second" "p99 ms" "÷ floor" "p99 ×"
printf '%s\n' "${rows[@]}"
printf '%s\n' "${floor_rows[@]}"
