"""Leaderboard storage: one interface, two implementations.

``SqliteBoard`` (the default): WAL journal, one transaction per submission, idempotent by a content
hash of the predictions bytes and the model name (a UNIQUE column), so concurrent or repeated
submissions never lose or duplicate a row. ``HubBoard``: the same rows in a Hub dataset repo (a
JSONL snapshot uploaded with ``huggingface_hub`` after each new row), with a local SQLite cache.

Each row keeps the report's per-record verdicts (zlib-compressed JSON) so that any difficulty
mixture can be recomputed for every row without the dataset.
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

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
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
    def add(self, entry: Entry) -> bool:
        """Store the row; False when a row with the same content hash exists (nothing changes)."""

    @abstractmethod
    def entries(self) -> list[Entry]:
        """Every row, oldest first."""

    def count(self) -> int:
        return len(self.entries())

    def has(self, digest: str) -> bool:
        return any(e.content_hash == digest for e in self.entries())

    @property
    @abstractmethod
    def description(self) -> str: ...

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

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of a board file. 0: the unversioned layout before it (the first table, and
the columns later added to it on open); 1: every column of ``Entry``. Opening an older file migrates
it (``_migrate``); a newer one is refused."""

COLUMNS: dict[str, str] = {f.name: f.metadata["sql"] for f in fields(Entry)}
"""Column name → declaration, in ``Entry``'s order."""


def _same(v: Any) -> Any:
    return v


# how a value is stored and read back where the column's type is not the field's
_ENCODE: dict[str, Callable[[Any], Any]] = {"verdicts": pack_verdicts, "more_trials": _pack_trials}
_DECODE: dict[str, Callable[[Any], Any]] = {
    "verdicts": unpack_verdicts,
    "more_trials": _unpack_trials,
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


def _addable(decl: str) -> bool:
    """Whether ``ALTER TABLE … ADD COLUMN`` can add the column to existing rows."""
    d = decl.upper()
    return "UNIQUE" not in d and ("NOT NULL" not in d or "DEFAULT" in d)


def _migrate(con: sqlite3.Connection, path: Path) -> None:
    """Bring the file to ``SCHEMA_VERSION`` in one transaction (other boards may open it at once).

    Every version so far only adds columns: the tables are created where missing and each column of
    ``Entry`` that the file lacks is added with its declaration (its default fills the old rows)."""
    con.execute("BEGIN IMMEDIATE")
    try:
        version: int = con.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise RuntimeError(
                f"{path}: leaderboard schema version {version} is newer than this code's {SCHEMA_VERSION}"
            )
        have = {row[1] for row in con.execute("PRAGMA table_info(entries)")}
        if version < SCHEMA_VERSION or not have >= COLUMNS.keys():  # (a field added without a bump too)
            for ddl in _TABLES:
                con.execute(ddl)
            have = have or {row[1] for row in con.execute("PRAGMA table_info(entries)")}
            for col, decl in COLUMNS.items():
                if col not in have:
                    if not _addable(decl):
                        raise RuntimeError(f"{path}: cannot add column {col} {decl} to existing rows")
                    con.execute(f"ALTER TABLE entries ADD COLUMN {col} {decl}")
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


class SqliteBoard(Board):
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._init_lock = threading.Lock()
        self._ready = False
        self._cache: tuple[int, list[Entry]] | None = None  # (row count, entries)

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
            _migrate(con, self.path)
        finally:
            con.close()

    def add(self, entry: Entry) -> bool:
        con = self._connect()
        try:
            con.execute("BEGIN IMMEDIATE")
            cur = con.execute(
                f"INSERT OR IGNORE INTO entries ({', '.join(COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(COLUMNS))})",
                tuple(_ENCODE.get(c, _same)(getattr(entry, c)) for c in COLUMNS),
            )
            con.execute("COMMIT")
            return cur.rowcount == 1
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
            rows = con.execute(f"SELECT {', '.join(COLUMNS)} FROM entries ORDER BY id").fetchall()
        finally:
            con.close()
        out = [
            Entry(**{c: _DECODE.get(c, _same)(v) for c, v in zip(COLUMNS, row, strict=True)}) for row in rows
        ]
        self._cache = (key, out)
        return list(out)

    def add_bundle(self, digest: str, model: str, data: bytes) -> bool:
        con = self._connect()
        try:
            cur = con.execute(
                "INSERT OR IGNORE INTO bundles (digest, created, model, data) VALUES (?, ?, ?, ?)",
                (digest, datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S"), model, data),
            )
            return cur.rowcount == 1
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


class HubBoard(Board):
    """Rows in a Hub dataset repo (``leaderboard.jsonl``), mirrored in a local SQLite cache.

    On first use the snapshot is downloaded and imported; each new row is written locally in one
    transaction, then the whole snapshot is uploaded (serialised by a lock; a failed upload is
    retried with the next row and reported, and the local row is never lost).
    """

    FILENAME = "leaderboard.jsonl"

    def __init__(self, repo_id: str, cache: str | Path, token: str | None = None) -> None:
        self.repo_id = repo_id
        self.token = token
        self.local = SqliteBoard(cache)
        self._pulled = False
        self._lock = threading.Lock()
        self.last_error: str | None = None

    @property
    def description(self) -> str:
        return f"Hub dataset {self.repo_id} (cache {self.local.path})"

    def _pull(self) -> None:
        if self._pulled:
            return
        with self._lock:
            if self._pulled:
                return
            from huggingface_hub import hf_hub_download
            from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

            try:
                path = hf_hub_download(self.repo_id, self.FILENAME, repo_type="dataset", token=self.token)
            except (EntryNotFoundError, RepositoryNotFoundError):
                path = None
            if path is not None:
                for line in Path(path).read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        self.local.add(Entry.from_json(json.loads(line)))
            self._pulled = True

    def _push(self) -> None:
        from huggingface_hub import HfApi

        rows = "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in self.local.entries())
        HfApi(token=self.token).upload_file(
            path_or_fileobj=rows.encode("utf-8"),
            path_in_repo=self.FILENAME,
            repo_id=self.repo_id,
            repo_type="dataset",
            commit_message=f"leaderboard: {self.local.count()} rows",
        )

    def add(self, entry: Entry) -> bool:
        self._pull()
        added = self.local.add(entry)
        if added or self.last_error:
            with self._lock:
                for attempt in range(3):
                    try:
                        self._push()
                        self.last_error = None
                        break
                    except Exception as e:  # network trouble: the row stays in the cache
                        self.last_error = f"upload to {self.repo_id} failed: {e}"
                        time.sleep(0.5 * (attempt + 1))
        return added

    def entries(self) -> list[Entry]:
        self._pull()
        return self.local.entries()

    def count(self) -> int:
        self._pull()
        return self.local.count()

    def has(self, digest: str) -> bool:
        self._pull()
        return self.local.has(digest)

    def add_bundle(self, digest: str, model: str, data: bytes) -> bool:
        """Kept in the local cache and uploaded as ``bundles/<digest>.zip`` to the repo."""
        self._pull()
        added = self.local.add_bundle(digest, model, data)
        if added:
            from huggingface_hub import HfApi

            try:
                HfApi(token=self.token).upload_file(
                    path_or_fileobj=data,
                    path_in_repo=f"bundles/{digest}.zip",
                    repo_id=self.repo_id,
                    repo_type="dataset",
                    commit_message=f"bundle {digest[:12]} ({model})",
                )
            except Exception as e:  # the bundle stays in the cache; the row says where it came from
                self.last_error = f"upload of bundle {digest[:12]} to {self.repo_id} failed: {e}"
        return added

    def bundle(self, digest: str) -> bytes | None:
        self._pull()
        data = self.local.bundle(digest)
        if data is not None:
            return data
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

        try:
            path = hf_hub_download(
                self.repo_id, f"bundles/{digest}.zip", repo_type="dataset", token=self.token
            )
        except (EntryNotFoundError, RepositoryNotFoundError):
            return None
        return Path(path).read_bytes()

    def bundle_digests(self) -> list[str]:
        """The bundles the rows were scored from (the repo's rows name them), oldest first."""
        self._pull()
        seen = dict.fromkeys(e.bundle_hash for e in self.local.entries() if e.bundle_hash)
        return [*seen, *(d for d in self.local.bundle_digests() if d not in seen)]


def open_board(db: str | Path | None = None, hub_repo: str | None = None) -> Board:
    """The configured board: a Hub repo when ``hub_repo`` (or $PLUGINEVAL_SPACE_HUB_REPO) is set, else SQLite."""
    import os

    db = db or os.environ.get("PLUGINEVAL_SPACE_DB") or "space_data/leaderboard.sqlite"
    hub_repo = hub_repo or os.environ.get("PLUGINEVAL_SPACE_HUB_REPO")
    if hub_repo:
        return HubBoard(hub_repo, Path(db).with_suffix(".hubcache.sqlite"), token=os.environ.get("HF_TOKEN"))
    return SqliteBoard(db)
