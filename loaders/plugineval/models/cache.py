"""The disk cache of completions: a SQLite file, keyed by exactly what changes the answer.

``cache_key(provider, body)`` hashes the request body as sent — the endpoint's model name, the
messages (the prompt file's text included), tools, tool_choice, response_format and every sampling
parameter (temperature, max_tokens, seed, …) — and the provider. The API key, the base URL, time-outs,
retries and concurrency are not in it: they do not change the answer. A cached value is the
completion's JSON body; only completions the role accepted are stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

CACHE_FORMAT = "plugineval-models-cache/1"  # the layout of a cached value, not of a prompt


def cache_key(provider: str, body: dict[str, Any]) -> str:
    blob = json.dumps([CACHE_FORMAT, provider, body], ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def default_cache_dir() -> Path:
    base = os.environ.get("PLUGINEVAL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "plugineval")
    return Path(base)


class DiskCache:
    """Completions by key. Thread-safe; commits every 64 writes and on ``close`` (a crash loses at most
    the last answers, which are asked again). One file may be shared by several clients."""

    TABLE = "completions"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(self.path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # no fsync per answer on the event loop
        self._db.execute(
            f"CREATE TABLE IF NOT EXISTS {self.TABLE} (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
        )
        self._db.commit()
        self._pending = 0
        self._closed = False

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute(f"SELECT value FROM {self.TABLE} WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute(f"INSERT OR REPLACE INTO {self.TABLE} VALUES (?, ?)", (key, value))
            self._pending += 1
            if self._pending >= 64:
                self._db.commit()
                self._pending = 0

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute(f"SELECT COUNT(*) FROM {self.TABLE}").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._db.commit()
            self._db.close()
