"""Judge conformance cases from a reviewed strong-model probe (kept as data in tests/cases/conformance/).

    .venv/bin/python scripts/probe/cases.py PROBE_DIR LABEL [--out tests/cases/conformance]

Reads PROBE_DIR/records.jsonl, preds.jsonl, answers.jsonl (``answers.py``) and the three reviews
answers_A/B/C.jsonl (``BRIEF_answers.md``). Each answer's settled verdict is the reviewers' majority
on ``pred_acceptable``; its cause is the majority cause (or "split" when all three differ).
- An answer whose reference the majority finds right (``gold_ok``), with a majority cause in
  ``JUDGE_CAUSES``, becomes a judge case in
  ``cases.jsonl``: the record as the model saw it, the prediction, and the verdict the judge must give
  (pass or fail; a failure's category too when the majority found the judge's category right).
- Any other answer (a wrong or incomplete reference, an item that reads two ways) is a label defect, kept in ``label_defects.jsonl``
  for the builder (what was wrong and why); it is no judge case, since its record is not the truth.
The offered tools (what the model saw, frozen) go once into ``tools.json``. Cases are appended per
LABEL (a probe name such as "validation-seed11"): running again for the same label replaces them."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

# the causes that make an answer a judge case: the record is right, and the verdict is the judge's to
# give (a wrong or incomplete reference, an undisclosed limit, an item that reads two ways are label
# defects: their fix is in the builder, and the frozen record is not the truth)
JUDGE_CAUSES = ("model_error", "correct", "judge_too_strict", "judge_too_lenient")


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _majority(values: list[Any]) -> Any:
    top = Counter(values).most_common()
    return top[0][0] if top and top[0][1] >= 2 else "split"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("probe", type=Path)
    ap.add_argument("label")
    ap.add_argument("--out", type=Path, default=Path("tests/cases/conformance"))
    ap.add_argument(
        "--adjudicate",
        action="append",
        default=[],
        metavar="ID=CAUSE:WHY",
        help="overrule the majority cause of one answer, with the reason (kept in the case): for what "
        "no reviewer could see, such as how a tool answers a value its description left open",
    )
    a = ap.parse_args()
    overrule: dict[str, tuple[str, str]] = {}
    for item in a.adjudicate:
        rid, _, rest = item.partition("=")
        cause, _, why = rest.partition(":")
        if not rid or not cause or not why:
            raise SystemExit(f"--adjudicate {item!r}: give ID=CAUSE:WHY")
        overrule[rid] = (cause, why)
    recs = {r["id"]: r for r in _jsonl(a.probe / "records.jsonl")}
    preds = {p["id"]: p for p in _jsonl(a.probe / "preds.jsonl")}
    answers = {x["id"]: x for x in _jsonl(a.probe / "answers.jsonl")}
    reviews = [{x["id"]: x for x in _jsonl(a.probe / f"answers_{r}.jsonl")} for r in "ABC"]
    for r, rev in zip("ABC", reviews, strict=True):
        missing = set(answers) - set(rev)
        if missing:
            raise SystemExit(f"answers_{r}.jsonl lacks {len(missing)} answers, e.g. {sorted(missing)[:3]}")
    a.out.mkdir(parents=True, exist_ok=True)
    tools_path = a.out / "tools.json"
    tools: dict[str, Any] = json.loads(tools_path.read_text(encoding="utf-8")) if tools_path.exists() else {}
    keep_cases = [c for c in _read(a.out / "cases.jsonl") if c["probe"] != a.label]
    keep_defects = [c for c in _read(a.out / "label_defects.jsonl") if c["probe"] != a.label]
    cases, defects = [], []
    for rid in sorted(answers):
        r, ans, votes = recs[rid], answers[rid], [rev[rid] for rev in reviews]
        offered = json.loads(r["tools"])
        anns = _current_annotations(json.loads(r["tools"]))  # judge-only knowledge: today's catalog
        for t in offered:
            fn = t["function"]
            key = fn["name"]
            entry = {"function": fn, "annotations": anns.get(key, {})}
            n = 0
            while key in tools and tools[key] != entry:  # the same name shown otherwise: keep both
                n += 1
                key = f"{fn['name']}#{n}"
            tools[key] = entry
            t["_key"] = key
        acceptable = _majority([v["pred_acceptable"] for v in votes])
        gold_ok = _majority([v["gold_ok"] for v in votes])
        judge_ok = _majority([v["judge_ok"] for v in votes])
        review = {
            "votes": [
                {k: v.get(k) for k in ("pred_acceptable", "gold_ok", "judge_ok", "cause", "note")}
                for v in votes
            ],
            "cause": _majority([v["cause"] for v in votes]),
        }
        if rid in overrule:
            review["majority_cause"], (review["cause"], review["adjudicated"]) = (
                review["cause"],
                overrule[rid],
            )
        record = {
            k: r[k]
            for k in ("id", "query", "reference_time", "domain", "target_plugin", "target_tools", "kind",
                      "negative_scope", "needs_tool", "target_relevant", "difficulty")
        }  # fmt: skip
        record["tools"] = [t["_key"] for t in offered]
        for k in ("gold_calls", "gold_alternatives", "alternative_calls"):
            record[k] = json.loads(r.get(k) or "[]")
        ver = json.loads(r["verification"])
        if ver.get("missing"):
            record["missing"] = ver["missing"]
        p = preds.get(rid, {})
        prediction = {k: p[k] for k in ("calls", "content") if k in p}
        base = {"probe": a.label, "record": record, "prediction": prediction, "review": review,
                "judge_at_probe": ans["judge"]}  # fmt: skip
        if gold_ok == 1 and acceptable in (0, 1) and review["cause"] in JUDGE_CAUSES:
            expected: dict[str, Any] = {"pass": acceptable == 1}
            if acceptable == 0 and judge_ok == 1 and ans["judge"]["outcome"] in ("FN", "FP"):
                expected["category"] = ans["judge"]["category"]
            cases.append({**base, "expected": expected})
        else:
            defects.append(base)
    with open(tools_path, "w", encoding="utf-8") as f:
        json.dump(dict(sorted(tools.items())), f, ensure_ascii=False, indent=0, sort_keys=True)
        f.write("\n")
    _write(a.out / "cases.jsonl", keep_cases + cases)
    _write(a.out / "label_defects.jsonl", keep_defects + defects)
    causes = Counter(c["review"]["cause"] for c in cases + defects)
    print(f"{a.label}: {len(cases)} judge cases, {len(defects)} label defects; causes {dict(causes)}")
    return 0


def _current_annotations(offered: list[dict[str, Any]]) -> dict[str, Any]:
    """The judge-only annotations of the offered tools as the catalog has them now: they are the
    judge's knowledge (aliases, derived defaults), not what the model saw, and grow with the judge."""
    from plugineval.catalog import load_catalog

    cat = load_catalog()
    out: dict[str, Any] = {}
    for t in offered:
        name = t["function"]["name"]
        try:
            ann = cat.tool(name).annotations
        except KeyError:
            continue
        out[name] = {a: v.model_dump(exclude_defaults=True) for a, v in sorted(ann.items())}
    return out


def _read(path: Path) -> list[dict[str, Any]]:
    return _jsonl(path) if path.exists() else []


def _write(path: Path, rows: list[dict[str, Any]]) -> None:
    with open(path, "w", encoding="utf-8") as f:
        for x in rows:
            f.write(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
