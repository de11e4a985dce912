#!/usr/bin/env python3
"""End-to-end check of firestore_emulator.py against the real emulator.

    python3 scripts/emulator/check_driver.py

Exercises every request kind the policy differential checker relies on (get, list with
where/orderBy/limit and collection groups, create, update with field paths and deleteField, set
with and without merge, delete, batched commits with getAfter, serverTimestamp), the typed value
round trip through stored documents, auth claims, compile errors, and expression probes
interleaved with requests. Prints one line per check and "N passed, N failed"; exit status 1 on
any failure; "emulator not found, skipped" (exit 0) without the emulator.
"""

from __future__ import annotations

import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from firestore_emulator import (  # noqa: E402
    DELETE_FIELD,
    SERVER_TIMESTAMP,
    Auth,
    Duration,
    Emulator,
    LatLng,
    MapDiff,
    Path,
    Probe,
    Reference,
    RulesCompileError,
    SetValue,
    Timestamp,
    Write,
)

RULES = """rules_version = '2';
service cloud.firestore {
  match /databases/{database}/documents {
    match /users/{uid} {
      allow get: if request.auth != null && (request.auth.uid == uid || request.auth.token.admin == true);
      allow list: if request.query.limit <= 10 && resource.data.owner == request.auth.uid;
      allow create: if request.auth.uid == uid && request.resource.data.age is int
        && request.resource.data.created == request.time;
      allow update: if request.auth.uid == uid
        && request.resource.data.diff(resource.data).affectedKeys().hasOnly(['age', 'prefs', 'nick']);
      allow delete: if request.auth.token.get('admin', false) == true;
      match /posts/{post} {
        allow create: if getAfter(/databases/$(database)/documents/users/$(uid)).data.age > 0;
      }
    }
    match /{path=**}/posts/{post} {
      allow list: if resource.data.public == true;
    }
    match /typed/{id} {
      allow get: if resource.data.i is int && resource.data.f is float && resource.data.t is timestamp
        && resource.data.g is latlng && resource.data.r is path && resource.data.by is bytes
        && resource.data.n == null && resource.data.l[2].k == 2;
    }
  }
}
"""


class Checks:
    def __init__(self) -> None:
        self.passed = 0
        self.failed = 0

    def expect(self, name: str, condition: bool, detail: object = "") -> None:
        if condition:
            self.passed += 1
            print(f"ok   {name}")
        else:
            self.failed += 1
            print(f"FAIL {name}: {detail}")


def main() -> int:
    if not Emulator.available():
        print("emulator not found, skipped")
        return 0
    checks = Checks()
    started = time.monotonic()
    with Emulator(project="regimen-driver-check") as emu:
        try:
            emu.load_rules("rules_version = '2';\nservice cloud.firestore { match /x/{y} { allow get: if 1 +; } }")
            checks.expect("a broken ruleset raises RulesCompileError", False, "no error")
        except RulesCompileError as exc:
            checks.expect("a broken ruleset raises RulesCompileError with line:column", exc.errors and exc.errors[0][0] == 2, exc.errors)

        emu.load_rules(RULES)
        emu.clear()
        stamp = Timestamp.parse("2024-03-15T10:20:30.123456Z")
        typed = {
            "i": 1, "f": 1.0, "s": "x", "b": True, "n": None, "by": b"\x00\xff", "t": stamp,
            "g": LatLng(1.5, -2.0), "r": Reference("users/bob"), "l": [1, "a", {"k": 2}],
            "m": {"z": 1, "a": {"b": []}}, "nan": math.nan, "inf": -math.inf,
        }
        emu.seed({
            "users/bob": {"owner": "bob", "age": 40, "name": "Bob", "prefs": {"units": "kg", "lang": "en"}},
            "typed/t": typed,
        })
        back = emu.read_document("typed/t") or {}
        checks.expect("typed values survive a store and read back", all(
            (math.isnan(back.get(k)) if isinstance(v, float) and math.isnan(v) else back.get(k) == v and type(back.get(k)) is type(v))
            for k, v in typed.items()), back)
        checks.expect("stored values have their rules types", emu.get("typed/t").allowed is True)

        bob, alice, root = Auth("bob"), Auth("alice"), Auth("root", {"admin": True})
        checks.expect("get: owner allowed", emu.get("users/bob", bob).allowed is True)
        denied = emu.get("users/bob", alice)
        checks.expect("get: stranger denied with the emulator's reason", denied.allowed is False and denied.error == "Property admin is undefined on object.", denied)
        checks.expect("get: custom claim reaches request.auth.token", emu.get("users/bob", root).allowed is True)
        checks.expect("get: signed out denied", emu.get("users/bob").allowed is False)
        checks.expect("get: a missing document can be allowed (404)", emu.get("users/nobody", Auth("nobody")).status == 404)

        ok = emu.list("users", where=[("owner", "==", "bob")], limit=5, auth=bob)
        checks.expect("list: constrained query allowed and returns the document", ok.allowed is True and [p for p, _ in ok.documents or []] == ["users/bob"], ok)
        checks.expect("list: without limit request.query.limit is null, so denied", emu.list("users", where=[("owner", "==", "bob")], auth=bob).allowed is False)
        checks.expect("list: other owner's constraint denied", emu.list("users", where=[("owner", "==", "alice")], limit=5, auth=bob).allowed is False)
        checks.expect("list: where + orderBy desc + limit", emu.list("users", where=[("owner", "==", "bob"), ("age", ">", 3)], order_by=[("age", "desc")], limit=5, auth=bob).allowed is True)

        made = emu.create("users/alice", {"age": 3, "created": SERVER_TIMESTAMP}, alice)
        checks.expect("create: serverTimestamp equals request.time", made.allowed is True, made)
        checks.expect("create: float age denied", emu.create("users/carl", {"age": 3.5, "created": SERVER_TIMESTAMP}, Auth("carl")).allowed is False)
        again = emu.create("users/alice", {"age": 3, "created": SERVER_TIMESTAMP}, alice)
        checks.expect("create: existing document fails its precondition (allowed None, 409)", again.allowed is None and again.status == 409, again)

        merged = emu.update("users/bob", {"age": 41, "prefs.units": "lb"}, bob)
        doc = emu.read_document("users/bob") or {}
        checks.expect("update: dotted field path merges into the map", merged.allowed is True and doc.get("prefs") == {"units": "lb", "lang": "en"} and doc.get("age") == 41, (merged, doc))
        removed = emu.update("users/bob", {"prefs.lang": DELETE_FIELD, "nick": "B"}, bob)
        doc = emu.read_document("users/bob") or {}
        checks.expect("update: DELETE_FIELD removes the field", removed.allowed is True and doc.get("prefs") == {"units": "lb"} and doc.get("nick") == "B", (removed, doc))
        checks.expect("update: a change outside hasOnly denied", emu.update("users/bob", {"name": "Robert"}, bob).allowed is False)
        missing = emu.update("users/zed", {"age": 1}, Auth("zed"))
        checks.expect("update: a missing document is evaluated with resource == null", missing.allowed is False and missing.error == "Null value error.", missing)
        set_merge = emu.set("users/bob", {"prefs": {"theme": "dark"}}, bob, merge=True)
        doc = emu.read_document("users/bob") or {}
        checks.expect("set(merge=True): merges nested fields", set_merge.allowed is True and doc.get("prefs") == {"units": "lb", "theme": "dark"}, (set_merge, doc))
        checks.expect("set: whole-document overwrite is an update of every changed key", emu.set("users/bob", {"owner": "bob", "age": 1}, bob).allowed is False)

        checks.expect("delete: without the admin claim denied", emu.delete("users/bob", bob).allowed is False)
        checks.expect("delete: admin allowed", emu.delete("users/bob", root).allowed is True)

        batch = emu.commit([Write.create("users/dan", {"age": 5, "created": SERVER_TIMESTAMP}), Write.create("users/dan/posts/p1", {"t": "hi"})], Auth("dan"))
        checks.expect("commit: getAfter sees a sibling write of the same batch", batch.allowed is True, batch)
        checks.expect("commit: getAfter of a missing document denies", emu.commit([Write.create("users/eve/posts/p1", {"t": "hi"})], Auth("eve")).allowed is False)

        emu.seed({"users/dan/posts/p2": {"public": True}, "groups/g/posts/p3": {"public": False}})
        group = emu.list("posts", where=[("public", "==", True)], collection_group=True)
        checks.expect("list: collection group query with a satisfying constraint", group.allowed is True and [p for p, _ in group.documents or []] == ["users/dan/posts/p2"], group)
        checks.expect("list: collection group query without the constraint denied", emu.list("posts", collection_group=True).allowed is False)

        values = emu.evaluate_many([
            Probe.of_expression("[1, 2.0, 'é', null, true]"),
            Probe.of_expression("[1, 2].toSet()"),
            Probe.of_expression("{'a': 1}.diff({'b': 2})"),
            Probe.of_expression("timestamp.value(1500)"),
            Probe.of_expression("duration.value(-1500, 'ms')"),
            Probe.of_expression("path('/a/b')"),
            Probe.of_expression("m.a + x", {"m": {"a": 1}, "x": 2.5}),
            Probe.of_expression("l[1][0]", {"l": [1, [2]]}),
            Probe.of_expression("1 / 0"),
            Probe.of_expression("f(3)", functions="function f(a) { let b = a * 2; return b + 1; }"),
        ])
        expected = [
            [1, 2.0, "é", None, True], SetValue([2, 1]), MapDiff({"a": "ADDED", "b": "REMOVED"}),
            Timestamp(1, 500_000_000), Duration(-1, -500_000_000), Path(("a", "b")), 3.5, 2, None, 7,
        ]
        for probe_value, want, label in zip(values, expected, ["list", "set", "map_diff", "timestamp", "duration", "path", "stored vars", "inlined nested list", "error", "function"]):
            if label == "error":
                checks.expect("evaluate: error message", probe_value.error == "Divide by zero error.", probe_value)
            else:
                checks.expect(f"evaluate: {label}", probe_value.ok and probe_value.value == want and type(probe_value.value) is type(want), probe_value)
        checks.expect("requests after probes run under the loaded ruleset again", emu.get("users/dan", Auth("dan")).allowed is True)
        nested = emu.update("users/dan", {"prefs": {"at": SERVER_TIMESTAMP, "units": "kg"}}, Auth("dan"))
        doc = emu.read_document("users/dan") or {}
        prefs = doc.get("prefs") or {}
        checks.expect("update: a nested serverTimestamp is filled in by the emulator", nested.allowed is True and isinstance(prefs.get("at"), Timestamp) and prefs.get("units") == "kg", (nested, doc))

        count = 200
        t0 = time.monotonic()
        decisions = emu.run_many([("get", ("users/dan",), {"auth": Auth("dan" if i % 2 else "x")}) for i in range(count)], workers=8)
        rate = count / (time.monotonic() - t0)
        checks.expect(f"run_many: {count} concurrent gets in order ({rate:.0f} decisions/s)", [d.allowed for d in decisions] == [bool(i % 2) for i in range(count)])

    print(f"checked in {time.monotonic() - started:.1f}s")
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
