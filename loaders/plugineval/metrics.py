"""Metrics from per-record verdicts (docs/format.md §7): everything is recomputable from ``report.json``.

An entry is a ``plugineval.entries.VerdictEntry`` (its ``outcome``, ``category``, ``subtype``, ``kind``
and ``difficulty``; ``domain``, ``target_plugin``, ``tools``, ``scenario`` for breakdowns). Each function
also takes entries in their JSON form (a report's ``per_record`` values) and converts them first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ._constants import DIFFICULTIES, SEED
from .entries import LIST_KEYS, VerdictEntry, typed, typed_map
from .judge._types import Category, Outcome

Entry = VerdictEntry | Mapping[str, Any]

MIXTURES: dict[str, tuple[float, float, float]] = {
    "original": (0.40, 0.40, 0.20),
    "easy_weighted": (0.60, 0.30, 0.10),
}
POSITIVE_RATES = (
    "miss_recall",
    "parameter_error",
    "temporal",
    "missing_argument",
    "incorrect_value",
    "spurious_call",
    "invalid_output_pos",
    "judge_failure",
)
NEGATIVE_RATES = ("over_recall", "invalid_output_neg")


def _div(a: float, b: float) -> float | None:
    return a / b if b else None


def summarize(entries: Iterable[Entry]) -> dict[str, Any]:
    """Confusion matrix, Recall, Accuracy and every error rate with its denominator."""
    c: dict[str, int] = defaultdict(int)
    for e in typed(entries):
        o = e.outcome
        c[o] += 1
        if o is Outcome.EXCLUDED:
            continue
        cat, sub = e.category, e.subtype
        if e.positive:
            if cat is Category.INVALID_OUTPUT:
                c["invalid_output_pos"] += 1
            elif cat:
                c[cat] += 1
            if sub:
                c[sub] += 1
        elif cat is Category.INVALID_OUTPUT:
            c["invalid_output_neg"] += 1
        elif cat is Category.OVER_RECALL:
            c[Category.OVER_RECALL] += 1
    tp, fn, fp, tn = c[Outcome.TP], c[Outcome.FN], c[Outcome.FP], c[Outcome.TN]
    pos, neg = tp + fn, fp + tn
    out: dict[str, Any] = {
        "n": pos + neg,
        "positives": pos,
        "negatives": neg,
        "excluded_both_empty": c[Outcome.EXCLUDED],
        "confusion": {str(Outcome.TP): tp, str(Outcome.FN): fn, str(Outcome.FP): fp, str(Outcome.TN): tn},
        "recall": _div(tp, pos),
        "accuracy": _div(tp + tn, pos + neg),
        "rates": {k: _div(c[k], pos) for k in POSITIVE_RATES} | {k: _div(c[k], neg) for k in NEGATIVE_RATES},
        "counts": {k: c[k] for k in (*POSITIVE_RATES, *NEGATIVE_RATES)},
        "denominators": {"positive_rates": pos, "negative_rates": neg},
    }
    return out


def breakdown(entries: Sequence[Entry], key: str) -> dict[str, dict[str, Any]]:
    """Recall / accuracy / counts per value of ``key`` (a list-valued key counts in each of its values)."""
    groups: dict[str, list[VerdictEntry]] = defaultdict(list)
    for e in typed(entries):
        v = e.get(key)
        if v is None and key in LIST_KEYS:  # an absent list (a positive without steps): no group
            continue
        for k in v if isinstance(v, list) else [v]:
            groups[str(k)].append(e)
    out = {}
    for k in sorted(groups):
        s = summarize(groups[k])
        out[k] = {
            "n": s["n"],
            "positives": s["positives"],
            "negatives": s["negatives"],
            "recall": s["recall"],
            "accuracy": s["accuracy"],
        }
    return out


def mixture(entries: Sequence[Entry], weights: Sequence[float]) -> dict[str, Any]:
    """Re-weight difficulties within positives and within negatives, each keeping its share (docs/format.md §7)."""
    if len(weights) != 3 or any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError(
            f"mixture weights must be three non-negative numbers (easy, medium, hard), got {weights}"
        )
    by: dict[tuple[bool, str | None], list[VerdictEntry]] = defaultdict(list)
    for e in typed(entries):
        if not e.excluded:
            by[e.positive, e.difficulty].append(e)

    def side(positive: bool) -> tuple[float | None, dict[str, float | None], int]:
        present = [(w, d) for w, d in zip(weights, DIFFICULTIES, strict=True) if by.get((positive, d))]
        total = sum(w for w, _ in present)
        if not present or total == 0:
            return None, {}, 0
        acc = 0.0
        rates: dict[str, float] = defaultdict(float)
        n = 0
        for w, d in present:
            s = summarize(by[positive, d])
            n += s["n"]
            ok = s["recall"] if positive else _div(s["confusion"][Outcome.TN], s["negatives"])
            acc += w / total * (ok or 0.0)
            for k in POSITIVE_RATES if positive else NEGATIVE_RATES:
                rates[k] += w / total * (s["rates"][k] or 0.0)
        return acc, dict(rates), n

    rec, prates, npos = side(True)
    tnr, nrates, nneg = side(False)
    total = npos + nneg
    accuracy = None if total == 0 else (npos * (rec or 0.0) + nneg * (tnr or 0.0)) / total
    return {"weights": list(weights), "recall": rec, "accuracy": accuracy, "rates": prates | nrates}


def resample_sums(
    strata: Sequence[Sequence[Sequence[int]]], seed: int = SEED, resamples: int = 1000
) -> list[Any]:
    """The one stratified bootstrap: every stratum (rows of equal-length integer columns) is resampled
    with replacement to its own size, ``resamples`` times, strata in the order given and all from one
    generator seeded with ``seed``; per stratum, the column sums of each resample (an int64 array of
    shape ``(resamples, columns)``). The intervals below and the Space's mixture intervals are built
    on it, so a seed gives the same draws everywhere."""
    import numpy as np

    rng = np.random.default_rng(seed)
    out = []
    for rows in strata:
        arr = np.asarray(rows, dtype=np.int64)
        idx = rng.integers(0, len(arr), size=(resamples, len(arr)))
        # column by column: a (resamples, n) temporary at a time, not (resamples, n, columns)
        out.append(np.stack([arr[:, j][idx].sum(axis=1) for j in range(arr.shape[1])], axis=1))
    return out


def _percentiles(x: Any) -> list[float]:
    import numpy as np

    lo, hi = np.percentile(x, [2.5, 97.5])
    return [float(lo), float(hi)]


def bootstrap(entries: Sequence[Entry], seed: int = SEED, resamples: int = 1000) -> dict[str, Any]:
    """Seeded bootstrap 95% intervals for Recall and Accuracy, resampling within each kind."""
    import numpy as np

    groups: dict[str, list[tuple[int, int, int]]] = {}
    for e in typed(entries):
        if not e.excluded:  # (is_counted_positive, is_tp, is_correct)
            groups.setdefault(e.kind, []).append(  # type: ignore[arg-type]
                (int(e.positive), int(e.outcome is Outcome.TP), int(e.correct))
            )
    if not groups:
        return {"recall": None, "accuracy": None, "resamples": resamples, "seed": seed}
    sums = sum(resample_sums([groups[k] for k in sorted(groups)], seed, resamples)).astype(np.float64)
    pos_sum, tp_sum, ok_sum = sums[:, 0], sums[:, 1], sums[:, 2]
    n_total = sum(len(g) for g in groups.values())
    return {
        "recall": _percentiles(tp_sum / pos_sum) if np.all(pos_sum > 0) else None,
        "accuracy": _percentiles(ok_sum / np.full(resamples, n_total)),
        "resamples": resamples,
        "seed": seed,
    }


def mixture_bootstrap(
    entries: Sequence[Entry], weights: Sequence[float], seed: int = SEED, resamples: int = 1000
) -> dict[str, list[float] | None]:
    """Bootstrap 95% intervals of ``mixture``'s Recall and Accuracy, resampling within each
    (positive/negative, difficulty) stratum — the strata the mixture weights."""
    import numpy as np

    strata: dict[tuple[bool, str | None], list[tuple[int]]] = {}
    for e in typed(entries):
        if not e.excluded:
            strata.setdefault((e.positive, e.difficulty), []).append((int(e.correct),))
    plan: list[tuple[bool, float, list[tuple[int]]]] = []  # (positive, weight share, stratum), drawn in order
    for pos in (True, False):  # as ``mixture`` weighs them: a side without weighted strata is left out
        present = [(w, d) for w, d in zip(weights, DIFFICULTIES, strict=True) if strata.get((pos, d))]
        total = sum(w for w, _ in present)
        if present and total:
            plan += [(pos, w / total, strata[pos, d]) for w, d in present]
    rate: dict[bool, Any] = {}
    n = {True: 0, False: 0}
    for (pos, share, rows), sums in zip(
        plan, resample_sums([p[2] for p in plan], seed, resamples), strict=True
    ):
        n[pos] += len(rows)
        rate[pos] = rate.get(pos, np.zeros(resamples)) + share * (sums[:, 0].astype(np.float64) / len(rows))
    rec, tnr = rate.get(True), rate.get(False)
    total = n[True] + n[False]
    if total == 0:
        return {"recall": None, "accuracy": None}
    accuracy = (
        n[True] * (rec if rec is not None else 0.0) + n[False] * (tnr if tnr is not None else 0.0)
    ) / total
    return {"recall": None if rec is None else _percentiles(rec), "accuracy": _percentiles(accuracy)}


def paired(
    a: Mapping[str, Entry], b: Mapping[str, Entry], seed: int = SEED, resamples: int = 1000
) -> dict[str, Any]:
    """Paired comparison by record id: differences B − A with paired-bootstrap 95% intervals."""
    import numpy as np

    ea, eb = typed_map(a), typed_map(b)
    ids = sorted(i for i in set(ea) & set(eb) if not ea[i].excluded and not eb[i].excluded)
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    by_kind: dict[str, list[str]] = defaultdict(list)
    for i in ids:
        by_kind[ea[i].kind].append(i)  # type: ignore[index]
    diffs = [  # per record: (B − A) in TP, (B − A) in correct
        [
            (
                int(eb[i].outcome is Outcome.TP) - int(ea[i].outcome is Outcome.TP),
                eb[i].correct - ea[i].correct,
            )
            for i in by_kind[kind]
        ]
        for kind in sorted(by_kind)
    ]
    d = sum(resample_sums(diffs, seed, resamples), np.zeros((resamples, 2)))
    d_tp, d_ok = d[:, 0], d[:, 1]
    n = len(ids)
    npos = sum(1 for i in ids if ea[i].positive)

    def point(key: str, positives_only: bool) -> float | None:
        sel = [i for i in ids if not positives_only or ea[i].positive]
        if not sel:
            return None
        good = frozenset({Outcome.TP}) if key == "recall" else frozenset({Outcome.TP, Outcome.TN})
        return (sum(eb[i].outcome in good for i in sel) - sum(ea[i].outcome in good for i in sel)) / len(sel)

    flips = {
        "b_right_a_wrong": [i for i in ids if eb[i].correct and not ea[i].correct],
        "a_right_b_wrong": [i for i in ids if ea[i].correct and not eb[i].correct],
    }
    return {
        "n_paired": n,
        "only_in_a": len(only_a),
        "only_in_b": len(only_b),
        "recall_diff": point("recall", True),
        "recall_diff_ci": _percentiles(d_tp / npos) if npos else None,
        "accuracy_diff": point("accuracy", False),
        "accuracy_diff_ci": _percentiles(d_ok / n) if n else None,
        "flips": {k: len(v) for k, v in flips.items()},
        "flipped_ids": flips,
        "resamples": resamples,
        "seed": seed,
    }
