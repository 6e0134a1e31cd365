"""The template retriever's second reading (ExemplarReader): a query no exemplar aligns with as a
whole is read by the exemplars' own slot vocabularies, in the exemplar's order."""

from __future__ import annotations

import re
from datetime import datetime

from plugineval.builder.pccf.retriever import (
    ExemplarReader,
    TemplateRetriever,
    _compile,
    _sql_words,
    fill_args,
)
from plugineval.builder.synth.grammar import load_grammars
from plugineval.catalog import load_catalog

REF = datetime.fromisoformat("2026-03-18T09:30:00+08:00")
R = TemplateRetriever(load_catalog(), load_grammars())
READER = ExemplarReader(R)


def _read(plugin: str, query: str) -> list[dict] | None:  # type: ignore[type-arg]
    hit = READER.read(plugin, query, REF, None)
    if hit is None:
        return None
    cp, values = hit
    return [
        {
            "name": c.tool,
            "arguments": {k: v for k, v in fill_args(c.args, values).items() if v not in (None, "")},
        }
        for c in cp.pattern.calls
    ]


def test_sql_words_take_the_selected_column() -> None:
    sql = "WITH t(c,n) AS (VALUES ('北京','天安门'),('上海','外滩')) SELECT n FROM t WHERE c=:x"
    assert _sql_words(sql) == {"天安门", "外滩"}


def test_reads_queries_no_exemplar_aligns_with() -> None:
    assert R.fill("poi_search", "在广州塔1公里范围内，找找有没有舒适的咖啡厅", REF, None) is None
    assert _read("poi_search", "在广州塔1公里范围内，找找有没有舒适的咖啡厅") == [
        {
            "name": "poi_search_nearby",
            "arguments": {"city": "广州", "near": "广州塔", "category": "cafe", "radius_m": 1000},
        }
    ]
    assert _read("route_planner", "我想看看从人民广场到外滩，公交线路走路少一点的那条线") == [
        {"name": "route_plan", "arguments": {"origin": "人民广场", "destination": "外滩", "mode": "transit"}}
    ]


def test_constant_arguments_must_be_stated() -> None:
    # 步行最少 asks for the least walking: no exemplar of mode walking reads it
    got = _read("route_planner", "从人民广场到外滩，步行最少的公交路线")
    assert got is not None and got[0]["arguments"]["mode"] == "transit"
    # nothing of an exemplar's slots in the text: no reading
    assert _read("route_planner", "今天天气真好") is None


def test_context_values_are_an_implicit_entity_step() -> None:
    from plugineval.builder.pccf.evaluators import ArgumentEvaluator
    from plugineval.schema import Call

    ev = ArgumentEvaluator(load_catalog())
    q = "EK:周六下午2点我在广州塔等你。\nquery:Tom短信里提到的地点附近1000米范围内有什么推荐的咖啡厅吗？"
    call = Call(name="poi_search_nearby", arguments={"city": "广州", "near": "广州塔", "category": "cafe"})
    grounded, steps = ev.ground(q, REF.isoformat(), call)
    assert all(grounded.values()) and "implicit_entity" in steps
    # the context's time and place are no unused request mentions
    assert ev.mentions_used(q, REF.isoformat(), [call])[1] == 1  # 1000 (米)


def test_store_geocodes_airports_and_extra_landmarks() -> None:
    from plugineval.builder.tools.domains.navigation_data import locate, metro_network, split_city

    assert split_city("浦东国际机场") == ("上海", "浦东国际机场")
    assert split_city("东方明珠")[0] == "上海"
    assert locate("上海", "浦东国际机场").name == "浦东机场"
    assert "东方明珠" not in metro_network("上海").stations  # extra landmarks name no station


def _fill(plugin: str, query: str) -> list[dict] | None:  # type: ignore[type-arg]
    hit = R.fill(plugin, query, REF, None)
    if hit is None:
        return None
    cp, values = hit
    return [
        {k: v for k, v in fill_args(c.args, values).items() if v not in (None, "")} for c in cp.pattern.calls
    ]


def test_past_relative_dates_align() -> None:
    assert _fill("air_quality", "南京昨天空气质量怎么样") == [{"city": "南京", "date": "2026-03-17"}]
    assert _fill("tv_guide", "上周三CCTV-5的节目") == [{"channel": "cctv5", "date": "2026-03-11"}]


def test_a_slot_only_the_call_has_is_read_from_the_requests_time() -> None:
    # 今晚 / 昨晚 said as the exemplar's own words: the one day the request says (today is the tool's
    # default, 不填则为今天: the exemplar's call leaves it out)
    assert _fill("tv_guide", "今晚湖南卫视有啥可看的") == [{"channel": "hunan_tv"}]
    assert _fill("tv_guide", "昨晚湖南卫视放的是啥节目") == [{"channel": "hunan_tv", "date": "2026-03-17"}]
    # 这周末 for a from/to pair
    assert _fill("show_tickets", "这周末上海有什么演出") == [
        {"city": "上海", "date_from": "2026-03-21", "date_to": "2026-03-22"}
    ]


def test_an_implied_today_fills_a_call_only_slot() -> None:
    from plugineval.builder.pccf.retriever import CompiledPattern, _compile
    from plugineval.builder.synth.grammar import Pattern

    g = R.grammars["air_quality"]
    p = Pattern.model_validate(
        {
            "id": "bare",
            "text": "{city}空气质量",
            "calls": [{"tool": "air_quality_query", "args": {"city": "{city}", "date": "{today}"}}],
        }
    )
    rx, groups = _compile(p, g.slots, R.catalog)
    cp = CompiledPattern("today_aqi", "trigger", p, rx, groups)
    values: dict = {"city": "南京"}  # type: ignore[type-arg]
    R._implied(cp, "南京空气质量", REF, values)
    assert values == {"city": "南京", "today": "2026-03-18"}
    values = {"city": "南京"}
    R._implied(cp, "南京之前的空气质量", REF, values)  # another, unnamed day: not implied
    assert values == {"city": "南京"}


def test_a_road_before_a_past_time_is_the_road_alone() -> None:
    # a VALUES-table slot takes only its own words: 三环路昨天早上8点 is no road
    assert _fill("traffic_status", "北京三环路昨天早上8点堵不堵") == [
        {"city": "北京", "road": "三环路", "at": "2026-03-17T08:00:00+08:00"}
    ]
    assert _fill("traffic_status", "北京三环路堵不堵") == [{"city": "北京", "road": "三环路"}]


def test_a_year_only_the_call_has_is_the_year_said() -> None:
    assert _fill("typhoon_tracker", "去年有哪些台风") == [{"year": 2025}]
    assert _fill("typhoon_tracker", "前年来了几个台风") == [{"year": 2024}]


def test_a_slot_inside_an_alternation_is_read_in_either_branch() -> None:
    """`[{city}天气怎么样|天气{city}]`: each branch's slot is a group of its own; the branch that
    matched fills it, the other stays out (it was escaped as literal text and never matched)."""
    from plugineval.builder.pccf.retriever import CompiledPattern, _compile
    from plugineval.builder.synth.grammar import Pattern

    g = R.grammars["weather_forecast"]
    p = Pattern.model_validate(
        {
            "id": "alt",
            "text": "[{city}明天天气怎么样|明天{city}会下雨吗]",
            "calls": [{"tool": "weather_daily_forecast", "args": {"city": "{city}"}}],
        }
    )
    rx, groups = _compile(p, g.slots, R.catalog)
    assert sorted(groups.values()) == ["city", "city"]
    cp = CompiledPattern("x", "trigger", p, rx, groups)
    for q, city in (("南京明天天气怎么样", "南京"), ("明天杭州会下雨吗", "杭州")):
        m = cp.regex.match(q)
        assert m is not None, q
        got = {groups[k]: v for k, v in m.groupdict().items() if v is not None}
        assert got == {"city": city}
    assert cp.regex.match("明天天气怎么样") is None


def test_an_exemplar_aligns_with_its_request_as_typed() -> None:
    """``synth/typed.py`` leaves a pattern's commas out and writes 啥 as 什么 and 下雨没 as 下雨了吗:
    the exemplar still aligns (4月10号17:55…《保你平安》11排11座 was read as a listing)."""
    from plugineval.builder.pccf.retriever import _as_typed

    assert re.fullmatch(_as_typed("的《", False) + "x" + _as_typed("》，要", False), "的《x》要")
    assert re.fullmatch(_as_typed("播啥", True), "播什么")
    assert re.fullmatch(_as_typed("下雨没", True), "下雨了吗")
    assert not re.fullmatch(_as_typed("下雨没", False), "下雨了吗")  # only a question's end
    # the slips ``typed`` makes in a pattern's own words (never in a value)
    assert re.fullmatch(_as_typed("查询", False), "查寻")
    assert re.fullmatch(_as_typed("信用卡账单", False), "信用卡帐单")
    assert re.fullmatch(_as_typed("再来一首", False), "在来一首")
    assert not re.fullmatch(_as_typed("再见", False), "在见")  # 再 slips only before 来看查放订买
    assert re.fullmatch(_as_typed("会下雨吗", True), "会下雨嘛")
    assert re.fullmatch(_as_typed("下雨没", True), "下雨了嘛")
    assert not re.fullmatch(_as_typed("会下雨吗", False), "会下雨嘛")  # only at the request's end
    g = load_grammars()["movie_tickets"]
    pat = next(
        p for sc in g.scenarios.values() for p in sc.patterns if p.text.endswith("《{bmv}》，{brow}排{bc1}座")
    )
    rx, _ = _compile(pat, g.slots, R.catalog)
    assert rx.match("4月10号17:55济南百老汇影城世纪城店《保你平安》11排11座")
