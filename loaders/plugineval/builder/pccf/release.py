"""The release folder: parquet in Hub layout, partitioned by split / kind / difficulty, with the card's
YAML ``configs`` and ``dataset_info`` selecting rows by file globs (no row stored twice), the
``plugins`` config (one row per tool), and the build report. Same records -> byte-identical files."""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from plugineval.catalog import Catalog
from plugineval.schema import DIFFICULTIES, KINDS, SPLITS, Record

RECORD_SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("version", pa.string()),
        ("language", pa.string()),
        ("query", pa.string()),
        ("reference_time", pa.string()),
        ("domain", pa.string()),
        ("target_plugin", pa.string()),
        ("target_tools", pa.list_(pa.string())),
        ("kind", pa.string()),
        ("negative_scope", pa.string()),
        ("needs_tool", pa.bool_()),
        ("target_relevant", pa.bool_()),
        ("tools", pa.string()),
        ("tool_annotations", pa.string()),
        ("gold_calls", pa.string()),
        ("gold_alternatives", pa.string()),
        ("alternative_calls", pa.string()),
        ("difficulty", pa.string()),
        ("difficulty_basis", pa.string()),
        ("primary_scenario", pa.string()),
        ("aux_scenarios", pa.list_(pa.string())),
        ("source", pa.string()),
        ("verification", pa.string()),
        ("split", pa.string()),
    ]
)
PLUGIN_SCHEMA = pa.schema(
    [
        ("domain", pa.string()),
        ("domain_name", pa.string()),
        ("plugin", pa.string()),
        ("plugin_name", pa.string()),
        ("plugin_description", pa.string()),
        ("tool", pa.string()),
        ("tool_description", pa.string()),
        ("parameters", pa.string()),
        ("output", pa.string()),
        ("annotations", pa.string()),
        ("stateful", pa.bool_()),
        ("boundaries", pa.string()),
        ("scenarios", pa.string()),
    ]
)


def _features(schema: pa.Schema) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for f in schema:
        if pa.types.is_list(f.type):
            out.append({"name": f.name, "sequence": "string"})
        else:
            out.append({"name": f.name, "dtype": "bool" if pa.types.is_boolean(f.type) else "string"})
    return out


def _write(table: pa.Table, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(
        table, path, compression="zstd", compression_level=9, row_group_size=4096, use_dictionary=True
    )


def _json(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def plugin_rows(catalog: Catalog) -> list[dict[str, Any]]:
    rows = []
    for d in catalog.domains:
        for p in d.plugins:
            for t in p.tools:
                rows.append(
                    {
                        "domain": d.id,
                        "domain_name": d.name,
                        "plugin": p.id,
                        "plugin_name": p.name,
                        "plugin_description": p.description,
                        "tool": t.name,
                        "tool_description": t.description,
                        "parameters": _json(t.parameters),
                        "output": _json(t.output),
                        "annotations": _json(
                            {k: v.model_dump(exclude_defaults=True) for k, v in t.annotations.items()}
                        ),
                        "stateful": t.stateful,
                        "boundaries": _json(
                            [b.model_dump(exclude_none=True) for b in p.boundaries if t.name in b.tools]
                        ),
                        "scenarios": _json([s.model_dump(exclude_defaults=True) for s in p.scenarios]),
                    }
                )
    return rows


def write_release(
    out: Path,
    records: dict[str, list[Record]],
    catalog: Catalog,
    report: dict[str, Any],
    report_md: str,
    calendar: dict[str, list[Record]] | None = None,
) -> dict[str, Any]:
    """Write the folder afresh; returns the card's YAML metadata. ``README.md`` gets the card's front
    matter only: its body is rendered from the template by ``card.render_card``, which ``run_build``
    calls next."""
    if out.exists():
        for child in ("data", "README.md", "build_report.json", "build_report.md"):
            p = out / child
            if p.is_dir():
                shutil.rmtree(p)
            elif p.exists():
                p.unlink()
    out.mkdir(parents=True, exist_ok=True)
    files = _write_records(out, "data", records)
    cal_files = _write_records(out, "data/calendar", calendar or {})
    ptable = pa.Table.from_pylist(plugin_rows(catalog), schema=PLUGIN_SCHEMA)
    _write(ptable, out / "data/plugins/catalog.parquet")
    meta = card_metadata(files, ptable, cal_files)
    front = yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=1000)
    (out / "README.md").write_text(f"---\n{front}---\n\n", encoding="utf-8")
    (out / "build_report.json").write_text(
        json.dumps(report, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    (out / "build_report.md").write_text(report_md, encoding="utf-8")
    return meta


Files = dict[tuple[str, str, str], tuple[str, int, int]]


def _write_records(out: Path, base: str, records: dict[str, list[Record]]) -> Files:
    """``<base>/<split>/<kind>-<difficulty>.parquet``, rows sorted by id; (split, kind, difficulty) ->
    (path, rows, bytes)."""
    files: Files = {}
    for split in SPLITS:
        parts: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
        for r in sorted(records.get(split, []), key=lambda r: r.id):
            parts[r.kind, r.difficulty].append(r.to_row())
        for (kind, diff), rows in sorted(parts.items()):
            table = pa.Table.from_pylist(rows, schema=RECORD_SCHEMA)
            rel = f"{base}/{split}/{kind}-{diff}.parquet"
            _write(table, out / rel)
            files[split, kind, diff] = (rel, len(rows), table.nbytes)
    return files


def card_metadata(files: Files, plugins: pa.Table, calendar: Files | None = None) -> dict[str, Any]:
    def select(kinds: tuple[str, ...], diffs: tuple[str, ...]) -> dict[str, list[tuple[str, int, int]]]:
        out: dict[str, list[tuple[str, int, int]]] = {}
        for (split, kind, diff), v in files.items():
            if kind in kinds and diff in diffs:
                out.setdefault(split, []).append(v)
        return out

    configs: list[dict[str, Any]] = []
    infos: list[dict[str, Any]] = []
    spec = {
        "default": (KINDS, DIFFICULTIES, "data/{split}/*.parquet"),
        "positives": (("positive",), DIFFICULTIES, "data/{split}/positive-*.parquet"),
        "negatives": (
            KINDS[1:],
            DIFFICULTIES,
            ["data/{split}/neg_*.parquet", "data/{split}/underspecified-*.parquet"],
        ),
        "easy": (KINDS, ("easy",), "data/{split}/*-easy.parquet"),
        "medium": (KINDS, ("medium",), "data/{split}/*-medium.parquet"),
        "hard": (KINDS, ("hard",), "data/{split}/*-hard.parquet"),
    }
    total_examples = 0
    for name, (kinds, diffs, glob) in spec.items():
        sel = select(kinds, diffs)
        data_files = []
        splits_info = []
        for split in SPLITS:
            if split not in sel:
                continue
            path: str | list[str] = (
                [g.format(split=split) for g in glob]
                if isinstance(glob, list)
                else str(glob).format(split=split)
            )
            if isinstance(path, list):  # keep only globs that match a file
                path = [p for p in path if any(_match(p, f[0]) for f in sel[split])]
                path = path[0] if len(path) == 1 else path
            data_files.append({"split": split, "path": path})
            n = sum(f[1] for f in sel[split])
            splits_info.append({"name": split, "num_bytes": sum(f[2] for f in sel[split]), "num_examples": n})
            if name == "default":
                total_examples += n
        cfg: dict[str, Any] = {"config_name": name, "data_files": data_files}
        if name == "default":
            cfg["default"] = True
        configs.append(cfg)
        infos.append({"config_name": name, "features": _features(RECORD_SCHEMA), "splits": splits_info})
    if calendar:  # the opt-in calendar config: its own files, never in a default glob
        cal_files: list[dict[str, Any]] = []
        cal_splits: list[dict[str, Any]] = []
        for split in SPLITS:
            got = [v for (sp, _, _), v in calendar.items() if sp == split]
            if got:
                cal_files.append({"split": split, "path": f"data/calendar/{split}/*.parquet"})
                cal_splits.append(
                    {
                        "name": split,
                        "num_bytes": sum(f[2] for f in got),
                        "num_examples": sum(f[1] for f in got),
                    }
                )
        configs.append({"config_name": "calendar", "data_files": cal_files})
        infos.append({"config_name": "calendar", "features": _features(RECORD_SCHEMA), "splits": cal_splits})
    configs.append(
        {"config_name": "plugins", "data_files": [{"split": "train", "path": "data/plugins/*.parquet"}]}
    )
    infos.append(
        {
            "config_name": "plugins",
            "features": _features(PLUGIN_SCHEMA),
            "splits": [{"name": "train", "num_bytes": plugins.nbytes, "num_examples": plugins.num_rows}],
        }
    )
    size = "10K<n<100K" if total_examples >= 10_000 else "1K<n<10K" if total_examples >= 1000 else "n<1K"
    return {
        "license": "apache-2.0",
        "language": ["zh"],
        "pretty_name": "PluginEval",
        "task_categories": ["text-generation"],
        "tags": ["function-calling", "tool-use", "benchmark", "chinese", "mcp"],
        "size_categories": [size],
        "configs": configs,
        "dataset_info": infos,
    }


def _match(glob: str, path: str) -> bool:
    import fnmatch

    return fnmatch.fnmatch(path, glob)
