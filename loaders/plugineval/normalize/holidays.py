"""Named holidays: solar (fixed), solar-term (清明, 冬至) and lunar; and the 24 solar terms (节气).

Lunar and solar-term dates are precomputed for 2019–2032 into
``data/holidays.json`` by ``scripts/gen_holidays.py`` (2020–2030 guaranteed);
fixed solar holidays work for any year.  ``holiday_date(name, year)`` is the
occurrence that belongs to ``year``: for 腊八 and 小年 (lunar 12th month) that
is the one of the Spring Festival season of ``year`` — 腊八 2023 is
2022-12-30 — and 除夕 is the eve of that year's 春节 (which may be 腊月廿九).
"""

from __future__ import annotations

import json
from datetime import date
from functools import cache, lru_cache
from pathlib import Path

__all__ = [
    "HOLIDAY_ALIASES",
    "SOLAR_TERMS",
    "canonical_holiday",
    "holiday_date",
    "holiday_names",
    "next_holiday",
    "solar_term_date",
]

_DATA = Path(__file__).parent / "data" / "holidays.json"

_FIXED: dict[str, tuple[int, int]] = {
    "元旦": (1, 1),
    "情人节": (2, 14),
    "妇女节": (3, 8),
    "植树节": (3, 12),
    "劳动节": (5, 1),
    "青年节": (5, 4),
    "儿童节": (6, 1),
    "建党节": (7, 1),
    "建军节": (8, 1),
    "教师节": (9, 10),
    "国庆节": (10, 1),
    "平安夜": (12, 24),
    "圣诞节": (12, 25),
}

#: surface form → canonical holiday name
HOLIDAY_ALIASES: dict[str, str] = {
    "元旦": "元旦",
    "元旦节": "元旦",
    "情人节": "情人节",
    "西方情人节": "情人节",
    "妇女节": "妇女节",
    "三八节": "妇女节",
    "三八妇女节": "妇女节",
    "国际妇女节": "妇女节",
    "植树节": "植树节",
    "劳动节": "劳动节",
    "五一": "劳动节",
    "五一节": "劳动节",
    "五一劳动节": "劳动节",
    "国际劳动节": "劳动节",
    "青年节": "青年节",
    "五四": "青年节",
    "五四青年节": "青年节",
    "儿童节": "儿童节",
    "六一": "儿童节",
    "六一儿童节": "儿童节",
    "建党节": "建党节",
    "七一": "建党节",
    "建军节": "建军节",
    "八一": "建军节",
    "八一建军节": "建军节",
    "教师节": "教师节",
    "国庆": "国庆节",
    "国庆节": "国庆节",
    "十一": "国庆节",
    "平安夜": "平安夜",
    "圣诞": "圣诞节",
    "圣诞节": "圣诞节",
    "清明": "清明",
    "清明节": "清明",
    "冬至": "冬至",
    "春节": "春节",
    "过年": "春节",
    "大年初一": "春节",
    "正月初一": "春节",
    "除夕": "除夕",
    "大年三十": "除夕",
    "年三十": "除夕",
    "大年夜": "除夕",
    "年夜": "除夕",
    "元宵": "元宵",
    "元宵节": "元宵",
    "正月十五": "元宵",
    "龙抬头": "龙抬头",
    "二月二": "龙抬头",
    "端午": "端午",
    "端午节": "端午",
    "端阳节": "端午",
    "七夕": "七夕",
    "七夕节": "七夕",
    "中元": "中元",
    "中元节": "中元",
    "鬼节": "中元",
    "中秋": "中秋",
    "中秋节": "中秋",
    "重阳": "重阳",
    "重阳节": "重阳",
    "腊八": "腊八",
    "腊八节": "腊八",
    "小年": "小年",
}


@cache
def _table() -> dict[str, dict[int, date]]:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    out: dict[str, dict[int, date]] = {}
    for section in ("lunar", "solar_terms"):
        for name, years in raw[section].items():
            out[name] = {int(y): date.fromisoformat(d) for y, d in years.items()}
    return out


#: the solar terms that are not holidays too (清明 and 冬至 are): named only with 那天 / 当天
#: ("霜降那天"), since 小雪, 大雪, 雨水 … are weather words as well
SOLAR_TERMS = (
    "小寒", "大寒", "立春", "雨水", "惊蛰", "春分", "谷雨", "立夏", "小满", "芒种", "夏至",
    "小暑", "大暑", "立秋", "处暑", "白露", "秋分", "寒露", "霜降", "立冬", "小雪", "大雪",
)  # fmt: skip


def solar_term_date(name: str, year: int) -> date | None:
    """The China-time day of solar term ``name`` (立春, 霜降 …) in ``year``; None outside the table."""
    return _table().get(name, {}).get(year) if name in SOLAR_TERMS else None


def canonical_holiday(name: str) -> str | None:
    """``"五一"`` → ``"劳动节"``; ``None`` for an unknown name."""
    return HOLIDAY_ALIASES.get(name.strip())


@lru_cache(maxsize=4096)
def holiday_date(name: str, year: int) -> date | None:
    """The date of a holiday in ``year``; ``None`` if unknown or outside the table."""
    canon = canonical_holiday(name)
    if canon is None:
        return None
    fixed = _FIXED.get(canon)
    if fixed is not None:
        if not 1 <= year <= 9999:
            return None
        return date(year, *fixed)
    return _table()[canon].get(year)


def holiday_names() -> list[str]:
    """Every accepted surface form (canonical names and aliases), sorted."""
    return sorted(HOLIDAY_ALIASES)


def next_holiday(name: str, reference: date) -> date | None:
    """The next occurrence of a holiday on or after ``reference``."""
    best: date | None = None
    for year in (reference.year, reference.year + 1, reference.year + 2):
        d = holiday_date(name, year)
        if d is not None and d >= reference and (best is None or d < best):
            best = d
    return best
