"""The dataset release, loaded lazily on first use and refreshed on a TTL (no I/O at import)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any

from plugineval.schema import SPLITS, Record

# the schema's splits, the test split first: the one the Space serves first and keeps loaded
TEST_FIRST = tuple(reversed(SPLITS))


@dataclass
class _Loaded:
    records: list[Record]
    by_id: dict[str, Record]
    at: float


@dataclass
class Release:
    """Records of a release folder, a Hub dataset repo id or a JSONL file (``plugineval.sources``).

    ``source=None`` means ``plugineval.sources.default_source()``. A split is read the first time
    a request needs it and again once ``ttl`` seconds have passed; a failed refresh keeps serving
    the previous records and says why in ``last_error``.
    """

    source: str | None = None
    revision: str | None = None
    ttl: float = 3600.0
    _splits: dict[str, _Loaded] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    last_error: str | None = None
    loads: int = 0

    def records(self, split: str = "test") -> list[Record]:
        if split not in TEST_FIRST:
            raise ValueError(f"unknown split {split!r}; choose one of {', '.join(TEST_FIRST)}")
        cur = self._splits.get(split)
        if cur is not None and time.monotonic() - cur.at < self.ttl:
            return cur.records
        with self._lock:
            cur = self._splits.get(split)
            if cur is not None and time.monotonic() - cur.at < self.ttl:
                return cur.records
            from plugineval.sources import load_records

            try:
                recs = load_records(self.source, split, self.revision)
            except FileNotFoundError as e:
                if "no parquet files for split" in str(e):
                    recs = []  # a release without this split
                elif cur is not None:
                    self.last_error = str(e)
                    cur.at = time.monotonic()
                    return cur.records
                else:
                    raise
            except Exception as e:
                if cur is None:
                    raise
                self.last_error = f"refresh failed, serving the previous load: {e}"
                cur.at = time.monotonic()
                return cur.records
            self.loads += 1
            self.last_error = None
            self._splits[split] = _Loaded(recs, {r.id: r for r in recs}, time.monotonic())
            return recs

    def find(self, record_id: str) -> Record | None:
        """A record of any split by id."""
        for split in TEST_FIRST:
            self.records(split)
            hit = self._splits[split].by_id.get(record_id)
            if hit is not None:
                return hit
        return None

    def version(self, split: str = "test") -> str:
        return ",".join(sorted({r.version for r in self.records(split)})) or "unknown"

    def public_name(self) -> str:
        """Where the records come from, as the page may say it: a Hub dataset's repo id, or what kind
        of local source it is (never a path on the server)."""
        import re
        from pathlib import Path

        src = str(self.describe()["source"])
        try:
            local = Path(src).exists() or Path(src).is_absolute()
        except (OSError, ValueError):
            local = True
        if not local and re.fullmatch(r"[A-Za-z0-9][\w.-]{0,95}/[A-Za-z0-9][\w.-]{0,95}", src):
            return f"Hub dataset `{src}`"
        what = "a local JSONL file" if src.endswith((".jsonl", ".json")) else "a local release folder"
        if self._splits:
            try:
                return f"{what} (dataset version {self.version(sorted(self._splits)[0])})"
            except Exception:  # the version is a courtesy: the source itself stays unnamed
                pass
        return what

    def describe(self) -> dict[str, Any]:
        from plugineval.sources import default_source

        return {
            "source": self.source or default_source(),
            "revision": self.revision,
            "ttl_seconds": self.ttl,
            "loaded_splits": sorted(self._splits),
            "last_error": self.last_error,
        }
