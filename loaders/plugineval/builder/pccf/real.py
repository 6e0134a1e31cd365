"""Real queries for Stage I: HammerBench's Chinese single-turn samples, where a catalog plugin covers them.

The decisions are data (``loaders/plugineval/builder/real/hammerbench_map.yaml``): each HammerBench
function is mapped to a catalog plugin and tool where the semantics match, or dropped with a reason;
row entries re-map, mark as ``underspecified`` or drop single rows. The project keeps a copy of the
kept queries and a manifest of every source row's function
(``loaders/plugineval/builder/real/hammerbench_zh/``), so a build never reads outside the project.
HammerBench's gold call travels along for the report only: it never becomes our gold — Stage I's
text-only generators propose the calls and execution verifies them.

Each kept query gets a deterministic ``reference_time`` (no clock): a named date (with its year, or
a month and day) puts the reference shortly before it (forward-looking tools) or after it (history
tools); otherwise a fixed base shifted by a hash of the query. The choice is checked: every date the
query names must resolve inside the mapped tool's window (max_days_ahead / max_days_back / no_past).
"""

from __future__ import annotations

import collections
import hashlib
import json
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

from plugineval.baselines.textscan import find_times
from plugineval.catalog import Catalog
from plugineval.schema import Plugin

REAL_DIR = Path(__file__).resolve().parents[1] / "real"
MAP_PATH = REAL_DIR / "hammerbench_map.yaml"
DATA_DIR = REAL_DIR / "hammerbench_zh"
QUERIES = "queries.jsonl"
MANIFEST = "manifest.json"
LICENSE = "Apache-2.0"
FILES = ("ST_Perfect", "ST_External", "ST_Imperfect", "ir_ST_Perfect", "ir_ST_External", "ir_ST_Imperfect")
CANDIDATE_FILES = ("ST_Perfect", "ST_External")  # ST_Imperfect enters only through a `rows` entry
BASE_REFERENCE = datetime.fromisoformat("2025-06-18T10:00:00+08:00")
DATE_KINDS = frozenset({"date", "datetime", "date_range", "datetime_range"})
SHORTLY = 7  # a named date lies 1..7 days from the reference time (within the tool's window)
NO_REFERENCE = "no_sensible_reference_time"


@dataclass(frozen=True)
class RealQuery:
    query: str
    plugin: str
    scenario: str
    kind: str  # "trigger" | "underspecified"
    reference_time: str
    origin: str  # "HammerBench ST_Perfect #12"
    license: str
    hammer_call: dict[str, Any]  # their gold: for the report only, never ours


@dataclass(frozen=True)
class Decision:
    kept: bool
    reason: str | None = None  # the drop reason id
    plugin: str | None = None
    tool: str | None = None
    scenario: str | None = None
    kind: str | None = None


class MappingError(ValueError):
    """The mapping file is inconsistent with itself, the source rows or the catalog."""


# --- the mapping ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mapping:
    reasons: dict[str, str]
    functions: dict[str, dict[str, Any]]
    rows: dict[tuple[str, int], dict[str, Any]]


def _scenario_for(plugin: Plugin, tool: str, kind: str, missing: list[str] | None, name: str | None) -> str:
    for s in plugin.scenarios:
        if s.kind != kind or tool not in s.tools or (name is not None and s.id != name):
            continue
        if kind == "underspecified" and sorted(s.missing) != sorted(missing or []):
            continue
        return s.id
    want = f"scenario {name!r}" if name else f"a {kind} scenario"
    extra = f" missing exactly {sorted(missing or [])}" if kind == "underspecified" else ""
    raise MappingError(f"plugin {plugin.id!r} has no {want} with tool {tool!r}{extra}")


def load_mapping(catalog: Catalog, path: Path = MAP_PATH) -> Mapping:
    """Read and check the mapping file: reasons are declared, plugins, tools and scenarios exist."""
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise MappingError(f"{path}: cannot read the mapping: {e}") from e
    if not isinstance(raw, dict) or not {"reasons", "functions", "rows"} <= raw.keys():
        raise MappingError(f"{path}: needs the keys reasons, functions and rows")
    reasons = {str(k): str(v) for k, v in raw["reasons"].items()}
    errors: list[str] = []

    def check(where: str, e: dict[str, Any], kind: str) -> None:
        if "dropped" in e:
            if e["dropped"] not in reasons:
                errors.append(f"{where}: reason {e['dropped']!r} is not declared under reasons")
            return
        try:
            plugin = catalog.plugin(str(e.get("plugin")))
            if e.get("tool") not in plugin.tool_names:
                raise MappingError(f"plugin {plugin.id!r} has no tool {e.get('tool')!r}")
            _scenario_for(plugin, e["tool"], kind, e.get("missing"), e.get("scenario"))
        except (KeyError, MappingError) as err:
            errors.append(f"{where}: {err}")

    functions: dict[str, dict[str, Any]] = {}
    for name, entry in (raw["functions"] or {}).items():
        check(f"function {name}", entry, "trigger")
        functions[str(name)] = dict(entry)
    rows: dict[tuple[str, int], dict[str, Any]] = {}
    for row in raw["rows"] or []:
        key = (str(row.get("file")), int(row.get("index", -1)))
        if key[0] not in FILES or key[1] < 0:
            errors.append(f"row {key}: unknown file or index")
            continue
        if key in rows:
            errors.append(f"row {key}: listed twice")
        kind = str(row.get("kind", "trigger"))
        if kind not in ("trigger", "underspecified"):
            errors.append(f"row {key}: kind must be trigger or underspecified, not {kind!r}")
        if not row.get("why"):
            errors.append(f"row {key}: says no why")
        if "dropped" in row and row["dropped"] not in reasons:
            errors.append(f"row {key}: reason {row['dropped']!r} is not declared under reasons")
        rows[key] = dict(row)
    # row entries without plugin/tool inherit the function's: checked when the rows are decided
    if errors:
        raise MappingError(f"{path}:\n  " + "\n  ".join(errors))
    return Mapping(reasons, functions, rows)


def decide(mapping: Mapping, catalog: Catalog, file: str, index: int, function: str) -> Decision:
    """One source row's fate (see the decision order in the mapping file)."""
    if file.startswith("ir_"):
        return Decision(False, "ir_duplicate")
    fn = mapping.functions.get(function)
    if fn is None:
        raise MappingError(f"function {function!r} ({file} #{index}) has no entry in the mapping")
    row = mapping.rows.get((file, index))
    if row is not None and "dropped" in row:
        return Decision(False, str(row["dropped"]))
    if row is None and "dropped" in fn:
        return Decision(False, str(fn["dropped"]))
    if row is None and file not in CANDIDATE_FILES:
        return Decision(False, "imperfect_missing_mismatch")
    e = {**{k: v for k, v in fn.items() if k in ("plugin", "tool", "scenario")}, **(row or {})}
    if "plugin" not in e:
        raise MappingError(
            f"row {file} #{index}: function {function} is dropped; the row must name plugin and tool"
        )
    remapped = row is not None and row.get("plugin", fn.get("plugin")) != fn.get("plugin")
    if remapped and row is not None and "scenario" not in row:
        e.pop("scenario", None)  # the function's scenario belongs to the function's plugin
    kind = str(e.get("kind", "trigger"))
    if kind == "underspecified":
        e.pop("scenario", None)
    plugin = catalog.plugin(str(e["plugin"]))
    scenario = _scenario_for(plugin, str(e["tool"]), kind, e.get("missing"), e.get("scenario"))
    if kind == "underspecified":
        tool = catalog.tool(str(e["tool"]))
        if sorted(tool.required) != sorted(e.get("missing") or []):
            raise MappingError(
                f"row {file} #{index}: an underspecified real query must miss every required argument of "
                f"{tool.name} ({sorted(tool.required)}), so that its would-be call has no arguments"
            )
    return Decision(True, None, plugin.id, str(e["tool"]), scenario, kind)


# --- reference times -----------------------------------------------------------------------------
def tool_window(plugin: Plugin, tool: str) -> tuple[int | None, int | None]:
    """(lo, hi): days relative to the reference date a date argument of this tool may take."""
    lo: int | None = None
    hi: int | None = None
    for b in plugin.boundaries:
        if tool not in b.tools:
            continue
        if b.kind == "max_days_ahead" and b.days is not None:
            hi = b.days if hi is None else min(hi, b.days)
        elif b.kind == "max_days_back" and b.days is not None:
            lo = -b.days if lo is None else max(lo, -b.days)
        elif b.kind == "no_past":
            lo = 0 if lo is None else max(lo, 0)
    return lo, hi


def _day(p: Any) -> date:
    return p.date() if isinstance(p, datetime) else p  # type: ignore[no-any-return]


_ANCHOR = re.compile(r"[0-9０-９]{4}年|月[0-9零一二两三四五六七八九十]+[日号]?")


def named_dates(query: str, reference_time: str) -> list[tuple[str, date, bool]]:
    """(surface, resolved date, anchor?) for every date-valued expression in the query; an anchor
    names its month and day (or year) rather than only a relative offset."""
    out = []
    for m in find_times(query, reference_time):
        v = m.value
        if v.kind not in DATE_KINDS or v.start is None:
            continue
        anchor = bool(_ANCHOR.search(m.text))
        for p in sorted({_day(v.start), _day(v.end or v.start)}):
            out.append((m.text, p, anchor))
    return out


def dates_in_window(query: str, reference_time: str, window: tuple[int | None, int | None]) -> bool:
    lo, hi = window
    ref = datetime.fromisoformat(reference_time).date()
    for _, d, _ in named_dates(query, reference_time):
        delta = (d - ref).days
        if (lo is not None and delta < lo) or (hi is not None and delta > hi):
            return False
    return True


def _hash(query: str) -> int:
    return int.from_bytes(hashlib.sha256(query.encode("utf-8")).digest()[:8], "big")


def _at(day: date, h: int) -> str:
    hour, minute = 8 + (h >> 8) % 13, 15 * ((h >> 16) % 4)
    dt = datetime(day.year, day.month, day.day, hour, minute, tzinfo=BASE_REFERENCE.tzinfo)
    return dt.isoformat()


def reference_time_for(query: str, plugin: Plugin, tool: str) -> str | None:
    """A deterministic reference time that makes the query's dates sensible for this tool, or None."""
    h = _hash(query)
    window = tool_window(plugin, tool)
    lo, hi = window
    anchors = sorted({d for _, d, anchor in named_dates(query, BASE_REFERENCE.isoformat()) if anchor})
    candidates: list[date] = []
    if anchors:
        history = lo is not None and lo < 0 and (hi is None or hi <= 0)  # a tool that looks back
        reach = min(SHORTLY, -lo if history and lo is not None else (hi if hi is not None else SHORTLY))
        ks = [1 + (h + i) % reach for i in range(reach)] if reach > 0 else []
        ks.append(0)
        for k in ks:
            candidates.append(anchors[0] + timedelta(days=k) if history else anchors[-1] - timedelta(days=k))
    start = BASE_REFERENCE.date() + timedelta(days=h % 365)  # relative expressions only, or a fallback
    candidates += [start + timedelta(days=i) for i in range(14)]
    for day in candidates:
        ref = _at(day, h)
        if dates_in_window(query, ref, window):
            return ref
    return None


# --- loading -------------------------------------------------------------------------------------
def _read_data(data_dir: Path) -> tuple[dict[str, list[str]], dict[tuple[str, int], dict[str, Any]]]:
    try:
        manifest = json.loads((data_dir / MANIFEST).read_text(encoding="utf-8"))
        lines = (data_dir / QUERIES).read_text(encoding="utf-8").splitlines()
    except (OSError, json.JSONDecodeError) as e:
        raise MappingError(f"{data_dir}: cannot read the HammerBench copy: {e}") from e
    rows = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            r = json.loads(line)
            rows[(str(r["file"]), int(r["index"]))] = r
        except (json.JSONDecodeError, KeyError, ValueError) as e:
            raise MappingError(f"{data_dir / QUERIES}:{n}: bad row: {e}") from e
    return manifest, rows


EXTERNAL_KNOWLEDGE = "external_knowledge"
_EXTERNAL = re.compile(r"^EK[:：]|\nquery[:：]")


def load_real_candidates(
    catalog: Catalog, map_path: Path = MAP_PATH, data_dir: Path = DATA_DIR
) -> tuple[list[RealQuery], collections.Counter[str]]:
    """The kept real queries (sorted) and the dropped rows counted by reason."""
    mapping = load_mapping(catalog, map_path)
    manifest, rows = _read_data(data_dir)
    kept: list[RealQuery] = []
    dropped: collections.Counter[str] = collections.Counter()
    for file in FILES:
        for index, function in enumerate(manifest.get(file, [])):
            d = decide(mapping, catalog, file, index, function)
            if not d.kept:
                dropped[str(d.reason)] += 1
                continue
            row = rows.get((file, index))
            if row is None:
                raise MappingError(f"{file} #{index} is kept by the mapping but missing from {QUERIES}")
            if _EXTERNAL.search(row["query"]):
                # the upstream's "EK:…\nquery:…" rows: a request about a message the record does not
                # carry (小李微信里提到的地点), with the generator's scaffolding in its text
                dropped[EXTERNAL_KNOWLEDGE] += 1
                continue
            assert d.plugin and d.tool and d.scenario and d.kind
            ref = reference_time_for(row["query"], catalog.plugin(d.plugin), d.tool)
            if ref is None:
                dropped[NO_REFERENCE] += 1
                continue
            call = {"name": row["function"], "arguments": row["arguments"]}
            origin = f"HammerBench {file} #{index}"
            kept.append(RealQuery(row["query"], d.plugin, d.scenario, d.kind, ref, origin, LICENSE, call))
    order = {f: i for i, f in enumerate(FILES)}
    kept.sort(key=lambda q: (order[q.origin.split()[1]], int(q.origin.rsplit("#", 1)[1])))
    return kept, dropped


# --- copying from the HammerBench snapshot (run once; the release reads only the copy) ------------
def extract(src_dir: Path, catalog: Catalog, out_dir: Path = DATA_DIR, map_path: Path = MAP_PATH) -> int:
    """Write the manifest (every row's function) and the kept rows of the source files; returns the
    number of kept rows."""
    mapping = load_mapping(catalog, map_path)
    manifest: dict[str, list[str]] = {}
    kept: list[dict[str, Any]] = []
    for file in FILES:
        data = json.loads((src_dir / "single-turn" / f"{file}.json").read_text(encoding="utf-8"))
        manifest[file] = []
        for index, sample in enumerate(data):
            user = next(m for m in sample["messages"] if m["role"] == "user")
            gold = next(m for m in sample["messages"] if m["role"] == "function call")["content"]
            manifest[file].append(gold["name"])
            if decide(mapping, catalog, file, index, gold["name"]).kept:
                kept.append(
                    {
                        "file": file,
                        "index": index,
                        "query": user["content"],
                        "function": gold["name"],
                        "arguments": gold["arguments"],
                    }
                )
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MANIFEST).write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
    )
    body = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in kept)
    (out_dir / QUERIES).write_text(body, encoding="utf-8")
    return len(kept)


if __name__ == "__main__":  # python -m plugineval.builder.pccf.real SRC_DIR
    import sys

    from plugineval.catalog import load_catalog

    n = extract(Path(sys.argv[1]), load_catalog())
    print(f"kept {n} rows -> {DATA_DIR}")
