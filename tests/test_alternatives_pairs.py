"""Readings the request's own words give where execution cannot tell them apart (``pccf/pairs.py``):
a window counted back by months or weeks, and a part asked beside a parallel one that lists nothing."""

from __future__ import annotations

from test_alternatives import _find

from plugineval.schema import Call

AUG28 = "2026-08-28T07:41:00+08:00"


def _history(start: str, symbol: str = "恒生银行") -> list[Call]:
    return [
        Call(
            name="stock_history",
            arguments={"symbol": symbol, "market": "hk", "start_date": start, "end_date": "2026-08-28"},
        )
    ]


def test_a_month_counted_back_starts_on_the_same_date_a_month_ago_as_well() -> None:
    # train round Z: 港股恒生银行最近一个月涨了多少 on 08-28, gold from 07-29, a model's 07-28 failed
    found = _find("港股恒生银行最近一个月涨了多少", _history("2026-07-29"), ref=AUG28)
    assert found.alternatives[0].values.get("start_date") == ["2026-07-28"]
    two_weeks = _find("港股恒生银行最近两周走势", _history("2026-08-15"), ref=AUG28)
    assert two_weeks.alternatives[0].values.get("start_date") == ["2026-08-14"]


def test_no_earlier_start_where_the_request_counts_no_window_back() -> None:
    # a start the user said (从8月1号起) or days counted back (近七天: today counted) stay as read
    said = _find("港股恒生银行从7月29号到今天涨了多少", _history("2026-07-29"), ref=AUG28)
    assert "start_date" not in said.alternatives[0].values
    days = _find("港股恒生银行近七天涨了多少", _history("2026-08-22"), ref=AUG28)
    assert "start_date" not in days.alternatives[0].values
    # a gold whose start is not the window's is not the reading this adds to
    other = _find("港股恒生银行最近一个月涨了多少", _history("2026-07-20"), ref=AUG28)
    assert "2026-07-19" not in other.alternatives[0].values.get("start_date", [])


def _pair(first: str, second: str) -> list[Call]:
    return [
        Call(
            name="poi_search_nearby",
            arguments={"city": "深圳", "keyword": kw, "near": "宝安机场", "sort_by": "rating"},
        )
        for kw in (first, second)
    ]


def test_a_part_that_lists_nothing_is_read_like_its_parallel_part() -> None:
    # train round Z: 西餐 near the airport lists nothing, 面馆 lists restaurants; category restaurant
    # (and the airport's full name) accepted for 面馆 are accepted for 西餐, whose answer stays empty
    found = _find(
        "深圳宝安机场附近西餐厅和面馆哪家好？", _pair("西餐", "面馆"), ref="2025-10-05T14:29:00+08:00"
    )
    empty, listed = found.alternatives
    assert listed.extra.get("category") == ["restaurant"]
    assert empty.extra.get("category") == ["restaurant"]
    assert empty.values.get("near") == listed.values.get("near")
    assert found.tried["parallel_empty"] >= 1


def test_parts_that_both_list_something_keep_their_own_readings() -> None:
    found = _find("深圳宝安机场附近面馆和火锅哪家好", _pair("面馆", "火锅"), ref="2025-10-05T14:29:00+08:00")
    assert all(r["pois"] for r in found.results)  # both parts list a restaurant
    assert found.tried["parallel_empty"] == 0


def test_an_empty_part_takes_the_kind_its_own_name_shows_not_its_parallel_parts() -> None:
    # train round AC: 武汉汉口站瑞幸和海底捞评分高的. Near 汉口站 瑞幸 lists nothing; 海底捞's items show
    # restaurant, but 瑞幸's items elsewhere in 武汉 are cafes: category cafe is read for it, not restaurant
    calls = [
        Call(
            name="poi_search_nearby",
            arguments={"city": "武汉", "keyword": kw, "near": "汉口站", "sort_by": "rating"},
        )
        for kw in ("瑞幸", "海底捞")
    ]
    found = _find("武汉汉口站瑞幸和海底捞评分高的", calls, ref="2025-07-24T10:37:00+08:00")
    assert not found.results[0]["pois"] and found.results[1]["pois"]  # the case: one part lists nothing
    empty, listed = found.alternatives
    assert listed.extra.get("category") == ["restaurant"]
    assert empty.extra.get("category") == ["cafe"]


def test_a_window_the_request_leaves_open_may_start_back_to_the_tools_longest_span() -> None:
    # train rounds AB and AD: 索尼MaxV7蓝牙耳机是不是最低价, looked back six months by a strong model; the
    # gold leaves the tool's default (the last 30 days). A said window (最近一个月) stays the user's.
    gold = [Call(name="price_history_query", arguments={"product": "索尼MaxV7蓝牙耳机"})]
    ref = "2025-10-25T12:26:00+08:00"
    starts = _find("索尼MaxV7蓝牙耳机是不是最低价", gold, ref=ref).alternatives[0].extra["start_date"]
    assert "2025-04-28" in starts and "2025-09-25" in starts  # 180 days back, and the day before the default
    assert "2025-04-27" not in starts and "2025-09-26" not in starts  # beyond the span; the default itself
    said = _find("索尼MaxV7蓝牙耳机最近一个月是低价吗", gold, ref=ref).alternatives[0]
    assert "start_date" not in said.extra


def test_a_question_only_the_whole_list_answers_takes_any_longer_list() -> None:
    # train round AF: 搜孙燕姿有哪些歌 with limit 20 failed the judge; which ones (有哪些) and how many
    # (有几个版本) ask for the whole list, and a longer list holds the default one. 推荐几首 asks a few.
    gold = [Call(name="music_search", arguments={"keyword": "孙燕姿", "search_type": "artist"})]
    ref = "2025-08-28T07:16:00+08:00"
    limits = _find("搜孙燕姿有哪些歌", gold, ref=ref).alternatives[0].extra.get("limit", [])
    assert 20 in limits and 50 in limits and 10 not in limits and 51 not in limits
    count = [Call(name="music_search", arguments={"keyword": "七里香"})]
    assert 20 in _find("七里香有几个版本", count, ref=ref).alternatives[0].extra.get("limit", [])
    assert "limit" not in _find("推荐几首孙燕姿的歌", gold, ref=ref).alternatives[0].extra
    assert "limit" not in _find("孙燕姿的歌", gold, ref=ref).alternatives[0].extra


def test_a_users_word_for_a_category_is_read_where_the_tool_searches_by_it_unseen() -> None:
    # train round AI: 北京科技园8号楼牛排最快能送到的 by keyword 牛排, where the gold chose cuisine western;
    # the listing shows no dishes, but a word no menu says finds nothing, so the tool searched by 牛排
    gold = [
        Call(
            name="takeout_search_restaurants",
            arguments={
                "address": "科技园8号楼",
                "city": "北京",
                "cuisine": "western",
                "sort": "delivery_time",
            },
        )
    ]
    found = _find("北京科技园8号楼牛排最快能送到的。", gold, ref="2025-09-16T08:29:00+08:00")
    calls = [c["calls"][0]["arguments"] for c in found.alternative_calls]
    assert {"address": "科技园8号楼", "city": "北京", "sort": "delivery_time", "keyword": "牛排"} in calls
