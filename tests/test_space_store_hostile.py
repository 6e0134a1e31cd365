"""The Space under hostile and heavy use (issue 23): scoring never stops the server, the leaderboard
draws from stored summaries, names never break a plot, rows belong to who made them, storage has a
budget. The inputs are generated (``random.Random(SEED)``), as the predictions fuzzer's are."""

from __future__ import annotations

import hashlib
import io
import json
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "space"))

from plugineval_space import livejudge, plots, table  # noqa: E402
from plugineval_space import store as store_mod  # noqa: E402
from plugineval_space import summary as S  # noqa: E402
from plugineval_space.service import Service, _Deferred  # noqa: E402
from plugineval_space.store import Budget, Entry, Refused, SqliteBoard, content_hash, row_key  # noqa: E402
from plugineval_space.work import Busy, Failed, OverBudget, OverMemory, Pool  # noqa: E402

from plugineval import metrics as M  # noqa: E402

SEED = 23
KINDS = ["positive", "neg_A", "neg_B", "neg_C"]
DIFFS = ["easy", "medium", "hard"]
MATH = "$^_{}\\%#&~"


def verdicts(rng: random.Random, n: int) -> dict[str, dict[str, Any]]:
    """n generated per-record verdicts in their stored JSON form."""
    out: dict[str, dict[str, Any]] = {}
    for i in range(n):
        kind = rng.choice(KINDS)
        pos = kind == "positive"
        ok = rng.random() < 0.6
        outcome = ("TP" if ok else "FN") if pos else ("TN" if ok else "FP")
        cat = None if ok else rng.choice(["miss_recall", "parameter_error"] if pos else ["over_recall"])
        sub = (
            rng.choice(["temporal", "missing_argument", "incorrect_value"])
            if cat == "parameter_error"
            else None
        )
        out[f"r{i:04d}"] = {
            "outcome": outcome,
            "category": cat,
            "subtype": sub,
            "kind": kind,
            "difficulty": rng.choice(DIFFS),
        }
    return out


def entry(
    model: str, org: str, v: dict[str, dict[str, Any]], *, content: bytes | None = None, **kw: Any
) -> Entry:
    base: dict[str, Any] = dict(
        model=model,
        organisation=org,
        link="",
        kind="submission",
        status="self-reported",
        dataset_version="0.0.1",
        judge_version="1.0.0",
        judge_mode="rules",
        judge_model="",
        cost_usd=None,
        latency_ms=None,
        verdicts=v,
        content_hash=content_hash(content if content is not None else json.dumps(v).encode(), model),
        content_digest="" if content is None else hashlib.sha256(content).hexdigest(),
    )
    base.update(kw)
    return Entry(**base)


class FakeRelease:
    def __init__(self) -> None:
        self.ttl = 3600.0

    def records(self, split: str = "test") -> list[Any]:
        return []

    def version(self, split: str = "test") -> str:
        return "0.0.1"


def service(tmp_path: Path, pool: Pool | None = None, budget: Budget | None = None) -> Service:
    board = SqliteBoard(tmp_path / "lb.sqlite", budget)
    return Service(
        release=FakeRelease(), board=board, seed=False, rescore_on_start=False, pool=pool or Pool()
    )  # type: ignore[arg-type]


# --- 1. scoring never blocks the server ------------------------------------------------------------


def _hog(*_: Any) -> Any:
    """Minutes of work that holds the interpreter lock throughout (one C call, like a regular
    expression that backtracks): in the server's own process nothing else would run meanwhile."""
    return sum(range(10**11))


def test_a_slow_scoring_leaves_the_server_answering_and_is_stopped_at_its_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = service(tmp_path, Pool(workers=1, queue=0, budget=3))
    monkeypatch.setattr(livejudge, "judge_upload", _hog)
    out: list[Any] = []
    started = time.monotonic()
    t = threading.Thread(target=lambda: out.append(svc.judge(str(tmp_path / "x.jsonl"), False)))
    t.start()
    time.sleep(0.3)
    worst = 0.0
    while t.is_alive() and time.monotonic() - started < 2.5:  # this thread: the server's other requests
        a = time.monotonic()
        time.sleep(0.02)
        worst = max(worst, time.monotonic() - a)
    t.join(30)
    took = time.monotonic() - started
    assert worst < 0.5, f"the server's other threads stalled {worst:.2f} s"
    status = out[0][0]
    assert status.startswith("❌") and "time budget of 3 s" in status and took < 10, (status, took)


def test_a_full_pool_answers_busy_at_once_and_frees_its_slots(tmp_path: Path) -> None:
    pool = Pool(workers=1, queue=1, budget=20)
    results: list[Any] = []

    def slow() -> str:
        time.sleep(1.5)
        return "done"

    threads = [threading.Thread(target=lambda: results.append(pool.run(slow))) for _ in range(2)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    a = time.monotonic()
    with pytest.raises(Busy, match=r"busy.*Try again"):
        pool.run(slow)
    assert time.monotonic() - a < 0.5
    for t in threads:
        t.join(20)
    assert results == ["done", "done"] and pool.pending == 0
    assert pool.run(lambda: 7) == 7


def test_a_task_past_the_memory_budget_is_stopped_and_errors_come_back(tmp_path: Path) -> None:
    pool = Pool(workers=1, memory_mb=64, budget=30)
    with pytest.raises(OverMemory, match="64 MiB"):
        pool.run(lambda: len(bytearray(512 * 2**20)))
    assert pool.run(lambda: len(bytearray(8 * 2**20))) == 8 * 2**20

    def refuse() -> None:
        raise livejudge.UploadError("line 3: not valid JSON")

    with pytest.raises(livejudge.UploadError, match="line 3"):
        pool.run(refuse)
    with pytest.raises(OverBudget):
        Pool(budget=0.5).run(time.sleep, 5)


# --- 2. the leaderboard draws from stored summaries; names are text in plots ------------------------


def test_summaries_give_the_metrics_numbers_for_any_mixture() -> None:
    rng = random.Random(SEED)
    rows = [verdicts(rng, rng.choice([2, 9, 70, 250])) for _ in range(30)]
    stacked = S.stacked([S.row_arrays(json.loads(json.dumps(S.compute(v)))) for v in rows])
    for w in [(0.4, 0.4, 0.2), (0.05, 0.9, 0.05), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)]:  # all rows at once
        for v, got in zip(rows, S.mixture_cis(*stacked, w), strict=True):
            assert got is None or got == M.mixture_bootstrap(list(v.values()), w), w
    for case in range(12):
        v = verdicts(rng, rng.choice([5, 40, 150]))
        more = [verdicts(rng, len(v)) for _ in range(rng.choice([0, 0, 2]))]
        s = json.loads(json.dumps(S.compute(v, more)))  # as stored
        for w in [M.MIXTURES["original"], (rng.random(), rng.random(), rng.random()), (0.0, 0.0, 1.0)]:
            assert S.mixture(s["strata"], w) == M.mixture(list(v.values()), w), (case, w)
            ci = S.mixture_ci(s, w)
            if ci is not None:
                assert ci == M.mixture_bootstrap(list(v.values()), w), (case, w)
        if more:
            from plugineval.trials import spread_of

            got = S.trial_spread(s, w)
            want = spread_of([M.mixture(list(t.values()), w)["recall"] for t in [v, *more]])
            assert got is not None and got["k"] == 1 + len(more) and got["spread"] == want
        else:
            assert S.trial_spread(s, w) is None


def test_the_leaderboard_reads_no_verdicts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(SEED)
    svc = service(tmp_path)
    for i in range(60):
        assert svc.board.add(entry(f"model-{i}", f"org-{i}", verdicts(rng, 200)))

    def boom(*_: Any, **__: Any) -> Any:
        raise AssertionError("the leaderboard recomputed from verdicts")

    monkeypatch.setattr(store_mod, "unpack_verdicts", boom)
    monkeypatch.setattr(M, "mixture_bootstrap", boom)
    monkeypatch.setattr(M, "breakdown", boom)
    monkeypatch.setattr(M, "summarize", boom)
    for preset, w in [("original (0.40/0.40/0.20)", (0, 0, 0)), ("custom (sliders)", (0.2, 0.5, 0.3))]:
        df, note, p1, p2 = svc.leaderboard("", preset, *w, None, None, None, "Recall", True)
        assert len(df) == 60 and "plots show the first 20 rows" in note
        for fig in (p1, p2):
            fig.savefig(io.BytesIO(), format="png")


def _names(rng: random.Random, n: int) -> list[str]:
    out = ["$x^$", "$\\frac{1}{0}$", "a$b", "$$", "_hidden", "\\$x$", "$x_{$"]
    for _ in range(n):
        out.append("".join(rng.choice(MATH + "abc 01") for _ in range(rng.randint(1, 30))))
    return out


def test_a_hostile_name_never_breaks_a_plot_and_shows_as_typed(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    svc = service(tmp_path)
    names = _names(rng, 40)
    for name in names:  # one submitter: look-alikes of one's own names are allowed
        svc.board.add(entry(name, "Hostile", verdicts(rng, 30)))
    df, _, p1, p2 = svc.leaderboard(
        "", "original (0.40/0.40/0.20)", 0, 0, 0, None, None, None, "Model", False
    )
    assert set(df["Model"]) == set(names)
    for fig in (p1, p2):
        fig.savefig(io.BytesIO(), format="png")
    for name in names:  # one model per figure: its label is the name, literally
        fig = plots.error_profile([(name, {"miss_recall": 0.5})])
        fig.savefig(io.BytesIO(), format="png")
        (label,) = [t for t in fig.axes[0].get_yticklabels()]
        shown, math = label._preprocess_math(label.get_text())
        want = name if len(name) <= 28 else name[:27] + "~"
        assert not math and shown in (want, " " + want), (name, shown)
        legend = plots.recall_by_difficulty([(name, {"easy": {"recall": 1.0}})])
        legend.savefig(io.BytesIO(), format="png")


def test_a_load_never_waits_for_a_plot_redraw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a row is written, the next load returns the fresh table at once, with the last figures
    drawn, while the new ones are drawn in the background (here: held until the test lets them go)."""
    rng = random.Random(SEED)
    svc = service(tmp_path)
    for i in range(3):
        assert svc.board.add(entry(f"model-{i}", f"org-{i}", verdicts(rng, 60)))
    args = ("", "original (0.40/0.40/0.20)", 0, 0, 0, None, None, None, "Recall", True)
    _, note, old1, old2 = svc.leaderboard(*args)  # the first figures: nothing to show before them
    assert "being redrawn" not in note and svc.redrawer.drawn_waiting == 2
    assert svc.leaderboard(*args)[2:] == (old1, old2) and svc.redrawer.drawn == 0  # the same rows: kept
    started, go = threading.Event(), threading.Event()
    build = plots.build

    def slow(kind: str, named: Any) -> Any:
        started.set()
        assert go.wait(60)
        return build(kind, named)

    monkeypatch.setattr(plots, "build", slow)
    assert svc.board.add(entry("newcomer", "org-new", verdicts(rng, 60)))
    got: list[Any] = []
    load = threading.Thread(target=lambda: got.append(svc.leaderboard(*args)))
    load.start()
    load.join(30)
    try:
        assert not load.is_alive(), "the load waited for the plots' redraw"
        df, note, p1, p2 = got[0]
        assert "newcomer" in set(df["Model"]) and (p1, p2) == (old1, old2)  # fresh table, last figures
        assert "being redrawn" in note
        assert started.wait(30) and not go.is_set()  # the redraw runs meanwhile, in the background
    finally:
        go.set()
    assert svc.redrawer.wait(60) and svc.redrawer.drawn == 2 and svc.redrawer.drawn_waiting == 2
    _, note, p1, p2 = svc.leaderboard(*args)  # the next load has the new figures, drawn once each
    assert p1 is not old1 and p2 is not old2 and "being redrawn" not in note
    assert any("newcomer" in t.get_text() for t in p2.axes[0].get_yticklabels())
    assert svc.redrawer.drawn == 2 and svc.redrawer.drawn_waiting == 2


def test_the_about_tab_names_no_server_path(tmp_path: Path) -> None:
    from plugineval_space.release import Release

    svc = service(tmp_path)
    for source in (str(tmp_path / "release"), str(tmp_path / "records.jsonl"), "release"):
        svc.release = Release(source)  # type: ignore[assignment]
        about = svc.about()
        assert str(tmp_path) not in about and "lb.sqlite" not in about and "/" not in about, about
    svc.release = Release("someone/plugineval")  # type: ignore[assignment]
    assert "Hub dataset `someone/plugineval`" in svc.about()


def test_a_task_that_exits_is_told_without_internals(caplog: pytest.LogCaptureFixture) -> None:
    for fn in (sys.exit, lambda: threading.Lock()):  # an exit; an answer that cannot be pickled
        with pytest.raises(Failed) as err:
            Pool(budget=30).run(fn)
        assert "internal error" in str(err.value) and "Exit" not in str(err.value)
        assert "pickle" not in str(err.value) and "lock" not in str(err.value)


# --- 3. rows belong to who made them ------------------------------------------------------------------


def test_the_same_content_from_another_submitter_is_its_own_row_marked_duplicate(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    board = SqliteBoard(tmp_path / "lb.sqlite")
    v = verdicts(rng, 50)
    first = entry("alpha", "Org A", v, content=b"same bytes")
    assert board.add(first) and first.duplicate_of is None
    again = entry("alpha", " org a ", v, content=b"same bytes")  # the same submitter (case, spacing)
    assert not board.add(again) and again.id == first.id
    copy = entry("beta", "Org B", v, content=b"same bytes")  # the same file, renamed by someone else
    assert board.add(copy) and copy.duplicate_of == first.id and copy.id != first.id
    rows = {e.id: e for e in board.rows()}
    assert rows[first.id].organisation == "Org A" and rows[copy.id].organisation == "Org B"
    df = table.leaderboard(
        board.rows(), table.PRESETS["original (0.40/0.40/0.20)"], sort_by="Row", descending=False
    )
    assert list(df["Same as"]) == ["", f"#{first.id}"]


def test_one_hundred_concurrent_submitters_of_one_file_get_one_hundred_rows(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    board = SqliteBoard(tmp_path / "lb.sqlite")
    v = verdicts(rng, 40)
    es = [entry(f"copy-{i:03d}", f"org-{i:03d}", v, content=b"one file") for i in range(100)]
    with ThreadPoolExecutor(16) as ex:
        assert all(ex.map(board.add, es))
    rows = board.rows()
    assert len(rows) == 100 and len({e.content_hash for e in rows}) == 100
    first = min(e.id for e in rows if e.id is not None)
    assert sorted(e.duplicate_of or 0 for e in rows) == [0] + [first] * 99


def test_the_service_tells_the_second_submitter_which_row_it_duplicates(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    svc = service(tmp_path)
    v = verdicts(rng, 30)
    msgs = []
    for org in ("Org A", "Org B", "Org B"):
        d = _Deferred()
        d.add(entry(f"model of {org}", org, v, content=b"bytes"))
        msgs.append(svc._store("Submitted.", d))
    assert msgs[0] == "✅ Submitted. Row #1."
    assert msgs[1].startswith("✅ Submitted. Row #2.") and "duplicate of #1" in msgs[1]
    assert msgs[2].startswith("✅ Already on the leaderboard as row #2")


def test_a_baseline_name_cannot_be_taken_and_seeding_is_never_pre_empted(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    board = SqliteBoard(tmp_path / "lb.sqlite")
    v = verdicts(rng, 30)
    data = b"the baseline's exact bytes"
    for name, org in [
        ("baseline:router", "Mallory"),
        ("Baseline : Router", ""),
        ("x", "PluginEval maintainers"),
    ]:
        with pytest.raises(Refused, match="maintainers"):
            board.add(entry(name, org, v, content=data))
    # a row that took the baseline's old key before this version (a legacy /submit): seeding still adds
    legacy = entry("baseline:router", "Mallory", v, content=data)
    legacy.content_digest = legacy.content_hash
    legacy.content_hash = content_hash(data, "baseline:router")
    assert board.add(legacy, imported=True)
    seeded = entry(
        "baseline:router", "PluginEval maintainers", v, content=data, kind="baseline", status="verified"
    )
    assert board.add(seeded) and seeded.content_hash == row_key(
        "baseline", content_hash(data, "baseline:router"), ""
    )
    assert [(e.kind, e.status) for e in board.rows()] == [
        ("submission", "self-reported"),
        ("baseline", "verified"),
    ]


def _lookalike(rng: random.Random, name: str) -> str:
    swaps = {"o": "о", "a": "а", "e": "е", "p": "р", "c": "с", "x": "х", "i": "і"}  # Cyrillic
    out = []
    for ch in name:
        r = rng.random()
        if ch in swaps and r < 0.5:
            out.append(swaps[ch])
        elif r < 0.7:
            out.append(ch.upper())
        elif r < 0.8:
            out.append(ch + rng.choice(" -_."))
        else:
            out.append(ch)
    return "".join(out)


def test_a_name_confusable_with_another_submitters_row_is_refused(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    board = SqliteBoard(tmp_path / "lb.sqlite")
    v = verdicts(rng, 20)
    originals = ["gpt-4o", "acme-coder", "pixie", "orca-mini", "copilot"]
    for name in originals:
        assert board.add(entry(name, "Owner", v, content=name.encode()))
    for name in originals:
        for k in range(8):
            fake = _lookalike(rng, name)
            with pytest.raises(Refused, match="looks like"):
                board.add(entry(fake, "Someone else", v, content=f"{fake}{k}".encode()))
            # the owner may publish a look-alike of its own row (a new version of its model)
            assert board.add(entry(fake, "owner", v, content=f"own {fake}{k}".encode())) in (True, False)
    assert all(e.organisation.casefold() == "owner" for e in board.rows())


# --- 4. storage budget ------------------------------------------------------------------------------


def test_the_board_and_the_bundle_store_refuse_past_their_budget(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    board = SqliteBoard(tmp_path / "lb.sqlite", Budget(board_bytes=400_000, bundle_bytes=100_000))
    added, refused = 0, None
    for i in range(200):
        try:
            board.add(entry(f"m{i}", f"o{i}", verdicts(rng, 300)))
            added += 1
        except Refused as e:
            refused = str(e)
            break
    assert 0 < added < 200 and refused is not None
    assert "storage is full" in refused and "budget" in refused and "Nothing was stored" in refused
    assert board.count() == added
    board = SqliteBoard(tmp_path / "lb2.sqlite", Budget(board_bytes=400_000, bundle_bytes=100_000))
    assert board.add_bundle("d1", "m", rng.randbytes(60_000))
    with pytest.raises(Refused, match="bundle store is full"):
        board.add_bundle("d2", "m", rng.randbytes(60_000))
    assert board.bundle_digests() == ["d1"]


# --- 5. the page in headless Chromium: a hostile name is text -------------------------------------------

HOSTILE = {
    "$x^$": "Math Org",
    "![p](http://127.0.0.1:9/pixel.png)[click](https://example.org/)": "Markdown Org",
    "<img src=x onerror=alert(1)>**bold**": "Html Org",
}
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]  # fmt: skip


@pytest.fixture(scope="module")
def hostile_server(mini_release: Path, tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    from space_helpers import running_space

    db = tmp_path_factory.mktemp("hostile-db") / "lb.sqlite"
    board = SqliteBoard(db)
    rng = random.Random(SEED)
    from plugineval._version import JUDGE_VERSION

    for name, org in HOSTILE.items():
        assert board.add(entry(name, org, verdicts(rng, 40), judge_version=JUDGE_VERSION))
    yield from running_space(mini_release, db, 0.05, "token")


def test_the_leaderboard_shows_hostile_names_as_text_in_chromium(hostile_server) -> None:  # type: ignore[no-untyped-def]
    if not CHROMIUM.exists():
        pytest.fail("/usr/bin/chromium is missing: run scripts/ci-browser-deps")
    from playwright.sync_api import sync_playwright

    out = ROOT / "artifacts" / "space"
    out.mkdir(parents=True, exist_ok=True)
    fetched: list[str] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.set_default_timeout(60_000)
        page.on("request", lambda r: fetched.append(r.url))
        page.goto(hostile_server["url"])
        table_ = page.locator("#leaderboard-table")
        table_.locator("[role=gridcell]").filter(has_text="Math Org").first.wait_for()
        page.locator("img[src^='data:image']").nth(1).wait_for()  # both plots drew
        text = table_.inner_text()
        for name in HOSTILE:
            assert name in text, name  # literally: no markup, no math
        assert table_.locator("img, a[href^='http']").count() == 0
        page.locator("#leaderboard-table").scroll_into_view_if_needed()
        page.screenshot(path=str(out / "leaderboard-hostile-name.png"), full_page=True)
        browser.close()
    # the names' image and link were never fetched (nor an <img src=x> relative to the page)
    assert not [u for u in fetched if "pixel.png" in u or "example.org" in u or u.endswith("/x")], fetched
