#!/usr/bin/env bash
# Property-based API fuzzing of `regimen serve` with schemathesis against its /openapi.json:
# no 5xx, every status, content type, header and body as documented. Bounded to two minutes.
# Usage: scripts/schemathesis.sh [path to the regimen executable]   (default: .build/debug/regimen)
# Needs: pip install schemathesis (written against the 4.x CLI).
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${1:-.build/debug/regimen}
command -v schemathesis >/dev/null || { echo "error: schemathesis is not installed (pip install schemathesis)" >&2; exit 2; }
[ -x "$bin" ] || { echo "error: no executable at $bin (swift build first)" >&2; exit 2; }

work=$(mktemp -d)
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The playground's whole-panel impact plans every panel client twice. A debug build (what CI
# builds) plans about twenty times slower than a release build: the 240 clients of
# examples/panel take about 22 s there, past the 10 s budget, so the answer would be a 503 by
# design (README, "Rules playground"). The API is what is fuzzed here, so it plans a panel of
# the first 8 clients, which a debug build answers within the budget.
mkdir -p "$work/panel"
cp examples/panel/client-00[1-8].yaml "$work/panel/"
# The private listener serves every documented route (the public one leaves out the playground,
# the simulator and admin): it is the one fuzzed.
"$bin" serve --port 0 --private-port "$port" --poll-interval 0 --log-level warning --panel "$work/panel" 2> "$work/serve.log" &
pid=$!
url="http://127.0.0.1:$port"
for _ in $(seq 1 100); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

# The checks that hold for this API. Left out: positive_data_acceptance (a schema-valid profile
# may still break the rules' contract, which is a 422 by design), negative_data_rejection (the
# bodies are also read as YAML, a superset), and the auth and resource checks (no resources are
# created; the only auth is the admin token, which is off here).
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
status=0
# Run from the scratch folder, so schemathesis' own cache stays out of the repository.
(cd "$work" && timeout --signal=INT 150 schemathesis --no-color run "$url/openapi.json" \
    --checks "$checks" --phases examples,coverage,fuzzing --max-examples "${MAX_EXAMPLES:-25}" \
    --max-time 110 --request-timeout 15 --seed 19 --continue-on-failure) \
    || status=$?
# The service logs every 5xx as an error, whatever the log level.
if grep -q "status=5" "$work/serve.log"; then
    echo "error: the service answered 5xx:" >&2
    grep "status=5" "$work/serve.log" | head -5 >&2
    status=1
fi
exit "$status"
