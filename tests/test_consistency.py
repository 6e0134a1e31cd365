"""Drafts that contradict themselves or their reference time are refused before Stage I
(``synth/consistency.py``)."""

from __future__ import annotations

from plugineval.builder.synth.consistency import before_the_open, contradiction, deadline_passed
from plugineval.catalog import load_catalog
from plugineval.schema import Call


def test_a_deadline_of_today_that_has_passed_is_no_request_the_tools_answer() -> None:
    """train round O: 厦门开车去福州中午前能到吗 asked at 13:01 — the model said noon had passed, the
    gold planned the route. Another day said, or a time before the deadline, is a request."""
    q = "厦门开车去福州中午前能到吗"
    assert deadline_passed(q, "2025-10-13T13:01:00+08:00") is not None
    assert contradiction(load_catalog(), q, "2025-10-13T13:01:00+08:00", []) is not None
    assert deadline_passed(q, "2025-10-13T08:30:00+08:00") is None
    assert deadline_passed("明天厦门开车去福州中午前能到吗", "2025-10-13T13:01:00+08:00") is None
    assert deadline_passed("今天坐火车回南京，天黑前能到吗", "2025-10-13T18:20:00+08:00") is not None
    assert deadline_passed("后天坐火车回南京，天黑前能到吗", "2025-10-13T18:20:00+08:00") is None


def test_todays_trading_asked_before_the_open_or_on_a_weekend_is_no_request_the_tools_answer() -> None:
    """final sample 11: 002624今天开盘多少 asked at 08:56 — the model said the market had not opened, the
    gold called the quote. After the open, or a question that is not about today's session, is a request."""
    q = "002624今天开盘多少？"
    quote = [Call(name="stock_quote", arguments={"symbol": "002624"})]
    assert before_the_open(q, "2025-12-01T08:56:00+08:00", quote) is not None  # a Monday
    assert contradiction(load_catalog(), q, "2025-12-01T08:56:00+08:00", quote) is not None
    assert before_the_open(q, "2025-12-06T10:00:00+08:00", quote) is not None  # a Saturday
    assert before_the_open(q, "2025-12-01T10:05:00+08:00", quote) is None
    assert before_the_open("002624昨天收盘多少", "2025-12-01T08:56:00+08:00", quote) is None
    # the same words about the weather are no question about a trading session
    weather = [Call(name="weather_daily_forecast", arguments={"city": "北京"})]
    assert before_the_open("北京今天最高几度", "2025-12-06T08:00:00+08:00", weather) is None


def test_an_event_of_today_asked_after_it_passed_is_no_record() -> None:
    """final sample 11: 南昌月亮几点落 asked at 18:54, when today's moonset (04:42) had passed — the model
    asked tomorrow's as well, the gold today's only. Before the event, or with a day said, it is a request."""
    from plugineval.builder.synth.consistency import event_passed

    call = [Call(name="sun_moon_times", arguments={"city": "南昌"})]
    answer = [
        {"city": "南昌", "date": "2026-01-01", "moonrise": "15:03", "moonset": "04:42", "sunrise": "07:11"}
    ]
    evening = "2026-01-01T18:54:00+08:00"
    assert event_passed("南昌月亮几点落？", evening, call, answer) is not None
    assert event_passed("南昌日出几点", evening, call, answer) is not None
    assert event_passed("南昌几点出太阳", evening, call, answer) is not None  # train round Y
    assert event_passed("南昌月亮几点落？", "2026-01-01T03:10:00+08:00", call, answer) is None
    assert event_passed("南昌月亮几点出来", evening, call, answer) is not None  # risen at 15:03
    assert event_passed("南昌月亮几点出来", "2026-01-01T12:00:00+08:00", call, answer) is None
    assert event_passed("明天南昌月亮几点落", evening, call, answer) is None  # a day said
    other = [Call(name="weather_daily_forecast", arguments={"city": "南昌"})]
    assert event_passed("南昌月亮几点落？", evening, other, [{"date": "2026-01-01"}]) is None


def test_a_trip_asked_by_the_metro_and_answered_by_bus_is_no_record() -> None:
    """train round W: 北京大学坐地铁去望京二十分钟能到吗, where the store has no station near 北京大学: the
    transit route takes the 162路 bus, the metro guide refuses the trip, and the gold answers a trip no
    one asked. A metro line in the answer, or no 坐地铁 said, keeps the record."""
    from plugineval.builder.synth.consistency import answer_contradiction

    call = [
        Call(name="route_plan", arguments={"origin": "北京大学", "destination": "望京", "mode": "transit"})
    ]
    ref = "2026-04-17T14:28:00+08:00"
    bus = [{"steps": [{"instruction": "步行至公交站"}, {"instruction": "乘坐162路公交车"}]}]
    metro = [
        {"steps": [{"instruction": "步行至地铁国贸站"}, {"instruction": "乘坐3号线从国贸到上海街（8站）"}]}
    ]
    assert answer_contradiction("北京大学坐地铁去望京二十分钟能到吗", ref, call, bus) == "metro_not_taken"
    assert answer_contradiction("北京大学坐地铁去望京二十分钟能到吗", ref, call, metro) is None
    assert answer_contradiction("北京大学坐公交去望京要多久", ref, call, bus) is None
    drive = [
        Call(name="route_plan", arguments={"origin": "北京大学", "destination": "望京", "mode": "driving"})
    ]
    assert answer_contradiction("北京大学坐地铁去望京多久", ref, drive, bus) is None


def test_todays_sessions_asked_after_the_last_one_ended_is_no_record() -> None:
    """train round X: 今天去西宁打流感疫苗约得上吗 at 21:08 — the model said the day's sessions were over
    (14:00-16:30, as the catalog says) and called nothing; the gold looked up today's slots."""
    from plugineval.builder.synth.consistency import sessions_over

    call = [
        Call(name="vaccine_slots", arguments={"city": "西宁", "vaccine": "influenza", "date": "2026-09-23"})
    ]
    assert sessions_over("2026-09-23T21:08:00+08:00", call) is not None
    assert sessions_over("2026-09-23T16:30:00+08:00", call) is not None
    assert sessions_over("2026-09-23T15:10:00+08:00", call) is None  # the afternoon session is on
    assert sessions_over("2026-09-22T21:08:00+08:00", call) is None  # tomorrow's asked in the evening
    clinic = [
        Call(name="doctor_schedule", arguments={"city": "西宁", "department": "ent", "date": "2026-09-23"})
    ]
    assert sessions_over("2026-09-23T16:45:00+08:00", clinic) is None
    assert sessions_over("2026-09-23T17:20:00+08:00", clinic) is not None


def test_snow_asked_in_summer_is_no_record() -> None:
    """train round AG: 贵阳下雪没 on July 12th, answered from the season without a tool. 雪糕 is no snow,
    and snow asked in winter is a request."""
    from plugineval.builder.synth.consistency import out_of_season

    assert out_of_season("贵阳下雪没", "2025-07-12T07:48:00+08:00") is not None
    assert out_of_season("明天哈尔滨会下雪吗", "2025-09-30T07:48:00+08:00") is not None
    assert contradiction(load_catalog(), "贵阳下雪没", "2025-07-12T07:48:00+08:00", []) is not None
    assert out_of_season("贵阳下雪没", "2025-12-12T07:48:00+08:00") is None
    assert out_of_season("鸟巢附近哪有卖雪糕的", "2025-07-12T07:48:00+08:00") is None
