"""Where records come from: a release folder, a Hub repo id, or a JSONL file of rows (docs/format.md §2).

The default is the local release folder when one was built (``dist/plugineval-zh``, or
``PLUGINEVAL_RECORDS``), else the project's Hub repo (``PLUGINEVAL_HUB_REPO``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .schema import Record, SchemaError

HUB_REPO = "plugineval/plugineval-zh"
LOCAL_RELEASE = Path("dist/plugineval-zh")


@contextlib.contextmanager
def no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many long-lived objects; afterwards they are
    frozen (moved out of the collector's generations: refcounting still frees them) so that turning
    the collector back on does not re-walk them all."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.freeze()
            gc.enable()


def default_source() -> str:
    env = os.environ.get("PLUGINEVAL_RECORDS")
    if env:
        return env
    if (LOCAL_RELEASE / "README.md").exists():
        return str(LOCAL_RELEASE)
    return os.environ.get("PLUGINEVAL_HUB_REPO", HUB_REPO)


def _rows_from_jsonl(path: Path) -> list[dict[str, Any]]:
    rows = []
    with path.open(encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise SchemaError(f"{path} line {ln}", [f"not valid JSON ({e.msg})"]) from None
    return rows


def _rows_from_folder(folder: Path, split: str, config: str = "default") -> list[dict[str, Any]]:
    files = sorted((folder / "data" / split).glob("*.parquet"))
    if not files:
        raise FileNotFoundError(f"{folder}: no parquet files for split {split!r} under data/{split}/")
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = []
    for f in files:  # ParquetFile, not read_table: that one goes through pyarrow.dataset and pandas (~0.5 s)
        rows += pq.ParquetFile(f).read().to_pylist()
    return rows


def snapshot(repo_id: str, revision: str | None) -> Path:
    from huggingface_hub import snapshot_download

    return Path(snapshot_download(repo_id, repo_type="dataset", revision=revision))


def load_rows(
    source: str | Path | None = None, split: str = "test", revision: str | None = None
) -> list[dict[str, Any]]:
    src = str(source) if source is not None else default_source()
    p = Path(src)
    if p.is_file():
        return _rows_from_jsonl(p)
    if p.is_dir():
        return _rows_from_folder(p, split)
    if src.count("/") == 1 and not src.startswith((".", "/")):
        return _rows_from_folder(snapshot(src, revision), split)
    raise FileNotFoundError(f"records source {src!r} is neither a file, a release folder nor a Hub repo id")


def load_records(
    source: str | Path | None = None, split: str = "test", revision: str | None = None
) -> list[Record]:
    """Typed records; a bad row raises SchemaError naming the record id and the field."""
    rows = load_rows(source, split, revision)
    with no_gc():  # thousands of nested, long-lived objects: the cyclic GC would re-walk them all
        memo: dict[Any, Any] = {}  # offered tools repeat across records: each text parses once
        out = [Record.from_row(r, memo) for r in rows]
    ids = [r.id for r in out]
    if len(ids) != len(set(ids)):
        dup = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise SchemaError(str(source), [f"duplicate record ids: {dup}"])
    return out
