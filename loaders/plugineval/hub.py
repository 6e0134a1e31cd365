"""``plugineval.load``: one split of one config as a ``datasets.Dataset``, from a release folder, a
Hub dataset repo at a pinned revision, or a JSONL file of rows.

A Hub repo is first snapshotted at the revision (``snapshot_download``), then the folder is loaded
with the data files that the card's YAML ``configs`` name: a cached ``load_dataset(repo, revision=…)``
ignores the revision offline, a snapshot keyed by revision does not."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .sources import LoadError, _rows_from_jsonl, default_source, resolve

if TYPE_CHECKING:
    from datasets import Dataset

__all__ = ["LoadError", "card_metadata", "config_patterns", "data_files", "load"]


def card_metadata(folder: Path) -> dict[str, Any]:
    """The YAML front matter of ``folder/README.md``."""
    import yaml

    readme = folder / "README.md"
    if not readme.exists():
        raise LoadError(f"{folder}: no README.md (not a release folder)")
    text = readme.read_text(encoding="utf-8")
    if not text.startswith("---\n") or "\n---\n" not in text[3:]:
        raise LoadError(f"{readme}: no YAML front matter")
    meta = yaml.safe_load(text[4 : text.index("\n---\n", 3) + 1])
    if not isinstance(meta, dict) or not isinstance(meta.get("configs"), list):
        raise LoadError(f"{readme}: the front matter has no 'configs' list")
    return meta


def config_patterns(meta: dict[str, Any], config: str, split: str, where: str = "") -> list[str]:
    configs = {str(c.get("config_name")): c for c in meta["configs"] if isinstance(c, dict)}
    if config not in configs:
        raise LoadError(f"{where}unknown config {config!r}; the card has {', '.join(sorted(configs))}")
    entries = configs[config].get("data_files", [])
    splits = {str(e["split"]): e["path"] for e in entries if isinstance(e, dict) and "split" in e}
    if split not in splits:
        raise LoadError(
            f"{where}config {config!r} has no split {split!r}; it has {', '.join(splits) or 'none'}"
        )
    path = splits[split]
    return [str(p) for p in path] if isinstance(path, list) else [str(path)]


def data_files(folder: Path, config: str = "default", split: str = "test") -> list[Path]:
    """The files of ``config``/``split`` in a release folder, as its card's YAML selects them."""
    patterns = config_patterns(card_metadata(folder), config, split, f"{folder}: ")
    files: set[Path] = set()
    for pat in patterns:
        matched = sorted(folder.glob(pat))
        if not matched:
            raise LoadError(f"{folder}: config {config!r} split {split!r}: {pat!r} matches no file")
        files.update(matched)
    return sorted(files)


def load(
    split: str = "test",
    config: str = "default",
    revision: str | None = "v1.0.0",
    source: str | Path | None = None,
) -> Dataset:
    """One split of one config as a ``datasets.Dataset``; ``Record.from_row`` types a row.

    ``source`` follows ``plugineval evaluate``: a release folder, a Hub dataset repo id (snapshotted at
    ``revision``: a tag ``vX.Y.Z``, a branch or a commit) or a JSONL file of rows (config ``default``
    only); the default is ``sources.default_source()``. ``revision`` is ignored for local sources."""
    src = str(source) if source is not None else default_source()
    p = resolve(src, revision)  # the one resolver ``load_records`` uses too
    if p.is_file():
        if config != "default":
            raise LoadError(f"{src}: a JSONL source has only the 'default' config, not {config!r}")
        from datasets import Dataset

        rows = [r for r in _rows_from_jsonl(p) if r.get("split", split) == split]
        if not rows:
            raise LoadError(f"{src}: no rows of split {split!r}")
        return Dataset.from_list(rows)
    files = data_files(p, config, split)
    from datasets import load_dataset

    ds = load_dataset("parquet", data_files={split: [str(f) for f in files]}, split=split)
    return ds
