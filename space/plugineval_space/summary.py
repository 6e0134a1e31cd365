"""A row's summaries, computed once when the row is written and stored beside it.

The leaderboard draws every column and plot from these, never from the per-record verdicts, so a page
load costs the same at 1,000 rows as at 10 apart from the arithmetic below. What is kept:

- per (positive/negative × difficulty) stratum: its size, its share decided right (recall on
  positives, true-negative rate on negatives) and its error rates — any mixture's Recall, Accuracy
  and rates follow from them with the same arithmetic as ``plugineval.metrics.mixture``;
- per stratum, the 1,000 bootstrap resample sums of ``plugineval.metrics.resample_sums`` (drawn in
  ``mixture_bootstrap``'s order), so any mixture's 95% intervals are ``mixture_bootstrap``'s, number
  for number (for weights that leave a whole side unweighted the draws differ: those rows are
  computed from their verdicts);
- recall and accuracy per difficulty, the error profile's rates, and per trial the strata (trial
  spread under any mixture) with pass^k.

``VERSION`` is stored in the summary; a row whose summary is missing or of another version is
summarized again when the board is read (once, then stored).
"""

from __future__ import annotations

import base64
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from plugineval import entries as E
from plugineval import metrics as M
from plugineval._constants import DIFFICULTIES, SEED
from plugineval.judge import Outcome

VERSION = 1
RESAMPLES = 1000
PLOT_ROWS = 20
"""The plots show at most this many models: the first rows of the table as sorted and filtered."""


def _strata(entries: Sequence[Any]) -> dict[tuple[bool, str], list[Any]]:
    by: dict[tuple[bool, str], list[Any]] = defaultdict(list)
    for e in entries:
        if not e.excluded and e.difficulty in DIFFICULTIES:
            by[e.positive, e.difficulty].append(e)
    return by


def _stratum_list(by: Mapping[tuple[bool, str], list[Any]]) -> list[dict[str, Any]]:
    out = []
    for pos in (True, False):
        for d in DIFFICULTIES:
            rows = by.get((pos, d))
            if not rows:
                continue
            s = M.summarize(rows)
            ok = s["recall"] if pos else M._div(s["confusion"][Outcome.TN], s["negatives"])
            keys = M.POSITIVE_RATES if pos else M.NEGATIVE_RATES
            out.append({"pos": pos, "d": d, "n": s["n"], "ok": ok, "rates": {k: s["rates"][k] for k in keys}})
    return out


def _pack(arr: Any) -> dict[str, str]:
    import numpy as np

    dt = "<u2" if int(arr.max(initial=0)) < 2**16 else "<i4"
    return {"dtype": dt, "b64": base64.b64encode(np.ascontiguousarray(arr, dtype=dt).tobytes()).decode()}


def _unpack(d: Mapping[str, str]) -> Any:
    import numpy as np

    return np.frombuffer(base64.b64decode(d["b64"]), dtype=d["dtype"]).astype(np.int64)


def compute(
    verdicts: Mapping[str, Mapping[str, Any]], more_trials: Sequence[Mapping[str, Any]] = ()
) -> dict[str, Any]:
    """The summary of a row from its verdicts (JSON form) and its other trials'."""
    es = E.typed(verdicts.values())
    by = _strata(es)
    strata = _stratum_list(by)
    rows = [[(int(e.correct),) for e in by[s["pos"], s["d"]]] for s in strata]
    reps = M.resample_sums(rows, SEED, RESAMPLES) if rows else []
    total = M.summarize(es)
    out: dict[str, Any] = {
        "version": VERSION,
        "strata": strata,
        "reps": [_pack(r[:, 0]) for r in reps],
        "by_difficulty": M.breakdown(es, E.DIFFICULTY),
        "rates": total["rates"],
        "recall": total["recall"],
        "trials": None,
    }
    if more_trials:
        from plugineval.trials import pass_hat_k

        trials = [verdicts, *more_trials]
        outcomes = {rid: [t.get(rid, {}).get(E.OUTCOME, Outcome.FN) for t in trials] for rid in verdicts}
        kinds = {rid: e[E.KIND] for rid, e in verdicts.items()}
        _, pk = pass_hat_k(outcomes, kinds)
        out["trials"] = {
            "k": len(trials),
            "strata": [_stratum_list(_strata(E.typed(t.values()))) for t in trials],
            "pass_k": pk[str(len(trials))],
        }
    return out


def mixture(strata: Sequence[Mapping[str, Any]], weights: Sequence[float]) -> dict[str, Any]:
    """``plugineval.metrics.mixture`` from the stored strata (the same arithmetic, the same numbers)."""

    def side(positive: bool) -> tuple[float | None, dict[str, float], int]:
        present = [
            (w, s)
            for w, d in zip(weights, DIFFICULTIES, strict=True)
            for s in strata
            if s["pos"] is positive and s["d"] == d
        ]
        total = sum(w for w, _ in present)
        if not present or total == 0:
            return None, {}, 0
        acc = 0.0
        rates: dict[str, float] = defaultdict(float)
        n = 0
        for w, s in present:
            n += s["n"]
            acc += w / total * (s["ok"] or 0.0)
            for k, v in s["rates"].items():
                rates[k] += w / total * (v or 0.0)
        return acc, dict(rates), n

    rec, prates, npos = side(True)
    tnr, nrates, nneg = side(False)
    total = npos + nneg
    accuracy = None if total == 0 else (npos * (rec or 0.0) + nneg * (tnr or 0.0)) / total
    return {"weights": list(weights), "recall": rec, "accuracy": accuracy, "rates": prates | nrates}


def mixture_ci(summary: Mapping[str, Any], weights: Sequence[float]) -> dict[str, list[float] | None] | None:
    """``plugineval.metrics.mixture_bootstrap`` from the stored resample sums; None when the weights
    leave a side with strata unweighted (its draws would differ: compute from the verdicts)."""
    import numpy as np

    strata = summary["strata"]
    reps = summary.get("_reps")
    if reps is None:
        reps = summary["_reps"] = [_unpack(r) for r in summary["reps"]]
    share: list[float] = []
    for pos in (True, False):
        mine = [
            (w, s)
            for w, d in zip(weights, DIFFICULTIES, strict=True)
            for s in strata
            if s["pos"] is pos and s["d"] == d
        ]
        total = sum(w for w, _ in mine)
        if mine and not total:
            return None
        share += [w / total for w, _ in mine]
    rate: dict[bool, Any] = {}
    n = {True: 0, False: 0}
    for s, sh, sums in zip(strata, share, reps, strict=True):
        pos = s["pos"]
        n[pos] += s["n"]
        rate[pos] = rate.get(pos, np.zeros(RESAMPLES)) + sh * (sums.astype(np.float64) / s["n"])
    rec, tnr = rate.get(True), rate.get(False)
    total_n = n[True] + n[False]
    if total_n == 0:
        return {"recall": None, "accuracy": None}
    accuracy = (
        n[True] * (rec if rec is not None else 0.0) + n[False] * (tnr if tnr is not None else 0.0)
    ) / total_n
    return {"recall": None if rec is None else M._percentiles(rec), "accuracy": M._percentiles(accuracy)}


_SLOTS = [(pos, d) for pos in (True, False) for d in DIFFICULTIES]


def row_arrays(summary: Mapping[str, Any]) -> tuple[Any, Any]:
    """A row's stratum sizes (6 slots; 0 where it has no such stratum) and resample sums (6 ×
    resamples, as stored: 16-bit where the strata are small enough), for ``mixture_cis``."""
    import numpy as np

    n = np.zeros(len(_SLOTS), dtype=np.int64)
    reps = [np.frombuffer(base64.b64decode(r["b64"]), dtype=r["dtype"]) for r in summary["reps"]]
    dtype = reps[0].dtype if reps and all(r.dtype == reps[0].dtype for r in reps) else np.dtype("<i4")
    sums = np.zeros((len(_SLOTS), RESAMPLES), dtype=dtype)
    for st, r in zip(summary["strata"], reps, strict=True):
        j = _SLOTS.index((st["pos"], st["d"]))
        n[j] = st["n"]
        sums[j] = r
    return n, sums


def stacked(arrays: Sequence[tuple[Any, Any]]) -> tuple[Any, Any]:
    """``row_arrays`` of many rows as two arrays (rows × 6, rows × 6 × resamples)."""
    import numpy as np

    if not arrays:
        return np.zeros((0, len(_SLOTS)), dtype=np.int64), np.zeros(
            (0, len(_SLOTS), RESAMPLES), dtype=np.int64
        )
    dtypes = {a[1].dtype for a in arrays}
    dtype = dtypes.pop() if len(dtypes) == 1 else np.dtype("<i4")
    return np.stack([a[0] for a in arrays]), np.stack([a[1].astype(dtype, copy=False) for a in arrays])


def mixture_cis(n: Any, sums: Any, weights: Sequence[float]) -> list[dict[str, list[float] | None] | None]:
    """``mixture_ci`` of many rows at once (``stacked``'s arrays): the same operations in the same
    order on whole arrays, so the same numbers. None for a row whose draws would differ."""
    import numpy as np

    rows = n.shape[0]
    present = n > 0
    rate = {True: np.zeros((rows, RESAMPLES)), False: np.zeros((rows, RESAMPLES))}
    size = {True: np.zeros(rows, dtype=np.int64), False: np.zeros(rows, dtype=np.int64)}
    bad = np.zeros(rows, dtype=bool)
    for pos in (True, False):
        slots = [j for j, (p, _) in enumerate(_SLOTS) if p is pos]
        total = np.zeros(rows)
        for j, w in zip(slots, weights, strict=True):
            total = total + np.where(present[:, j], w, 0.0)
        side = present[:, slots].any(axis=1)
        bad |= side & (total == 0)
        safe = np.where(total == 0, 1.0, total)
        for j, w in zip(slots, weights, strict=True):
            share = np.where(present[:, j], w / safe, 0.0)
            denom = np.where(present[:, j], n[:, j], 1)
            rate[pos] = rate[pos] + share[:, None] * (sums[:, j].astype(np.float64) / denom[:, None])
            size[pos] = size[pos] + n[:, j]
    total_n = size[True] + size[False]
    acc = (size[True][:, None] * rate[True] + size[False][:, None] * rate[False]) / np.where(
        total_n == 0, 1, total_n
    )[:, None]
    lo_hi_rec = np.percentile(rate[True], [2.5, 97.5], axis=1)
    lo_hi_acc = np.percentile(acc, [2.5, 97.5], axis=1)
    has_pos = present[:, [j for j, (p, _) in enumerate(_SLOTS) if p]].any(axis=1)
    out: list[dict[str, list[float] | None] | None] = []
    for i in range(rows):
        if bad[i]:
            out.append(None)
        elif total_n[i] == 0:
            out.append({"recall": None, "accuracy": None})
        else:
            rec = [float(lo_hi_rec[0, i]), float(lo_hi_rec[1, i])] if has_pos[i] else None
            out.append({"recall": rec, "accuracy": [float(lo_hi_acc[0, i]), float(lo_hi_acc[1, i])]})
    return out


def trial_spread(summary: Mapping[str, Any], weights: Sequence[float]) -> dict[str, Any] | None:
    """``table.trial_spread`` from the stored per-trial strata."""
    t = summary.get("trials")
    if not t:
        return None
    from plugineval.trials import spread_of

    s = spread_of([mixture(st, weights)["recall"] for st in t["strata"]])
    return {"k": t["k"], "spread": s, "pass_k": t["pass_k"]}
