#!/usr/bin/env python3
"""Differential check of Regimen's security decisions against Google's Firestore emulator.

Sends the same rules, stored documents and requests to the emulator (documents seeded with the
`owner` bearer token, which bypasses rules; requests signed with unsigned mock ID tokens carrying
each case's claims) and to Regimen (`regimen test --format json --with-requests`), and reports
every disagreement.

    python3 scripts/emulator/differential.py [--regimen .build/debug/regimen] [--generated 10000]
                                            [--seed 1] [--report FILE] [TEST_FILE ...]

Without test files it checks every Firestore test file under rules/security/ and
Tests/RegimenSecurityTests/Conformance/ and, with
--generated N, N random requests derived from them: random auth and claims, paths that match
and almost match, valid and mutated data (missing fields, wrong types, out-of-range values),
and list queries with and without the constraints the rules need. Storage test files are
skipped: the Storage emulator is not part of this machine's emulator package.

Exit status: 0 when every decision agrees (or the emulator is absent: then it says SKIPPED),
1 on any disagreement, 2 on a usage or setup error. Standard library only, plus the emulator
driver `firestore_emulator.py` beside this file.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

PREFIX = "/databases/(default)/documents/"


def regimen_decisions(regimen: str, files: list[str]) -> list[dict]:
    """Runs `regimen test` on `files` and returns its typed JSON (one entry per file)."""
    proc = subprocess.run([regimen, "test", "--format", "json", "--with-requests", *files], capture_output=True, text=True)
    if proc.returncode == 2:
        raise SystemExit(f"regimen could not load the test files:\n{proc.stderr}")
    return json.loads(proc.stdout)


def native_rules(regimen: str, rules_file: str) -> str:
    """The policy as native .rules text (YAML policies are converted by Regimen)."""
    if rules_file.endswith((".yaml", ".yml")):
        proc = subprocess.run([regimen, "rules", "convert", rules_file], capture_output=True, text=True)
        if proc.returncode != 0:
            raise SystemExit(f"cannot convert {rules_file}:\n{proc.stderr}")
        return proc.stdout
    with open(rules_file, encoding="utf-8") as f:
        return f.read()


# ---------------------------------------------------------------------------------------------
# Typed JSON (Regimen's export) -> emulator driver values
# ---------------------------------------------------------------------------------------------


def to_driver(value: Any, fe) -> Any:
    if isinstance(value, dict):
        if len(value) == 1:
            (tag, inner), = value.items()
            if tag == "$timestamp":
                return fe.Timestamp.parse(inner)
            if tag == "$float":
                return float(inner)
            if tag == "$path":
                return fe.Reference(inner[len(PREFIX):] if inner.startswith(PREFIX) else inner.lstrip("/"))
            if tag == "$serverTimestamp":
                return fe.SERVER_TIMESTAMP
            if tag == "$delete":
                return fe.DELETE_FIELD
        return {k: to_driver(v, fe) for k, v in value.items()}
    if isinstance(value, list):
        return [to_driver(v, fe) for v in value]
    return value


def relative(path: str) -> str:
    return path[len(PREFIX):] if path.startswith(PREFIX) else path.lstrip("/")


# The test format's cursor keys -> the driver's list() arguments.
CURSORS = {"startAt": "start_at", "startAfter": "start_after", "endAt": "end_at", "endBefore": "end_before"}


def emulator_decision(emu, fe, request: dict):
    auth = None
    if request["auth"] is not None:
        auth = fe.Auth(request["auth"]["uid"], to_driver(request["auth"].get("token", {}), fe))
    path = relative(request["path"])
    op = request["op"]
    if op == "get":
        return emu.get(path, auth=auth)
    if op == "list":
        q = request.get("query", {})
        where = [(f, o, to_driver(v, fe)) for f, o, v in q.get("where", [])]
        order = [(f, d) for f, d in q.get("orderBy", [])]
        cursors = {name: [to_driver(v, fe) for v in q[key]] for key, name in CURSORS.items() if key in q}
        return emu.list(path, where=where, order_by=order, limit=q.get("limit"), offset=q.get("offset"), auth=auth, **cursors)
    data = to_driver(request.get("data", {}), fe)
    if op == "create":
        return emu.create(path, data, auth=auth)
    if op == "update":
        return emu.update(path, data, auth=auth)
    if op == "set":
        return emu.set(path, data, auth=auth)
    if op == "delete":
        return emu.delete(path, auth=auth)
    raise ValueError(f"operation {op} cannot be sent to the Firestore emulator")


# ---------------------------------------------------------------------------------------------
# Generated requests
# ---------------------------------------------------------------------------------------------


def yaml_value(value: Any) -> str:
    """Typed JSON -> one YAML flow value Regimen reads back with the same type."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"!float '{value!r}'"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, list):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if len(value) == 1:
            (tag, inner), = value.items()
            if tag == "$timestamp":
                return f"!timestamp '{inner}'"
            if tag == "$float":
                return f"!float '{float(inner)!r}'"
            if tag == "$path":
                return f"!path '{inner}'"
            if tag == "$serverTimestamp":
                return "!serverTimestamp ''"
            if tag == "$delete":
                return "!delete ''"
        return "{" + ", ".join(f"{yaml_value(str(k))}: {yaml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(type(value))


def is_typed(value: Any) -> bool:
    """A typed JSON value ({"$timestamp": ...}), not a map."""
    return isinstance(value, dict) and len(value) == 1 and next(iter(value)).startswith("$")


def numeric_twin(value: Any) -> Any:
    """`value` with every int written as a float and every whole float as an int, at any depth."""
    if isinstance(value, bool) or is_typed(value):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, float):
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(value, list):
        return [numeric_twin(v) for v in value]
    if isinstance(value, dict):
        return {k: numeric_twin(v) for k, v in value.items()}
    return value


class Generator:
    """Random requests derived from one test file's documents, paths, auths and writes."""

    def __init__(self, exported: dict, rng: random.Random):
        self.rng = rng
        self.documents = exported["documents"]
        cases = exported["cases"]
        self.auths = [c["request"]["auth"] for c in cases] + [None]
        self.doc_paths = sorted(set(relative(p) for p in self.documents) | {relative(c["request"]["path"]) for c in cases if c["request"]["op"] != "list"})
        self.collections = sorted({p.rsplit("/", 1)[0] for p in self.doc_paths} | {relative(c["request"]["path"]) for c in cases if c["request"]["op"] == "list"})
        self.templates = [v for v in self.documents.values()] + [c["request"]["data"] for c in cases if "data" in c["request"]]
        self.queries = [c["request"]["query"] for c in cases if c["request"]["op"] == "list"]
        self.uids = sorted({a["uid"] for a in self.auths if a} | {s for p in self.doc_paths for s in p.split("/")[1::2]})
        self.field_values = {}
        for t in self.templates:
            for k, v in t.items():
                self.field_values.setdefault(k, []).append(v)

    def auth(self):
        r = self.rng.random()
        base = self.rng.choice(self.auths)
        if r < 0.6 or base is None:
            return copy.deepcopy(base)
        auth = copy.deepcopy(base)
        token = auth.setdefault("token", {})
        choice = self.rng.randrange(5)
        if choice == 0:
            auth["uid"] = self.rng.choice(self.uids + ["mallory"])
        elif choice == 1 and token:
            token.pop(self.rng.choice(list(token)))
        elif choice == 2:
            token[self.rng.choice(["admin", "role", "gymId", "gymIds"])] = self.rng.choice([True, False, "true", 1, "admin", "trainer", "member", "gymOwner", "g1", ["g1"], None])
        elif choice == 3 and token:
            k = self.rng.choice(list(token))
            token[k] = self.mutate_value(token[k], sentinels=False)
        return auth

    def path(self, collection: bool = False):
        if collection:
            p = self.rng.choice(self.collections)
        else:
            p = self.rng.choice(self.doc_paths)
            if self.rng.random() < 0.3:
                p = p.rsplit("/", 1)[0] + "/" + self.rng.choice(["new1", "x", "2024-01-01", "zz"])
        if self.rng.random() < 0.15:
            segments = p.split("/")
            i = self.rng.randrange(len(segments))
            segments[i] = self.rng.choice([segments[i] + "s", segments[i][:-1] or "a", segments[i].upper(), "other"])
            p = "/".join(segments)
        if self.rng.random() < 0.05:
            p = p + ("/sub/doc" if not collection else "/doc/sub")
        return p

    def mutate_value(self, v, sentinels: bool = True):
        if sentinels and self.rng.random() < 0.12:
            # The stored value with ints and floats swapped inside lists and maps (and a list or
            # map of mixed numbers), for diff(): Firestore compares stored values numerically.
            return numeric_twin(v) if isinstance(v, (list, dict)) and not is_typed(v) else self.rng.choice([[1, 2.0], {"k": 1.0, "j": [2, 3.0]}, [1.0] if is_typed(v) else [v, 1.0]])
        choice = self.rng.randrange(9 if sentinels else 6)
        if choice == 0:
            return None
        if choice == 1:
            return str(v) if not isinstance(v, str) else len(v)
        if choice == 2:
            return self.rng.choice([-1, 0, 1, 5, 7, 100, 101, 251, 3001, 10**6])
        if choice == 3:
            return self.rng.choice([-0.5, 0.5, 16.7, 2.5e3])
        if choice == 4:
            return self.rng.choice(["", "x" * 120, "active", "adequate", "strength", "male", "alice", "t1", "s1"])
        if choice == 5:
            # Sentinels are not allowed inside arrays (the SDKs reject them before sending).
            return [v] if not (isinstance(v, dict) and len(v) == 1 and next(iter(v)).startswith("$")) else [1]
        if choice == 6:
            return {"$serverTimestamp": True}
        if choice == 7:
            return {"$timestamp": self.rng.choice(["2020-01-01T00:00:00Z", "2026-02-10T09:00:00Z"])}
        return self.rng.choice([True, False])

    def data(self, for_update: bool):
        if not self.templates:
            return {}
        d = copy.deepcopy(self.rng.choice(self.templates))
        for _ in range(self.rng.choice([0, 0, 1, 1, 2, 3])):
            keys = list(d)
            action = self.rng.randrange(4)
            if action == 0 and keys:
                d.pop(self.rng.choice(keys))
            elif action == 1 and keys:
                k = self.rng.choice(keys)
                d[k] = self.mutate_value(d[k])
            elif action == 2:
                k = self.rng.choice(list(self.field_values) or ["extra"])
                d[k] = copy.deepcopy(self.rng.choice(self.field_values.get(k, [1])))
            else:
                d[self.rng.choice(["extra", "isAdmin", "role", "userId", "trainerId"])] = self.mutate_value("x")
        if for_update and self.rng.random() < 0.5 and d:
            keep = self.rng.sample(list(d), k=max(1, len(d) // 3))
            d = {k: d[k] for k in keep}
        return d

    def query(self):
        q = copy.deepcopy(self.rng.choice(self.queries)) if self.queries and self.rng.random() < 0.6 else {"where": []}
        where = q.get("where", [])
        r = self.rng.random()
        if r < 0.25 and where:
            where.pop(self.rng.randrange(len(where)))
        elif r < 0.5 and self.field_values:
            field = self.rng.choice(sorted(self.field_values))
            value = self.rng.choice(self.field_values[field])
            if isinstance(value, (dict, list)):
                value = "x"
            op = self.rng.choice(["==", "==", "in", ">", "<", "!="])
            other = self.mutate_value(value, sentinels=False)
            if isinstance(other, (dict, list)) or other is None:
                other = 1
            where.append([field, op, [value, other] if op == "in" else value])
        elif r < 0.7 and self.uids:
            field = self.rng.choice(["userId", "trainerId", "studentId", "author"])
            where.append([field, "==", self.rng.choice(self.uids)])
        q["where"] = where
        if self.rng.random() < 0.3:
            q["limit"] = self.rng.choice([1, 10, 50])
        q.pop("orderBy", None)
        return q

    def case(self, name: str) -> str:
        op = self.rng.choice(["get", "get", "list", "create", "update", "set", "delete"])
        auth = self.auth()
        lines = [f"  - name: {yaml_value(name)}", "    expect: allow"]
        if auth is not None:
            lines.append(f"    auth: {yaml_value(auth)}")
        if op == "list":
            lines.append(f"    list: {yaml_value(self.path(collection=True))}")
            q = self.query()
            clean = {k: v for k, v in q.items() if k in ("limit", "where") and v not in (None, [])}
            if clean:
                lines.append(f"    query: {yaml_value(clean)}")
        else:
            lines.append(f"    {op}: {yaml_value(self.path())}")
            if op in ("create", "update", "set"):
                data = self.data(for_update=(op == "update"))
                if op != "update":
                    data = {k: v for k, v in data.items() if v != {"$delete": True}}
                lines.append(f"    data: {yaml_value(data)}")
        return "\n".join(lines)


def generated_files(exported: list[dict], count: int, seed: int, directory: str) -> list[str]:
    rng = random.Random(seed)
    per_file = max(1, count // max(1, len(exported)))
    files = []
    for index, entry in enumerate(exported):
        gen = Generator(entry, rng)
        docs = ", ".join(f"{yaml_value(relative(p))}: {yaml_value(d)}" for p, d in sorted(entry["documents"].items()))
        body = [
            "kind: security_tests",
            "version: 1",
            f"rules: {yaml_value(os.path.abspath(entry['rules']))}",
            f"documents: {{{docs}}}",
            "cases:",
        ]
        body += [gen.case(f"generated {index}-{i}") for i in range(per_file)]
        path = os.path.join(directory, f"generated-{index}.tests.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(body) + "\n")
        files.append(path)
    return files


# ---------------------------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------------------------


def compare(case: dict, decision, entry: dict, label: str, report: list[str]) -> bool:
    """Records a disagreement; returns whether the emulator allowed the request."""
    if isinstance(decision, ValueError):
        emulator_allowed, detail = False, f"client-side rejection: {decision}"
    else:
        emulator_allowed = decision.allowed is True
        detail = f"{decision.status} {decision.message or ''}".strip()
    ours = case["actual"] == "allow"
    if ours != emulator_allowed:
        report.append(
            f"DISAGREE [{label}] {entry['file']} :: {case['name']}\n"
            f"  request:  {json.dumps(case['request'], sort_keys=True)}\n"
            f"  regimen:  {case['actual']} ({case['reason']})\n"
            f"  emulator: {'allow' if emulator_allowed else 'deny'} ({detail})")
    return emulator_allowed


def replay(emu, fe, regimen: str, exported: list[dict], label: str, report: list[str]) -> tuple[int, int, int]:
    """Replays every case; reads run concurrently against the seeded documents, writes one at a
    time, each allowed write undone by re-seeding the document it touched."""
    agree = disagree = skipped = 0
    allowed_count = 0

    def safe(request):
        try:
            return emulator_decision(emu, fe, request)
        except (ValueError, TypeError) as error:
            return ValueError(str(error))

    def tally(case, decision):
        nonlocal agree, disagree, allowed_count
        before = len(report)
        allowed = compare(case, decision, entry, label, report)
        allowed_count += 1 if allowed else 0
        if len(report) == before:
            agree += 1
        else:
            disagree += 1
        return allowed

    for entry in exported:
        if entry["service"] != "cloud.firestore":
            skipped += len(entry["cases"])
            report.append(f"skipped {entry['file']}: Storage rules (no Storage emulator on this machine)")
            continue
        emu.load_rules(native_rules(regimen, entry["rules"]))
        base = {relative(p): to_driver(d, fe) for p, d in entry["documents"].items()}
        emu.clear()
        emu.seed(base)
        plain = [c for c in entry["cases"] if not c["documents"] and not c["removedDocuments"]]
        reads = [c for c in plain if c["request"]["op"] in ("get", "list")]
        with ThreadPoolExecutor(max_workers=8) as pool:
            decisions = list(pool.map(lambda c: safe(c["request"]), reads))
        for case, decision in zip(reads, decisions):
            tally(case, decision)
        for case in entry["cases"]:
            if case in reads:
                continue
            request = case["request"]
            overlay = bool(case["documents"] or case["removedDocuments"])
            if overlay:
                emu.clear()
                docs = dict(base)
                docs.update({relative(p): to_driver(d, fe) for p, d in case["documents"].items()})
                for removed in case["removedDocuments"]:
                    docs.pop(relative(removed), None)
                emu.seed(docs)
            allowed = tally(case, safe(request))
            if overlay:
                emu.clear()
                emu.seed(base)
            elif allowed and request["op"] in ("create", "update", "set", "delete"):
                path = relative(request["path"])
                if path in base:
                    emu.seed_document(path, base[path])
                else:
                    owner_delete(emu, fe, path)
    report.append(f"[{label}] the emulator allowed {allowed_count} of {agree + disagree} requests")
    return agree, disagree, skipped


def owner_delete(emu, fe, path: str) -> None:
    """Deletes a document as the owner (bypassing rules) to undo an allowed create."""
    # The driver seeds with the owner token but has no public owner delete; its commit helper does.
    decision = emu._commit([fe.Write.delete(path)], "Bearer owner")
    if decision.status != 200:
        raise SystemExit(f"cannot undo the write to {path}: {decision.status} {decision.message}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="security test files (default: rules/security/**/*.tests.yaml)")
    parser.add_argument("--regimen", default=os.path.join(ROOT, ".build", "debug", "regimen"))
    parser.add_argument("--generated", type=int, default=10000, help="random requests to generate (0 for none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", help="also write the report to this file")
    args = parser.parse_args()

    try:
        import firestore_emulator as fe
    except ImportError:
        print("differential: SKIPPED: the emulator driver firestore_emulator.py is not beside this script")
        return 0
    if not fe.Emulator.available():
        print("differential: SKIPPED: the Firestore emulator is not installed on this machine")
        return 0
    if not os.path.exists(args.regimen):
        print(f"differential: regimen binary not found at {args.regimen} (build it first)")
        return 2

    # The shipped policies' tests, and the security conformance cases (issue 28's corners).
    files = args.files or sorted(
        os.path.join(d, f)
        for base in (os.path.join(ROOT, "rules", "security"), os.path.join(ROOT, "Tests", "RegimenSecurityTests", "Conformance"))
        for d, _, fs in os.walk(base) for f in fs if f.endswith(".tests.yaml"))
    shipped = regimen_decisions(args.regimen, files)
    report: list[str] = []
    started = time.time()
    with fe.Emulator() as emu:
        a1, d1, s1 = replay(emu, fe, args.regimen, shipped, "shipped", report)
        totals = [("shipped test cases", a1, d1, s1)]
        if args.generated > 0:
            with tempfile.TemporaryDirectory() as directory:
                firestore = [e for e in shipped if e["service"] == "cloud.firestore"]
                generated = regimen_decisions(args.regimen, generated_files(firestore, args.generated, args.seed, directory))
                a2, d2, s2 = replay(emu, fe, args.regimen, generated, "generated", report)
                totals.append((f"generated requests (seed {args.seed})", a2, d2, s2))
    elapsed = time.time() - started
    lines = report + [f"{name}: {a} agree, {d} disagree, {s} skipped" for name, a, d, s in totals]
    requests = sum(a + d for _, a, d, _ in totals)
    lines.append(f"emulator time {elapsed:.1f} s for {requests} requests ({requests / max(elapsed, 1e-9):.0f} per second, with re-seeding)")
    disagreements = sum(d for _, _, d, _ in totals)
    lines.append(f"{sum(a for _, a, _, _ in totals)} passed, {disagreements} failed")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(text)
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
