"""``evaluate`` and ``compare``: pure functions joining predictions and records by id."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._constants import SEED
from ._version import JUDGE_VERSION, SCHEMA_VERSION, SCORER_VERSION
from .entries import VerdictEntry
from .judge import Judge, JudgeMode, prompt_version
from .metrics import paired
from .predictions import parse_line, read_predictions
from .report import Report, build_metrics
from .schema import Prediction, Record
from .sources import load_records

PredictionsLike = str | Path | Mapping[str, Prediction] | Iterable[Mapping[str, Any]]


def _predictions(preds: PredictionsLike, known: set[str]) -> dict[str, Prediction]:
    if isinstance(preds, str | Path):
        return read_predictions(preds, known_ids=known)
    if isinstance(preds, Mapping):
        return dict(preds)
    import json

    from .predictions import parse_predictions

    return parse_predictions((json.dumps(dict(p), ensure_ascii=False) for p in preds), "<predictions>", known)


def entry(record: Record, verdict: Any) -> VerdictEntry:
    """The record's entry in ``report.per_record`` (``VerdictEntry.to_json`` is its JSON form)."""
    return VerdictEntry.from_verdict(record, verdict)


def _is_trials(predictions: Any) -> bool:
    return (
        isinstance(predictions, list | tuple)
        and bool(predictions)
        and all(isinstance(p, str | Path) for p in predictions)
    )


def evaluate(
    predictions: PredictionsLike | Sequence[str | Path],
    records: Sequence[Record] | str | Path | None = None,
    judge: Judge | JudgeMode = "hybrid",
    *,
    split: str = "test",
    revision: str | None = None,
    config: str = "default",
    seed: int = SEED,
    progress: bool = False,
    meta: Mapping[str, Any] | None = None,
) -> Report:
    """Score predictions against records (joined by id; a record with no prediction is invalid_output).

    ``predictions`` is a file, a mapping id → Prediction, an iterable of line objects, or a list of
    files: the K trials of one model (``plugineval.trials``). K > 1 files give trial 1's report with
    each metric's mean and spread and the pass^k of the positives in ``report.trials``; a list of one
    file gives exactly that file's report."""
    recs = (
        list(records)
        if isinstance(records, Sequence) and not isinstance(records, str)
        else load_records(records, split, revision, config)
    )
    if config != "default":  # stamped beside the versions: a calendar score is never a default one
        meta = {**(meta or {}), "config": config}
    j = judge if isinstance(judge, Judge) else Judge(judge)
    if not _is_trials(predictions):
        return _evaluate_one(predictions, recs, j, seed, progress, meta)[0]  # type: ignore[arg-type]
    paths = [Path(p) for p in predictions if isinstance(p, str | Path)]  # type: ignore[union-attr]
    if len(paths) == 1:
        return _evaluate_one(paths[0], recs, j, seed, progress, meta)[0]
    from .trials import summarize_trials

    scored = [_evaluate_one(p, recs, j, seed, progress, meta) for p in paths]
    reports = [r for r, _ in scored]
    base = reports[0]
    base.trials = summarize_trials(reports, [str(p) for p in paths], [ids for _, ids in scored])
    return base


def _evaluate_one(
    predictions: PredictionsLike,
    recs: list[Record],
    j: Judge,
    seed: int,
    progress: bool,
    meta: Mapping[str, Any] | None,
) -> tuple[Report, set[str]]:
    known = {r.id for r in recs}
    preds = _predictions(predictions, known)
    bar = None
    if progress and len(recs) > 2000:
        try:
            from tqdm import tqdm

            bar = tqdm(total=len(recs), desc="judging", unit="rec", leave=False)
        except ImportError:
            bar = None
    verdicts = j.run(recs, preds, progress=bar.update if bar is not None else None)
    if bar is not None:
        bar.close()
    per_record = {r.id: entry(r, verdicts[r.id]) for r in sorted(recs, key=lambda r: r.id)}
    versions = {
        "dataset": ",".join(sorted({r.version for r in recs})) or None,
        "judge": JUDGE_VERSION,
        "scorer": SCORER_VERSION,
        "schema": SCHEMA_VERSION,
        "judge_mode": j.mode,
        "judge_mode_requested": j.requested_mode,
        "judge_model": j.model,
        "judge_prompt": prompt_version() if j.llm is not None else None,
    }
    info = dict(meta or {})
    if isinstance(predictions, str | Path):
        from .predict import read_run_meta

        run = read_run_meta(predictions)  # the sidecar `plugineval predict` writes: prompt, settings
        if run is not None:
            info["run"] = run
            if "model" not in info and run.get("model"):
                info["model"] = run["model"]
    models = sorted({p.model for p in preds.values() if p.model})
    if models and "model" not in info:
        info["model"] = ",".join(models)
    info["predictions"] = len(preds)
    info["missing_predictions"] = len(known - set(preds))
    return Report(versions, build_metrics(per_record, seed), per_record, info), set(preds)


def compare(a: Report, b: Report, seed: int = SEED) -> dict[str, Any]:
    """Paired comparison of two reports by record id (B − A)."""
    out = paired(a.per_record, b.per_record, seed=seed)
    out["a"] = {
        "versions": a.versions,
        "model": a.meta.get("model"),
        "recall": a.recall,
        "accuracy": a.accuracy,
    }
    out["b"] = {
        "versions": b.versions,
        "model": b.meta.get("model"),
        "recall": b.recall,
        "accuracy": b.accuracy,
    }
    if a.versions.get("dataset") != b.versions.get("dataset"):
        out["warning"] = "the reports score different dataset versions: only shared ids are compared"
    return out


__all__ = ["compare", "evaluate", "parse_line"]
