"""The live judge: validate an uploaded predictions JSONL, score it, and optionally submit it.

Storage: an upload refused for its content (size, encoding, lines, self-reported figures) is deleted
at once (``discard_upload``: only files in Gradio's upload folder). Any other upload is left to the
app's ``delete_cache``: Gradio keeps uploads by content, so one file may be the upload of several
requests at once (the same predictions submitted under two names), and a refusal for its content
holds for all of them, while a scored or stored one must stay readable for the others. Each scored upload's
``report.json`` folder is kept while it may still be downloaded: the newest ``REPORTS_KEPT`` of them,
older ones deleted as new ones are made.
"""

from __future__ import annotations

import atexit
import json
import os
import shutil
import tempfile
import threading
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from plugineval import entries as E
from plugineval import names
from plugineval.entries import VerdictEntry
from plugineval.predictions import human_size, split_lines
from plugineval.schema import Prediction, Record

from .seed import entry_from_report
from .store import Board, content_hash

PER_RECORD_COLUMNS = ["id", "outcome", "category", "subtype", "kind", "difficulty", "plugin", "reasons"]
MAX_NAME = names.MAX_NAME
REPORTS_KEPT = 32
"""Report folders kept for download (each holds one report.json, ~2 MB for the test split)."""
_REPORTS: deque[Path] = deque()
_REPORTS_LOCK = threading.Lock()


def _forked() -> None:
    """In a forked scoring child: a lock of its own (another thread of the server may have held the
    server's at the fork, and would never release it here) and none of the server's folders, which
    the child's own bound would otherwise delete under the server."""
    global _REPORTS_LOCK
    _REPORTS_LOCK = threading.Lock()
    _REPORTS.clear()


os.register_at_fork(after_in_child=_forked)
md = names.markdown_text


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


def exact_size(n: int) -> str:
    """A byte count exactly, with its readable size: ``33,554,432 bytes (32 MiB)``."""
    return f"{n:,} bytes ({human_size(n)})"


def upload_name(path: str | Path | None) -> str:
    """The upload's own file name (never the server's path to it)."""
    return Path(str(path or "")).name or "upload"


def read_upload(path: str | Path | None, limit: int | None = None) -> bytes:
    if not path:
        raise UploadError("No file uploaded: choose a predictions JSONL file (one line per record id).")
    p = Path(path)
    limit = max_upload_bytes() if limit is None else limit
    try:
        size = p.stat().st_size
        if size > limit:
            raise UploadError(
                f"The upload is {size:,} bytes; the limit is {exact_size(limit)}. "
                "Score large files locally with `plugineval evaluate` instead."
            )
        data = p.read_bytes()
    except OSError:
        raise UploadError(
            f"The upload {md(upload_name(path))} is no longer on the server (uploads are deleted once "
            "handled): upload the file again."
        ) from None
    if not data.strip():
        raise UploadError("The uploaded file is empty: expected one JSON line per record id.")
    return data


def upload_folder() -> Path:
    """Where Gradio keeps uploads (``GRADIO_TEMP_DIR``, else ``<tmp>/gradio``)."""
    return Path(os.environ.get("GRADIO_TEMP_DIR") or Path(tempfile.gettempdir()) / "gradio").resolve()


def discard_upload(path: str | Path | None) -> bool:
    """Delete an upload once handled, and its folder when that is left empty. Only a file inside
    Gradio's upload folder is touched (a path from anywhere else is left alone). True if deleted."""
    if not path:
        return False
    base = upload_folder()
    try:
        p = Path(path).resolve()
        if not p.is_relative_to(base) or p == base or not p.is_file():
            return False
        p.unlink()
        if p.parent != base and not any(p.parent.iterdir()):
            p.parent.rmdir()
    except OSError:
        return False
    return True


def _drop_reports() -> None:
    """At exit no report can be downloaded any more: delete the folders still kept."""
    with _REPORTS_LOCK:
        kept = list(_REPORTS)
        _REPORTS.clear()
    for d in kept:
        shutil.rmtree(d, ignore_errors=True)


# registered once here: registered at each first folder, it piled up whenever the list emptied and refilled
atexit.register(_drop_reports)


def drop_reports_on_sigterm() -> None:
    """Delete the kept report folders when the process is stopped by SIGTERM (how a Space or a test
    stops its server), where no exit handler runs, then end by the signal as before. A handler someone
    else set is called after. Call from the main thread, before the server blocks."""
    import signal

    before = signal.getsignal(signal.SIGTERM)
    owner = os.getpid()  # a forked scoring child inherits the handler but owns none of the folders

    def on_term(signum: int, frame: Any) -> None:
        if os.getpid() == owner:
            _drop_reports()
        if callable(before):
            before(signum, frame)
            return
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    signal.signal(signal.SIGTERM, on_term)


def forget_report(report_path: Path) -> None:
    """Delete the folder of a report no one will download (a submission's: the submit path runs in a
    forked child, whose exit runs no handler, so each submission left its folder behind)."""
    d = report_path.parent
    with _REPORTS_LOCK:
        if d in _REPORTS:
            _REPORTS.remove(d)
    shutil.rmtree(d, ignore_errors=True)


def new_report_dir() -> Path:
    """A folder for one report.json; the oldest past ``REPORTS_KEPT`` are deleted, and the rest
    when the process exits (``_drop_reports``)."""
    d = Path(tempfile.mkdtemp(prefix="plugineval-report-"))
    with _REPORTS_LOCK:
        _REPORTS.append(d)
        old = [_REPORTS.popleft() for _ in range(max(0, len(_REPORTS) - REPORTS_KEPT))]
    for o in old:
        shutil.rmtree(o, ignore_errors=True)
    return d


def _cell(s: str) -> str:
    return md(s)


def _count(n: int, shown: int, what: str = "problem") -> str:
    """``300 problems, the first 50 shown`` (exact: every count said as it is)."""
    head = f"{n:,} {what}" + ("" if n == 1 else "s")
    return head + (f", the first {shown} shown" if shown < n else "")


def parse_upload(data: bytes, records: Sequence[Record], name: str = "upload") -> dict[str, Prediction]:
    from plugineval.predictions import PredictionFileError, parse_predictions

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UploadError(f"The file is not UTF-8 text ({e.reason} at byte {e.start:,}).") from None
    try:
        # the reader's bounds (depth, line, string, number) hold here as in `plugineval evaluate`
        return parse_predictions(split_lines(text), name, {r.id for r in records})
    except PredictionFileError as e:
        from plugineval.submission import listed_and_total

        listed, total = listed_and_total(e)
        rows = "\n".join(f"| {ln or ''} | {_cell(msg)} |" for ln, msg in listed)
        raise UploadError(
            f"**{md(name)}: {_count(total, len(listed))}; nothing was scored.** Fix these lines and upload "
            f"again.\n\n| line | problem |\n|---|---|\n{rows}"
        ) from None


def judge_upload(path: str | Path | None, records: Sequence[Record], judge: str = "hybrid") -> Judged:
    """Score an upload; one refused for its content is deleted at once (a scored one is kept for a
    submission of it, until the app's cache clean-up)."""
    try:
        return _judge_upload(path, records, judge)
    except UploadError:
        discard_upload(path)
        raise


def _judge_upload(path: str | Path | None, records: Sequence[Record], judge: str) -> Judged:
    from plugineval.scoring import evaluate

    data = read_upload(path)
    name = upload_name(path)
    preds = parse_upload(data, records, name)
    if not preds:
        raise UploadError(f"{md(name)}: no prediction lines found.")
    report = evaluate(preds, list(records), judge=judge)  # type: ignore[arg-type]
    out = new_report_dir() / "report.json"
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
    text: str = r.to_markdown()
    title, _, rest = text.partition("\n")
    model = r.meta.get("model")
    if model and title.startswith("# PluginEval report — "):  # the model name comes from the upload
        text = f"# PluginEval report — {md(model)}\n{rest}"
    head = f"**Scored {len(j.predictions):,} predictions against {r.metrics['n']:,} records.**"
    return "\n\n".join([head, *(f"⚠️ {w}" for w in j.warnings), text])


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


def clean_submitter(model: str | None, organisation: str | None, link: str | None) -> tuple[str, str, str]:
    """The model name, organisation and link of a submission as stored: NFKC text without control,
    bidi or invisible characters, within their limits, not the maintainers' (``plugineval.names``);
    ``UploadError`` naming the field and the character otherwise."""
    try:
        m = names.clean_name(model or "", "Model name")
        o = names.clean_name(organisation or "", "Organisation", required=False)
        lk = names.clean_link(link or "", "Link")
        names.refuse_reserved(m, o)
    except names.InvalidName as e:  # its message repeats nothing typed: Markdown as it is
        raise UploadError(str(e)) from None
    return m, o, lk


def submit(
    path: str | Path | None,
    model: str,
    organisation: str,
    link: str,
    records: Sequence[Record],
    board: Board,
    judge: str = "hybrid",
) -> str:
    """Score and store a submission; idempotent by the predictions' bytes and the model name. An upload
    refused for its content is deleted."""
    from plugineval.submission import self_reported_problems

    model, organisation, link = clean_submitter(model, organisation, link)
    data = read_upload(path)
    digest = content_hash(data, model)
    if board.has(digest):
        return (
            f"Already on the leaderboard: these predictions were submitted as **{md(model)}** before "
            "(nothing changed)."
        )
    j = judge_upload(path, records, judge)
    forget_report(j.report_path)  # a submission offers no report to download
    bad = self_reported_problems(upload_name(path), j.predictions.values())
    if bad:
        discard_upload(path)
        raise UploadError(
            "**Not submitted: the self-reported figures cannot be shown.** "
            + " ".join(md(f"{p.field}: {p.message}.") for p in bad)
        )
    entry = entry_from_report(
        j.report,
        model,
        organisation,
        link,
        digest,
        kind="submission",
        status="self-reported",
        preds=j.predictions.values(),
    )
    if not board.add(entry):
        return (
            f"Already on the leaderboard: these predictions were submitted as **{md(model)}** before "
            "(nothing changed)."
        )
    rec = j.report.recall
    return (
        f"Submitted **{md(model)}** ({md(entry.organisation) or 'no organisation'}): Recall "
        f"{'—' if rec is None else f'{100 * rec:.2f}%'}, stored on the leaderboard."
    )
