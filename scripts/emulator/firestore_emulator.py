#!/usr/bin/env python3
"""Driver for Google's Cloud Firestore emulator, used as the oracle for Regimen's rules engine.

Python 3 standard library only. One `Emulator` owns one emulator process (Java) bound to
127.0.0.1 on a free port; it is meant to be started once and reused for thousands of requests.

Quick start
-----------
    from firestore_emulator import Emulator, Auth, Timestamp

    with Emulator() as emu:                                    # starts, waits until ready, stops on exit
        emu.load_rules(open("firestore.rules").read())          # raises RulesCompileError with L:C messages
        emu.seed({"users/alice": {"age": 30, "w": 70.5, "born": Timestamp.parse("1990-01-01T00:00:00Z")}})
        d = emu.get("users/alice", auth=Auth("alice", {"admin": True}))
        d.allowed, d.status, d.message, d.reasons               # True/False/None, HTTP status, emulator text
        emu.update("users/alice", {"age": 31}, auth=Auth("alice"))
        emu.list("users", where=[("age", ">", 18)], order_by=["age"], limit=10, auth=None)
        emu.evaluate("[1, 2.0, 'x'].size()").value              # -> 3 (the emulator's own value, typed)
        emu.evaluate("1 / 0").error                             # -> 'Divide by zero error.'

API
---
Emulator(project="regimen", binary=None, host="127.0.0.1", port=None, startup_timeout=90.0,
         request_timeout=30.0)
    start() / stop() / `with Emulator() as emu:`; `Emulator.find_binary()` -> path or None.
    base_url, project, port                  where it listens.
    load_rules(source)                       the ruleset requests run under; skipped when already
                                             loaded. Raises RulesCompileError(.errors = [(line, col,
                                             text)]); the emulator then keeps its previous ruleset.
                                             Probes install rulesets of their own; the next request
                                             reinstalls this one (one recompile).
    clear()                                  delete every document.
    seed({path: data}) / seed_document(path, data)
                                             write documents as the `owner` (bypasses rules), in
                                             commits of up to 500 writes.
    read_document(path) -> dict | None       read back as the owner (typed values).
  Requests (each returns a Decision; `auth` is None for signed out, or an Auth):
    get(path, auth=None)
    list(collection_path, where=(), order_by=(), limit=None, offset=None, auth=None,
         collection_group=False, start_at=None, start_after=None, end_at=None, end_before=None)
        where: [(field_path, op, value)], op in == != < <= > >= in not-in array-contains
               array-contains-any (== None / != None become IS_NULL / IS_NOT_NULL, like the SDKs).
        order_by: ["field", ("field", "desc"), ...]
        start_at / start_after / end_at / end_before: cursor values, one per orderBy field.
    create(path, data, auth=None)            write with precondition "must not exist" (addDoc);
                                             an existing document gives 409, allowed None.
    update(path, data, auth=None)            updateDoc: keys are field paths ("a.b" is nested),
                                             each replaces its field in the stored document;
                                             precondition "exists".
    set(path, data, auth=None, merge=False)  setDoc: whole document (create or update by
                                             existence); merge=True writes only the given leaves.
    delete(path, auth=None)
    commit(writes, auth=None)                several Write values (Write.create/update/set/delete)
                                             in one atomic commit, for getAfter()/existsAfter().
    run_many(calls, workers=8)               [(method_name, args, kwargs)] concurrently, results in
                                             order; every request method is thread-safe. Do not
                                             run probes while requests are in flight: they swap
                                             the ruleset.
  Expressions (the rules language as an oracle):
    evaluate(expr, vars=None, functions="") -> Evaluation(.value | .error | .compile_error)
    evaluate_many([Probe.of_expression(expr, vars, functions)])
                                             one ruleset per batch, one request per expression.
    run_probes([Probe(...)]) -> [ProbeResult] the general form: a boolean `condition` over `vars`,
                                             with helper `functions`; allowed or denied + message.
        Variables are passed to a rule function as parameters. A variable whose value Firestore
        can store is seeded as a field of the probe's document and passed as resource.data.NAME;
        others (sets, durations, nested lists, ...) are passed as literals (`rules_literal`).
        Pass inline=True to pass every variable as a literal. At most 7 variables (Firestore's
        limit on parameters). A probe the emulator cannot compile gets `compile_error`; the
        others of its batch still run.

Values (Python <-> Firestore/rules): None, bool, int (64-bit integer), float (double), str,
bytes, list, dict (insertion order kept), Timestamp, Duration, LatLng, Path (a rules path),
Reference (a stored document reference; read back in rules as a path), SetValue, MapDiff.
In writes: SERVER_TIMESTAMP (request.time) and DELETE_FIELD (deleteField(): update, set merge).
Timestamps are stored with microsecond precision.

Decision: allowed (True / False / None when the request failed for another reason, e.g. a
precondition), status (HTTP), message (emulator text, e.g. "false for 'update' @ L12"),
reasons ([Reason(detail, method, line)] parsed from message), error (the evaluation error
behind a denial, e.g. "Null value error.", None when the condition was just false), body
(decoded JSON), documents (list results / get result, decoded: [(path, data)]).
The emulator authorizes in two phases and its message may hold both; see README.md.

Auth(uid, claims=None, standard_claims=False): an unsigned (alg "none") mock ID token. In the
rules, request.auth.uid == uid and request.auth.token == {"sub": uid, **claims}. With
standard_claims=True the claims Firebase's own test library adds are included too (iss, aud,
iat, exp, auth_time, user_id, firebase.sign_in_provider/identities).

Command line:  python3 firestore_emulator.py eval "EXPR"... [--vars JSON] [--functions TEXT]
End-to-end check of this driver: check_driver.py.
"""

from __future__ import annotations

import atexit
import base64
import dataclasses
import datetime as _dt
import http.client
import json
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Iterable, Optional, Sequence

DEFAULT_BINARY = "/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator"
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
MAX_WRITES_PER_COMMIT = 500
# Probes are batched into one ruleset each. Compile time grows faster than the ruleset (a 180 KB
# ruleset can take the emulator more than 30 s), so batches stay small.
MAX_PROBE_RULESET_BYTES = 60_000
MAX_PROBES_PER_RULESET = 300
RULES_LOAD_TIMEOUT = 180.0


class EmulatorError(RuntimeError):
    """The emulator could not be started or answered something unexpected."""


class RulesCompileError(EmulatorError):
    """The emulator refused a ruleset. `errors` holds (line, column, message) tuples."""

    def __init__(self, message: str, errors: list[tuple[int, int, str]]):
        super().__init__(message)
        self.errors = errors


# --------------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Timestamp:
    """A UTC instant with nanosecond precision (rules `timestamp`)."""

    seconds: int
    nanos: int = 0

    _ISO = re.compile(
        r"^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?)?"
        r"(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$"
    )

    @classmethod
    def parse(cls, text: str) -> "Timestamp":
        """ISO-8601 / RFC 3339: '2024-01-01', '2024-01-01T10:00:00Z', '...T10:00:00.123456789+02:00'."""
        m = cls._ISO.match(text.strip())
        if not m:
            raise ValueError(f"not an ISO-8601 timestamp: {text!r}")
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        h, mi, s = (int(m.group(i)) if m.group(i) else 0 for i in (4, 5, 6))
        frac = (m.group(7) or "").ljust(9, "0")
        days = (_dt.date(y, mo, d) - _dt.date(1970, 1, 1)).days
        seconds = days * 86400 + h * 3600 + mi * 60 + s
        if m.group(9):
            offset = int(m.group(10)) * 3600 + int(m.group(11)) * 60
            seconds -= offset if m.group(9) == "+" else -offset
        return cls(seconds, int(frac) if frac else 0)

    @classmethod
    def from_millis(cls, millis: int) -> "Timestamp":
        return cls(millis // 1000, (millis % 1000) * 1_000_000)

    @classmethod
    def from_datetime(cls, value: _dt.datetime) -> "Timestamp":
        if value.tzinfo is None:
            value = value.replace(tzinfo=_dt.timezone.utc)
        delta = value - _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)
        return cls(delta.days * 86400 + delta.seconds, delta.microseconds * 1000)

    def rfc3339(self) -> str:
        days, rem = divmod(self.seconds, 86400)
        date = _dt.date(1970, 1, 1) + _dt.timedelta(days=days)
        h, rem = divmod(rem, 3600)
        mi, s = divmod(rem, 60)
        frac = f".{self.nanos:09d}".rstrip("0") if self.nanos else ""
        return f"{date.year:04d}-{date.month:02d}-{date.day:02d}T{h:02d}:{mi:02d}:{s:02d}{frac}Z"

    def __str__(self) -> str:
        return self.rfc3339()


@dataclasses.dataclass(frozen=True)
class Duration:
    """A signed span (rules `duration`); `nanos` has the sign of `seconds` as in protobuf."""

    seconds: int
    nanos: int = 0

    @classmethod
    def from_nanos(cls, total: int) -> "Duration":
        seconds = int(total / 1_000_000_000) if total < 0 else total // 1_000_000_000
        return cls(seconds, total - seconds * 1_000_000_000)

    def total_nanos(self) -> int:
        return self.seconds * 1_000_000_000 + self.nanos


@dataclasses.dataclass(frozen=True)
class LatLng:
    latitude: float
    longitude: float


@dataclasses.dataclass(frozen=True)
class Path:
    """A rules `path` value, as segments (no leading 'databases/(default)/documents')."""

    segments: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> "Path":
        return cls(tuple(s for s in text.split("/") if s))

    def __str__(self) -> str:
        return "/" + "/".join(self.segments)


@dataclasses.dataclass(frozen=True)
class Reference:
    """A stored document reference field ('users/alice'); rules read it as a path."""

    path: str


class SetValue:
    """A rules `set` (no literal exists; `list.toSet()`). Equality ignores order."""

    __slots__ = ("elements",)

    def __init__(self, elements: Iterable[Any]):
        self.elements = list(elements)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SetValue) or len(self.elements) != len(other.elements):
            return False
        return all(any(same_value(a, b) for b in other.elements) for a in self.elements)

    def __repr__(self) -> str:
        return f"SetValue({self.elements!r})"


class MapDiff:
    """A rules `map_diff`: key -> 'ADDED' | 'REMOVED' | 'CHANGED' | 'UNCHANGED'."""

    __slots__ = ("statuses",)

    def __init__(self, statuses: dict[str, str]):
        self.statuses = dict(statuses)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MapDiff) and self.statuses == other.statuses

    def __repr__(self) -> str:
        return f"MapDiff({self.statuses!r})"


@dataclasses.dataclass(frozen=True)
class RawValue:
    """A debug() value of a kind this driver does not decode; `kind` is the proto field name."""

    kind: str
    text: str


class _Sentinel:
    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


SERVER_TIMESTAMP = _Sentinel("SERVER_TIMESTAMP")  # serverTimestamp(): becomes request.time
DELETE_FIELD = _Sentinel("DELETE_FIELD")  # deleteField(): only in update()/set(merge=True)


def same_value(a: Any, b: Any) -> bool:
    """Structural equality that keeps int and float apart (1 vs 1.0) and NaN equal to NaN."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return list(a.keys()) == list(b.keys()) and all(same_value(a[k], b[k]) for k in a)
    return a == b


# --------------------------------------------------------------------------------------------
# Firestore REST JSON encoding
# --------------------------------------------------------------------------------------------


def _encode_float(x: float) -> Any:
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    return x


def encode_value(value: Any) -> dict:
    """A Python value -> Firestore REST `Value` JSON."""
    if value is None:
        return {"nullValue": None}
    if isinstance(value, bool):
        return {"booleanValue": value}
    if isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            raise ValueError(f"integer {value} does not fit in 64 bits")
        return {"integerValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": _encode_float(value)}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, (bytes, bytearray)):
        return {"bytesValue": base64.b64encode(bytes(value)).decode("ascii")}
    if isinstance(value, _dt.datetime):
        return {"timestampValue": Timestamp.from_datetime(value).rfc3339()}
    if isinstance(value, Timestamp):
        return {"timestampValue": value.rfc3339()}
    if isinstance(value, LatLng):
        return {"geoPointValue": {"latitude": value.latitude, "longitude": value.longitude}}
    if isinstance(value, Reference):
        return {"referenceValue": value.path}  # completed by _complete_references
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [encode_value(v) for v in value]}}
    if isinstance(value, dict):
        return {"mapValue": {"fields": {str(k): encode_value(v) for k, v in value.items()}}}
    raise TypeError(f"cannot store a {type(value).__name__} in a Firestore document: {value!r}")


def decode_value(value: dict) -> Any:
    """Firestore REST `Value` JSON -> Python value."""
    kinds = [k for k in value if k.endswith("Value")]
    if len(kinds) != 1:
        raise EmulatorError(f"not a Firestore value: {value!r}")
    kind, inner = kinds[0], value[kinds[0]]
    if kind == "nullValue":
        return None
    if kind == "booleanValue":
        return bool(inner)
    if kind == "integerValue":
        return int(inner)
    if kind == "doubleValue":
        return float(inner)
    if kind == "stringValue":
        return inner
    if kind == "bytesValue":
        return base64.b64decode(inner)
    if kind == "timestampValue":
        return Timestamp.parse(inner)
    if kind == "geoPointValue":
        return LatLng(float(inner.get("latitude", 0.0)), float(inner.get("longitude", 0.0)))
    if kind == "referenceValue":
        return Reference(inner.split("/documents/", 1)[-1])
    if kind == "arrayValue":
        return [decode_value(v) for v in inner.get("values", [])]
    if kind == "mapValue":
        return {k: decode_value(v) for k, v in inner.get("fields", {}).items()}
    raise EmulatorError(f"unknown Firestore value kind {kind}")


def storable(value: Any) -> bool:
    """Whether Firestore can hold `value` in a document field (arrays cannot contain arrays)."""

    def ok(v: Any, in_array: bool) -> bool:
        if v is None or isinstance(v, (bool, int, float, str, bytes, bytearray, _dt.datetime, Timestamp, LatLng, Reference)):
            return not (isinstance(v, int) and not isinstance(v, bool) and not INT64_MIN <= v <= INT64_MAX)
        if isinstance(v, (list, tuple)):
            return not in_array and all(ok(x, True) for x in v)
        if isinstance(v, dict):
            return all(isinstance(k, str) and k != "" and ok(x, False) for k, x in v.items())
        return False

    return ok(value, False)


# --------------------------------------------------------------------------------------------
# Rules-language literals
# --------------------------------------------------------------------------------------------

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def rules_string(text: str) -> str:
    """A single-quoted rules string literal."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "'":
            out.append("\\'")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "'" + "".join(out) + "'"


def _float_literal(x: float) -> str:
    if math.isnan(x):
        return "math.sqrt(-1.0)"
    if math.isinf(x):
        return "(math.pow(10.0, 400))" if x > 0 else "(-math.pow(10.0, 400))"
    if x == 0.0 and math.copysign(1.0, x) < 0:
        return "(-0.0)"
    text = repr(abs(x))
    if "e" in text or "E" in text:
        # The rules lexer has no exponent notation: spell the number out.
        text = f"{abs(x):.17f}".rstrip("0")
        if float(text) != abs(x):
            text = format(abs(x), "f")
        if text.endswith("."):
            text += "0"
    return f"(-{text})" if x < 0 else text


def rules_literal(value: Any) -> str:
    """A rules-language expression that evaluates to `value`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value == INT64_MIN:
            return f"({INT64_MIN + 1} - 1)"
        return f"({value})" if value < 0 else str(value)
    if isinstance(value, float):
        return _float_literal(value)
    if isinstance(value, str):
        return rules_string(value)
    if isinstance(value, (bytes, bytearray)):
        return "b'" + "".join(f"\\x{b:02x}" for b in bytes(value)) + "'"
    if isinstance(value, _dt.datetime):
        value = Timestamp.from_datetime(value)
    if isinstance(value, Timestamp):
        millis, rest = divmod(value.nanos, 1_000_000)
        base = f"timestamp.value({value.seconds * 1000 + millis})"
        return f"({base} + duration.value({rest}, 'ns'))" if rest else base
    if isinstance(value, Duration):
        if value.nanos:
            return f"duration.value({value.total_nanos()}, 'ns')"
        return f"duration.value({value.seconds}, 's')"
    if isinstance(value, LatLng):
        return f"latlng.value({_float_literal(float(value.latitude))}, {_float_literal(float(value.longitude))})"
    if isinstance(value, Path):
        return f"path({rules_string(str(value))})"
    if isinstance(value, Reference):
        return f"path({rules_string('/databases/(default)/documents/' + value.path.strip('/'))})"
    if isinstance(value, SetValue):
        return f"[{', '.join(rules_literal(v) for v in value.elements)}].toSet()"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(rules_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{rules_string(str(k))}: {rules_literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no rules literal for {type(value).__name__}: {value!r}")


# --------------------------------------------------------------------------------------------
# debug() output (protobuf text format of google.firestore.rules Value)
# --------------------------------------------------------------------------------------------

_TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\')|(?P<punct>[{}:\[\],<>])|(?P<word>[^\s{}:\[\],<>"\']+))'
)
_ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, "'": 39, '"': 34, "?": 63}


def _unescape_c(body: str) -> bytes:
    out = bytearray()
    i = 0
    raw = body.encode("utf-8")
    while i < len(raw):
        c = raw[i]
        if c != 0x5C:
            out.append(c)
            i += 1
            continue
        nxt = chr(raw[i + 1])
        if nxt in "01234567":
            j = i + 1
            while j < len(raw) and j < i + 4 and chr(raw[j]) in "01234567":
                j += 1
            out.append(int(raw[i + 1 : j], 8) & 0xFF)
            i = j
        elif nxt in "xX":
            j = i + 2
            while j < len(raw) and j < i + 4 and chr(raw[j]) in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(raw[i + 2 : j], 16))
            i = j
        else:
            out.append(_ESCAPES.get(nxt, raw[i + 1]))
            i += 2
    return bytes(out)


def _parse_text_message(text: str) -> list[tuple[str, Any]]:
    """Protobuf text format -> [(field, scalar-token | nested list)]."""
    tokens = [m for m in _TOKEN.finditer(text) if m.group(0).strip()]
    pos = 0

    def message(closing: Optional[str]) -> list[tuple[str, Any]]:
        nonlocal pos
        fields: list[tuple[str, Any]] = []
        while pos < len(tokens):
            tok = tokens[pos]
            if closing is not None and tok.group("punct") == closing:
                pos += 1
                return fields
            name = tok.group("word")
            if name is None:
                raise ValueError(f"unexpected {tok.group(0)!r} in debug output")
            pos += 1
            if pos < len(tokens) and tokens[pos].group("punct") == ":":
                pos += 1
            nxt = tokens[pos]
            if nxt.group("punct") in ("{", "<"):
                pos += 1
                fields.append((name, message("}" if nxt.group("punct") == "{" else ">")))
            else:
                pos += 1
                fields.append((name, nxt.group("str") if nxt.group("str") is not None else nxt.group("word")))
        if closing is not None:
            raise ValueError("unbalanced debug output")
        return fields

    return message(None)


def _scalar_string(token: str) -> bytes:
    return _unescape_c(token[1:-1])


def _field(fields: list[tuple[str, Any]], name: str, default: Any = None) -> Any:
    for k, v in fields:
        if k == name:
            return v
    return default


def _proto_number(token: Optional[str], kind: type) -> Any:
    if token is None:
        return kind(0)
    lowered = token.lower()
    if kind is float:
        if lowered in ("inf", "infinity"):
            return math.inf
        if lowered in ("-inf", "-infinity"):
            return -math.inf
        if lowered == "nan":
            return math.nan
        return float(token)
    return int(token)


def decode_debug_value(kind: str, inner: Any) -> Any:
    """One `Value` field of debug() output -> Python value."""
    if kind == "null_value":
        return None
    if kind == "bool_value":
        return inner == "true"
    if kind == "int_value":
        return int(inner)
    if kind == "float_value":
        return _proto_number(inner, float)
    if kind == "string_value":
        return _scalar_string(inner).decode("utf-8", errors="surrogateescape")
    if kind == "bytes_value":
        return _scalar_string(inner)
    if kind == "list_value":
        return [decode_debug_value(*only(v)) for k, v in inner if k == "values"]
    if kind == "set_value":
        return SetValue(decode_debug_value(*only(v)) for k, v in inner if k == "values")
    if kind == "map_value":
        out: dict[str, Any] = {}
        for k, entry in inner:
            if k == "fields":
                key = _scalar_string(_field(entry, "key", '""')).decode("utf-8")
                out[key] = decode_debug_value(*only(_field(entry, "value", [("null_value", "NULL_VALUE")])))
        return out
    if kind == "map_diff_value":
        statuses = {}
        for k, entry in inner:
            if k == "key_statuses":
                statuses[_scalar_string(_field(entry, "key", '""')).decode("utf-8")] = _field(entry, "value", "UNKNOWN")
        return MapDiff(statuses)
    if kind == "timestamp_value":
        return Timestamp(_proto_number(_field(inner, "seconds"), int), _proto_number(_field(inner, "nanos"), int))
    if kind == "duration_value":
        return Duration(_proto_number(_field(inner, "seconds"), int), _proto_number(_field(inner, "nanos"), int))
    if kind == "latlng_value":
        return LatLng(_proto_number(_field(inner, "latitude"), float), _proto_number(_field(inner, "longitude"), float))
    if kind == "path_value":
        segments = []
        for k, seg in inner:
            if k == "segments":
                (skind, sval), = seg
                segments.append(_scalar_string(sval).decode("utf-8") if isinstance(sval, str) and sval[:1] in "\"'" else f"<{skind}>")
        return Path(tuple(segments))
    return RawValue(kind, repr(inner))


def only(fields: list[tuple[str, Any]]) -> tuple[str, Any]:
    if len(fields) != 1:
        raise ValueError(f"expected one value field, got {fields!r}")
    return fields[0]


class _DebugCollector:
    """Splits the emulator's stdout into debug() blocks and files the marked ones by marker."""

    def __init__(self, nonce: str):
        self.prefix = f"@@{nonce}:"
        self.values: dict[str, Any] = {}
        self.condition = threading.Condition()
        self._block: list[str] = []
        self._depth = 0

    def feed(self, line: str) -> None:
        stripped = line.rstrip("\n")
        if self._depth == 0:
            if stripped.endswith("{") and re.match(r"^[a-z_]+ \{$", stripped):
                self._block = [stripped]
                self._depth = 1
            return
        self._block.append(stripped)
        if stripped.rstrip().endswith("{"):
            self._depth += 1
        elif stripped.strip() == "}":
            self._depth -= 1
        if self._depth == 0:
            self._finish("\n".join(self._block))
            self._block = []

    def _finish(self, text: str) -> None:
        if not text.startswith("list_value {") or self.prefix not in text:
            return
        try:
            (kind, inner), = _parse_text_message(text)
            items = [only(v) for k, v in inner if k == "values"]
            if len(items) != 2 or items[0][0] != "string_value":
                return
            marker = decode_debug_value(*items[0])
            value = decode_debug_value(*items[1])
        except (ValueError, KeyError, IndexError):
            return
        with self.condition:
            self.values.setdefault(marker, value)
            self.condition.notify_all()

    def wait_for(self, markers: Sequence[str], timeout: float) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        with self.condition:
            while True:
                missing = [m for m in markers if m not in self.values]
                remaining = deadline - time.monotonic()
                if not missing or remaining <= 0:
                    return {m: self.values.pop(m) for m in markers if m in self.values}
                self.condition.wait(remaining)


# --------------------------------------------------------------------------------------------
# Requests, decisions, auth
# --------------------------------------------------------------------------------------------


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


@dataclasses.dataclass(frozen=True)
class Auth:
    """A signed-in caller. `claims` become request.auth.token (plus `sub`)."""

    uid: str
    claims: dict = dataclasses.field(default_factory=dict)
    standard_claims: bool = False

    def payload(self, project: str) -> dict:
        payload: dict[str, Any] = {}
        if self.standard_claims:
            payload.update(
                {
                    "iss": f"https://securetoken.google.com/{project}",
                    "aud": project,
                    "iat": 0,
                    "exp": 3600,
                    "auth_time": 0,
                    "user_id": self.uid,
                    "firebase": {"sign_in_provider": "custom", "identities": {}},
                }
            )
        payload["sub"] = self.uid
        payload.update(self.claims)
        return payload

    def bearer(self, project: str) -> str:
        header = _b64url(json.dumps({"alg": "none", "kid": "fakekid", "typ": "JWT"}).encode())
        body = _b64url(json.dumps(self.payload(project), default=_json_claim).encode())
        return f"Bearer {header}.{body}."


def _json_claim(value: Any) -> Any:
    if isinstance(value, Timestamp):
        return value.seconds
    raise TypeError(f"claim value {value!r} is not JSON")


@dataclasses.dataclass(frozen=True)
class Reason:
    detail: str  # e.g. "false", "Property x is undefined on object.", "Null value error."
    method: str  # get | list | create | update | delete
    line: int  # line of the allow statement in the ruleset


_REASON = re.compile(r"(?P<detail>.*?) for '(?P<method>[a-z]+)' @ L(?P<line>\d+)(?:, |$)", re.S)


@dataclasses.dataclass
class Decision:
    allowed: Optional[bool]  # None: the request failed for a reason other than the rules
    status: int
    message: str
    body: Any = None
    documents: Optional[list] = None  # decoded documents: [(path, data)] for list, [one] for get

    @property
    def reasons(self) -> list[Reason]:
        return [Reason(m.group("detail").strip(), m.group("method"), int(m.group("line"))) for m in _REASON.finditer(self.message)]

    @property
    def error(self) -> Optional[str]:
        """The evaluation error behind a denial, if any ("Null value error.", ...).

        The emulator authorizes in two phases and may report both: a first pass without the
        stored document ("evaluation error at L9:21") and the full evaluation. The full
        evaluation's own message is preferred."""
        if self.allowed is not False:
            return None
        details = [r.detail for r in self.reasons]
        real = [d for d in details if d != "false" and not d.startswith("evaluation error at ")]
        if real:
            return real[-1]
        if "false" in details:
            return None  # the full evaluation was simply false
        return details[-1] if details else None

    @property
    def outcome(self) -> str:
        return {True: "allow", False: "deny", None: "error"}[self.allowed]

    def __str__(self) -> str:
        return f"{self.outcome} ({self.status}){': ' + self.message if self.message else ''}"


@dataclasses.dataclass(frozen=True)
class Write:
    """One write of a commit. Build with Write.create/update/set/delete."""

    op: str
    path: str
    data: Optional[dict] = None
    merge: bool = False

    @classmethod
    def create(cls, path: str, data: dict) -> "Write":
        return cls("create", path, data)

    @classmethod
    def update(cls, path: str, data: dict) -> "Write":
        return cls("update", path, data)

    @classmethod
    def set(cls, path: str, data: dict, merge: bool = False) -> "Write":
        return cls("set", path, data, merge)

    @classmethod
    def delete(cls, path: str) -> "Write":
        return cls("delete", path)


_OPS = {
    "==": "EQUAL",
    "!=": "NOT_EQUAL",
    "<": "LESS_THAN",
    "<=": "LESS_THAN_OR_EQUAL",
    ">": "GREATER_THAN",
    ">=": "GREATER_THAN_OR_EQUAL",
    "in": "IN",
    "not-in": "NOT_IN",
    "array-contains": "ARRAY_CONTAINS",
    "array-contains-any": "ARRAY_CONTAINS_ANY",
}


def _field_path(dotted: str) -> str:
    """An SDK field path ('a.b', dots separate segments) -> REST field path."""
    return _field_path_segments(dotted.split("."))


# --------------------------------------------------------------------------------------------
# Probes: expressions and conditions evaluated by the emulator
# --------------------------------------------------------------------------------------------


@dataclasses.dataclass
class Probe:
    """A boolean rules `condition` over `vars`, with helper `functions` (Firestore syntax).

    Probe.expression(expr, ...) builds a probe whose value is read back through debug()."""

    condition: str
    vars: dict = dataclasses.field(default_factory=dict)
    functions: str = ""
    inline: bool = False
    expression: Optional[str] = None  # set by Probe.of_expression

    @classmethod
    def of_expression(cls, expr: str, vars: Optional[dict] = None, functions: str = "", inline: bool = False) -> "Probe":
        return cls(condition="", vars=dict(vars or {}), functions=functions, inline=inline, expression=expr)


_NO_VALUE = _Sentinel("NO_VALUE")


@dataclasses.dataclass
class ProbeResult:
    allowed: bool
    message: str  # the emulator's denial text ('' when allowed)
    compile_error: Optional[str] = None  # the ruleset did not compile because of this probe
    value: Any = _NO_VALUE  # for expression probes: the value debug() printed

    @property
    def error(self) -> Optional[str]:
        """The evaluation error of a denied probe (None when it was simply false or allowed)."""
        if self.compile_error:
            return self.compile_error
        if self.allowed:
            return None
        return Decision(False, 403, self.message).error


@dataclasses.dataclass
class Evaluation:
    value: Any = None
    error: Optional[str] = None  # the emulator's error text; None when the expression has a value
    compile_error: Optional[str] = None

    @property
    def ok(self) -> bool:
        return self.error is None and self.compile_error is None


# --------------------------------------------------------------------------------------------
# The emulator process
# --------------------------------------------------------------------------------------------


def _free_port(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class Emulator:
    def __init__(
        self,
        project: str = "regimen",
        binary: Optional[str] = None,
        host: str = "127.0.0.1",
        port: Optional[int] = None,
        startup_timeout: float = 90.0,
        request_timeout: float = 30.0,
    ):
        self.project = project
        self.binary = binary or self.find_binary()
        self.host = host
        self.port = port
        self.startup_timeout = startup_timeout
        self.request_timeout = request_timeout
        self._proc: Optional[subprocess.Popen] = None
        self._workdir: Optional[str] = None
        self._log: deque[str] = deque(maxlen=400)
        self._local = threading.local()
        self._loaded_rules: Optional[str] = None  # what the emulator has now
        self._request_rules: Optional[str] = None  # what load_rules() asked for
        self._rules_lock = threading.RLock()
        self._nonce = f"{os.getpid():x}{int(time.time() * 1000) % 10**8:x}"
        self._debug = _DebugCollector(self._nonce)
        self._probe_counter = 0
        self._probe_lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    # -- lifecycle ---------------------------------------------------------------------------

    @staticmethod
    def find_binary() -> Optional[str]:
        """The emulator launcher: $FIRESTORE_EMULATOR_BINARY, the Debian package path, or PATH."""
        for candidate in (os.environ.get("FIRESTORE_EMULATOR_BINARY"), DEFAULT_BINARY, shutil.which("cloud_firestore_emulator")):
            if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
        return None

    @classmethod
    def available(cls) -> bool:
        return cls.find_binary() is not None and shutil.which(os.environ.get("JAVA", "java")) is not None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> "Emulator":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def start(self) -> "Emulator":
        if self.running:
            return self
        if not self.binary:
            raise EmulatorError("Firestore emulator not found (set FIRESTORE_EMULATOR_BINARY)")
        fixed_port = self.port
        last_error: Optional[Exception] = None
        for _attempt in range(3):  # a free port can be taken between probing and binding
            self.port = fixed_port or _free_port(self.host)
            try:
                self._launch()
                return self
            except EmulatorError as exc:
                last_error = exc
                self.stop()
                if fixed_port:
                    break
        raise last_error or EmulatorError("emulator did not start")

    def _launch(self) -> None:
        self._workdir = tempfile.mkdtemp(prefix="firestore-emulator-")
        args = [
            self.binary,
            "start",
            f"--host={self.host}",
            f"--port={self.port}",
            f"--websocket_port={_free_port(self.host)}",
        ]
        self._log.clear()
        self._proc = subprocess.Popen(
            args,
            cwd=self._workdir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # own process group: stop() ends the launcher and its java child
        )
        atexit.register(self.stop)
        self._threads = [
            threading.Thread(target=self._pump, args=(self._proc.stdout, True), daemon=True),
            threading.Thread(target=self._pump, args=(self._proc.stderr, False), daemon=True),
        ]
        for t in self._threads:
            t.start()
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise EmulatorError(f"emulator exited with {self._proc.returncode}:\n{self.log_tail()}")
            try:
                status, body = self._http("GET", "/", timeout=2.0)
                if status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.25)
        raise EmulatorError(f"emulator not ready after {self.startup_timeout:.0f}s:\n{self.log_tail()}")

    def _pump(self, stream: Any, is_stdout: bool) -> None:
        for raw in iter(stream.readline, b""):
            line = raw.decode("utf-8", errors="replace")
            if is_stdout:
                self._debug.feed(line)
            if not line.startswith(("  ", "}")) or not is_stdout:
                self._log.append(line.rstrip("\n"))
        stream.close()

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(list(self._log)[-lines:])

    def stop(self) -> None:
        proc, self._proc = self._proc, None
        self._loaded_rules = None
        self._request_rules = None
        if proc is not None and proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)  # our own session: the launcher shell and java
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)
        for t in self._threads:
            t.join(timeout=2)
        self._threads = []
        if self._workdir:
            shutil.rmtree(self._workdir, ignore_errors=True)
            self._workdir = None

    # -- HTTP --------------------------------------------------------------------------------

    def _connection(self) -> http.client.HTTPConnection:
        conn = getattr(self._local, "conn", None)
        if conn is None or getattr(self._local, "port", None) != self.port:
            conn = http.client.HTTPConnection(self.host, self.port, timeout=self.request_timeout)
            self._local.conn, self._local.port = conn, self.port
        return conn

    def _http(self, method: str, path: str, body: Any = None, headers: Optional[dict] = None, timeout: Optional[float] = None) -> tuple[int, Any]:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        all_headers = {"Content-Type": "application/json"} if data is not None else {}
        all_headers.update(headers or {})
        if timeout is not None:  # one-off connection (readiness polling, slow ruleset compiles)
            conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
            try:
                conn.request(method, path, body=data, headers=all_headers)
                resp = conn.getresponse()
                return resp.status, self._decode_body(resp.read())
            finally:
                conn.close()
        for attempt in (0, 1):
            conn = self._connection()
            try:
                conn.request(method, path, body=data, headers=all_headers)
                resp = conn.getresponse()
                return resp.status, self._decode_body(resp.read())
            except (http.client.RemoteDisconnected, http.client.CannotSendRequest, BrokenPipeError, ConnectionResetError):
                # A kept-alive connection the server had closed: reconnect once.
                conn.close()
                self._local.conn = None
                if attempt == 1:
                    raise
        raise EmulatorError("unreachable")

    @staticmethod
    def _decode_body(raw: bytes) -> Any:
        text = raw.decode("utf-8", errors="replace")
        try:
            return json.loads(text) if text.strip() else None
        except ValueError:
            return text

    def _documents_root(self) -> str:
        return f"projects/{self.project}/databases/(default)/documents"

    def _doc_name(self, path: str) -> str:
        return f"{self._documents_root()}/{_relative_path(path)}"

    def _url(self, name_or_suffix: str) -> str:
        return "/v1/" + urllib.parse.quote(name_or_suffix, safe="/():@-_.~")

    # -- rules and data ----------------------------------------------------------------------

    def load_rules(self, source: str, force: bool = False) -> None:
        """Install `source` as the ruleset that get/list/create/update/set/delete/commit use.

        A no-op when it is already installed. Expression probes install rulesets of their own;
        the next request puts this one back (one recompile), so the two can be interleaved."""
        self._install_rules(source, force)
        self._request_rules = source

    def _ensure_request_rules(self) -> None:
        with self._rules_lock:
            if self._request_rules is not None and self._loaded_rules != self._request_rules:
                self._install_rules(self._request_rules)

    def _install_rules(self, source: str, force: bool = False) -> None:
        with self._rules_lock:
            self._install_rules_locked(source, force)

    def _install_rules_locked(self, source: str, force: bool) -> None:
        if source == self._loaded_rules and not force:
            return
        body = {"rules": {"files": [{"name": "firestore.rules", "content": source}]}}
        path = f"/emulator/v1/projects/{self.project}:securityRules"
        status, reply = self._http("PUT", path, body, timeout=max(self.request_timeout, RULES_LOAD_TIMEOUT))
        if status != 200:
            self._loaded_rules = None  # the emulator keeps the previous ruleset on failure
            message = _error_message(reply)
            errors = [(int(m.group(1)), int(m.group(2)), m.group(3)) for m in re.finditer(r"L(\d+):(\d+) (.*)", message)]
            raise RulesCompileError(message, errors)
        self._loaded_rules = source

    def clear(self) -> None:
        status, reply = self._http("DELETE", f"/emulator/v1/projects/{self.project}/databases/(default)/documents")
        if status != 200:
            raise EmulatorError(f"clear failed ({status}): {_error_message(reply)}")

    def seed(self, documents: dict) -> None:
        """Write {path: data} as the owner, bypassing rules."""
        writes = [Write.set(path, data) for path, data in documents.items()]
        for start in range(0, len(writes), MAX_WRITES_PER_COMMIT):
            d = self._commit(writes[start : start + MAX_WRITES_PER_COMMIT], "Bearer owner")
            if d.status != 200:
                raise EmulatorError(f"seeding failed ({d.status}): {d.message}")

    def seed_document(self, path: str, data: dict) -> None:
        self.seed({path: data})

    def read_document(self, path: str) -> Optional[dict]:
        status, reply = self._http("GET", self._url(self._doc_name(path)), headers={"Authorization": "Bearer owner"})
        if status == 404:
            return None
        if status != 200:
            raise EmulatorError(f"read failed ({status}): {_error_message(reply)}")
        return {k: decode_value(v) for k, v in reply.get("fields", {}).items()}

    # -- requests ----------------------------------------------------------------------------

    def _auth_headers(self, auth: Optional[Auth]) -> dict:
        return {"Authorization": auth.bearer(self.project)} if auth is not None else {}

    def get(self, path: str, auth: Optional[Auth] = None) -> Decision:
        self._ensure_request_rules()
        return self._get(path, auth)

    def _get(self, path: str, auth: Optional[Auth]) -> Decision:
        status, reply = self._http("GET", self._url(self._doc_name(path)), headers=self._auth_headers(auth))
        decision = _decision(status, reply, allowed_statuses=(200, 404))
        if status == 200 and isinstance(reply, dict):
            decision.documents = [(_relative_path(reply["name"]), {k: decode_value(v) for k, v in reply.get("fields", {}).items()})]
        elif status == 404:
            decision.documents = []
        return decision

    def list(
        self,
        collection_path: str,
        where: Sequence[tuple] = (),
        order_by: Sequence[Any] = (),
        limit: Optional[int] = None,
        offset: Optional[int] = None,
        auth: Optional[Auth] = None,
        collection_group: bool = False,
        start_at: Optional[Sequence[Any]] = None,
        start_after: Optional[Sequence[Any]] = None,
        end_at: Optional[Sequence[Any]] = None,
        end_before: Optional[Sequence[Any]] = None,
    ) -> Decision:
        self._ensure_request_rules()
        segments = [s for s in _relative_path(collection_path).split("/") if s]
        if collection_group:
            parent, collection_id = segments[:-1], segments[-1]
        else:
            if len(segments) % 2 != 1:
                raise ValueError(f"not a collection path: {collection_path!r}")
            parent, collection_id = segments[:-1], segments[-1]
        query: dict[str, Any] = {"from": [{"collectionId": collection_id, "allDescendants": collection_group}]}
        filters = [_filter(*clause) for clause in where]
        if len(filters) == 1:
            query["where"] = filters[0]
        elif filters:
            query["where"] = {"compositeFilter": {"op": "AND", "filters": filters}}
        if order_by:
            query["orderBy"] = [_order(o) for o in order_by]
        if limit is not None:
            query["limit"] = limit
        if offset is not None:
            query["offset"] = offset
        # Cursors as the SDKs send them: startAt/endBefore are "before" the given values.
        if start_at is not None or start_after is not None:
            values = start_at if start_at is not None else start_after
            query["startAt"] = {"values": [encode_value(v) for v in values], "before": start_at is not None}
        if end_at is not None or end_before is not None:
            values = end_before if end_before is not None else end_at
            query["endAt"] = {"values": [encode_value(v) for v in values], "before": end_before is not None}
        parent_name = "/".join([self._documents_root()] + parent)
        status, reply = self._http("POST", self._url(parent_name + ":runQuery"), {"structuredQuery": query}, headers=self._auth_headers(auth))
        decision = _decision(status, reply, allowed_statuses=(200,))
        if status == 200 and isinstance(reply, list):
            stream_errors = [r["error"] for r in reply if isinstance(r, dict) and "error" in r]
            if stream_errors:
                return _decision(int(stream_errors[0].get("code", 500)), {"error": stream_errors[0]}, allowed_statuses=())
            decision.documents = [
                (_relative_path(r["document"]["name"]), {k: decode_value(v) for k, v in r["document"].get("fields", {}).items()})
                for r in reply
                if isinstance(r, dict) and "document" in r
            ]
        return decision

    def create(self, path: str, data: dict, auth: Optional[Auth] = None) -> Decision:
        return self.commit([Write.create(path, data)], auth)

    def update(self, path: str, data: dict, auth: Optional[Auth] = None) -> Decision:
        return self.commit([Write.update(path, data)], auth)

    def set(self, path: str, data: dict, auth: Optional[Auth] = None, merge: bool = False) -> Decision:
        return self.commit([Write.set(path, data, merge)], auth)

    def delete(self, path: str, auth: Optional[Auth] = None) -> Decision:
        return self.commit([Write.delete(path)], auth)

    def commit(self, writes: Sequence[Write], auth: Optional[Auth] = None) -> Decision:
        self._ensure_request_rules()
        headers = self._auth_headers(auth)
        return self._commit(writes, headers.get("Authorization"))

    def _commit(self, writes: Sequence[Write], authorization: Optional[str]) -> Decision:
        body = {"writes": [self._rest_write(w) for w in writes]}
        headers = {"Authorization": authorization} if authorization else {}
        status, reply = self._http("POST", self._url(self._documents_root() + ":commit"), body, headers=headers)
        return _decision(status, reply, allowed_statuses=(200,))

    def _rest_write(self, write: Write) -> dict:
        name = self._doc_name(write.path)
        if write.op == "delete":
            return {"delete": name}
        data = write.data or {}
        fields: dict[str, Any] = {}
        transforms: list[dict] = []
        mask: list[str] = []
        omitted = object()

        def place(segments: list[str], value: Any) -> None:
            node = fields
            for seg in segments[:-1]:
                node = node.setdefault(seg, {"mapValue": {"fields": {}}})["mapValue"]["fields"]
            node[segments[-1]] = self._complete_references(encode_value(value))

        def without_sentinels(segments: list[str], value: Any) -> Any:
            # serverTimestamp() becomes a transform applied after the write, as the SDKs send it.
            if value is SERVER_TIMESTAMP:
                transforms.append({"fieldPath": _field_path_segments(segments), "setToServerValue": "REQUEST_TIME"})
                return omitted
            if value is DELETE_FIELD:
                raise ValueError("DELETE_FIELD is only valid as a field of update() or a leaf of set(merge=True)")
            if isinstance(value, dict):
                kept = {k: without_sentinels(segments + [str(k)], v) for k, v in value.items()}
                return {k: v for k, v in kept.items() if v is not omitted}
            return value

        def merge_leaves(segments: list[str], value: Any) -> None:
            # set(merge=True) touches only the leaves it names; an empty map is a leaf.
            if isinstance(value, dict) and value:
                for k, v in value.items():
                    merge_leaves(segments + [str(k)], v)
                return
            if value is DELETE_FIELD:
                mask.append(_field_path_segments(segments))
                return
            kept = without_sentinels(segments, value)
            if kept is not omitted:
                place(segments, kept)
                mask.append(_field_path_segments(segments))

        for key, value in data.items():
            if write.op == "update":
                # updateDoc: keys are field paths ("a.b" is nested); a value replaces the field.
                segments = str(key).split(".")
                if value is not DELETE_FIELD:
                    kept = without_sentinels(segments, value)
                    if kept is omitted:
                        continue
                    place(segments, kept)
                mask.append(_field_path_segments(segments))
            elif write.merge:
                merge_leaves([str(key)], value)
            else:
                kept = without_sentinels([str(key)], value)
                if kept is not omitted:
                    place([str(key)], kept)
        rest: dict[str, Any] = {"update": {"name": name, "fields": fields}}
        if write.op == "update" or write.merge:
            rest["updateMask"] = {"fieldPaths": sorted(set(mask))}
        if transforms:
            rest["updateTransforms"] = transforms
        if write.op == "create":
            rest["currentDocument"] = {"exists": False}
        elif write.op == "update":
            rest["currentDocument"] = {"exists": True}
        return rest

    def _complete_references(self, encoded: dict) -> dict:
        if "referenceValue" in encoded:
            return {"referenceValue": self._doc_name(encoded["referenceValue"])}
        if "arrayValue" in encoded:
            return {"arrayValue": {"values": [self._complete_references(v) for v in encoded["arrayValue"]["values"]]}}
        if "mapValue" in encoded:
            return {"mapValue": {"fields": {k: self._complete_references(v) for k, v in encoded["mapValue"]["fields"].items()}}}
        return encoded

    def run_many(self, calls: Sequence[tuple], workers: int = 8) -> list:
        """Run [(method_name, args, kwargs)] concurrently; results in call order."""

        def one(call: tuple) -> Any:
            name, args, kwargs = (tuple(call) + ((), {}))[:3]
            return getattr(self, name)(*args, **kwargs)

        if workers <= 1 or len(calls) <= 1:
            return [one(c) for c in calls]
        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, calls))

    # -- expressions -------------------------------------------------------------------------

    def evaluate(self, expr: str, vars: Optional[dict] = None, functions: str = "", inline: bool = False) -> Evaluation:
        """What the emulator computes for `expr` (a value, or its error message)."""
        return self.evaluate_many([Probe.of_expression(expr, vars, functions, inline)])[0]

    def evaluate_many(self, probes: Sequence[Probe], workers: int = 8) -> list[Evaluation]:
        results = self.run_probes(probes, workers=workers)
        out = []
        for probe, result in zip(probes, results):
            if result.compile_error:
                out.append(Evaluation(compile_error=result.compile_error))
            elif result.allowed:
                if result.value is _NO_VALUE:
                    raise EmulatorError(f"debug() output of {probe.expression!r} not seen on the emulator's stdout")
                out.append(Evaluation(value=result.value))
            else:
                out.append(Evaluation(error=result.error or result.message or "denied"))
        return out

    def run_probes(self, probes: Sequence[Probe], workers: int = 8, debug_timeout: float = 10.0, shared_functions: str = "") -> list[ProbeResult]:
        """Evaluate every probe: batches share one ruleset; one GET per probe.

        `shared_functions` are declared once per ruleset, visible to every probe."""
        results: list[Optional[ProbeResult]] = [None] * len(probes)
        pending = list(range(len(probes)))
        while pending:
            batch, size = [], 0
            for index in pending:
                block = self._probe_block(index, probes[index])
                if batch and (size + len(block[0]) > MAX_PROBE_RULESET_BYTES or len(batch) >= MAX_PROBES_PER_RULESET):
                    break
                batch.append((index, block))
                size += len(block[0])
            pending = pending[len(batch) :]
            self._run_probe_batch(probes, batch, results, workers, debug_timeout, shared_functions)
        return [r if r is not None else ProbeResult(False, "not run") for r in results]

    def _probe_block(self, index: int, probe: Probe) -> tuple[str, dict, str, str]:
        """(match-block source, documents to seed, debug marker, document path) for one probe."""
        with self._probe_lock:
            self._probe_counter += 1
            serial = self._probe_counter
        marker = f"@@{self._nonce}:{serial}"
        params, args, fields = [], [], {}
        if len(probe.vars) > 7:
            raise ValueError("a probe takes at most 7 variables (Firestore's limit on function parameters)")
        for name, value in probe.vars.items():
            if not _IDENT.match(name):
                raise ValueError(f"variable name {name!r} is not an identifier")
            params.append(name)
            if not probe.inline and storable(value):
                fields[name] = value
                args.append(f"resource.data.{name}")
            else:
                args.append(rules_literal(value))
        if probe.expression is not None:
            body = f"debug([{rules_string(marker)}, ({probe.expression}\n)]) != null"
        else:
            body = f"({probe.condition}\n)"
        doc_id = f"p{serial}"
        source = (
            f"    match /regimen_probes/{doc_id} {{\n"
            f"{_indent(probe.functions, 6)}"
            f"      function __probe({', '.join(params)}) {{\n"
            f"        return {body};\n"
            f"      }}\n"
            f"      allow get: if __probe({', '.join(args)});\n"
            f"    }}\n"
        )
        path = f"regimen_probes/{doc_id}"
        return source, ({path: fields} if fields else {}), marker, path

    @staticmethod
    def _probe_header(shared_functions: str) -> str:
        return "rules_version = '2';\nservice cloud.firestore {\n  match /databases/{database}/documents {\n" + _indent(shared_functions, 4)

    _PROBE_FOOTER = "  }\n}\n"

    def _compile_alone(self, source: str, shared_functions: str) -> Optional[RulesCompileError]:
        try:
            self._install_rules(self._probe_header(shared_functions) + source + self._PROBE_FOOTER, force=True)
            return None
        except RulesCompileError as exc:
            return exc

    def _run_probe_batch(self, probes: Sequence[Probe], batch: list, results: list, workers: int, debug_timeout: float, shared: str) -> None:
        header = self._probe_header(shared)
        live = list(batch)
        while live:
            spans, text, line = {}, header, header.count("\n") + 1
            for index, (source, *_rest) in live:
                n = source.count("\n")
                spans[index] = (line, line + n - 1)
                text += source
                line += n
            try:
                self._install_rules(text + self._PROBE_FOOTER)
                break
            except RulesCompileError as exc:
                # When a ruleset fails, the emulator lists its warnings too (unused variables,
                # operands "not comparable", arguments of an unexpected static type), with no
                # severity. So a block named in the messages is only blamed once it fails on
                # its own; when none does, bisect.
                named = sorted({i for i, (lo, hi) in spans.items() for (l, _c, _m) in exc.errors if lo <= l <= hi}, key=lambda i: spans[i][0])
                guilty = set()
                for index in named[:20]:
                    source = next(b[0] for i, b in live if i == index)
                    alone = self._compile_alone(source, shared)
                    if alone is not None:
                        guilty.add(index)
                        base = header.count("\n")
                        messages = [f"L{l - base}:{c} {m}" for (l, c, m) in alone.errors] or [str(alone)]
                        results[index] = ProbeResult(False, str(alone), compile_error="; ".join(messages))
                if not guilty:
                    if len(live) == 1:
                        index = live[0][0]
                        results[index] = ProbeResult(False, str(exc), compile_error=str(exc))
                        return
                    half = len(live) // 2
                    self._run_probe_batch(probes, live[:half], results, workers, debug_timeout, shared)
                    self._run_probe_batch(probes, live[half:], results, workers, debug_timeout, shared)
                    return
                live = [(i, b) for i, b in live if i not in guilty]
        if not live:
            return
        docs: dict = {}
        for _index, (_source, seeds, _marker, _path) in live:
            docs.update(seeds)
        if docs:
            self.seed(docs)
        decisions = self.run_many([("_get", (path, None), {}) for _i, (_s, _d, _m, path) in live], workers=workers)
        expected_markers = [marker for (i, (_s, _d, marker, _p)), d in zip(live, decisions) if d.allowed and probes[i].expression is not None]
        seen = self._debug.wait_for(expected_markers, debug_timeout) if expected_markers else {}
        for (index, (_source, _seeds, marker, _path)), decision in zip(live, decisions):
            if decision.allowed is None:
                result = ProbeResult(False, f"request failed ({decision.status}): {decision.message}")
            else:
                result = ProbeResult(decision.allowed, "" if decision.allowed else decision.message)
            if probes[index].expression is not None and decision.allowed:
                result.value = seen.get(marker, _NO_VALUE)
            results[index] = result


def _indent(text: str, spaces: int) -> str:
    if not text.strip():
        return ""
    pad = " " * spaces
    return "".join(pad + line + "\n" for line in text.strip("\n").split("\n"))


def _field_path_segments(segments: list[str]) -> str:
    """REST field path: segments joined by dots, backtick-quoted unless plain identifiers."""
    return ".".join(seg if _IDENT.match(seg) else "`" + seg.replace("\\", "\\\\").replace("`", "\\`") + "`" for seg in segments)


def _filter(field: str, op: str, value: Any) -> dict:
    path = {"fieldPath": _field_path(field)}
    if op in ("==", "!=") and (value is None or (isinstance(value, float) and math.isnan(value))):
        unary = ("IS_NULL" if value is None else "IS_NAN") if op == "==" else ("IS_NOT_NULL" if value is None else "IS_NOT_NAN")
        return {"unaryFilter": {"field": path, "op": unary}}
    if op not in _OPS:
        raise ValueError(f"unknown query operator {op!r}")
    return {"fieldFilter": {"field": path, "op": _OPS[op], "value": encode_value(value)}}


def _order(spec: Any) -> dict:
    field, direction = (spec, "asc") if isinstance(spec, str) else spec
    return {"field": {"fieldPath": _field_path(field)}, "direction": "DESCENDING" if direction.lower().startswith("desc") else "ASCENDING"}


def _relative_path(path: str) -> str:
    path = path.strip("/")
    for marker in ("/documents/", "documents/"):
        if path.startswith(("projects/", "databases/")) and marker in path:
            return path.split(marker, 1)[1]
    return path


def _error_message(reply: Any) -> str:
    if isinstance(reply, dict) and isinstance(reply.get("error"), dict):
        return str(reply["error"].get("message", "")).strip()
    if isinstance(reply, list) and reply and isinstance(reply[0], dict) and "error" in reply[0]:
        return str(reply[0]["error"].get("message", "")).strip()
    return "" if reply is None else str(reply).strip()


def _decision(status: int, reply: Any, allowed_statuses: tuple) -> Decision:
    if status in allowed_statuses:
        return Decision(True, status, "", reply)
    if status == 403:
        return Decision(False, status, _error_message(reply), reply)
    return Decision(None, status, _error_message(reply), reply)


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def _main(argv: Sequence[str]) -> int:
    import argparse

    parser = argparse.ArgumentParser(description="Ask Google's Firestore emulator what a rules expression evaluates to.")
    sub = parser.add_subparsers(dest="command", required=True)
    ev = sub.add_parser("eval", help="evaluate expressions")
    ev.add_argument("expr", nargs="+")
    ev.add_argument("--vars", default="{}", help="JSON object of variables")
    ev.add_argument("--functions", default="", help="helper function declarations")
    args = parser.parse_args(argv)
    if not Emulator.available():
        print("emulator not found")
        return 2
    with Emulator() as emu:
        results = emu.evaluate_many([Probe.of_expression(e, json.loads(args.vars), args.functions) for e in args.expr])
        for expr, result in zip(args.expr, results):
            # Shown as a rules literal, so 3 and 3.0, sets and durations stay distinguishable.
            shown = rules_literal(result.value) if result.ok else f"error: {result.compile_error or result.error}"
            print(f"{expr}  =>  {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
