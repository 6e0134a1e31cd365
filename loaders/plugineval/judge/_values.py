"""Per-argument semantic verification: the deterministic rules (SPEC §4 step 3).

A cheap exact comparison comes first; the normalizers run only on a mismatch. Each function returns
a ``Reason`` (and sometimes a short detail); the caller decides what an undecided pair becomes.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any

from ..jsonschema_lite import Check, compile_schema
from ..normalize import (
    canonical_place,
    compare_time,
    normalize_text,
    parse_money,
    parse_number,
    parse_quantity,
)
from ._types import ACCEPTING, Reason

# Enum members read on the hot path, bound once: on CPython 3.11 ``Reason.EXACT`` goes through
# EnumType's attribute lookup (~0.13-0.18 us); a module global costs ~0.01 us.
R_ALIAS = Reason.ALIAS
R_EXACT = Reason.EXACT
R_FORMAT_VARIANT = Reason.FORMAT_VARIANT
R_MONEY_EQUAL = Reason.MONEY_EQUAL
R_NORMALIZED = Reason.NORMALIZED
R_NUMBER_EQUAL = Reason.NUMBER_EQUAL
R_PLACE_ALIAS = Reason.PLACE_ALIAS
R_QUANTITY_EQUAL = Reason.QUANTITY_EQUAL
R_RELATIVE_TIME = Reason.RELATIVE_TIME
R_SCHEMA_VIOLATION = Reason.SCHEMA_VIOLATION
R_TIME_MISMATCH = Reason.TIME_MISMATCH
R_UNDECIDED = Reason.UNDECIDED
R_VALUE_MISMATCH = Reason.VALUE_MISMATCH


_MISSING = object()
TIME_FORMATS = frozenset({"date", "date-time", "time", "duration"})


@dataclass(slots=True)
class ArgSpec:
    """What the judge knows about one argument of one tool (compiled once per tool schema)."""

    name: str
    check: Check | None  # the schema check without string formats (formats are step 3's business)
    aliases: dict[str, Any]  # normalized surface form -> canonical value
    time_valued: bool
    default: Any
    required: bool
    enum: bool
    description: str
    items: ArgSpec | None = None


def make_argspec(
    name: str, schema: dict[str, Any] | None, ann: dict[str, Any] | None, required: bool
) -> ArgSpec:
    sch = schema or {}
    ann = ann or {}
    aliases = {_norm(str(k)): v for k, v in (ann.get("aliases") or {}).items()}
    fmt = sch.get("format")
    time_valued = bool(ann.get("time_valued")) or fmt in TIME_FORMATS
    try:
        check = compile_schema(sch, check_formats=False) if sch else None
    except ValueError:
        check = None  # a schema beyond the supported subset (imported data): types are not checked
    items = None
    if isinstance(sch.get("items"), dict):
        items = make_argspec(name, sch["items"], ann, False)
    return ArgSpec(
        name=name,
        check=check,
        aliases=aliases,
        time_valued=time_valued and sch.get("type", "string") in ("string", ["string", "null"]),
        default=sch.get("default", _MISSING),
        required=required,
        enum="enum" in sch,
        description=str(sch.get("description", "")),
        items=items,
    )


@functools.lru_cache(maxsize=65536)
def _norm(s: str) -> str:
    return normalize_text(s)


@functools.lru_cache(maxsize=65536)
def _facts(s: str) -> tuple[str | None, tuple[float, str] | None, tuple[float, str] | None, float | None]:
    """What the text normalizers read in one string: the place it names, an amount of money, a
    quantity with its unit, a number (None where there is none). One cache entry per string: a free
    text that normalization did not settle goes through all four."""
    return canonical_place(s), parse_money(s), parse_quantity(s), _number(s)


@functools.lru_cache(maxsize=65536)
def _number(s: str) -> float | None:
    return parse_number(s)


def same(a: Any, b: Any) -> bool:
    """JSON equality where a boolean never equals a number (True != 1) but 1 == 1.0."""
    ta, tb = type(a), type(b)
    if ta is tb and ta is not list and ta is not dict:  # the common case: two scalars of one type
        return bool(a == b)
    if ta is bool or tb is bool:
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


_SIZED = frozenset({str, list, dict})


def is_empty(v: Any) -> bool:
    """None, "", [] or {} (a JSON value that says nothing)."""
    return v is None or (type(v) in _SIZED and not v)


def _close(a: Any, b: Any) -> bool:
    """Equal numbers: integers exactly (ids, timestamps, cents), floats up to representation noise."""
    if a == b:
        return True
    if float(a).is_integer() and float(b).is_integer():
        return False
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def compare_value(
    pred: Any, accepted: list[Any], spec: ArgSpec, ref: datetime, tz: tzinfo
) -> tuple[Reason, str | None]:
    """How ``pred`` relates to the accepted gold values of one argument."""
    for g in accepted:
        if pred == g and same(pred, g):  # == first: C-level, and false for almost every pair here
            return R_EXACT, None
    value = pred
    if isinstance(pred, str) and spec.aliases:
        mapped = spec.aliases.get(_norm(pred), _MISSING)
        if mapped is not _MISSING:
            if any(same(mapped, g) for g in accepted):
                return R_ALIAS, f"{pred!r} -> {mapped!r}"
            value = mapped
    if spec.check is not None:
        errs: list[str] = []
        spec.check(value, spec.name, errs)
        if errs:
            return R_SCHEMA_VIOLATION, errs[0]
    if spec.time_valued and isinstance(value, str):
        return _compare_time(value, accepted, ref, tz)
    if isinstance(value, list):
        return _compare_list(value, accepted, spec, ref, tz)
    if isinstance(value, dict):
        return _compare_dict(value, accepted, ref, tz)
    t = type(value)
    if t is int or t is float:  # JSON numbers (a bool is neither)
        texts = False
        for g in accepted:
            tg = type(g)
            if tg is int or tg is float:
                if _close(value, g):
                    return R_NUMBER_EQUAL, None
            elif tg is str:
                texts = True
        if texts:
            for g in accepted:
                if type(g) is str and (n := _number(g)) is not None and _close(n, value):
                    return R_NUMBER_EQUAL, None
        return R_VALUE_MISMATCH, None
    if isinstance(value, str):
        return _compare_text(value, accepted, spec)
    return R_VALUE_MISMATCH, None


def _compare_time(value: str, accepted: list[Any], ref: datetime, tz: tzinfo) -> tuple[Reason, str | None]:
    relative = False
    for g in accepted:
        if not isinstance(g, str):
            continue
        v = compare_time(value, g, ref, tz)
        if v == "equal":
            return R_EXACT, None
        if v == "format_variant":
            return R_FORMAT_VARIANT, f"{value!r} is {g!r}"
        relative = relative or v == "relative"
    if relative:
        return R_RELATIVE_TIME, f"{value!r} is relative: the API cannot know the user's today"
    return R_TIME_MISMATCH, None


def _worst(reasons: list[tuple[Reason, str | None]]) -> tuple[Reason, str | None]:
    bad = [r for r in reasons if r[0] not in ACCEPTING]
    if bad:
        return bad[0]
    non_exact = [r for r in reasons if r[0] is not R_EXACT]
    return non_exact[0] if non_exact else (R_EXACT, None)


def _compare_list(
    value: list[Any], accepted: list[Any], spec: ArgSpec, ref: datetime, tz: tzinfo
) -> tuple[Reason, str | None]:
    item_spec = spec.items or make_argspec(spec.name, None, None, False)
    best: tuple[Reason, str | None] = (R_VALUE_MISMATCH, None)
    for g in accepted:
        if not isinstance(g, list) or len(g) != len(value):
            continue
        r = _worst([compare_value(p, [x], item_spec, ref, tz) for p, x in zip(value, g, strict=True)])
        if r[0] in ACCEPTING:
            return r
        if r[0] is R_UNDECIDED:
            best = r
    return best


def _compare_dict(
    value: dict[str, Any], accepted: list[Any], ref: datetime, tz: tzinfo
) -> tuple[Reason, str | None]:
    best: tuple[Reason, str | None] = (R_VALUE_MISMATCH, None)
    for g in accepted:
        if not isinstance(g, dict):
            continue
        pv = {k: v for k, v in value.items() if not is_empty(v)}
        gv = {k: v for k, v in g.items() if not is_empty(v)}
        if pv.keys() != gv.keys():
            continue
        sub = make_argspec("", None, None, False)
        r = _worst([compare_value(pv[k], [gv[k]], sub, ref, tz) for k in gv])
        if r[0] in ACCEPTING:
            return r
        if r[0] is R_UNDECIDED:
            best = r
    return best


def _compare_text(value: str, accepted: list[Any], spec: ArgSpec) -> tuple[Reason, str | None]:
    strs = [g for g in accepted if type(g) is str]
    if not strs:
        if any(is_number(g) for g in accepted):
            n = _number(value)
            if n is not None and any(is_number(g) and _close(n, g) for g in accepted):
                return R_NUMBER_EQUAL, None
        return R_VALUE_MISMATCH, None
    nv = _norm(value)
    for g in strs:
        if nv == _norm(g):
            return R_NORMALIZED, None
    if spec.enum:
        return R_VALUE_MISMATCH, None
    decided_different = False
    pv = _facts(value)
    gfs = [_facts(g) for g in strs]
    pp = pv[0]
    if pp is not None:
        for g, gf in zip(strs, gfs, strict=True):
            gp = gf[0]
            if gp is not None:
                if gp == pp:
                    return R_PLACE_ALIAS, f"{value!r} and {g!r} are both {pp}"
                decided_different = True
    for pm, money, reason in ((pv[1], True, R_MONEY_EQUAL), (pv[2], False, R_QUANTITY_EQUAL)):
        if pm is not None:
            for gf in gfs:
                gm = gf[1] if money else gf[2]
                if gm is not None:
                    if gm[1] == pm[1] and _close(gm[0], pm[0]):
                        return reason, None
                    decided_different = True
    pn = pv[3]
    if pn is not None:
        for gf in gfs:
            gn = gf[3]
            if gn is not None:
                if _close(gn, pn):
                    return R_NUMBER_EQUAL, None
                decided_different = True
    if decided_different:
        return R_VALUE_MISMATCH, None
    return R_UNDECIDED, None
