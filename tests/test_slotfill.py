"""The text-only slot filler (the builder's slot parser and the router baseline's argument filling):
one mention serves one argument, and mentions fill arguments in the order they are written."""

from __future__ import annotations

from plugineval.baselines.slotfill import SlotFiller, multi_fill
from plugineval.catalog import load_catalog

CAT = load_catalog()
REF = "2026-03-18T09:30:00+08:00"


def _fill(tool: str, query: str) -> dict | None:  # type: ignore[type-arg]
    t = CAT.tool(tool)
    return SlotFiller(t.openai_function(), t.annotations).fill(query, REF).arguments


def test_one_unit_mention_does_not_fill_both_units() -> None:
    # an underspecified request (no target unit) stays underspecified: it used to become kg -> kg
    assert _fill("unit_convert", "帮我把23公斤换算一下") is None


def test_units_fill_in_the_order_they_are_written() -> None:
    assert _fill("unit_convert", "把5英里换成公里") == {"value": 5.0, "from_unit": "mile", "to_unit": "km"}
    assert _fill("unit_convert", "请把58千克换算成斤") == {"value": 58.0, "from_unit": "kg", "to_unit": "jin"}


def test_a_bills_year_less_month_is_the_past_one() -> None:
    # 3月18日: "6月份" of a bill is last June, "2月" this February
    assert _fill("utility_bill_query", "6月份的水费，南京户号5398045516")["month"] == "2025-06"  # type: ignore[index]
    assert _fill("utility_bill_query", "2月电费，南京户号5398045516")["month"] == "2026-02"  # type: ignore[index]


def test_a_month_before_a_name_starting_with_zhong_is_the_month() -> None:
    """train round X: 上个月中信银行信用卡都刷了什么 read 上个月中 (mid-month) and lost the bill month in both
    generators; 中 that starts a name (中信, 中国银行, 中山公园) is no 月中."""
    from plugineval.baselines.textscan import find_times

    assert _fill("card_bill_query", "上个月中信银行信用卡都刷了什么") == {
        "bank": "citic",
        "bill_month": "2026-02",
    }
    assert _fill("card_bill_query", "2月中国银行信用卡钱花哪了")["bill_month"] == "2026-02"  # type: ignore[index]
    assert [t.text for t in find_times("3月中山公园", REF)] == ["3月"]
    assert [t.text for t in find_times("下个月中去北京", REF)] == ["下个月中"]  # mid-month still


def test_a_month_fills_a_start_and_end_date() -> None:
    got = _fill("step_stats", "上个月日均步数")
    assert got is not None and (got["start_date"], got["end_date"]) == ("2026-02-01", "2026-02-28")


def test_a_ranges_year_less_end_follows_the_dated_start() -> None:
    # defect: 从2025年2月10日到10月4号 — both text-only readers read 2025-10-04, whatever the round
    import asyncio

    from plugineval.baselines.router import ReferenceRouter
    from plugineval.builder.pccf.generators import SlotParserGenerator, Task, TemplateRetrieverGenerator
    from plugineval.builder.pccf.retriever import TemplateRetriever
    from plugineval.builder.synth.grammar import load_grammars

    gens: list[SlotParserGenerator | TemplateRetrieverGenerator] = [
        SlotParserGenerator(CAT, ReferenceRouter(CAT)),
        TemplateRetrieverGenerator(TemplateRetriever(CAT, load_grammars())),
    ]
    ref = "2026-10-31T09:38:00+08:00"
    for q, want, which in [
        # the retriever reads only the shapes the grammar says (no default pattern says 从…一共 with a year)
        ("从2025年2月10日到10月4号一共多少个月", ("2025-02-10", "2025-10-04"), gens[:1]),
        ("2025年12月10日到1月4号满几个月", ("2025-12-10", "2026-01-04"), gens),
    ]:
        task = Task(q, ref, CAT.plugin("date_calculator"), None)
        for g in which:
            for round_ in (0, 1):
                calls = asyncio.run(g.propose(task, round_)).calls
                assert calls is not None, (g.name, q)
                got = (calls[0].arguments["start_date"], calls[0].arguments["end_date"])
                assert got == want, (g.name, round_, q)


# --- structure, context references, declined mentions: tests/cases/slotfill.jsonl ------------------
def _cases() -> list[dict]:  # type: ignore[type-arg]
    import json
    from pathlib import Path

    path = Path(__file__).parent / "cases" / "slotfill.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_slotfill_cases() -> None:
    """Landmarks and stations by structure (从X到Y, X附近, X N公里内), a request's context read only
    through an explicit reference to it, 高铁/动车/特快 by the catalog's synonyms, 少走路 is no mode."""
    bad = []
    for c in _cases():
        got = _fill(c["tool"], c["query"])
        if got != c["expected"]:
            bad.append((c["query"], got, c["expected"]))
    assert not bad, bad


def test_context_is_read_only_through_a_reference() -> None:
    from plugineval.baselines.textscan import find_structure, resolve_references, split_context

    q = "EK:下午3点在虹桥火车站北出口集合，一起去市区逛逛。\nquery:记事本里提到的地点到浦东国际机场，我想找用时最短的公交线路。"
    assert split_context(q)[0].startswith("下午3点")
    text, steps = resolve_references(q, REF)
    assert text == "虹桥火车站到浦东国际机场，我想找用时最短的公交线路。" and steps == {"implicit_entity"}
    # the context's time is no departure time of the request
    assert _fill("route_plan", q) == {
        "origin": "虹桥火车站",
        "destination": "浦东国际机场",
        "mode": "transit",
    }
    # a place the request already names is not the referent
    q2 = "EK:明天从兰州西到西安北的高铁。\nquery:从西安北到小李微信里提到的地点"
    assert resolve_references(q2, REF)[0] == "从西安北到兰州西"
    # no reference: the context stays unread; no context: the text is unchanged
    assert resolve_references("EK:在广州塔等你。\nquery:北京明天天气", REF) == ("北京明天天气", set())
    assert resolve_references("记事本里提到的地点到外滩", REF) == ("记事本里提到的地点到外滩", set())
    assert find_structure("帮我搜一下成都春熙路周边500米内的超市").near == "成都春熙路"
    assert find_structure("朋友在外滩等我，我现在在人民广场，开车过去大概要多久").origin is None


def test_latin_enum_values_are_words() -> None:
    # "T" in "Tom" and "K" in "EK" are no train types; "G" stands alone
    assert "train_type" not in (_fill("train_search_tickets", "Tom想查明天北京到上海的火车") or {})
    assert _fill("train_search_tickets", "明天北京到上海的G字头列车")["train_type"] == "G"  # type: ignore[index]


def test_a_countdown_to_one_day_counts_from_today() -> None:
    # "离5月1号还有几天": the request's time implies the start; the unit is no "月" of the date
    assert _fill("date_diff", "离5月1号还有几天") == {
        "start_date": "2026-03-18",
        "end_date": "2026-05-01",
        "unit": "days",
    }
    assert _fill("date_diff", "5月1号到8月3号几个工作日") == {
        "start_date": "2026-05-01",
        "end_date": "2026-08-03",
        "unit": "workdays",
    }
    # one date and no countdown word: still missing the end
    assert _fill("date_diff", "从5月1号开始算") is None


def test_a_clock_time_alone_is_its_next_occurrence() -> None:
    from plugineval.baselines.textscan import find_times

    t = CAT.tool("reminder_create")
    f = SlotFiller(t.openai_function(), t.annotations)
    for query, want in (
        ("8点提醒我吃药", "2026-03-19T08:00:00+08:00"),
        ("晚上8点提醒我吃药", "2026-03-18T20:00:00+08:00"),
    ):
        args: dict = {}  # type: ignore[type-arg]
        f._next_clock(args, set(), find_times(query, REF), REF)
        assert args == {"remind_at": want}
    # a tool with a date argument of its own keeps the time alone (no date is invented)
    assert _fill("date_diff", "8点") is None


def _fill_steps(tool: str, query: str) -> tuple[dict | None, set[str]]:  # type: ignore[type-arg]
    t = CAT.tool(tool)
    f = SlotFiller(t.openai_function(), t.annotations, t.stateful).fill(query, REF)
    return f.arguments, f.steps


def test_a_present_tense_fact_of_the_day_is_today() -> None:
    # 北京天气 asks about today: the tool's date defaults to today (不填则为今天), so the reader leaves
    # it out and nothing is resolved against now
    for tool, query, arg, value in (
        ("weather_daily_forecast", "北京天气", "city", "北京"),
        ("air_quality_query", "北京空气质量", "city", "北京"),
        ("sun_moon_times", "上海日落几点", "city", "上海"),
        ("tv_schedule", "湖南卫视节目单", "channel", "hunan_tv"),
    ):
        assert "date" not in CAT.tool(tool).required
        args, steps = _fill_steps(tool, query)
        assert args == {arg: value}, query
        assert "relative_time" not in steps
    # the day of a trip is the user's to say: a ticket search without a date stays underspecified
    assert _fill("flight_search", "北京飞成都的机票") is None


def test_the_parser_fills_today_exactly_where_the_label_says_implied() -> None:
    from plugineval.baselines.implied import implied_today
    from plugineval.builder.pccf.stage1 import implied_by_time

    for tool, query in (
        ("sun_moon_times", "合肥的月亮几点升起来"),
        ("weather_history_query", "北京之前的天气"),
        ("flight_search", "北京飞成都的机票"),
    ):
        t = CAT.tool(tool)
        label = implied_by_time(t, ["date"], query, REF)
        assert label == implied_today(t.properties, t.annotations, t.stateful, ["date"], query, REF)
        args, _ = _fill_steps(tool, query)
        # a date the tool defaults to today may be left out: the call asks about today all the same
        today = REF[:10] if "date" in t.properties and "date" not in t.required else None
        assert (args is not None and args.get("date", today) == REF[:10]) is label, query


def test_a_landmark_of_one_city_implies_the_city() -> None:
    from plugineval.builder.pccf.generators import store_landmarks

    marks = {**store_landmarks(None), "天坛": frozenset({"北京"}), "万象城": frozenset({"深圳", "成都"})}

    def fill(tool: str, query: str) -> tuple[dict | None, set[str]]:  # type: ignore[type-arg]
        t = CAT.tool(tool)
        f = SlotFiller(t.openai_function(), t.annotations, t.stateful, marks).fill(query, REF)
        return f.arguments, f.steps

    args, steps = fill("poi_search_nearby", "三里屯附近的咖啡馆")
    assert args is not None and args["city"] == "北京" and args["near"] == "三里屯"
    assert "implicit_entity" in steps
    args, _ = fill("scenic_ticket_search", "明天天坛门票")
    assert args is not None and args["city"] == "北京" and args["date"] == "2026-03-19"
    # a station of the gazetteer names its city without the store
    assert _fill("poi_search_nearby", "虹桥机场附近的酒店") == {
        "city": "上海",
        "near": "虹桥机场",
        "category": "hotel",
    }
    # a name several cities have, or a centre every city has, leaves the city unread
    assert fill("poi_search_nearby", "万象城附近的咖啡馆")[0] is None
    assert fill("poi_search_nearby", "人民广场附近的咖啡馆")[0] is None
    # a name many cities give a place, though the store has it in one (深圳's 东门, 科技园: train round T)
    assert fill("poi_search_nearby", "东门附近的咖啡馆")[0] is None
    route, steps = fill("route_plan", "从科技园开车到东门多远")
    assert (route or {}).get("city") is None and "implicit_entity" not in steps
    # a city said is the city: the landmark adds nothing
    args, steps = fill("poi_search_nearby", "上海三里屯附近的咖啡馆")
    assert args is not None and args["city"] == "上海" and "implicit_entity" not in steps


def test_the_argument_evaluator_grounds_what_the_parser_implies() -> None:
    from plugineval.builder.pccf.evaluators import ArgumentEvaluator
    from plugineval.schema import Call

    ev = ArgumentEvaluator(CAT)
    ev.learn(None)
    today = Call(name="weather_daily_forecast", arguments={"city": "北京", "date": REF[:10]})
    assert ev.ground("北京天气", REF, today) == ({"city": "literal", "date": "implied"}, {"relative_time"})
    assert ev.ground("北京那天天气", REF, today)[0]["date"] is None
    cafe = Call(name="poi_search_nearby", arguments={"city": "北京", "near": "三里屯", "category": "cafe"})
    grounded, steps = ev.ground("三里屯附近的咖啡馆", REF, cafe)
    assert grounded["city"] == "landmark" and steps == {"implicit_entity"}
    wrong = Call(name="poi_search_nearby", arguments={"city": "上海", "near": "三里屯", "category": "cafe"})
    assert ev.ground("三里屯附近的咖啡馆", REF, wrong)[0]["city"] is None


# --- spans said against now (docs/format.md §3): the tool's direction decides ---------------------
def test_a_window_word_is_read_with_its_span() -> None:
    # 未来/近/最近/过去/接下来 used to be skipped: the scan started at the numeral (三天: a duration),
    # and 最近一周内 read as 一周内, the coming week
    from plugineval.baselines.textscan import find_times

    def span(q: str) -> tuple[str, str, str]:
        (t,) = find_times(q, REF)
        return t.text, str(t.value.start), str(t.value.end)

    assert span("未来三天") == ("未来三天", "2026-03-18", "2026-03-20")
    assert span("接下来3天") == ("接下来3天", "2026-03-18", "2026-03-20")
    assert span("近七天") == ("近七天", "2026-03-12", "2026-03-18")
    assert span("最近一周内") == ("最近一周内", "2026-03-12", "2026-03-18")
    assert span("过去一周") == ("过去一周", "2026-03-12", "2026-03-18")
    # not over-read: a frequency, a bare 最近, 过去 as a verb, a count of times
    assert [(t.text, t.value.kind) for t in find_times("一周三次", REF)] == [("一周", "duration")]
    assert find_times("最近怎么样", REF) == () and find_times("开车过去要多久", REF) == ()
    assert find_times("最近3次", REF) == ()
    # 这周天气 is this week's weather, 周天 alone still Sunday
    assert span("这周天气") == ("这周", "2026-03-16", "2026-03-22")
    assert span("周天去爬山") == ("周天", "2026-03-22", "2026-03-22")


def test_a_forecast_reads_spans_forward_with_their_length() -> None:
    def fc(q: str) -> tuple[str, int | None]:
        got = _fill("weather_daily_forecast", q)
        assert got is not None and got["city"] == "北京"
        return got["date"], got.get("days")

    assert fc("北京未来三天天气") == ("2026-03-18", 3)
    assert fc("北京未来7天的天气") == ("2026-03-18", 7)
    assert fc("北京近七天天气怎么样") == ("2026-03-18", 7)  # a forecast's 近七天 is the coming week
    assert fc("北京最近一周天气") == ("2026-03-18", 7)
    assert fc("北京这几天天气") == ("2026-03-18", 3)  # 这几天: three days, the forecast's default
    assert fc("北京这周天气") == ("2026-03-18", 5)  # Wednesday: today … Sunday
    assert fc("北京下周天气") == ("2026-03-23", 7)
    assert fc("北京过去一周天气") == ("2026-03-12", 7)  # said as the past: the tool refuses it
    assert fc("北京一周三次晨跑，明天天气") == ("2026-03-19", None)  # 一周 of a frequency: no span


def test_a_history_reads_spans_backward() -> None:
    def hist(q: str) -> tuple[str, str | None]:
        got = _fill("weather_history_query", q)
        assert got is not None and got["city"] == "北京"
        return got["start_date"], got.get("end_date")

    assert hist("北京近七天天气") == ("2026-03-12", "2026-03-18")
    assert hist("北京最近一周内下过雨吗") == ("2026-03-12", "2026-03-18")  # not the coming week
    assert hist("北京过去一周天气") == ("2026-03-12", "2026-03-18")
    assert hist("北京这几天天气") == ("2026-03-16", "2026-03-18")
    assert hist("北京这周天气") == ("2026-03-16", "2026-03-18")  # Monday … today
    assert hist("北京上周天气") == ("2026-03-09", "2026-03-15")
    assert hist("北京未来三天天气") == ("2026-03-18", "2026-03-20")  # said as the future: refused


def test_a_tools_direction_is_its_own_first_sentence() -> None:
    from plugineval.baselines.spans import direction

    def way(tool: str) -> str | None:
        return direction(CAT.tool(tool).openai_function()["function"]["description"])

    assert way("weather_daily_forecast") == "future" and way("weather_history_query") == "past"
    # live and forecast: no direction, so 这几天 is no span of its own (the one-day tool's present
    # tense reads today, as before)
    assert way("air_quality_query") is None
    assert _fill("air_quality_query", "北京这几天空气怎么样") == {"city": "北京"}  # today, by default


def test_a_date_then_a_clock_time_fills_both() -> None:
    # HH:MM arguments are declared by pattern, not format: the clock of "9月28号 15:00" went unread
    for q in (
        "9月28号 15:00以后北京到上海的高铁",
        "北京到上海9月28号的高铁，下午3点以后",
        "9月28号15:00后北京到上海的车",
    ):
        got = _fill("train_search_tickets", q)
        assert got is not None and (got["date"], got["depart_after"]) == ("2026-09-28", "15:00"), q
    assert "depart_after" not in (_fill("train_search_tickets", "9月28号北京到上海的高铁") or {})


def test_the_slot_parser_prefers_the_tool_that_holds_the_span() -> None:
    # the router ranks the hourly forecast first for 这几天/下周; its one date keeps only the first day
    import asyncio

    from plugineval.baselines.router import ReferenceRouter
    from plugineval.builder.pccf.generators import SlotParserGenerator, Task

    gen = SlotParserGenerator(CAT, ReferenceRouter(CAT))
    plugin = next(p for p in CAT.plugins if p.id == "weather_forecast")

    def read(q: str) -> list[tuple[str, dict]]:  # type: ignore[type-arg]
        got = asyncio.run(gen.propose(Task(q, REF, plugin, None), 0)).calls
        return [(c.name, c.arguments) for c in got or []]

    assert read("成都这几天会下雨吗") == [
        ("weather_daily_forecast", {"date": "2026-03-18", "days": 3, "city": "成都"})
    ]
    assert read("杭州下周天气") == [
        ("weather_daily_forecast", {"date": "2026-03-23", "days": 7, "city": "杭州"})
    ]
    assert read("杭州明天几点下雨")[0][0] == "weather_hourly_forecast"  # one day: the router's order


def test_a_clock_time_exposes_no_misread_count() -> None:
    # reading the clock completed calls whose other arguments were misread: an hour count said as a
    # duration (10个小时 is a time mention, so the 3 of 3栋 was taken) and a list of cities split
    # into one call per city for a tool that takes the list
    got = _fill("housekeeping_book", "南京中山路100号3栋502，5月28号8:00起保洁10个小时")
    assert got is not None and (got["start_time"], got["hours"]) == ("08:00", 10)
    t = CAT.tool("timezone_convert")
    fills = multi_fill(SlotFiller(t.openai_function(), t.annotations), "北京时间11:45，纽约、伦敦各几点", REF)
    assert len(fills) == 1
    w = CAT.tool("weather_daily_forecast")  # a tool with one place: one call per city, as before
    assert len(multi_fill(SlotFiller(w.openai_function(), w.annotations), "北京和上海明天天气", REF)) == 2


def test_a_range_to_now_ends_today_and_starts_on_the_last_such_day() -> None:
    # train probe: 济南9月14日以来旱不旱 read as 9月14日 alone (and as next year's), so the gold asked
    # about one day of a month-long question
    ref = "2025-10-06T10:00:00+08:00"
    t = CAT.tool("weather_history_query")
    f = SlotFiller(t.openai_function(), t.annotations)
    args = f.fill("济南9月14日以来旱不旱", ref).arguments
    assert args == {"city": "济南", "start_date": "2025-09-14", "end_date": "2025-10-06"}
    assert f.fill("3月1号至今济南下了几天雨", ref).arguments["start_date"] == "2025-03-01"
    # no range said: the day alone, as before
    assert f.fill("济南9月14日下雨了吗", ref).arguments.get("end_date") is None


def test_live_is_a_concert() -> None:
    # train probe: 周末在洛阳去哪玩，有live吗 got no category (the items found were plays, which made
    # category drama an accepted extra and the model's concert a failure)
    args = _fill("show_search", "周末在洛阳去哪玩，有live吗")
    assert args is not None and args["category"] == "concert"


def test_a_university_named_after_a_place_is_no_mention_of_the_place() -> None:
    # train probe: 浙江大学坐地铁到杭州东站 read as city 浙江 and station 大学
    from plugineval.baselines.textscan import find_places

    assert [p.text for p in find_places("浙江大学坐地铁到杭州东站")] == ["杭州"]
    assert [p.text for p in find_places("北京的大学有哪些")] == ["北京"]
    args = _fill("metro_route", "浙江大学坐地铁到杭州东站")
    assert args is not None and args["from_station"] == "浙江大学" and args["city"] == "杭州"
