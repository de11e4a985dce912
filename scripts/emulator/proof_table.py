#!/usr/bin/env python3
"""Asks Google's Firestore emulator what a list query's filters prove, and prints the table.

    python3 scripts/emulator/proof_table.py > table.md

Each row is a rule `allow list: if RULE;`, each column a query; a cell is what the emulator
decides: `proved` (allowed), `false` (denied, the rule evaluated to false) or `error` (denied by
an evaluation error: the query does not prove the comparison). The output is the table in
`list-query-proofs.md`. Standard library only, plus the driver beside this file.
"""

from __future__ import annotations

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import firestore_emulator as fe  # noqa: E402

RULES = [
    "f == 5", "f != 5", "f < 5", "f <= 5", "f > 5", "f >= 5",
    "f > 5.0", "f != 5.0", "f in [5, 6]", "5 in f", "6 in f", "f.hasAny([5])", "f is int", "f is number", "f != null", "f == null",
]
QUERIES = [
    ("== 5", [("f", "==", 5)]),
    ("in [5]", [("f", "in", [5])]),
    ("in [5, 6]", [("f", "in", [5, 6])]),
    ("== 5.0", [("f", "==", 5.0)]),
    ("!= 5", [("f", "!=", 5)]),
    ("!= 4", [("f", "!=", 4)]),
    ("not-in [5]", [("f", "not-in", [5])]),
    ("> 5", [("f", ">", 5)]),
    (">= 5", [("f", ">=", 5)]),
    ("> 4", [("f", ">", 4)]),
    ("< 5", [("f", "<", 5)]),
    ("<= 5", [("f", "<=", 5)]),
    ("> 6.0", [("f", ">", 6.0)]),
    ("[5, 5]", [("f", ">=", 5), ("f", "<=", 5)]),
    ("(5, 5)", [("f", ">", 5), ("f", "<", 5)]),
    ("[5, 5)", [("f", ">=", 5), ("f", "<", 5)]),
    ("== 5 & > 3", [("f", "==", 5), ("f", ">", 3)]),
    ("!= null", [("f", "!=", None)]),
    ("array-contains 5", [("f", "array-contains", 5)]),
    ("array-contains-any [5, 6]", [("f", "array-contains-any", [5, 6])]),
    ("none (orderBy f)", []),
]
BOOL_RULES = ["f == true", "f", "f != false", "f >= true"]
BOOL_QUERIES = [
    ("== true", [("f", "==", True)]),
    ("!= false", [("f", "!=", False)]),
    ("not-in [false]", [("f", "not-in", [False])]),
    (">= true", [("f", ">=", True)]),
    ("> false", [("f", ">", False)]),
    ("[true, true]", [("f", ">=", True), ("f", "<=", True)]),
]


def table(emu, rules: list[str], queries: list) -> list[str]:
    field = re.compile(r"\bf\b")
    blocks = [f"    match /c{i}/{{id}} {{ allow list: if {field.sub('resource.data.f', rule)}; }}" for i, rule in enumerate(rules)]
    emu.load_rules("rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n" + "\n".join(blocks) + "\n  }\n}\n")
    calls = [("list", (f"c{i}",), {"where": where, "order_by": [] if where else ["f"]}) for i in range(len(rules)) for _, where in queries]
    decisions = emu.run_many(calls)
    lines = ["| rule \\ query | " + " | ".join(f"`{name}`" for name, _ in queries) + " |", "|---" * (len(queries) + 1) + "|"]
    for i, rule in enumerate(rules):
        cells = []
        for j in range(len(queries)):
            d = decisions[i * len(queries) + j]
            cells.append("proved" if d.allowed else ("error" if d.error or "evaluation error" in (d.message or "") else "false"))
        lines.append(f"| `{rule}` | " + " | ".join(cells) + " |")
    return lines


def main() -> int:
    if not fe.Emulator.available():
        print("proof table: SKIPPED: the Firestore emulator is not installed on this machine")
        return 0
    with fe.Emulator() as emu:
        out = table(emu, RULES, QUERIES) + [""] + table(emu, BOOL_RULES, BOOL_QUERIES)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
