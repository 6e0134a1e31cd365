"""The Space: the running app through gradio_client, and the page in
a real headless Chromium (Playwright driving Debian's /usr/bin/chromium)."""

from __future__ import annotations

import json
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "space"))

from plugineval_space import table  # noqa: E402
from plugineval_space.store import SqliteBoard  # noqa: E402
from space_helpers import frame as _frame  # noqa: E402
from space_helpers import gold_lines as _gold_lines  # noqa: E402
from space_helpers import running_space  # noqa: E402
from space_helpers import write_lines as _write  # noqa: E402

from plugineval import metrics as M  # noqa: E402

MINI = ROOT / "tests" / "data" / "mini.toml"
PRESET = "original (0.40/0.40/0.20)"
EASY = "easy-weighted (0.60/0.30/0.10)"
CUSTOM = "custom (sliders)"
ALLCOLS = list(table.COLUMN_NAMES)
UPLOAD_LIMIT_MB = 0.05  # the server under test refuses uploads above ~52 KB
ADMIN_TOKEN = "test-maintainer-token"


@pytest.fixture(scope="session")
def records(mini_release: Path) -> list:  # type: ignore[type-arg]
    from plugineval.sources import load_records

    return load_records(mini_release, "test")


@pytest.fixture(scope="session")
def server(mini_release: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """`plugineval space` in a background process on a free port, with its own SQLite file."""
    db = tmp_path_factory.mktemp("space-db") / "lb.sqlite"
    yield from running_space(mini_release, db, UPLOAD_LIMIT_MB, ADMIN_TOKEN)


@pytest.fixture(scope="session")
def client(server):  # type: ignore[no-untyped-def]
    from gradio_client import Client

    return Client(server["url"], verbose=False)


def _lb(
    client,
    preset: str = PRESET,
    w: tuple[float, float, float] = (0.4, 0.4, 0.2),
    search: str = "",
    columns: list[str] | None = None,
    status: list[str] | None = None,
    types: list[str] | None = None,
    sort_by: str = "Recall",
    desc: bool = True,
):  # type: ignore[no-untyped-def]
    out = client.predict(
        search,
        preset,
        *w,
        columns or ALLCOLS,
        status or ["verified", "self-reported"],
        types or ["baseline", "submission"],
        sort_by,
        desc,
        api_name="/leaderboard",
    )
    return _frame(out[0]), out[1], out[2], out[3]


def test_leaderboard_is_seeded_with_labelled_baselines(client, server) -> None:  # type: ignore[no-untyped-def]
    rows, note, p1, p2 = _lb(client, types=["baseline"])
    models = {r["Model"] for r in rows}
    assert {"baseline:router", "baseline:always-call", "baseline:never-call"} <= models
    assert all(r["Type"] == "baseline" and r["Status"] == "verified" for r in rows)
    never = next(r for r in rows if r["Model"] == "baseline:never-call")
    assert never["Recall"] == 0 and never["Miss"] == 100 and never["Over"] == 0
    assert never["Dataset"] == "0.0.1" and never["Judge mode"] == "rules"
    assert p1["type"] == "matplotlib" and p2["plot"].startswith("data:image")
    assert "3 of 3 rows shown" in note or "rows shown" in note


def test_mixture_change_recomputes_rows_from_stored_verdicts(client, server) -> None:  # type: ignore[no-untyped-def]
    stored = {e.model: e for e in SqliteBoard(server["db"]).entries()}
    for preset, w, weights in [
        (PRESET, (0, 0, 0), M.MIXTURES["original"]),
        (EASY, (0, 0, 0), M.MIXTURES["easy_weighted"]),
        (CUSTOM, (1, 0, 0), (1.0, 0.0, 0.0)),
        (CUSTOM, (0, 0.25, 0.75), (0.0, 0.25, 0.75)),
    ]:
        rows, note, _, _ = _lb(client, preset, w)
        assert f"{weights[0]:.2f} / {weights[1]:.2f} / {weights[2]:.2f}" in note
        for r in rows:
            want = M.mixture(list(stored[r["Model"]].verdicts.values()), weights)
            assert r["Recall"] == (None if want["recall"] is None else round(100 * want["recall"], 2)), (
                preset,
                r["Model"],
            )
            assert r["Accuracy"] == round(100 * want["accuracy"], 2)
    always = [r for r in _lb(client, CUSTOM, (1, 0, 0))[0] if r["Model"] == "baseline:always-call"]
    always_hard = [r for r in _lb(client, CUSTOM, (0, 0, 1))[0] if r["Model"] == "baseline:always-call"]
    assert (
        always[0]["Recall"] == always[0]["Recall easy"]
        and always_hard[0]["Recall"] == always_hard[0]["Recall hard"]
    )
    _, note, _, _ = _lb(client, CUSTOM, (0, 0, 0))
    assert "not all zero" in note


def test_leaderboard_search_columns_filters_and_sort(client) -> None:  # type: ignore[no-untyped-def]
    rows, *_ = _lb(client, search="never", columns=["Recall", "Status"])
    assert [r["Model"] for r in rows] == ["baseline:never-call"] and set(rows[0]) == {
        "Model",
        "Recall",
        "Status",
    }
    rows, *_ = _lb(client, sort_by="Recall", desc=True)
    recalls = [r["Recall"] for r in rows if r["Recall"] is not None]
    assert recalls == sorted(recalls, reverse=True)
    rows, *_ = _lb(client, status=["self-reported"], types=["baseline"])
    assert rows == []


def test_browser_filters_and_record_view(client, records) -> None:  # type: ignore[no-untyped-def]
    ch = client.predict("test", api_name="/browse_choices")
    kinds = ch[2]["choices"] if isinstance(ch[2], dict) and "choices" in ch[2] else None
    if kinds is not None:
        assert {k[0] if isinstance(k, list | tuple) else k for k in kinds} >= {"positive", "(all)"}
    table_, summary = client.predict(
        "test", "(all)", "(all)", "positive", "hard", "(all)", "", api_name="/browse"
    )
    rows = _frame(table_)
    want = [r for r in records if r.kind == "positive" and r.difficulty == "hard"]
    assert sorted(r["id"] for r in rows) == sorted(r.id for r in want) and want
    assert f"**{len(want)}** of {len(records)}" in summary
    target = records[0]
    rows = _frame(
        client.predict(
            "test", "(all)", "(all)", "(all)", "(all)", "(all)", target.query[:8], api_name="/browse"
        )[0]
    )
    assert target.id in [r["id"] for r in rows]
    rows = _frame(
        client.predict(
            "test",
            "travel",
            "rail_tickets",
            "(all)",
            "(all)",
            target.primary_scenario,
            "",
            api_name="/browse",
        )[0]
    )
    assert rows and all(r["scenario"] == target.primary_scenario for r in rows)
    assert (
        _frame(
            client.predict("test", "nowhere", "(all)", "(all)", "(all)", "(all)", "", api_name="/browse")[0]
        )
        == []
    )
    pos = next(r for r in records if r.kind == "positive")
    md = client.predict(pos.id, api_name="/record")
    assert pos.query in md and pos.reference_time in md and pos.gold_calls[0].name in md
    assert "Verification evidence" in md and f"?id={pos.id}" in md and "S_arg" in md
    neg = next(r for r in records if r.kind == "neg_C")
    md = client.predict(neg.id, api_name="/record")
    assert "beyond its capability" in md and neg.verification["evidence"]["code"] in md
    assert "No record with id" in client.predict("pe-does-not-exist", api_name="/record")


def test_live_judge_scores_a_valid_upload(client, records, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from gradio_client import handle_file

    broken = next(
        r
        for r in records
        if r.kind == "positive" and len(r.gold_calls) == 1 and "date" in r.gold_calls[0].arguments
    )
    path = _write(tmp_path, "preds.jsonl", _gold_lines(records, break_one=broken.id))
    status, metrics_md, p1, p2, tab, report_path = client.predict(
        handle_file(str(path)), False, api_name="/judge"
    )
    assert status.startswith("✅") and "Recall" in metrics_md and p1["type"] == p2["type"] == "matplotlib"
    rows = _frame(tab)
    assert len(rows) == len(records)
    bad = next(r for r in rows if r["id"] == broken.id)
    assert bad["outcome"] == "FN" and bad["subtype"] == "temporal" and "date: relative_time" in bad["reasons"]
    report = json.loads(Path(report_path).read_text(encoding="utf-8"))
    assert set(report["per_record"]) == {r.id for r in records}
    npos = sum(r.kind == "positive" for r in records)
    assert report["metrics"]["recall"] == pytest.approx((npos - 1) / npos)
    fails = _frame(client.predict(handle_file(str(path)), True, api_name="/judge")[4])
    assert [r["id"] for r in fails] == [broken.id]


def test_live_judge_reports_bad_uploads_with_line_numbers(client, records, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from gradio_client import handle_file

    good = _gold_lines(records)
    lines = [
        good[0],
        "{not json",
        json.dumps({"id": "pe-unknown", "calls": []}),
        good[0],
        json.dumps({"id": records[1].id, "calls": "x"}),
    ]
    status, metrics_md, _, _, tab, report = client.predict(
        handle_file(str(_write(tmp_path, "bad.jsonl", lines))), False, api_name="/judge"
    )
    assert status.startswith("❌") and "nothing was scored" in status
    assert "| 2 | not valid JSON" in status and "| 3 | unknown id 'pe-unknown'" in status
    assert "| 4 | duplicate id" in status and "| 5 | 'calls' must be a list" in status
    assert metrics_md == "" and report is None and _frame(tab) == []
    big = _write(
        tmp_path, "big.jsonl", [json.dumps({"id": r.id, "calls": [], "content": "x" * 4000}) for r in records]
    )
    status = client.predict(handle_file(str(big)), False, api_name="/judge")[0]
    assert "the limit is 52,428 bytes (51 KiB)" in status  # 0.05 MiB, exactly (not rounded to "0 MiB")
    empty = _write(tmp_path, "empty.jsonl", [""])
    assert "empty" in client.predict(handle_file(str(empty)), False, api_name="/judge")[0]
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"id": "\xff"}\n')
    assert "not UTF-8" in client.predict(handle_file(str(latin)), False, api_name="/judge")[0]


def test_submission_is_stored_once(client, server, records, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from gradio_client import handle_file

    path = handle_file(str(_write(tmp_path, "gold.jsonl", _gold_lines(records))))
    before = SqliteBoard(server["db"]).count()
    msg = client.predict(path, "gold-oracle", "Test Org", "https://example.org/model", api_name="/submit")
    assert msg.startswith("✅ Submitted **gold-oracle**") and "Recall 100.00%" in msg
    again = client.predict(path, "gold-oracle", "Test Org", "https://example.org/model", api_name="/submit")
    assert "Already on the leaderboard" in again
    assert SqliteBoard(server["db"]).count() == before + 1
    rows, *_ = _lb(client, search="gold-oracle")
    assert (
        rows[0]["Status"] == "self-reported"
        and rows[0]["Type"] == "submission"
        and rows[0]["Recall"] == 100.0
    )
    assert rows[0]["Organisation"] == "Test Org"
    assert "name" in client.predict(path, "  ", "", "", api_name="/submit")
    assert "https://" in client.predict(path, "x", "", "ftp://nope", api_name="/submit")
    bad = handle_file(str(_write(tmp_path, "bad.jsonl", ["{oops"])))
    assert "| 1 | not valid JSON" in client.predict(bad, "broken-model", "", "", api_name="/submit")
    assert SqliteBoard(server["db"]).count() == before + 1
    md, fig = client.predict("baseline:never-call", "gold-oracle", api_name="/compare")
    assert (
        f"over {len(records)} paired records" in md
        and "Recall: +100.00 pp" in md
        and fig["type"] == "matplotlib"
    )


def test_fifty_concurrent_submissions_make_fifty_rows(client, server, records, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from gradio_client import handle_file

    path = handle_file(str(_write(tmp_path, "gold.jsonl", _gold_lines(records))))
    before = {e.content_hash for e in SqliteBoard(server["db"]).entries()}
    jobs = [
        client.submit(path, f"concurrent-{i:02d}", "Load Test", "", api_name="/submit") for i in range(50)
    ]
    msgs = [j.result(timeout=120) for j in jobs]
    assert all(m.startswith("✅ Submitted") for m in msgs), [
        m for m in msgs if not m.startswith("✅ Submitted")
    ][:3]
    after = SqliteBoard(server["db"]).entries()
    new = [e for e in after if e.content_hash not in before]
    assert sorted(e.model for e in new) == [f"concurrent-{i:02d}" for i in range(50)]
    assert len({e.content_hash for e in after}) == len(after)
    rows, *_ = _lb(client, search="concurrent-")
    assert len(rows) == 50


def test_bundle_round_trip_validate_submit_and_rescore_by_a_new_judge(  # type: ignore[no-untyped-def]
    client, server, records, mini_release: Path, tmp_path: Path
) -> None:
    import sqlite3
    import statistics

    from gradio_client import handle_file
    from plugineval_space.bundles import row_hash
    from test_submit import make_bundle

    from plugineval._version import JUDGE_VERSION
    from plugineval.cli import main
    from plugineval.scoring import evaluate
    from plugineval.trials import trial_paths

    folder = make_bundle(tmp_path / "b", mini_release, trials=3)
    zipped = tmp_path / "bundle.zip"
    assert (
        main(["submit", "--validate", str(folder), "--records", str(mini_release), "--zip", str(zipped)]) == 0
    )
    msg = client.predict(handle_file(str(zipped)), api_name="/submit_bundle")
    assert msg.startswith("✅ Submitted **always-call-noisy**") and "3 trial(s), re-scored here" in msg, msg
    assert "Already on the leaderboard" in client.predict(handle_file(str(zipped)), api_name="/submit_bundle")
    board = SqliteBoard(server["db"])
    rows = [e for e in board.entries() if e.model == "always-call-noisy"]
    assert len(rows) == 1 and len(rows[0].more_trials) == 2 and rows[0].bundle_hash in board.bundle_digests()
    assert rows[0].status == "self-reported" and rows[0].trained_on_plugineval is False
    # the row is the Space's own scoring of the bundle's files, never a number from the bundle
    rep = evaluate(trial_paths(folder / "preds.jsonl", 3), records, judge="rules")
    trials = [rows[0].verdicts, *rows[0].more_trials]
    assert [{i: e["outcome"] for i, e in t.items()} for t in trials] == [
        {i: o[k] for i, o in rep.trials.outcomes.items()} for k in range(3)
    ]
    lb = _lb(client, search="always-call-noisy")[0]
    assert len(lb) == 1 and lb[0]["Trials"] == 3 and lb[0]["Trained on PluginEval"] == "no"
    recalls = [M.mixture(list(t.values()), M.MIXTURES["original"])["recall"] for t in trials]
    assert lb[0]["Recall SD"] == round(100 * statistics.stdev(recalls), 2)
    assert lb[0]["Recall range"] == f"{100 * min(recalls):.1f}–{100 * max(recalls):.1f}"
    assert lb[0]["pass^k"] == round(100 * rep.trials.pass_k["3"], 2)
    assert "seeded noise" in lb[0]["Model card"]
    # an invalid bundle is refused with its file and field named
    m = json.loads((folder / "submission.json").read_text(encoding="utf-8"))
    (folder / "submission.json").write_text(
        json.dumps({**m, "model_card": "", "score": 99}), encoding="utf-8"
    )
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(bad, "w") as z:
        for f in sorted(folder.iterdir()):
            z.write(f, f.name)
    msg = client.predict(handle_file(str(bad)), api_name="/submit_bundle")
    assert (
        msg.startswith("❌") and "| submission.json | score | Extra inputs" in msg and "| model_card |" in msg
    )
    # the judge version changes: the row becomes one from an older judge; re-scoring adds a new row
    digest, mode = rows[0].bundle_hash, rows[0].judge_mode
    con = sqlite3.connect(server["db"])
    cols = "created, model, organisation, link, kind, status, dataset_version, judge_mode, judge_model, cost_usd, latency_ms, verdicts, bundle_hash, model_card, trained_on_plugineval, more_trials"
    with con:
        con.execute(
            f"INSERT INTO entries (content_hash, judge_version, {cols}) SELECT ?, '0.9.0', {cols} FROM entries "
            "WHERE content_hash = ?",
            (row_hash(digest, "0.9.0", mode), rows[0].content_hash),
        )
        con.execute("DELETE FROM entries WHERE content_hash = ?", (rows[0].content_hash,))
    con.close()
    assert "Wrong maintainer token" in client.predict("nope", api_name="/rescore")
    msg = client.predict(ADMIN_TOKEN, api_name="/rescore")
    assert msg.startswith("✅ Re-scored 1 of 1 kept bundle(s)"), msg
    assert "Re-scored 0 of 1" in client.predict(ADMIN_TOKEN, api_name="/rescore")
    lb, note, *_ = _lb(client, search="always-call-noisy")
    assert sorted(r["Judge"] for r in lb) == sorted(["0.9.0", JUDGE_VERSION])
    assert "older judge" in note and all(r["Trials"] == 3 for r in lb)


def test_contamination_note_shows_the_canary_and_trained_on_plugineval(  # type: ignore[no-untyped-def]
    client, records, mini_release: Path
) -> None:
    """The About tab's note (API /contamination): the canary the records carry in source.canary, read
    from the loaded records (the Space never imports the builder), and what trained_on_plugineval means."""
    canaries = {r.source.canary for r in records if r.source.canary}
    assert len(canaries) == 1
    [canary] = canaries
    md = client.predict(api_name="/contamination")
    assert md.startswith("### Contamination") and f"`{canary}`" in md
    assert "source.canary" in md and "`trained_on_plugineval`" in md and "**Trained on PluginEval**" in md
    assert "self-reported" in md
    space_sources = [*sorted((ROOT / "space" / "plugineval_space").glob("*.py")), ROOT / "space" / "app.py"]
    assert not [p.name for p in space_sources if "plugineval.builder" in p.read_text(encoding="utf-8")]


def test_contamination_note_falls_back_to_the_release_card(
    records, mini_release: Path, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from plugineval_space import contamination
    from plugineval_space.service import Service

    [canary] = {r.source.canary for r in records if r.source.canary}
    assert contamination.release_card_canary(str(mini_release)) == canary  # the card says the same
    assert contamination.card_canary("# x\n\n## Canary\n\ntext\n\n`ABC-1`\n\n## Changelog\n`no`") == "ABC-1"
    assert contamination.card_canary("# x\n## Changelog\n`no`") is None

    class NoCanary:  # a release whose records carry none: the card's is shown
        def __init__(self, source: str) -> None:
            self.source = source

        def records(self, split: str = "test") -> list:  # type: ignore[type-arg]
            return [
                r.model_copy(update={"source": r.source.model_copy(update={"canary": None})}) for r in records
            ]

        def describe(self) -> dict:  # type: ignore[type-arg]
            return {"source": self.source}

    board = SqliteBoard(tmp_path / "lb.sqlite")
    svc = Service(release=NoCanary(str(mini_release)), board=board, seed=False)  # type: ignore[arg-type]
    assert f"`{canary}`" in svc.contamination()
    svc = Service(release=NoCanary(str(tmp_path)), board=board, seed=False)  # type: ignore[arg-type]
    assert "carries no canary string" in svc.contamination()


# --- the page in a real headless Chromium ----------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "artifacts" / "space"


@pytest.fixture(scope="module")
def page(server):  # type: ignore[no-untyped-def]
    if not CHROMIUM.exists():
        pytest.fail("/usr/bin/chromium is missing: run scripts/ci-browser-deps")
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True)
        pg = browser.new_page(viewport={"width": 1400, "height": 1000})
        pg.set_default_timeout(30_000)
        yield pg
        browser.close()


def _shot(pg, name: str) -> None:  # type: ignore[no-untyped-def]
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_page_leaderboard_and_tabs(page, server) -> None:  # type: ignore[no-untyped-def]
    page.goto(server["url"])
    table_ = page.locator("#leaderboard-table")
    table_.locator("[role=gridcell]").first.wait_for()
    _shot(page, "leaderboard")
    search = page.locator("#lb-search textarea, #lb-search input").first
    search.fill("baseline:")
    search.press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('#leaderboard-table [role=row].virtual-row').length === 3"
    )
    text = table_.inner_text()
    assert all(f"baseline:{b}" in text for b in ("router", "always-call", "never-call"))
    search.fill("never")
    search.press("Enter")
    page.wait_for_function(
        "() => !document.querySelector('#leaderboard-table').innerText.includes('baseline:router')"
    )
    assert "baseline:never-call" in table_.inner_text()
    page.get_by_label("easy-weighted (0.60/0.30/0.10)").check()
    page.get_by_text("0.60 / 0.30 / 0.10").first.wait_for()
    _shot(page, "leaderboard-easy-weighted")


def test_page_browser_filter_and_permalink(page, server, records) -> None:  # type: ignore[no-untyped-def]
    page.goto(server["url"])
    page.get_by_role("tab", name="Dataset browser").click()
    target = next(r for r in records if r.kind == "positive")
    page.locator("#browser-table [role=gridcell]").filter(has_text=target.id).first.wait_for()
    box = page.locator("#br-text textarea, #br-text input").first
    box.fill(target.id)
    box.press("Enter")
    page.get_by_text(f"1 of {len(records)} records match").first.wait_for()
    other = next(r for r in records if r.id != target.id)
    # the status line may update before the table re-renders: wait for the table itself
    page.wait_for_function(
        f"() => !document.querySelector('#browser-table').innerText.includes('{other.id}')", timeout=15000
    )
    assert other.id not in page.locator("#browser-table").inner_text()
    page.locator("#browser-table [role=gridcell]").filter(has_text=target.id).first.click()
    page.locator("#record-view").get_by_text(target.reference_time).first.wait_for()
    assert target.query in page.locator("#record-view").inner_text()
    _shot(page, "browser-filtered")
    neg = next(r for r in records if r.kind == "neg_C")
    page.goto(f"{server['url']}?id={neg.id}")
    view = page.locator("#record-view")
    view.get_by_text(neg.query).first.wait_for()
    assert (
        "Verification evidence" in view.inner_text()
        and neg.verification["evidence"]["code"] in view.inner_text()
    )
    _shot(page, "permalink")


def _choose_file(page, path: Path) -> None:  # type: ignore[no-untyped-def]
    """Open the Live judge tab, set the upload box's file and wait until the box shows it. Once a file
    is taken the box shows it instead of its file input, and on a loaded machine that can take over
    15 s; a tab clicked while Gradio is still mounting the page may not open. So: the file is set only
    while the input is there, and the tab clicked again when neither the input nor the file shows (at
    most three rounds; the last failure leaves a screenshot)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # Gradio names the file two ways: as the text of its row, or, after the box was cleared, in the
    # row's aria-label with the stem and the extension in separate spans (" good .jsonl": no text
    # match; a failed run's screenshot showed good.jsonl in the box). Either, visible.
    box_ = page.locator("#upload")
    shown = (
        box_.get_by_text(path.name).or_(box_.get_by_label(path.name, exact=True)).filter(visible=True).first
    )
    for attempt in range(3):
        page.get_by_role("tab", name="Live judge").click()
        box = page.locator("#upload input[type=file]").first
        try:
            box.wait_for(state="attached", timeout=15_000)
            box.set_input_files(str(path), timeout=15_000)
        except PlaywrightTimeout:
            pass  # no input: the file may be shown already, or the tab did not open
        try:
            shown.wait_for(timeout=45_000)
            return
        except PlaywrightTimeout:
            if attempt == 2:
                _shot(page, f"upload-missing-{path.stem}")
                raise


def test_page_about_shows_the_contamination_note(page, server, records) -> None:  # type: ignore[no-untyped-def]
    page.goto(server["url"])
    page.get_by_role("tab", name="About").click()
    [canary] = {r.source.canary for r in records if r.source.canary}
    note = page.locator("#contamination")
    note.get_by_text(canary).first.wait_for()
    assert "trained_on_plugineval" in note.inner_text()
    _shot(page, "about-contamination")


def test_page_live_judge_upload(page, server, records, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    page.goto(server["url"])
    bad = _write(tmp_path, "bad.jsonl", [_gold_lines(records)[0], "{broken"])
    _choose_file(page, bad)
    page.locator("#judge-btn").click()
    status = page.locator("#judge-status")
    status.get_by_text("nothing was scored").first.wait_for()
    assert "not valid JSON" in status.inner_text()
    assert "Limit: 51 KiB." in page.locator("#tab-judge").inner_text()
    _shot(page, "judge-invalid")
    page.locator("#upload button[aria-label='Clear']").first.click()
    page.locator("#upload").get_by_text("bad.jsonl").first.wait_for(state="detached")
    broken = next(
        r
        for r in records
        if r.kind == "positive" and len(r.gold_calls) == 1 and "date" in r.gold_calls[0].arguments
    )
    good = _write(tmp_path, "good.jsonl", _gold_lines(records, break_one=broken.id))
    _choose_file(page, good)
    page.locator("#judge-btn").click()
    status.get_by_text("Valid predictions file").first.wait_for()
    assert "Recall" in page.locator("#judge-metrics").inner_text()
    page.locator("#judge-table [role=gridcell]").filter(has_text=broken.id).first.wait_for()
    page.locator("#failures-only input").check()
    page.wait_for_function(
        "n => document.querySelectorAll('#judge-table [role=row].virtual-row').length === n", arg=1
    )
    assert "relative_time" in page.locator("#judge-table").inner_text()
    _shot(page, "judge-valid")
