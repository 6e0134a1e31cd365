"""Leaderboard rows from stored summaries: any difficulty mixture, with bootstrap intervals
(``plugineval.metrics.mixture_bootstrap``).

Every column comes from the summary stored with each row when it was written (``summary.py``: the
per-stratum figures and resample sums), so a mixture change re-scores every row exactly as
``plugineval.metrics.mixture`` and ``mixture_bootstrap`` would from its verdicts, without reading
them. A row without a summary (not stored yet) is summarized from its verdicts.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Sequence
from typing import Any

from plugineval import entries as E
from plugineval import metrics as M

from . import summary as S
from .store import Entry

PRESETS: dict[str, tuple[float, float, float]] = {
    "original (0.40/0.40/0.20)": M.MIXTURES["original"],
    "easy-weighted (0.60/0.30/0.10)": M.MIXTURES["easy_weighted"],
}
CUSTOM = "custom (sliders)"

# (column, datatype); percentages are numbers so that sorting is numeric
COLUMNS: list[tuple[str, str]] = [
    ("Row", "number"),
    ("Model", "str"),
    ("Organisation", "str"),
    ("Date", "str"),
    ("Recall", "number"),
    ("Recall 95% CI", "str"),
    ("Accuracy", "number"),
    ("Accuracy 95% CI", "str"),
    ("Miss", "number"),
    ("Param", "number"),
    ("Temp", "number"),
    ("Missing", "number"),
    ("Value", "number"),
    ("Spurious", "number"),
    ("Over", "number"),
    ("Recall easy", "number"),
    ("Recall medium", "number"),
    ("Recall hard", "number"),
    ("Trials", "number"),
    ("Recall SD", "number"),
    ("Recall range", "str"),
    ("pass^k", "number"),
    ("Cost (USD, self-reported)", "number"),
    ("Latency (ms, self-reported)", "number"),
    ("Dataset", "str"),
    ("Judge", "str"),
    ("Judge mode", "str"),
    ("Judge model", "str"),
    ("Type", "str"),
    ("Status", "str"),
    ("Trained on PluginEval", "str"),
    ("Model card", "str"),
    ("Same as", "str"),
]
COLUMN_NAMES = [c for c, _ in COLUMNS]
DEFAULT_COLUMNS = [
    c
    for c in COLUMN_NAMES
    if c
    not in (
        "Judge model",
        "Cost (USD, self-reported)",
        "Latency (ms, self-reported)",
        "Date",
        "Recall medium",
        "Recall range",
        "Model card",
    )
]


def weights_for(preset: str, easy: float, medium: float, hard: float) -> tuple[float, float, float]:
    """The preset's weights, or the sliders' (normalised) for the custom choice."""
    if preset in PRESETS:
        return PRESETS[preset]
    try:
        w = (float(easy), float(medium), float(hard))
    except (TypeError, ValueError):
        raise ValueError(f"custom mixture weights must be numbers, got {(easy, medium, hard)!r}") from None
    if not all(math.isfinite(x) and x >= 0 for x in w) or sum(w) <= 0:
        raise ValueError(f"custom mixture weights must be finite, non-negative and not all zero, got {w}")
    s = sum(w)
    return (w[0] / s, w[1] / s, w[2] / s)


def _pct(x: float | None) -> float | None:
    return None if x is None else round(100 * x, 2)


_CACHE: dict[tuple[str, tuple[float, ...]], dict[str, Any]] = {}
_CACHE_LOCK = threading.Lock()
_CACHE_MAX = 8192


def summary_of(entry: Entry) -> dict[str, Any]:
    """The row's stored summary (computed from its verdicts when it has none)."""
    if entry.summary is None or entry.summary.get("version") != S.VERSION:
        entry.summary = S.compute(entry.verdicts, entry.more_trials)
    return entry.summary


def score_entry(
    entry: Entry, weights: tuple[float, float, float], load: Callable[[int], Entry | None] | None = None
) -> dict[str, Any]:
    """Mixture metrics, intervals and per-difficulty recall of one row, from its summary (cached by
    row key and weights). ``load`` reads the row's verdicts when the stored resample sums cannot give
    the intervals (weights that leave a whole side unweighted)."""
    key = (entry.content_hash, tuple(round(w, 6) for w in weights))
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    return _score(entry, weights, load, S.mixture_ci(summary_of(entry), weights))


def _score(
    entry: Entry,
    weights: tuple[float, float, float],
    load: Callable[[int], Entry | None] | None,
    ci: dict[str, Any] | None,
) -> dict[str, Any]:
    key = (entry.content_hash, tuple(round(w, 6) for w in weights))
    s = summary_of(entry)
    if ci is None:
        full = entry if entry.verdicts else (load(entry.id) if load and entry.id is not None else None)
        ci = (
            M.mixture_bootstrap(E.typed(full.verdicts.values()), weights)
            if full
            else {"recall": None, "accuracy": None}
        )
    out = {
        "mixture": S.mixture(s["strata"], weights),
        "ci": ci,
        "by": s["by_difficulty"],
        "trials": S.trial_spread(s, weights),
    }
    with _CACHE_LOCK:
        if len(_CACHE) >= _CACHE_MAX:
            _CACHE.clear()
        _CACHE[key] = out
    return out


_ARRAYS: dict[str, tuple[Any, Any]] = {}  # row key → summary.row_arrays (decoded once)


def score_entries(
    entries: Sequence[Entry],
    weights: tuple[float, float, float],
    load: Callable[[int], Entry | None] | None = None,
) -> None:
    """Score every row not scored under these weights yet, the intervals of all of them in one pass
    over their stacked resample sums (``summary.mixture_cis``: the same numbers as one by one)."""
    w = tuple(round(x, 6) for x in weights)
    with _CACHE_LOCK:
        todo = [e for e in entries if (e.content_hash, w) not in _CACHE]
    if len(todo) < 2:
        return
    arrays = []
    for e in todo:
        a = _ARRAYS.get(e.content_hash)
        if a is None:
            if len(_ARRAYS) >= 4 * _CACHE_MAX:
                _ARRAYS.clear()
            a = _ARRAYS[e.content_hash] = S.row_arrays(summary_of(e))
        arrays.append(a)
    cis = S.mixture_cis(*S.stacked(arrays), weights)
    for e, ci in zip(todo, cis, strict=True):
        _score(e, weights, load, ci)


def trial_spread(entry: Entry, weights: tuple[float, float, float]) -> dict[str, Any] | None:
    """How much the row's mixture Recall moves between its trials: the per-trial values, the sample
    standard deviation (n − 1), min and max, and pass^K of the positives; None for one trial."""
    return S.trial_spread(summary_of(entry), weights)


def _figure(x: float | None, digits: int) -> float | None:
    """A self-reported figure as shown: a finite non-negative number, else nothing (a row stored
    before the submission path checked them)."""
    return round(x, digits) if x is not None and math.isfinite(x) and x >= 0 else None


def _ci(c: list[float] | None) -> str:
    return "" if not c else f"[{100 * c[0]:.1f}, {100 * c[1]:.1f}]"


def entry_row(
    entry: Entry, weights: tuple[float, float, float], load: Callable[[int], Entry | None] | None = None
) -> dict[str, Any]:
    s = score_entry(entry, weights, load)
    mx, rates, by, t = s["mixture"], s["mixture"]["rates"], s["by"], s["trials"]

    def diff_recall(d: str) -> float | None:
        b = by.get(d)
        return _pct(b["recall"]) if b and b["positives"] else None

    return {
        "Row": entry.id,
        "Model": entry.model,
        "Organisation": entry.organisation,
        "Date": entry.created[:10],
        "Recall": _pct(mx["recall"]),
        "Recall 95% CI": _ci(s["ci"]["recall"]),
        "Accuracy": _pct(mx["accuracy"]),
        "Accuracy 95% CI": _ci(s["ci"]["accuracy"]),
        "Miss": _pct(rates.get("miss_recall")),
        "Param": _pct(rates.get("parameter_error")),
        "Temp": _pct(rates.get("temporal")),
        "Missing": _pct(rates.get("missing_argument")),
        "Value": _pct(rates.get("incorrect_value")),
        "Spurious": _pct(rates.get("spurious_call")),
        "Over": _pct(rates.get("over_recall")),
        "Recall easy": diff_recall("easy"),
        "Recall medium": diff_recall("medium"),
        "Recall hard": diff_recall("hard"),
        "Trials": 1 if t is None else t["k"],
        "Recall SD": None if t is None or t["spread"].std is None else round(100 * t["spread"].std, 2),
        "Recall range": ""
        if t is None or t["spread"].min is None
        else f"{100 * t['spread'].min:.1f}–{100 * t['spread'].max:.1f}",
        "pass^k": None if t is None else _pct(t["pass_k"]),
        "Cost (USD, self-reported)": _figure(entry.cost_usd, 4),
        "Latency (ms, self-reported)": _figure(entry.latency_ms, 1),
        "Dataset": entry.dataset_version,
        "Judge": entry.judge_version,
        "Judge mode": entry.judge_mode,
        "Judge model": entry.judge_model or "",
        "Type": entry.kind,
        "Status": entry.status,
        "Trained on PluginEval": {True: "yes", False: "no"}.get(entry.trained_on_plugineval, "—"),  # type: ignore[arg-type]
        "Model card": entry.model_card,
        "Same as": "" if entry.duplicate_of is None else f"#{entry.duplicate_of}",
    }


def leaderboard(
    entries: Sequence[Entry],
    weights: tuple[float, float, float],
    *,
    search: str = "",
    columns: Sequence[str] | None = None,
    status: Sequence[str] | None = None,
    types: Sequence[str] | None = None,
    dataset: str | None = None,
    sort_by: str = "Recall",
    descending: bool = True,
    load: Callable[[int], Entry | None] | None = None,
) -> Any:
    """A pandas DataFrame of the rows that pass the filters, sorted, with the chosen columns."""
    import pandas as pd

    q = search.strip().casefold()
    keep: list[Entry] = []
    for e in entries:
        if q and q not in f"{e.model} {e.organisation} {e.link}".casefold():
            continue
        if status and e.status not in status:
            continue
        if types and e.kind not in types:
            continue
        if dataset and dataset != "all" and e.dataset_version != dataset:
            continue
        keep.append(e)
    score_entries(keep, weights, load)
    rows = [entry_row(e, weights, load) for e in keep]
    cols = [c for c in COLUMN_NAMES if c in (columns or COLUMN_NAMES)]
    if "Model" not in cols:
        cols = ["Model", *cols]
    df = pd.DataFrame(rows, columns=COLUMN_NAMES)
    if sort_by in df.columns and len(df):
        df = df.sort_values(sort_by, ascending=not descending, na_position="last", kind="stable")
    return df[cols].reset_index(drop=True)
