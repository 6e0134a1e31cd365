"""Submission bundles on the Space: validated like ``plugineval submit --validate``, scored with the
Space's own judge (a bundle carries no score, and a score in it would be refused by the manifest's
schema), kept in the board's store, and re-scored when the judge version changes.

A bundle's rows are keyed by (bundle digest, judge version, judge mode): the same bundle submitted
again adds nothing; a new judge version adds a new row beside the old one, which keeps its version.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from plugineval._version import JUDGE_VERSION
from plugineval.entries import to_json_map
from plugineval.names import markdown_text as md
from plugineval.schema import Record
from plugineval.submission import Bundle, Problem, load_bundle, validate

from .livejudge import UploadError, discard_upload, read_upload, upload_name
from .seed import entry_from_report
from .store import Board, Entry

SHOWN = 50
"""Problems listed in a refusal (the count says how many there are in all)."""


def row_hash(bundle_digest: str, judge_version: str, judge_mode: str) -> str:
    return hashlib.sha256(
        f"bundle\x00{bundle_digest}\x00judge\x00{judge_version}\x00{judge_mode}".encode()
    ).hexdigest()


def _problems_markdown(problems: Sequence[Problem], total: int | None = None) -> str:
    """The problems as a table (every cell literal text), with the exact count: ``300 problems, the
    first 50 shown`` when some are not listed."""
    n = max(len(problems), total or 0)
    shown = problems[:SHOWN]
    rows = "\n".join(f"| {md(p.file)} | {md(p.field)} | {md(p.message)} |" for p in shown)
    count = (
        f"{n:,} problem"
        + ("" if n == 1 else "s")
        + (f", the first {len(shown)} shown" if len(shown) < n else "")
    )
    return (
        f"**The bundle is not valid: {count}; nothing was scored.** Check it with "
        "`plugineval submit --validate BUNDLE`, fix it and upload again.\n\n"
        f"| file | field | problem |\n|---|---|---|\n{rows}"
    )


def score_bundle(bundle: Bundle, records: Sequence[Record], judge: str) -> Entry:
    """Validate and score every predictions file of the bundle with this judge; the row (trial 1's
    verdicts, the other trials' in ``more_trials``)."""
    from plugineval.scoring import evaluate

    v = validate(bundle, records)
    if not v.ok:
        raise UploadError(_problems_markdown(v.problems, v.total))
    m = bundle.manifest
    reports = [
        evaluate(v.predictions[name], list(records), judge=judge, meta={"model": m.model})  # type: ignore[arg-type]
        for name in m.predictions
    ]
    first = reports[0]
    entry = entry_from_report(
        first,
        m.model,
        m.organisation,
        m.link,
        row_hash(bundle.digest, str(first.versions["judge"]), str(first.versions["judge_mode"])),
        kind="submission",
        status="self-reported",
        preds=v.predictions[m.predictions[0]].values(),
    )
    entry.bundle_hash = bundle.digest
    entry.model_card = m.model_card
    entry.trained_on_plugineval = m.trained_on_plugineval
    entry.more_trials = [to_json_map(r.per_record) for r in reports[1:]]
    return entry


def submit_bundle(path: str | Path | None, records: Sequence[Record], board: Board, judge: str) -> str:
    """Validate, score with the Space's judge, keep the bundle (only the members it uses) and store
    the row. An upload refused (for its content: every refusal here is) is deleted at once; a
    stored one is kept in the board, its upload left to the app's cache clean-up (another request
    may be reading the same file: Gradio keeps uploads by content)."""
    try:
        return _submit_bundle(path, records, board, judge)
    except UploadError:
        discard_upload(path)
        raise


def _submit_bundle(path: str | Path | None, records: Sequence[Record], board: Board, judge: str) -> str:
    from plugineval.submission import BundleError

    data = read_upload(path)
    try:
        bundle = load_bundle(data, label=upload_name(path))
    except BundleError as e:
        raise UploadError(_problems_markdown(e.problems)) from None
    entry = score_bundle(bundle, records, judge)
    board.add_bundle(bundle.digest, bundle.manifest.model, bundle.to_zip())
    if not board.add(entry):
        return (
            f"Already on the leaderboard: this bundle was submitted as **{md(entry.model)}** and scored by "
            f"judge {entry.judge_version} before (nothing changed)."
        )
    rec = _recall(entry.verdicts)
    k = 1 + len(entry.more_trials)
    notes = "".join(f"\n\n⚠️ {md(w)}" for w in bundle.warnings)
    return (
        f"Submitted **{md(entry.model)}** ({md(entry.organisation) or 'no organisation'}): {k} trial(s), "
        f"re-scored here by judge {entry.judge_version} ({entry.judge_mode}); Recall (trial 1) "
        f"{'—' if rec is None else f'{100 * rec:.2f}%'}. Bundle `{bundle.digest[:12]}` kept with the "
        f"leaderboard (only the files it uses).{notes}"
    )


def _recall(verdicts: dict[str, dict[str, Any]]) -> float | None:
    from plugineval import metrics as M

    r: float | None = M.summarize(list(verdicts.values()))["recall"]
    return r


def rescore_all(board: Board, records: Sequence[Record], judge: str) -> list[str]:
    """Score every kept bundle that has no row from this judge version and mode yet; the old rows stay
    (labelled with their judge version). Returns the digests re-scored."""
    from plugineval.judge import Judge

    mode = Judge(judge).mode  # type: ignore[arg-type]
    have = {e.content_hash for e in board.entries()}
    done = []
    for digest in board.bundle_digests():
        if row_hash(digest, JUDGE_VERSION, mode) in have:
            continue
        data = board.bundle(digest)
        if data is None:
            continue
        try:
            entry = score_bundle(load_bundle(data), records, judge)
        except (UploadError, ValueError):  # e.g. a bundle of another release: left as it is
            continue
        if board.add(entry):
            done.append(digest)
    return done
