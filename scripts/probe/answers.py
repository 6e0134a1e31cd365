"""The review packet of a strong-model probe: every answer, with what the model saw, the gold, the
prediction and the judge's verdict — passes as well as failures, so that review settles a verdict on
each (the judge conformance cases are made from it: ``cases.py``).

    .venv/bin/python scripts/probe/answers.py PROBE_DIR REPORT.json

PROBE_DIR is a folder prepared by ``../shared/probe/probe.py prepare`` (records.jsonl, batch_K/) with
the collected preds.jsonl; writes PROBE_DIR/answers.jsonl (one line per record, failures first)."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

WEEKDAYS = ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"]


def _jsonl(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def main(probe: Path, report: Path) -> int:
    recs = {r["id"]: r for r in _jsonl(probe / "records.jsonl")}
    preds = {p["id"]: p for p in _jsonl(probe / "preds.jsonl")}
    per = json.loads(report.read_text(encoding="utf-8"))["per_record"]
    per = per if isinstance(per, dict) else {e["id"]: e for e in per}
    rows = []
    for rid, e in per.items():
        r, p = recs[rid], preds.get(rid, {})
        dt = datetime.fromisoformat(r["reference_time"])
        rows.append(
            {
                "id": rid,
                "now": f"{r['reference_time']}（{WEEKDAYS[dt.weekday()]}）",
                "query": r["query"],
                "tools": [t["function"]["name"] for t in json.loads(r["tools"])],
                "kind": r["kind"],
                "target_tools": r["target_tools"],
                "gold_calls": json.loads(r["gold_calls"]),
                "gold_alternatives": json.loads(r["gold_alternatives"]),
                "alternative_calls": json.loads(r.get("alternative_calls") or "[]"),
                "prediction": {"calls": p.get("calls"), "content": p.get("content")},
                "judge": {
                    "outcome": e["outcome"],
                    "category": e.get("category"),
                    "subtype": e.get("subtype"),
                    "argument_verdicts": [a for a in e.get("arguments") or [] if not a.get("ok", True)],
                },
            }
        )
    rows.sort(key=lambda x: (x["judge"]["outcome"] not in ("FN", "FP"), x["id"]))
    with open(probe / "answers.jsonl", "w", encoding="utf-8") as f:
        for x in rows:
            f.write(json.dumps(x, ensure_ascii=False) + "\n")
    fails = sum(x["judge"]["outcome"] in ("FN", "FP") for x in rows)
    print(f"{len(rows)} answers ({fails} failed by the judge) -> {probe / 'answers.jsonl'}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    raise SystemExit(main(Path(sys.argv[1]), Path(sys.argv[2])))
