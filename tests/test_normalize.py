"""Tests of the deterministic normalizers, driven by tests/cases/*.jsonl."""

from __future__ import annotations

import json
import math
import time as _time
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from lunardate import LunarDate

from plugineval.normalize import (
    TimeValue,
    all_places,
    canonical_currency,
    canonical_place,
    compare_time,
    find_numbers,
    holiday_date,
    holiday_names,
    is_domestic,
    is_relative,
    next_holiday,
    normalize_text,
    normalize_ws,
    parse_absolute,
    parse_money,
    parse_number,
    parse_quantity,
    place_info,
    resolve,
)
from plugineval.normalize.places import alias_index, place_key

CASES = Path(__file__).parent / "cases"
CN = timezone(timedelta(hours=8))
REF = datetime(2026, 3, 18, 9, 30, tzinfo=CN)


def _load(name: str) -> list[Any]:
    rows = []
    with (CASES / name).open(encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            if line.strip():
                rows.append(pytest.param(json.loads(line), id=f"{i}:{json.loads(line)['input']}"))
    return rows


def _approx(got: float | None, want: float | None) -> bool:
    if got is None or want is None:
        return got is want
    return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9)


@pytest.mark.parametrize("case", _load("time_absolute.jsonl"))
def test_time_absolute(case: dict[str, Any]) -> None:
    v = parse_absolute(case["input"], CN, case.get("default_year"))
    assert (None if v is None else v.to_json()) == case["expected"]


@pytest.mark.parametrize("case", _load("time_relative.jsonl"))
def test_time_relative(case: dict[str, Any]) -> None:
    ref = datetime.fromisoformat(case["reference_time"])
    v = resolve(case["input"], ref)
    assert (None if v is None else v.to_json()) == case["expected"]
    if "is_relative" in case:
        assert is_relative(case["input"]) is case["is_relative"]


@pytest.mark.parametrize("case", _load("holidays.jsonl"))
def test_holidays(case: dict[str, Any]) -> None:
    if "reference_time" in case:
        ref = datetime.fromisoformat(case["reference_time"]).date()
        got = next_holiday(case["input"], ref)
    else:
        got = holiday_date(case["input"], case["year"])
    assert (None if got is None else got.isoformat()) == case["expected"]


@pytest.mark.parametrize("case", _load("numbers.jsonl"))
def test_numbers(case: dict[str, Any]) -> None:
    if case.get("find"):  # every number in free text
        from plugineval.normalize.numbers import find_numbers

        assert [v for v, _, _ in find_numbers(case["input"])] == case["expected"]
        return
    assert _approx(parse_number(case["input"]), case["expected"])


@pytest.mark.parametrize("case", _load("places.jsonl"))
def test_places(case: dict[str, Any]) -> None:
    if case.get("note") == "is_domestic":
        assert is_domestic(case["input"]) is case["expected"]
    elif case.get("note") == "find":  # the places mentioned in free text, in order
        from plugineval.baselines.textscan import find_places

        assert [p.name for p in find_places(case["input"])] == case["expected"]
    elif case.get("note") == "site":  # stations and airports are places of their own
        from plugineval.normalize.places import canonical_site

        assert canonical_site(case["input"]) == case["expected"]
    else:
        assert canonical_place(case["input"]) == case["expected"]


def test_facilities_are_data_with_one_entry_per_place() -> None:
    """Every station and airport names a known city, no name (official, common, IATA) belongs to two
    facilities or to a city, and a facility is not a city to ``canonical_place`` (the builder's
    city look-ups are unchanged)."""
    from plugineval.normalize.places import all_facilities, canonical_site, facility_info

    facs = all_facilities()
    assert {f.kind for f in facs} == {"railway_station", "airport"}
    for f in facs:
        assert place_info(f.city) is not None, f
        for name in (f.name, *f.aliases, *f.iata):
            assert facility_info(name) == f and canonical_site(name) == f.name, name
            assert canonical_place(name) is None, name
    names = [place_key(n) for f in facs for n in (f.name, *f.aliases, *f.iata)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", _load("units.jsonl"))
def test_units(case: dict[str, Any]) -> None:
    kind, s, want = case["kind"], case["input"], case["expected"]
    if kind == "currency":
        assert canonical_currency(s) == want
        return
    got = parse_money(s) if kind == "money" else parse_quantity(s)
    if want is None:
        assert got is None
    else:
        assert got is not None and got[1] == want[1] and _approx(got[0], want[0])


@pytest.mark.parametrize("case", _load("text.jsonl"))
def test_text(case: dict[str, Any]) -> None:
    assert normalize_text(case["input"]) == case["expected"]


def test_normalize_ws() -> None:
    assert normalize_ws("  a \u3000 b\n c ") == "a b c"


# ------------------------------------------------------------------ holidays


def test_holiday_table_matches_lunardate() -> None:
    lunar = {
        "春节": (1, 1, 0),
        "元宵": (1, 15, 0),
        "龙抬头": (2, 2, 0),
        "端午": (5, 5, 0),
        "七夕": (7, 7, 0),
        "中元": (7, 15, 0),
        "中秋": (8, 15, 0),
        "重阳": (9, 9, 0),
        "腊八": (12, 8, -1),
        "小年": (12, 23, -1),
    }
    for year in range(2020, 2031):
        for name, (m, d, shift) in lunar.items():
            assert holiday_date(name, year) == LunarDate(year + shift, m, d).to_solar_date(), (name, year)
        eve = LunarDate(year, 1, 1).to_solar_date() - timedelta(days=1)
        assert holiday_date("除夕", year) == eve
        # the eve is the last day of lunar month 12, which may be the 29th
        assert LunarDate.from_solar_date(eve.year, eve.month, eve.day).month == 12
    assert holiday_date("除夕", 2026) == date(2026, 2, 16)  # 腊月廿九


def test_solar_terms_in_range() -> None:
    for year in range(2020, 2031):
        q = holiday_date("清明", year)
        w = holiday_date("冬至", year)
        assert q is not None and q.month == 4 and q.day in (4, 5)
        assert w is not None and w.month == 12 and w.day in (21, 22)


def test_holiday_names() -> None:
    names = holiday_names()
    for n in ("春节", "除夕", "中秋节", "国庆", "十一", "清明", "冬至", "小年", "腊八"):
        assert n in names
    assert all(holiday_date(n, 2026) is not None for n in names)


# ------------------------------------------------------------------ places


def test_gazetteer_size() -> None:
    places = all_places()
    kinds = Counter(p.kind for p in places)
    assert kinds["municipality"] + kinds["province"] + kinds["autonomous_region"] + kinds["sar"] == 34
    assert (
        sum(
            1
            for p in places
            if p.country == "CN" and p.kind not in ("province", "autonomous_region", "sar", "country")
        )
        >= 150
    )
    assert sum(1 for p in places if p.country != "CN") >= 40


def test_no_alias_maps_to_two_places() -> None:
    owners: dict[str, set[str]] = {}
    for p in all_places():
        for a in (p.name, *p.aliases):
            owners.setdefault(place_key(a), set()).add(p.name)
    clashes = {k: v for k, v in owners.items() if len(v) > 1}
    assert not clashes
    assert len({p.name for p in all_places()}) == len(all_places())
    assert set(alias_index().values()) == {p.name for p in all_places()}


def test_place_info_fields() -> None:
    bj = place_info("北京")
    assert bj is not None and bj.domestic and bj.country == "CN" and "PEK" in bj.iata
    hk = place_info("HK")
    assert hk is not None and hk.region == "HK" and not hk.domestic and hk.country == "CN"
    tw = place_info("台北")
    assert tw is not None and tw.region == "TW" and not tw.domestic
    tokyo = place_info("tokyo")
    assert tokyo is not None and tokyo.country == "JP" and "HND" in tokyo.iata
    for p in all_places():
        if p.domestic:
            assert p.country == "CN" and p.region == "CN"
        for code in p.iata:
            assert len(code) == 3 and code.isupper()


# ------------------------------------------------------------------ numbers


def test_find_numbers() -> None:
    text = "买3张票，预算三千五，每张1,200元，折扣百分之五"
    got = [(v, text[a:b]) for v, a, b in find_numbers(text)]
    assert got == [(3.0, "3"), (3500.0, "三千五"), (1200.0, "1,200"), (0.05, "百分之五")]
    assert find_numbers("没有数字") == []
    assert find_numbers("１２个") == [(12.0, 0, 2)]


# ------------------------------------------------------------------ time helpers


def test_compare_time() -> None:
    assert compare_time("2026-03-19", " 2026-03-19 ", REF, CN) == "equal"
    assert compare_time("2026/3/19", "2026-03-19", REF, CN) == "format_variant"
    assert compare_time("2026年3月19日", "2026-03-19", REF, CN) == "format_variant"
    assert compare_time("2026年3月19日周四", "2026-03-19", REF, CN) == "format_variant"
    assert compare_time("2026-03-19T07:00:00Z", "2026-03-19 15:00", REF, CN) == "format_variant"
    assert compare_time("2026年3月19日下午3点", "2026-03-19T15:00:00+08:00", REF, CN) == "format_variant"
    assert compare_time("2026-03", "2026年3月", REF, CN) == "format_variant"
    assert compare_time("2026-02-17", "2026年春节", REF, CN) == "format_variant"
    assert compare_time("明天", "2026-03-19", REF, CN) == "relative"
    assert compare_time("下周三", "2026-03-25", REF, CN) == "relative"
    assert compare_time("3月19日", "2026-03-19", REF, CN) == "relative"
    assert compare_time("2026-03-20", "2026-03-19", REF, CN) == "different"
    assert compare_time("2026-03-19 15:00", "2026-03-19", REF, CN) == "different"
    assert compare_time("2026-03-19T15:00:00+09:00", "2026-03-19T15:00:00+08:00", REF, CN) == "different"
    assert compare_time("随便", "2026-03-19", REF, CN) == "unparsed"


def test_compare_time_equal_path_is_fast() -> None:
    start = _time.perf_counter()
    for i in range(20000):
        compare_time(f"2026-03-{i % 28 + 1:02d}", f"2026-03-{i % 28 + 1:02d}", REF, CN)
    assert _time.perf_counter() - start < 0.5


def test_is_relative_negatives() -> None:
    for s in (
        "2026-03-18",
        "下午3点",
        "15:00",
        "2026年3月18日周三",
        "2026年春节",
        "3天",
        "90分钟",
        "2026年3月底",
        "十一点",
        "3个月",
        "",
    ):
        assert not is_relative(s), s


def test_same_as_and_json() -> None:
    a = parse_absolute("2026-03-18T09:30:00+08:00", CN)
    b = parse_absolute("2026-03-18T01:30:00Z", CN)
    assert a is not None and b is not None and a.same_as(b) and a.to_json() != b.to_json()
    m = parse_absolute("2026-03", CN)
    r = TimeValue("date_range", date(2026, 3, 1), date(2026, 3, 31))
    assert m is not None and m.same_as(r)
    d = parse_absolute("2026-03-18", CN)
    assert d is not None and not d.same_as(a)
    dur = parse_absolute("PT1H30M", CN)
    assert dur is not None and dur.same_as(TimeValue("duration", seconds=5400.0))
    assert dur.to_json() == {"kind": "duration", "seconds": 5400.0}


def test_naive_default_zone_and_other_zone() -> None:
    utc = UTC
    v = parse_absolute("2026-03-18 09:30", utc)
    assert v is not None and v.to_json() == {"kind": "datetime", "start": "2026-03-18T09:30:00+00:00"}
    ref = datetime(2026, 3, 18, 23, 30, tzinfo=utc)  # already the 19th in China
    r = resolve("明天", ref)
    assert r is not None and r.to_json() == {"kind": "date", "start": "2026-03-19"}
