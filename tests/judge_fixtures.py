"""Build small records and predictions for judge tests (the cases live in tests/cases/*.jsonl)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from plugineval.schema import AlternativeCalls, Call, GoldAlternative, Prediction, Record

CASES = Path(__file__).parent / "cases"
TOOLS: dict[str, Any] = json.loads((CASES / "judge_tools.json").read_text(encoding="utf-8"))
LABELS = {
    "positive": (True, True),
    "neg_A": (False, False),
    "neg_B": (True, False),
    "neg_C": (True, False),
    "underspecified": (True, True),
}


def load_cases(name: str) -> list[dict[str, Any]]:
    lines = (CASES / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(x) for x in lines if x.strip()]


def make_record(
    rid: str,
    kind: str = "positive",
    gold: list[tuple[str, dict[str, Any]]] | None = None,
    alts: list[dict[str, Any]] | None = None,
    ann: dict[str, Any] | None = None,
    scope: str | None = None,
    target: str = "weather",
    reference_time: str = "2026-03-18T09:30:00+08:00",
    difficulty: str = "easy",
    query: str = "查询",
    alt_calls: list[dict[str, Any]] | None = None,
) -> Record:
    gold = gold or []
    names = sorted({g[0] for g in gold} | {target})
    needs, rel = LABELS[kind]
    basis = (
        {"type": "inference_depth", "depth": 0}
        if kind == "positive"
        else {"type": "behavioral", "p_K": 1.0, "K": 5}
    )
    return Record(
        id=rid,
        version="test",
        query=query,
        reference_time=reference_time,
        domain="test",
        target_plugin=target,
        target_tools=[target] if kind != "positive" else names,
        kind=kind,  # type: ignore[arg-type]
        negative_scope=scope or ("none" if kind == "positive" else "targeted"),  # type: ignore[arg-type]
        needs_tool=needs,
        target_relevant=rel,
        tools=[TOOLS[n] for n in sorted(TOOLS)],
        tool_annotations=ann or {},
        gold_calls=[Call(name=n, arguments=a) for n, a in gold],
        gold_alternatives=[GoldAlternative(**a) for a in alts] if alts else [],
        alternative_calls=[AlternativeCalls.model_validate(a) for a in alt_calls or []],
        difficulty=difficulty,  # type: ignore[arg-type]
        difficulty_basis=basis,  # type: ignore[arg-type]
        primary_scenario="s",
        source={"type": "synthetic", "origin": "test", "license": "Apache-2.0"},  # type: ignore[arg-type]
        split="test",
    )


def make_pred(rid: str, calls: Any, content: str | None = None) -> Prediction | None:
    if calls is None:
        return None
    if calls == "invalid":
        return Prediction(id=rid, invalid=True, invalid_reason="unparsable")
    return Prediction(id=rid, calls=[Call(name=n, arguments=a) for n, a in calls], content=content)
