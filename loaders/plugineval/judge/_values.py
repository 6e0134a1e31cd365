"""Per-argument semantic verification: the deterministic rules (docs/format.md §5 step 3).

A cheap exact comparison comes first; the normalizers run only on a mismatch. Each function returns
a ``Reason`` (and sometimes a short detail); the caller decides what an undecided pair becomes.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo
from typing import Any

from ..jsonschema_lite import Check, compile_schema
from ..normalize import (
    compare_time,
    limits,
    normalize_text,
    parse_money,
    parse_number,
    parse_quantity,
)
from ..normalize.places import canonical_site
from ._entities import same_entity
from ._types import ACCEPTING, Reason

# Enum members read on the hot path, bound once: on CPython 3.11 ``Reason.EXACT`` goes through
# EnumType's attribute lookup (~0.13-0.18 us); a module global costs ~0.01 us.
R_ALIAS = Reason.ALIAS
R_DEFAULT = Reason.DEFAULT
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
    props: dict[str, ArgSpec] | None = None  # an object's properties (their defaults apply at any depth)
    derived: tuple[str, int, str] | None = (
        None  # tool_annotations' derived_default: (from_argument, days, of)
    )
    unordered: bool = False  # tool_annotations' unordered: an array compared as a multiset


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
    if isinstance(sch.get("items"), dict):  # the items share the aliases; the order is the array's
        items = make_argspec(name, sch["items"], {**ann, "unordered": False}, False)
    props = None
    if isinstance(sch.get("properties"), dict):
        req = sch.get("required") or []
        props = {
            k: make_argspec(k, ps if isinstance(ps, dict) else None, None, k in req)
            for k, ps in sch["properties"].items()
        }
    dd = ann.get("derived_default")
    derived = (
        (str(dd["from_argument"]), int(dd.get("days", 0)), str(dd.get("of", "date")))
        if isinstance(dd, dict)
        else None
    )
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
        props=props,
        derived=derived,
        unordered=bool(ann.get("unordered")) and sch.get("type") == "array",
    )


@functools.lru_cache(maxsize=65536)
def _norm(s: str) -> str:
    return normalize_text(s)


@functools.lru_cache(maxsize=65536)
def _facts(s: str) -> tuple[str | None, tuple[float, str] | None, tuple[float, str] | None, float | None]:
    """What the text normalizers read in one string: the place it names (a station or an airport
    being a place of its own), an amount of money, a
    quantity with its unit, a number (None where there is none). One cache entry per string: a free
    text that normalization did not settle goes through all four."""
    return canonical_site(s), parse_money(s), parse_quantity(s), _number(s)


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


def means_default(v: Any, spec: ArgSpec) -> bool:
    """``v`` is the default the tool applies to ``spec``'s argument: the schema default, or a declared
    alias of it (经济舱 where ``cabin`` defaults to economy: defaults are compared after mapping aliases)."""
    d = spec.default
    if d is _MISSING:
        return False
    if same(v, d):
        return True
    return type(v) is str and bool(spec.aliases) and same(spec.aliases.get(_norm(v), _MISSING), d)


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
    if type(pred) is str and len(pred) > limits.MAX_NORMALIZE_CHARS:
        return _unread(pred, accepted)
    value = pred
    if isinstance(pred, str) and spec.aliases:
        mapped = spec.aliases.get(_norm(pred), _MISSING)
        if mapped is not _MISSING:
            if any(same(mapped, g) for g in accepted):
                return R_ALIAS, f"{pred!r} -> {mapped!r}"
            value = mapped
    if spec.check is not None:
        errs: list[str] = []
        spec.check(_mapped_items(value, spec), spec.name, errs)
        if errs:
            return R_SCHEMA_VIOLATION, errs[0]
    if spec.time_valued and isinstance(value, str):
        return _compare_time(value, accepted, ref, tz)
    if isinstance(value, list):
        return _compare_list(value, accepted, spec, ref, tz)
    if isinstance(value, dict):
        return _compare_dict(value, accepted, spec, ref, tz)
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


def _mapped_items(value: Any, spec: ArgSpec) -> Any:
    """What the schema checks: an array's items after mapping their declared aliases (带伞 is umbrella
    in a list of life indices), as a scalar is mapped; any other value as it is."""
    items = spec.items
    if type(value) is not list or items is None or not items.aliases:
        return value
    return [items.aliases.get(_norm(x), x) if type(x) is str else x for x in value]


def _unread(value: str, accepted: list[Any]) -> tuple[Reason, str | None]:
    """A string longer than the normalizers read (``normalize.limits``), decided without them: equal
    to an accepted string once both are stripped, else wrong — never undecided (nor sent to the LLM)."""
    s = value.strip()
    for g in accepted:
        if type(g) is str and s == g.strip():
            return R_NORMALIZED, "equal once stripped (not normalized: longer than the normalizers read)"
    return (
        R_VALUE_MISMATCH,
        f"{len(value):,} characters: not normalized (the judge reads at most {limits.MAX_NORMALIZE_CHARS:,})",
    )


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
        if spec.unordered and len(value) > 1:
            r = _as_multiset(value, g, item_spec, ref, tz)
            if r[0] in ACCEPTING:
                return r
        if r[0] is R_UNDECIDED:
            best = r
    return best


def _as_multiset(
    value: list[Any], gold: list[Any], item_spec: ArgSpec, ref: datetime, tz: tzinfo
) -> tuple[Reason, str | None]:
    """An array declared ``unordered`` against one accepted array of its length, in another order: the
    items are paired one to one (a multiset: a repeated item pairs once), each pair compared as in
    order. Accepted when every item finds an accepted partner; ``undecided`` when that needs a pair the
    rules cannot decide; else a mismatch."""
    n = len(value)
    cells = [[compare_value(p, [x], item_spec, ref, tz) for x in gold] for p in value]
    for allowed in (ACCEPTING, _ACCEPTING_OR_UNDECIDED):
        match = _perfect_matching([[cells[i][j][0] in allowed for j in range(n)] for i in range(n)])
        if match is None:
            continue
        reasons = [cells[i][match[i]] for i in range(n)]
        reasons.append((R_NORMALIZED, "the same items in another order (the list is unordered)"))
        return _worst(reasons)
    return R_VALUE_MISMATCH, "not the same items in any order"


_ACCEPTING_OR_UNDECIDED = ACCEPTING | {R_UNDECIDED}


def _perfect_matching(ok: list[list[bool]]) -> list[int] | None:
    """A one-to-one pairing of rows to columns along ``ok`` (augmenting paths), or None."""
    n = len(ok)
    owner = [-1] * n  # column -> its row
    for i in range(n):
        if not _augment(ok, i, [False] * n, owner):
            return None
    match = [0] * n
    for j, i in enumerate(owner):
        match[i] = j
    return match


def _augment(ok: list[list[bool]], i: int, seen: list[bool], owner: list[int]) -> bool:
    for j in range(len(ok)):
        if ok[i][j] and not seen[j]:
            seen[j] = True
            if owner[j] < 0 or _augment(ok, owner[j], seen, owner):
                owner[j] = i
                return True
    return False


_GENERIC_SUB = make_argspec("", None, None, False)


def _drop_defaults(
    a: dict[str, Any], b: dict[str, Any], props: dict[str, ArgSpec], side: str, notes: list[str]
) -> None:
    """Drop from ``a`` each key ``b`` lacks whose value is that property's schema default."""
    for k in [k for k in a if k not in b]:
        ps = props.get(k)
        if ps is not None and means_default(a[k], ps):
            notes.append(f"{side} {k} = {a.pop(k)!r} is the default")


def _compare_dict(
    value: dict[str, Any], accepted: list[Any], spec: ArgSpec, ref: datetime, tz: tzinfo
) -> tuple[Reason, str | None]:
    """An object against each accepted object, key by key; where the object's schema declares its
    properties, a key that one side leaves out and the other gives its default is dropped (the tool
    fills it in: defaults at any depth), and the properties' own specs compare the values."""
    best: tuple[Reason, str | None] = (R_VALUE_MISMATCH, None)
    props = spec.props
    for g in accepted:
        if not isinstance(g, dict):
            continue
        pv = {k: v for k, v in value.items() if not is_empty(v)}
        gv = {k: v for k, v in g.items() if not is_empty(v)}
        notes: list[str] = []
        if props and pv.keys() != gv.keys():
            _drop_defaults(pv, gv, props, "predicted", notes)
            _drop_defaults(gv, pv, props, "gold", notes)
        if pv.keys() != gv.keys():
            continue
        if props:
            reasons = [compare_value(pv[k], [gv[k]], props.get(k, _GENERIC_SUB), ref, tz) for k in gv]
        else:
            reasons = [compare_value(pv[k], [gv[k]], _GENERIC_SUB, ref, tz) for k in gv]
        if notes:
            reasons.append((R_DEFAULT, "; ".join(notes)))
        r = _worst(reasons)
        if r[0] in ACCEPTING:
            return r
        if r[0] is R_UNDECIDED:
            best = r
    return best


REFERENCE_DATE = "reference_date"  # derived_default.from_argument: the record's own date ("today")


def derived_value(
    gold_args: dict[str, Any], derived: tuple[str, int, str], ref: datetime | None = None
) -> str | int | None:
    """The default a tool applies to an argument declared ``derived_default``: the ISO date (or
    date-time) in ``from_argument`` of the gold call plus ``days`` days, written as that value is —
    or, for ``from_argument: reference_date``, the record's own date (the tool's "today") plus
    ``days``; with ``of: count``, the number of items in ``from_argument`` (a ticket count that
    follows the seats chosen); None where the gold has no such value."""
    if derived[2] == "count":
        items = gold_args.get(derived[0])
        return len(items) if isinstance(items, list) and items else None
    if derived[0] == REFERENCE_DATE:
        if ref is None:
            return None
        return (ref.date() + timedelta(days=derived[1])).isoformat()
    base = gold_args.get(derived[0])
    if not isinstance(base, str):
        return None
    try:
        if len(base) == 10:
            return (date.fromisoformat(base) + timedelta(days=derived[1])).isoformat()
        return (datetime.fromisoformat(base) + timedelta(days=derived[1])).isoformat()
    except ValueError:
        return None


def is_derived_default(v: Any, spec: ArgSpec, gold_args: dict[str, Any], ref: datetime, tz: tzinfo) -> bool:
    """``v`` means the derived default of ``spec``'s argument for this gold call (after the normal
    date normalization: a format variant of that date counts, a relative expression does not)."""
    if spec.derived is None:
        return False
    d = derived_value(gold_args, spec.derived, ref)
    if isinstance(d, int):
        return same(v, d)
    return d is not None and compare_value(v, [d], spec, ref, tz)[0] in (R_EXACT, R_FORMAT_VARIANT)


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
    for g in strs:  # 河南 for 河南队: one entity, where the store's data says so (cold: undecided pairs only)
        why = same_entity(value, g)
        if why is not None:
            return R_NORMALIZED, why
    core = _content(nv)
    for g in strs:  # 新人培训 for 给新人培训: the same words but a leading preposition or trailing particle
        if len(core) >= 2 and core == _content(_norm(g)):
            return R_NORMALIZED, f"{value!r} and {g!r} differ only by a function word"
    return R_UNDECIDED, None


_FUNCTION_AFFIX = re.compile(r"^(?:给|为|帮|跟|和|与|同)+|(?:的|吧|呢|啊|哈)+$")


def _content(s: str) -> str:
    """A text without a leading preposition (给, 为, 跟…) or a trailing particle (的, 吧…)."""
    return _FUNCTION_AFFIX.sub("", s)
