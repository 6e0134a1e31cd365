"""The Space's leaderboard store: idempotent SQLite with WAL, compressed verdicts, mixtures, table views."""

from __future__ import annotations

import json
import sqlite3
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "space"))

from plugineval_space import table  # noqa: E402
from plugineval_space.store import Entry, SqliteBoard, content_hash, pack_verdicts, unpack_verdicts  # noqa: E402

from plugineval import metrics as M  # noqa: E402


def _verdicts(
    n_tp: int, n_fn: int, n_tn: int, n_fp: int, difficulty: str = "easy"
) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for i, (o, kind) in enumerate(
        [("TP", "positive")] * n_tp
        + [("FN", "positive")] * n_fn
        + [("TN", "neg_A")] * n_tn
        + [("FP", "neg_A")] * n_fp
    ):
        cat = {"FN": "miss_recall", "FP": "over_recall"}.get(o)
        out[f"r{i}"] = {
            "outcome": o,
            "category": cat,
            "subtype": None,
            "kind": kind,
            "difficulty": difficulty,
        }
    return out


def _entry(model: str, verdicts: dict[str, dict[str, object]], **kw: object) -> Entry:
    base: dict[str, object] = dict(
        model=model,
        organisation="org",
        link="",
        kind="submission",
        status="self-reported",
        dataset_version="0.0.1",
        judge_version="1.0.0",
        judge_mode="rules",
        judge_model="",
        cost_usd=None,
        latency_ms=None,
        verdicts=verdicts,
        content_hash=content_hash(json.dumps(verdicts).encode(), model),
    )
    base.update(kw)
    return Entry(**base)  # type: ignore[arg-type]


# --- the store --------------------------------------------------------------------------------------


def test_sqlite_board_is_idempotent_and_uses_wal(tmp_path: Path) -> None:
    board = SqliteBoard(tmp_path / "lb.sqlite")
    e = _entry("m1", _verdicts(3, 1, 2, 0))
    assert board.add(e) is True
    assert board.add(e) is False  # same content hash: nothing changes
    assert board.count() == 1
    got = board.entries()[0]
    assert got.model == "m1" and got.verdicts == e.verdicts
    con = sqlite3.connect(tmp_path / "lb.sqlite")
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    with pytest.raises(sqlite3.IntegrityError):  # the UNIQUE constraint itself, not just our check
        con.execute(
            "INSERT INTO entries (content_hash, created, model, organisation, link, kind, status, dataset_version, judge_version, judge_mode, judge_model, verdicts) SELECT content_hash, created, model, organisation, link, kind, status, dataset_version, judge_version, judge_mode, judge_model, verdicts FROM entries"
        )


def test_content_hash_depends_on_bytes_and_model() -> None:
    assert content_hash(b"x", "a") == content_hash(b"x", " a ")
    assert content_hash(b"x", "a") != content_hash(b"x", "b")
    assert content_hash(b"x", "a") != content_hash(b"y", "a")


def test_verdicts_round_trip_compressed() -> None:
    v = _verdicts(50, 10, 30, 5)
    blob = pack_verdicts(v)
    assert unpack_verdicts(blob) == v
    assert len(blob) < len(json.dumps(v))


def test_concurrent_adds_lose_and_duplicate_nothing(tmp_path: Path) -> None:
    board = SqliteBoard(tmp_path / "lb.sqlite")
    entries = [_entry(f"m{i}", _verdicts(i % 5 + 1, 2, 1, 1)) for i in range(50)]
    with ThreadPoolExecutor(16) as ex:  # every entry twice, from many threads, through fresh boards too
        results = list(
            ex.map(
                lambda e: (board if hash(e.model) % 2 else SqliteBoard(board.path)).add(e), entries + entries
            )
        )
    assert sum(results) == 50
    assert board.count() == 50
    assert sorted(e.model for e in board.entries()) == sorted(f"m{i}" for i in range(50))


def test_boards_creating_one_file_at_once_all_open_it(tmp_path: Path) -> None:
    """Twelve boards open one new file at the same moment, 100 times: switching it to WAL raced, and
    SQLite answers "database is locked" at once there (before the retry this test failed 7 runs in 8)."""
    for i in range(100):
        path = tmp_path / f"lb{i}.sqlite"
        start = threading.Barrier(12)

        def open_board(_: int, path: Path = path, start: threading.Barrier = start) -> int:
            board = SqliteBoard(path)
            start.wait()
            return board.count()

        with ThreadPoolExecutor(12) as ex:
            assert list(ex.map(open_board, range(12))) == [0] * 12


def test_an_older_file_gets_the_new_columns_and_trials_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    con = sqlite3.connect(path)
    cols = "content_hash, created, model, organisation, link, kind, status, dataset_version, judge_version, judge_mode, judge_model"
    con.execute(
        f"CREATE TABLE entries (id INTEGER PRIMARY KEY AUTOINCREMENT, {cols.replace(',', ' TEXT,')} TEXT, cost_usd REAL, latency_ms REAL, verdicts BLOB NOT NULL)"
    )
    con.execute(
        f"INSERT INTO entries ({cols}, verdicts) VALUES ('h', 'd', 'old', '', '', 'submission', 'self-reported', '0.0.1', '1.0.0', 'rules', '', ?)",
        (pack_verdicts(_verdicts(1, 1, 1, 0)),),
    )
    con.commit()
    con.close()
    board = SqliteBoard(path)
    (old,) = board.entries()
    assert old.model == "old" and old.more_trials == [] and old.bundle_hash is None and old.model_card == ""
    e = _entry(
        "k3",
        _verdicts(3, 1, 2, 0),
        more_trials=[_verdicts(2, 2, 2, 0), _verdicts(4, 0, 1, 1)],
        model_card="m",
        trained_on_plugineval=True,
    )
    assert board.add(e) and board.add_bundle("d1", "k3", b"zip") and not board.add_bundle("d1", "k3", b"zip")
    got = SqliteBoard(path).entries()[-1]
    assert got.more_trials == e.more_trials and got.trained_on_plugineval is True
    assert board.bundle("d1") == b"zip" and board.bundle_digests() == ["d1"]
    row = table.leaderboard([got], table.PRESETS["original (0.40/0.40/0.20)"]).iloc[0]
    assert row["Trials"] == 3 and row["Recall range"] == "50.0–100.0" and row["pass^k"] == 50.0
    assert Entry.from_json({k: v for k, v in old.to_json().items() if k != "more_trials"}).more_trials == []


# The leaderboard file as the code before the schema version wrote it (PRAGMA user_version 0), literally:
# the first table, then the columns that opening an older file used to add one ALTER at a time.
OLD_DDL = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    content_hash TEXT NOT NULL UNIQUE,
    created TEXT NOT NULL,
    model TEXT NOT NULL,
    organisation TEXT NOT NULL,
    link TEXT NOT NULL,
    kind TEXT NOT NULL,
    status TEXT NOT NULL,
    dataset_version TEXT NOT NULL,
    judge_version TEXT NOT NULL,
    judge_mode TEXT NOT NULL,
    judge_model TEXT NOT NULL,
    cost_usd REAL,
    latency_ms REAL,
    verdicts BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS bundles (
    digest TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    model TEXT NOT NULL,
    data BLOB NOT NULL
)
"""
OLD_ADDED = """
ALTER TABLE entries ADD COLUMN bundle_hash TEXT;
ALTER TABLE entries ADD COLUMN model_card TEXT NOT NULL DEFAULT '';
ALTER TABLE entries ADD COLUMN trained_on_plugineval INTEGER;
ALTER TABLE entries ADD COLUMN more_trials BLOB
"""
OLD_COLS = (
    "content_hash, created, model, organisation, link, kind, status, dataset_version, judge_version, "
    "judge_mode, judge_model, cost_usd, latency_ms, verdicts"
)


@pytest.mark.parametrize("added", [False, True], ids=["first-table", "with-added-columns"])
def test_an_unversioned_file_migrates_keeping_its_rows(tmp_path: Path, added: bool) -> None:
    from plugineval_space.store import COLUMNS, SCHEMA_VERSION

    path = tmp_path / "old.sqlite"
    con = sqlite3.connect(path)
    con.executescript(OLD_DDL + (";" + OLD_ADDED if added else ""))
    v1, v2 = _verdicts(2, 1, 1, 0), _verdicts(1, 0, 3, 1, "hard")
    con.execute(
        f"INSERT INTO entries ({OLD_COLS}) VALUES "
        "('h1', '2026-01-02 03:04:05', 'old-a', 'org', 'https://a', 'submission', 'self-reported', "
        "'1.0.0', '1.1.0', 'rules', '', 0.25, 12.5, ?)",
        (pack_verdicts(v1),),
    )
    con.execute(
        f"INSERT INTO entries ({OLD_COLS}) VALUES "
        "('h2', '2026-01-03 00:00:00', 'old-b', '', '', 'baseline', 'verified', "
        "'1.0.0', '1.1.0', 'hybrid', 'gpt-x', NULL, NULL, ?)",
        (pack_verdicts(v2),),
    )
    if added:
        con.execute("UPDATE entries SET bundle_hash = 'b1', model_card = 'card', trained_on_plugineval = 0")
    con.execute("INSERT INTO bundles VALUES ('b1', '2026-01-02 03:04:05', 'old-a', x'7a6970')")
    con.commit()
    assert con.execute("PRAGMA user_version").fetchone()[0] == 0
    con.close()

    board = SqliteBoard(path)
    a, b = board.entries()
    from plugineval_space.store import row_key

    # version 2 keys a row by its submitter: the old key is the content digest; b is a verified baseline
    assert (a.content_hash, b.content_hash) == (
        row_key("submission", "h1", "org"),
        row_key("baseline", "h2", ""),
    )
    assert (a.content_digest, a.created, a.model, a.organisation, a.link, a.kind, a.status) == (
        "h1",
        "2026-01-02 03:04:05",
        "old-a",
        "org",
        "https://a",
        "submission",
        "self-reported",
    )
    assert (a.dataset_version, a.judge_version, a.judge_mode, a.judge_model) == (
        "1.0.0",
        "1.1.0",
        "rules",
        "",
    )
    assert (a.cost_usd, a.latency_ms, a.verdicts) == (0.25, 12.5, v1)
    assert (b.model, b.judge_model, b.cost_usd, b.latency_ms, b.verdicts) == (
        "old-b",
        "gpt-x",
        None,
        None,
        v2,
    )
    for e in (a, b):  # the columns the old file lacked read as their defaults; those it had keep their values
        assert e.more_trials == []
        if added:
            assert (e.bundle_hash, e.model_card, e.trained_on_plugineval) == ("b1", "card", False)
        else:
            assert (e.bundle_hash, e.model_card, e.trained_on_plugineval) == (None, "", None)
    assert board.bundle("b1") == b"zip" and board.bundle_digests() == ["b1"]

    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert {r[1] for r in con.execute("PRAGMA table_info(entries)")} == {"id", *COLUMNS}
    con.close()
    new = _entry(
        "new", _verdicts(3, 0, 1, 0), more_trials=[_verdicts(2, 1, 1, 0)], trained_on_plugineval=True
    )
    assert board.add(new) and not board.add(new)
    again = SqliteBoard(path).entries()  # a migrated file opens as it is
    assert [e.model for e in again] == ["old-a", "old-b", "new"] and again[:2] == [a, b]
    assert again[2].more_trials == new.more_trials and again[2].trained_on_plugineval is True


def test_a_new_file_is_versioned_and_a_newer_one_is_refused(tmp_path: Path) -> None:
    from plugineval_space.store import SCHEMA_VERSION

    board = SqliteBoard(tmp_path / "new.sqlite")
    assert board.count() == 0
    con = sqlite3.connect(board.path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    con.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    con.commit()
    con.close()
    with pytest.raises(RuntimeError, match="newer than this code"):
        SqliteBoard(board.path).count()


# --- leaderboard rows and mixtures ---------------------------------------------------------------------


def test_mixture_recomputes_every_row_like_metrics_mixture() -> None:
    v = _verdicts(4, 0, 2, 0, "easy") | {
        f"h{i}": {
            "outcome": "FN",
            "category": "miss_recall",
            "subtype": None,
            "kind": "positive",
            "difficulty": "hard",
        }
        for i in range(4)
    }
    e = _entry("m", v)
    for preset, w in table.PRESETS.items():
        df = table.leaderboard([e], table.weights_for(preset, 0, 0, 0))
        want = M.mixture(list(v.values()), w)
        assert df.loc[0, "Recall"] == round(100 * want["recall"], 2)
        assert df.loc[0, "Accuracy"] == round(100 * want["accuracy"], 2)
    easy_only = table.leaderboard([e], table.weights_for(table.CUSTOM, 1, 0, 0))
    hard_only = table.leaderboard([e], table.weights_for(table.CUSTOM, 0, 0, 5))
    assert easy_only.loc[0, "Recall"] == 100.0 and hard_only.loc[0, "Recall"] == 0.0
    assert easy_only.loc[0, "Recall easy"] == 100.0 and easy_only.loc[0, "Recall hard"] == 0.0
    with pytest.raises(ValueError, match="not all zero"):
        table.weights_for(table.CUSTOM, 0, 0, 0)


def test_mixture_intervals_are_the_metrics_bootstrap_with_pinned_numbers() -> None:
    """The board's intervals are ``metrics.mixture_bootstrap`` (one bootstrap for the report and the
    Space); the numbers are the ones the Space's own copy gave before the two were merged."""
    v = {
        **_verdicts(7, 3, 4, 2, "easy"),
        **{f"m{k}": e for k, e in _verdicts(2, 5, 1, 3, "medium").items()},
        **{f"h{k}": e for k, e in _verdicts(1, 4, 0, 0, "hard").items()},
    }
    pinned = {
        (0.4, 0.4, 0.2): ([0.2571428571428572, 0.6342857142857143], [0.2939732142857143, 0.6012213541666667]),
        (0.6, 0.3, 0.1): (
            [0.32564285714285723, 0.7314285714285716],
            [0.3588715277777778, 0.6868812003968255],
        ),
        (0.0, 0.0, 1.0): ([0.0, 0.6], [0.0, 0.6]),
    }
    for w, (recall, accuracy) in pinned.items():
        assert M.mixture_bootstrap(list(v.values()), w) == {"recall": recall, "accuracy": accuracy}
        assert table.score_entry(_entry(f"m{w}", v), w)["ci"] == {"recall": recall, "accuracy": accuracy}
    assert M.mixture_bootstrap([], (0.4, 0.4, 0.2)) == {"recall": None, "accuracy": None}


def test_leaderboard_search_filters_sort_and_columns() -> None:
    a = _entry("alpha", _verdicts(9, 1, 5, 0), organisation="Acme")
    b = _entry("beta", _verdicts(2, 8, 5, 0), kind="baseline", status="verified")
    w = table.PRESETS["original (0.40/0.40/0.20)"]
    df = table.leaderboard([b, a], w)
    assert list(df["Model"]) == ["alpha", "beta"]
    assert list(table.leaderboard([b, a], w, descending=False)["Model"]) == ["beta", "alpha"]
    assert list(table.leaderboard([a, b], w, search="acme")["Model"]) == ["alpha"]
    assert list(table.leaderboard([a, b], w, status=["verified"])["Model"]) == ["beta"]
    assert list(table.leaderboard([a, b], w, types=["submission"])["Model"]) == ["alpha"]
    cols = table.leaderboard([a, b], w, columns=["Recall", "Status"]).columns
    assert list(cols) == ["Model", "Recall", "Status"]
    assert df.loc[0, "Recall 95% CI"].startswith("[")


# --- the running app ---------------------------------------------------------------------------------


def test_leaderboard_note_counts_rows_declared_trained_on_plugineval(tmp_path: Path) -> None:
    from plugineval_space.service import Service

    board = SqliteBoard(tmp_path / "lb.sqlite")
    board.add(_entry("clean", _verdicts(3, 1, 2, 0), trained_on_plugineval=False))
    svc = Service(board=board, seed=False, rescore_on_start=False)
    args = ("", next(iter(table.PRESETS)), 0.4, 0.4, 0.2, None, None, None, "Recall", True)
    assert "trained_on_plugineval" not in svc.leaderboard(*args)[1]
    board.add(_entry("contaminated", _verdicts(4, 0, 2, 0), trained_on_plugineval=True))
    df, note, *_ = svc.leaderboard(*args)
    assert "1 row(s) declare trained_on_plugineval = yes" in note and "About tab" in note
    assert dict(zip(df["Model"], df["Trained on PluginEval"], strict=True)) == {
        "clean": "no",
        "contaminated": "yes",
    }
