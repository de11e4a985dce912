#!/usr/bin/env bash
# Checks the shipped deployment (deploy/): `regimen serve` started with the systemd unit's own
# arguments, nginx with the shipped server block in front of it. Through nginx, every private
# route (admin, the rules playground, the simulator: every /v1/admin/ and /v1/playground/ path
# of the private listener's /openapi.json) must answer 404, and the public API must answer
# (GET /v1/rules, POST /v1/plans). The private listener must be bound to loopback only.
# Usage: scripts/deploy-check.sh [BINARY]   (default .build/debug/regimen; needs nginx and curl:
# Debian `apt-get install -y nginx`)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-.build/debug/regimen}
command -v nginx >/dev/null || { echo "error: nginx is not installed (Debian: apt-get install -y nginx)" >&2; exit 2; }

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# The unit's ExecStart, with this machine's paths and a public port whose private port (1%i) is free.
while :; do
    port=$(( $(free_port) % 5000 + 2000 ))
    python3 -c "import socket, sys; [socket.socket().bind(('127.0.0.1', p)) for p in (int(sys.argv[1]), int('1' + sys.argv[1]))]" "$port" 2>/dev/null && break
done
exec_start=$(sed -n 's/^ExecStart=//p' deploy/regimen@.service)
echo "test-admin-token-0123456789" > "$work/token"
# The unit verifies ID tokens: a local key set and a token of its key stand in for Google's
# (scripts/dev-id-token.py signs with the `cryptography` package).
python3 -c 'import cryptography' 2>/dev/null || pip install -q cryptography
python3 scripts/dev-id-token.py "$work" deploy-user --project regimen-deploy-check > "$work/user.jwt"
args=$(echo "$exec_start" | sed -e "s|/usr/local/bin/regimen||" -e "s|/srv/regimen|$PWD|g" -e "s|/etc/regimen/admin-token|$work/token|" \
    -e "s|/etc/regimen/jwks.json|$work/jwks.json|" -e 's|${REGIMEN_FIREBASE_PROJECT}|regimen-deploy-check|' \
    -e "s|/var/log/regimen|$work|" -e "s|%i|$port|g")
# shellcheck disable=SC2086
"$bin" $args --poll-interval 0 2> "$work/serve.log" &
pids+=($!)
for _ in $(seq 1 300); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.1; done
private="http://127.0.0.1:1$port"
curl -fsS "$private/readyz" >/dev/null || { echo "error: the private listener is not on 127.0.0.1:1$port" >&2; exit 1; }

# The private listener is bound to loopback only.
if ss -ltnH 2>/dev/null | awk '{print $4}' | grep -E ":1$port\$" | grep -vE '^(127\.|\[::1\]|::1)' ; then
    echo "error: the private listener is bound beyond loopback" >&2; exit 1
fi

# nginx with the shipped server block, its upstream this replica.
front=$(free_port)
mkdir -p "$work/nginx"
server_block=$(sed -e '/^upstream regimen {/,/^}/d' -e "s/listen 127.0.0.1:8080;/listen 127.0.0.1:$front;/" deploy/nginx-regimen.conf)
cat > "$work/nginx.conf" <<CONF
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
worker_processes 1;
events { worker_connections 64; }
http {
    access_log off;
    client_body_temp_path $work/nginx;
    proxy_temp_path $work/nginx;
    upstream regimen { server 127.0.0.1:$port; keepalive 8; }
$server_block
}
CONF
nginx -c "$work/nginx.conf" -p "$work"
url="http://127.0.0.1:$front"
for _ in $(seq 1 50); do curl -fsS "$url/readyz" >/dev/null 2>&1 && break; sleep 0.1; done

# Every private operation of the private listener's document, through nginx: 404.
failures=0
checked=0
while read -r method path; do
    [ -n "$path" ] || continue
    checked=$((checked + 1))
    status=$(curl -s -o /dev/null -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' \
        -H 'Authorization: Bearer test-admin-token-0123456789' --data '{}' "$url$path?path=rules/nutrition.yaml")
    if [ "$status" != 404 ]; then
        echo "error: $method $path answered $status through nginx (expected 404)" >&2
        failures=$((failures + 1))
    fi
    direct=$(curl -s -o /dev/null -w '%{http_code}' -X "$method" -H 'Content-Type: application/json' \
        -H 'Authorization: Bearer test-admin-token-0123456789' --data '{}' "$private$path?path=rules/nutrition.yaml")
    if [ "$direct" = 404 ]; then
        echo "error: $method $path is 404 on the private listener too: the check would prove nothing" >&2
        failures=$((failures + 1))
    fi
done < <(curl -fsS "$private/openapi.json" | python3 -c '
import json, sys
for path, operations in json.load(sys.stdin)["paths"].items():
    if path.startswith(("/v1/admin/", "/v1/playground/")):
        for method in operations:
            print(method.upper(), path)
')
[ "$checked" -ge 8 ] || { echo "error: only $checked private operations found in the document" >&2; exit 1; }

# The public API answers through nginx.
[ "$(curl -s -o /dev/null -w '%{http_code}' "$url/v1/rules")" = 200 ] || { echo "error: GET /v1/rules did not answer 200 through nginx" >&2; failures=$((failures + 1)); }
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/yaml' --data-binary @examples/minimal.yaml "$url/v1/plans")" = 200 ] \
    || { echo "error: POST /v1/plans did not answer 200 through nginx" >&2; failures=$((failures + 1)); }
# Through nginx, request.auth is the verified ID token's: a body's claim is refused, the token counts.
authorize="$url/v1/policies/workout-tracker/corrected:authorize"
[ "$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
    --data '{"delete": "users/alice/programs/p1", "auth": {"uid": "mallory", "token": {"admin": true}}}' "$authorize")" = 400 ] \
    || { echo "error: a body's auth was not refused through nginx" >&2; failures=$((failures + 1)); }
curl -fsS -H 'Content-Type: application/json' -H "Authorization: Bearer $(cat "$work/user.jwt")" --data '{"get": "users/deploy-user"}' "$authorize" \
    | grep -q '"allowed" : true' || { echo "error: a verified ID token did not reach the rules through nginx" >&2; failures=$((failures + 1)); }
playground=$(curl -fsS "$url/v1/rules" | python3 -c 'import json, sys; print(json.load(sys.stdin)["playground"])')
[ "$playground" = False ] || { echo "error: the page behind nginx offers the playground" >&2; failures=$((failures + 1)); }

if [ "$failures" -gt 0 ]; then exit 1; fi
echo "deploy check: $checked private operations unreachable through nginx (404), reachable on the loopback private listener; public API answers; identity verified"
