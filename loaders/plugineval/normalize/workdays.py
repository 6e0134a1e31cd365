"""China's holiday calendar and working days (调休 included): the core's one copy.

The State Council's published arrangements (holidays and the weekend days that become working days,
调休) for 2020–2026 are data below. For 2027–2030 only the statutory days are known in advance
(元旦 1, 春节 除夕–初三, 清明 1, 劳动节 2, 端午 1, 中秋 1, 国庆 3 days, the rule in force since 2025); those
years are marked ``estimated`` and carry no 调休. Outside 2020–2030 there is no holiday calendar.
The productivity tools (date_diff's workdays) and the normalizer's workday expressions
(下个月最后一个工作日, 今天之后的第三个工作日) both read this module.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import cache
from typing import Any

Rows = list[tuple[Any, ...]]

__all__ = [
    "OFFICIAL_YEARS",
    "WORKDAY_YEARS",
    "day_info",
    "holiday_rows",
    "holiday_table",
    "is_workday",
    "official",
]

WORKDAY_YEARS = range(2020, 2031)
OFFICIAL_YEARS = range(2020, 2027)


# year: (holidays "name:MM-DD~MM-DD" — a leading YYYY- when the range starts in another year, make-up workdays)
_OFFICIAL = {
    2020: (
        "元旦:01-01~01-01 春节:01-24~02-02 清明节:04-04~04-06 劳动节:05-01~05-05 端午节:06-25~06-27 "
        "国庆节、中秋节:10-01~10-08",
        "01-19 04-26 05-09 06-28 09-27 10-10",
    ),
    2021: (
        "元旦:01-01~01-03 春节:02-11~02-17 清明节:04-03~04-05 劳动节:05-01~05-05 端午节:06-12~06-14 "
        "中秋节:09-19~09-21 国庆节:10-01~10-07",
        "02-07 02-20 04-25 05-08 09-18 09-26 10-09",
    ),
    2022: (
        "元旦:01-01~01-03 春节:01-31~02-06 清明节:04-03~04-05 劳动节:04-30~05-04 端午节:06-03~06-05 "
        "中秋节:09-10~09-12 国庆节:10-01~10-07",
        "01-29 01-30 04-02 04-24 05-07 10-08 10-09",
    ),
    2023: (
        "元旦:2022-12-31~01-02 春节:01-21~01-27 清明节:04-05~04-05 劳动节:04-29~05-03 端午节:06-22~06-24 "
        "中秋节、国庆节:09-29~10-06",
        "01-28 01-29 04-23 05-06 06-25 10-07 10-08",
    ),
    2024: (
        "元旦:01-01~01-01 春节:02-10~02-17 清明节:04-04~04-06 劳动节:05-01~05-05 端午节:06-10~06-10 "
        "中秋节:09-15~09-17 国庆节:10-01~10-07",
        "02-04 02-18 04-07 04-28 05-11 09-14 09-29 10-12",
    ),
    2025: (
        "元旦:01-01~01-01 春节:01-28~02-04 清明节:04-04~04-06 劳动节:05-01~05-05 端午节:05-31~06-02 "
        "国庆节、中秋节:10-01~10-08",
        "01-26 02-08 04-27 09-28 10-11",
    ),
    2026: (
        "元旦:01-01~01-03 春节:02-15~02-23 清明节:04-04~04-06 劳动节:05-01~05-05 端午节:06-19~06-21 "
        "中秋节:09-25~09-27 国庆节:10-01~10-07",
        "01-04 02-14 02-28 05-09 09-20 10-10",
    ),
}


def _estimated(year: int) -> list[tuple[str, str]]:
    from plugineval.normalize.holidays import holiday_date

    out = [(f"{year}-01-01", "元旦"), (f"{year}-05-01", "劳动节"), (f"{year}-05-02", "劳动节")]
    out += [(f"{year}-10-0{k}", "国庆节") for k in (1, 2, 3)]
    eve = holiday_date("除夕", year)
    if eve is not None:
        out += [((eve + timedelta(days=k)).isoformat(), "春节") for k in range(4)]
    for name, label in (("清明", "清明节"), ("端午", "端午节"), ("中秋", "中秋节")):
        d = holiday_date(name, year)
        if d is not None:
            out.append((d.isoformat(), label))
    return out


def holiday_rows() -> Rows:
    """(date, kind holiday|workday, name, source official|estimated) for 2020–2030."""
    rows: Rows = []
    for year, (spans, workdays) in sorted(_OFFICIAL.items()):
        for span in spans.split():
            name, _, rng = span.partition(":")
            a, _, b = rng.partition("~")
            d0 = date.fromisoformat(a if len(a) == 10 else f"{year}-{a}")
            d1 = date.fromisoformat(f"{year}-{b}")
            rows += [
                ((d0 + timedelta(days=k)).isoformat(), "holiday", name, "official")
                for k in range((d1 - d0).days + 1)
            ]
        rows += [(f"{year}-{md}", "workday", "调休上班", "official") for md in workdays.split()]
    for year in WORKDAY_YEARS:
        if year not in _OFFICIAL:
            names: dict[str, list[str]] = {}
            for d, name in _estimated(year):  # 中秋 may fall within 国庆: one row, both names
                names.setdefault(d, []).append(name)
            rows += [
                (d, "holiday", "、".join(dict.fromkeys(n)), "estimated") for d, n in sorted(names.items())
            ]
    return rows


@cache
def holiday_table() -> dict[str, tuple[str, str, str]]:
    return {r[0]: (r[1], r[2], r[3]) for r in holiday_rows()}


def day_info(d: date) -> tuple[bool, str | None, str]:
    """(is a working day, holiday or make-up name, source official|estimated|unavailable)."""
    if d.year not in WORKDAY_YEARS:
        return d.weekday() < 5, None, "unavailable"
    hit = holiday_table().get(d.isoformat())
    source = "official" if d.year in OFFICIAL_YEARS else "estimated"
    if hit is None:
        return d.weekday() < 5, None, source
    return hit[0] == "workday", hit[1], source


def official(d: date) -> bool:
    """Is ``d`` in a year whose arrangement (with its 调休) is published?"""
    return d.year in OFFICIAL_YEARS


def is_workday(d: date) -> bool:
    return day_info(d)[0]
