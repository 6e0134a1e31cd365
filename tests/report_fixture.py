"""A report over every judge case (tests/cases/judge_*.jsonl) plus an underspecified pair and records
with no prediction: the fixture whose ``report.json`` bytes tests/test_predictions_and_metrics.py pins
(tests/data/report_cases.json). Regenerate that file only when a verdict or metric changes on purpose:

    .venv/bin/python tests/report_fixture.py tests/data/report_cases.json
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

from plugineval import evaluate
from plugineval.report import Report

from judge_fixtures import load_cases, make_pred, make_record


def cases() -> tuple[list[Any], dict[str, Any]]:
    recs, preds = [], {}
    for i, c in enumerate(load_cases("judge_args.jsonl")):
        rid = f"a{i:03d}"
        ann = {c["tool"]: c["ann"]} if "ann" in c else None
        alts = [c["alt"]] if "alt" in c else None
        recs.append(make_record(rid, gold=[(c["tool"], c["gold"])], alts=alts, ann=ann, difficulty="medium"))
        preds[rid] = make_pred(rid, [(c["tool"], c["pred"])])
    for i, c in enumerate(load_cases("judge_records.jsonl")):
        rid = f"r{i:03d}"
        recs.append(
            make_record(
                rid,
                kind=c["kind"],
                gold=[tuple(g) for g in c.get("gold", [])],
                scope=c.get("scope"),
                alts=c.get("alts"),
                alt_calls=c.get("alternative_calls"),
                difficulty=("easy", "medium", "hard")[i % 3],
            )
        )
        p = c["pred"]
        pred = make_pred(rid, [tuple(x) for x in p] if isinstance(p, list) else p)
        if pred is not None:
            preds[rid] = pred
    for rid, content in (("u0", "好的，请问您从哪个城市出发？哪天走？"), ("u1", "好的。")):
        recs.append(make_record(rid, kind="underspecified", target="search", query="帮我查去上海的票"))
        preds[rid] = make_pred(rid, [], content=content)
    recs.append(make_record("z0", gold=[("weather", {"city": "北京"})], difficulty="hard"))  # no line
    return recs, preds


def report() -> Report:
    recs, preds = cases()
    return evaluate(preds, recs, judge="rules")


if __name__ == "__main__":
    report().save(sys.argv[1])
