"""Catalog data checks: the schema, cross references, and the figures the issue asks for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from plugineval.catalog import load_catalog
from plugineval.jsonschema_lite import Validator
from plugineval.schema import NEGATIVE_KINDS, SchemaError
from plugineval.schema.disclosure import (
    LIMITS_HEAD,
    edge_clause,
    shown_description,
    stated_facts,
    visible_text,
)

CAT = load_catalog()
TOOLS = CAT.tools


def test_catalog_size() -> None:
    s = CAT.stats()
    assert s["domains"] >= 9
    assert s["plugins"] >= 54
    assert s["tools"] >= 63


def test_tool_names_are_openai_function_names() -> None:
    rx = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
    names = [t.name for t in TOOLS]
    assert len(names) == len(set(names))
    assert all(rx.match(n) for n in names)


@pytest.mark.parametrize("plugin", CAT.plugins, ids=lambda p: p.id)
def test_every_plugin_has_all_scenario_kinds(plugin) -> None:  # type: ignore[no-untyped-def]
    kinds = [s.kind for s in plugin.scenarios]
    assert kinds.count("trigger") >= 3
    for k in NEGATIVE_KINDS:
        assert k in kinds, f"{plugin.id} lacks a {k} scenario"
    assert re.search(r"[\u4e00-\u9fff]", plugin.description)


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_tool_schema_is_valid_json_schema_and_examples_validate(tool) -> None:  # type: ignore[no-untyped-def]
    Draft202012Validator.check_schema(tool.parameters)
    Draft202012Validator.check_schema(tool.output)
    assert re.search(r"[\u4e00-\u9fff]", tool.description)
    lite = Validator(tool.parameters)
    for ex in tool.examples:
        assert lite.errors(ex.arguments) == []
        assert not list(Draft202012Validator(tool.parameters).iter_errors(ex.arguments))
    for arg, sch in tool.properties.items():
        assert re.search(r"[\u4e00-\u9fff]", sch.get("description", "")), f"{arg} needs a Chinese description"
        if sch.get("format") in ("date", "date-time", "time", "duration"):
            assert tool.annotations.get(arg) is not None and tool.annotations[arg].time_valued, (
                f"{tool.name}.{arg} has format {sch['format']} but is not annotated time_valued"
            )


def test_enum_aliases_are_unambiguous() -> None:
    for t in TOOLS:
        for arg, ann in t.annotations.items():
            lowered: dict[str, object] = {}
            for alias, canon in ann.aliases.items():
                k = alias.casefold().strip()
                assert lowered.setdefault(k, canon) == canon, f"{t.name}.{arg}: {alias!r} is ambiguous"


def test_invalid_catalog_file_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "id: x\nname: 坏的\ndescription: 坏的领域\nplugins:\n  - id: p\n    name: 插件\n", encoding="utf-8"
    )
    with pytest.raises(SchemaError) as e:
        load_catalog(bad)
    msg = str(e.value)
    assert "broken.yaml" in msg and "plugins.0.description" in msg


def test_cross_reference_errors_are_reported(tmp_path: Path) -> None:
    src = (Path(__file__).parents[1] / "loaders/plugineval/catalog/data/travel.yaml").read_text(
        encoding="utf-8"
    )
    (tmp_path / "travel.yaml").write_text(
        src.replace("needed_plugin: flight_tickets", "needed_plugin: nope"), "utf-8"
    )
    with pytest.raises(SchemaError, match="needed_plugin 'nope'"):
        load_catalog(tmp_path)


# --- what the model is shown (docs/format.md §1, §2 `tools`) ----------------------------------------

DATA = Path(__file__).parents[1] / "loaders/plugineval/catalog/data"


def _broken_catalog(tmp_path: Path, domain: str, old: str, new: str, count: int = 1) -> Path:
    """A copy of the shipped catalog with one targeted replacement in one domain file."""
    for f in DATA.glob("*.yaml"):
        src = f.read_text(encoding="utf-8")
        if f.stem == domain:
            assert src.count(old) == count, f"{old!r} occurs {src.count(old)} times in {f.name}"
            src = src.replace(old, new)
        (tmp_path / f.name).write_text(src, encoding="utf-8")
    return tmp_path


BOUNDARY_TOOLS = [(p, b, tn) for p, b in CAT.iter_boundaries() for tn in b.tools]


@pytest.mark.parametrize(
    ("plugin", "boundary", "tool"), BOUNDARY_TOOLS, ids=[f"{b.id}-{t}" for _, b, t in BOUNDARY_TOOLS]
)
def test_every_tool_states_each_of_its_boundaries(plugin, boundary, tool) -> None:  # type: ignore[no-untyped-def]
    t = CAT.tool(tool)
    shown = t.openai_function()["function"]["description"]
    assert edge_clause(boundary, t) in shown
    text = visible_text(t, boundary.argument)
    for fact in stated_facts(boundary):
        assert fact in text, f"{tool} does not state {boundary.id}: no {fact!r}"


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_shown_description_carries_the_plugin_promise(tool) -> None:  # type: ignore[no-untyped-def]
    p = CAT.plugin_of_tool(tool.name)
    shown = tool.openai_function()["function"]["description"]
    assert shown.startswith(tool.description)  # the authored text stays first, and stays available
    assert shown == shown_description(p, tool)  # deterministic: composed from the data alone
    for part in re.split(r"(?<=。)", p.description):
        assert part.rstrip("。") in shown
    limits = [b for b in p.boundaries if tool.name in b.tools]
    assert (LIMITS_HEAD in shown) == bool(limits)
    sentences = [x for x in re.split(r"[。；]", shown) if x]
    assert len(sentences) == len(set(sentences)), "a sentence is shown twice"


def test_shown_description_example() -> None:
    shown = CAT.tool("restaurant_reserve").openai_function()["function"]["description"]
    assert CAT.tool("restaurant_reserve").description.startswith("预订指定餐厅")
    assert (
        "使用限制：只能预订今天至 30 天后的座位，就餐日期 date 最晚为 30 天后（今天 + 30 天，含当天）"
        in shown
    )
    assert "就餐人数 party_size 最大为 20（含）" in shown
    assert "餐厅所在城市 city 仅限中国大陆地点（不含港澳台和海外）" in shown
    hist = CAT.tool("stock_history").openai_function()["function"]["description"]
    assert hist.count("不能查询未来日期的行情") == 1  # two boundaries share the authored sentence
    assert "交易市场代码 market 仅支持：sh、sz、hk" in hist


def test_no_enum_offers_a_value_a_boundary_refuses() -> None:
    for _p, b in CAT.iter_boundaries():
        if b.kind != "allowed_values":
            continue
        for tn in b.tools:
            sch = CAT.tool(tn).properties[b.argument]
            enum = sch.get("enum") or sch.get("items", {}).get("enum") or []
            assert set(enum) <= set(b.values or []), (
                f"{tn}.{b.argument} offers {set(enum) - set(b.values or [])}"
            )


def test_hhmm_arguments_declare_a_pattern_not_format_time() -> None:
    hhmm = [(t, a, s) for t in TOOLS for a, s in t.properties.items() if "HH:MM" in s.get("description", "")]
    assert hhmm
    for t, a, s in hhmm:
        if "YYYY-MM-DDTHH:MM" in s["description"]:
            continue
        assert s.get("format") != "time" and s.get("pattern") == r"^([01]\d|2[0-3]):[0-5]\d$", f"{t.name}.{a}"
        assert t.annotations[a].time_valued, f"{t.name}.{a} is a time: the judge compares it as one"
        lite = Validator({"type": "object", "properties": {a: s}})
        assert lite.errors({a: "09:30"}) == [] and lite.errors({a: "23:59"}) == []
        assert lite.errors({a: "9:30"}) and lite.errors({a: "24:00"}) and lite.errors({a: "09:30:00+08:00"})


def test_check_fails_on_an_enum_value_a_boundary_refuses(tmp_path: Path) -> None:
    old = "              minLength: 1\n              description: 交易市场代码："
    new = "              enum: [sh, sz, hk, us]\n              description: 交易市场代码："
    with pytest.raises(SchemaError) as e:
        load_catalog(_broken_catalog(tmp_path, "finance", old, new, count=2))
    msg = str(e.value)
    assert "finance.yaml: plugin stock_quotes: tool stock_quote: argument 'market' offers ['us']" in msg
    assert "boundary quote_markets refuses" in msg and "tool stock_history" in msg


def test_check_fails_on_format_time_for_hhmm(tmp_path: Path) -> None:
    old = "              pattern: '^([01]\\d|2[0-3]):[0-5]\\d$'\n              description: 最早出发时间"
    new = "              format: time\n              description: 最早出发时间"
    with pytest.raises(SchemaError) as e:
        load_catalog(_broken_catalog(tmp_path, "travel", old, new))
    msg = str(e.value)
    assert (
        "travel.yaml: plugin rail_tickets: tool train_search_tickets: argument 'depart_after': format 'time'"
        in msg
    )


def test_check_fails_on_format_date_time_without_offset(tmp_path: Path) -> None:
    old = "提醒时间，格式为 YYYY-MM-DDTHH:MM:SS+08:00，如 2026-08-05T09:00:00+08:00；不带时区偏移时按北京时间"
    new = "提醒时间，格式为 YYYY-MM-DD HH:MM"
    with pytest.raises(SchemaError, match=r"tool reminder_create: argument 'remind_at': format 'date-time'"):
        load_catalog(_broken_catalog(tmp_path, "productivity", old, new))


def test_check_fails_on_an_open_edge(tmp_path: Path) -> None:
    old = "仅支持查询和预订今天至 15 天后的车票"
    with pytest.raises(SchemaError) as e:
        load_catalog(_broken_catalog(tmp_path, "travel", old, "仅支持查询和预订今天起 15 天内的车票"))
    assert "plugin rail_tickets: boundary presale_window: '15 天内' leaves the edge open" in str(e.value)


def test_check_fails_on_a_boundary_the_tool_does_not_state(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A composer that left limits out (the shown text = the authored text, as before issue 14)."""
    import plugineval.schema.catalog as schema_catalog

    monkeypatch.setattr(schema_catalog, "shown_description", lambda plugin, tool: tool.description)
    with pytest.raises(SchemaError) as e:
        load_catalog(_broken_catalog(tmp_path, "travel", "id: travel", "id: travel"))
    msg = str(e.value)
    assert (
        "travel.yaml: plugin hotel_booking: tool hotel_search: boundary booking_window (max_days_ahead) is not stated"
        in msg
    )
    assert "lack '180 天'" in msg
