"""Seed the leaderboard with real runs of the baselines, scored by ``plugineval.evaluate``.

``seed_baselines`` predicts with the frozen reference router (``baseline:router``), its always-call
variant (the best-scoring tool, every time) and ``baseline:never-call``, scores each with the
rules judge, and stores the rows as ``baseline`` / ``verified``. Rows are keyed in the baseline key
space (``store.row_key``), which no submission can reach, so seeding twice adds nothing and a
``/submit`` of a baseline's bytes (refused anyway: the names are reserved) cannot stop it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from plugineval.entries import to_json_map
from plugineval.predict import BASELINES
from plugineval.schema import Call, Record

from .store import Board, Entry, content_hash, row_key


def baseline_predictors() -> dict[str, Callable[[Record], list[Call]]]:
    """The offline baselines, exactly as ``plugineval predict --model baseline:…`` runs them."""
    from plugineval.predict._baselines import make_baseline

    out: dict[str, Callable[[Record], list[Call]]] = {}
    for name in BASELINES:
        run = make_baseline(name)
        out[name] = lambda r, run=run: [Call(**c) for c in run(r)["calls"]]  # type: ignore[misc]
    return out


def predictions_jsonl(
    records: Sequence[Record], predict: Callable[[Record], list[Call]], model: str
) -> bytes:
    lines = []
    for r in sorted(records, key=lambda r: r.id):
        calls = [c.model_dump() for c in predict(r)]
        lines.append(
            json.dumps({"id": r.id, "calls": calls, "model": model}, ensure_ascii=False, sort_keys=True)
        )
    return ("\n".join(lines) + "\n").encode("utf-8")


def seed_baselines(
    records: Sequence[Record], board: Board, organisation: str = "PluginEval maintainers"
) -> list[str]:
    """Run and score every baseline on ``records``; store new rows. Returns the models added."""
    from plugineval.predictions import parse_predictions
    from plugineval.scoring import evaluate

    if not records:
        return []
    added = []
    known = {r.id for r in records}
    for model, predict in baseline_predictors().items():
        data = predictions_jsonl(records, predict, model)
        digest = content_hash(data, model)
        if board.has(row_key("baseline", digest, organisation)):
            continue
        preds = parse_predictions(data.decode("utf-8").splitlines(), model, known)
        report = evaluate(preds, list(records), judge="rules", meta={"model": model})
        entry = entry_from_report(
            report, model, organisation, "", digest, kind="baseline", status="verified", preds=preds.values()
        )
        if board.add(entry):
            added.append(model)
    return added


def entry_from_report(
    report: Any,
    model: str,
    organisation: str,
    link: str,
    digest: str,
    *,
    kind: str,
    status: str,
    preds: Any = (),
) -> Entry:
    plist = list(preds)
    costs = [p.cost_usd for p in plist if p.cost_usd is not None]
    lats = [p.latency_ms for p in plist if p.latency_ms is not None]
    v = report.versions
    return Entry(
        model=model,
        organisation=organisation,
        link=link,
        kind=kind,
        status=status,
        dataset_version=str(v.get("dataset") or "unknown"),
        judge_version=str(v.get("judge") or ""),
        judge_mode=str(v.get("judge_mode") or ""),
        judge_model=str(v.get("judge_model") or ""),
        cost_usd=sum(costs) if costs else None,
        latency_ms=sum(lats) / len(lats) if lats else None,
        verdicts=to_json_map(report.per_record),  # stored in their JSON form
        content_hash=digest,
    )
