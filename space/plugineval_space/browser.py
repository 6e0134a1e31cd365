"""The dataset browser: filters over records and a readable view of one record."""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

from plugineval.schema import Record

ALL = "(all)"
FILTERS = ("domain", "target_plugin", "kind", "difficulty", "primary_scenario")
BROWSE_COLUMNS = ["id", "kind", "difficulty", "domain", "plugin", "scenario", "query"]
MAX_ROWS = 500


def choices(records: Sequence[Record]) -> dict[str, list[str]]:
    """Every value each filter can take in these records, with ``(all)`` first."""
    out: dict[str, list[str]] = {}
    for f in FILTERS:
        out[f] = [ALL, *sorted({str(getattr(r, f)) for r in records})]
    return out


def _match(value: str, wanted: str | None) -> bool:
    return not wanted or wanted == ALL or value == wanted


def filter_records(
    records: Sequence[Record],
    domain: str | None = None,
    plugin: str | None = None,
    kind: str | None = None,
    difficulty: str | None = None,
    scenario: str | None = None,
    text: str = "",
) -> list[Record]:
    q = (text or "").strip().casefold()
    out = []
    for r in records:
        if not (
            _match(r.domain, domain)
            and _match(r.target_plugin, plugin)
            and _match(r.kind, kind)
            and _match(r.difficulty, difficulty)
            and _match(r.primary_scenario, scenario)
        ):
            continue
        if q:
            hay = " ".join(
                [
                    r.id,
                    r.query,
                    *(c.name for c in r.gold_calls),
                    json.dumps([c.arguments for c in r.gold_calls], ensure_ascii=False),
                ]
            ).casefold()
            if q not in hay:
                continue
        out.append(r)
    return out


def table(records: Sequence[Record]) -> Any:
    import pandas as pd

    rows = [
        [r.id, r.kind, r.difficulty, r.domain, r.target_plugin, r.primary_scenario, r.query]
        for r in records[:MAX_ROWS]
    ]
    return pd.DataFrame(rows, columns=BROWSE_COLUMNS)


def summary(shown: Sequence[Record], total: int) -> str:
    more = f" (first {MAX_ROWS} shown)" if len(shown) > MAX_ROWS else ""
    return f"**{len(shown)}** of {total} records match{more}. Click a row, or type an id below, to see the record."


def _code(obj: Any) -> str:
    return "```json\n" + json.dumps(obj, ensure_ascii=False, indent=2) + "\n```"


def _proposals(trace: list[dict[str, Any]]) -> list[str]:
    lines = [
        "| round | generator | S_arg | S_out | score | eligible | notes |",
        "|---|---|---|---|---|---|---|",
    ]
    for rnd in trace:
        for p in rnd.get("proposals", []):
            notes = "; ".join(p.get("execution_errors", []) + p.get("schema_errors", []))
            if p.get("abstain"):
                notes = f"abstains ({p['abstain']})" + (f"; {notes}" if notes else "")
            cell = html.escape(notes).replace("|", "\\|")[:300]

            def num(k: str, p: dict[str, Any] = p) -> str:
                return "" if p.get(k) is None else f"{p[k]:.2f}"

            lines.append(
                f"| {rnd.get('round', '')} | {p.get('generator', '')} | {num('S_arg')} | {num('S_out')} | "
                f"{num('score')} | {'yes' if p.get('eligible') else 'no'} | {cell} |"
            )
    return lines


def record_markdown(r: Record, permalink: str = "") -> str:
    """Query, reference time, offered tools, gold calls with alternatives, verification evidence."""
    v = r.verification
    lines = [
        f"### Record `{r.id}`" + (f" · [permalink]({permalink})" if permalink else ""),
        "",
        f"> {html.escape(r.query)}",
        "",
        f"- **reference time**: `{r.reference_time}`",
        f"- **kind**: `{r.kind}` (negative scope `{r.negative_scope}`) · **difficulty**: `{r.difficulty}`"
        f" · **split**: `{r.split}` · **version**: `{r.version}`",
        f"- **domain / plugin**: `{r.domain}` / `{r.target_plugin}` (target tools: "
        + ", ".join(f"`{t}`" for t in r.target_tools)
        + ")",
        f"- **scenario**: `{r.primary_scenario}`"
        + (f" (also {', '.join(f'`{s}`' for s in r.aux_scenarios)})" if r.aux_scenarios else ""),
        f"- **difficulty basis**: `{json.dumps(r.difficulty_basis.model_dump(exclude_none=True), ensure_ascii=False)}`",
        f"- **source**: {r.source.type} · `{r.source.origin}` · {r.source.license}",
        "",
        "#### Offered tools",
        "",
        "| tool | target | required | description |",
        "|---|---|---|---|",
    ]
    for t in r.tools:
        fn = t.get("function", t)
        req = ", ".join(fn.get("parameters", {}).get("required", []))
        desc = html.escape(str(fn.get("description", ""))).replace("|", "\\|")
        lines.append(
            f"| `{fn.get('name')}` | {'yes' if fn.get('name') in r.target_tools else ''} | {req} | {desc} |"
        )
    lines += ["", "#### Gold calls", ""]
    if r.gold_calls:
        for i, (c, alt) in enumerate(zip(r.gold_calls, r.alternatives(), strict=True), 1):
            lines += [f"**{i}. `{c.name}`**", "", _code(c.arguments)]
            extra = alt.model_dump(exclude_defaults=True)
            if extra:
                lines += ["accepted alternatives:", "", _code(extra)]
        for k, other in enumerate(r.alternative_calls):  # other call lists that serve the request
            lines += ["", f"#### Or: alternative_calls[{k}] (serves the request as well)", ""]
            for i, (c, alt) in enumerate(zip(other.calls, other.aligned(), strict=True), 1):
                lines += [f"**{i}. `{c.name}`**", "", _code(c.arguments)]
                extra = alt.model_dump(exclude_defaults=True)
                if extra:
                    lines += ["accepted alternatives:", "", _code(extra)]
    else:
        lines.append(
            "No call: a correct model "
            + {
                "neg_A": "answers without tools.",
                "neg_B": "does not call the target plugin (another plugin is needed).",
                "neg_C": "does not call the target: the request is beyond its capability.",
                "underspecified": "invents nothing and asks for the missing information.",
            }.get(r.kind, "makes no call.")
        )
    lines += [
        "",
        "#### Verification evidence",
        "",
        f"- accepted: **{v.get('accepted')}** · score **{v.get('score')}** · generator `{v.get('generator')}` · "
        f"rounds {v.get('rounds')} · stage {v.get('stage')} · reason `{v.get('reason')}`",
    ]
    if v.get("router"):
        lines.append(f"- reference router: `{v['router']}`")
    if v.get("intended_differs") is not None:
        lines.append(f"- accepted gold differs from the synthesizer's intended call: {v['intended_differs']}")
    if v.get("evidence"):
        lines += ["- execution / evidence:", "", _code(v["evidence"])]
    if v.get("trace"):
        lines += ["", *_proposals(v["trace"])]
    return "\n".join(lines)
