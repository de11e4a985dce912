#!/usr/bin/env python3
"""Replay the expression conformance table through Google's Firestore emulator.

    python3 scripts/emulator/replay_conformance.py [FILE.yaml ...] [--fill] [--verbose]

Reads every Tests/RegimenLanguageTests/Conformance/*.yaml (kind: expression-conformance) and asks
the emulator whether each case's expectation holds:

  value:  the expression equals the YAML value and has its type (3 is int, 3.0 is float; inside
          lists and maps the emulator's own == already tells 1 from 1.0);
  equals: the expression == the other expression, and both are int, or both float, or neither;
  error:  evaluating the expression is an error whose message contains the fragment (true: any).

Variables are passed to a rule function as parameters: plain values are seeded as fields of the
case's document and passed as resource.data.NAME; values Firestore cannot store (a list inside a
list) are inlined as literals. A case's `function:` declarations sit in the case's own match
block, so cases may reuse function names.

Every disagreement is printed with its file, line and case number, with the value or error the
emulator actually produced. Ends with "N passed, N failed"; exit status 1 if any failed or a file
is malformed. Without the emulator it prints "emulator not found, skipped" and exits 0.

--fill writes the emulator's answer into cases that have no expectation yet (value:, equals: for
values YAML cannot express, or error:), which is how the table's expectations were produced;
review the diff before committing.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import conformance_yaml  # noqa: E402
from firestore_emulator import (  # noqa: E402
    Emulator,
    EmulatorError,
    Evaluation,
    Probe,
    ProbeResult,
    SetValue,
    rules_literal,
    same_value,
)

REPO = os.path.dirname(os.path.dirname(HERE))
CONFORMANCE_DIR = os.path.join(REPO, "Tests", "RegimenLanguageTests", "Conformance")
CASE_KEYS = {"expr", "value", "equals", "error", "note", "vars", "function"}
EXPECTATION_KEYS = ("value", "equals", "error")

HELPERS = """\
function regimenSame(a, b) {
  return a == b && (a is int) == (b is int) && (a is float) == (b is float);
}
function regimenFails(v) {
  return v == null || v != null;
}"""


@dataclass
class Case:
    file: str
    line: int
    number: int  # 1-based within its file
    expr: str
    vars: dict = field(default_factory=dict)
    function: str = ""
    note: str = ""
    expectation: Optional[str] = None  # "value" | "equals" | "error" | None (to fill)
    expected: Any = None

    @property
    def where(self) -> str:
        return f"{shown_path(self.file)}:{self.line} (case {self.number})"


def shown_path(path: str) -> str:
    relative = os.path.relpath(path, REPO)
    return path if relative.startswith("..") else relative


# --------------------------------------------------------------------------------------------
# Loading
# --------------------------------------------------------------------------------------------


def load_cases(path: str, problems: list[str], allow_missing: bool) -> list[Case]:
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    try:
        doc, lines = conformance_yaml.load(text, shown_path(path))
    except conformance_yaml.YAMLSubsetError as exc:
        problems.append(str(exc))
        return []
    _cross_check_with_pyyaml(text, doc, path, problems)
    rel = shown_path(path)
    if not isinstance(doc, dict):
        problems.append(f"{rel}:1: the file must be a mapping")
        return []
    unknown = set(doc) - {"kind", "version", "cases"}
    if unknown:
        problems.append(f"{rel}:1: unknown top-level keys {sorted(unknown)}")
    if doc.get("kind") != "expression-conformance" or doc.get("version") != 1:
        problems.append(f"{rel}:1: expected 'kind: expression-conformance' and 'version: 1'")
        return []
    raw_cases = doc.get("cases")
    if not isinstance(raw_cases, list) or not raw_cases:
        problems.append(f"{rel}:1: 'cases' must be a non-empty list")
        return []
    cases = []
    for number, raw in enumerate(raw_cases, 1):
        line = lines.get(id(raw), 0)
        where = f"{rel}:{line} (case {number})"
        if not isinstance(raw, dict):
            problems.append(f"{where}: a case must be a mapping")
            continue
        bad = set(raw) - CASE_KEYS
        if bad:
            problems.append(f"{where}: unknown keys {sorted(bad)}")
        if not isinstance(raw.get("expr"), str) or not raw["expr"].strip():
            problems.append(f"{where}: 'expr' must be a non-empty string")
            continue
        given = [k for k in EXPECTATION_KEYS if k in raw]
        if len(given) > 1 or (not given and not allow_missing):
            problems.append(f"{where}: give exactly one of value, equals, error")
            continue
        case = Case(path, line, number, raw["expr"], note=str(raw.get("note") or ""))
        if "vars" in raw:
            if not isinstance(raw["vars"], dict):
                problems.append(f"{where}: 'vars' must be a mapping")
                continue
            bad_names = [k for k in raw["vars"] if not isinstance(k, str) or not k.isidentifier()]
            if bad_names or len(raw["vars"]) > 7:
                problems.append(f"{where}: 'vars' takes at most 7 variables named like identifiers")
                continue
            case.vars = raw["vars"]
        if "function" in raw:
            if not isinstance(raw["function"], str):
                problems.append(f"{where}: 'function' must be a string")
                continue
            case.function = raw["function"]
        if given:
            case.expectation = given[0]
            case.expected = raw[given[0]]
            if case.expectation == "equals" and not isinstance(case.expected, str):
                problems.append(f"{where}: 'equals' must be an expression string")
                continue
            if case.expectation == "error" and not (case.expected is True or isinstance(case.expected, str)):
                problems.append(f"{where}: 'error' must be a message fragment or true")
                continue
        cases.append(case)
    return cases


def _cross_check_with_pyyaml(text: str, doc: Any, path: str, problems: list[str]) -> None:
    """When PyYAML is installed, insist that it reads the file exactly as our subset reader does."""
    try:
        import yaml  # type: ignore
    except ImportError:
        return
    try:
        theirs = yaml.safe_load(text)
    except yaml.YAMLError as exc:  # type: ignore[attr-defined]
        problems.append(f"{shown_path(path)}: PyYAML cannot read it: {exc}")
        return
    if not same_value(_plain(doc), _plain(theirs)):
        problems.append(f"{shown_path(path)}: PyYAML reads this file differently from the subset reader")


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------------------------
# Checking
# --------------------------------------------------------------------------------------------


def type_and_value_test(value: Any) -> str:
    """A condition over `v` that holds exactly when v is `value` (type included)."""
    if value is None:
        return "v == null"
    if isinstance(value, bool):
        return f"v is bool && v == {rules_literal(value)}"
    if isinstance(value, int):
        return f"v is int && v == {rules_literal(value)}"
    if isinstance(value, float):
        if math.isnan(value):
            return "v is float && math.isNaN(v)"
        if value == 0.0:
            sign = "<" if math.copysign(1.0, value) < 0 else ">"
            return f"v is float && v == 0.0 && 1.0 / v {sign} 0.0"
        return f"v is float && v == {rules_literal(value)}"
    if isinstance(value, str):
        return f"v is string && v == {rules_literal(value)}"
    if isinstance(value, list):
        return f"v is list && v == {rules_literal(value)}"
    if isinstance(value, dict):
        return f"v is map && v == {rules_literal(value)}"
    raise TypeError(f"unsupported expected value {value!r}")


def check_probe(case: Case) -> Probe:
    functions = case.function.rstrip()
    if case.expectation == "value":
        functions += "\nfunction regimenExpect(v) {\n  return " + type_and_value_test(case.expected) + ";\n}"
        condition = f"regimenExpect(({case.expr}\n))"
    elif case.expectation == "equals":
        condition = f"regimenSame(({case.expr}\n), ({case.expected}\n))"
    else:
        condition = f"regimenFails(({case.expr}\n))"
    return Probe(condition=condition, vars=dict(case.vars), functions=functions)


def error_fragment(message: str) -> str:
    """The part of an emulator error worth matching: drop the long list of accepted operand types."""
    cut = message.find(" Expected: ")
    return message[:cut] if cut > 0 else message


def verdict(case: Case, result: ProbeResult) -> Optional[str]:
    """None when the case holds, else why not (the actual value is added later)."""
    if result.compile_error:
        return f"the emulator did not compile the case: {result.compile_error}"
    if case.expectation == "error":
        if result.allowed:
            return "expected an error, the expression has a value"
        actual = result.error
        if actual is None:
            return f"expected an error, got a denial without one: {result.message}"
        if case.expected is not True and str(case.expected) not in actual:
            return f"expected an error containing {case.expected!r}, got {actual!r}"
        return None
    if result.allowed:
        return None
    if result.error:
        return f"expected {describe_expected(case)}, got error {result.error!r}"
    return f"expected {describe_expected(case)}"


def describe_expected(case: Case) -> str:
    if case.expectation == "value":
        return conformance_yaml.dump_scalar(case.expected)
    if case.expectation == "equals":
        return f"a value equal to ({case.expected})"
    return f"error {case.expected!r}"


def describe(evaluation: Evaluation) -> str:
    if evaluation.compile_error:
        return f"compile error: {evaluation.compile_error}"
    if evaluation.error is not None:
        return f"error: {evaluation.error}"
    return f"{yaml_or_literal(evaluation.value)}"


def yaml_or_literal(value: Any) -> str:
    try:
        return conformance_yaml.dump_scalar(value)
    except TypeError:
        return rules_literal(value)


# --------------------------------------------------------------------------------------------
# Filling expectations
# --------------------------------------------------------------------------------------------


def filled_line(case: Case, evaluation: Evaluation) -> Optional[str]:
    if evaluation.compile_error:
        return None
    if evaluation.error is not None:
        return f"error: {conformance_yaml.dump_string(error_fragment(evaluation.error))}"
    try:
        return f"value: {conformance_yaml.dump_scalar(evaluation.value)}"
    except TypeError:
        return f"equals: {conformance_yaml.dump_string(rules_literal(evaluation.value))}"


def apply_fills(fills: dict[str, list[tuple[int, str]]], starts: dict[str, list[int]]) -> None:
    """Insert each filled line as the last line of its case (after vars:, function:, note:)."""
    for path, entries in fills.items():
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
        case_starts = sorted(starts[path])
        for line_number, text in sorted(entries, reverse=True):
            opener = lines[line_number - 1]
            indent = len(opener) - len(opener.lstrip(" -"))
            later = [s for s in case_starts if s > line_number]
            end = (later[0] - 1) if later else len(lines)  # 1-based last line of the case
            while end > line_number and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
                end -= 1
            lines.insert(end, " " * indent + text)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(lines))


# --------------------------------------------------------------------------------------------


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*", help="conformance files (default: all)")
    parser.add_argument("--fill", action="store_true", help="write the emulator's answers into cases without one")
    parser.add_argument("--verbose", "-v", action="store_true", help="print every case")
    parser.add_argument("--workers", type=int, default=8)
    args = parser.parse_args(argv)
    started = time.monotonic()

    files = [os.path.abspath(f) for f in args.files] or sorted(
        os.path.join(CONFORMANCE_DIR, f) for f in os.listdir(CONFORMANCE_DIR) if f.endswith(".yaml")
    )
    problems: list[str] = []
    cases = [c for f in files for c in load_cases(f, problems, allow_missing=args.fill)]
    for problem in problems:
        print(f"MALFORMED {problem}")
    if not Emulator.available():
        print("emulator not found, skipped")
        return 1 if problems else 0

    to_check = [c for c in cases if c.expectation is not None]
    to_fill = [c for c in cases if c.expectation is None]
    failures: list[tuple[Case, str]] = []
    with Emulator(project="regimen-conformance") as emu:
        results = emu.run_probes([check_probe(c) for c in to_check], workers=args.workers, shared_functions=HELPERS)
        failed = [(c, why) for c, r in zip(to_check, results) if (why := verdict(c, r)) is not None]
        # Ask the emulator what the failing and unfilled expressions really are.
        wanted = [c for c, _ in failed] + to_fill
        actual = emu.evaluate_many(
            [Probe.of_expression(c.expr, c.vars, c.function) for c in wanted], workers=args.workers
        )
        actual_of = {id(c): a for c, a in zip(wanted, actual)}
        for case, why in failed:
            failures.append((case, f"{why}; the emulator gives {describe(actual_of[id(case)])}"))
        if args.verbose:
            bad = {id(c) for c, _ in failed}
            for case in to_check:
                print(f"{'FAIL' if id(case) in bad else 'ok  '} {case.where}: {case.expr}")
        fills: dict[str, list[tuple[int, str]]] = {}
        for case in to_fill:
            evaluation = actual_of[id(case)]
            line = filled_line(case, evaluation)
            print(f"{'FILL' if line else 'SKIP'} {case.where}: {case.expr}  =>  {line or describe(evaluation)}")
            if line and args.fill:
                fills.setdefault(case.file, []).append((case.line, line))
        if fills:
            starts: dict[str, list[int]] = {}
            for case in cases:
                starts.setdefault(case.file, []).append(case.line)
            apply_fills(fills, starts)

    for case, why in failures:
        print(f"FAIL {case.where}: {case.expr}\n     {why}")
    passed = len(to_check) - len(failures)
    print(f"replayed {len(to_check)} cases from {len(files)} files in {time.monotonic() - started:.1f}s")
    print(f"{passed} passed, {len(failures) + len(problems)} failed")
    return 1 if failures or problems else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except EmulatorError as exc:
        print(f"emulator error: {exc}")
        sys.exit(1)
