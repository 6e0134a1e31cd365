"""A SQLite journal of candidate results: ``kill -9`` and a rerun with ``--resume`` lose and duplicate
nothing. Each candidate's result is a pure function of its key, so replaying the journal in the
build's order reproduces the same release files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any


class Journal:
    def __init__(self, path: Path, resume: bool, fingerprint: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        if not resume and path.exists():
            path.unlink()
        self.db = sqlite3.connect(str(path))
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (k TEXT PRIMARY KEY, v TEXT)")
        self.db.execute("CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        row = self.db.execute("SELECT v FROM meta WHERE k='fingerprint'").fetchone()
        if row is not None and row[0] != fingerprint:
            raise RuntimeError(
                f"{path} was written by a different build (config, catalog or grammars changed): "
                "rerun without --resume to start over"
            )
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('fingerprint', ?)", (fingerprint,))
        self.db.commit()
        self.hits = 0
        self._pending = 0

    def get(self, key: str) -> dict[str, Any] | None:
        row = self.db.execute("SELECT value FROM results WHERE key=?", (key,)).fetchone()
        if row is None:
            return None
        self.hits += 1
        value: dict[str, Any] = json.loads(row[0])
        return value

    def put(self, key: str, value: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO results VALUES (?, ?)", (key, json.dumps(value, ensure_ascii=False))
        )
        self._pending += 1
        if self._pending >= 25:
            self.flush()

    def flush(self) -> None:
        self.db.commit()
        self._pending = 0

    def close(self) -> None:
        self.flush()
        self.db.close()
