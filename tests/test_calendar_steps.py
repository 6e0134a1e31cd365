"""Steps a capable model can get wrong (docs/format.md §2.4): the normalizer resolves them exactly,
the synthesizer says them, and only they count toward a positive's depth."""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta, timezone

import pytest

from plugineval.baselines.textscan import find_times
from plugineval.builder.pccf.coverage import depth, pattern_difficulty
from plugineval.builder.synth.deepen import deepen
from plugineval.builder.synth.grammar import PluginGrammar, load_grammars
from plugineval.builder.synth.slots import SlotContext, calendar_surfaces, workday_surfaces
from plugineval.catalog import load_catalog
from plugineval.normalize import resolve
from plugineval.normalize.lunar import next_lunar, to_lunar

CST = timezone(timedelta(hours=8))
REF = datetime(2026, 9, 24, 10, 0, tzinfo=CST)  # a Thursday; 中秋 2026-09-25..27, 国庆 10-01..07


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("农历八月十六", date(2026, 9, 26)),  # 中秋 2026 is 9-25
        ("阴历十月初八", date(2026, 11, 16)),
        ("腊月廿六", date(2027, 2, 2)),
        ("正月十二", date(2027, 2, 17)),
        ("今天之后的第三个工作日", date(2026, 9, 30)),  # 25-27 中秋 holiday: Mon 28, Tue 29, Wed 30
        ("国庆假期后的第一个工作日", date(2026, 10, 8)),
        ("中秋节后第一个工作日", date(2026, 9, 28)),
        ("下个月最后一个工作日", date(2026, 10, 30)),
        ("这个月最后一个工作日", date(2026, 9, 30)),
        ("下个月第二个周五", date(2026, 10, 9)),
        ("下个月第一个工作日", date(2026, 10, 8)),  # 10-01..07 are holidays
    ],
)
def test_calendar_expressions_resolve_to_the_day(text: str, day: date) -> None:
    v = resolve(text, REF)
    assert v is not None and v.kind == "date" and v.start == day


def test_make_up_working_days_count() -> None:
    # 2026-10-10 (a Saturday) is a 调休 working day: from Friday 10-09 the next one is the Saturday
    v = resolve("今天之后的第一个工作日", datetime(2026, 10, 9, 9, 0, tzinfo=CST))
    assert v is not None and v.start == date(2026, 10, 10)


def test_no_guess_without_a_published_arrangement() -> None:
    # 2027's 调休 is not published: a working-day count into 2027 resolves to nothing
    assert resolve("今天之后的第五个工作日", datetime(2026, 12, 29, 9, 0, tzinfo=CST)) is None


def test_lunar_round_trip_and_leap_month() -> None:
    for k in range(0, 400, 7):
        d = date(2025, 1, 1) + timedelta(days=k)
        _y, m, leap, day = to_lunar(d) or (0, 0, False, 0)
        assert next_lunar(m, day, d, leap) == d
    # 2025 has a leap sixth month (闰六月, 2025-07-25 .. 08-22)
    v = resolve("农历闰六月初八", datetime(2025, 7, 20, 9, 0, tzinfo=CST))
    assert v is not None and v.start == date(2025, 8, 1)


def test_time_zone_and_duration_mentions() -> None:
    ref = "2026-03-01T09:00:00+08:00"
    ny = find_times("纽约时间3月12日上午10点提醒我开会", ref)  # summer time from 3-8: UTC-4
    assert ny[0].value.start == datetime(2026, 3, 12, 22, 0, tzinfo=CST)
    assert "timezone_conversion" in ny[0].steps
    winter = find_times("纽约时间3月5日上午10点提醒我开会", ref)  # still UTC-5
    assert winter[0].value.start == datetime(2026, 3, 5, 23, 0, tzinfo=CST)
    t = find_times("3月20日下午两点开始，开一个半小时的评审会", ref)
    assert [x.value.start for x in t] == [
        datetime(2026, 3, 20, 14, 0, tzinfo=CST),
        datetime(2026, 3, 20, 15, 30, tzinfo=CST),
    ]
    assert t[1].steps == ("date_arithmetic",)
    lunar_clock = find_times("正月廿四下午三点半开始，开两个半小时", "2026-03-05T09:30:00+08:00")
    assert lunar_clock[0].value.start == datetime(2026, 3, 12, 15, 30, tzinfo=CST)
    assert lunar_clock[0].steps == ("calendar_fact",)


def test_surfaces_resolve_back() -> None:
    for k in range(1, 40):
        d = REF.date() + timedelta(days=k)
        for s in calendar_surfaces(d, REF) + workday_surfaces(d, REF):
            v = resolve(s, REF)
            assert v is not None and v.start == d, s


def test_steps_count_per_revision_3() -> None:
    # a relative time and an implied intent are steps; a date format, a numeral, a time format are not
    assert depth(["relative_time", "time_format", "numeral"]) == 1
    assert depth(["year_inference", "time_format", "numeral", "enum_paraphrase"]) == 0
    assert depth(["relative_time", "implied_intent"]) == 2
    assert depth(["calendar_fact", "implicit_entity", "year_inference"]) == 2


PROFILE_GRAMMAR = {
    "slots": {"date": {"type": "date", "min_days": 1, "max_days": 12}, "city": {"type": "city"}},
    "scenarios": {
        "s": {
            "patterns": [
                {"id": "md", "text": "{date:md}{city}天气"},
                {"id": "rel", "text": "{date:rel}{city}天气"},
                {"id": "umbrella", "text": "{date:rel}去{city}要带伞吗", "steps": ["implied_intent"]},
                {"id": "nick", "text": "{date:md}{city:nick}天气"},
            ]
        }
    },
}


def test_default_and_calendar_profiles_split_the_patterns() -> None:
    from plugineval.builder.pccf.coverage import patterns_by_split
    from plugineval.builder.synth.grammar import is_stress, select_profile

    g = deepen(PluginGrammar.model_validate(PROFILE_GRAMMAR))
    default, cal = select_profile(g, "default"), select_profile(g, "calendar")
    assert default is not None and cal is not None
    dpats = default.scenarios["s"].patterns
    assert [p.id for p in dpats] == ["md", "rel", "umbrella"]  # no stress form, nothing derived
    assert {pattern_difficulty(p, default) for p in dpats} == {"easy", "medium", "hard"}
    assert [pattern_difficulty(p, default) for p in dpats] == ["easy", "medium", "hard"]
    cpats = cal.scenarios["s"].patterns
    assert cpats and all(is_stress(p) for p in cpats)
    assert "nick" in {p.id for p in cpats} and any(p.family == "md" for p in cpats)
    # a family keeps together in the calendar profile though its source is a default pattern
    by_split = patterns_by_split("x", "s", cal)
    where = {p.id: sp for sp in ("test", "train") for p in by_split.get(sp, [])}
    for p in cpats:
        if p.family:
            assert len({where[q.id] for q in cpats if q.family == p.family}) == 1
    # the shipped grammars: no default pattern carries a stress form
    for pg in load_grammars().values():
        for sc in pg.scenarios.values():
            assert not any(is_stress(p) for p in sc.patterns)
    assert load_grammars(profile="calendar")


def test_deepen_leaves_past_and_far_dates_alone() -> None:
    raw = {
        "slots": {
            "past": {"type": "date", "min_days": -9, "max_days": -1},
            "far": {"type": "date", "min_days": 400, "max_days": 900},
            "soon": {"type": "date", "min_days": 1, "max_days": 3},
        },
        "scenarios": {"s": {"patterns": [{"id": "a", "text": "{past}和{far}和{soon}"}]}},
    }
    g = deepen(PluginGrammar.model_validate(raw))
    ids = [p.id for p in g.scenarios["s"].patterns]
    # soon reaches 3 days only: a working-day count could fail to hold two working days
    assert ids == ["a", "a__cal_soon"]


def test_datetime_slot_in_another_zone() -> None:
    cat = load_catalog()
    from plugineval.builder.synth.grammar import SlotSpec

    ctx = SlotContext(random.Random(3), datetime(2026, 3, 5, 9, 30, tzinfo=CST), cat, None)
    for _ in range(20):
        v = ctx.sample("when", SlotSpec(type="datetime", min_days=1, max_days=20), "tz")
        assert v is not None
        got = find_times(v.surface, "2026-03-05T09:30:00+08:00")
        assert got and got[0].value.start == datetime.fromisoformat(v.value), v.surface


def test_weekend_words_beside_a_weekday_date_contradict() -> None:
    from plugineval.builder.synth.consistency import weekend_contradiction

    ref = "2026-07-20T10:00:00+08:00"  # a Monday
    assert weekend_contradiction("周末跟朋友聚餐，今天之后的第六个工作日晚上六点", ref)
    assert weekend_contradiction("周末跟朋友聚餐，7月25日晚上", ref) is None  # a Saturday
    assert weekend_contradiction("这周六跟朋友聚餐", ref) is None
    g = load_grammars(profile="calendar")
    for pg in g.values():  # no working-day count is derived beside 周末 / 周六
        for sc in pg.scenarios.values():
            for p in sc.patterns:
                if "__work_" in p.id:
                    assert "周末" not in p.text and "周六" not in p.text, p.id


def test_candidate_results_are_typed() -> None:
    from plugineval.builder.pccf.result import CandidateResult

    ok = CandidateResult.from_dict({"status": "ok", "observed": "hard", "record": {"id": "x"}, "masked": "m"})
    assert ok.ok and CandidateResult.from_dict(ok.to_dict()) == ok  # the journal's round trip
    with pytest.raises(ValueError, match="unknown fields"):
        CandidateResult.from_dict({"status": "rejected", "reason": "r", "resaon": "typo"})
    with pytest.raises(ValueError, match="names its reason"):
        CandidateResult.from_dict({"status": "rejected"})
    with pytest.raises(ValueError, match="carries its record"):
        CandidateResult.from_dict({"status": "ok", "observed": "easy"})


def test_metrics_break_down_by_counted_step() -> None:
    from plugineval.metrics import breakdown

    entries = [
        {"outcome": "TP", "kind": "positive", "steps": ["calendar_fact", "implicit_entity"]},
        {"outcome": "FN", "kind": "positive", "steps": ["calendar_fact"]},
        {"outcome": "TP", "kind": "positive"},  # easy: in no step's group
        {"outcome": "TN", "kind": "neg_A"},
    ]
    by = breakdown(entries, "steps")
    assert set(by) == {"calendar_fact", "implicit_entity"}
    assert by["calendar_fact"]["positives"] == 2 and by["calendar_fact"]["recall"] == 0.5
    assert by["implicit_entity"]["recall"] == 1.0


def test_judge_reads_a_calendar_expression_argument_as_relative() -> None:
    from plugineval.normalize import compare_time

    for pred in (
        "农历十月初八",
        "下个月最后一个工作日",
        "今天之后的第三个工作日",
        "明年农历三月初八",
        "霜降那天",
        "国庆节前的最后一个工作日",
    ):
        assert compare_time(pred, "2026-11-16", REF, CST) == "relative"


def test_a_verbs_xia_running_into_a_relative_date_reads_two_ways() -> None:
    from plugineval.builder.synth.consistency import ambiguous_shift

    assert ambiguous_shift("帮我查下下个月第一个周三重庆飞天津的航班")
    assert ambiguous_shift("提前约一下下个月第一个周二拉萨的水痘疫苗")
    assert ambiguous_shift("帮我看下下周三的火车")
    assert ambiguous_shift("帮我查下个月第一个周三的航班") is None
    assert ambiguous_shift("下下周三的火车还有票吗") is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("明年农历三月初八", date(2027, 4, 14)),
        ("去年农历八月十五", date(2025, 10, 6)),
        ("前年农历八月十五", date(2024, 9, 17)),
        ("今年正月十二", date(2026, 2, 28)),  # a past day, said with its year
        ("国庆节前的最后一个工作日", date(2026, 9, 30)),
        ("中秋前最后一个工作日", date(2026, 9, 24)),  # today: 中秋 2026-09-25..27
    ],
)
def test_year_anchored_lunar_dates_and_the_last_working_day_before_a_holiday(text: str, day: date) -> None:
    v = resolve(text, REF)
    assert v is not None and v.kind == "date" and v.start == day
    assert find_times(f"查一下{text}北京的天气", REF.isoformat())[0].steps == ("calendar_fact",)


def test_a_year_the_lunar_and_gregorian_readings_disagree_on_resolves_to_nothing() -> None:
    # 腊月廿三 of lunar 2026 is 2027-02-01, and Gregorian 2026 holds 腊月廿三 of lunar 2025 (02-10)
    assert resolve("今年腊月廿三", REF) is None
    # 2027's arrangement is unpublished: which day before 春节 2027 is worked is not known
    assert resolve("春节前最后一个工作日", REF) is None
    # the 调休 Saturday 2026-02-14 is the last working day before 春节 2026 (02-15..23)
    v = resolve("春节前最后一个工作日", datetime(2025, 12, 10, 9, 0, tzinfo=CST))
    assert v is not None and v.start == date(2026, 2, 14)


def test_past_and_far_surfaces_resolve_back() -> None:
    for k in range(-700, 330, 3):
        d = REF.date() + timedelta(days=k)
        surfaces = calendar_surfaces(d, REF)
        if -20 < k < 0:  # too recent to be said by its lunar name
            assert not any("农历" in s or "月初" in s for s in surfaces), (d, surfaces)
        for s in surfaces:
            v = resolve(s, REF)
            assert v is not None and v.start == d, s
        if k <= -20 and d.year >= REF.year - 2:
            assert surfaces or to_lunar(d) is None or to_lunar(d)[1] in (11, 12, 1), d  # type: ignore[index]


def test_deepen_says_a_far_date_where_the_tool_reaches_it() -> None:
    raw = {
        "slots": {
            "d": {"type": "date", "min_days": 0, "max_days": 30, "far_days": [60, 330]},
            "city": {"type": "city"},
            "old": {"type": "date", "min_days": -300, "max_days": -100},
        },
        "scenarios": {
            "s": {
                "patterns": [
                    {"id": "a", "text": "{d}{city}飞成都的机票"},
                    {"id": "b", "text": "下周{d}{city}飞成都"},  # 下周 beside a far date says something else
                    {"id": "c", "text": "{old}{city}的天气"},
                ]
            }
        },
    }
    g = deepen(PluginGrammar.model_validate(raw))
    ids = [p.id for p in g.scenarios["s"].patterns]
    assert "a__far_d" in ids and "a__far_d__nick_city" in ids
    assert not any(i.startswith("b__far") for i in ids)
    assert "c__cal_old" in ids and "c__cal_old__nick_city" in ids  # a past day, said with its year
    far = next(p for p in g.scenarios["s"].patterns if p.id == "a__far_d__nick_city")
    assert pattern_difficulty(far, g) == "hard"
    cat = load_catalog()
    for seed in range(20):
        ctx = SlotContext(random.Random(seed), REF, cat, None)
        v = ctx.sample("d", g.slots["d"], "far")
        assert v is not None and v.steps == ("calendar_fact",)
        assert 60 <= (date.fromisoformat(v.value) - REF.date()).days <= 330
        assert resolve(v.surface, REF).start == date.fromisoformat(v.value)  # type: ignore[union-attr]
    with pytest.raises(Exception, match="far_days"):
        PluginGrammar.model_validate({**raw, "slots": {"d": {"type": "date", "far_days": [0, 10]}}})


def test_solar_terms_are_named_with_their_day_and_weather_words_stay_weather() -> None:
    assert resolve("霜降那天", REF).start == date(2026, 10, 23)  # type: ignore[union-attr]
    assert resolve("明年立春那天", REF).start == date(2027, 2, 4)  # type: ignore[union-attr]
    assert resolve("去年小雪那天", REF).start == date(2025, 11, 22)  # type: ignore[union-attr]
    assert resolve("秋分那天", REF).start == date(2027, 9, 23)  # type: ignore[union-attr]  # 2026's was 09-23
    assert [m.text for m in find_times("明天北京会下小雪吗", REF.isoformat())] == ["明天"]
    assert find_times("白露那天下午三点提醒我", REF.isoformat())[0].steps == ("calendar_fact",)


def test_calendar_readings_draw_days_with_names_of_their_own() -> None:
    from plugineval.builder.synth.grammar import SlotSpec
    from plugineval.normalize.calendar_expr import calendar_kind

    spec = SlotSpec(type="date", min_days=1, max_days=60)
    kinds = []
    for seed in range(200):
        v = SlotContext(random.Random(seed), REF, load_catalog(), None).sample("d", spec, "cal")
        assert v is not None and v.steps == ("calendar_fact",)
        assert resolve(v.surface, REF).start == date.fromisoformat(v.value)  # type: ignore[union-attr]
        kinds.append(calendar_kind(v.surface))
    special = sum(k in ("term", "before", "after") for k in kinds) / len(kinds)
    assert 0.25 < special < 0.55, special  # SPECIAL_SHARE of draws, where the range holds such a day
    assert {"term", "lunar"} <= set(kinds)


def test_working_day_counts_often_pass_a_shifted_day() -> None:
    from plugineval.builder.synth.grammar import SlotSpec
    from plugineval.builder.synth.slots import crosses_shift

    spec = SlotSpec(type="date", min_days=5, max_days=20)
    ref = datetime(2026, 9, 1, 10, 0, tzinfo=CST)  # 2 of the 12 countable days pass the 调休 Sunday 09-20
    crossing = drawn = 0
    for seed in range(200):
        v = SlotContext(random.Random(seed), ref, load_catalog(), None).sample("d", spec, "work")
        if v is None:  # twelve draws all on days off (the range is half holidays): the unit draws again
            continue
        drawn += 1
        assert v.steps == ("date_arithmetic",)
        assert resolve(v.surface, ref).start == date.fromisoformat(v.value)  # type: ignore[union-attr]
        crossing += crosses_shift(ref.date(), date.fromisoformat(v.value))
    assert drawn > 180
    assert crossing > 0.3 * drawn  # a uniform draw alone would cross for 2 in 12
    assert not crosses_shift(date(2026, 3, 2), date(2026, 3, 13))
    assert crosses_shift(date(2026, 9, 18), date(2026, 9, 28))  # 中秋 09-25 is a Friday off
    assert crosses_shift(date(2026, 9, 18), date(2026, 9, 21))  # 09-20, a Sunday, is worked


def test_relative_dates_are_said_the_way_people_say_them() -> None:
    from plugineval.builder.synth.slots import relative_surfaces, said_relative

    ref = datetime(2026, 3, 18, 9, 30, tzinfo=CST)  # a Wednesday
    said = {k: said_relative(relative_surfaces(_day(ref, k), ref)) for k in range(-12, 25)}
    assert said[1] == ["明天"] and said[2] == ["后天"]  # never 周四 for tomorrow, nor 两天后
    assert said[5] == ["下周一", "下星期一"]  # not 五天后
    assert said[14] == ["下个月1号"]  # not 十四天后, nor 下下周三
    assert said[12] == ["下下周一"]
    assert said[-10] == ["十天前"]  # nothing else names that day
    for k, cands in said.items():  # each still names its day
        for c in cands:
            v = resolve(c, ref)
            assert v is not None and v.start == _day(ref, k), c


def _day(ref: datetime, k: int) -> date:
    return ref.date() + timedelta(days=k)


def test_a_relatively_said_day_is_drawn_as_often_as_people_name_it() -> None:
    """今天 and 明天 are most of the days people name relatively; a weekday of next week is rare; a
    range holding none of the day words is drawn evenly."""
    import random
    from collections import Counter

    from plugineval.builder.synth.slots import said_offset

    rng = random.Random(5)
    got = Counter(said_offset(rng, 0, 7) for _ in range(4000))
    assert (got[0] + got[1]) / 4000 > 0.75, got
    assert got[2] > got[5] and got[6] > 0
    far = Counter(said_offset(rng, 9, 12) for _ in range(4000))
    assert set(far) == {9, 10, 11, 12} and min(far.values()) > 800, far
