#!/usr/bin/env python3
"""Every route's responses against /openapi.json, with a real validator.

Starts `regimen serve` twice (a normal one, and one whose time budget rounds to zero so every
heavy route answers 503 before it starts, whatever the machine's speed), sends each documented operation requests that produce its success answer and its
error answers (400 unreadable, 413 too large, 415 wrong type, 422 contract, 404, 401/403/409 for
admin, 503), and checks every answer:
  - its status is documented for the operation;
  - its body validates (openapi-schema-validator, OpenAPI 3.1) against the schema documented
    for that status and content type;
  - it carries X-Content-Type-Options: nosniff and Cache-Control: no-store.
Fails unless every operation's 200 was produced, and a 503 for every heavy route (sent a request
it would otherwise answer 200, over a zero time budget). Prints the (operation, status)
coverage.
Usage: scripts/contract-check.py [--regimen .build/debug/regimen]
"""
import argparse
import copy
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from openapi_schema_validator import OAS31Validator

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "contract-check-token-0123456789"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start(regimen, work, *extra):
    port = free_port()
    log = open(work / f"serve-{port}.log", "w")
    process = subprocess.Popen(
        [regimen, "serve", "--port", "0", "--private-port", str(port), "--poll-interval", "0", "--log-level", "warning",
         "--admin-token-file", str(work / "token"), "--panel", str(work / "panel"), *extra],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, "REGIMEN_ADMIN_TOKEN": ""})
    for _ in range(600):
        if process.poll() is not None:
            sys.exit(f"error: regimen serve exited with {process.returncode}")
        try:
            if request(port, "GET", "/readyz")[0] == 200:
                return process, port
        except OSError:
            time.sleep(0.1)
    sys.exit("error: regimen serve did not start")


def request(port, method, path, body=None, content_type="application/json", headers=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    all_headers = dict(headers or {})
    if body is not None:
        all_headers.setdefault("Content-Type", content_type)
    connection.request(method, path, body=body, headers=all_headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), data


def read(path):
    return (ROOT / path).read_bytes()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--regimen", default=str(ROOT / ".build/debug/regimen"))
    regimen = parser.parse_args().regimen
    work = Path(tempfile.mkdtemp())
    (work / "token").write_text(TOKEN + "\n")
    (work / "panel").mkdir()
    for name in sorted(os.listdir(ROOT / "examples/panel"))[:4]:
        shutil.copy(ROOT / "examples/panel" / name, work / "panel" / name)
    processes = []
    try:
        normal, port = start(regimen, work)
        processes.append(normal)
        # Below a millisecond the budget is zero: heavy work is refused (503) before it starts.
        hurried, hurried_port = start(regimen, work, "--time-budget", "0.0004")
        processes.append(hurried)
        failures = check(port, hurried_port)
    finally:
        for process in processes:
            process.terminate()
            process.wait()
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(1 if failures else 0)


def check(port, hurried_port):
    document = json.loads(request(port, "GET", "/openapi.json")[2])
    components = document["components"]

    def schema_for(operation, status, content_type):
        responses = operation["responses"]
        answer = responses.get(str(status)) or responses.get("default")
        if answer is None:
            return None, "undocumented status"
        content = answer.get("content", {})
        media = content.get(content_type.split(";")[0].strip())
        if media is None:
            return None, f"undocumented content type {content_type} (documented: {sorted(content)})"
        schema = copy.deepcopy(media["schema"])
        schema["components"] = components
        return schema, None

    minimal, complete = read("examples/minimal.yaml"), read("examples/complete.yaml")
    profile = json.dumps({"sex": "female", "goal": "fat_loss", "schedule_days": 3, "equipment": "full_gym",
                          "age_range": "25-34", "height_cm": 165, "weight_kg": 70})
    status, _, plan = request(port, "POST", "/v1/plans", minimal, "application/yaml")
    plan = json.loads(plan)
    adapt = json.dumps({"current_plan": plan, "readiness": {"sleep_h": 5, "soreness": {"legs": 5}, "stress": 4, "motivation": 2},
                        "weight_trend_2w": "above"})
    program = read("examples/tracker/program.json")
    nutrition_text = read("rules/nutrition.yaml").decode()
    edit = json.dumps({"path": "rules/nutrition.yaml", "text": nutrition_text})
    broken_edit = json.dumps({"path": "rules/nutrition.yaml", "text": nutrition_text + "\nbroken: [\n"})
    policy_tests = read("rules/security/workout-tracker/corrected.tests.yaml")
    one = json.dumps({"get": "users/alice", "auth": {"uid": "alice"}})
    too_large = b"[" + b" " * (1 << 20) + b"]"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    simulator = json.dumps({"policy": "workout-tracker/corrected", "method": "get", "path": "users/alice", "auth": {"uid": "alice"}})
    simulator_tests = json.dumps({"policy": "workout-tracker/corrected", "tests": policy_tests.decode()})

    # (operation path as documented, method, request path, body, content type, headers, server)
    cases = []

    def case(documented, method, path, body=None, content_type="application/json", headers=None, server=port):
        cases.append((documented, method, path, body, content_type, headers, server))

    heavy = set()  # the routes whose work runs on the budgeted executor

    def body_errors(documented, path, good=b"{}", good_type="application/json"):
        case(documented, "POST", path, b"{", "application/json")
        case(documented, "POST", path, b"{}", "text/plain")
        case(documented, "POST", path, too_large, "application/json")
        # A request the route would answer with 200: over the budget it is 503.
        case(documented, "POST", path, good, good_type, server=hurried_port)
        heavy.add(documented)

    for path in ["/v1/indexes", "/v1/plans", "/v1/nutrition", "/v1/supplements"]:
        case(path, "POST", path, minimal, "application/yaml")
        case(path, "POST", path, complete, "application/yaml")
        case(path, "POST", path, profile)
        case(path, "POST", path, json.dumps({"sex": "robot"}))
        body_errors(path, path, profile)
    case("/v1/plans", "POST", "/v1/plans?split=nonexistent", minimal, "application/yaml")
    case("/v1/adapt", "POST", "/v1/adapt", adapt)
    # Adapt's own answer, adapted again: the contract says its response is a plan it accepts.
    status, _, adapted = request(port, "POST", "/v1/adapt", adapt.encode())
    case("/v1/adapt", "POST", "/v1/adapt", json.dumps({**json.loads(adapt), "current_plan": json.loads(adapted)}))
    own_answer = ("/v1/adapt", "POST", json.dumps({**json.loads(adapt), "current_plan": json.loads(adapted)}))
    case("/v1/adapt", "POST", "/v1/adapt", json.dumps({"current_plan": {}}))
    body_errors("/v1/adapt", "/v1/adapt", adapt)
    case("/v1/diff", "POST", "/v1/diff", json.dumps({"old": json.loads(profile), "new": {**json.loads(profile), "weight_kg": 80}}))
    case("/v1/diff", "POST", "/v1/diff", json.dumps({"old": {}}))
    body_errors("/v1/diff", "/v1/diff", json.dumps({"old": json.loads(profile), "new": {**json.loads(profile), "weight_kg": 80}}))
    for path in ["/v1/tracker/validate", "/v1/tracker/export", "/v1/tracker/analytics"]:
        case(path, "POST", path, program)
        case(path, "POST", path, json.dumps({"programs": "x"}))
        body_errors(path, path, program)
    case("/v1/tracker/export", "POST", "/v1/tracker/export?to=csv", program)
    program_id = next(iter(json.loads(program).get("programs", [{}])), {}).get("id", "p1") if isinstance(json.loads(program).get("programs"), list) else "p1"
    case("/v1/tracker/duplicate", "POST", f"/v1/tracker/duplicate?program={program_id}&now=2026-02-04T12:00:00Z&seed=7", program)
    case("/v1/tracker/duplicate", "POST", "/v1/tracker/duplicate?program=missing", program)
    case("/v1/tracker/duplicate", "POST", "/v1/tracker/duplicate", program)
    case("/v1/tracker/duplicate", "POST", f"/v1/tracker/duplicate?program={program_id}&user=someone-else", program)
    body_errors("/v1/tracker/duplicate", f"/v1/tracker/duplicate?program={program_id}&now=2026-02-04T12:00:00Z&seed=7", program)
    case("/v1/progress", "POST", "/v1/progress?now=2026-02-04T12:00:00Z", read("examples/tracker/completion-log.json"))
    case("/v1/progress", "POST", "/v1/progress?today=x", read("examples/tracker/completion-log.json"))
    body_errors("/v1/progress", "/v1/progress?now=2026-02-04T12:00:00Z", read("examples/tracker/completion-log.json"))
    case("/v1/daily-log", "POST", "/v1/daily-log?now=2026-02-04T12:00:00Z", read("examples/tracker/daily-log.yaml"), "application/yaml")
    case("/v1/daily-log", "POST", "/v1/daily-log?tz=Nowhere/Else", read("examples/tracker/daily-log.yaml"), "application/yaml")
    body_errors("/v1/daily-log", "/v1/daily-log?now=2026-02-04T12:00:00Z", read("examples/tracker/daily-log.yaml"), "application/yaml")
    case("/v1/burn", "GET", "/v1/burn?activity=running&minutes=30&intensity=moderate&weight=70")
    case("/v1/burn", "GET", "/v1/burn?activity=running")
    case("/v1/periodize", "GET", "/v1/periodize?weeks=8&goal=strength")
    case("/v1/periodize", "GET", "/v1/periodize?weeks=x&goal=strength")
    case("/v1/policies", "GET", "/v1/policies")
    authorize, test = "/v1/policies/{name}:authorize", "/v1/policies/{name}:test"
    case(authorize, "POST", "/v1/policies/workout-tracker/corrected:authorize", one)
    case(authorize, "POST", "/v1/policies/workout-tracker/corrected:authorize?explain=true", json.dumps([json.loads(one)] * 3))
    case(authorize, "POST", "/v1/policies/workout-tracker/corrected:authorize", json.dumps({"get": 5}))
    case(authorize, "POST", "/v1/policies/no-such-policy:authorize", one)
    # An ID token this service cannot verify (it was started without --id-token-jwks): 401.
    case(authorize, "POST", "/v1/policies/workout-tracker/corrected:authorize", one, headers={"Authorization": "Bearer not.a.token"})
    body_errors(authorize, "/v1/policies/workout-tracker/corrected:authorize", one)
    case(authorize, "POST", "/v1/policies/workout-tracker/corrected:authorize", json.dumps([json.loads(one)] * 400), server=hurried_port)
    case(test, "POST", "/v1/policies/workout-tracker/corrected:test", policy_tests, "application/yaml")
    case(test, "POST", "/v1/policies/workout-tracker/corrected:test?format=junit", policy_tests, "application/yaml")
    case(test, "POST", "/v1/policies/workout-tracker/corrected:test", json.dumps({"kind": "security_tests", "cases": [{}]}))
    case(test, "POST", "/v1/policies/no-such-policy:test", policy_tests, "application/yaml")
    body_errors(test, "/v1/policies/workout-tracker/corrected:test", policy_tests, "application/yaml")
    case("/v1/rules", "GET", "/v1/rules")
    case("/v1/playground/file", "GET", "/v1/playground/file?path=rules/nutrition.yaml")
    case("/v1/playground/file", "GET", "/v1/playground/file?path=rules/none.yaml")
    case("/v1/playground/file", "GET", "/v1/playground/file")
    case("/v1/playground/check", "POST", "/v1/playground/check", edit)
    case("/v1/playground/check", "POST", "/v1/playground/check", broken_edit)
    case("/v1/playground/check", "POST", "/v1/playground/check", json.dumps({"path": "rules/none.yaml", "text": ""}))
    body_errors("/v1/playground/check", "/v1/playground/check", edit)
    case("/v1/playground/plan", "POST", "/v1/playground/plan", json.dumps({**json.loads(edit), "profile": json.loads(profile)}))
    case("/v1/playground/plan", "POST", "/v1/playground/plan", json.dumps({**json.loads(edit), "client": "nobody.yaml"}))
    case("/v1/playground/plan", "POST", "/v1/playground/plan", json.dumps({**json.loads(edit)}))
    body_errors("/v1/playground/plan", "/v1/playground/plan", json.dumps({**json.loads(edit), "profile": json.loads(profile)}))
    case("/v1/playground/impact", "POST", "/v1/playground/impact", edit)
    case("/v1/playground/impact", "POST", "/v1/playground/impact", broken_edit)
    case("/v1/playground/impact", "POST", "/v1/playground/impact", json.dumps({"path": "rules/none.yaml", "text": ""}))
    body_errors("/v1/playground/impact", "/v1/playground/impact", edit)
    case("/v1/playground/panel", "GET", "/v1/playground/panel")
    case("/v1/playground/simulator/decide", "POST", "/v1/playground/simulator/decide", simulator)
    case("/v1/playground/simulator/decide", "POST", "/v1/playground/simulator/decide", json.dumps({"policy": "none"}))
    case("/v1/playground/simulator/decide", "POST", "/v1/playground/simulator/decide", json.dumps({"bogus": 1}))
    body_errors("/v1/playground/simulator/decide", "/v1/playground/simulator/decide", simulator)
    case("/v1/playground/simulator/test", "POST", "/v1/playground/simulator/test", simulator_tests)
    case("/v1/playground/simulator/test", "POST", "/v1/playground/simulator/test", json.dumps({"policy": "workout-tracker/corrected"}))
    body_errors("/v1/playground/simulator/test", "/v1/playground/simulator/test", simulator_tests)
    # The simulator's analysis (issue 37; CI installs z3 before this step): a query of a served
    # policy, and the served policy compared with its own text (every pair equivalent).
    prove = json.dumps({"policy": "workout-tracker/corrected", "scope": "delete /users/{userId}", "query": "always-denies"})
    with open("rules/security/workout-tracker/corrected.rules", encoding="utf-8") as served:
        compare = json.dumps({"policy": "workout-tracker/corrected", "policyText": served.read()})
    case("/v1/playground/simulator/prove", "POST", "/v1/playground/simulator/prove", prove)
    case("/v1/playground/simulator/prove", "POST", "/v1/playground/simulator/prove", json.dumps({"policy": "workout-tracker/corrected", "scope": "nope"}))
    case("/v1/playground/simulator/prove", "POST", "/v1/playground/simulator/prove", json.dumps({"policy": "none", "scope": "get /a", "query": "always-allows"}))
    body_errors("/v1/playground/simulator/prove", "/v1/playground/simulator/prove", prove)
    case("/v1/playground/simulator/compare", "POST", "/v1/playground/simulator/compare", compare)
    case("/v1/playground/simulator/compare", "POST", "/v1/playground/simulator/compare", json.dumps({"policy": "workout-tracker/corrected"}))
    case("/v1/playground/simulator/compare", "POST", "/v1/playground/simulator/compare", json.dumps({"policy": "none", "policyText": "x"}))
    body_errors("/v1/playground/simulator/compare", "/v1/playground/simulator/compare", compare)
    case("/v1/admin/reload", "POST", "/v1/admin/reload", headers=auth)
    case("/v1/admin/reload", "POST", "/v1/admin/reload?allow-row-loss=maybe", headers=auth)
    case("/v1/admin/reload", "POST", "/v1/admin/reload")
    case("/v1/admin/reload", "POST", "/v1/admin/reload", headers={"Authorization": "Bearer wrong-token-0123456789"})
    case("/healthz", "GET", "/healthz")
    case("/readyz", "GET", "/readyz")
    case("/metrics", "GET", "/metrics")
    case("/openapi.json", "GET", "/openapi.json")

    failures, covered = [], set()
    status, _, data = request(port, own_answer[1], own_answer[0], own_answer[2].encode())
    if status != 200:
        failures.append(f"POST /v1/adapt with adapt's own response as the plan → {status}: {data[:200]!r}")
    for documented, method, path, body, content_type, headers, server in cases:
        operation = document["paths"].get(documented, {}).get(method.lower())
        if operation is None:
            failures.append(f"{method} {documented}: not in the document")
            continue
        body_bytes = body.encode() if isinstance(body, str) else body
        try:
            status, response_headers, data = request(server, method, path, body_bytes, content_type, headers)
        except OSError as error:
            failures.append(f"{method} {path}: no answer ({error})")
            continue
        covered.add((method, documented, status))
        where = f"{method} {path} → {status}"
        lowered = {k.lower(): v for k, v in response_headers.items()}
        if lowered.get("x-content-type-options") != "nosniff":
            failures.append(f"{where}: no X-Content-Type-Options: nosniff")
        if lowered.get("cache-control") != "no-store":
            failures.append(f"{where}: Cache-Control is {lowered.get('cache-control')!r}, not no-store")
        received_type = lowered.get("content-type", "")
        schema, problem = schema_for(operation, status, received_type)
        if problem:
            failures.append(f"{where}: {problem}")
            continue
        if received_type.startswith("application/json"):
            try:
                value = json.loads(data)
            except ValueError as error:
                failures.append(f"{where}: the body is not JSON: {error}")
                continue
            errors = sorted(OAS31Validator(schema).iter_errors(value), key=lambda e: list(e.absolute_path))
            for error in errors[:3]:
                failures.append(f"{where}: {'/'.join(map(str, error.absolute_path)) or '<body>'}: {error.message[:200]}")

    # Every documented operation's success was produced; and the error statuses each case list aims at.
    for documented, operations in document["paths"].items():
        for method in operations:
            if (method.upper(), documented, 200) not in covered:
                failures.append(f"{method.upper()} {documented}: no 200 produced")
    # Every heavy route answers a good request over its budget with 503.
    for documented in sorted(heavy):
        if ("POST", documented, 503) not in covered:
            failures.append(f"POST {documented}: no 503 over the time budget")
    statuses = {}
    for method, documented, status in covered:
        statuses.setdefault(f"{method} {documented}", set()).add(status)
    for operation in sorted(statuses):
        print(f"{operation}: {', '.join(map(str, sorted(statuses[operation])))}")
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    print(f"contract check: {len(cases)} requests, {len(covered)} (operation, status) pairs, {len(failures)} failures")
    return failures


if __name__ == "__main__":
    main()
