"""What the page's events call: plain functions over the release and the board (no gradio here,
except the ``gr.update`` objects the layout passes through, imported lazily)."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from plugineval_space import browser, livejudge, plots, table
from plugineval_space.release import Release
from plugineval_space.store import Board, Entry, open_board


def _env_float(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


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
    _rescored: bool = field(default=False, repr=False)
    _seeded: set[str] = field(default_factory=set, repr=False)
    _seed_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

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
            from plugineval_space.seed import seed_baselines

            from plugineval.predict import BASELINES

            have = {
                e.model for e in self.board.entries() if e.kind == "baseline" and e.dataset_version == version
            }
            if not set(BASELINES) <= have:
                seed_baselines(recs, self.board)
            self._seeded.add(version)

    def ensure_rescored(self) -> None:
        """Once per process: every kept bundle without a row from the current judge version gets one
        (so a new judge version re-scores them all; the old rows stay, labelled by version)."""
        if self._rescored or not self.rescore_on_start:
            return
        with self._seed_lock:
            if self._rescored:
                return
            from plugineval_space.bundles import rescore_all

            rescore_all(self.board, self.release.records(self.split), self.judge_mode)
            self._rescored = True

    def entries(self) -> list[Entry]:
        self.ensure_seeded()
        self.ensure_rescored()
        return self.board.entries()

    def labelled(self) -> dict[str, Entry]:
        """Model label → row (a repeated model name gets its short content hash)."""
        out: dict[str, Entry] = {}
        es = self.entries()
        names = [e.model for e in es]
        for e in es:
            label = e.model if names.count(e.model) == 1 else f"{e.model} [{e.content_hash[:8]}]"
            out[label] = e
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
                "recomputed for every row from its stored per-record verdicts."
            )
        es = self.entries()
        df = table.leaderboard(
            es,
            w,
            search=search or "",
            columns=columns or None,
            status=status or None,
            types=types or None,
            sort_by=sort_by or "Recall",
            descending=bool(descending),
        )
        shown = set(df["Model"])
        named = [(e.model, list(e.verdicts.values())) for e in es if e.model in shown]
        note += f" {len(df)} of {len(es)} rows shown."
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
        return df, note, plots.recall_by_difficulty(named), plots.error_profile(named)

    def compare(self, a: str | None, b: str | None) -> tuple[str, Any]:
        from plugineval import metrics as M
        from plugineval.entries import typed_map
        from plugineval.names import markdown_text as text
        from plugineval.report import Report
        from plugineval.scoring import compare

        rows = self.labelled()
        if not a or not b or a not in rows or b not in rows:
            return "Choose two models on the leaderboard to compare.", None
        ea, eb = rows[a], rows[b]

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
        """(status, metrics markdown, difficulty plot, error plot, per-record table, report.json, verdicts)."""
        empty = livejudge.per_record_table({})
        try:
            j = livejudge.judge_upload(path, self.release.records(self.split), self.judge_mode)
        except livejudge.UploadError as e:
            return f"❌ {e}", "", None, None, empty, None, None
        name = "your predictions"
        named = [(name, list(j.report.per_record.values()))]
        status = "✅ Valid predictions file: scored. Download `report.json` below, or submit it to the leaderboard."
        return (
            status,
            livejudge.metrics_markdown(j),
            plots.recall_by_difficulty(named),
            plots.error_profile(named),
            livejudge.per_record_table(j.report.per_record, failures_only),
            str(j.report_path),
            j.report.per_record,
        )

    def failures(self, failures_only: bool, per_record: dict[str, Any] | None) -> Any:
        return livejudge.per_record_table(per_record or {}, bool(failures_only))

    def submit(self, path: str | None, model: str, organisation: str, link: str) -> str:
        try:
            return "✅ " + livejudge.submit(
                path, model, organisation, link, self.release.records(self.split), self.board, self.judge_mode
            )
        except livejudge.UploadError as e:
            return f"❌ {e}"

    def submit_bundle(self, path: str | None) -> str:
        from plugineval_space.bundles import submit_bundle

        try:
            return "✅ " + submit_bundle(path, self.release.records(self.split), self.board, self.judge_mode)
        except livejudge.UploadError as e:
            return f"❌ {e}"

    def rescore(self, token: str | None) -> str:
        """Re-score every kept bundle with the current judge (maintainers: PLUGINEVAL_SPACE_ADMIN_TOKEN)."""
        import hmac

        if not self.admin_token:
            return "❌ Re-scoring from the page is off: set PLUGINEVAL_SPACE_ADMIN_TOKEN on the Space."
        if not hmac.compare_digest((token or "").encode(), self.admin_token.encode()):
            return "❌ Wrong maintainer token."
        from plugineval_space.bundles import rescore_all

        from plugineval._version import JUDGE_VERSION

        done = rescore_all(self.board, self.release.records(self.split), self.judge_mode)
        kept = len(self.board.bundle_digests())
        return f"✅ Re-scored {len(done)} of {kept} kept bundle(s) with judge {JUDGE_VERSION}; the older rows stay."

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
            f"Records: `{d['source']}`"
            + (f" @ `{d['revision']}`" if d["revision"] else "")
            + " · refreshed every "
            f"{d['ttl_seconds']:.0f} s · leaderboard: {self.board.description} · judge mode for uploads: "
            f"`{self.judge_mode}` · upload limit {livejudge.human_size(livejudge.max_upload_bytes())}"
            + (f"\n\n⚠️ {d['last_error']}" if d["last_error"] else "")
        )
