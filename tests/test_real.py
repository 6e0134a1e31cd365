"""Real queries from HammerBench: the mapping file, the loader, reference times, provenance, and
Stage I on the kept queries with the offline generators."""

from __future__ import annotations

import collections
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import anyio
import pytest

from plugineval.baselines.router import ReferenceRouter
from plugineval.baselines.textscan import find_times
from plugineval.builder.pccf import real
from plugineval.builder.pccf.config import Stage1
from plugineval.builder.pccf.generators import Task, make_generators
from plugineval.builder.pccf.real import (
    DATA_DIR,
    FILES,
    MAP_PATH,
    MappingError,
    decide,
    load_mapping,
    load_real_candidates,
    reference_time_for,
    tool_window,
)
from plugineval.builder.pccf.retriever import TemplateRetriever
from plugineval.builder.synth.grammar import load_grammars
from plugineval.builder.synth.synthesizer import Candidate
from plugineval.builder.tools.server import ToolExecutor
from plugineval.builder.tools.store import Store
from plugineval.catalog import load_catalog
from plugineval.jsonschema_lite import Validator
from plugineval.schema import Call

CAT = load_catalog()
SNAPSHOT = Path(__file__).resolve().parents[2] / "shared" / "external" / "hammerbench_zh"
DATE_KINDS = {"date", "datetime", "date_range", "datetime_range"}


@pytest.fixture(scope="module")
def loaded() -> tuple[list[real.RealQuery], collections.Counter[str]]:
    return load_real_candidates(CAT)


def _manifest() -> dict[str, list[str]]:
    return json.loads((DATA_DIR / real.MANIFEST).read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# --- the mapping -----------------------------------------------------------------------------------
def test_every_function_is_mapped_to_an_existing_tool_or_dropped_with_a_reason() -> None:
    m = load_mapping(CAT)
    seen = {f for names in _manifest().values() for f in names}
    assert seen, "the manifest lists no rows"
    assert seen <= m.functions.keys(), f"unmapped: {sorted(seen - m.functions.keys())}"
    mapped = 0
    for name, e in m.functions.items():
        if "dropped" in e:
            assert e["dropped"] in m.reasons and m.reasons[e["dropped"]].strip()
            continue
        mapped += 1
        plugin = CAT.plugin(e["plugin"])
        assert e["tool"] in plugin.tool_names, name
        assert e.get("note"), f"{name}: a mapping says why the semantics match"
    assert mapped and mapped < len(m.functions)
    for key, row in m.rows.items():
        assert row.get("why"), key
        assert key[1] < len(_manifest()[key[0]]), f"row {key} is past the end of its file"
        if "tool" in row:
            assert row["tool"] in CAT.plugin(row["plugin"]).tool_names


def test_every_row_is_decided_and_rows_are_accounted_for(
    loaded: tuple[list[real.RealQuery], collections.Counter[str]],
) -> None:
    kept, dropped = loaded
    manifest = _manifest()
    assert set(manifest) == set(FILES)
    assert len(kept) + sum(dropped.values()) == sum(len(v) for v in manifest.values())
    assert dropped["ir_duplicate"] == sum(len(manifest[f]) for f in FILES if f.startswith("ir_"))
    reasons = load_mapping(CAT).reasons
    assert set(dropped) <= set(reasons) | {real.NO_REFERENCE, real.EXTERNAL_KNOWLEDGE}
    # a request about a message the record does not carry (EK:…\nquery:…) never enters, nor its scaffolding
    assert dropped[real.EXTERNAL_KNOWLEDGE] > 0
    assert not any("EK:" in q.query or "query:" in q.query for q in kept)
    assert not any(q.origin.split()[1].startswith("ir_") for q in kept)
    assert {q.kind for q in kept} <= {"trigger", "underspecified"}
    # ST_Imperfect rows only enter as underspecified
    assert all(q.kind == "underspecified" for q in kept if "ST_Imperfect" in q.origin)


def test_a_bad_mapping_is_named(tmp_path: Path) -> None:
    text = MAP_PATH.read_text(encoding="utf-8")
    bad = tmp_path / "map.yaml"
    bad.write_text(
        text.replace("tool: poi_search_nearby", "tool: poi_search_everywhere", 1), encoding="utf-8"
    )
    with pytest.raises(MappingError, match="poi_search_everywhere"):
        load_mapping(CAT, bad)
    bad.write_text(
        text.replace("{dropped: no_plugin_bike_sharing}", "{dropped: no_such_reason}", 1), encoding="utf-8"
    )
    with pytest.raises(MappingError, match="no_such_reason"):
        load_mapping(CAT, bad)
    m = load_mapping(CAT)
    with pytest.raises(MappingError, match=r"Navigation\.Nowhere\.fly"):
        decide(m, CAT, "ST_Perfect", 0, "Navigation.Nowhere.fly")


def test_kept_rows_are_exactly_what_the_mapping_keeps() -> None:
    m = load_mapping(CAT)
    rows = [json.loads(line) for line in (DATA_DIR / real.QUERIES).read_text(encoding="utf-8").splitlines()]
    manifest = _manifest()
    want = {
        (f, i)
        for f, names in manifest.items()
        for i, name in enumerate(names)
        if decide(m, CAT, f, i, name).kept
    }
    assert {(r["file"], r["index"]) for r in rows} == want
    for r in rows:
        assert manifest[r["file"]][r["index"]] == r["function"]


@pytest.mark.skipif(
    not SNAPSHOT.is_dir(),
    reason=f"regenerating builder/real/hammerbench_zh needs the upstream HammerBench snapshot at {SNAPSHOT}"
    " (a development copy, not in the repository); the vendored extract is tested without it",
)
def test_the_copy_matches_the_snapshot(tmp_path: Path) -> None:
    real.extract(SNAPSHOT, CAT, tmp_path)
    for name in (real.QUERIES, real.MANIFEST):
        assert (tmp_path / name).read_bytes() == (DATA_DIR / name).read_bytes(), name
    assert (SNAPSHOT / "LICENSE").read_bytes() == (DATA_DIR / "LICENSE").read_bytes()


# --- the loader ----------------------------------------------------------------------------------
def test_loader_is_deterministic_and_sorted(
    loaded: tuple[list[real.RealQuery], collections.Counter[str]],
) -> None:
    kept, dropped = loaded
    again = load_real_candidates(load_catalog())
    assert again == (kept, dropped)
    order = {f: i for i, f in enumerate(FILES)}
    keys = [(order[q.origin.split()[1]], int(q.origin.rsplit("#", 1)[1])) for q in kept]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert kept, "no HammerBench query was kept"


def test_scenarios_match_the_mapped_tool(
    loaded: tuple[list[real.RealQuery], collections.Counter[str]],
) -> None:
    kept, _ = loaded
    for q in kept:
        plugin = CAT.plugin(q.plugin)
        scen = next(s for s in plugin.scenarios if s.id == q.scenario)
        assert scen.kind == q.kind, q.origin
        if q.kind == "underspecified":
            tool = CAT.tool(scen.tools[0])
            assert sorted(scen.missing) == sorted(tool.required), q.origin


def test_reference_times_make_the_dates_sensible(
    loaded: tuple[list[real.RealQuery], collections.Counter[str]],
) -> None:
    kept, _ = loaded
    m = load_mapping(CAT)
    checked = 0
    for q in kept:
        ref = datetime.fromisoformat(q.reference_time)
        assert q.reference_time.endswith("+08:00"), q.origin
        file, index = q.origin.split()[1], int(q.origin.rsplit("#", 1)[1])
        d = decide(m, CAT, file, index, q.hammer_call["name"])
        lo, hi = tool_window(CAT.plugin(q.plugin), str(d.tool))
        for t in find_times(q.query, q.reference_time):
            if t.value.kind not in DATE_KINDS or t.value.start is None:
                continue
            start = t.value.start
            day = start.date() if isinstance(start, datetime) else start
            delta = (day - ref.date()).days
            assert lo is None or delta >= lo, (q.origin, t.text, q.reference_time)
            assert hi is None or delta <= hi, (q.origin, t.text, q.reference_time)
            checked += 1
    assert checked, "no kept query names a date: the window check checked nothing"


@pytest.mark.parametrize(
    ("plugin", "tool", "query", "after"),
    [
        ("rail_tickets", "train_search_tickets", "帮我查2023年4月1日北京到上海的火车", False),
        ("weather_history", "weather_history_query", "2016年7月20日北京下雨了吗", True),
        ("stock_quotes", "stock_history", "2019年3月5日茅台收盘价多少", True),
    ],
)
def test_a_named_date_gets_a_reference_shortly_before_or_after_it(
    plugin: str, tool: str, query: str, after: bool
) -> None:
    ref = reference_time_for(query, CAT.plugin(plugin), tool)
    assert ref is not None and ref == reference_time_for(query, CAT.plugin(plugin), tool)
    named = next(t for t in find_times(query, ref) if t.value.kind in DATE_KINDS)
    assert named.value.start is not None
    gap = (datetime.fromisoformat(ref).date() - named.value.start).days  # type: ignore[operator]
    assert (1 <= gap <= real.SHORTLY) if after else (1 <= -gap <= real.SHORTLY), (query, ref)


def test_relative_expressions_keep_a_hashed_reference_inside_the_window() -> None:
    rail = CAT.plugin("rail_tickets")
    refs = {reference_time_for(f"这周六从西安到兰州的票{i}", rail, "train_search_tickets") for i in range(12)}
    assert None not in refs and len(refs) > 1
    for ref in refs:
        assert ref is not None
        named = [t for t in find_times("这周六", ref)]
        delta = (named[0].value.start - datetime.fromisoformat(ref).date()).days  # type: ignore[operator]
        assert 0 <= delta <= 15, ref


# --- provenance ----------------------------------------------------------------------------------
def test_provenance_and_license_are_present(
    loaded: tuple[list[real.RealQuery], collections.Counter[str]],
) -> None:
    kept, _ = loaded
    lic = (DATA_DIR / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in lic and "Version 2.0" in lic
    source = (DATA_DIR / "SOURCE.md").read_text(encoding="utf-8")
    for needle in (
        "github.com/MadeAgents/HammerBench",
        "cdbe885bb6a1318cb97a791bfcb89c982c432410",
        "data/zh/single-turn",
    ):
        assert needle in source
    for q in kept:
        assert re.fullmatch(r"HammerBench (ST_Perfect|ST_External|ST_Imperfect) #\d+", q.origin), q.origin
        assert q.license == "Apache-2.0"
        assert q.hammer_call["name"].startswith("Navigation.")


# --- Stage I on the kept queries (offline generators) ------------------------------------------------
def _agreement(gold: list[Call], hammer: dict[str, Any]) -> str:
    """How many of HammerBench's argument values reappear in our accepted call (report only)."""
    ours = json.dumps([c.arguments for c in gold], ensure_ascii=False)
    vals = [str(v) for v in hammer["arguments"].values()]
    hits = [v for v in vals if v[:2] in ours]
    return f"{len(hits)}/{len(vals)}"


def test_stage_one_on_the_real_queries(loaded: tuple[list[real.RealQuery], collections.Counter[str]]) -> None:
    kept, _ = loaded

    async def go() -> list[tuple[real.RealQuery, Any, list[Any]]]:
        out = []
        async with ToolExecutor(CAT) as ex:
            retriever = TemplateRetriever(CAT, load_grammars())
            gens = make_generators(
                ["slot_parser", "template_retriever"], CAT, ReferenceRouter(CAT), retriever
            )
            s1 = StageOne(Stage1(), CAT, ex, gens, None, retriever)
            domains = sorted({CAT.domain_of_plugin(q.plugin) for q in kept})
            db = Store.open(domains).readonly_connection()
            for q in kept:
                plugin = CAT.plugin(q.plugin)
                scen = next(s for s in plugin.scenarios if s.id == q.scenario)
                if q.kind == "trigger":
                    v = await s1.annotate(Task(q.query, q.reference_time, plugin, db, intended=None))
                else:
                    would_be = [Call(name=scen.tools[0], arguments={})]
                    cand = Candidate(
                        q.query, q.plugin, q.scenario, q.kind, "real", q.reference_time, would_be, [], q.query
                    )
                    v = await s1.verify(cand, plugin, scen, db)
                outs = [await ex.call(c.name, c.arguments, q.reference_time) for c in v.gold]
                out.append((q, v, outs))
        return out

    from plugineval.builder.pccf.stage1 import StageOne

    results = anyio.run(go)
    by_kind: collections.Counter[tuple[str, str]] = collections.Counter()
    print()
    for q, v, outs in results:
        ok = v.accepted and (v.outcome == "call" if q.kind == "trigger" else v.reason == "verified")
        by_kind[(q.kind, "accepted" if ok else "rejected")] += 1
        gold = [c.model_dump() for c in v.gold]
        extra = f" agreement with HammerBench {_agreement(v.gold, q.hammer_call)}" if v.gold else ""
        print(
            f"  {q.origin:28} {q.plugin:14} {q.kind:14} {'ACCEPT' if ok else 'reject'} {v.reason}{extra} {gold}"
        )
        for c, o in zip(v.gold, outs, strict=True):  # every accepted gold call validates and executes
            assert not Validator(CAT.tool(c.name).parameters).errors(c.arguments), (q.origin, c)
            assert o.ok, (q.origin, c, o.error_code)
    for kind in ("trigger", "underspecified"):
        a, r = by_kind[(kind, "accepted")], by_kind[(kind, "rejected")]
        print(f"Stage I (offline) {kind}: accepted {a}/{a + r}")
    assert sum(by_kind.values()) == len(kept)
