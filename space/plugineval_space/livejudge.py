"""The live judge: validate an uploaded predictions JSONL, score it, and optionally submit it."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plugineval import entries as E
from plugineval.entries import VerdictEntry
from plugineval.predictions import human_size, split_lines
from plugineval.schema import Prediction, Record

from .seed import entry_from_report
from .store import Board, content_hash

PER_RECORD_COLUMNS = ["id", "outcome", "category", "subtype", "kind", "difficulty", "plugin", "reasons"]
MAX_NAME = 100


def max_upload_bytes() -> int:
    return int(float(os.environ.get("PLUGINEVAL_SPACE_MAX_UPLOAD_MB", "32")) * 2**20)


class UploadError(ValueError):
    """The upload cannot be scored; the message says why (line-numbered for file problems)."""


@dataclass
class Judged:
    report: Any  # plugineval.report.Report
    predictions: dict[str, Prediction]
    data: bytes
    report_path: Path
    warnings: list[str] = field(default_factory=list)


def read_upload(path: str | Path | None, limit: int | None = None) -> bytes:
    if not path:
        raise UploadError("No file uploaded: choose a predictions JSONL file (one line per record id).")
    p = Path(path)
    limit = max_upload_bytes() if limit is None else limit
    size = p.stat().st_size
    if size > limit:
        raise UploadError(
            f"The upload is {human_size(size)}; the limit is {human_size(limit)}. "
            "Score large files locally with `plugineval evaluate` instead."
        )
    data = p.read_bytes()
    if not data.strip():
        raise UploadError("The uploaded file is empty: expected one JSON line per record id.")
    return data


def _cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def parse_upload(data: bytes, records: Sequence[Record], name: str = "upload") -> dict[str, Prediction]:
    from plugineval.predictions import PredictionFileError, parse_predictions

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UploadError(f"The file is not UTF-8 text ({e.reason} at byte {e.start}).") from None
    try:
        # the reader's bounds (depth, line, string, number) hold here as in `plugineval evaluate`
        return parse_predictions(split_lines(text), name, {r.id for r in records})
    except PredictionFileError as e:
        n = len(e.errors)
        rows = "\n".join(f"| {ln or ''} | {_cell(msg)} |" for ln, msg in e.errors)
        raise UploadError(
            f"**{str(e).splitlines()[0]}.** Fix these lines and upload again.\n\n"
            f"| line | problem |\n|---|---|\n{rows}" + ("\n\n(first 50 shown)" if n >= 50 else "")
        ) from None


def judge_upload(path: str | Path | None, records: Sequence[Record], judge: str = "hybrid") -> Judged:
    from plugineval.scoring import evaluate

    data = read_upload(path)
    name = Path(str(path)).name
    preds = parse_upload(data, records, name)
    if not preds:
        raise UploadError(f"{name}: no prediction lines found.")
    report = evaluate(preds, list(records), judge=judge)  # type: ignore[arg-type]
    out = Path(tempfile.mkdtemp(prefix="plugineval-report-")) / "report.json"
    report.save(out)
    warnings = []
    missing = report.meta.get("missing_predictions", 0)
    if missing:
        warnings.append(
            f"{missing} of {len(records)} records have no prediction line: they score as invalid_output."
        )
    return Judged(report, preds, data, out, warnings)


def metrics_markdown(j: Judged) -> str:
    r = j.report
    md: str = r.to_markdown()
    head = f"**Scored {len(j.predictions)} predictions against {r.metrics['n']} records.**"
    return "\n\n".join([head, *(f"⚠️ {w}" for w in j.warnings), md])


def _reasons(e: VerdictEntry) -> str:
    parts = []
    for a in e.arguments:  # the argument verdicts, in their JSON form
        if a.get(E.ARG_OK):
            continue
        s = f"{a.get(E.ARG_NAME)}: {a.get(E.ARG_REASON)}"
        if E.ARG_PRED in a:
            s += f" (pred {json.dumps(a[E.ARG_PRED], ensure_ascii=False)}"
            s += f", gold {json.dumps(a[E.ARG_GOLD], ensure_ascii=False)})" if E.ARG_GOLD in a else ")"
        parts.append(s)
    for k, v in ((E.UNMATCHED_GOLD, e.unmatched_gold), (E.UNMATCHED_PRED, e.unmatched_pred)):
        if v:
            parts.append(f"{k}: {', '.join(map(str, v))}")
    if e.detail:  # the verdict's detail: why the output is invalid, or that no line was given
        parts.append(str(e.detail))
    return "; ".join(parts)


def per_record_table(
    per_record: Mapping[str, VerdictEntry | Mapping[str, Any]], failures_only: bool = False
) -> Any:
    import pandas as pd

    rows = []
    for rid, e in E.typed_map(per_record).items():
        if failures_only and e.correct:
            continue
        rows.append(
            [
                rid,
                str(e.outcome),
                str(e.category or ""),
                str(e.subtype or ""),
                e.kind,
                e.difficulty,
                e.target_plugin if E.TARGET_PLUGIN in e else "",
                _reasons(e),
            ]
        )
    return pd.DataFrame(rows, columns=PER_RECORD_COLUMNS)


def submit(
    path: str | Path | None,
    model: str,
    organisation: str,
    link: str,
    records: Sequence[Record],
    board: Board,
    judge: str = "hybrid",
) -> str:
    """Score and store a submission; idempotent by the predictions' bytes and the model name."""
    model = (model or "").strip()
    if not model:
        raise UploadError("Give the model a name to submit it to the leaderboard.")
    if len(model) > MAX_NAME or len((organisation or "").strip()) > MAX_NAME:
        raise UploadError(f"Model and organisation names are limited to {MAX_NAME} characters.")
    link = (link or "").strip()
    if link and not link.startswith(("https://", "http://")):
        raise UploadError(f"The link must start with https:// (got {link[:60]!r}).")
    data = read_upload(path)
    digest = content_hash(data, model)
    if board.has(digest):
        return f"Already on the leaderboard: these predictions were submitted as **{model}** before (nothing changed)."
    j = judge_upload(path, records, judge)
    entry = entry_from_report(
        j.report,
        model,
        (organisation or "").strip(),
        link,
        digest,
        kind="submission",
        status="self-reported",
        preds=j.predictions.values(),
    )
    if not board.add(entry):
        return f"Already on the leaderboard: these predictions were submitted as **{model}** before (nothing changed)."
    rec = j.report.recall
    return (
        f"Submitted **{model}** ({entry.organisation or 'no organisation'}): Recall "
        f"{'—' if rec is None else f'{100 * rec:.2f}%'}, stored in {board.description}."
    )
