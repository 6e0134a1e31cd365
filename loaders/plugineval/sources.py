"""Where records come from: a release folder, a Hub repo id, or a JSONL file of rows (docs/format.md §2).

The default is the local release folder when one was built (``dist/plugineval-zh``, or
``PLUGINEVAL_RECORDS``), else the project's Hub repo (``PLUGINEVAL_HUB_REPO``). ``resolve`` turns a
source into a file or a folder (a Hub repo through its ``snapshot`` at a revision) for both readers:
``load_records`` here and ``plugineval.load`` (``plugineval.hub``).
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


class LoadError(ValueError):
    """The source, config or split cannot be loaded; the message names what is wrong."""


class SourceNotFound(LoadError, FileNotFoundError):
    """Nothing where the source points: no such file or folder, or a Hub repo neither cached nor
    reachable (a ``FileNotFoundError`` too, as the readers' callers catch it)."""


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


#: the record configs a release folder holds: ``default`` (data/<split>/) and the opt-in ``calendar``
#: (data/calendar/<split>/), which no default score includes
RECORD_CONFIGS = ("default", "calendar")


def _rows_from_folder(folder: Path, split: str, config: str = "default") -> list[dict[str, Any]]:
    if config not in RECORD_CONFIGS:
        raise LoadError(f"unknown config {config!r}; a release folder holds {', '.join(RECORD_CONFIGS)}")
    sub = f"data/{split}" if config == "default" else f"data/{config}/{split}"
    files = sorted((folder / sub).glob("*.parquet"))
    if not files:
        raise FileNotFoundError(f"{folder}: no parquet files for split {split!r} under {sub}/")
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = []
    for f in files:  # ParquetFile, not read_table: that one goes through pyarrow.dataset and pandas (~0.5 s)
        rows += pq.ParquetFile(f).read().to_pylist()
    return rows


def is_repo_id(src: str) -> bool:
    return src.count("/") == 1 and not src.startswith((".", "/", "~")) and not Path(src).exists()


def snapshot(repo_id: str, revision: str | None) -> Path:
    """Download (or reuse offline) the dataset repo at ``revision``; the folder is keyed by it."""
    from huggingface_hub import snapshot_download
    from huggingface_hub.errors import LocalEntryNotFoundError, RevisionNotFoundError

    try:
        return Path(snapshot_download(repo_id, repo_type="dataset", revision=revision))
    except RevisionNotFoundError:
        raise LoadError(f"{repo_id}: no revision {revision!r} on the Hub (tags look like v1.0.0)") from None
    except LocalEntryNotFoundError as e:
        raise SourceNotFound(
            f"{repo_id}@{revision}: not in the local cache and the Hub cannot be reached "
            f"(HF_HUB_OFFLINE={os.environ.get('HF_HUB_OFFLINE', '0')}): {e}"
        ) from None


def resolve(source: str | Path | None, revision: str | None) -> Path:
    """The JSONL file or release folder ``source`` names (``None``: ``default_source()``): a local
    path as it is, a Hub dataset repo id as its snapshot at ``revision``."""
    src = str(source) if source is not None else default_source()
    p = Path(src).expanduser()
    if p.is_file() or p.is_dir():
        return p
    if is_repo_id(src):
        return snapshot(src, revision)
    raise SourceNotFound(
        f"records source {src!r} is neither a release folder, a JSONL file nor a Hub repo id"
    )


def load_rows(
    source: str | Path | None = None,
    split: str = "test",
    revision: str | None = None,
    config: str = "default",
) -> list[dict[str, Any]]:
    """The rows of ``split`` of ``config`` (a JSONL file: all its rows, config ``default`` only), untyped."""
    p = resolve(source, revision)
    if p.is_file():
        if config != "default":
            raise LoadError(f"{source}: a JSONL source has only the 'default' config, not {config!r}")
        return _rows_from_jsonl(p)
    return _rows_from_folder(p, split, config)


def load_records(
    source: str | Path | None = None,
    split: str = "test",
    revision: str | None = None,
    config: str = "default",
) -> list[Record]:
    """Typed records; a bad row raises SchemaError naming the record id and the field."""
    rows = load_rows(source, split, revision, config)
    with no_gc():  # thousands of nested, long-lived objects: the cyclic GC would re-walk them all
        memo: dict[Any, Any] = {}  # offered tools repeat across records: each text parses once
        out = [Record.from_row(r, memo) for r in rows]
    ids = [r.id for r in out]
    if len(ids) != len(set(ids)):
        dup = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise SchemaError(str(source), [f"duplicate record ids: {dup}"])
    return out
