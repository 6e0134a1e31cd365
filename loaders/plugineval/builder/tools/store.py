"""The tools' local data store: one SQLite file built deterministically from a seed.

Each domain module under ``domains/`` declares ``STORE_VERSION``, ``SCHEMA_SQL`` and
``populate(conn, rng)``. The file is built on first use into the cache folder, under a name derived
from exactly what changes its content (seed, the domains' store versions, the domain modules and the
normalizers with their data that ``populate`` reads: ``store_inputs``), so a stale
store is never reused. Read-only tools share one read-only connection; a tool that changes state
gets a fresh in-memory copy for every verification (``Store.fresh_connection``).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path

from plugineval._resources import package_folder, shipped_files

from .runtime import load_domain_module, stable_rng

DEFAULT_SEED = 20260318


def cache_dir() -> Path:
    base = os.environ.get("PLUGINEVAL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "plugineval")
    p = Path(base) / "store"
    p.mkdir(parents=True, exist_ok=True)
    return p


def store_inputs(domain_ids: list[str]) -> list[tuple[str, Path]]:
    """The files whose content the store build reads, each with its name inside the package: each
    domain's ``<domain>.py`` and its ``<domain>_*.py`` helpers (the data and ``populate``),
    ``domains/_common.py`` (cities), ``runtime.py`` (``stable_rng``), and ``plugineval.normalize`` with its
    data (the places and holidays that ``populate`` looks up). Found through the imported packages, so a
    checkout and an installed wheel list the same files."""
    tools = package_folder("plugineval.builder.tools")
    names = ["runtime.py", "domains/_common.py"]
    for d in sorted(set(domain_ids)):
        names += [f"domains/{d}.py", *sorted(f"domains/{f.name}" for f in tools.glob(f"domains/{d}_*.py"))]
    files = [(f"plugineval/builder/tools/{n}", tools / n) for n in names]
    normalize = package_folder("plugineval.normalize")
    return files + [(f"plugineval/normalize/{rel}", f) for rel, f in shipped_files(normalize)]


def store_key(domain_ids: list[str], seed: int) -> str:
    """Derived from exactly what changes the store's content: the seed, the domains' store versions and
    the files the build reads (``store_inputs``)."""
    h = hashlib.sha256(f"seed={seed}".encode())
    for d in sorted(domain_ids):
        m = load_domain_module(d)
        h.update(f"|{d}|{m.STORE_VERSION}".encode())
    for name, f in store_inputs(domain_ids):
        if f.exists():
            data = f.read_bytes()
            h.update(f"|{name}|{len(data)}|".encode() + data)
    return h.hexdigest()[:16]


def build_store(path: Path, domain_ids: list[str], seed: int) -> None:
    """Write the store atomically: a half-built file is never left under the final name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        conn = sqlite3.connect(tmp)
        try:
            for d in sorted(domain_ids):
                m = load_domain_module(d)
                conn.executescript(m.SCHEMA_SQL)
                m.populate(conn, stable_rng(seed, d))
            conn.commit()
            conn.execute("VACUUM")
        finally:
            conn.close()
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


@dataclass(frozen=True)
class Store:
    path: Path

    @classmethod
    def open(cls, domain_ids: list[str], seed: int = DEFAULT_SEED, path: Path | None = None) -> Store:
        """The store for these domains and seed, built on first use."""
        p = path or cache_dir() / f"store-{store_key(domain_ids, seed)}.sqlite"
        if not p.exists():
            build_store(p, domain_ids, seed)
        return cls(p)

    def readonly_connection(self) -> sqlite3.Connection:
        conn = sqlite3.connect(f"file:{self.path}?mode=ro&immutable=1", uri=True, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        return conn

    def fresh_connection(self) -> sqlite3.Connection:
        """An in-memory copy: a stateful tool's writes never reach the shared file."""
        src = self.readonly_connection()
        mem = sqlite3.connect(":memory:", check_same_thread=False)
        try:
            src.backup(mem)
        finally:
            src.close()
        mem.row_factory = sqlite3.Row
        return mem
