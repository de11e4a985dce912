#!/usr/bin/env python3
"""Live documents against Google's Firestore emulator: `regimen serve` reading `get()`/`exists()`
documents from the emulator's REST API must decide exactly as Regimen decides with the same
documents as files.

    python3 scripts/emulator/live_documents.py [--regimen .build/debug/regimen] [--generated 2000]
                                              [--seed 1] [TEST_FILE ...]

For every Firestore test file of the security differential (rules/security/ and
Tests/RegimenSecurityTests/Conformance/, plus `--generated N` requests derived from them, as
`differential.py` makes them), the file's documents (and each case's own, when it has some) are
seeded into the emulator as the owner, and each case is sent to `POST /v1/policies/NAME:authorize`
of one `regimen serve` whose documents are live: `--firestore-url` the emulator,
`--firestore-credentials` a service-account key whose token comes from a local fake token
endpoint (this script's; it checks the JWT-bearer grant's shape and claims and answers the
emulator's owner token), cache off. Its decision and the statements its reason names must equal those of
`regimen test --format json --with-requests` on the same file (documents as files). Storage test files are
skipped (no Storage emulator here).

Exit status: 0 when every decision agrees (or the emulator is absent: SKIPPED), 1 on any
disagreement, 2 on a setup error. Standard library plus `openssl` (to make the service account's
RSA key); the emulator driver and `differential.py` beside this file.
"""

from __future__ import annotations

import argparse
import base64
import http.server
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

import differential  # noqa: E402  (beside this file)

SCOPE = "https://www.googleapis.com/auth/datastore"
CLIENT_EMAIL = "live-documents@regimen.iam.gserviceaccount.com"


class TokenEndpoint(http.server.ThreadingHTTPServer):
    """A stand-in for https://oauth2.googleapis.com/token: a JWT-bearer grant whose assertion is
    an RS256 JWT from the service account, for the datastore scope, addressed to this endpoint,
    gets the emulator's owner token. Anything else gets 400 and is counted as a refusal."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), TokenHandler)
        self.grants = 0
        self.refusals: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/token"


def b64json(part: str) -> dict:
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


class TokenHandler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        server: TokenEndpoint = self.server  # type: ignore[assignment]
        length = int(self.headers.get("Content-Length", "0"))
        form = urllib.parse.parse_qs(self.rfile.read(length).decode())
        problem = None
        try:
            if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
                problem = "grant_type"
            else:
                header, claims, signature = form["assertion"][0].split(".")
                h, c = b64json(header), b64json(claims)
                now = time.time()
                if h.get("alg") != "RS256" or not signature:
                    problem = f"header {h}"
                elif c.get("iss") != CLIENT_EMAIL or c.get("scope") != SCOPE or c.get("aud") != server.url:
                    problem = f"claims {c}"
                elif not (c.get("iat", 0) - 60 <= now <= c.get("exp", 0)):
                    problem = f"times {c}"
        except (KeyError, ValueError) as error:
            problem = f"unreadable grant: {error}"
        if problem:
            server.refusals.append(problem)
            body, status = b'{"error": "invalid_grant"}', 400
        else:
            server.grants += 1
            body, status = json.dumps({"access_token": "owner", "expires_in": 3599, "token_type": "Bearer"}).encode(), 200
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def body_yaml(request: dict) -> str:
    """An authorize body (YAML flow, typed tags) for one exported test-case request."""
    parts = [f"{request['op']}: {differential.yaml_value(differential.relative(request['path']))}"]
    if request.get("auth") is not None:
        parts.append(f"auth: {differential.yaml_value(request['auth'])}")
    if request.get("time"):
        parts.append(f"time: {differential.yaml_value(request['time'])}")
    if "data" in request:
        parts.append(f"data: {differential.yaml_value(request['data'])}")
    if "query" in request:
        q = dict(request["query"])
        query = {k: v for k, v in q.items() if k in ("where", "limit", "offset", "startAt", "startAfter", "endAt", "endBefore")}
        text = differential.yaml_value(query)
        if q.get("orderBy"):
            order = ", ".join(differential.yaml_value(f"{f} {d}") for f, d in q["orderBy"])
            text = text[:-1] + (", " if query else "") + f"orderBy: [{order}]}}"
        parts.append(f"query: {text}")
    return "{" + ", ".join(parts) + "}"


STATEMENT = re.compile(r"'(allow [^']*)' at \S*?:(\d+):(\d+)")


def statements(reason: str) -> list[str]:
    """The statements a reason names, in order (`allow read@62:7`), without the policy file's
    path (the served copy has another name), each once, and without the explanation `regimen
    test` adds to some of them (it also names a statement once per branch of an `in` query):
    what decided is the same statements, granted or not."""
    named = [f"{m.group(1)}@{m.group(2)}:{m.group(3)}" for m in STATEMENT.finditer(reason)]
    return list(dict.fromkeys(named))


def authorize(port: int, policy: str, body: str) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/policies/{policy}:authorize", data=body.encode(), method="POST",
        headers={"Content-Type": "application/yaml"})
    try:
        with urllib.request.urlopen(request, timeout=60) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return {"decision": f"HTTP {error.code}", "reason": error.read().decode(errors="replace")[:300]}


def wait_ready(port: int, proc: subprocess.Popen, log_path: str) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            with open(log_path, encoding="utf-8", errors="replace") as f:
                raise SystemExit(f"regimen serve exited with {proc.returncode}:\n{f.read()[-3000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("regimen serve was not ready within 120 s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="security test files (default: the differential's)")
    parser.add_argument("--regimen", default=os.path.join(ROOT, ".build", "debug", "regimen"))
    parser.add_argument("--generated", type=int, default=2000, help="random requests derived from the files (0 for none)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    try:
        import firestore_emulator as fe
    except ImportError:
        print("live documents: SKIPPED: the emulator driver firestore_emulator.py is not beside this script")
        return 0
    if not fe.Emulator.available():
        print("live documents: SKIPPED: the Firestore emulator is not installed on this machine")
        return 0
    if not os.path.exists(args.regimen):
        print(f"live documents: regimen binary not found at {args.regimen} (build it first)")
        return 2
    if not shutil.which("openssl"):
        print("live documents: openssl is needed to make the service account's key")
        return 2

    files = args.files or sorted(
        os.path.join(d, f)
        for base in (os.path.join(ROOT, "rules", "security"), os.path.join(ROOT, "Tests", "RegimenSecurityTests", "Conformance"))
        for d, _, fs in os.walk(base) for f in fs if f.endswith(".tests.yaml"))
    started = time.time()
    work = tempfile.mkdtemp(prefix="regimen-live-documents-")
    tokens = TokenEndpoint()
    threading.Thread(target=tokens.serve_forever, daemon=True).start()
    serve = None
    try:
        exported = [e for e in differential.regimen_decisions(args.regimen, files) if e["service"] == "cloud.firestore"]
        if args.generated > 0:
            generated_dir = os.path.join(work, "generated")
            os.makedirs(generated_dir)
            exported += differential.regimen_decisions(
                args.regimen, differential.generated_files(exported, args.generated, args.seed, generated_dir))
        # One policy per test file, named by its index: the served copies of the files' rules.
        policies = os.path.join(work, "policies")
        os.makedirs(policies)
        for index, entry in enumerate(exported):
            extension = os.path.splitext(entry["rules"])[1]
            shutil.copy(entry["rules"], os.path.join(policies, f"p{index}{extension}"))
        key = os.path.join(work, "key.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key], check=True, capture_output=True)
        account = os.path.join(work, "service-account.json")
        with open(key, encoding="ascii") as f, open(account, "w", encoding="utf-8") as out:
            json.dump({"type": "service_account", "project_id": "regimen", "private_key_id": "live-1", "private_key": f.read(),
                       "client_email": CLIENT_EMAIL, "token_uri": tokens.url}, out)

        with fe.Emulator() as emu:
            port = free_port()
            log_path = os.path.join(work, "serve.log")
            with open(log_path, "w", encoding="utf-8") as log:
                serve = subprocess.Popen(
                    [args.regimen, "serve", "--policies", policies, "--port", str(port), "--private-port", "-1", "--poll-interval", "0",
                     "--firestore-url", emu.base_url, "--firestore-credentials", account, "--firestore-project", emu.project,
                     "--firestore-cache-ttl", "0", "--log-level", "error"],
                    cwd=ROOT, stdout=log, stderr=log)
            wait_ready(port, serve, log_path)
            agree = disagree = 0
            report: list[str] = []
            for index, entry in enumerate(exported):
                base = {differential.relative(p): differential.to_driver(d, fe) for p, d in entry["documents"].items()}
                emu.clear()
                emu.seed(base)
                plain = [c for c in entry["cases"] if not c["documents"] and not c["removedDocuments"]]
                with ThreadPoolExecutor(max_workers=4) as pool:
                    answers = list(pool.map(lambda c: authorize(port, f"p{index}", body_yaml(c["request"])), plain))
                results = list(zip(plain, answers))
                for case in entry["cases"]:
                    if case in plain:
                        continue
                    docs = dict(base)
                    docs.update({differential.relative(p): differential.to_driver(d, fe) for p, d in case["documents"].items()})
                    for removed in case["removedDocuments"]:
                        docs.pop(differential.relative(removed), None)
                    emu.clear()
                    emu.seed(docs)
                    results.append((case, authorize(port, f"p{index}", body_yaml(case["request"]))))
                for case, answer in results:
                    ours = (case["actual"], statements(case["reason"]))
                    live = (answer.get("decision"), statements(str(answer.get("reason"))))
                    if ours == live:
                        agree += 1
                    else:
                        disagree += 1
                        report.append(
                            f"DISAGREE {entry['file']} :: {case['name']}\n"
                            f"  request: {body_yaml(case['request'])}\n"
                            f"  files:   {ours[0]} ({case['reason']})\n"
                            f"  live:    {live[0]} ({answer.get('reason')})")
    finally:
        if serve is not None:
            serve.terminate()
            try:
                serve.wait(timeout=30)
            except subprocess.TimeoutExpired:
                serve.kill()
        tokens.shutdown()
        shutil.rmtree(work, ignore_errors=True)

    elapsed = time.time() - started
    lines = report[:50] + ([f"... and {len(report) - 50} more"] if len(report) > 50 else [])
    lines.append(f"token endpoint: {tokens.grants} grants, {len(tokens.refusals)} refusals {tokens.refusals[:3]}")
    lines.append(f"live documents: {agree} agree, {disagree} disagree ({len(exported)} test files, {elapsed:.1f} s)")
    print("\n".join(lines))
    return 1 if disagree or tokens.refusals or tokens.grants == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
