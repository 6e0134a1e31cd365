"""Opening an older board file: its tables and columns brought to ``store.SCHEMA_VERSION`` (every
version so far only adds columns; version 2 also re-keys rows by their submitter)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from .identity import _who, row_key
from .store import _TABLES, COLUMNS, SCHEMA_VERSION


def _addable(decl: str) -> bool:
    """Whether ``ALTER TABLE … ADD COLUMN`` can add the column to existing rows."""
    d = decl.upper()
    return "UNIQUE" not in d and ("NOT NULL" not in d or "DEFAULT" in d)


def migrate(con: sqlite3.Connection, path: Path) -> None:
    """Bring the file to ``store.SCHEMA_VERSION`` in one transaction (other boards may open it at once).

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
            if version < 2:
                _rekey(con)
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _rekey(con: sqlite3.Connection) -> None:
    """Version 2: each row of an older file keyed by its submitter. Its old key was the content
    digest; the maintainers' verified baselines move to the baseline key space (so a submission that
    took a baseline's old key no longer stops seeding); rows of the same content by different
    submitters get ``duplicate_of`` the first."""
    rows = con.execute(
        "SELECT id, content_hash, kind, status, organisation FROM entries WHERE content_digest = '' ORDER BY id"
    ).fetchall()
    first: dict[str, tuple[int, str]] = {}
    for rid, digest, kind, status, org in rows:
        baseline = kind == "baseline" and status == "verified"
        key = row_key("baseline" if baseline else "submission", digest, org)
        dup = first.get(digest)
        con.execute(
            "UPDATE entries SET content_digest = ?, content_hash = ?, duplicate_of = ? WHERE id = ?",
            (digest, key, dup[0] if dup and dup[1] != _who(org) else None, rid),
        )
        first.setdefault(digest, (rid, _who(org)))
