"""The plugin catalog: YAML data validated by the schema at load, with cross-reference checks.

An invalid catalog file fails loudly with the file and the field; nothing is skipped with a warning.
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..schema import NEGATIVE_KINDS, Boundary, Domain, Plugin, Scenario, SchemaError, ToolSpec
from ..schema._base import validate_or_raise
from ..schema.disclosure import AMBIGUOUS_DAYS, DAY_KINDS, stated_facts, visible_text

DATA_DIR = Path(__file__).parent / "data"
MIN_TRIGGERS = 3

__all__ = ["DATA_DIR", "Catalog", "load_catalog"]


@dataclass(frozen=True)
class Catalog:
    domains: tuple[Domain, ...]
    source: str = ""
    _plugins: dict[str, Plugin] = field(default_factory=dict, repr=False, compare=False)
    _tools: dict[str, ToolSpec] = field(default_factory=dict, repr=False, compare=False)
    _plugin_of_tool: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    _domain_of_plugin: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        for d in self.domains:
            for p in d.plugins:
                self._plugins[p.id] = p
                self._domain_of_plugin[p.id] = d.id
                for t in p.tools:
                    self._tools[t.name] = t
                    self._plugin_of_tool[t.name] = p.id

    # --- lookups -------------------------------------------------------------------------------
    @property
    def plugins(self) -> list[Plugin]:
        return list(self._plugins.values())

    @property
    def tools(self) -> list[ToolSpec]:
        return list(self._tools.values())

    def domain(self, domain_id: str) -> Domain:
        for d in self.domains:
            if d.id == domain_id:
                return d
        raise KeyError(f"no domain {domain_id!r}; known: {', '.join(x.id for x in self.domains)}")

    def plugin(self, plugin_id: str) -> Plugin:
        try:
            return self._plugins[plugin_id]
        except KeyError:
            raise KeyError(f"no plugin {plugin_id!r}") from None

    def tool(self, name: str) -> ToolSpec:
        try:
            return self._tools[name]
        except KeyError:
            raise KeyError(f"no tool {name!r}") from None

    def plugin_of_tool(self, name: str) -> Plugin:
        return self._plugins[self._plugin_of_tool[name]]

    def domain_of_plugin(self, plugin_id: str) -> str:
        return self._domain_of_plugin[plugin_id]

    def iter_scenarios(self) -> Iterator[tuple[Plugin, Scenario]]:
        for p in self.plugins:
            for s in p.scenarios:
                yield p, s

    def scenario_kinds(self) -> dict[tuple[str, str], str]:
        """(plugin id, scenario id) -> the scenario's kind."""
        return {(p.id, s.id): s.kind for p, s in self.iter_scenarios()}

    def iter_boundaries(self) -> Iterator[tuple[Plugin, Boundary]]:
        for p in self.plugins:
            for b in p.boundaries:
                yield p, b

    # --- summaries -----------------------------------------------------------------------------
    def stats(self) -> dict[str, Any]:
        kinds = Counter(s.kind for _, s in self.iter_scenarios())
        return {
            "domains": len(self.domains),
            "plugins": len(self._plugins),
            "tools": len(self._tools),
            "boundaries": sum(len(p.boundaries) for p in self.plugins),
            "scenarios": dict(sorted(kinds.items())),
            "scenarios_total": sum(kinds.values()),
            "per_domain": {
                d.id: {
                    "name": d.name,
                    "plugins": len(d.plugins),
                    "tools": sum(len(p.tools) for p in d.plugins),
                }
                for d in self.domains
            },
            "domain_ids": [d.id for d in self.domains],
            "plugin_ids": list(self._plugins),
            "tool_names": list(self._tools),
        }


def _load_file(path: Path) -> Domain:
    try:
        raw = yaml.load(
            path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        )
    except yaml.YAMLError as e:
        raise SchemaError(str(path), [f"not valid YAML: {e}"]) from None
    if not isinstance(raw, dict):
        raise SchemaError(str(path), ["the file must hold one domain (a mapping)"])
    return validate_or_raise(Domain, raw, str(path))


def _cross_check(domains: list[Domain], files: list[str], partial: bool = False) -> None:
    problems: list[str] = []
    plugin_ids: Counter[str] = Counter()
    tool_names: Counter[str] = Counter()
    for d in domains:
        for p in d.plugins:
            plugin_ids[p.id] += 1
            for t in p.tools:
                tool_names[t.name] += 1
    domain_ids = Counter(d.id for d in domains)
    problems += [f"domain id {k!r} is used {n} times" for k, n in domain_ids.items() if n > 1]
    problems += [f"plugin id {k!r} is used {n} times" for k, n in plugin_ids.items() if n > 1]
    problems += [f"tool name {k!r} is used {n} times" for k, n in tool_names.items() if n > 1]

    for d, fname in zip(domains, files, strict=True):
        for p in d.plugins:
            problems += [f"{fname}: plugin {p.id}: {m}" for m in _check_plugin(p, set(plugin_ids), partial)]
    if problems:
        raise SchemaError("catalog", problems)


def _check_plugin(p: Plugin, all_plugins: set[str], partial: bool = False) -> list[str]:
    out: list[str] = []
    names = set(p.tool_names)
    for t in p.tools:
        out += [f"tool {t.name}: {m}" for m in _check_tool(t)]
    bids = [b.id for b in p.boundaries]
    if len(bids) != len(set(bids)):
        out.append("boundary ids are not unique")
    for b in p.boundaries:
        for tn in b.tools:
            if tn not in names:
                out.append(f"boundary {b.id}: tool {tn!r} is not a tool of this plugin")
                continue
            props = p.tool(tn).properties
            missing_args = [a for a in (b.argument, b.end_argument) if a is not None and a not in props]
            out += [f"boundary {b.id}: tool {tn} has no argument {a!r}" for a in missing_args]
            if not missing_args:
                out += _check_disclosure(b, p.tool(tn))
    out += _check_wording(p)
    sids = [s.id for s in p.scenarios]
    if len(sids) != len(set(sids)):
        out.append("scenario ids are not unique")
    kinds: Counter[str] = Counter(s.kind for s in p.scenarios)
    if kinds["trigger"] < MIN_TRIGGERS:
        out.append(f"needs ≥ {MIN_TRIGGERS} trigger scenarios, has {kinds['trigger']}")
    out += [f"has no {k} scenario" for k in NEGATIVE_KINDS if kinds[k] == 0]
    for s in p.scenarios:
        for tn in s.tools:
            if tn not in names:
                out.append(f"scenario {s.id}: tool {tn!r} is not a tool of this plugin")
        unknown = s.needed_plugin not in all_plugins and not partial
        if s.needed_plugin is not None and (unknown or s.needed_plugin == p.id):
            out.append(f"scenario {s.id}: needed_plugin {s.needed_plugin!r} must be another catalog plugin")
        if s.boundary is not None and s.boundary not in bids:
            out.append(f"scenario {s.id}: unknown boundary {s.boundary!r}")
        if s.kind == "underspecified" and s.tools and s.tools[0] in names:
            req = set(p.tool(s.tools[0]).required)
            extra = [m for m in s.missing if m not in req]
            if extra:
                out.append(f"scenario {s.id}: missing {extra} are not required arguments of {s.tools[0]}")
    return out


def _check_disclosure(b: Boundary, t: ToolSpec) -> list[str]:
    """docs/format.md §1/§2: a boundary is stated in every enforcing tool's model-visible text, and no enum of
    the argument offers a value the boundary refuses."""
    out: list[str] = []
    text = visible_text(t, b.argument) + (visible_text(t, b.end_argument) if b.end_argument else "")
    missing = [f for f in stated_facts(b) if f not in text]
    if missing:
        out.append(
            f"tool {t.name}: boundary {b.id} ({b.kind}) is not stated in the model-visible text "
            f"(shown description and argument description lack {', '.join(map(repr, missing))})"
        )
    if b.kind == "allowed_values":
        sch = t.properties[b.argument]
        enum = sch.get("enum") or sch.get("items", {}).get("enum") or []
        refused = [v for v in enum if v not in (b.values or [])]
        if refused:
            out.append(
                f"tool {t.name}: argument {b.argument!r} offers {refused} in its enum, "
                f"which boundary {b.id} refuses (an enum offers no value the tool refuses)"
            )
    return out


def _check_wording(p: Plugin) -> list[str]:
    """No limit is worded with an open edge ('今天起 3 天内', '最近 7 天'): where a day boundary applies,
    the plugin's, the tool's, the argument's and the boundary's own text say '今天至 N 天后' / 'N 天前'."""
    texts: dict[str, str] = {}
    if any(b.kind in DAY_KINDS for b in p.boundaries):
        texts["plugin description"] = p.description
    for b in p.boundaries:
        if b.kind not in DAY_KINDS:
            continue
        texts[f"boundary {b.id}"] = b.description
        for tn in b.tools:
            if tn in p.tool_names:
                t = p.tool(tn)
                texts[f"tool {tn}"] = t.description
                for a in (b.argument, b.end_argument):
                    if a is not None and a in t.properties:
                        texts[f"tool {tn}: argument {a!r}"] = str(t.properties[a].get("description", ""))
    out = []
    for where, text in texts.items():
        m = AMBIGUOUS_DAYS.search(text)
        if m:
            out.append(
                f"{where}: {m.group(0)!r} leaves the edge open; say '今天至 N 天后' or 'N 天前' (inclusive)"
            )
    return out


def _check_format(arg: str, sch: dict[str, Any]) -> list[str]:
    """A declared format matches what the description asks for (and so what the tool accepts)."""
    fmt, desc = sch.get("format"), str(sch.get("description", ""))
    if fmt == "time" and not ("HH:MM:SS" in desc and ("+08:00" in desc or "时区偏移" in desc)):
        return [
            f"argument {arg!r}: format 'time' means RFC 3339 full-time (seconds and an offset) but the "
            "description does not ask for that; for HH:MM use pattern '^([01]\\d|2[0-3]):[0-5]\\d$'"
        ]
    if fmt == "date-time" and not (
        "YYYY-MM-DDTHH:MM:SS" in desc and ("+08:00" in desc or "时区偏移" in desc)
    ):
        return [
            f"argument {arg!r}: format 'date-time' means RFC 3339 (seconds and an offset) but the "
            "description does not ask for YYYY-MM-DDTHH:MM:SS with an offset such as +08:00"
        ]
    if fmt == "date" and "YYYY-MM-DD" not in desc:
        return [f"argument {arg!r}: format 'date' but the description does not ask for YYYY-MM-DD"]
    return []


def _check_tool(t: ToolSpec) -> list[str]:
    out: list[str] = []
    for arg, sch in t.properties.items():
        if not str(sch.get("description", "")).strip():
            out.append(f"argument {arg!r} has no description")
        out += _check_format(arg, sch)
        if isinstance(sch.get("items"), dict):
            out += _check_format(f"{arg}[]", {"description": sch.get("description", ""), **sch["items"]})
    for arg, ann in t.annotations.items():
        sch = t.properties[arg]
        enum = sch.get("enum") or sch.get("items", {}).get("enum")
        seen: dict[str, Any] = {}
        for alias, canon in ann.aliases.items():
            key = alias.strip().casefold()
            if key in seen and seen[key] != canon:
                out.append(f"argument {arg!r}: alias {alias!r} maps to both {seen[key]!r} and {canon!r}")
            seen[key] = canon
            if enum is not None and canon not in enum:
                out.append(f"argument {arg!r}: alias {alias!r} maps to {canon!r}, not one of {enum}")
        if ann.time_valued and sch.get("type") not in ("string", ["string", "null"]):
            out.append(f"argument {arg!r} is time_valued but not a string")
        dd = ann.derived_default
        if dd is not None and dd.from_argument not in t.properties and dd.from_argument != "reference_date":
            out.append(f"argument {arg!r}: derived_default from unknown argument {dd.from_argument!r}")
    return out


@functools.cache
def _load_default() -> Catalog:
    only = os.environ.get("PLUGINEVAL_CATALOG_ONLY")
    if only:  # authoring aid: load some domains alone, tolerating references to the others
        files = [DATA_DIR / f"{d.strip()}.yaml" for d in only.split(",") if d.strip()]
        domains = [_load_file(f) for f in files]
        _cross_check(domains, [f.name for f in files], partial=True)
        return Catalog(tuple(domains), source=f"{DATA_DIR} (only {only})")
    return load_catalog(DATA_DIR)


def load_catalog(path: str | Path | None = None) -> Catalog:
    """Load and validate the catalog (a folder of ``*.yaml`` domain files, or one file).

    Raises ``SchemaError`` naming the file and the field on any problem.
    """
    if path is None:
        return _load_default()
    p = Path(path)
    files = sorted(p.glob("*.yaml")) if p.is_dir() else [p]
    if not files:
        raise SchemaError(str(p), ["no *.yaml domain files found"])
    domains = [_load_file(f) for f in files]
    _cross_check(domains, [f.name for f in files])
    return Catalog(tuple(domains), source=str(p))
