"""What the page's events call: plain functions over the release and the board (no gradio here,
except the ``gr.update`` objects the layout passes through, imported lazily).

Heavy work — scoring an upload, a submission or a bundle, re-scoring kept bundles, seeding the
baselines — runs in the ``work.Pool`` (a child process each, bounded in number, time and memory), so
the page and its API answer while it runs. The child scores against a ``_Deferred`` board that only
records what would be stored; the server then stores it (``Board.add``: identity, duplicates and the
storage budget are decided there, in one transaction).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from plugineval_space import browser, livejudge, plots, table
from plugineval_space import summary as S
from plugineval_space.hubboard import open_board
from plugineval_space.redraw import Redrawer
from plugineval_space.release import Release
from plugineval_space.store import Board, Entry, Refused
from plugineval_space.work import Pool
from plugineval_space.work import Refused as NotRun

from plugineval.names import markdown_text as md


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


class _Deferred(Board):
    """A board that stores nothing: what a child process would add is recorded and sent back."""

    def __init__(self) -> None:
        self.added: list[Entry] = []
        self.bundles: list[tuple[str, str, bytes]] = []

    def add(self, entry: Entry, *, imported: bool = False) -> bool:
        if entry.summary is None:
            entry.summary = S.compute(entry.verdicts, entry.more_trials)  # in the child, not the server
        self.added.append(entry)
        return True

    def entries(self) -> list[Entry]:
        return []

    def has(self, digest: str) -> bool:
        return False  # the server's board decides (Board.add)

    @property
    def description(self) -> str:
        return "the leaderboard"

    def add_bundle(self, digest: str, model: str, data: bytes) -> bool:
        self.bundles.append((digest, model, data))
        return True

    def bundle(self, digest: str) -> bytes | None:
        return None

    def bundle_digests(self) -> list[str]:
        return []


def _judge_task(path: str | None, records: Any, mode: str) -> tuple[str, dict[str, Any], str]:
    j = livejudge.judge_upload(path, records, mode)
    return livejudge.metrics_markdown(j), dict(j.report.per_record), str(j.report_path)


def _bytes_digest(*parts: bytes) -> str:
    """The content digest of a row: the predictions bytes alone (``Entry.content_digest``)."""
    import hashlib

    h = hashlib.sha256(b"predictions")
    for p in parts:
        h.update(hashlib.sha256(p).digest())
    return h.hexdigest()


def _submit_task(
    path: str | None, model: str, org: str, link: str, records: Any, mode: str
) -> tuple[str, _Deferred]:
    from pathlib import Path

    try:
        digest = _bytes_digest(Path(path or "").read_bytes())
    except OSError:  # livejudge says what is wrong with the upload
        digest = ""
    board = _Deferred()
    message = livejudge.submit(path, model, org, link, records, board, mode)
    for e in board.added:
        e.content_digest = digest
    return message, board


def _bundle_task(path: str | None, records: Any, mode: str) -> tuple[str, _Deferred]:
    from plugineval_space.bundles import submit_bundle

    board = _Deferred()
    message = submit_bundle(path, records, board, mode)
    for e in board.added:
        e.content_digest = _bundle_content(board.bundles[0][2] if board.bundles else b"")
    return message, board


def _bundle_content(data: bytes) -> str:
    """A bundle's content digest: its predictions files' bytes (not its manifest, which names the
    submitter)."""
    from plugineval.submission import load_bundle

    if not data:
        return ""
    b = load_bundle(data)
    return _bytes_digest(*(b.files[n] for n in b.manifest.predictions))


def _rescore_task(data: bytes, records: Any, mode: str) -> Entry:
    from plugineval_space.bundles import score_bundle

    from plugineval.submission import load_bundle

    b = load_bundle(data)
    e = score_bundle(b, records, mode)
    e.summary = S.compute(e.verdicts, e.more_trials)
    e.content_digest = _bytes_digest(*(b.files[n] for n in b.manifest.predictions))
    return e


def _seed_task(records: Any) -> list[Entry]:
    from plugineval_space.seed import seed_baselines

    board = _Deferred()
    seed_baselines(records, board)
    return board.added


def _adopt_report(path: str) -> str:
    """The child's report.json moved into a report folder of this process (so that the bounded list
    of kept report folders, ``livejudge.new_report_dir``, counts it)."""
    import shutil
    from pathlib import Path

    src = Path(path)
    dst = livejudge.new_report_dir() / src.name
    shutil.move(str(src), dst)
    shutil.rmtree(src.parent, ignore_errors=True)
    return str(dst)


@dataclass
class Service:
    """The Space's state: where records come from, where rows go, which judge scores uploads."""

    release: Release = field(
        default_factory=lambda: Release(
            os.environ.get("PLUGINEVAL_RECORDS") or None,
            os.environ.get("PLUGINEVAL_REVISION") or None,
            _env_float("PLUGINEVAL_SPACE_TTL", 3600.0),
        )
    )
    board: Board = field(default_factory=open_board)
    judge_mode: str = field(default_factory=lambda: os.environ.get("PLUGINEVAL_SPACE_JUDGE", "hybrid"))
    seed: bool = field(default_factory=lambda: os.environ.get("PLUGINEVAL_SPACE_SEED", "1") != "0")
    split: str = "test"
    admin_token: str = field(default_factory=lambda: os.environ.get("PLUGINEVAL_SPACE_ADMIN_TOKEN", ""))
    rescore_on_start: bool = field(
        default_factory=lambda: os.environ.get("PLUGINEVAL_SPACE_RESCORE", "1") != "0"
    )
    pool: Pool = field(default_factory=Pool)
    _dirty: threading.Event = field(default_factory=threading.Event, repr=False)
    _warmer: threading.Thread | None = field(default=None, repr=False)
    _warm_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _rescored: bool = field(default=False, repr=False)
    _seeded: set[str] = field(default_factory=set, repr=False)
    _seed_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    redrawer: Redrawer = field(default=None, repr=False)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.redrawer is None:
            self.redrawer = Redrawer(lambda fn, *a: self.pool.run(fn, *a, budget=60, what="A plot"))

    # --- leaderboard -------------------------------------------------------------------------
    def ensure_seeded(self) -> None:
        """Baseline rows for the current release (once per dataset version; idempotent anyway)."""
        if not self.seed:
            return
        recs = self.release.records(self.split)
        version = self.release.version(self.split)
        if version in self._seeded:
            return
        with self._seed_lock:
            if version in self._seeded:
                return
            from plugineval.predict import BASELINES

            have = {
                e.model for e in self.board.rows() if e.kind == "baseline" and e.dataset_version == version
            }
            if not set(BASELINES) <= have:
                budget = max(self.pool.budget, 3600.0)
                for e in self.pool.run(_seed_task, recs, lane="seed", budget=budget, what="Seeding"):
                    self.board.add(e)
            self._seeded.add(version)
        self.prewarm()  # the first figures drawn before a visitor asks (redraw.py)

    def ensure_rescored(self) -> None:
        """Once per process, in the background: every kept bundle without a row from the current
        judge version gets one (so a new judge version re-scores them all; the old rows stay,
        labelled by version). The page does not wait for it."""
        if self._rescored or not self.rescore_on_start:
            return
        with self._seed_lock:
            if self._rescored:
                return
            self._rescored = True
        threading.Thread(target=self.rescore_kept, name="rescore", daemon=True).start()

    def rescore_kept(self) -> int:
        """Score, each in the pool, every kept bundle that a row names and that has no row from this
        judge version and mode; store the new rows (the old ones stay). Returns how many."""
        from plugineval._version import JUDGE_VERSION
        from plugineval.judge import Judge

        mode = Judge(self.judge_mode).mode  # type: ignore[arg-type]
        rows = self.board.rows()
        have = {(e.bundle_hash, e.judge_version, e.judge_mode) for e in rows}
        named = dict.fromkeys(e.bundle_hash for e in rows if e.bundle_hash)
        records = self.release.records(self.split)
        done = 0
        for digest in named:
            if (digest, JUDGE_VERSION, mode) in have:
                continue
            data = self.board.bundle(digest)
            if data is None:
                continue
            try:
                e = self.pool.run(
                    _rescore_task, data, records, self.judge_mode, lane="bundle", what="Re-scoring a bundle"
                )
                done += self.board.add(e)
            except (
                livejudge.UploadError,
                ValueError,
                NotRun,
            ):  # e.g. a bundle of another release: left as is
                continue
        return done

    def entries(self) -> list[Entry]:
        self.ensure_seeded()
        self.ensure_rescored()
        return self.board.entries()

    def prewarm(self) -> None:
        """Soon, in the background: the page's first leaderboard (its default controls) computed and
        its plots rendered, so that the next page load after new rows finds them ready. Calls in a
        burst (many submissions at once) make one warm-up, a second after the last."""
        with self._warm_lock:
            self._dirty.set()
            if self._warmer is not None and self._warmer.is_alive():
                return
            self._warmer = threading.Thread(target=self._warm, name="prewarm", daemon=True)
            self._warmer.start()

    def _warm(self) -> None:
        while self._dirty.is_set():
            self._dirty.clear()
            time.sleep(1.0)
            if self._dirty.is_set():
                continue
            with contextlib.suppress(Exception):  # a warm-up only: the request itself says what is wrong
                self.leaderboard(  # its plots are redrawn in the background (redraw.py)
                    "", next(iter(table.PRESETS)), 0, 0, 0, table.DEFAULT_COLUMNS, None, None, "Recall", True
                )

    def rows(self) -> list[Entry]:
        """Every row with its summary, not its verdicts (what the leaderboard draws from)."""
        self.ensure_seeded()
        self.ensure_rescored()
        return self.board.rows()

    def labelled(self) -> dict[str, Entry]:
        """Model label → row (a repeated model name gets its short content hash)."""
        from collections import Counter

        out: dict[str, Entry] = {}
        es = self.rows()
        names = Counter(e.model for e in es)
        for e in es:
            out[e.model if names[e.model] == 1 else f"{e.model} [#{e.id}]"] = e
        return out

    def leaderboard(
        self,
        search: str,
        preset: str,
        w_easy: float,
        w_medium: float,
        w_hard: float,
        columns: Sequence[str] | None,
        status: Sequence[str] | None,
        types: Sequence[str] | None,
        sort_by: str,
        descending: bool,
    ) -> tuple[Any, str, Any, Any]:
        """The table, a note on the mixture, the recall-per-difficulty plot and the error profile."""
        try:
            w = table.weights_for(preset, w_easy, w_medium, w_hard)
        except ValueError as e:
            w = table.PRESETS[next(iter(table.PRESETS))]
            note = f"⚠️ {e}; showing the original mixture."
        else:
            note = (
                f"Mixture easy/medium/hard = **{w[0]:.2f} / {w[1]:.2f} / {w[2]:.2f}**, applied within positives "
                "and within negatives. Recall, Accuracy (95% bootstrap intervals) and the error rates are "
                "recomputed for every row from the summaries stored with it (from its per-record verdicts, when it was written)."
            )
        es = self.rows()
        df = table.leaderboard(
            es,
            w,
            search=search or "",
            columns=[*(columns or table.COLUMN_NAMES), "Row"],
            status=status or None,
            types=types or None,
            sort_by=sort_by or "Recall",
            descending=bool(descending),
            load=self.board.entry,
        )
        by_id = {e.id: e for e in es}
        top = [by_id[i] for i in list(df["Row"])[: S.PLOT_ROWS]]  # the plots: the first rows as shown
        if columns is not None and "Row" not in columns:
            df = df.drop(columns=["Row"])
        note += f" {len(df)} of {len(es)} rows shown."
        if len(df) > S.PLOT_ROWS:
            note += f" The plots show the first {S.PLOT_ROWS} rows of the table as sorted and filtered."
        from plugineval._version import JUDGE_VERSION

        old = sum(e.judge_version != JUDGE_VERSION for e in es)
        if old:
            note += (
                f" {old} row(s) were scored by an older judge than {JUDGE_VERSION}: kept, labelled in the "
                "Judge column (a kept bundle is re-scored by each new judge version)."
            )
        if any(e.more_trials for e in es):
            note += (
                " Rows with several trials: Recall is trial 1's; Recall SD is the sample standard deviation of "
                "the mixture Recall over the trials (n − 1), Recall range its min–max, pass^k the share of "
                "positives every trial got right."
            )
        trained = sum(e.trained_on_plugineval is True for e in es)
        if trained:
            note += (
                f" {trained} row(s) declare trained_on_plugineval = yes (Trained on PluginEval column; the "
                "About tab's contamination note says what that means)."
            )
        sums = [(e.model, table.summary_of(e)) for e in top]
        figs, stale = self.redrawer.figures(
            {
                "recall": [(n, s["by_difficulty"]) for n, s in sums],
                "errors": [(n, s["rates"]) for n, s in sums],
            }
        )
        if stale:
            note += (
                " The plots are being redrawn for these rows: until then they show the rows of the previous "
                "drawing (load the leaderboard again in a moment)."
            )
        return (df, note, *figs)

    def compare(self, a: str | None, b: str | None) -> tuple[str, Any]:
        from plugineval import metrics as M
        from plugineval.entries import typed_map
        from plugineval.names import markdown_text as text
        from plugineval.report import Report
        from plugineval.scoring import compare

        rows = self.labelled()
        if not a or not b or a not in rows or b not in rows:
            return "Choose two models on the leaderboard to compare.", None
        ea, eb = (self.board.entry(rows[x].id) or rows[x] for x in (a, b))  # type: ignore[arg-type]

        def rep(e: Entry) -> Report:
            es = list(e.verdicts.values())
            versions = {"dataset": e.dataset_version, "judge": e.judge_version, "judge_mode": e.judge_mode}
            return Report(versions, M.summarize(es), typed_map(e.verdicts), {"model": e.model})

        out = compare(rep(ea), rep(eb))

        def pp(x: float | None) -> str:
            return "—" if x is None else f"{100 * x:+.2f} pp"

        def ci(c: list[float] | None) -> str:
            return "" if not c else f" (95% CI [{100 * c[0]:+.2f}, {100 * c[1]:+.2f}])"

        md = "\n".join(
            [
                f"**B = {text(b)}** minus **A = {text(a)}** over {out['n_paired']} paired records "
                "(paired bootstrap):",
                "",
                f"- Recall: {pp(out['recall_diff'])}{ci(out['recall_diff_ci'])}",
                f"- Accuracy: {pp(out['accuracy_diff'])}{ci(out['accuracy_diff_ci'])}",
                f"- records B right / A wrong: {out['flips']['b_right_a_wrong']}; "
                f"A right / B wrong: {out['flips']['a_right_b_wrong']}",
            ]
            + ([f"- ⚠️ {text(out['warning'])}"] if "warning" in out else [])
        )
        fig = plots.side_by_side(a, list(ea.verdicts.values()), b, list(eb.verdicts.values()))
        return md, fig

    # --- dataset browser ------------------------------------------------------------------------
    def browse_choices(self, split: str) -> dict[str, list[str]]:
        return browser.choices(self.release.records(split or self.split))

    def browse(
        self,
        split: str,
        domain: str | None,
        plugin: str | None,
        kind: str | None,
        difficulty: str | None,
        scenario: str | None,
        text: str,
    ) -> tuple[Any, str]:
        recs = self.release.records(split or self.split)
        hits = browser.filter_records(recs, domain, plugin, kind, difficulty, scenario, text or "")
        return browser.table(hits), browser.summary(hits, len(recs))

    def record(self, record_id: str | None) -> str:
        from plugineval.names import markdown_text as text

        rid = (record_id or "").strip()
        if not rid:
            return "Pick a record in the table above, or paste a record id."
        r = self.release.find(rid)
        if r is None:
            return f"⚠️ No record with id {text(rid)} in this release ({self.release.version()})."
        return browser.record_markdown(r, permalink=f"?id={rid}")

    # --- live judge -----------------------------------------------------------------------------
    def judge(self, path: str | None, failures_only: bool) -> tuple[str, str, Any, Any, Any, str | None, Any]:
        """(status, metrics markdown, difficulty plot, error plot, per-record table, report.json, verdicts).
        Scored in the pool: a busy Space or a file past the time or memory budget is refused."""
        empty = livejudge.per_record_table({})
        try:
            text, per_record, report = self.pool.run(
                _judge_task, path, self.release.records(self.split), self.judge_mode, what="Scoring this file"
            )
        except NotRun as e:
            livejudge.discard_upload(path)
            return f"❌ {e}", "", None, None, empty, None, None
        except livejudge.UploadError as e:
            return f"❌ {e}", "", None, None, empty, None, None
        by, rates = plots.of_verdicts(list(per_record.values()))
        name = "your predictions"
        status = "✅ Valid predictions file: scored. Download `report.json` below, or submit it to the leaderboard."
        return (
            status,
            text,
            plots.recall_by_difficulty([(name, by)]),
            plots.error_profile([(name, rates)]),
            livejudge.per_record_table(per_record, failures_only),
            _adopt_report(report),
            per_record,
        )

    def failures(self, failures_only: bool, per_record: dict[str, Any] | None) -> Any:
        return livejudge.per_record_table(per_record or {}, bool(failures_only))

    def _store(self, message: str, board: _Deferred) -> str:
        """Store what a child scored (the bundle first, then the row) and say what became of it: a new
        row (with its id, and the row it duplicates by content), or this submitter's existing row."""
        for e in board.added:
            self.board.admissible(e)
        for digest, model, data in board.bundles:
            self.board.add_bundle(digest, model, data)
        if not board.added:
            return "✅ " + message
        e = board.added[0]
        added = self.board.add(e)
        if added:
            self.prewarm()
        if not added:
            return (
                f"✅ Already on the leaderboard as row #{e.id}: you submitted this as **{md(e.model)}** before "
                "(nothing changed)."
            )
        out = f"✅ {message} Row #{e.id}."
        if e.duplicate_of is not None:
            out += (
                f"\n\n⚠️ The same content is on the leaderboard already, as row #{e.duplicate_of} of another "
                f"submitter: yours is row #{e.id}, kept separately and marked as a duplicate of #{e.duplicate_of} "
                "(Same as column)."
            )
        return out

    def submit(self, path: str | None, model: str, organisation: str, link: str) -> str:
        try:
            message, board = self.pool.run(
                _submit_task,
                path,
                model,
                organisation,
                link,
                self.release.records(self.split),
                self.judge_mode,
                what="Scoring this submission",
            )
            return self._store(message, board)
        except NotRun as e:
            livejudge.discard_upload(path)
            return f"❌ {e}"
        except (livejudge.UploadError, Refused) as e:
            return f"❌ {e}"

    def submit_bundle(self, path: str | None) -> str:
        try:
            message, board = self.pool.run(
                _bundle_task,
                path,
                self.release.records(self.split),
                self.judge_mode,
                lane="bundle",
                what="Scoring this bundle",
            )
            return self._store(message, board)
        except NotRun as e:
            livejudge.discard_upload(path)
            return f"❌ {e}"
        except (livejudge.UploadError, Refused) as e:
            return f"❌ {e}"

    def rescore(self, token: str | None) -> str:
        """Re-score every kept bundle with the current judge (maintainers: PLUGINEVAL_SPACE_ADMIN_TOKEN)."""
        import hmac

        if not self.admin_token:
            return "❌ Re-scoring from the page is off: set PLUGINEVAL_SPACE_ADMIN_TOKEN on the Space."
        if not hmac.compare_digest((token or "").encode(), self.admin_token.encode()):
            return "❌ Wrong maintainer token."
        from plugineval._version import JUDGE_VERSION

        done = self.rescore_kept()
        kept = len(self.board.bundle_digests())
        return (
            f"✅ Re-scored {done} of {kept} kept bundle(s) with judge {JUDGE_VERSION}; the older rows stay."
        )

    def contamination(self) -> str:
        """The contamination note: the canary of the loaded records (the test split's; the other splits'
        or the release card's when it has none) and what ``trained_on_plugineval`` means."""
        from plugineval_space import contamination
        from plugineval_space.release import TEST_FIRST

        found: list[str] = []
        for split in TEST_FIRST:  # the Space has the test split loaded already
            try:
                found = contamination.record_canaries(self.release.records(split))
            except Exception:  # a split that cannot be read says nothing about the canary
                continue
            if found:
                break
        if not found:
            card = contamination.release_card_canary(self.release.describe()["source"])
            found = [card] if card else []
        return contamination.note(found)

    def about(self) -> str:
        d = self.release.describe()
        return (
            f"Records: {self.release.public_name()}"
            + (f" @ `{d['revision']}`" if d["revision"] else "")
            + " · refreshed every "
            f"{d['ttl_seconds']:.0f} s · leaderboard: {self.board.public_name} · judge mode for uploads: "
            f"`{self.judge_mode}` · upload limit {livejudge.human_size(livejudge.max_upload_bytes())}"
            + (f"\n\n⚠️ {d['last_error']}" if d["last_error"] else "")
        )
