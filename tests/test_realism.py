"""The realism profile: each detector fires on its form and not on the everyday requests beside it."""

from __future__ import annotations

import json

import pytest

from plugineval.realism import forms_of, profile

CASES = [
    # (text, forms it carries)
    ("农历八月十五杭州天气", {"lunar_or_solar_term"}),
    ("腊月廿三的火车票", {"lunar_or_solar_term"}),
    ("霜降那天北京冷不冷", {"lunar_or_solar_term"}),
    ("明天会下小雪吗", set()),  # a weather word, not a solar term said as a day
    ("清明节放几天假", set()),
    ("魔都明天天气", {"city_nickname"}),
    ("上海明天天气", set()),
    ("今天之后的第三个工作日提醒我交报告", {"working_day_count"}),
    ("纽约时间下午三点是北京几点", {"time_in_another_zone"}),
    ("北京时间几点了", set()),
    ("火车票查询：北京—上海，出发日期2026-03-20", {"key_value", "iso_date"}),
    ("2026年3月20日南京到成都的火车", {"date_with_year", "calendar_date"}),
    ("3月20号南京到成都的火车", {"calendar_date"}),
    ("明天南京到成都的火车", set()),
    ("下周二，19:00到20:00，6个人", {"comma_list"}),
    ("下周二的会议室，6个人", set()),
    ("领导让我查一下明天去深圳的航班", {"backstory"}),
    ("您好，想查询一下明天的天气，谢谢", {"ceremony", "comma_list"}),
    ("南京到成都的机票", set()),
    ("小鸡炖蘑菇怎么做", set()),
]


@pytest.mark.parametrize(("text", "forms"), CASES)
def test_each_detector_both_ways(text: str, forms: set[str]) -> None:
    assert set(forms_of(text)) == forms


def test_profile_counts_lengths_forms_kinds_and_sources() -> None:
    rows = [
        {"query": "北京天气", "kind": "positive", "source": json.dumps({"type": "real", "origin": "x"})},
        {"query": "魔都明天天气怎么样啊", "kind": "positive", "source": {"type": "synthetic"}},
        {"query": "农历八月十五从南京到成都的火车票还有吗", "kind": "neg_C"},
        {"text": "讲个笑话"},
    ]
    p = profile(rows)
    assert p["n"] == 4
    assert p["short_share"] == 0.75  # 4, 10 and 4 characters; 19 is not short
    assert p["length"]["median"] == 7.0
    assert p["rare_forms"]["city_nickname"] == 0.25
    assert p["rare_forms"]["lunar_or_solar_term"] == 0.25
    assert p["real_share"] == 0.25
    assert p["kinds"] == {"neg_C": 0.3333, "positive": 0.6667}
    assert profile([])["n"] == 0


def test_detectors_are_linear_on_long_text() -> None:
    import time

    t0 = time.perf_counter()
    forms_of(" " * 200_000 + "农历" + "工作日" * 50_000)
    assert time.perf_counter() - t0 < 5  # a backtracking detector takes minutes here


def test_the_offline_strengthener_mentions_the_target_as_people_do() -> None:
    """Strengthened negatives read 之前问过查询某城市某天的，现在想问：… and later 酒店先不看了，… (blind
    raters: a scripted topic switch): the offline strengthener glues nothing in front — it draws
    another of the scenario's own patterns that says a lure word; a lure is a word people say (the
    plugin's name or an authored lure), never a cut of a description."""
    import inspect

    from plugineval.builder.pccf import candidate
    from plugineval.builder.pccf.candidate import _lures
    from plugineval.catalog import load_catalog

    assert not hasattr(candidate, "CONNECTORS")
    src = inspect.getsource(candidate._process)
    assert "+ plain.query" not in src and "draft(ctx, rng, plugin_id, scenario, lured)" in src
    for plugin in load_catalog().plugins:
        for lure in _lures(plugin):
            assert lure == plugin.name and not any(s.description.startswith(lure) for s in plugin.scenarios)
