"""Reading predictions files (docs/format.md §9): JSONL, one line per record id.

Accepted per line: ``{"id", "calls": [{"name", "arguments": {...}}]}`` or OpenAI ``tool_calls``
(``[{"type": "function", "function": {"name", "arguments": "<JSON string>"}}]``), plus the optional
keys ``content``, ``raw``, ``usage``, ``latency_ms``, ``cost_usd``, ``model``, ``error``.

A tool call whose arguments are not valid JSON makes that record ``invalid_output`` (the model's
fault, scored). A line that is not JSON, a wrong type, a duplicate or unknown id is the file's fault:
``PredictionFileError`` lists every such line, and nothing is scored from a broken file.
A line with a non-empty ``error`` (the model call failed) scores as ``invalid_output``: a failed call
is never a free abstention.

Bounds (docs/predict.md, "Bounds"): a line is at most ``MAX_LINE_CHARS`` characters and nests at most
``MAX_DEPTH`` arrays / objects; a string is at most ``MAX_STRING_CHARS`` characters of valid Unicode
(no lone surrogate); a number literal is at most ``MAX_NUMBER_CHARS`` characters and finite (no
``NaN`` / ``Infinity``, no ``1e999``, no non-zero literal that underflows to 0). A line past a bound
is the file's fault and named in the ``PredictionFileError``; an *arguments string* past a bound
(the model's own output, kept verbatim) makes that record ``invalid_output`` like unparsable JSON.
Lines are split on ``\n`` only (JSONL): U+2028, U+0085 … inside a string do not end a line.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Iterator
from itertools import accumulate
from pathlib import Path
from typing import Any

from .schema import Call, Prediction
from .schema._base import trusted
from .schema.record import trusted_call

MAX_BYTES = 64 * 1024 * 1024
MAX_REPORTED = 50
MAX_LINE_CHARS = 4 * 2**20
"""Characters in one line: real lines are a few KiB; a long reasoning trace kept in ``raw`` fits."""
MAX_DEPTH = 64
"""Nested arrays / objects in a line (the line's own object is level 1), and in an arguments string.
Real lines nest 7 levels at most (a ``tool_calls`` list, its call, ``function``, the arguments
string's object, a nested argument object or list)."""
MAX_STRING_CHARS = 2**20
"""Characters in one string (after unescaping), keys included."""
MAX_NUMBER_CHARS = 40
"""Characters in one number literal: a 64-bit id has 20, a float 24 at most in shortest form."""
OPTIONAL = ("content", "raw", "usage", "latency_ms", "cost_usd", "model", "error")
_TYPES: dict[str, tuple[type, ...]] = {
    "content": (str,),
    "usage": (dict,),
    "latency_ms": (int, float),
    "cost_usd": (int, float),
    "model": (str,),
    "error": (str,),
}


class PredictionFileError(ValueError):
    def __init__(self, source: str, errors: list[tuple[int, str]], total: int | None = None) -> None:
        self.source = source
        self.errors = errors
        n = total if total is not None else len(errors)
        shown = "\n".join(f"  line {ln}: {msg}" if ln else f"  {msg}" for ln, msg in errors[:MAX_REPORTED])
        more = f"\n  … and {n - MAX_REPORTED} more" if n > MAX_REPORTED else ""
        super().__init__(f"{source}: {n} problem(s); nothing was scored\n{shown}{more}")


class _LineError(Exception):
    pass


class BoundError(ValueError):
    """A JSON text breaks one of the reader's bounds; the message names the bound."""


def _int(lit: str) -> int:
    if len(lit) > MAX_NUMBER_CHARS:
        raise BoundError(f"a number literal of {len(lit):,} characters; the limit is {MAX_NUMBER_CHARS}")
    return int(lit)


def _float(lit: str) -> float:
    if len(lit) > MAX_NUMBER_CHARS:
        raise BoundError(f"a number literal of {len(lit):,} characters; the limit is {MAX_NUMBER_CHARS}")
    v = float(lit)
    if not math.isfinite(v):
        raise BoundError(f"the number {lit} is out of range (it overflows to infinity)")
    if v == 0.0 and any(c in "123456789" for c in lit.split("e")[0].split("E")[0]):
        raise BoundError(f"the number {lit} is out of range (it underflows to 0)")
    return v


def _constant(lit: str) -> Any:
    raise BoundError(f"{lit} is not a JSON number (NaN and Infinity are not allowed)")


_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_constant)
# a string token, or an unterminated one up to the end: the match never fails once at a quote, so
# re.sub is linear (a pattern that can fail there retries at every later quote: quadratic)
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_surrogate(text: str) -> bool:
    """Whether ``text`` holds a lone surrogate: ``_SURROGATE.search(text) is not None``, 4x faster on
    long non-ASCII text (a 40 MiB file: 0.06 s, not 0.24 s) — UTF-8 encodes every code point but a
    surrogate, and ``isascii`` answers at once."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _depth(text: str) -> int:
    """How deep the arrays / objects of a JSON text nest, brackets inside strings not counted (an upper
    bound for a text that is not JSON: json.loads never nests deeper before it fails)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def _strings(value: Any) -> Iterator[str]:
    """Every string in a decoded JSON value, keys included (iterative: the depth is already bounded)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            yield v
        elif isinstance(v, dict):
            stack.extend(v)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def loads_bounded(text: str, max_chars: int = MAX_LINE_CHARS, max_string: int = MAX_STRING_CHARS) -> Any:
    """``json.loads`` within the reader's bounds: raises ``BoundError`` (the bound named) or
    ``json.JSONDecodeError``; never ``RecursionError`` or the ``ValueError`` of a huge integer.
    ``max_chars`` / ``max_string``: other limits for other texts (e.g. a completion body)."""
    if len(text) > max_chars:
        raise BoundError(f"{len(text):,} characters long; the limit is {max_chars:,}")
    if text.count("[") + text.count("{") > MAX_DEPTH:
        depth = _depth(text)
        if depth > MAX_DEPTH:
            raise BoundError(f"nested {depth} levels deep; the limit is {MAX_DEPTH}")
    value = _DECODER.decode(text)
    long_text = len(text) > max_string
    surrogate = "\\ud" in text or "\\uD" in text or _has_surrogate(text)
    if long_text or surrogate:
        for s in _strings(value):
            if len(s) > max_string:
                raise BoundError(f"a string of {len(s):,} characters; the limit is {max_string:,}")
            if surrogate and _SURROGATE.search(s):
                raise BoundError("a string holds a lone surrogate (\\ud800-\\udfff): not valid Unicode")
    return value


def _parse_args(raw: Any, where: str) -> tuple[dict[str, Any] | None, str | None]:
    """(arguments, None) or (None, why the record is invalid_output). Wrong types raise _LineError."""
    if isinstance(raw, dict):
        return raw, None
    if raw is None:
        return {}, None
    if isinstance(raw, str):
        if not raw.strip():
            return {}, None
        try:
            v = loads_bounded(raw)
        except json.JSONDecodeError as e:
            return None, f"{where}: arguments are not valid JSON ({e.msg} at char {e.pos})"
        except BoundError as e:
            return None, f"{where}: the arguments string breaks a bound of the reader: {e}"
        if not isinstance(v, dict):
            return None, f"{where}: arguments decode to {type(v).__name__}, not an object"
        return v, None
    raise _LineError(f"{where}.arguments must be an object or a JSON string, got {type(raw).__name__}")


def _parse_calls(obj: dict[str, Any]) -> tuple[list[Call], str | None]:
    calls: list[Call] = []
    invalid: str | None = None
    if "calls" in obj and "tool_calls" in obj:
        raise _LineError("give either 'calls' or 'tool_calls', not both")
    if "tool_calls" in obj:
        items = obj["tool_calls"]
        if items is None:
            items = []
        if not isinstance(items, list):
            raise _LineError(f"'tool_calls' must be a list, got {type(items).__name__}")
        for i, tc in enumerate(items):
            if not isinstance(tc, dict) or not isinstance(tc.get("function"), dict):
                raise _LineError(f"tool_calls[{i}] must be an object with a 'function' object")
            fn = tc["function"]
            if not isinstance(fn.get("name"), str) or not fn["name"]:
                raise _LineError(f"tool_calls[{i}].function.name must be a non-empty string")
            args, why = _parse_args(fn.get("arguments"), f"tool_calls[{i}].function")
            if why is not None:
                invalid = invalid or why
                continue
            calls.append(trusted_call(fn["name"], args or {}))
        return calls, invalid
    items = obj.get("calls", [])
    if items is None:
        items = []
    if not isinstance(items, list):
        raise _LineError(f"'calls' must be a list, got {type(items).__name__}")
    for i, c in enumerate(items):
        if not isinstance(c, dict):
            raise _LineError(f"calls[{i}] must be an object with 'name' and 'arguments'")
        unknown = set(c) - {"name", "arguments", "id", "type"}
        if unknown:
            raise _LineError(f"calls[{i}] has unknown keys {sorted(unknown)}")
        if not isinstance(c.get("name"), str) or not c["name"]:
            raise _LineError(f"calls[{i}].name must be a non-empty string")
        args, why = _parse_args(c.get("arguments"), f"calls[{i}]")
        if why is not None:
            invalid = invalid or why
            continue
        calls.append(trusted_call(c["name"], args or {}))
    return calls, invalid


def parse_line(obj: Any) -> Prediction:
    if not isinstance(obj, dict):
        raise _LineError(f"each line must be a JSON object, got {type(obj).__name__}")
    rid = obj.get("id")
    if not isinstance(rid, str) or not rid:
        raise _LineError("'id' must be a non-empty string")
    unknown = set(obj) - {"id", "calls", "tool_calls", *OPTIONAL}
    if unknown:
        raise _LineError(
            f"unknown keys {sorted(unknown)} (allowed: id, calls, tool_calls, {', '.join(OPTIONAL)})"
        )
    for k, types in _TYPES.items():
        if obj.get(k) is not None and (not isinstance(obj[k], types) or isinstance(obj[k], bool)):
            raise _LineError(
                f"'{k}' must be {' or '.join(t.__name__ for t in types)}, got {type(obj[k]).__name__}"
            )
    calls, invalid = _parse_calls(obj)
    if obj.get("error"):
        invalid = invalid or f"the model call failed or its output could not be parsed: {obj['error']}"
    extra = {k: obj[k] for k in OPTIONAL if obj.get(k) is not None}
    for k in ("latency_ms", "cost_usd"):
        if k in extra:
            extra[k] = float(extra[k])
    # every field was checked above (types, non-empty id and names, object arguments), so the model
    # is built without a second validation pass; tests pin it equal to the validated model
    return trusted(
        Prediction,
        {"id": rid, "calls": calls, "invalid": invalid is not None, "invalid_reason": invalid, **extra},
    )


def parse_predictions(
    lines: Iterable[str], source: str = "<predictions>", known_ids: set[str] | None = None
) -> dict[str, Prediction]:
    """Parse JSONL lines; raise PredictionFileError listing every bad line (none is skipped)."""
    out: dict[str, Prediction] = {}
    first_line: dict[str, int] = {}
    errors: list[tuple[int, str]] = []
    total = 0
    for ln, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = loads_bounded(line)
        except json.JSONDecodeError as e:
            total += 1
            if len(errors) < MAX_REPORTED:
                errors.append((ln, f"not valid JSON ({e.msg} at column {e.colno})"))
            continue
        except BoundError as e:
            total += 1
            if len(errors) < MAX_REPORTED:
                errors.append((ln, f"the line breaks a bound of the reader: {e}"))
            continue
        try:
            p = parse_line(obj)
        except _LineError as e:
            total += 1
            if len(errors) < MAX_REPORTED:
                errors.append((ln, str(e)))
            continue
        if p.id in out:
            total += 1
            errors.append((ln, f"duplicate id {p.id!r} (first on line {first_line[p.id]})"))
            continue
        if known_ids is not None and p.id not in known_ids:
            total += 1
            if len(errors) < MAX_REPORTED:
                errors.append((ln, f"unknown id {p.id!r}: not a record of the evaluated split"))
            continue
        out[p.id] = p
        first_line[p.id] = ln
    if errors:
        raise PredictionFileError(source, errors, total)
    return out


def split_lines(text: str) -> list[str]:
    """JSONL lines: split on ``\\n`` only (``str.splitlines`` also splits on U+2028, U+0085 …, which
    a JSON string may hold raw); a ``\\r`` before it is JSON whitespace."""
    return text.split("\n")


def check_line_text(text: str) -> Prediction:
    """The prediction one line of text gives, or ``PredictionFileError`` naming why the reader refuses it
    (the writer of ``plugineval predict`` checks every line with this before it appends it)."""
    return next(iter(parse_predictions([text], "<line>").values()))


def human_size(n: float) -> str:
    """A byte count as people read it: 32 MiB, 1.5 MiB, 51 KiB, 900 B (a limit under 1 MiB is not 0)."""
    for unit, scale in (("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale:
            v = n / scale
            return f"{v:.0f} {unit}" if v >= 10 or v == int(v) else f"{v:.1f} {unit}"
    return f"{n:.0f} B"


def read_predictions(
    path: str | Path, known_ids: set[str] | None = None, max_bytes: int = MAX_BYTES
) -> dict[str, Prediction]:
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"predictions file not found: {p}")
    size = p.stat().st_size
    if size > max_bytes:
        raise PredictionFileError(
            str(p), [(0, f"file is {human_size(size)}; the limit is {human_size(max_bytes)}")]
        )
    try:
        text = p.read_bytes().decode("utf-8")  # e.start: the file's byte (read_text's is its chunk's)
    except UnicodeDecodeError as e:
        raise PredictionFileError(str(p), [(0, f"not UTF-8 text ({e.reason} at byte {e.start})")]) from None
    if "\r" in text:  # the newlines read_text makes (universal newlines), at half its cost on 40 MiB
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return parse_predictions(split_lines(text), str(p), known_ids)
