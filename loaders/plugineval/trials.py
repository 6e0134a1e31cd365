"""Repeated trials: K predictions files of one model over the same records, scored each on its own,
summarised as each metric's mean and spread over the trials and the pass^k of the positives.

- **Spread**: ``min``, ``max`` and ``std``, the *sample* standard deviation over the K trials
  (``ddof=1``, divisor K − 1), beside the ``mean`` and every trial's ``values``.
- **pass^k** (τ-bench): for each positive, with ``c`` of the K trials right (outcome TP),
  ``C(c, k) / C(K, k)`` — the chance that k trials drawn from the K are all right — averaged over
  the positives. pass^1 is the mean Recall over the trials, pass^K the share of positives that every
  trial got right. A positive excluded (``both_empty``) in any trial does not count.

The report of K > 1 files is trial 1's report (its metrics, breakdowns and per-record verdicts) with
this summary in its ``trials`` field; one file gives the single-file report unchanged.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from .entries import POSITIVE
from .judge._types import Outcome

TRIALS_FORMAT: Literal["plugineval-trials/1"] = "plugineval-trials/1"
SPREAD = "min, max and the sample standard deviation (ddof=1) over the trials"
_TRIAL_NAME = re.compile(r"^(?P<stem>.+)\.t(?P<i>[1-9][0-9]*)(?P<suffix>\.[^.]+)?$")


class TrialsError(ValueError):
    """The files are not trials of one model over the same records; the message names the file."""


class Spread(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mean: float | None
    min: float | None
    max: float | None
    std: float | None
    values: list[float | None]


class TrialFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    index: int
    path: str
    model: str | None
    seed: int | None
    predictions: int
    missing_predictions: int


class TrialsSummary(BaseModel):
    """The ``trials`` field of a report scored from K > 1 predictions files."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["plugineval-trials/1"] = TRIALS_FORMAT
    k: int
    spread: str = SPREAD
    pass_k_estimator: str = "mean over positives of C(c,k)/C(K,k), c = trials right (TP)"
    files: list[TrialFile]
    metrics: dict[str, Spread]
    positives: int
    pass_k: dict[str, float | None]
    outcomes: dict[str, list[str]]
    """Per record id, its outcome in each trial (TP / FN / FP / TN / EXCLUDED), in trial order."""


def trial_paths(out: str | Path, k: int) -> list[Path]:
    """The files ``plugineval predict --trials k --out out`` writes: ``out`` itself for k = 1, else
    ``<stem>.t1<suffix>`` … ``<stem>.tk<suffix>`` beside it (``preds.jsonl`` → ``preds.t1.jsonl``)."""
    p = Path(out)
    if k == 1:
        return [p]
    return [p.with_name(f"{p.stem}.t{i}{p.suffix}") for i in range(1, k + 1)]


def trial_index(path: str | Path) -> int | None:
    """``i`` of a file named ``<stem>.t<i><suffix>``, else None."""
    m = _TRIAL_NAME.match(Path(path).name)
    return int(m["i"]) if m else None


def spread_of(values: Sequence[float | None]) -> Spread:
    xs = [v for v in values if v is not None]
    if not xs:
        return Spread(mean=None, min=None, max=None, std=None, values=list(values))
    mean = sum(xs) / len(xs)
    std = math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else None
    return Spread(mean=mean, min=min(xs), max=max(xs), std=std, values=list(values))


def metric_values(metrics: dict[str, Any]) -> dict[str, float | None]:
    """The scalar metrics of one report that the trials summarise (Recall, Accuracy, every rate,
    each mixture's Recall and Accuracy)."""
    out: dict[str, float | None] = {"recall": metrics["recall"], "accuracy": metrics["accuracy"]}
    out.update(metrics["rates"])
    for name, mx in metrics.get("mixtures", {}).items():
        out[f"mixture.{name}.recall"] = mx["recall"]
        out[f"mixture.{name}.accuracy"] = mx["accuracy"]
    return out


def pass_hat_k(outcomes: dict[str, list[str]], kinds: dict[str, str]) -> tuple[int, dict[str, float | None]]:
    """(counted positives, {"1": pass^1, …, "K": pass^K}) from per-record outcomes over K trials."""
    rows = [o for rid, o in outcomes.items() if kinds.get(rid) == POSITIVE and Outcome.EXCLUDED not in o]
    k_all = max((len(o) for o in outcomes.values()), default=0)
    out: dict[str, float | None] = {}
    for k in range(1, k_all + 1):
        if not rows:
            out[str(k)] = None
            continue
        den = math.comb(k_all, k)
        out[str(k)] = sum(math.comb(sum(x == Outcome.TP for x in o), k) / den for o in rows) / len(rows)
    return len(rows), out


def check_same_run(metas: Sequence[dict[str, Any] | None], names: Sequence[str]) -> None:
    """Trials of one run differ only by their seed: the sidecars (where present) must agree on the
    model, mode, prompt, temperature and the rest of the settings."""
    first: tuple[str, dict[str, Any]] | None = None
    for name, meta in zip(names, metas, strict=True):
        if meta is None:
            continue
        s = {k: v for k, v in (meta.get("settings") or {}).items() if k not in ("seed", "trial")}
        if first is None:
            first = (name, s)
            continue
        diff = sorted(k for k in set(s) | set(first[1]) if s.get(k) != first[1].get(k))
        if diff:
            what = ", ".join(f"{k}: {first[1].get(k)!r} vs {s.get(k)!r}" for k in diff)
            raise TrialsError(
                f"{name}: not a trial of the same run as {first[0]} (its sidecar's settings differ: {what})"
            )


def identical_trials(names: Sequence[str], datas: Sequence[bytes]) -> list[tuple[str, str]]:
    """(copy, first) for each file whose bytes equal an earlier file's: such a copy is not a trial."""
    return _same([(n, hashlib.sha256(d).digest()) for n, d in zip(names, datas, strict=True)])


def _same(keyed: Sequence[tuple[str, bytes]]) -> list[tuple[str, str]]:
    first: dict[bytes, str] = {}
    out = []
    for name, key in keyed:
        if key in first:
            out.append((name, first[key]))
        else:
            first[key] = name
    return out


def check_distinct_files(paths: Sequence[str | Path]) -> None:
    """``TrialsError`` when two of the files (those that exist) are byte-identical (hashed as they
    are read, never held whole)."""
    keyed = []
    for p in map(Path, paths):
        if p.is_file():
            with p.open("rb") as f:
                keyed.append((str(p), hashlib.file_digest(f, "sha256").digest()))
    same = _same(keyed)
    if same:
        copy, first = same[0]
        raise TrialsError(
            f"{copy}: byte-identical to {first}: a copy is not another trial (each trial is its own run)"
        )


def summarize_trials(
    reports: Sequence[Any], paths: Sequence[str | Path], given: Sequence[set[str]]
) -> TrialsSummary:
    """The summary over K scored reports (``plugineval.report.Report``) of the files ``paths``, whose
    lines answered the ids ``given``."""
    names = [str(p) for p in paths]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise TrialsError(f"{dup}: the same predictions file given twice; give each trial's file once")
    models = [r.meta.get("model") for r in reports]
    for name, m in zip(names[1:], models[1:], strict=True):
        if m != models[0]:
            raise TrialsError(
                f"{name}: model {m!r}, but {names[0]} is {models[0]!r}: trials must be of one model "
                "(use --model-name to label files whose lines name no model)"
            )
    base = reports[0]
    ids0 = set(base.per_record)
    for name, r in zip(names[1:], reports[1:], strict=True):
        if set(r.per_record) != ids0:
            raise TrialsError(f"{name}: scored against other records than {names[0]}")
    for name, g in zip(names[1:], given[1:], strict=True):
        if g != given[0]:
            only = sorted(g ^ given[0])
            raise TrialsError(
                f"{name}: its record ids differ from {names[0]}'s ({len(only)} id(s) in one file only, "
                f"first {only[0]!r}): trials must answer the same records"
            )
    check_same_run([r.meta.get("run") for r in reports], names)
    check_distinct_files(paths)
    outcomes = {rid: [str(r.per_record[rid].outcome) for r in reports] for rid in sorted(ids0)}
    kinds = {rid: e.kind for rid, e in base.per_record.items()}
    npos, pk = pass_hat_k(outcomes, kinds)
    per = [metric_values(r.metrics) for r in reports]
    files = [
        TrialFile(
            index=i,
            path=name,
            model=r.meta.get("model"),
            seed=((r.meta.get("run") or {}).get("settings") or {}).get("seed"),
            predictions=r.meta.get("predictions", 0),
            missing_predictions=r.meta.get("missing_predictions", 0),
        )
        for i, (name, r) in enumerate(zip(names, reports, strict=True), 1)
    ]
    return TrialsSummary(
        k=len(reports),
        files=files,
        metrics={key: spread_of([p[key] for p in per]) for key in per[0]},
        positives=npos,
        pass_k=pk,
        outcomes=outcomes,
    )


def markdown(t: TrialsSummary) -> list[str]:
    """The trials section of a report's Markdown."""

    def pct(x: float | None) -> str:
        return "—" if x is None else f"{100 * x:.2f}%"

    def pp(x: float | None) -> str:
        return "—" if x is None else f"{100 * x:.2f} pp"

    lines = [
        "",
        f"## {t.k} trials",
        "",
        f"Each metric over the {t.k} trials: mean, min–max and the sample standard deviation (n − 1). "
        "The tables above are trial 1's.",
        "",
        "| metric | mean | min – max | std | per trial |",
        "|---|---|---|---|---|",
    ]
    for key in ("recall", "accuracy", "miss_recall", "parameter_error", "spurious_call", "over_recall"):
        s = t.metrics.get(key)
        if s is None:
            continue
        per = " / ".join(pct(v) for v in s.values)
        lines.append(f"| {key} | {pct(s.mean)} | {pct(s.min)} – {pct(s.max)} | {pp(s.std)} | {per} |")
    lines += ["", f"pass^k over {t.positives} positives (every one of k trials right):", ""]
    lines.append("| " + " | ".join(f"pass^{k}" for k in t.pass_k) + " |")
    lines.append("|" + "---|" * len(t.pass_k))
    lines.append("| " + " | ".join(pct(v) for v in t.pass_k.values()) + " |")
    return lines


def table_rows(t: TrialsSummary) -> list[str]:
    """The trials lines of the terminal table."""

    def pct(x: float | None) -> str:
        return "   —  " if x is None else f"{100 * x:6.2f}%"

    rows = [f"trials {t.k} (mean, min–max, sample std over the trials; the figures above are trial 1's)"]
    for key, label in (("recall", "Recall"), ("accuracy", "Accuracy")):
        s = t.metrics[key]
        std = "—" if s.std is None else f"{100 * s.std:.2f} pp"
        rows.append(f"{label:<15} {pct(s.mean)}  [{pct(s.min)} – {pct(s.max)}]  std {std}")
    rows.append("pass^k          " + "  ".join(f"^{k} {pct(v)}" for k, v in t.pass_k.items()))
    return rows
