"""A compile-once validator for the JSON Schema subset the catalog uses.

The judge checks predicted arguments against the tool schema on its hot path, and the MCP servers
check every call; a general validator (``jsonschema``) is ~10x slower for these small schemas. The
subset: type (incl. unions), enum, const, minimum / maximum / exclusive*, multipleOf, minLength /
maxLength, pattern, format, items, minItems / maxItems, uniqueItems, properties, required,
additionalProperties, anyOf / oneOf, default (ignored). Unknown keywords are an error at compile time,
so a schema never silently means less than it says. The test suite checks agreement with
``jsonschema`` on the whole catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, time
from typing import Any

Check = Callable[[Any, str, list[str]], None]

_IGNORED = {"description", "title", "default", "examples", "$schema", "$comment", "x-unit"}
_DURATION = re.compile(r"^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME = re.compile(r"^\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$")


def _is_date(s: str) -> bool:
    if not _DATE.match(s):
        return False
    try:
        date.fromisoformat(s)
    except ValueError:
        return False
    return True


def _is_datetime(s: str) -> bool:
    if len(s) < 16 or s[10] not in "T ":
        return False
    if not _DATE.match(s[:10]):
        return False
    try:
        datetime.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _is_time(s: str) -> bool:
    if not _TIME.match(s):
        return False
    try:
        time.fromisoformat(s.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


FORMATS: dict[str, Callable[[str], bool]] = {
    "date": _is_date,
    "date-time": _is_datetime,
    "time": _is_time,
    "duration": lambda s: bool(_DURATION.match(s)),
    "email": lambda s: bool(re.match(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", s)),
}

_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer())
    ),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


class SchemaCompileError(ValueError):
    pass


def _type_name(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, int | float):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    if isinstance(v, dict):
        return "object"
    return type(v).__name__


def compile_schema(schema: dict[str, Any], check_formats: bool = True) -> Check:
    """Compile ``schema`` into ``check(value, path, errors)`` that appends 'path: message' strings."""
    checks: list[Check] = []
    unknown = (
        set(schema)
        - _IGNORED
        - {
            "type",
            "enum",
            "const",
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
            "minLength",
            "maxLength",
            "pattern",
            "format",
            "items",
            "minItems",
            "maxItems",
            "uniqueItems",
            "properties",
            "required",
            "additionalProperties",
            "anyOf",
            "oneOf",
        }
    )
    if unknown:
        raise SchemaCompileError(f"unsupported JSON Schema keywords: {sorted(unknown)}")

    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        preds = [_TYPES[t] for t in types]
        want = " or ".join(types)
        exact = {"string": str, "boolean": bool, "array": list, "object": dict}
        if len(types) == 1 and types[0] in exact:  # the common case, without a generator per value
            cls = exact[types[0]]

            def c_type(v: Any, p: str, e: list[str]) -> None:
                if type(v) is not cls and not isinstance(v, cls):
                    e.append(f"{p}: expected {want}, got {_type_name(v)} {v!r}")

        else:

            def c_type(v: Any, p: str, e: list[str]) -> None:
                if not any(f(v) for f in preds):
                    e.append(f"{p}: expected {want}, got {_type_name(v)} {v!r}")

        checks.append(c_type)
    if "enum" in schema:
        allowed = list(schema["enum"])

        def c_enum(v: Any, p: str, e: list[str]) -> None:
            if v not in allowed or any(isinstance(v, bool) != isinstance(a, bool) for a in allowed if a == v):
                e.append(f"{p}: {v!r} is not one of {allowed}")

        checks.append(c_enum)
    if "const" in schema:
        const = schema["const"]

        def c_const(v: Any, p: str, e: list[str]) -> None:
            if v != const:
                e.append(f"{p}: must be {const!r}")

        checks.append(c_const)
    for key, op, word in (
        ("minimum", lambda v, b: v < b, "at least"),
        ("maximum", lambda v, b: v > b, "at most"),
        ("exclusiveMinimum", lambda v, b: v <= b, "greater than"),
        ("exclusiveMaximum", lambda v, b: v >= b, "less than"),
    ):
        if key in schema:
            checks.append(_bound(schema[key], op, word))
    if "multipleOf" in schema:
        m = schema["multipleOf"]

        def c_mult(v: Any, p: str, e: list[str]) -> None:
            if _TYPES["number"](v) and abs(v / m - round(v / m)) > 1e-9:
                e.append(f"{p}: must be a multiple of {m}")

        checks.append(c_mult)
    if "minLength" in schema or "maxLength" in schema:
        lo, hi = schema.get("minLength", 0), schema.get("maxLength")

        def c_len(v: Any, p: str, e: list[str]) -> None:
            if isinstance(v, str) and (len(v) < lo or (hi is not None and len(v) > hi)):
                e.append(f"{p}: length {len(v)} outside [{lo}, {hi if hi is not None else '∞'}]")

        checks.append(c_len)
    if "pattern" in schema:
        rx = re.compile(schema["pattern"])

        def c_pat(v: Any, p: str, e: list[str]) -> None:
            if isinstance(v, str) and not rx.search(v):
                e.append(f"{p}: {v!r} does not match {rx.pattern!r}")

        checks.append(c_pat)
    if "format" in schema and check_formats and schema["format"] in FORMATS:
        fmt_name = schema["format"]
        fmt = FORMATS[fmt_name]

        def c_fmt(v: Any, p: str, e: list[str]) -> None:
            if isinstance(v, str) and not fmt(v):
                e.append(f"{p}: {v!r} is not a valid {fmt_name}")

        checks.append(c_fmt)
    if "items" in schema or "minItems" in schema or "maxItems" in schema or schema.get("uniqueItems"):
        checks.append(_compile_array(schema, check_formats))
    if "properties" in schema or "required" in schema or "additionalProperties" in schema:
        checks.append(_compile_object(schema, check_formats))
    for key in ("anyOf", "oneOf"):
        if key in schema:
            subs = [compile_schema(s, check_formats) for s in schema[key]]
            one = key == "oneOf"

            def c_any(v: Any, p: str, e: list[str], subs: list[Check] = subs, one: bool = one) -> None:
                ok = 0
                for s in subs:
                    errs: list[str] = []
                    s(v, p, errs)
                    ok += not errs
                if ok == 0 or (one and ok > 1):
                    e.append(
                        f"{p}: matches {ok} of the alternatives, expected {'exactly 1' if one else '≥ 1'}"
                    )

            checks.append(c_any)

    if len(checks) == 1:
        return checks[0]

    def check(v: Any, p: str, e: list[str]) -> None:
        n = len(e)
        for c in checks:
            c(v, p, e)
            if len(e) > n:  # stop at the first failing keyword of this node: one clear message
                return

    return check


def _bound(bound: float, op: Callable[[Any, float], bool], word: str) -> Check:
    def c(v: Any, p: str, e: list[str]) -> None:
        if _TYPES["number"](v) and op(v, bound):
            e.append(f"{p}: {v!r} must be {word} {bound}")

    return c


def _compile_array(schema: dict[str, Any], check_formats: bool) -> Check:
    item = compile_schema(schema["items"], check_formats) if "items" in schema else None
    lo, hi, uniq = schema.get("minItems", 0), schema.get("maxItems"), bool(schema.get("uniqueItems"))

    def c(v: Any, p: str, e: list[str]) -> None:
        if not isinstance(v, list):
            return
        if len(v) < lo or (hi is not None and len(v) > hi):
            e.append(f"{p}: {len(v)} items, expected between {lo} and {hi if hi is not None else '∞'}")
        if uniq and len({repr(x) for x in v}) != len(v):
            e.append(f"{p}: items must be unique")
        if item is not None:
            for i, x in enumerate(v):
                item(x, f"{p}[{i}]", e)

    return c


def _compile_object(schema: dict[str, Any], check_formats: bool) -> Check:
    props = {k: compile_schema(s, check_formats) for k, s in schema.get("properties", {}).items()}
    required = list(schema.get("required", []))
    addl = schema.get("additionalProperties", True)
    addl_check = compile_schema(addl, check_formats) if isinstance(addl, dict) else None

    def c(v: Any, p: str, e: list[str]) -> None:
        if not isinstance(v, dict):
            return
        for r in required:
            if r not in v:
                e.append(f"{_join(p, r)}: required argument missing")
        for k, x in v.items():
            sub = props.get(k)
            if sub is not None:
                sub(x, _join(p, k), e)
            elif addl is False:
                e.append(f"{_join(p, k)}: unknown argument (allowed: {', '.join(props) or 'none'})")
            elif addl_check is not None:
                addl_check(x, _join(p, k), e)

    return c


def _join(p: str, k: str) -> str:
    return f"{p}.{k}" if p else k


class Validator:
    """A compiled schema: ``errors(value)`` lists 'path: message' strings, empty when valid."""

    __slots__ = ("_check", "schema")

    def __init__(self, schema: dict[str, Any], check_formats: bool = True) -> None:
        self.schema = schema
        self._check = compile_schema(schema, check_formats)

    def errors(self, value: Any) -> list[str]:
        e: list[str] = []
        self._check(value, "", e)
        return e

    def is_valid(self, value: Any) -> bool:
        return not self.errors(value)
