"""Orders and categories a terse request implies (``implied.py``): 余华哪本值得看 is served as well by
the books sorted by rating, 面馆 carries ``category: restaurant`` — each accepted only where the
ordered or narrowed answer is the gold's, non-empty and read by the tool; a request that implies no
order gets none."""

from __future__ import annotations

from test_alternatives import CAT, _find

from plugineval.builder.pccf.implied import carried, implied_orders
from plugineval.schema import Call


def test_the_words_of_a_request_imply_an_order_by_meaning_or_alias() -> None:
    books = CAT.tool("ebook_search")
    assert implied_orders(books, "sort", "余华哪本值得看") == ["rating"]
    assert implied_orders(books, "sort", "有没有便宜点的东野圭吾") == ["price_asc"]
    assert implied_orders(books, "sort", "评分最高的科幻小说") == ["rating"]  # the alias
    assert implied_orders(books, "sort", "余华的书有哪些") == []
    assert implied_orders(books, "sort", "三国看什么书好") == ["rating"]  # train round V
    assert implied_orders(books, "sort", "有什么好看的科幻小说") == ["rating"]
    assert implied_orders(books, "sort", "有什么不好看的科幻小说") == []
    poi = CAT.tool("poi_search_nearby")
    assert implied_orders(poi, "sort_by", "拉萨最好吃的面馆是哪家") == ["rating"]
    # food, and the best of it a reading beside the default (train round J: a list by rating)
    assert implied_orders(poi, "sort_by", "附近有什么好吃的") == ["rating"]
    assert implied_orders(poi, "sort_by", "附近有什么吃的") == []
    assert implied_orders(poi, "sort_by", "华强北附近的好吃的") == ["rating"]  # train round N
    assert implied_orders(poi, "sort_by", "华强北附近不好吃的店") == []
    assert implied_orders(books, "keyword", "余华哪本值得看") == []  # no ordering argument


def test_an_implied_order_is_accepted_where_it_lists_the_golds_items() -> None:
    gold = [Call(name="ebook_search", arguments={"keyword": "余华"})]
    found = _find("余华哪本值得看", gold)
    assert found.alternatives[0].extra.get("sort") == ["rating"]
    assert found.tried["implied"] == 1
    # the same books asked for without an order: none is implied
    assert "sort" not in _find("余华的书有哪些", gold).alternatives[0].extra


def test_an_implied_order_on_one_item_is_grounded_by_the_words_alone() -> None:
    """One book: no order changes the answer, so equal answers prove nothing — but 值得看 asks for the
    rating order, and only that order is accepted (a final sample's reviewers, 3 of 3: 吴军哪本值得看
    with ``sort: rating`` is right); another order stays refused."""
    gold = [Call(name="ebook_search", arguments={"keyword": "活着"})]  # one book: every order lists it
    found = _find("活着这本值得看吗", gold)
    assert found.alternatives[0].extra.get("sort") == ["rating"]
    assert found.tried["implied_by_words"] == 1


def test_an_implied_order_on_an_empty_answer_is_refused() -> None:
    gold = [Call(name="ebook_search", arguments={"keyword": "甲乙丙丁"})]
    found = _find("甲乙丙丁哪本值得看", gold)
    assert found.alternatives[0].extra == {}
    assert found.rejected["implied"] == {"empty_answer": 1}


def test_a_keyword_that_carries_the_category_may_stand_alone() -> None:
    poi = CAT.tool("poi_search_nearby")
    both = Call(
        name="poi_search_nearby", arguments={"city": "北京", "keyword": "面馆", "category": "restaurant"}
    )
    assert carried(poi, both, "category", "restaurant", "北京最好吃的面馆是哪家")
    found = _find("北京最好吃的面馆是哪家", [both])
    assert "category" in found.alternatives[0].omittable
    # the category said in a word the keyword does not hold (餐厅) is the user's: not left out
    other = Call(
        name="poi_search_nearby", arguments={"city": "北京", "keyword": "面", "category": "restaurant"}
    )
    assert not carried(poi, other, "category", "restaurant", "北京的餐厅，想吃面")
    assert "category" not in _find("北京的餐厅，想吃面", [other]).alternatives[0].omittable


def test_the_category_a_keyword_names_is_an_entailed_extra_beside_it() -> None:
    gold = [
        Call(name="poi_search_nearby", arguments={"city": "北京", "keyword": "面馆", "sort_by": "rating"})
    ]
    found = _find("北京最好吃的面馆是哪家", gold)
    assert found.alternatives[0].extra.get("category") == ["restaurant"]
    assert not found.alternative_calls  # the category alone finds every restaurant: another answer
    assert found.tried["implied"] == 1


def test_the_category_alone_for_a_keyword_that_is_its_surface() -> None:
    gold = [Call(name="poi_search_nearby", arguments={"city": "上海", "keyword": "公园"})]
    found = _find("上海附近的公园", gold)
    assert [a["calls"] for a in found.alternative_calls] == [
        [{"name": "poi_search_nearby", "arguments": {"city": "上海", "category": "park"}}]
    ]


def test_an_order_that_pages_the_same_search_otherwise_is_accepted_unless_the_user_sets_the_page() -> None:
    assert implied_orders(CAT.tool("product_search"), "sort", "卖得最好的蓝牙耳机") == ["sales"]  # not rating
    gold = [Call(name="product_search", arguments={"keyword": "蓝牙耳机"})]
    # more earphones than one page: the first page by rating is another, the search the same
    assert _find("蓝牙耳机哪款值得买", gold).alternatives[0].extra.get("sort") == ["rating"]
    three = [Call(name="product_search", arguments={"keyword": "蓝牙耳机", "limit": 3})]
    assert "sort" not in _find("3款值得买的蓝牙耳机", three).alternatives[0].extra


def test_an_order_the_request_only_implies_may_be_left_to_the_default_or_added() -> None:
    """车位紧不紧 implies the free-spaces order without saying it: the same lots listed by distance
    answer it (left out), and 哪边好停 is served by the free-spaces order as well (added). An order
    said (空位最多的) or a request for the best (最好吃的) keeps its order."""
    tool = CAT.tool("parking_search")
    assert implied_orders(tool, "sort_by", "国贸哪边好停") == ["free_spaces"]
    gold = [Call(name="parking_search", arguments={"city": "北京", "near": "国贸", "sort_by": "free_spaces"})]
    assert "sort_by" in _find("北京国贸车位紧不紧", gold).alternatives[0].omittable
    for q in ("重庆磁器口停车场挤不挤", "北京国贸停车场进得去吗", "北京国贸停车要排队吗"):  # final sample 7
        assert "sort_by" in _find(q, gold).alternatives[0].omittable, q
    assert "sort_by" not in _find("北京国贸空位最多的停车场", gold).alternatives[0].omittable
    bare = [Call(name="parking_search", arguments={"city": "北京", "near": "国贸"})]
    assert _find("北京国贸哪边好停", bare).alternatives[0].extra.get("sort_by") == ["free_spaces"]
    poi = [Call(name="poi_search_nearby", arguments={"city": "北京", "keyword": "面馆", "sort_by": "rating"})]
    assert "sort_by" not in _find("北京最好吃的面馆是哪家", poi).alternatives[0].omittable


def test_a_date_that_defaults_to_today_may_be_written_out_but_no_other_day() -> None:
    """北京天气 calls the forecast with the city alone (不填则为今天); today's date written out is the
    same call, another day is not accepted."""
    gold = [Call(name="weather_daily_forecast", arguments={"city": "北京"})]
    extra = _find("北京天气", gold).alternatives[0].extra
    assert extra.get("date") == ["2026-03-18"]
    gold = [Call(name="weather_daily_forecast", arguments={"city": "北京", "date": "2026-03-19"})]
    assert "date" not in _find("北京明天天气", gold).alternatives[0].omittable


def test_alternatives_that_drop_what_the_request_says_are_refused() -> None:
    """A final-sample audit's too-lenient alternatives, each refused at its cause: a day the request
    says left to the default (today), a preferred order left out (便宜的先看), a cuisine the one recipe
    found happens to have, a category no word of the request names (有啥演出)."""
    sunday = [
        Call(
            name="life_index_query",
            arguments={"city": "杭州", "date": "2026-03-15", "indices": ["uv", "sport"]},
        )
    ]
    found = _find("这周日杭州跑步要防晒不", sunday, ref="2026-03-14T22:01:00+08:00")
    assert "date" not in found.alternatives[0].omittable
    cheap = [
        Call(name="secondhand_search", arguments={"city": "昆明", "keyword": "婴儿推车", "sort": "price_asc"})
    ]
    found = _find("昆明有二手婴儿推车吗，便宜的先看", cheap, ref="2025-12-17T12:42:00+08:00")
    assert "sort" not in found.alternatives[0].omittable
    lamb = [
        Call(name="recipe_search", arguments={"difficulty": "easy", "keyword": "羊肉", "max_minutes": 20})
    ]
    found = _find("好饿，就二十分钟时间，羊肉弄个简单的", lamb, ref="2026-05-01T20:10:00+08:00")
    assert "cuisine" not in found.alternatives[0].extra
    shows = [
        Call(name="show_search", arguments={"city": c, "date_from": "2025-06-28", "date_to": "2025-06-29"})
        for c in ("厦门", "福州")
    ]
    found = _find("这周末厦门和福州有啥演出", shows, ref="2025-06-28T20:21:00+08:00")
    assert all("category" not in a.extra for a in found.alternatives)


def test_one_call_over_consecutive_days_answers_two_one_day_calls() -> None:
    """前天和昨天哪天雨大: the two one-day history calls, or one call over both days (its answer lists
    each day's); 上周五和昨天 are days apart, and the span between would be more than was asked."""
    ref = "2025-06-27T10:00:00+08:00"

    def day(d: str) -> Call:
        return Call(
            name="weather_history_query", arguments={"city": "乌鲁木齐", "start_date": d, "end_date": d}
        )

    found = _find("乌鲁木齐前天和昨天哪天雨大", [day("2025-06-25"), day("2025-06-26")], ref=ref)
    assert [a["calls"] for a in found.alternative_calls] == [
        [
            {
                "name": "weather_history_query",
                "arguments": {"city": "乌鲁木齐", "start_date": "2025-06-25", "end_date": "2025-06-26"},
            }
        ]
    ]
    assert not _find(
        "乌鲁木齐上周五和昨天哪天雨大", [day("2025-06-20"), day("2025-06-26")], ref=ref
    ).alternative_calls


def test_one_forecast_over_two_days_answers_two_one_day_forecasts() -> None:
    """明天跟后天多少度 (final sample 7): two one-day forecasts, or one from tomorrow over two days;
    明天和大后天 are days apart."""
    ref = "2025-08-09T18:13:00+08:00"

    def day(d: str) -> Call:
        return Call(name="weather_daily_forecast", arguments={"city": "福州", "date": d})

    found = _find("福州明天跟后天多少度", [day("2025-08-10"), day("2025-08-11")], ref=ref)
    assert {
        "name": "weather_daily_forecast",
        "arguments": {"city": "福州", "date": "2025-08-10", "days": 2},
    } in [c for a in found.alternative_calls for c in a["calls"]]
    far = _find("福州明天跟大后天多少度", [day("2025-08-10"), day("2025-08-12")], ref=ref)
    assert not any(c["arguments"].get("days") == 3 for a in far.alternative_calls for c in a["calls"])


def test_an_order_the_words_ask_for_is_accepted_even_where_it_lists_other_items() -> None:
    """长篇小说新的太贵了，有便宜的吗 (train round G): the cheapest listings first is the request's own
    reading beside the gold's default order, though it lists other items; 长篇小说二手 asks for no
    order, and the price order is not accepted there."""
    gold = [Call(name="secondhand_search", arguments={"keyword": "长篇小说"})]
    ref = "2026-03-12T12:46:00+08:00"
    cheap = _find("长篇小说新的太贵了，有便宜的吗", gold, ref=ref).alternatives[0].extra.get("sort")
    assert cheap == ["price_asc"]
    assert "sort" not in _find("长篇小说二手的有吗", gold, ref=ref).alternatives[0].extra


def test_good_food_nearby_takes_the_list_by_rating_beside_the_default() -> None:
    """train round J: 深圳华强北附近有什么好吃的 with restaurants by rating failed the judge; a plain
    request for food (附近有什么吃的) gets no order."""
    gold = [
        Call(name="poi_search_nearby", arguments={"city": "深圳", "near": "华强北", "category": "restaurant"})
    ]
    assert _find("深圳华强北附近有什么好吃的", gold).alternatives[0].extra.get("sort_by") == ["rating"]
    assert "sort_by" not in _find("深圳华强北附近有什么吃的", gold).alternatives[0].extra


def test_a_recommendation_takes_the_list_by_rating_beside_the_default() -> None:
    """train round K: 想学明朝，有啥书推荐 with the books by rating failed the judge."""
    gold = [Call(name="ebook_search", arguments={"keyword": "明朝"})]
    assert _find("想学明朝，有啥书推荐", gold).alternatives[0].extra.get("sort") == ["rating"]
    assert "sort" not in _find("想学明朝，有啥书", gold).alternatives[0].extra


def test_a_condition_question_takes_any_order_of_the_places() -> None:
    """train rounds J and K: 江汉路停车场现在有位吗 answered by the lots nearest first (each with its
    free spaces) failed the judge, whose gold lists the freest first."""
    gold = [
        Call(name="parking_search", arguments={"city": "武汉", "near": "江汉路", "sort_by": "free_spaces"})
    ]
    assert "sort_by" in _find("武汉江汉路停车场现在有位吗", gold).alternatives[0].omittable
    assert "sort_by" not in _find("武汉江汉路空位最多的停车场", gold).alternatives[0].omittable
