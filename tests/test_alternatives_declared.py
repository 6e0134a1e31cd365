"""Readings a pattern declares beside its gold (``also``, ``pccf/declared.py``): kept only where
execution bears them out, each with its own grounded variants."""

from __future__ import annotations

from collections import Counter
from typing import Any

import anyio
from test_alternatives import CAT, REF

from plugineval.builder.pccf.alternatives import AlternativeFinder
from plugineval.builder.pccf.config import Stage1
from plugineval.builder.pccf.declared import declared
from plugineval.builder.pccf.stage1 import StageOne
from plugineval.builder.tools.server import ToolExecutor
from plugineval.schema import Call

REFUSED: Counter[str] = Counter()


def _declared(gold: list[Call], also: list[list[Call]], offered: list[str]) -> list[dict[str, Any]]:
    from plugineval.builder.pccf.config import BuildConfig

    cfg = BuildConfig.load()

    async def go() -> list[dict[str, Any]]:
        async with ToolExecutor(CAT, cfg.store_seed) as ex:
            finder = AlternativeFinder(CAT, StageOne(Stage1(), CAT, ex, []))
            return await declared(finder, gold, gold, also, offered, REF, REFUSED)

    return anyio.run(go)


def test_a_patterns_other_reading_holds_only_by_execution() -> None:
    """train round I: 2022年台风天鹅在哪登陆的 is answered by the year's list, which names each
    typhoon's landfall, as well as by the track; 明天大连出去办事要带雨衣吗 by the daily forecast beside
    the hourly one. A reading whose answer does not name what the gold reads (the list of another
    year), whose tool is not offered, or whose answer is an error is no alternative."""
    track = [Call(name="typhoon_track", arguments={"typhoon": "天鹅", "year": 2022})]
    year = [Call(name="typhoon_list", arguments={"year": 2022})]
    offered = ["typhoon_list", "typhoon_track"]
    got = _declared(track, [year], offered)
    assert [a["calls"][0]["arguments"] for a in got] == [{"year": 2022}]
    assert _declared(track, [[Call(name="typhoon_list", arguments={"year": 2021})]], offered) == []
    assert _declared(track, [year], ["typhoon_track"]) == []
    hourly = [Call(name="weather_hourly_forecast", arguments={"city": "大连", "date": "2026-03-19"})]
    daily = [Call(name="weather_daily_forecast", arguments={"city": "大连", "date": "2026-03-19"})]
    both = ["weather_daily_forecast", "weather_hourly_forecast"]
    assert [a["calls"] for a in _declared(hourly, [daily], both)] == [[daily[0].model_dump()]]
    far = [Call(name="weather_daily_forecast", arguments={"city": "大连", "date": "2027-03-19"})]
    assert _declared(hourly, [far], both) == []  # out of the forecast's range: an error
    assert REFUSED == {"drops_part_of_request": 1, "not_offered": 1, "empty_answer": 1}


def test_a_declared_reading_takes_its_own_grounded_variants() -> None:
    """train round L: 明天晚上在郑州拍月亮能行吗 answered by the moon's times and the evening's hourly
    forecast from 18:00 failed the judge: the declared reading had no variants of its own."""
    from plugineval.builder.pccf.config import BuildConfig

    cfg = BuildConfig.load()
    gold = [Call(name="sun_moon_times", arguments={"city": "郑州", "date": "2026-03-19"})]
    also = [[gold[0], Call(name="weather_hourly_forecast", arguments={"city": "郑州", "date": "2026-03-19"})]]
    offered = ["sun_moon_times", "weather_hourly_forecast"]

    async def go() -> list[dict[str, Any]]:
        async with ToolExecutor(CAT, cfg.store_seed) as ex:
            finder = AlternativeFinder(CAT, StageOne(Stage1(), CAT, ex, []))
            return await declared(finder, gold, gold, also, offered, REF, None, "明天晚上在郑州拍月亮能行吗")

    got = anyio.run(go)
    assert len(got) == 1
    assert 18 in got[0]["alternatives"][1]["extra"].get("start_hour", [])


def test_an_hourly_forecast_beside_a_watched_sunset_may_start_at_any_hour_before_it() -> None:
    """train round AC: 后天佛山看夕阳几点去合适, answered by the sun's times and the hourly forecast from
    15:00. Every start up to the sunset's hour still lists that hour; a later one does not, and a
    request that watches neither sunset nor sunrise takes no start."""
    from plugineval.builder.pccf.config import BuildConfig

    cfg = BuildConfig.load()
    gold = [Call(name="sun_moon_times", arguments={"city": "佛山", "date": "2026-04-26"})]
    also = [[gold[0], Call(name="weather_hourly_forecast", arguments={"city": "佛山", "date": "2026-04-26"})]]
    offered = ["sun_moon_times", "weather_hourly_forecast"]

    def run(query: str) -> list[dict[str, Any]]:
        async def go() -> list[dict[str, Any]]:
            async with ToolExecutor(CAT, cfg.store_seed) as ex:
                finder = AlternativeFinder(CAT, StageOne(Stage1(), CAT, ex, []))
                return await declared(
                    finder, gold, gold, also, offered, "2026-04-24T11:37:00+08:00", None, query
                )

        return anyio.run(go)

    starts = run("后天佛山看夕阳几点去合适")[0]["alternatives"][1]["extra"]["start_hour"]
    assert 15 in starts and 18 in starts and 19 not in starts  # sunset 18:52
    assert "start_hour" not in run("后天佛山白天多长")[0]["alternatives"][1]["extra"]


def test_rain_asked_about_late_in_the_day_is_read_with_tomorrows_hours_too() -> None:
    """train rounds AB and AE: 广州雨几点停 at 22:04, searched by the hour today and tomorrow (the rain
    may outlast midnight). The pattern declares that reading; it holds by execution."""
    gold = [Call(name="weather_hourly_forecast", arguments={"city": "广州"})]
    two_days = [
        Call(name="weather_hourly_forecast", arguments={"city": "广州", "date": d})
        for d in ("2026-03-23", "2026-03-24")
    ]
    got = _declared_at(
        gold, [two_days], ["weather_hourly_forecast"], "2026-03-23T22:04:00+08:00", "广州雨几点停"
    )
    assert [c["arguments"]["date"] for c in got[0]["calls"]] == ["2026-03-23", "2026-03-24"]
    assert not _declared_at(gold, [two_days], ["weather_daily_forecast"], "2026-03-23T22:04:00+08:00", None)


def _declared_at(
    gold: list[Call], also: list[list[Call]], offered: list[str], ref: str, query: str | None
) -> list[dict[str, Any]]:
    from plugineval.builder.pccf.config import BuildConfig

    cfg = BuildConfig.load()

    async def go() -> list[dict[str, Any]]:
        async with ToolExecutor(CAT, cfg.store_seed) as ex:
            finder = AlternativeFinder(CAT, StageOne(Stage1(), CAT, ex, []))
            return await declared(finder, gold, gold, also, offered, ref, None, query)

    return anyio.run(go)


def test_a_car_wash_asked_with_rain_takes_the_umbrella_index_beside_it() -> None:
    """train round AH: 明天沈阳洗了车会下雨吗 with indices [car_wash, umbrella]; the pattern declares it."""
    from plugineval.builder.synth.grammar import load_grammars

    pattern = next(
        p
        for p in load_grammars()["life_index"].scenarios["car_wash_tomorrow"].patterns
        if p.id == "h_rel_wash3_s"
    )
    assert [c.args["indices"] for calls in pattern.also for c in calls] == [["car_wash", "umbrella"]]
    gold = [
        Call(
            name="life_index_query", arguments={"city": "沈阳", "date": "2026-03-08", "indices": ["car_wash"]}
        )
    ]
    wider = [
        Call(name="life_index_query", arguments={**gold[0].arguments, "indices": ["car_wash", "umbrella"]})
    ]
    got = _declared_at(
        gold, [wider], ["life_index_query"], "2026-03-07T21:22:00+08:00", "明天沈阳洗了车会下雨吗"
    )
    assert got and got[0]["calls"][0]["arguments"]["indices"] == ["car_wash", "umbrella"]
