#!/usr/bin/env python3
"""List-query differential: Regimen's list decisions against Google's Firestore emulator.

    python3 scripts/emulator/list_differential.py [--requests 10000] [--seed 1]
                                                  [--regimen .build/debug/regimen] [--report FILE]

Generates rules of its own (one `allow list` per collection, each using one or two of the rule
operators `== != < <= > >= in is`, flipped operands, `x in field`, `hasAny`, `!`, `&&`, `||`
and `request.query.limit`) and list requests over every query operator (`== != < <= > >= in
not-in array-contains array-contains-any`) × value type (bool, int, float, int/float mixes,
string, null, timestamp, a map's field, arrays) × range shape (equal ends, empty, open, closed,
half-open) × one to three filters × `orderBy`/`limit`/cursors. Each request goes to the emulator
and to `regimen test`, and every disagreement is printed with the rule and the query.

A query the emulator rejects as malformed (HTTP 400, e.g. `!=` beside `not-in`) is not a
decision: it is counted apart, not compared. Queries the client SDKs refuse to send (a range on
null) are not generated. Exit status: 0 when every decision agrees (or the
emulator is absent: SKIPPED), 1 on a disagreement, 2 on a setup error. Standard library only.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from differential import CURSORS, to_driver, yaml_value  # noqa: E402

QUERY_OPS = ["==", "!=", "<", "<=", ">", ">=", "in", "not-in", "array-contains", "array-contains-any"]
RULE_OPS = ["==", "!=", "<", "<=", ">", ">="]
FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
RULES_PER_SET = 60


def ts(text: str) -> dict:
    return {"$timestamp": text}


# Fields and the values (typed JSON) queries and rules compare them with. `x` mixes ints and
# floats; `m.k` is a map's field; `tags` is an array field.
FIELDS = {
    "b": [True, False],
    "i": [-1, 0, 5, 6, 10],
    "f": [0.5, 5.0, 5.5, 6.0],
    "x": [5, 5.0, 6, 4.5, 6.0],
    "s": ["", "a", "alice", "b", "zz"],
    "n": [None, 0, "a"],
    "t": [ts("2020-01-01T00:00:00Z"), ts("2021-06-01T00:00:00Z"), ts("2025-01-01T00:00:00Z")],
    "m.k": [1, 2.0, "k", True],
    "tags": ["x", "y", 1, 2.0],
}
TYPES = ["bool", "int", "float", "number", "string", "timestamp", "list", "map"]


def rules_value(value) -> str:
    """Typed JSON -> a rules-language literal."""
    if isinstance(value, dict) and "$timestamp" in value:
        import firestore_emulator as fe
        return fe.rules_literal(fe.Timestamp.parse(value["$timestamp"]))
    if isinstance(value, list):
        return "[" + ", ".join(rules_value(v) for v in value) + "]"
    import firestore_emulator as fe
    return fe.rules_literal(value)


class Generator:
    def __init__(self, rng: random.Random):
        self.rng = rng

    def value(self, field: str):
        pool = FIELDS[field]
        if self.rng.random() < 0.12:
            pool = FIELDS[self.rng.choice(list(FIELDS))]
        return self.rng.choice(pool)

    def atom(self) -> tuple[str, list[str]]:
        """One comparison on one field; returns (condition, fields it reads)."""
        field = self.rng.choice(list(FIELDS))
        ref = "resource.data." + field
        kind = self.rng.random()
        if kind < 0.55:
            op = self.rng.choice(RULE_OPS)
            v = rules_value(self.value(field))
            text = f"{ref} {op} {v}" if self.rng.random() < 0.8 else f"{v} {FLIP[op]} {ref}"
        elif kind < 0.67:
            values = [self.value(field) for _ in range(self.rng.choice([1, 2]))]
            text = f"{ref} in {rules_value(values)}"
        elif kind < 0.77:
            text = f"{rules_value(self.value(field))} in {ref}"
        elif kind < 0.87:
            text = f"{ref} is {self.rng.choice(TYPES)}"
        elif kind < 0.93:
            text = f"{ref}.hasAny({rules_value([self.value(field)])})"
        else:
            text = f"{ref} {self.rng.choice(['!=', '=='])} null"
        if self.rng.random() < 0.1:
            text = f"!({text})"
        return text, [field]

    def rule(self) -> tuple[str, list[str]]:
        first, fields = self.atom()
        r = self.rng.random()
        if r < 0.25:
            second, more = self.atom()
            return f"({first}) && ({second})", fields + more
        if r < 0.4:
            second, more = self.atom()
            return f"({first}) || ({second})", fields + more
        if r < 0.45:
            return f"request.query.limit <= 10 && ({first})", fields
        return first, fields

    def filters(self, fields: list[str]) -> list[list]:
        """One to three filters, mostly on the fields the rule reads."""
        out: list[list] = []
        count = self.rng.choice([1, 1, 2, 2, 3])
        while len(out) < count:
            field = self.rng.choice(fields) if self.rng.random() < 0.75 else self.rng.choice(list(FIELDS))
            if self.rng.random() < 0.3 and len(out) + 2 <= 3:
                out += self.range(field)
                continue
            op = self.rng.choice(QUERY_OPS)
            if op in ("in", "not-in", "array-contains-any"):
                value = [self.value(field) for _ in range(self.rng.choice([1, 1, 2, 3]))]
            else:
                value = self.value(field)
                # The SDKs reject null with anything but == and != (sent as IS_NULL / IS_NOT_NULL).
                while value is None and op not in ("==", "!="):
                    value = self.value(field)
            out.append([field, op, value])
        return out[:3]

    def range(self, field: str) -> list[list]:
        """Two bounds on one field: equal ends, empty, open, closed or half-open."""
        values = [v for v in FIELDS[field] if v is not None and not isinstance(v, bool)] or FIELDS[field]
        a, b = self.rng.choice(values), self.rng.choice(values)
        shape = self.rng.choice(["equal", "empty", "open", "closed", "half"])
        if shape == "equal":
            return [[field, ">=", a], [field, "<=", a]]
        if shape == "empty":
            return [[field, ">", a], [field, "<", a]]
        if shape == "open":
            return [[field, ">", a], [field, "<", b]]
        if shape == "closed":
            return [[field, ">=", a], [field, "<=", b]]
        return [[field, ">=", a], [field, "<", b]]

    def query(self, fields: list[str]) -> dict:
        q: dict = {"where": self.filters(fields)}
        r = self.rng.random()
        if r < 0.3:
            q["limit"] = self.rng.choice([1, 10, 50])
        if self.rng.random() < 0.25:
            field = self.rng.choice([w[0] for w in q["where"]])
            q["orderBy"] = [[field, self.rng.choice(["asc", "desc"])]]
            if self.rng.random() < 0.4:
                q[self.rng.choice(list(CURSORS))] = [self.value(field)]
        return q


def regimen_file(directory: str, index: int, rules: list[str], cases: list[tuple[int, dict]]) -> str:
    blocks = "\n".join(f"    match /c{k}/{{id}} {{\n      allow list: if {rule};\n    }}" for k, rule in enumerate(rules))
    rules_path = os.path.join(directory, f"set{index}.rules")
    with open(rules_path, "w", encoding="utf-8") as f:
        f.write("rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n" + blocks + "\n  }\n}\n")
    lines = ["kind: security_tests", "version: 1", f"rules: {yaml_value(os.path.basename(rules_path))}", "cases:"]
    for n, (k, q) in enumerate(cases):
        query = {"where": q["where"]}
        if "limit" in q:
            query["limit"] = q["limit"]
        if "orderBy" in q:
            query["orderBy"] = [f"{f} {d}" for f, d in q["orderBy"]]
        for key in CURSORS:
            if key in q:
                query[key] = q[key]
        lines.append(f"  - name: {yaml_value(f'r{index}-{n}')}\n    expect: allow\n    list: c{k}\n    query: {yaml_value(query)}")
    tests_path = os.path.join(directory, f"set{index}.tests.yaml")
    with open(tests_path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return tests_path, rules_path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--regimen", default=os.path.join(ROOT, ".build", "debug", "regimen"))
    parser.add_argument("--report", help="also write the report to this file")
    args = parser.parse_args()

    import firestore_emulator as fe
    if not fe.Emulator.available():
        print("list differential: SKIPPED: the Firestore emulator is not installed on this machine")
        return 0
    if not os.path.exists(args.regimen):
        print(f"list differential: regimen binary not found at {args.regimen} (build it first)")
        return 2

    rng = random.Random(args.seed)
    gen = Generator(rng)
    sets = max(1, round(args.requests / (RULES_PER_SET * 25)))
    per_set = [args.requests // sets + (1 if i < args.requests % sets else 0) for i in range(sets)]
    report: list[str] = []
    tally = Counter()
    ops_seen = Counter()
    started = time.time()
    with tempfile.TemporaryDirectory() as directory, fe.Emulator() as emu:
        for index, count in enumerate(per_set):
            rules = [gen.rule() for _ in range(RULES_PER_SET)]
            cases = []
            for _ in range(count):
                k = rng.randrange(len(rules))
                cases.append((k, gen.query(rules[k][1])))
            tests_path, rules_path = regimen_file(directory, index, [r for r, _ in rules], cases)
            proc = subprocess.run([args.regimen, "test", "--format", "json", "--with-requests", tests_path], capture_output=True, text=True)
            if proc.returncode == 2:
                print(f"regimen could not load the generated file:\n{proc.stderr[:4000]}")
                return 2
            ours = json.loads(proc.stdout)[0]["cases"]
            with open(rules_path, encoding="utf-8") as f:
                emu.load_rules(f.read())
            calls = []
            for k, q in cases:
                kwargs = {
                    "where": [(w[0], w[1], to_driver(w[2], fe)) for w in q["where"]],
                    "order_by": [tuple(o) for o in q.get("orderBy", [])],
                    "limit": q.get("limit"),
                }
                for key, name in CURSORS.items():
                    if key in q:
                        kwargs[name] = [to_driver(v, fe) for v in q[key]]
                calls.append(("list", (f"c{k}",), kwargs))
            decisions = emu.run_many(calls)
            for (k, q), case, decision in zip(cases, ours, decisions):
                for w in q["where"]:
                    ops_seen[w[1]] += 1
                if isinstance(decision, Exception) or decision.allowed is None:
                    tally["rejected by the emulator as a malformed query"] += 1
                    continue
                theirs = decision.allowed is True
                mine = case["actual"] == "allow"
                tally["allowed" if theirs else "denied"] += 1
                if theirs == mine:
                    tally["agree"] += 1
                else:
                    tally["disagree"] += 1
                    report.append(
                        f"DISAGREE rule: {rules[k][0]}\n  query: {json.dumps(q, sort_keys=True)}\n"
                        f"  regimen: {case['actual']} ({case['reason']})\n  emulator: {'allow' if theirs else 'deny'} ({decision.message})")
    elapsed = time.time() - started
    compared = tally["agree"] + tally["disagree"]
    lines = report + [
        f"list differential (seed {args.seed}): {args.requests} requests over {sets * RULES_PER_SET} generated rules in {elapsed:.0f} s",
        f"  filters by operator: " + ", ".join(f"{op} {ops_seen[op]}" for op in QUERY_OPS),
        f"  compared {compared}: the emulator allowed {tally['allowed']}, denied {tally['denied']}; "
        f"{tally['rejected by the emulator as a malformed query']} rejected as malformed queries (not compared)",
        f"{tally['agree']} agree, {tally['disagree']} disagree",
    ]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.report:
        with open(args.report, "w", encoding="utf-8") as f:
            f.write(text)
    return 1 if tally["disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
