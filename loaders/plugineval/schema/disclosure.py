"""What a model is told about a tool: its description, its plugin's promise and every boundary it enforces.

A model under test sees only the query, its reference time and ``tools``. Every capability limit a
label may rest on must therefore be readable in the tool's own text. ``shown_description`` composes
that text once, deterministically, from the catalog data:

    <tool description> <plugin capability statement> 使用限制：<boundary>；<boundary>。

Each boundary reads "<authored sentence>，<edge clause>". The edge clause is generated from the
boundary's structured fields (kind, days, limit, values, scope) with the same comparisons the runtime
uses (``loaders/plugineval/builder/tools/runtime.py``, ``boundary_violation``), so the text and the
code cannot disagree.
Edge convention (docs/catalog.md §3): every stated edge is inclusive and counted from today as
"N 天后" = today + N days and "N 天前" = today − N days (docs/format.md §3: 三天后 = today + 3).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import Boundary, Plugin, ToolSpec

LIMITS_HEAD = "使用限制："
_HEAD_SPLIT = re.compile(r"[，,（(：:；;。]")
_END = ("。", "！", "？", ".", "!", "?")
DAY_KINDS = ("max_days_ahead", "max_days_back", "max_span_days")
AMBIGUOUS_DAYS = re.compile(
    r"\d+\s*个?\s*(天|日|小时)\s*(以内|之内|内)|(最近|近|未来|过去)\s*\d+\s*个?\s*(天|日|小时)"
)
"""'今天起 3 天内' leaves open whether today + 3 is inside: authored text states no edge this way."""


def number(x: float) -> str:
    """A limit as a person writes it: 50000000, 24, 0.5 (never 5e+07)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def arg_label(tool: ToolSpec, arg: str) -> str:
    """The argument as a reader knows it: the head of its description and its name (出发日期 date)."""
    desc = str(tool.properties.get(arg, {}).get("description", "")).strip()
    head = _HEAD_SPLIT.split(desc, maxsplit=1)[0].strip()
    return f"{head} {arg} " if head else f"{arg} "


def _is_datetime(sch: dict[str, Any]) -> bool:
    return sch.get("format") == "date-time" or "YYYY-MM-DDTHH" in str(sch.get("description", ""))


def edge_clause(b: Boundary, tool: ToolSpec) -> str:
    """The boundary's edge in words, generated from its fields (inclusive edges, counted from today)."""
    sch: dict[str, Any] = tool.properties.get(b.argument, {})
    label = arg_label(tool, b.argument)
    if _is_datetime(sch) and b.kind in ("max_days_ahead", "no_past", "max_days_back"):
        label += "的日期"
    n = b.days or 0
    if b.kind == "max_days_ahead":
        if n == 0:
            return f"{label}最晚为今天（不能是未来日期）"
        return f"{label}最晚为 {n} 天后（今天 + {n} 天，含当天）"
    if (
        b.kind == "no_past"
    ):  # a date-time: the runtime compares its date; the handler may refuse an hour gone by
        return f"{label}不能早于今天" if _is_datetime(sch) else f"{label}不能早于今天（今天可以）"
    if b.kind == "max_days_back":
        return f"{label}最早为 {n} 天前（今天 − {n} 天，含当天）"
    if b.kind == "max_span_days":
        end = arg_label(tool, b.end_argument or "")
        return f"{end}最晚为{label.rstrip()} + {n} 天（两者最多相隔 {n} 天）"
    if b.kind == "max_value":
        return f"{label}最大为 {number(b.limit or 0)}（含）"
    if b.kind == "min_value":
        return f"{label}最小为 {number(b.limit or 0)}（含）"
    if b.kind == "max_items":
        return f"{label}最多 {number(b.limit or 0)} 项"
    if b.kind == "allowed_values":
        return f"{label}仅支持：{'、'.join(str(v) for v in b.values or [])}"
    if b.scope == "foreign":  # place_scope
        return f"{label}仅限中国大陆以外的地点"
    return f"{label}仅限中国大陆地点（不含港澳台和海外）"


def stated_facts(b: Boundary) -> list[str]:
    """What a tool's model-visible text must contain for boundary ``b`` to count as stated."""
    if b.kind in DAY_KINDS and b.days:
        return [f"{b.days} 天"]
    if b.kind in DAY_KINDS or b.kind == "no_past":
        return ["今天"]
    if b.kind in ("max_value", "min_value", "max_items"):
        return [number(b.limit or 0)]
    if b.kind == "allowed_values":
        return [str(v) for v in b.values or []]
    return ["中国大陆"]


def _sentence(s: str) -> str:
    s = s.strip()
    return s if not s or s.endswith(_END) else s + "。"


def shown_description(plugin: Plugin, tool: ToolSpec) -> str:
    """The description a model is shown for ``tool`` (what ``ToolSpec.openai_function`` returns)."""
    text = _sentence(tool.description)
    for part in re.split(r"(?<=[。！？])", plugin.description):
        part = part.strip()
        if part and part.rstrip("。！？") not in text:
            text += _sentence(part)
    items: list[str] = []
    for b in plugin.boundaries:
        if tool.name not in b.tools:
            continue
        authored = b.description.strip().rstrip("。；;，,")
        clause = edge_clause(b, tool)
        seen = text + "".join(items)
        item = clause if authored in seen else f"{authored}，{clause}"
        if item not in items:
            items.append(item)
    if items:
        text += LIMITS_HEAD + "；".join(items) + "。"
    return text


def visible_text(tool: ToolSpec, arg: str | None = None) -> str:
    """Everything a model reads about ``tool`` (and one argument): the shown description and the
    argument's own description."""
    out = tool.shown_description
    if arg is not None:
        out += " " + str(tool.properties.get(arg, {}).get("description", ""))
    return out
