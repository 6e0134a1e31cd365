"""The user's own wording (``wording.py``): a name the request says inside an array of names the
tool resolves (``to_timezones: [慕尼黑]`` for ``Europe/Berlin``) and a name that differs from the
gold's by the generic affixes (中心医院 for 洛阳市中心医院) — accepted only when the tool gives the
gold's answer for it (its echo of the name aside) and reads the argument; a name the tool does not
resolve (洛阳中心医院) or a place that another argument already holds stays out."""

from __future__ import annotations

from typing import Any

from test_alternatives import REF
from test_alternatives import _find as find

from plugineval.builder.pccf.wording import affix_variants, swapped
from plugineval.builder.synth.grammar import load_grammars
from plugineval.catalog import load_catalog
from plugineval.schema import Call


def _find(query: str, ref: str, gold: list[Call]) -> Any:
    return find(query, gold, ref=ref)


def test_names_around_a_gold_value_differ_by_the_generic_affixes_only() -> None:
    call = Call(name="doctor_schedule", arguments={"city": "洛阳", "hospital": "洛阳市中心医院"})
    q = "洛阳中心医院眼科下星期三有住院医师出诊"
    assert affix_variants("洛阳市中心医院", q, call) == ["中心医院", "洛阳中心医院"]
    assert affix_variants("中心医院", q, call) == ["洛阳中心医院"]
    assert affix_variants("洛阳市第一人民医院", q, call) == []  # the request names another hospital
    assert (
        affix_variants("北京大学", "北京大学附近的咖啡店", Call(name="x", arguments={"city": "北京"})) == []
    )
    assert swapped({"results": [{"query": "慕尼黑", "n": 1}]}, {"慕尼黑": "Europe/Berlin"}) == {
        "results": [{"query": "Europe/Berlin", "n": 1}]
    }


def test_a_said_name_around_the_gold_value_is_accepted_where_the_tool_resolves_it() -> None:
    gold = [
        Call(
            name="doctor_schedule",
            arguments={"city": "洛阳", "date": "2025-05-21", "department": "ophthalmology",
                       "hospital": "洛阳市中心医院", "title": "resident_physician"},
        )
    ]  # fmt: skip
    found = _find("洛阳中心医院眼科下星期三有住院医师出诊", "2025-05-17T10:55:00+08:00", gold)
    # 中心医院 finds the gold's hospital; 洛阳中心医院 is no hospital the tool knows (another answer);
    # 洛阳 is the call's city, never a hospital's name
    assert found.alternatives[0].values == {"hospital": ["中心医院"]}
    assert found.tried["wording"] == 2


def test_the_requests_names_inside_an_array_are_accepted_as_executed() -> None:
    gold = [
        Call(
            name="timezone_convert",
            arguments={
                "date": "2025-04-08",
                "time": "16:00",
                "to_timezones": ["Europe/Berlin", "America/Vancouver"],
            },
        )
    ]
    found = _find(
        "4月8日16:00北京时间开全球会，慕尼黑、温哥华两地同事分别是几点", "2025-04-04T17:58:00+08:00", gold
    )
    listed = found.alternatives[0].values["to_timezones"]
    assert ["慕尼黑", "温哥华"] in listed and ["慕尼黑", "America/Vancouver"] in listed
    # 北京 (of 北京时间) is said too, but converts to another zone: never an item
    assert not any("北京" in x for x in listed)
    # a name the request never says is no wording of it, whatever the tool makes of it
    one = [
        Call(
            name="timezone_convert",
            arguments={"date": "2025-10-07", "time": "10:00", "to_timezones": ["Europe/Berlin"]},
        )
    ]
    found = _find("下星期二10点开会，慕尼黑几点", "2025-10-05T18:25:00+08:00", one)
    assert found.alternatives[0].values == {"to_timezones": [["慕尼黑"]]}
    assert "柏林" not in str(found.alternatives[0].values)


def test_a_said_name_on_an_empty_answer_proves_nothing() -> None:
    gold = [
        Call(
            name="doctor_schedule",
            arguments={
                "city": "洛阳",
                "date": "2025-05-22",
                "department": "ophthalmology",
                "hospital": "洛阳市中心医院",
                "title": "chief_physician",
            },
        )
    ]  # fmt: skip  (no chief physician of the eye clinic works that day)
    found = _find("洛阳中心医院眼科有主任医师出诊吗", "2025-05-17T10:55:00+08:00", gold)
    assert found.alternatives[0].values == {}
    assert found.rejected["wording"] == {"empty_answer": 1}


def test_another_city_the_tool_checks_but_ignores_is_no_wording_of_the_city() -> None:
    # route_plan resolves its places without ``city``: 苏州 answers as 上海 does, 甲乙丙丁 fails —
    # a failure proves only that the tool checks the name, so a place's slot needs another place's answer
    gold = [
        Call(name="route_plan", arguments={"origin": "上海虹桥站", "destination": "外滩", "city": "上海"})
    ]
    found = _find("我在苏州，明天从虹桥站到外滩怎么走", "2026-03-18T09:30:00+08:00", gold)
    assert "city" not in found.alternatives[0].values
    assert found.rejected["wording"]["tool_ignores_argument"] == 1
    # a zone tool that reads the city: 北京 for Asia/Shanghai (乌鲁木齐 keeps Beijing time, 纽约 does not)
    one = [
        Call(
            name="timezone_convert",
            arguments={"date": "2025-07-10", "time": "22:30", "from_timezone": "America/Toronto",
                       "to_timezones": ["Asia/Shanghai"]},
        )
    ]  # fmt: skip
    found = _find("多伦多时间7月10日22:30，北京是几点", "2025-07-01T10:00:00+08:00", one)
    assert found.alternatives[0].values == {"from_timezone": ["多伦多"], "to_timezones": [["北京"]]}


def test_a_name_with_the_generic_noun_the_request_says_after_it_is_the_same_thing() -> None:
    """奥迪双钻8.8折券 names the coupon the gold claims as 奥迪双钻8.8折 (the tool takes either); a
    suffix the request does not say is never tried."""
    gold = [Call(name="coupon_claim", arguments={"coupon_id": "奥迪双钻8.8折"})]
    ref = "2025-06-08T08:50:00+08:00"
    assert find("奥迪双钻8.8折券挺划算的，我要了", gold, ref=ref).alternatives[0].values == {
        "coupon_id": ["奥迪双钻8.8折券"]
    }
    assert find("奥迪双钻8.8折挺划算的，我要了", gold, ref=ref).alternatives[0].values == {}
    # train round N: …8.8折的券 said, the model's 耳机8.8折券 names it as well
    assert find("奥迪双钻8.8折的券挺划算的，我要了", gold, ref=ref).alternatives[0].values == {
        "coupon_id": ["奥迪双钻8.8折的券", "奥迪双钻8.8折券"]
    }


def test_the_hour_a_forecast_of_today_starts_at_anyway_may_be_written_out() -> None:
    """青岛雨几点停 asked at 10:52: ``start_hour: 10`` restates where today's hourly forecast starts;
    for tomorrow's it cuts the morning off and is refused."""
    ref = "2025-04-05T10:52:00+08:00"
    today = [Call(name="weather_hourly_forecast", arguments={"city": "青岛"})]
    assert find("青岛雨几点停", today, ref=ref).alternatives[0].extra.get("start_hour") == [10]
    tomorrow = [Call(name="weather_hourly_forecast", arguments={"city": "青岛", "date": "2025-04-06"})]
    assert "start_hour" not in find("青岛明天雨几点停", tomorrow, ref=ref).alternatives[0].extra


def test_the_singer_the_request_says_may_join_the_song_in_the_keyword() -> None:
    """来五月天的《倔强》: the search box takes 五月天 倔强 (each word must match) and finds the same song;
    a singer the request does not say is never joined."""
    gold = [Call(name="music_search", arguments={"keyword": "倔强"})]
    ref = "2025-11-18T11:56:00+08:00"
    assert find("来五月天的《倔强》", gold, ref=ref).alternatives[0].values == {
        "keyword": ["五月天 倔强", "倔强 五月天"]
    }
    assert find("来首《倔强》", gold, ref=ref).alternatives[0].values == {}


def test_a_university_named_after_its_city_says_the_city() -> None:
    """周六从武汉大学溜达到东湖: ``city: 武汉`` is the city the request says (东湖 alone names none)."""
    gold = [
        Call(
            name="route_plan",
            arguments={"destination": "东湖", "mode": "walking", "origin": "武汉大学"},
        )
    ]
    found = find("从武汉大学溜达到东湖，得走多久", gold, ref="2026-05-19T18:50:00+08:00")
    assert found.alternatives[0].extra.get("city") == ["武汉"]


def test_the_kinds_a_request_names_may_cut_a_whole_list_to_them() -> None:
    """final sample 8: 明天去丽江穿毛衣热不热 read by the life index without ``indices`` (every index)
    failed the judge for a model that asked for ``[dressing]``, the index the words name. The cut
    answer is part of the whole; an index the request does not name is no alternative."""
    gold = [Call(name="life_index_query", arguments={"city": "丽江", "date": "2026-03-19"})]
    extra = _find("明天去丽江穿毛衣热不热", REF, gold).alternatives[0].extra
    assert extra.get("indices") == [["dressing"]]
    assert "indices" not in _find("明天丽江的生活指数", REF, gold).alternatives[0].extra


def test_a_list_the_gold_gives_may_take_the_other_kinds_the_request_names() -> None:
    """train round P: 明天乌鲁木齐户外跑步晒不晒 with ``indices: [uv]`` failed a model that also asked
    for the sport index, which 跑步 names; the gold's answer is a part of the wider one. A kind the
    request does not name is no alternative."""
    gold = [
        Call(name="life_index_query", arguments={"city": "乌鲁木齐", "date": "2026-03-19", "indices": ["uv"]})
    ]
    values = _find("明天乌鲁木齐户外跑步晒不晒", REF, gold).alternatives[0].values
    assert values.get("indices") == [["sport", "uv"]]
    assert "indices" not in _find("明天乌鲁木齐晒不晒", REF, gold).alternatives[0].values
    # train round R: 踢球 names the sport index too
    assert _find("明天乌鲁木齐踢球要涂防晒吗", REF, gold).alternatives[0].values.get("indices") == [
        ["sport", "uv"]
    ]


def test_a_request_that_names_no_day_asks_about_today_and_one_day_of_forecast_serves_it() -> None:
    """final sample 10: 无锡最高几度 with ``days: 1`` (beside today's date) failed against the gold's
    default of three days; a request that names no time asks about today. One that names a span
    (这几天) or a day of its own keeps the gold's window."""
    gold = [Call(name="weather_daily_forecast", arguments={"city": "无锡"})]
    # the one day, and — no day said — any window up to the tool's fifteen (final sample 12)
    assert sorted(_find("无锡最高几度", REF, gold).alternatives[0].extra.get("days", [])) == [
        1,
        2,
        *range(4, 16),
    ]
    assert "days" not in _find("无锡这几天天气", REF, gold).alternatives[0].extra


def test_an_amount_that_only_scales_the_converted_sum_is_free_where_the_rate_is_asked() -> None:
    """final sample 8: 今天去银行买泰铢什么价格 with ``amount: 100`` failed the judge; the rate and the
    bank's quotes (per 100 units) are the same for any amount, only the converted sum (declared
    ``scales``) moves. Where the request says its amount, the amount stays the gold's."""
    rate = [Call(name="fx_convert", arguments={"from_currency": "THB", "to_currency": "CNY"})]
    assert _find("泰铢什么价格", REF, rate).alternatives[0].free == ["amount"]
    said = [Call(name="fx_convert", arguments={"amount": 500, "from_currency": "THB", "to_currency": "CNY"})]
    assert _find("500泰铢换多少人民币", REF, said).alternatives[0].free == []
    route = [Call(name="route_plan", arguments={"origin": "武汉站", "destination": "江汉路"})]
    assert _find("从武汉站到江汉路怎么走", REF, route).alternatives[0].free == []  # nothing declared


def test_a_rate_asked_either_way_round_is_the_same_facts() -> None:
    """train round N: 今天去银行换日元什么价 answered CNY→JPY failed against the gold's JPY→CNY; with no
    amount the two answers state the same rate, inverse rate and bank quotes (``swaps_with``). Where
    the request gives an amount, it is in the first currency and the order is the request's."""
    rate = [
        Call(
            name="fx_convert", arguments={"from_currency": "JPY", "to_currency": "CNY", "date": "2026-03-18"}
        )
    ]
    other = _find("今天去银行换日元什么价", REF, rate).alternative_calls
    assert [a["calls"][0]["arguments"] for a in other] == [
        {"from_currency": "CNY", "to_currency": "JPY", "date": "2026-03-18"}
    ]
    assert other[0]["alternatives"][0]["free"] == ["amount"]
    said = [Call(name="fx_convert", arguments={"amount": 500, "from_currency": "JPY", "to_currency": "CNY"})]
    assert _find("500日元换多少人民币", REF, said).alternative_calls == []


def test_a_ride_named_by_the_request_reads_the_sport_index() -> None:
    """train round O: 明天桂林适合骑车吗 answered by the life index's sport index failed against the
    daily forecast; 骑车 is a declared word for the sport index (and a cue of the life index)."""
    tool = load_catalog().tool("life_index_query")
    assert tool.annotations["indices"].aliases["骑车"] == "sport"
    lures = {w for sc in load_grammars()["life_index"].scenarios.values() for w in sc.lures}
    assert {"骑车", "跑步"} <= lures


def test_a_span_from_now_asked_in_the_evening_may_start_tomorrow() -> None:
    """train round T: 上海接下来一周哪天能晒被子 at 18:08, the week from tomorrow (``date`` tomorrow,
    ``days: 7``) failed against the gold's week from today. In the evening a span from now starts
    tomorrow as well; in the morning, or where the request names its own day, it stays the gold's."""
    gold = [Call(name="weather_daily_forecast", arguments={"city": "上海", "days": 7})]
    evening = "2026-09-07T18:08:00+08:00"
    q = "上海接下来一周哪天能晒被子"
    assert _find(q, evening, gold).alternatives[0].extra.get("date") == ["2026-09-07", "2026-09-08"]
    assert "2026-09-08" not in _find(q, "2026-09-07T09:08:00+08:00", gold).alternatives[0].extra.get(
        "date", []
    )
    # 七天内 is a span from now as well (train round T, late at night)
    late = "2026-09-07T23:12:00+08:00"
    assert _find("上海七天内哪天能晒被子", late, gold).alternatives[0].extra.get("date") == [
        "2026-09-07",
        "2026-09-08",
    ]
    said = [Call(name="weather_daily_forecast", arguments={"city": "上海", "date": "2026-09-09", "days": 7})]
    assert "2026-09-08" not in _find("上海后天开始接下来一周的天气", evening, said).alternatives[0].extra.get(
        "date", []
    )


def test_a_device_said_by_brand_series_and_model_is_the_product() -> None:
    """final sample 11: 漫步者MaxA7 for the gold's 漫步者MaxA7运动耳机 was left undecided; the tool's
    description takes brand + series + model where that names one product, and so does the build
    (by execution). A head several products share resolves to none of them: no alternative."""
    from collections import Counter

    from plugineval.builder.pccf.config import BuildConfig
    from plugineval.builder.tools.store import Store

    db = Store.open(["shopping"], BuildConfig.load(None).store_seed).readonly_connection()
    names = [r[0] for r in db.execute("SELECT name FROM shop_products ORDER BY product_id")]
    heads = Counter(n.split(" ")[0] for n in names)
    one = next(n for n in names if heads[n.split(" ")[0]] == 1 and " " in n)
    many = next(n for n in names if heads[n.split(" ")[0]] > 1 and len(n.split(" ")[0]) >= 3)
    for name, accepted in ((one, True), (many, False)):
        full, head = name.replace(" ", ""), name.split(" ")[0]
        gold = [Call(name="price_history_query", arguments={"product": full})]
        values = _find(full + "现在入手划算吗", REF, gold).alternatives[0].values
        assert (head in values.get("product", [])) is accepted, name


def test_a_total_asked_alone_takes_any_breakdown_that_keeps_it() -> None:
    """train round W: 上个月一共走了多少步 with ``granularity: month`` failed against the gold's daily
    series, though both answers carry the month's total. A total asked alone takes every breakdown
    whose totals are the gold's; a breakdown the request asks for (每周) stays the gold's own."""
    ref = "2025-08-27T21:25:00+08:00"
    gold = [Call(name="step_stats", arguments={"start_date": "2025-07-01", "end_date": "2025-07-31"})]
    extra = _find("上个月一共走了多少步", ref, gold).alternatives[0].extra
    assert sorted(extra.get("granularity", [])) == ["month", "week"]
    assert "granularity" not in _find("上个月每周一共走了多少步", ref, gold).alternatives[0].extra
    assert "granularity" not in _find("上个月走了多少步", ref, gold).alternatives[0].extra
    # an average asked alone (平均每天, 日均: train round AB) is such a total; its 每天 is no breakdown
    for q in ("上个月平均每天走了多少", "上个月日均多少步"):
        assert sorted(_find(q, ref, gold).alternatives[0].extra.get("granularity", [])) == [
            "month",
            "week",
        ], q
    assert "granularity" not in _find("上个月每天平均多少步", ref, gold).alternatives[0].extra


def test_every_end_between_two_accepted_ends_of_a_window_is_accepted() -> None:
    """train round Y: 昨天英超布伦特福德那场几比几 took the asked day (08-23) and the tool's default week
    (to 08-29) as ends of the window, but not 08-24 — a careful model's reading of an English
    evening's match onto Beijing's next day. Each end between holds the asked day's match too."""
    gold = [
        Call(
            name="match_schedule",
            arguments={"date_from": "2025-08-23", "league": "epl", "team": "布伦特福德"},
        )
    ]
    ends = (
        _find("昨天英超布伦特福德那场几比几", "2025-08-24T15:03:00+08:00", gold)
        .alternatives[0]
        .extra["date_to"]
    )
    assert sorted(ends) == [f"2025-08-{d}" for d in range(23, 30)]


def test_a_forecast_asked_without_a_day_takes_any_window_up_to_the_longest() -> None:
    """final sample 12: 温州什么时候有雨 by the daily forecast with ``days: 15`` failed, though the request
    bounds no span and the fifteen days hold the default three whole; every window between the one day
    (``narrowed``) and the fifteen is accepted. A request that names its day keeps its own window."""
    ref = "2026-01-11T11:27:00+08:00"
    gold = [Call(name="weather_daily_forecast", arguments={"city": "温州"})]
    days = _find("温州什么时候有雨", ref, gold).alternatives[0].extra["days"]
    assert sorted(days) == [d for d in range(1, 16) if d != 3]  # 3, the default, is the gold's own
    said = [Call(name="weather_daily_forecast", arguments={"city": "温州", "date": "2026-01-12", "days": 1})]
    assert "days" not in _find("温州明天下雨吗", ref, said).alternatives[0].values


def test_a_kind_every_item_shares_is_no_kind_the_request_asked_for() -> None:
    """final sample 12 (reviewers): 后天洛阳有啥演出推荐 accepted ``category: concert`` because every show
    the store finds that day is a concert; the request asks for any show, and a model that narrows it
    to concerts answers less. A category is entailed by the items only beside the keyword the user
    said (羽绒服 → clothing)."""
    ref = "2026-11-24T22:43:00+08:00"
    gold = [Call(name="show_search", arguments={"city": "洛阳", "date_from": "2026-11-26"})]
    assert "category" not in _find("后天洛阳有啥演出推荐", ref, gold).alternatives[0].extra


def test_a_family_member_as_the_request_calls_them() -> None:
    """The step tracker's family group names its members 妈妈, 老婆…; the request says 我妈, 媳妇 (blind
    raters gave a stranger's full name, 付磊上周走了多少步, 2.0 of 5). The request's own word is accepted
    where the tool resolves it to the same member; a member the request does not name is not."""
    week = {"start_date": "2026-03-09", "end_date": "2026-03-15"}
    for query, member, said in (("我妈上周走了多少步", "妈妈", "我妈"), ("媳妇上周的步数", "老婆", "媳妇")):
        gold = [Call(name="step_stats", arguments={**week, "user_id": member})]
        assert find(query, [*gold]).alternatives[0].values == {"user_id": [said]}
    gold = [Call(name="step_stats", arguments={**week, "user_id": "爸爸"})]
    assert "user_id" not in find("上周走了多少步", gold).alternatives[0].values  # nobody named: no word


def test_the_step_trackers_family_shares_by_family_names() -> None:
    """No stranger shares steps: the family group is the logged-in user's family, by the names people
    give them, and each other word for a member (我妈, 老妈, 母亲) reaches the same member."""
    from plugineval.builder.tools.domains.health_data import FAMILY, family_name
    from plugineval.builder.tools.store import Store

    db = Store.open(["health"]).readonly_connection()
    names = [r[0] for r in db.execute("SELECT nickname FROM health_fit_users WHERE user_id <> 'U100001'")]
    assert sorted(names) == sorted(FAMILY)
    assert {family_name(w) for w in ("我妈", "老妈", "我的妈妈", "母亲", "妈妈")} == {"妈妈"}
    assert family_name("表哥") == "表哥"  # no member: the tool says it finds nobody by that name
