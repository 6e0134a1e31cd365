"""Another offered plugin that serves the request (``pccf/served.py``, source ``other_tool``): the metro
guide beside the route planner, coach beside rail, the forecast beside the life index and back — each
offered reading that serves the request becomes an alternative call list, and one that does not (a
part left out, a mode the request names, a measure the tool does not give) does not."""

from __future__ import annotations

from typing import Any

import anyio
from test_alternatives import CAT, REF

from plugineval.builder.pccf.stage1 import StageOne
from plugineval.builder.tools.server import ToolExecutor
from plugineval.schema import Call


def test_another_offered_plugin_that_serves_the_request_gives_an_alternative_call_list() -> None:
    def go(query: str, gold: list[Call], offered: list[str]) -> list[dict[str, Any]]:
        return _other_tool_readings("navigation", query, gold, offered, ref="2025-03-05T10:00:00+08:00")

    q = "广州坐地铁从上下九到白云山要多久"
    route = Call(name="route_plan", arguments={"city": "广州", "origin": "上下九", "destination": "白云山",
                                               "mode": "transit"})  # fmt: skip
    found = go(q, [route], ["route_plan", "metro_route", "traffic_road_status"])
    assert [c["name"] for alt in found for c in alt["calls"]] == ["metro_route"]
    assert found[0]["calls"][0]["arguments"]["from_station"] == "上下九"
    # not offered: no alternative
    assert go(q, [route], ["route_plan", "parking_search"]) == []
    # a reading that leaves out part of the request (the landmark) is no alternative
    park = Call(name="parking_search", arguments={"city": "上海", "near": "陆家嘴"})
    assert go("魔都陆家嘴附近哪里能停车", [park], ["parking_search", "poi_search_nearby"]) == []
    # seed-61 probe: 宽窄巷子 to 天府广场 by metro — the tool's nearest station is one for both
    # (SAME_STATION), so the metro reading the reviewers wanted is not executable and no alternative
    q3 = "请问一下，成都从宽窄巷子坐地铁到天府广场该怎么坐？不想开车"
    walk3 = Call(name="route_plan", arguments={"city": "成都", "origin": "宽窄巷子", "destination": "天府广场", "mode": "transit"})  # fmt: skip
    assert go(q3, [walk3], ["route_plan", "metro_route"]) == []


def _other_tool_readings(
    domain: str, query: str, gold: list[Call], offered: list[str], ref: str = REF
) -> list[dict[str, Any]]:
    from plugineval.baselines.router import ReferenceRouter
    from plugineval.builder.pccf.config import BuildConfig
    from plugineval.builder.pccf.generators import Task, make_generators
    from plugineval.builder.pccf.retriever import TemplateRetriever
    from plugineval.builder.synth.grammar import load_grammars
    from plugineval.builder.tools.store import Store

    cfg = BuildConfig.load()
    grammars = {p: g for p, g in load_grammars().items() if CAT.domain_of_plugin(p) == domain}
    retriever = TemplateRetriever(CAT, grammars)
    dbs = {domain: Store.open([domain], cfg.store_seed).readonly_connection()}

    async def go() -> list[dict[str, Any]]:
        async with ToolExecutor(CAT, cfg.store_seed) as ex:
            gens = make_generators(list(cfg.stage1.generators), CAT, ReferenceRouter(CAT), retriever, None)
            s1 = StageOne(cfg.stage1, CAT, ex, gens, None, retriever)
            plugin = CAT.plugin_of_tool(gold[0].name)
            return await s1.other_tool_readings(Task(query, ref, plugin, dbs[domain]), gold, offered, dbs)

    return anyio.run(go)


def test_the_life_index_and_the_forecast_serve_each_others_umbrella_and_clothing_requests() -> None:
    # final probe: 明天去杭州穿短袖行吗 / 出门伞要带吗 with the forecast as gold failed the life-index call
    # that other records of the build take as gold for 能穿短袖吗
    offered = ["weather_daily_forecast", "weather_hourly_forecast", "life_index_query"]
    fc = Call(name="weather_daily_forecast", arguments={"city": "丽江", "date": "2026-03-19"})
    found = _other_tool_readings("weather", "明天丽江出门伞要带吗", [fc], offered)
    assert [(c["name"], c["arguments"]["indices"]) for alt in found for c in alt["calls"]] == [
        ("life_index_query", ["umbrella"])
    ]
    fc2 = Call(name="weather_daily_forecast", arguments={"city": "杭州", "date": "2026-03-19"})
    found = _other_tool_readings("weather", "明天去杭州穿短袖行吗", [fc2], offered)
    assert [c["arguments"]["indices"] for alt in found for c in alt["calls"]] == [["dressing"]]
    # train probe: 穿外套 is a clothing request too (the cue words were 带外套, 穿短袖 only)
    found = _other_tool_readings("weather", "杭州明天要穿外套吗", [fc2], offered)
    assert [c["arguments"]["indices"] for alt in found for c in alt["calls"]] == [["dressing"]]
    # a general forecast asks for no index: the life index serves no part of it
    assert _other_tool_readings("weather", "明天丽江天气如何", [fc], offered) == []
    # not offered: none
    assert _other_tool_readings("weather", "明天丽江出门伞要带吗", [fc], offered[:2]) == []
    # the other way: the forecast for 能穿短袖吗 with the dressing index as gold (an array of enum items
    # is the tool's vocabulary, not a value the forecast must carry)
    li = Call(
        name="life_index_query", arguments={"city": "杭州", "date": "2026-03-19", "indices": ["dressing"]}
    )
    back = _other_tool_readings("weather", "明天杭州能穿短袖吗", [li], offered)
    assert "weather_daily_forecast" in [c["name"] for alt in back for c in alt["calls"]]


def test_a_weather_advice_request_takes_every_offered_forecast_that_answers_it() -> None:
    """final sample 15 (reference reviewers): 洗车, 带伞, 防晒 and 穿衣 requests took the forecast beside the
    life index in some records and not in others — whichever forecast a text-only reader picked (daily or
    hourly) was the only one tried, 伞要带吗 and 洗个车 said no cue word, and 穿衣指数 took a forecast.
    Now each offered forecast that takes the reading's values serves; 紫外线 only the daily one, whose
    answer carries the UV index; a request naming an index, none."""
    both = ["weather_daily_forecast", "weather_hourly_forecast", "life_index_query"]

    def forecasts(query: str, index: str, offered: list[str]) -> list[str]:
        li = Call(
            name="life_index_query", arguments={"city": "太原", "date": "2026-03-19", "indices": [index]}
        )
        found = _other_tool_readings("weather", query, [li], offered)
        assert all(
            c["arguments"] == {"city": "太原", "date": "2026-03-19"} for a in found for c in a["calls"]
        )
        return sorted(c["name"] for a in found for c in a["calls"])

    for query, index in (("明天太原怎么穿", "dressing"), ("明天太原出门伞要带吗", "umbrella"),
                         ("明天太原洗个车合适不", "car_wash"), ("明天太原会不会很晒", "uv")):  # fmt: skip
        assert forecasts(query, index, both) == both[:2], query
        assert forecasts(query, index, [both[1], both[2]]) == both[1:2], query
    assert forecasts("明天太原紫外线强不强", "uv", both) == both[:1]
    assert forecasts("明天太原紫外线强不强", "uv", [both[1], both[2]]) == []
    assert forecasts("明天太原穿衣指数", "dressing", both) == []


def test_a_request_that_names_no_mode_is_served_by_rail_and_coach_alike() -> None:
    # train probe and final sample: 厦门回佛山有车吗 / 海口到东莞车 accepted one transport tool only —
    # 车 names no mode; a request that names its mode (动车, 大巴) stays with that plugin
    off = ["train_search_tickets", "coach_search", "flight_search"]
    coach = [
        Call(name="coach_search", arguments={"date": "2026-03-26", "from_city": "厦门", "to_city": "佛山"})
    ]
    found = _other_tool_readings("travel", "3月26日厦门回佛山有车吗", coach, off)
    assert [c["name"] for alt in found for c in alt["calls"]] == ["train_search_tickets"]
    rail = [Call(name="train_search_tickets", arguments={**coach[0].arguments})]
    assert [
        c["name"]
        for alt in _other_tool_readings("travel", "3月26日厦门到佛山的车", rail, off)
        for c in alt["calls"]
    ] == ["coach_search"]
    assert _other_tool_readings("travel", "3月26日厦门到佛山的动车", rail, off) == []
    assert _other_tool_readings("travel", "3月26日厦门到佛山的大巴", coach, off) == []


def test_the_life_index_answers_a_clothes_or_drying_question_the_forecast_is_gold_for() -> None:
    """这周五三亚衣服晾得干吗 (train round H): the drying index answers it as directly as the forecast;
    its cue words (衣服, 晾, 洗车) now name it, so the life index's reading is an alternative call list."""
    ref = "2026-08-05T15:15:00+08:00"
    gold = [Call(name="weather_daily_forecast", arguments={"city": "三亚", "date": "2026-08-07"})]
    offered = ["weather_daily_forecast", "life_index_query"]
    found = _other_tool_readings("weather", "这周五三亚衣服晾得干吗", gold, offered, ref=ref)
    assert [c["name"] for alt in found for c in alt["calls"]] == ["life_index_query"]
    assert (
        _other_tool_readings("weather", "这周五三亚衣服晾得干吗", gold, ["weather_daily_forecast"], ref=ref)
        == []
    )
