"""The YAML subset the conformance tables are written in: a reader and a value writer.

Standard library only, so the replay runs wherever Python 3 and the emulator are. The reader
accepts block mappings and sequences, flow collections ([..], {..}), single- and double-quoted
scalars, plain scalars, `|`/`>` block scalars and comments, and resolves plain scalars the way
YAML 1.1 readers (PyYAML, Yams) do for the forms it allows: null, true/false, decimal ints,
floats with a dot (exponent signed), .inf/.nan, and words. Anything else unquoted (yes/no/on/off,
0x1F, 1e3, dates, punctuation) is rejected: quote it.

    load(text, origin) -> (value, lines) where `lines` maps id() of every mapping and sequence
                          to the 1-based line it starts on (for error reports).
    dump_scalar(value)  -> one flow-style YAML scalar or collection, int vs float kept.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_INT = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+][0-9]+)?$")
_SPECIAL = {".inf": math.inf, "+.inf": math.inf, "-.inf": -math.inf, ".nan": math.nan,
            ".Inf": math.inf, "+.Inf": math.inf, "-.Inf": -math.inf, ".NaN": math.nan,
            ".INF": math.inf, "+.INF": math.inf, "-.INF": -math.inf, ".NAN": math.nan}
_PLAIN_STRING = re.compile(r"^[A-Za-z_][A-Za-z0-9_. /-]*$")
_YAML11_BOOLS = {"y", "Y", "n", "N", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"}


class YAMLSubsetError(ValueError):
    def __init__(self, origin: str, line: int, message: str):
        super().__init__(f"{origin}:{line}: {message}")
        self.line = line


def resolve_plain(text: str, origin: str = "<yaml>", line: int = 0) -> Any:
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in ("true", "True", "TRUE"):
        return True
    if text in ("false", "False", "FALSE"):
        return False
    if text in _SPECIAL:
        return _SPECIAL[text]
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    if _PLAIN_STRING.match(text) and text not in _YAML11_BOOLS:
        return text
    raise YAMLSubsetError(origin, line, f"plain scalar {text!r} may mean different things to different YAML readers; quote it")


_DQ_ESCAPES = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
               "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028", "P": "\u2029"}


def _double_quoted(body: str, origin: str, line: int) -> str:
    out, i = [], 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        nxt = body[i + 1] if i + 1 < len(body) else ""
        width = {"x": 2, "u": 4, "U": 8}.get(nxt)
        if width:
            digits = body[i + 2 : i + 2 + width]
            if len(digits) != width or not re.match(r"^[0-9a-fA-F]+$", digits):
                raise YAMLSubsetError(origin, line, f"bad escape \\{nxt}{digits}")
            out.append(chr(int(digits, 16)))
            i += 2 + width
        elif nxt in _DQ_ESCAPES:
            out.append(_DQ_ESCAPES[nxt])
            i += 2
        else:
            raise YAMLSubsetError(origin, line, f"unknown escape \\{nxt}")
    return "".join(out)


class _Reader:
    def __init__(self, text: str, origin: str):
        self.origin = origin
        self.lines = text.split("\n")
        self.locations: dict[int, int] = {}

    def fail(self, line: int, message: str) -> None:
        raise YAMLSubsetError(self.origin, line + 1, message)

    # -- lines --------------------------------------------------------------------------------

    def _content(self, index: int) -> str:
        """The line without its comment (outside quotes) and trailing blanks."""
        line = self.lines[index]
        quote = None
        i = 0
        while i < len(line):
            ch = line[i]
            if quote:
                if ch == "\\" and quote == '"':
                    i += 2
                    continue
                if ch == quote:
                    if quote == "'" and line[i + 1 : i + 2] == "'":
                        i += 2
                        continue
                    quote = None
            elif ch in "'\"":
                if i == 0 or line[i - 1] in " \t[{,:-":
                    quote = ch
            elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
                return line[:i].rstrip()
            i += 1
        return line.rstrip()

    def _next(self, index: int) -> int:
        while index < len(self.lines) and not self._content(index).strip():
            index += 1
        return index

    @staticmethod
    def _indent(text: str) -> int:
        if "\t" in text[: len(text) - len(text.lstrip())]:
            return -1
        return len(text) - len(text.lstrip(" "))

    # -- blocks -------------------------------------------------------------------------------

    def document(self) -> Any:
        index = self._next(0)
        if index < len(self.lines) and self._content(index).strip() == "---":
            index = self._next(index + 1)
        value, index = self.block(index, 0)
        index = self._next(index)
        if index < len(self.lines):
            self.fail(index, "unexpected content after the document")
        return value

    def block(self, index: int, indent: int) -> tuple[Any, int]:
        text = self._content(index)
        if self._indent(text) < 0:
            self.fail(index, "tabs are not allowed for indentation")
        if text.strip().startswith("- ") or text.strip() == "-":
            return self.sequence(index, self._indent(text))
        return self.mapping(index, self._indent(text))

    def sequence(self, index: int, indent: int) -> tuple[list, int]:
        items: list = []
        self.locations[id(items)] = index + 1
        while True:
            index = self._next(index)
            if index >= len(self.lines):
                return items, index
            text = self._content(index)
            here = self._indent(text)
            if here < indent:
                return items, index
            if here > indent or not (text.strip().startswith("- ") or text.strip() == "-"):
                self.fail(index, "bad indentation in a sequence")
            rest = text[indent + 1 :]
            if not rest.strip():
                value, index = self.block(self._next(index + 1), indent + 1)
                items.append(value)
                continue
            inner_indent = indent + 1 + (len(rest) - len(rest.lstrip(" ")))
            if self._key_split(rest.strip(), index) is not None:
                # "- key: value" opens a mapping whose further keys align with `key`.
                self.lines[index] = " " * inner_indent + rest.strip() + self.lines[index][len(text):]
                value, index = self.mapping(index, inner_indent)
                items.append(value)
            else:
                value, index = self.inline(rest.strip(), index, inner_indent)
                items.append(value)

    def _key_split(self, text: str, index: int) -> Any:
        """(key, rest) when `text` starts with a mapping key, else None."""
        if text[:1] in "\"'":
            end = self._quoted_end(text, 0)
            if end is not None and text[end + 1 : end + 2] == ":" and (len(text) == end + 2 or text[end + 2] == " "):
                return self._scalar(text[: end + 1], 0), text[end + 2 :].strip()
            return None
        if text[:1] in "[{":
            return None
        m = re.match(r"^([^\s:#][^:#]*?):(?:\s+(.*)|)$", text)
        if not m:
            return None
        self._check_key(m.group(1), index)
        return m.group(1), (m.group(2) or "").strip()

    def _check_key(self, key: str, index: int) -> None:
        # YAML 1.1 readers may turn a plain y/n/yes/no/on/off key into a bool.
        if key in _YAML11_BOOLS:
            self.fail(index, f"plain key {key!r} may be read as a bool; quote it")

    def mapping(self, index: int, indent: int) -> tuple[dict, int]:
        out: dict = {}
        self.locations[id(out)] = index + 1
        while True:
            index = self._next(index)
            if index >= len(self.lines):
                return out, index
            text = self._content(index)
            here = self._indent(text)
            if here < indent:
                return out, index
            if here > indent:
                self.fail(index, "bad indentation in a mapping")
            split = self._key_split(text.strip(), index)
            if split is None:
                self.fail(index, f"expected 'key: value', found {text.strip()!r}")
            key, rest = split
            if key in out:
                self.fail(index, f"duplicate key {key!r}")
            if rest == "":
                nxt = self._next(index + 1)
                if nxt < len(self.lines):
                    nxt_text = self._content(nxt)
                    deeper = self._indent(nxt_text) > indent
                    same_level_seq = self._indent(nxt_text) == indent and nxt_text.strip().startswith("-")
                    if deeper or same_level_seq:
                        out[key], index = self.block(nxt, self._indent(nxt_text))
                        continue
                out[key] = None
                index += 1
                continue
            out[key], index = self.inline(rest, index, indent + 1)

    def inline(self, text: str, index: int, indent: int) -> tuple[Any, int]:
        """A value that starts on the line `index`: scalar, flow collection or block scalar."""
        if text[:1] in "|>":
            return self.block_scalar(text, index, indent)
        if text[:1] in "[{":
            # Flow collections may continue over following, more indented lines.
            joined, end = text, index
            while True:
                try:
                    value, pos = self._flow(joined, 0, index)
                    if joined[pos:].strip():
                        self.fail(index, f"unexpected {joined[pos:].strip()!r} after a flow collection")
                    return value, end + 1
                except _Incomplete:
                    end += 1
                    if end >= len(self.lines):
                        self.fail(index, "unterminated flow collection")
                    joined += " " + self._content(end).strip()
        if text[:1] in "\"'":
            end = self._quoted_end(text, 0)
            if end is None:
                self.fail(index, "unterminated quoted scalar (multi-line quoted scalars are not supported)")
            if text[end + 1 :].strip():
                self.fail(index, f"unexpected {text[end + 1:].strip()!r} after a quoted scalar")
            return self._scalar(text, index), index + 1
        if ": " in text or text.endswith(":"):
            self.fail(index, "nested block mapping on one line; use a flow mapping {..}")
        return resolve_plain(text, self.origin, index + 1), index + 1

    def block_scalar(self, header: str, index: int, indent: int) -> tuple[str, int]:
        m = re.match(r"^([|>])([-+]?)$", header.strip())
        if not m:
            self.fail(index, f"unsupported block scalar header {header!r}")
        style, chomp = m.group(1), m.group(2)
        body: list[str] = []
        block_indent = None
        index += 1
        while index < len(self.lines):
            raw = self.lines[index]
            if raw.strip():
                here = self._indent(raw)
                if block_indent is None:
                    if here < indent:
                        break
                    block_indent = here
                if here < block_indent:
                    break
                body.append(raw[block_indent:])
            else:
                body.append("")
            index += 1
        while body and body[-1] == "" and chomp != "+":
            body.pop()
        if style == "|":
            text = "\n".join(body)
        else:
            text = ""
            for i, line in enumerate(body):
                if i and line and body[i - 1]:
                    text += " "
                elif i:
                    text += "\n"
                text += line
        return (text + ("\n" if chomp != "-" and body else "")), index

    # -- scalars and flow ---------------------------------------------------------------------

    @staticmethod
    def _quoted_end(text: str, start: int) -> Any:
        quote = text[start]
        i = start + 1
        while i < len(text):
            if quote == '"' and text[i] == "\\":
                i += 2
                continue
            if text[i] == quote:
                if quote == "'" and text[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                return i
            i += 1
        return None

    def _scalar(self, text: str, index: int) -> Any:
        if text.startswith('"'):
            return _double_quoted(text[1:-1], self.origin, index + 1)
        if text.startswith("'"):
            return text[1:-1].replace("''", "'")
        return resolve_plain(text.strip(), self.origin, index + 1)

    def _flow(self, text: str, pos: int, index: int) -> tuple[Any, int]:
        pos = self._skip(text, pos)
        if pos >= len(text):
            raise _Incomplete()
        ch = text[pos]
        if ch == "[":
            items: list = []
            self.locations[id(items)] = index + 1
            pos = self._skip(text, pos + 1)
            if pos < len(text) and text[pos] == "]":
                return items, pos + 1
            while True:
                value, pos = self._flow(text, pos, index)
                items.append(value)
                pos = self._skip(text, pos)
                if pos >= len(text):
                    raise _Incomplete()
                if text[pos] == "]":
                    return items, pos + 1
                if text[pos] != ",":
                    self.fail(index, f"expected ',' or ']' in a flow sequence, found {text[pos]!r}")
                pos = self._skip(text, pos + 1)
                if pos < len(text) and text[pos] == "]":
                    return items, pos + 1
        if ch == "{":
            out: dict = {}
            self.locations[id(out)] = index + 1
            pos = self._skip(text, pos + 1)
            if pos < len(text) and text[pos] == "}":
                return out, pos + 1
            while True:
                key, pos = self._flow_scalar(text, pos, index, key=True)
                pos = self._skip(text, pos)
                if pos >= len(text):
                    raise _Incomplete()
                if text[pos] != ":":
                    self.fail(index, f"expected ':' after a flow mapping key, found {text[pos]!r}")
                if not isinstance(key, str):
                    self.fail(index, f"mapping keys must be strings, found {key!r}")
                if key in out:
                    self.fail(index, f"duplicate key {key!r}")
                out[key], pos = self._flow(text, pos + 1, index)
                pos = self._skip(text, pos)
                if pos >= len(text):
                    raise _Incomplete()
                if text[pos] == "}":
                    return out, pos + 1
                if text[pos] != ",":
                    self.fail(index, f"expected ',' or '}}' in a flow mapping, found {text[pos]!r}")
                pos = self._skip(text, pos + 1)
                if pos < len(text) and text[pos] == "}":
                    return out, pos + 1
        return self._flow_scalar(text, pos, index, key=False)

    def _flow_scalar(self, text: str, pos: int, index: int, key: bool) -> tuple[Any, int]:
        pos = self._skip(text, pos)
        if pos >= len(text):
            raise _Incomplete()
        if text[pos] in "\"'":
            end = self._quoted_end(text, pos)
            if end is None:
                raise _Incomplete()
            return self._scalar(text[pos : end + 1], index), end + 1
        if text[pos] in "[{":
            if key:
                self.fail(index, "collection used as a mapping key")
            return self._flow(text, pos, index)
        end = pos
        while end < len(text) and text[end] not in ",]}" and not (text[end] == ":" and (end + 1 == len(text) or text[end + 1] in " ,]}")):
            end += 1
        raw = text[pos:end].strip()
        if key:
            self._check_key(raw, index)
            return raw, end
        return resolve_plain(raw, self.origin, index + 1), end

    @staticmethod
    def _skip(text: str, pos: int) -> int:
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        return pos


class _Incomplete(Exception):
    pass


def load(text: str, origin: str = "<yaml>") -> tuple[Any, dict[int, int]]:
    reader = _Reader(text, origin)
    return reader.document(), reader.locations


# --------------------------------------------------------------------------------------------
# Writing values
# --------------------------------------------------------------------------------------------


def dump_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def dump_float(x: float) -> str:
    if math.isnan(x):
        return ".nan"
    if math.isinf(x):
        return ".inf" if x > 0 else "-.inf"
    text = repr(x)
    if "e" in text:
        mantissa, exponent = text.split("e")
        if "." not in mantissa:
            mantissa += ".0"
        sign = "" if exponent.startswith(("-", "+")) else "+"
        return f"{mantissa}e{sign}{exponent}"
    if "." not in text:
        text += ".0"
    return text


def dump_scalar(value: Any) -> str:
    """A flow-style YAML rendering of a plain value (None, bool, int, float, str, list, dict)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return dump_float(value)
    if isinstance(value, str):
        return dump_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(dump_scalar(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{dump_string(str(k))}: {dump_scalar(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no YAML form for {type(value).__name__}")
