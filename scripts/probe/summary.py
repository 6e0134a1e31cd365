"""Figures of a reviewed strong-model probe: the judge's verdicts against the reviewers' majority.

    .venv/bin/python scripts/probe/summary.py PROBE_DIR

Reads PROBE_DIR/report.json (``plugineval evaluate``), answers.jsonl and answers_A/B/C.jsonl. Prints
raw Recall and Accuracy, recall per difficulty, the majority cause of every answer the judge failed
(and passed), the judge's precision on failures (the share the majority confirms as model errors)
and Fleiss' kappa of the three reviewers on the cause of the failures."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def fleiss(table: list[list[int]]) -> float:
    n_items, n = len(table), sum(table[0])
    p = [sum(row[j] for row in table) / (n_items * n) for j in range(len(table[0]))]
    per = [(sum(c * c for c in row) - n) / (n * (n - 1)) for row in table]
    pbar, pe = sum(per) / n_items, sum(x * x for x in p)
    return 1.0 if pe == 1 else (pbar - pe) / (1 - pe)


def main(probe: Path) -> int:
    report = json.loads((probe / "report.json").read_text(encoding="utf-8"))
    m = report["metrics"]
    answers = {a["id"]: a for a in _jsonl(probe / "answers.jsonl")}
    reviews = [{x["id"]: x for x in _jsonl(probe / f"answers_{r}.jsonl")} for r in "ABC"]

    print(f"raw Recall {m['recall']:.2%}, Accuracy {m['accuracy']:.2%} over {len(answers)} answers")
    per = m.get("by", {}).get("difficulty") or {}
    for d, row in sorted(per.items()):
        if isinstance(row, dict) and row.get("recall") is not None:
            print(f"  {d}: Recall {row['recall']:.2%} (n={row.get('n')})")
    failed = [i for i, a in answers.items() if a["judge"]["outcome"] in ("FN", "FP")]
    causes: Counter[str] = Counter()
    for i in failed:
        top = Counter(r[i]["cause"] for r in reviews).most_common(1)[0]
        causes[top[0] if top[1] >= 2 else "split"] += 1
    confirmed = causes["model_error"]
    print(f"judge failures {len(failed)}: majority causes {dict(causes.most_common())}")
    if failed:
        print(f"confirmed as model errors: {confirmed}/{len(failed)} = {confirmed / len(failed):.1%}")
        kinds = sorted({r[i]["cause"] for r in reviews for i in failed})
        table = [[sum(r[i]["cause"] == k for r in reviews) for k in kinds] for i in failed]
        print(f"Fleiss kappa on the cause of failures: {fleiss(table):.3f}")
    passed = [i for i in answers if i not in set(failed)]
    pc: Counter[str] = Counter()
    for i in passed:
        top = Counter(r[i]["cause"] for r in reviews).most_common(1)[0]
        pc[top[0] if top[1] >= 2 else "split"] += 1
    print(f"judge passes {len(passed)}: majority causes {dict(pc.most_common())}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    raise SystemExit(main(Path(sys.argv[1])))
