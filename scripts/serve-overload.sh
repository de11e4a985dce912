#!/usr/bin/env bash
# Measures `regimen serve` under the load that froze it (issue 34): 8 concurrent whole-panel
# impacts (the playground's "Whole panel" button, 240 clients) with --time-budget 0.5, while a
# monitor asks /healthz every 20 ms. Reports every impact's status and latency, /healthz's
# latencies (p50, p99, max) and failures, and the server's CPU time in the second after the last
# answer (0 means the cancelled work stopped).
# Goals (issue 34): every impact answered within 0.6 s, /healthz p99 ≤ 50 ms, CPU idle 1 s
# after the last answer.
# Usage: scripts/serve-overload.sh [BINARY]   (default: a release build, built if missing;
# BUILD=debug uses .build/debug/regimen)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ge 1 ]; then
    bin=$1
elif [ "${BUILD:-release}" = debug ]; then
    bin=.build/debug/regimen
else
    swift build -c release --product regimen >/dev/null
    bin=.build/release/regimen
fi
port=${PORT:-18434}
private_port=$((port + 1))
log=$(mktemp)
# The impacts go to the private listener (the playground is there); /healthz is asked on the public one.
"$bin" serve --port "$port" --private-port "$private_port" --time-budget 0.5 --poll-interval 0 --log-level error 2>"$log" &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -f "$log"; }
trap cleanup EXIT

python3 - "$port" "$pid" "$private_port" <<'PY'
import http.client, json, sys, threading, time
port, pid, private_port = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])

def request(method, path, body=None, timeout=60, on=None):
    connection = http.client.HTTPConnection("127.0.0.1", on or port, timeout=timeout)
    start = time.monotonic()
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status, time.monotonic() - start

for _ in range(600):
    try:
        if request("GET", "/healthz", timeout=1)[0] == 200:
            break
    except OSError:
        time.sleep(0.05)
else:
    sys.exit("error: the server did not start")

def cpu_seconds():
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / 100.0  # utime + stime, in clock ticks

text = open("rules/nutrition.yaml").read()
# An edit (a blank line after each line): the edited set is loaded, then every client planned twice.
body = json.dumps({"path": "rules/nutrition.yaml", "text": text.replace("\n", "\n\n")})
impacts, health, stop = [], [], threading.Event()

def impact():
    impacts.append(request("POST", "/v1/playground/impact", body, on=private_port))

def monitor():
    while not stop.is_set():
        try:
            health.append(request("GET", "/healthz", timeout=30))
        except OSError as error:
            health.append((0, 30.0))
        time.sleep(0.02)

watcher = threading.Thread(target=monitor)
watcher.start()
time.sleep(0.2)
threads = [threading.Thread(target=impact) for _ in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
last_answer = time.monotonic()
time.sleep(0.5)
stop.set()
watcher.join()
# CPU used from 1 s to 2 s after the last answer.
wait = last_answer + 1.0 - time.monotonic()
if wait > 0:
    time.sleep(wait)
before = cpu_seconds()
time.sleep(1.0)
idle_cpu = cpu_seconds() - before

latencies = sorted(seconds for _, seconds in health)
def percentile(values, share):
    return values[min(len(values) - 1, int(share * len(values)))] if values else float("nan")
statuses = sorted(status for status, _ in impacts)
if any(status not in (200, 503) for status in statuses):
    sys.exit(f"error: impacts answered {statuses}")
print(f"impacts: statuses {statuses}, slowest {max(s for _, s in impacts):.3f} s, fastest {min(s for _, s in impacts):.3f} s")
print(f"/healthz: {len(health)} requests, failures {sum(1 for status, _ in health if status != 200)}, "
      f"p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
print(f"server CPU from 1 s to 2 s after the last answer: {idle_cpu:.2f} s")
PY
