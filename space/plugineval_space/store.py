"""Leaderboard storage: one interface, two implementations.

``SqliteBoard`` (the default): WAL journal, one transaction per submission. ``HubBoard``: the same
rows in a Hub dataset repo (a JSONL snapshot uploaded with ``huggingface_hub`` after each new row),
with a local SQLite cache.

Identity (docs/space.md, "Who a row belongs to"): a row is one submission, with its own id, its
submitter (the organisation given) and its time. What was scored has a content digest (of the
predictions bytes and model name, or of the bundle and judge); the row's key (``content_hash``, the
UNIQUE column) is that digest bound to the submitter, so the same submitter sending the same thing
twice changes nothing, while another submitter sending the same content gets a row of their own,
marked as a duplicate of the first (``duplicate_of``), never merged into it and never blocked by it.
Baseline rows have their own key space, written only by the seeding path; a submission may not use a
reserved name (``plugineval.names.is_reserved``) nor a name confusable (``plugineval.names.skeleton``)
with a row of another submitter. The file and the kept bundles have size budgets (``Budget``).

Each row keeps the report's per-record verdicts (zlib-compressed JSON), and the summaries the page
draws from (``summary.py``), computed when the row is written.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from plugineval import entries as E

from .identity import Budget, Refused, _full, _skeleton, _who, row_key

__all__ = ["Budget", "Refused", "row_key"]

# the per-record keys the leaderboard needs (metrics recompute from these; arguments are kept too)
VERDICT_KEYS = (
    E.OUTCOME,
    E.CATEGORY,
    E.SUBTYPE,
    E.KIND,
    E.DIFFICULTY,
    E.DOMAIN,
    E.TARGET_PLUGIN,
    E.ARGUMENTS,
)


def content_hash(predictions: bytes, model: str) -> str:
    h = hashlib.sha256()
    h.update(predictions)
    h.update(b"\x00model\x00")
    h.update(model.strip().encode("utf-8"))
    return h.hexdigest()


def pack_verdicts(per_record: dict[str, dict[str, Any]]) -> bytes:
    slim = {rid: {k: e.get(k) for k in VERDICT_KEYS if k in e} for rid, e in per_record.items()}
    return zlib.compress(json.dumps(slim, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)


def unpack_verdicts(blob: bytes) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = json.loads(zlib.decompress(blob).decode("utf-8"))
    return out


def _pack_trials(trials: list[dict[str, dict[str, Any]]]) -> bytes | None:
    return zlib.compress(json.dumps([pack_verdicts(t).hex() for t in trials]).encode(), 6) if trials else None


def _unpack_trials(blob: bytes | None) -> list[dict[str, dict[str, Any]]]:
    if not blob:
        return []
    return [unpack_verdicts(bytes.fromhex(h)) for h in json.loads(zlib.decompress(blob))]


def _sql(decl: str) -> dict[str, str]:
    """A field's metadata: it is stored in the ``entries`` column of its name, declared ``decl``."""
    return {"sql": decl}


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S")


@dataclass
class Entry:
    """One leaderboard row: who, what was scored, and the per-record verdicts.

    Each field is also its ``entries`` column (declared in the field's metadata): the SQLite table,
    the columns read and written and the migration of an older file all derive from this class, so a
    new field is one line here (with a default, and a column that can be added to existing rows:
    nullable or with a DEFAULT) and a bump of ``SCHEMA_VERSION``."""

    model: str = field(metadata=_sql("TEXT NOT NULL"))
    organisation: str = field(metadata=_sql("TEXT NOT NULL"))
    link: str = field(metadata=_sql("TEXT NOT NULL"))
    kind: str = field(metadata=_sql("TEXT NOT NULL"))  # "baseline" | "submission"
    status: str = field(metadata=_sql("TEXT NOT NULL"))  # "verified" | "self-reported"
    dataset_version: str = field(metadata=_sql("TEXT NOT NULL"))
    judge_version: str = field(metadata=_sql("TEXT NOT NULL"))
    judge_mode: str = field(metadata=_sql("TEXT NOT NULL"))
    judge_model: str = field(metadata=_sql("TEXT NOT NULL"))
    cost_usd: float | None = field(metadata=_sql("REAL"))
    latency_ms: float | None = field(metadata=_sql("REAL"))
    verdicts: dict[str, dict[str, Any]] = field(metadata=_sql("BLOB NOT NULL"))  # pack_verdicts
    content_hash: str = field(metadata=_sql("TEXT NOT NULL UNIQUE"))
    created: str = field(default_factory=_now, metadata=_sql("TEXT NOT NULL"))
    bundle_hash: str | None = field(default=None, metadata=_sql("TEXT"))
    """The kept submission bundle this row was scored from."""
    model_card: str = field(default="", metadata=_sql("TEXT NOT NULL DEFAULT ''"))
    trained_on_plugineval: bool | None = field(default=None, metadata=_sql("INTEGER"))
    """As the bundle declares it; None: not declared."""
    more_trials: list[dict[str, dict[str, Any]]] = field(default_factory=list, metadata=_sql("BLOB"))
    """Verdicts of trials 2 … K when the submission carried K > 1 (``verdicts`` is trial 1)."""
    content_digest: str = field(default="", metadata=_sql("TEXT NOT NULL DEFAULT ''"))
    """What was scored, whatever the name and the submitter: SHA-256 of the predictions bytes (of
    every predictions file, for a bundle); rows sharing it are duplicates by content. Where a caller
    leaves it empty it is the given ``content_hash``. ``add`` turns the given ``content_hash`` (the
    predictions and the model name, or the bundle and the judge) into the row's key, bound to the
    submitter."""
    duplicate_of: int | None = field(default=None, metadata=_sql("INTEGER"))
    """The first row of another submitter with the same content digest, when there is one."""
    summary: dict[str, Any] | None = field(default=None, compare=False, metadata=_sql("BLOB"))
    """``summary.compute`` of the verdicts, stored when the row is written (the page draws from it)."""
    id: int | None = field(default=None, compare=False)
    """The row's id on this board (not a stored field: the table's primary key)."""

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("summary")  # recomputed from the verdicts where the row is imported
        d.pop("id")
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Entry:
        from dataclasses import MISSING

        keep = {
            k: d.get(k)
            for k, f in cls.__dataclass_fields__.items()
            if k in d or (f.default is MISSING and f.default_factory is MISSING)
        }  # a row of an older snapshot lacks the later fields: their defaults
        return cls(**keep)  # type: ignore[arg-type]


class Board(ABC):
    """Where leaderboard rows live."""

    @abstractmethod
    def add(self, entry: Entry, *, imported: bool = False) -> bool:
        """Store the row; False when this submitter has a row of the same content (nothing changes)."""

    @abstractmethod
    def entries(self) -> list[Entry]:
        """Every row, oldest first."""

    def rows(self) -> list[Entry]:
        """Every row with its summary, oldest first (the verdicts may be left out)."""
        return self.entries()

    def admissible(self, entry: Entry) -> None:
        """``Refused`` when ``add`` would refuse the row's name (checked before keeping its bundle)."""
        return None

    def entry(self, row_id: int) -> Entry | None:
        """One row, with its verdicts."""
        return next((e for e in self.entries() if e.id == row_id), None)

    def count(self) -> int:
        return len(self.entries())

    def has(self, digest: str) -> bool:
        return any(e.content_hash == digest for e in self.entries())

    @property
    @abstractmethod
    def description(self) -> str: ...  # where the rows are, for the server's log (may name a path)

    public_name = "an SQLite file on the Space"  # the same as the page says it (never a server path)

    # submission bundles, kept so that every one can be re-scored by a later judge
    @abstractmethod
    def add_bundle(self, digest: str, model: str, data: bytes) -> bool:
        """Keep a bundle (its canonical zip); False when it is kept already."""

    @abstractmethod
    def bundle(self, digest: str) -> bytes | None:
        """A kept bundle's zip bytes."""

    @abstractmethod
    def bundle_digests(self) -> list[str]:
        """Every kept bundle, oldest first."""


# --- the SQLite layout, derived from Entry ------------------------------------------------------------

SCHEMA_VERSION = 2
"""``PRAGMA user_version`` of a board file. 0: the unversioned layout before it (the first table, and
the columns later added to it on open); 1: every column of ``Entry`` up to ``more_trials``; 2: rows
keyed by submitter (``content_digest``, ``duplicate_of``) and their stored ``summary``. Opening an
older file migrates it (``migrate.migrate``); a newer one is refused."""

COLUMNS: dict[str, str] = {f.name: f.metadata["sql"] for f in fields(Entry) if "sql" in f.metadata}
"""Column name → declaration, in ``Entry``'s order."""


def _same(v: Any) -> Any:
    return v


# how a value is stored and read back where the column's type is not the field's
def _pack_summary(s: dict[str, Any] | None) -> bytes | None:
    """Plain JSON: its bulk is base64 resample sums, which compress little and decode faster raw."""
    return None if s is None else json.dumps(s, separators=(",", ":")).encode()


def _unpack_summary(blob: bytes | None) -> dict[str, Any] | None:
    if not blob:
        return None
    raw = bytes(blob)
    return json.loads(raw if raw[:1] == b"{" else zlib.decompress(raw))  # type: ignore[no-any-return]


_ENCODE: dict[str, Callable[[Any], Any]] = {
    "verdicts": pack_verdicts,
    "more_trials": _pack_trials,
    "summary": _pack_summary,
}
_DECODE: dict[str, Callable[[Any], Any]] = {
    "verdicts": unpack_verdicts,
    "more_trials": _unpack_trials,
    "summary": _unpack_summary,
    "content_digest": lambda s: s or "",
    "model_card": lambda s: s or "",  # NULL in a row added before the column had its default
    "trained_on_plugineval": lambda i: None if i is None else bool(i),
}

_TABLES = (
    "CREATE TABLE IF NOT EXISTS entries (\n    id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
    + ",\n".join(f"    {c} {decl}" for c, decl in COLUMNS.items())
    + "\n)",
    "CREATE TABLE IF NOT EXISTS bundles (\n"
    "    digest TEXT PRIMARY KEY,\n    created TEXT NOT NULL,\n    model TEXT NOT NULL,\n    data BLOB NOT NULL\n)",
)


LIGHT = [c for c in COLUMNS if c not in ("verdicts", "more_trials")]
"""The columns the leaderboard reads (everything but the verdicts)."""


def summary_version() -> int:
    from .summary import VERSION

    return VERSION


def summarize(entry: Entry) -> dict[str, Any]:
    from .summary import compute

    return compute(entry.verdicts, entry.more_trials)


def _decode(row_id: int, cols: list[str] | dict[str, str], values: Any) -> Entry:
    d = {c: _DECODE.get(c, _same)(v) for c, v in zip(cols, values, strict=True)}
    d.setdefault("verdicts", {})
    return Entry(**d, id=row_id)


class SqliteBoard(Board):
    def __init__(self, path: str | Path, budget: Budget | None = None) -> None:
        self.path = Path(path)
        self.budget = budget or Budget.from_env()
        self._init_lock = threading.Lock()
        self._ready = False
        self._cache: tuple[int, list[Entry]] | None = None  # (row count, entries)
        self._light: tuple[int, list[Entry]] | None = None  # (row count, rows without verdicts)
        self._name_keys: list[tuple[int, str, str, str, str]] = []

    @property
    def description(self) -> str:
        return f"SQLite {self.path}"

    def _connect(self) -> sqlite3.Connection:
        if not self._ready:
            with self._init_lock:
                if not self._ready:
                    self._create()
                    self._ready = True
        con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        con.execute("PRAGMA busy_timeout=30000")
        return con

    def _create(self) -> None:
        """The file in WAL mode with its table. Other boards (threads, processes) may be creating or
        writing the same file: switching to WAL needs the file to itself, and SQLite answers
        "database is locked" at once instead of waiting for the busy timeout, so that is retried
        (for up to 30 s) until this or another board has switched it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            deadline = time.monotonic() + 30
            while con.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                try:
                    con.execute("PRAGMA journal_mode=WAL")
                except sqlite3.OperationalError as err:
                    if "locked" not in str(err) or time.monotonic() > deadline:
                        raise
                    time.sleep(0.02)
            from .migrate import migrate  # it reads this module's layout

            migrate(con, self.path)
        finally:
            con.close()

    def _used(self, con: sqlite3.Connection) -> int:
        page = con.execute("PRAGMA page_size").fetchone()[0]
        pages = (
            con.execute("PRAGMA page_count").fetchone()[0]
            - con.execute("PRAGMA freelist_count").fetchone()[0]
        )
        return int(page * pages)

    def _check_identity(self, con: sqlite3.Connection, entry: Entry) -> None:
        """A submission's name: not reserved, not confusable with a row of another submitter."""
        from plugineval.names import markdown_text, reserved_reason

        why = reserved_reason(entry.model, entry.organisation)
        if why is not None:
            raise Refused(markdown_text(why))
        mine, who = _skeleton(entry.model), _who(entry.organisation)
        for rid, model, org, their_who, theirs in self._names(con):
            if their_who != who and theirs == mine:
                raise Refused(
                    f"The model name {markdown_text(entry.model)} is the same as, or looks like, "
                    f"{markdown_text(model)} (row #{rid}) of another submitter "
                    f"({markdown_text(org) or 'no organisation'}): choose a name of your own."
                )

    def _names(self, con: sqlite3.Connection) -> list[tuple[int, str, str, str, str]]:
        """(id, model, organisation, submitter, look-alike key) of every row: computed once per row
        (then only for new rows), so that checking a name costs a comparison per row."""
        (n, last) = con.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM entries").fetchone()
        with self._init_lock:
            known = self._name_keys if len(self._name_keys) <= n else []
            top = known[-1][0] if known else 0
            if len(known) == n and top == last:
                return known
            if (
                len(known) + con.execute("SELECT COUNT(*) FROM entries WHERE id > ?", (top,)).fetchone()[0]
                != n
            ):
                known, top = [], 0  # rows were deleted: read them all again
            new = con.execute("SELECT id, model, organisation FROM entries WHERE id > ? ORDER BY id", (top,))
            self._name_keys = known + [(i, m, o, _who(o), _skeleton(m)) for i, m, o in new]
            return self._name_keys

    def admissible(self, entry: Entry) -> None:
        if entry.kind != "baseline":
            con = self._connect()
            try:
                self._check_identity(con, entry)
            finally:
                con.close()

    def add(self, entry: Entry, *, imported: bool = False) -> bool:
        """Store the row: True when new, False when this submitter has it already (``entry.id`` is then
        the existing row's). A submission is refused (``Refused``) when its name is reserved or
        confusable with another submitter's row, or when the board is past its budget; ``imported``
        rows (a Hub snapshot's) are taken as they are."""
        if entry.id is None and (not imported or not entry.content_digest):
            # a new row (or an older snapshot's): the given hash is its content; key it by submitter
            entry.content_digest = entry.content_digest or entry.content_hash
            entry.content_hash = row_key(entry.kind, entry.content_hash, entry.organisation)
        if entry.summary is None or entry.summary.get("version") != summary_version():
            entry.summary = summarize(entry)
        values = tuple(_ENCODE.get(c, _same)(getattr(entry, c)) for c in COLUMNS)
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            old = con.execute(
                "SELECT id FROM entries WHERE content_hash = ?", (entry.content_hash,)
            ).fetchone()
            if old is not None:
                con.execute("COMMIT")
                entry.id = old[0]
                return False
            if not imported:
                size = sum(len(v) for v in values if isinstance(v, bytes | str))
                used = self._used(con)
                if used + size > self.budget.board_bytes:
                    raise _full("storage", used, size, self.budget.board_bytes)
                if entry.kind != "baseline":
                    self._check_identity(con, entry)
                dup = con.execute(
                    "SELECT id, organisation FROM entries WHERE content_digest = ? ORDER BY id",
                    (entry.content_digest,),
                ).fetchall()
                other = [rid for rid, org in dup if _who(org) != _who(entry.organisation)]
                entry.duplicate_of = other[0] if other else None
                values = tuple(_ENCODE.get(c, _same)(getattr(entry, c)) for c in COLUMNS)
            cur = con.execute(
                f"INSERT INTO entries ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})", values
            )
            con.execute("COMMIT")
            entry.id = cur.lastrowid
            return True
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def count(self) -> int:
        con = self._connect()
        try:
            n: int = con.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
            return n
        finally:
            con.close()

    def has(self, digest: str) -> bool:
        con = self._connect()
        try:
            return (
                con.execute("SELECT 1 FROM entries WHERE content_hash = ?", (digest,)).fetchone() is not None
            )
        finally:
            con.close()

    def entries(self) -> list[Entry]:
        con = self._connect()
        try:
            (n, last) = con.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM entries").fetchone()
            key = n * 1_000_003 + last
            if self._cache is not None and self._cache[0] == key:
                return list(self._cache[1])
            rows = con.execute(f"SELECT id, {', '.join(COLUMNS)} FROM entries ORDER BY id").fetchall()
        finally:
            con.close()
        out = [_decode(row[0], COLUMNS, row[1:]) for row in rows]
        self._cache = (key, out)
        return list(out)

    def rows(self) -> list[Entry]:
        """Every row with its summary but without its verdicts (``verdicts`` empty), oldest first. Rows
        are read once per process (only new ones after that); a row without a summary of the current
        version is summarized now, once, and the summary stored."""
        con = self._connect()
        try:
            (n, last) = con.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM entries").fetchone()
            key = n * 1_000_003 + last
            with self._init_lock:
                if self._light is not None and self._light[0] == key:
                    return list(self._light[1])
                known = {e.id: e for e in self._light[1]} if self._light is not None else {}
            ids = [r[0] for r in con.execute("SELECT id FROM entries ORDER BY id")]
            new = [i for i in ids if i not in known]
            for k in range(0, len(new), 500):
                chunk = new[k : k + 500]
                sql = (
                    f"SELECT id, {', '.join(LIGHT)} FROM entries WHERE id IN ({', '.join('?' * len(chunk))})"
                )
                for row in con.execute(sql, chunk).fetchall():
                    e = _decode(row[0], LIGHT, row[1:])
                    if e.summary is None or e.summary.get("version") != summary_version():
                        self._summarize(con, e)
                    known[e.id] = e
        finally:
            con.close()
        out = [known[i] for i in ids if i in known]
        with self._init_lock:
            self._light = (key, out)
        return list(out)

    def _summarize(self, con: sqlite3.Connection, e: Entry) -> None:
        v, more = con.execute("SELECT verdicts, more_trials FROM entries WHERE id = ?", (e.id,)).fetchone()
        e.verdicts, e.more_trials = unpack_verdicts(v), _unpack_trials(more)
        e.summary = summarize(e)
        con.execute("UPDATE entries SET summary = ? WHERE id = ?", (_pack_summary(e.summary), e.id))
        e.verdicts, e.more_trials = {}, []

    def entry(self, row_id: int) -> Entry | None:
        """One row with its verdicts."""
        con = self._connect()
        try:
            row = con.execute(
                f"SELECT id, {', '.join(COLUMNS)} FROM entries WHERE id = ?", (row_id,)
            ).fetchone()
        finally:
            con.close()
        return None if row is None else _decode(row[0], COLUMNS, row[1:])

    def add_bundle(self, digest: str, model: str, data: bytes) -> bool:
        """Keep a bundle; ``Refused`` past the bundle store's or the file's budget."""
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            if con.execute("SELECT 1 FROM bundles WHERE digest = ?", (digest,)).fetchone() is not None:
                con.execute("COMMIT")
                return False
            kept = con.execute("SELECT COALESCE(SUM(LENGTH(data)), 0) FROM bundles").fetchone()[0]
            if kept + len(data) > self.budget.bundle_bytes:
                raise _full("bundle store", kept, len(data), self.budget.bundle_bytes)
            used = self._used(con)
            if used + len(data) > self.budget.board_bytes:
                raise _full("storage", used, len(data), self.budget.board_bytes)
            con.execute(
                "INSERT INTO bundles (digest, created, model, data) VALUES (?, ?, ?, ?)",
                (digest, _now(), model, data),
            )
            con.execute("COMMIT")
            return True
        except BaseException:
            if con.in_transaction:
                con.execute("ROLLBACK")
            raise
        finally:
            con.close()

    def bundle(self, digest: str) -> bytes | None:
        con = self._connect()
        try:
            row = con.execute("SELECT data FROM bundles WHERE digest = ?", (digest,)).fetchone()
            return None if row is None else bytes(row[0])
        finally:
            con.close()

    def bundle_digests(self) -> list[str]:
        con = self._connect()
        try:
            return [r[0] for r in con.execute("SELECT digest FROM bundles ORDER BY rowid")]
        finally:
            con.close()


def __getattr__(name: str) -> Any:  # the Hub board and the configured board live in hubboard.py
    if name in ("HubBoard", "open_board"):
        from . import hubboard

        return getattr(hubboard, name)
    raise AttributeError(name)
