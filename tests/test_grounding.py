"""Grounded alternatives, time resolution and labels (issue 22; SPEC §1 and §3, revision 3): one case of
each class in each direction — accepted where it should be, refused where it should be. The reference
defects the issue's audit found are builder tests here."""

from __future__ import annotations

from typing import Any

import pytest
from test_alternatives import CAT, REF, _find

from plugineval.builder.pccf.alternatives import AlternativeFinder
from plugineval.builder.pccf.answers import finds_nothing
from plugineval.builder.pccf.generators import in_event_order
from plugineval.builder.pccf.grounding import (
    drops_part,
    names_content,
    names_person,
    said_names,
    said_values,
    value_reason,
)
from plugineval.builder.pccf.stage1 import implied_by_time
from plugineval.schema import Call


def _offer(arg: str, values: list[Any]) -> Any:
    def patch(finder: AlternativeFinder) -> None:
        finder._entailed_values = lambda c, a, q, r: values if a == arg else []  # type: ignore[method-assign]

    return patch


# --- meaning: a value means what its argument means ---------------------------------------------
def test_the_users_own_words_fill_a_field_only_where_they_name_its_content() -> None:
    # defect: a calendar location of 把季度复盘写进日程
    gold = [
        Call(
            name="calendar_create_event",
            arguments={"title": "季度复盘", "start_time": "2026-03-20T15:00:00+08:00"},
        )
    ]
    refused = _find("3月20日下午3点，把季度复盘写进日程", gold)
    assert "location" not in refused.alternatives[0].extra
    assert refused.rejected["own_words"]["not_field_content"] >= 1
    accepted = _find("3月20日下午3点季度复盘，大会议室", gold)
    assert accepted.alternatives[0].extra.get("location") == ["大会议室"]
    # an echoed subject takes the name of the meeting, not the user's remark
    sch = CAT.tool("meeting_room_book").properties["subject"]
    assert names_content("subject", sch, "新人入职培训") and not names_content("subject", sch, "地方还没着落")
    # the request's own errand is no subject either (train probe: 还缺个会议室, 订个会议室 were accepted)
    for errand in ("还缺个会议室", "订个会议室", "开个会"):
        assert not names_content("subject", sch, errand), errand
    for name in ("客户来访", "订单复盘", "团队会议"):
        assert names_content("subject", sch, name), name


@pytest.mark.parametrize(
    ("value", "ok"), [("有点急", False), ("想约人喝咖啡", False), ("评审", True), ("客户拜访", True)]
)
def test_a_keyword_is_a_word_for_what_is_sought(value: str, ok: bool) -> None:
    # defect: keyword 有点急 / 想约人喝咖啡 (they would filter the day's events away)
    tool = CAT.tool("calendar_list_events")
    assert names_content("keyword", tool.properties["keyword"], value) is ok


def test_a_reading_with_the_users_mood_as_a_keyword_is_refused_even_where_the_answers_agree() -> None:
    gold = [Call(name="calendar_list_events", arguments={"date_from": "2026-03-22"})]  # a day without events
    reading = {
        "calls": [
            {"name": "calendar_list_events", "arguments": {"date_from": "2026-03-22", "keyword": "有点急"}}
        ]
    }
    trace = [{"round": 1, "proposals": [{"generator": "slot_parser", "eligible": True, "score": 1.0,
                                         "grounding": {"0.date_from": "time", "0.keyword": "text"}, **reading}]}]  # fmt: skip
    found = _find("有点急，3月22日有什么安排", gold, trace)
    assert "keyword" not in found.alternatives[0].extra
    assert found.rejected["proposal"] == {"not_field_content": 1}
    # the echo probe cannot tell a filter from an echo on an empty day: nothing of the user's words
    assert found.rejected["own_words"]["empty_answer"] == 1


def test_the_destination_is_no_origin_and_a_city_argument_takes_a_city() -> None:
    tool = CAT.tool("train_search_tickets")
    args = {"from_city": "上海", "to_city": "上海", "date": "2026-03-20"}
    assert value_reason(tool, args, "from_city", "上海", "去上海的高铁") == "same_as_other_argument"
    assert value_reason(tool, {**args, "from_city": "北京"}, "from_city", "北京", "北京去上海的高铁") is None
    assert value_reason(tool, args, "from_city", "开车", "开车去上海") == "not_a_city"


# --- said or entailed: a free value the request never names is none --------------------------------
def test_a_hospital_the_request_never_names_is_no_alternative() -> None:
    base = {"city": "合肥", "department": "pediatrics", "date": "2026-03-19", "title": "chief_physician",
            "period": "afternoon"}  # fmt: skip
    gold = [Call(name="doctor_schedule", arguments=base)]  # one doctor, at 合肥市妇幼保健院
    patch = _offer("hospital", ["合肥市妇幼保健院"])
    refused = _find("明天下午合肥儿科的主任医师", gold, patch=patch)
    assert "hospital" not in refused.alternatives[0].extra
    assert refused.rejected["entailed"] == {"not_in_request": 1}
    accepted = _find("明天下午合肥市妇幼保健院儿科的主任医师", gold, patch=patch)
    assert accepted.alternatives[0].extra.get("hospital") == ["合肥市妇幼保健院"]


# --- execution equality counts only where it can tell --------------------------------------------
def test_equality_proves_nothing_where_the_tool_ignores_the_argument() -> None:
    # route_plan resolves its places without the city: any city gives the gold's answer
    gold = [Call(name="route_plan", arguments={"origin": "人民广场", "destination": "外滩"})]
    found = _find("刚从北京到上海，从人民广场到外滩怎么走", gold, patch=_offer("city", ["上海"]))
    assert "city" not in found.alternatives[0].extra
    assert found.rejected["entailed"] == {"tool_ignores_argument": 1}
    # a city the request neither says nor entails is none (徐家汇 lies in 上海, not 北京)
    xjh = [Call(name="route_plan", arguments={"origin": "人民广场", "destination": "徐家汇"})]
    unsaid = _find("从人民广场到徐家汇怎么走", xjh, patch=_offer("city", ["北京"]))
    assert unsaid.rejected["entailed"] == {"not_in_request": 1}
    # ... but the one city of the landmarks named is said (外滩 lies in 上海 only; train probe 211:
    # 市民中心到华强北 with city 深圳 was failed)
    bund = _find("从人民广场到外滩怎么走", gold, patch=_offer("city", ["上海"]))
    assert bund.alternatives[0].extra.get("city") == ["上海"]
    # ... where the request itself names the one city, that is the evidence
    said = _find("上海从人民广场到外滩怎么走", gold, patch=_offer("city", ["上海"]))
    assert said.alternatives[0].extra.get("city") == ["上海"]
    # a category the tool filters by: another category answers otherwise, so equality tells
    shirts = _find("帮我找找羽绒服", [Call(name="product_search", arguments={"keyword": "羽绒服"})])
    assert shirts.alternatives[0].extra.get("category") == ["clothing"]


def test_equality_proves_nothing_where_the_answers_list_nothing() -> None:
    events = {"date_from": "2026-03-22", "count": 0, "busy_minutes": 0, "events": []}
    assert finds_nothing(events, CAT.tool("calendar_list_events"))
    hotels = {"city": "宁波", "nights": 2, "total_found": 0, "hotels": []}  # nights: the request's arithmetic
    assert finds_nothing(hotels, CAT.tool("hotel_search"))
    booked = {"status": "created", "conflicts": [], "attendees": [], "remind_at": "2026-03-20T14:45:00+08:00"}
    assert not finds_nothing(booked, CAT.tool("calendar_create_event"))
    # the user's word for the category where nothing is found (no 串串 shop delivers there)
    gold = [Call(name="takeout_search_restaurants", arguments={"city": "杭州", "address": "文三路90号", "cuisine": "hotpot"})]  # fmt: skip
    found = _find("杭州文三路90号附近的串串", gold)
    assert found.alternative_calls == [] and found.rejected["keyword"] == {"empty_answer": 1}


# --- every part of the request -------------------------------------------------------------------
def test_one_airline_searched_where_the_user_compares_two_is_refused() -> None:
    gold = [
        Call(name="flight_search", arguments={"from_city": "广州", "to_city": "成都", "date": "2026-03-20"})
    ]
    both = _find("3月20日广州到成都，国航和东航的航班比一比", gold)
    assert "airline" not in both.alternatives[0].extra
    assert both.rejected["entailed"] == {"drops_part_of_request": 1}
    one = _find("3月20日广州到成都国航的航班", gold)  # one airline asked: the filter is the user's
    assert one.alternatives[0].extra.get("airline") == ["CA"]
    tool = CAT.tool("flight_search")
    assert said_values(tool, "cabin", "超级经济舱") == {"premium_economy"}  # not also economy
    ca = Call(name="flight_search", arguments={**gold[0].arguments, "airline": "CA"})
    assert drops_part(CAT.tool, "国航和东航比一比", gold, [ca]) and not drops_part(
        CAT.tool, "国航的", gold, [ca]
    )


# --- alternatives the judge lacked (issue items 6–9) ----------------------------------------------
def test_one_schedule_without_the_period_answers_morning_and_afternoon() -> None:
    base = {"city": "北京", "department": "pediatrics", "date": "2026-03-19"}
    gold = [
        Call(name="doctor_schedule", arguments={**base, "period": "morning"}),
        Call(name="doctor_schedule", arguments={**base, "period": "afternoon"}),
    ]
    found = _find("明天北京儿科上午和下午各是哪些医生", gold)
    assert [c["arguments"] for a in found.alternative_calls for c in a["calls"]] == [base]
    # one period asked: the schedule of the whole day is another answer
    assert _find("明天北京儿科上午有哪些医生", gold[:1]).alternative_calls == []


def test_the_users_word_in_place_of_the_category_the_gold_chose() -> None:
    place = {"city": "杭州", "address": "文三路90号"}
    gold = [Call(name="takeout_search_restaurants", arguments={**place, "cuisine": "dessert"})]
    found = _find("杭州文三路90号附近的奶茶", gold)
    assert [c["arguments"] for a in found.alternative_calls for c in a["calls"]] == [
        {**place, "keyword": "奶茶"}
    ]
    # no word of the user's for the category: nothing to put in its place
    assert _find("杭州文三路90号附近的外卖", gold).tried["keyword"] == 0


def test_find_them_all_takes_any_longer_list_up_to_the_largest_limit_the_tool_takes() -> None:
    gold = [Call(name="music_search", arguments={"keyword": "周杰伦"})]
    assert _find("周杰伦的歌都找出来", gold).alternatives[0].extra.get("limit") == list(range(11, 51))
    assert "limit" not in _find("周杰伦的歌，找5首", gold).alternatives[0].extra
    assert "limit" not in _find("周杰伦的歌，找几首都找出来", gold).alternatives[0].extra  # a number asked


def test_an_argument_left_out_where_the_default_serves_the_request() -> None:
    # defect: a fund's NAV asked at 14:59, published after 20:00 — no date gives the latest value
    gold = [Call(name="fund_nav_query", arguments={"fund": "000040", "date": "2026-03-18"})]
    assert "date" in _find("000040今天净值多少", gold).alternatives[0].omittable
    past = [Call(name="fund_nav_query", arguments={"fund": "000040", "date": "2026-03-02"})]
    assert "date" not in _find("000040在3月2日的净值多少", past).alternatives[0].omittable


# --- time resolution -----------------------------------------------------------------------------
def test_a_year_less_date_follows_the_requests_order_of_events() -> None:
    # defect: 2月5日买的 with 去年农历九月初一卖的 — the purchase comes before the sale
    ref = "2026-03-18T14:59:00+08:00"
    calls = [
        Call(name="fund_nav_query", arguments={"fund": "000040", "date": "2027-02-05"}),
        Call(name="fund_nav_query", arguments={"fund": "000040", "date": "2025-10-21"}),
    ]
    q = "000040我是2月5日买的、去年农历九月初一卖的，这两天的净值各是多少"
    assert [c.arguments["date"] for c in in_event_order(q, ref, calls)] == ["2025-02-05", "2025-10-21"]
    # a purchase said with its year, or dates already in order, stay as read
    said = "000040我是2025年2月5日买的、去年农历九月初一卖的"
    assert in_event_order(said, ref, [calls[1]]) == [calls[1]]
    later = [
        Call(
            name="hotel_search",
            arguments={"city": "成都", "check_in": "2025-12-01", "check_out": "2027-01-03"},
        )
    ]
    moved = in_event_order("去年12月1日入住，1月3日退房", ref, later)
    assert moved[0].arguments["check_out"] == "2026-01-03"


def test_a_ranges_year_less_end_is_its_first_occurrence_on_or_after_the_start() -> None:
    # defect: 从2025年2月10日到10月4号 (ref 2026-10-31) — the end is 2025-10-04, not the 10月4日 nearest today
    ref = "2026-10-31T09:38:00+08:00"

    def end(q: str, start: str, read: str) -> str:
        call = Call(name="date_diff", arguments={"start_date": start, "end_date": read, "unit": "months"})
        return str(in_event_order(q, ref, [call])[0].arguments["end_date"])

    q = "从2025年2月10日到10月4号一共多少个月"
    assert end(q, "2025-02-10", "2026-10-04") == end(q, "2025-02-10", "2027-10-04") == "2025-10-04"
    assert end("2025年12月10日起到1月4号多少天", "2025-12-10", "2027-01-04") == "2026-01-04"
    assert end("2025年12月10日至1月4日多少天", "2025-12-10", "2027-01-04") == "2026-01-04"
    assert end("从去年12月1日到1月3日几个月", "2025-12-01", "2027-01-03") == "2026-01-03"
    # a start without its year, or an end with one, stays as read
    assert end("从2月10日到10月4号几个月", "2027-02-10", "2027-10-04") == "2027-10-04"
    assert end("从2025年2月10日到2026年10月4号几个月", "2025-02-10", "2026-10-04") == "2026-10-04"


def test_a_grammars_dated_start_before_a_bare_end_draws_the_end_within_the_year_after() -> None:
    # {start}到{end:md}: the intended end is the one the readers read (the first on or after the start)
    import re

    from plugineval.builder.synth.grammar import load_grammars

    rx = re.compile(r"\{(?P<a>[a-z0-9_]+)\}(?:起)?(?:到|至)\{(?P<b>[a-z0-9_]+):md\}")
    seen = 0
    for g in load_grammars().values():
        for sc in g.scenarios.values():
            for p in sc.patterns:
                for m in rx.finditer(p.text):
                    a, b = g.slots[m.group("a")], g.slots[m.group("b")]
                    if a.type != "date" or b.type != "date":
                        continue
                    seen += 1
                    assert b.min_days - a.max_days >= 0 and b.max_days - a.min_days < 365, p.id
    assert seen >= 1


# --- labels --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("tool", "missing", "query", "implied"),
    [
        ("sun_moon_times", ["date"], "合肥的月亮几点升起来", True),  # present tense: today
        ("sun_moon_times", ["date"], "合肥那天的月亮几点升起来", False),  # another, unnamed day
        ("sun_moon_times", ["date"], "拉萨一般几点日出", False),  # no day in particular
        ("train_search_tickets", ["from_city"], "明天去蚌埠的车票", False),  # no origin anyone can infer
        ("flight_search", ["date"], "北京飞成都的机票", False),  # the day of a trip is the user's to say
    ],
)
def test_underspecified_only_where_the_value_is_really_missing(
    tool: str, missing: list[str], query: str, implied: bool
) -> None:
    assert implied_by_time(CAT.tool(tool), missing, query, REF) is implied


def test_a_filter_only_the_answers_items_share_is_no_alternative_unless_the_request_says_it() -> None:
    # every song found is Mandarin, every doctor found works mornings: a filter the user never asked for
    gold = [Call(name="music_search", arguments={"keyword": "周杰伦"})]
    unsaid = _find("周杰伦的歌", gold)
    assert "language" not in unsaid.alternatives[0].extra
    assert unsaid.rejected["entailed"]["not_in_request"] == 1
    assert _find("周杰伦的国语歌", gold).alternatives[0].extra.get("language") == ["mandarin"]


def test_the_users_word_for_a_category_the_tool_does_not_search_by_is_no_keyword() -> None:
    # 标间 (room_type twin) matches no hotel's name, area or address: the keyword search finds nothing
    dates = {"city": "宁波", "check_in": "2026-03-20", "check_out": "2026-03-22"}
    found = _find(
        "3月20号至3月22日宁波的标间", [Call(name="hotel_search", arguments={**dates, "room_type": "twin"})]
    )
    assert found.alternative_calls == [] and found.tried["keyword"] == 1


def test_one_of_two_gold_calls_alone_drops_the_other_part_however_equal_its_answer() -> None:
    # the same delivery days to 南宁 and to 贵阳: the call for 南宁 still never asked about 贵阳
    b = {"brand": "珀莱雅", "keyword": "防晒霜"}
    gold = [
        Call(name="product_search", arguments={**b, "ship_to": "南宁"}),
        Call(name="product_search", arguments={**b, "ship_to": "贵阳"}),
    ]
    found = _find("看看珀莱雅的防晒霜，我在南宁，我爸妈在贵阳，两边分别几天能到", gold)
    assert found.alternative_calls == [] and found.rejected["merged"] == {"drops_part_of_request": 2}


def test_stage_one_refutes_an_underspecified_draft_whose_time_implies_the_value() -> None:
    import anyio

    from plugineval.builder.pccf.config import Stage1
    from plugineval.builder.pccf.stage1 import StageOne
    from plugineval.builder.synth.synthesizer import Candidate
    from plugineval.builder.tools.server import ToolExecutor

    def verify(plugin: str, scenario: str, query: str, call: Call, missing: list[str] | None = None) -> Any:
        p = CAT.plugin(plugin)
        sc = next(s for s in p.scenarios if s.id == scenario)
        if missing is not None:  # a scenario that says the date is missing
            sc = sc.model_copy(update={"missing": missing})
        cand = Candidate(query, plugin, scenario, "underspecified", "-", REF, [call], [], query)

        async def go() -> Any:
            async with ToolExecutor(CAT) as ex:
                return await StageOne(Stage1(), CAT, ex, []).verify(cand, p, sc, None)

        return anyio.run(go)

    moon = verify(
        "sun_moon",
        "missing_city",
        "合肥的月亮几点升起来",
        Call(name="sun_moon_times", arguments={"city": "合肥"}),
        missing=["date"],
    )
    # the tool's date is optional now (不填则为今天): the call serves without it, so the draft is no
    # underspecified request at all (before, the time implying the value refuted it)
    assert not moon.accepted and moon.reason in ("missing_mismatch", "value_implied_by_time")
    # no origin anyone can infer: the draft goes on to Stage I's abstention check (no generator here)
    rail = CAT.plugin("rail_tickets")
    sc = next(s for s in rail.scenarios if s.id == "missing_route")
    ticket = Call(name="train_search_tickets", arguments={"to_city": "蚌埠"})
    assert not implied_by_time(CAT.tool("train_search_tickets"), sorted(sc.missing), "去蚌埠的车票", REF)
    assert verify("rail_tickets", "missing_route", "去蚌埠的车票", ticket).reason != "value_implied_by_time"


def test_the_users_word_for_one_of_two_categories_keeps_the_other_call() -> None:
    # a wide probe (seed 31): 博物馆和古迹 — the museums by keyword alone dropped the historic sites
    base = {"city": "西安", "date": "2026-03-20"}
    gold = [
        Call(name="scenic_ticket_search", arguments={**base, "category": "museum"}),
        Call(name="scenic_ticket_search", arguments={**base, "category": "history"}),
    ]
    found = _find("3月20日西安博物馆和古迹门票", gold)
    lists = [[c["arguments"] for c in alt["calls"]] for alt in found.alternative_calls]
    assert [{**base, "keyword": "博物馆"}, {**base, "category": "history"}] in lists
    assert all(len(x) == 2 or x == [base] for x in lists)  # no list of the museums alone


# --- final probe: a single day said, a name field, a booking that under-delivers -----------------
@pytest.mark.parametrize(
    ("query", "day", "ok"),
    [
        ("西甲奥萨苏纳昨天赢了吗", "2026-03-17", True),
        ("中超下星期二有哪些对阵", "2026-03-24", True),
        ("中超这周末有哪些对阵", "2026-03-21", False),  # a range: the end is the user's or the default's
        ("下周中超有哪些比赛", "2026-03-23", False),
    ],
)
def test_a_single_day_said_may_end_the_window_on_that_day(query: str, day: str, ok: bool) -> None:
    gold = [
        Call(
            name="match_schedule",
            arguments={"league": "la_liga" if "西甲" in query else "csl", "date_from": day},
        )
    ]
    found = _find(query, gold)
    assert (day in found.alternatives[0].extra.get("date_to", [])) is ok


def test_a_person_name_field_takes_a_name_the_request_says() -> None:
    tool = CAT.tool("hotel_book")
    args = {"hotel_id": "H00863", "check_in": "2026-03-20", "check_out": "2026-03-21", "room_type": "king"}
    q = "杭州那家酒店3月20号住一晚，大床房，入住人王芳，有就帮我订，给朋友过生日"
    assert value_reason(tool, args, "guest_name", "王芳", q) is None
    for fragment in ("有就帮我订", "给朋友过生日", "帮我订"):
        assert value_reason(tool, args, "guest_name", fragment, q) == "not_field_content", fragment
    assert names_person("李娜", "张伟和李娜各一间") and names_person("小明", "联系人叫小明")
    assert not names_person("朋友", "给朋友订一间") and names_person("本人", "订一间", "本人")
    # a question is no meeting subject
    sch = CAT.tool("meeting_room_book").properties["subject"]
    for q in ("哪有空屋", "有没有空会议室", "会议室哪有"):
        assert not names_content("subject", sch, q), q


def test_one_booking_for_no_one_named_does_not_replace_two_rooms_for_two_guests() -> None:
    base = {"hotel_id": "H00863", "check_in": "2026-03-20", "check_out": "2026-03-21", "room_type": "king"}
    gold = [
        Call(name="hotel_book", arguments={**base, "guest_name": "张伟"}),
        Call(name="hotel_book", arguments={**base, "guest_name": "李娜"}),
    ]
    found = _find("3月20号杭州那家酒店订两间大床房，入住人张伟和李娜", gold)
    assert found.alternative_calls == [] and found.rejected["merged"]["drops_part_of_request"] >= 1
    tools = CAT.tool
    one = [Call(name="hotel_book", arguments={**base, "rooms": 2, "guest_name": "张伟"})]
    assert drops_part(tools, "订两间，入住人张伟", one, [Call(name="hotel_book", arguments=base)])
    # the same booking with the rooms written out as two calls of one room each delivers as much
    assert not drops_part(
        tools,
        "订两间，入住人张伟",
        one,
        [Call(name="hotel_book", arguments={**base, "rooms": 2, "guest_name": "张伟"})],
    )


def test_the_users_own_words_for_a_contact_are_a_name_never_a_fragment() -> None:
    gold = [
        Call(
            name="restaurant_reserve",
            arguments={
                "city": "杭州",
                "restaurant_name": "农耕记湖南土菜",
                "date": "2026-03-19",
                "time": "18:00",
                "party_size": 4,
            },
        )
    ]
    refused = _find("明天晚上6点杭州农耕记湖南土菜订4个人的位子，有就帮我订，给朋友过生日", gold)
    assert "contact_name" not in refused.alternatives[0].extra
    accepted = _find("明天晚上6点杭州农耕记湖南土菜订4个人的位子，联系人王芳", gold)
    assert accepted.alternatives[0].extra.get("contact_name") == ["王芳"]
    assert said_names("联系人叫小明的那个") == ["小明"]


def test_a_variant_with_a_list_where_a_name_stands_is_judged_not_crashed() -> None:
    """A variant may put any JSON in a person-name argument (a list of names): the check reads it as
    naming no one instead of crashing the build (a full build died on an unhashable list)."""
    from plugineval.builder.pccf.grounding import under_delivers

    gold = [Call(name="hotel_book", arguments={"hotel_id": "H00863", "guest_name": "张伟"})]
    odd = [Call(name="hotel_book", arguments={"hotel_id": "H00863", "guest_name": ["张伟"]})]
    assert under_delivers(CAT.tool, "给张伟订一间", gold, odd)
    assert not under_delivers(CAT.tool, "给张伟订一间", gold, gold)
