#!/usr/bin/env bash
# Measures `regimen serve` (release build, request logging as it ships) with wrk on loopback,
# `-t2 -c32 -d30s`, the median of RUNS runs per workload:
#   - single authorize: the 1,000 mixed writes of `regimen bench-security` (Appendix A's sets
#     path), one request per HTTP request, cycled; its documents served from --documents;
#   - batch authorize: the same 1,000 requests in one body (decisions/s = requests/s × 1,000);
#   - generatePlan for examples/minimal.yaml and examples/complete.yaml;
#   - a forced reload of the bundled set through the admin endpoint (load and check, in process).
# Usage: scripts/serve-bench.sh            (DURATION=30s RUNS=3 by default)
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-30s}
runs=${RUNS:-3}
command -v wrk >/dev/null || { echo "error: wrk is not installed (Debian: apt-get install -y wrk)" >&2; exit 2; }

swift build -c release --product regimen >/dev/null
bin=.build/release/regimen
work=$(mktemp -d)
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
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
"$bin" serve --port "$port" --poll-interval 0 --documents "$work/documents" --admin-token-file "$work/token" 2> "$work/serve.log" &
pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fsS "$url/readyz" >/dev/null

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

measure() {
    local name=$1 path=$2 file=$3 factor=$4
    local rates="" p99s=""
    for _ in $(seq 1 "$runs"); do
        BODIES="$file" CONTENT_TYPE=application/json wrk -t2 -c32 -d"$duration" --latency -s "$work/post.lua" "$url$path" > "$work/wrk.out"
        if grep -q "Non-2xx" "$work/wrk.out"; then grep "Non-2xx" "$work/wrk.out" >&2; echo "error: $name had failed requests" >&2; exit 1; fi
        rates="$rates$(awk '/^Requests\/sec:/ { print $2 }' "$work/wrk.out")"$'\n'
        p99s="$p99s$(awk '$1 == "99%" { print $2 }' "$work/wrk.out" | to_ms)"$'\n'
    done
    local rate p99
    rate=$(printf '%s' "$rates" | median)
    p99=$(printf '%s' "$p99s" | median)
    printf '%-44s %12.0f req/s %14.0f per s %10s ms p99\n' "$name" "$rate" "$(echo "$rate * $factor" | bc -l)" "$p99"
}

echo "regimen serve, wrk -t2 -c32 -d$duration, median of $runs (columns: requests/s, decisions or plans/s, p99)"
measure "authorize, single (Appendix A sets path)" /v1/policies/workout-tracker/appendix-a:authorize "$work/singles.jsonl" 1
measure "authorize, batch of 1,000" /v1/policies/workout-tracker/appendix-a:authorize "$work/batch.line" 1000
measure "generatePlan examples/minimal.yaml" /v1/plans "$work/minimal.line" 1
measure "generatePlan examples/complete.yaml" /v1/plans "$work/complete.line" 1

reloads=""
for _ in $(seq 1 5); do
    reloads="$reloads$(curl -s -o /dev/null -w '%{time_total}\n' -X POST -H "Authorization: Bearer $(cat "$work/token")" "$url/v1/admin/reload" | awk '{ printf "%.1f\n", $1 * 1000 }')"$'\n'
done
echo "reload of the bundled set (admin endpoint, forced, median of 5): $(printf '%s' "$reloads" | median) ms"
