"""A booking's place or person named as people say it, where the tool takes its id.

``by_name`` matches a value against candidate rows (each with ``name``, optionally ``city``) on the
name with spaces and brackets removed (秋果酒店（武汉市中心店） = 秋果酒店武汉市中心店), on the name with
the city's 市 dropped (三亚市安康街道… = 三亚安康街道…) and, where the call gives the city (the rows are
that city's), on the name without the city prefix. One match is the row; none or several fail with
the tool's not-found code or ``AMBIGUOUS_NAME`` listing the candidates.
"""

from __future__ import annotations

import re
import sqlite3
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..runtime import ToolCtx

_DROP = re.compile(r"[\s（）()·]")


def name_key(s: str) -> str:
    return _DROP.sub("", s)


def name_keys(name: str, city: str | None) -> set[str]:
    """The keys a store name is matched on: itself, and with the city prefix shortened or dropped."""
    keys = {name_key(name)}
    if city:
        for prefix in (f"{city}市", city):
            if name.startswith(prefix) and len(name) > len(prefix) + 1:
                rest = name[len(prefix) :]
                keys |= {name_key(city + rest), name_key(rest)}
                break
    return keys


def by_name(
    ctx: ToolCtx, value: str, rows: list[sqlite3.Row], *, what: str, not_found: str, hint: str
) -> sqlite3.Row:
    """The one row named ``value``; else the call fails (``not_found`` code, or ``AMBIGUOUS_NAME``)."""
    key = name_key(value)
    has_city = bool(rows) and "city" in rows[0].keys()  # noqa: SIM118 (a Row's `in` looks at values)
    found = [r for r in rows if key in name_keys(r["name"], r["city"] if has_city else None)]
    exact = [r for r in found if r["name"] == value]
    if len(exact) == 1 or len(found) == 1:
        return (exact or found)[0]
    if not found:
        ctx.fail(not_found, f"没有找到名为“{value}”的{what}，{hint}")
    return ambiguous(ctx, value, what, [describe(r) for r in found])


def describe(r: sqlite3.Row) -> str:
    keys = r.keys()
    return r["name"] if "city" not in keys or r["name"].startswith(r["city"]) else f"{r['city']}{r['name']}"


def ambiguous(ctx: ToolCtx, value: str, what: str, candidates: list[str]) -> sqlite3.Row:
    shown = "、".join(candidates[:8]) + (f" 等 {len(candidates)} 个" if len(candidates) > 8 else "")
    ctx.fail(
        "AMBIGUOUS_NAME",
        f"“{value}”对应多个{what}：{shown}；请说明具体是哪一个（或使用编号）",
        candidates=candidates[:20],
    )


def resolve_id(
    ctx: ToolCtx, value: str, id_re: str, sql: str, params: tuple[object, ...], id_col: str, **kw: str
) -> str:
    """``value`` when it is an id (``id_re``), else the id of the one row of ``sql`` it names."""
    if re.fullmatch(id_re, value):
        return value
    return str(by_name(ctx, value, ctx.query(sql, params), **kw)[id_col])
