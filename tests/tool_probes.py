"""Arguments that cross a boundary, derived from the boundary's data (so no boundary is skipped)."""

from __future__ import annotations

import copy
from datetime import date, datetime, timedelta
from typing import Any

from plugineval.schema import Boundary, ToolSpec


def _shift(template: Any, d: date) -> str:
    s = str(template) if template is not None else ""
    return d.isoformat() + s[10:] if len(s) > 10 else d.isoformat()


def violating_arguments(tool: ToolSpec, b: Boundary, edge: bool = False) -> tuple[dict[str, Any], str]:
    """(arguments, reference_time) built from the tool's first example, crossing boundary ``b``.

    With ``edge``: the arguments sit exactly on the edge the shown description states as inclusive
    (today + days, today − days, start + days, the limit itself, ``limit`` items, an allowed value).
    """
    over = 0 if edge else 1
    ex = next((e for e in tool.examples if b.argument in e.arguments), tool.examples[0])
    args = copy.deepcopy(ex.arguments)
    ref = datetime.fromisoformat(ex.reference_time).date()
    sch = tool.properties[b.argument]
    cur = args.get(b.argument)
    if b.kind == "max_days_ahead":
        args[b.argument] = _shift(cur, ref + timedelta(days=(b.days or 0) + over))
    elif b.kind == "no_past":
        args[b.argument] = _shift(cur, ref - timedelta(days=over))
    elif b.kind == "max_days_back":
        args[b.argument] = _shift(cur, ref - timedelta(days=(b.days or 0) + over))
    elif b.kind == "max_span_days":
        start = date.fromisoformat(str(cur)[:10]) if cur else ref
        args[b.argument] = _shift(cur, start)
        end_arg = b.end_argument or ""
        args[end_arg] = _shift(args.get(end_arg), start + timedelta(days=(b.days or 0) + over))
    elif b.kind in ("allowed_values", "place_scope"):
        v = (b.values or [b.violation])[0] if edge and b.kind == "allowed_values" else b.violation
        args[b.argument] = [v] if sch.get("type") == "array" else v
    elif b.kind in ("max_value", "min_value"):
        lim = b.limit or 0.0
        step = 1 if sch.get("type") == "integer" else 0.5
        v = lim + step * over if b.kind == "max_value" else lim - step * over
        args[b.argument] = int(v) if sch.get("type") == "integer" else v
    elif b.kind == "max_items":
        base = list(cur) if isinstance(cur, list) and cur else [copy.deepcopy(cur)]
        n = int(b.limit or 0) + over
        args[b.argument] = [base[i % len(base)] for i in range(n)]
    return args, ex.reference_time
