#!/usr/bin/env bash
# Two `regimen serve` replicas behind nginx on loopback, under wrk load, while a rules change
# rolls into both: reports the failed requests (must be 0) and the time from the edit until
# both replicas serve the new revision (each polls its folder; POLL seconds apart).
# Usage: scripts/replicas.sh        (DURATION=20s POLL=1 by default; REGIMEN=path skips the build;
#        needs nginx and wrk)
set -euo pipefail
cd "$(dirname "$0")/.."

duration=${DURATION:-20s}
poll=${POLL:-1}
for tool in nginx wrk curl; do
    command -v "$tool" >/dev/null || { echo "error: $tool is not installed (Debian: apt-get install -y nginx wrk curl)" >&2; exit 2; }
done

# REGIMEN names an already built executable; otherwise the release build is made.
bin=${REGIMEN:-}
if [ -z "$bin" ]; then
    swift build -c release --product regimen >/dev/null
    bin=$(pwd)/.build/release/regimen
fi
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The rules bundle both replicas load, as a deployment tool would place it.
cp -r rules catalogs "$work/"
ports=()
for replica in 1 2; do
    port=$(free_port)
    ports+=("$port")
    "$bin" serve --rules "$work/rules" --catalogs "$work/catalogs" --port "$port" --private-port -1 --poll-interval "$poll" 2> "$work/replica$replica.log" &
    pids+=($!)
done
for port in "${ports[@]}"; do
    for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
done

front=$(free_port)
mkdir -p "$work/nginx"
# deploy/nginx-regimen.conf with this run's ports, inside a minimal nginx.conf.
upstreams=$(printf '    server 127.0.0.1:%s max_fails=3 fail_timeout=5s;\n' "${ports[@]}")
server_block=$(sed -e '/^upstream regimen {/,/^}/d' -e "s/listen 127.0.0.1:8080;/listen 127.0.0.1:$front;/" deploy/nginx-regimen.conf)
cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
worker_processes 1;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path $work/nginx;
    proxy_temp_path $work/nginx;
    upstream regimen {
        least_conn;
$upstreams
        keepalive 64;
    }
$server_block
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
url="http://127.0.0.1:$front"
for _ in $(seq 1 50); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

revision() { curl -fsS "http://127.0.0.1:$1/v1/rules" | python3 -c 'import json, sys; print(json.load(sys.stdin)["revision"])'; }
before=$(revision "${ports[0]}")
[ "$before" = "$(revision "${ports[1]}")" ] || { echo "error: the replicas started on different revisions" >&2; exit 1; }

cat > "$work/authorize.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"get": "users/alice", "auth": {"uid": "alice"}, "documents": {"users/alice": {"displayName": "Alice"}}}'
LUA
wrk -t2 -c32 -d"$duration" -s "$work/authorize.lua" "$url/v1/policies/workout-tracker/corrected:authorize" > "$work/wrk.out" &
load=$!
sleep 5

# The change: a coach's note in a policy, a new revision for both replicas.
printf '\n// rolled at %s\n' "$(date -u +%FT%TZ)" >> "$work/rules/security/workout-tracker/corrected.rules"
start=$(date +%s.%N)
seen=0
for _ in $(seq 1 300); do
    a=$(revision "${ports[0]}"); b=$(revision "${ports[1]}")
    if [ "$a" != "$before" ] && [ "$a" = "$b" ]; then seen=1; break; fi
    sleep 0.05
done
end=$(date +%s.%N)
wait "$load"

requests=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
failed=$(awk '/Non-2xx or 3xx responses:/ { print $5 }' "$work/wrk.out")
socket_errors=$(grep -c "Socket errors" "$work/wrk.out" || true)
echo "replicas: 2 behind nginx, wrk -t2 -c32 -d$duration, authorize through nginx"
echo "requests: $requests, failed (non-2xx): ${failed:-0}, socket error lines: $socket_errors"
grep -E "Requests/sec|Socket errors" "$work/wrk.out" || true
if [ "$seen" = 1 ]; then
    printf 'revision %s -> %s on both replicas %.2f s after the edit (poll every %s s)\n' "$before" "$a" "$(echo "$end - $start" | bc -l)" "$poll"
else
    echo "error: the replicas did not both serve a new revision within 15 s" >&2
    exit 1
fi
[ "${failed:-0}" = 0 ] && [ "$socket_errors" = 0 ] || { echo "error: requests failed during the roll" >&2; exit 1; }
