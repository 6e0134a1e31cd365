"""Find mentions in free text: time expressions, places, numbers — with their spans and the
inference step each needed (a relative date, a year to infer, a Chinese numeral …)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime

from ..normalize import all_places, find_numbers, is_relative, parse_absolute, resolve
from ..normalize.timeexpr import TimeValue

_TIME_START = re.compile(
    r"[0-9０-９零〇一二两三四五六七八九十今明后昨前大下上这本周星礼月年春中元端清国除圣平七重腊小早晚凌午半]"
)
_MAX_SPAN = 24  # a full-date range "2025年1月11日至2025年2月11日" is 21 characters
_NOT_A_COUNT = set("下些点起直样般定共旦边会切同")


@dataclass(frozen=True)
class TimeMention:
    value: TimeValue
    start: int
    end: int
    text: str
    steps: tuple[str, ...]  # relative_time / year_inference, and time_format; () for a literal absolute form


@dataclass(frozen=True)
class PlaceMention:
    name: str
    start: int
    end: int
    text: str
    step: str | None  # implicit_entity for nicknames


NICKNAMES = {
    "魔都": "上海", "帝都": "北京", "羊城": "广州", "鹏城": "深圳", "蓉城": "成都", "山城": "重庆",
    "春城": "昆明", "泉城": "济南", "冰城": "哈尔滨", "江城": "武汉", "星城": "长沙", "鹭岛": "厦门",
}  # fmt: skip


_MD = re.compile(r"\s*[0-9零一二两三四五六七八九十]+月[0-9零一二两三四五六七八九十]+[日号]?")
_CLOCK_WORDS = re.compile(r"[上下中]午|晚上|早上|凌晨|傍晚|[0-9零一二两三四五六七八九十]点")


def _steps_for(surface: str, v: TimeValue) -> tuple[str, ...]:
    """The inference steps a reader needs to turn this surface into an API value."""
    steps: list[str] = []
    if is_relative(surface):
        steps.append(
            "year_inference"
            if _MD.match(surface) and not re.search(r"[今明后昨前下上这本周]", surface)
            else "relative_time"
        )
    if v.kind in ("time", "datetime", "datetime_range") and _CLOCK_WORDS.search(surface):
        steps.append("time_format")
    return tuple(steps)


@functools.lru_cache(maxsize=4096)
def find_times(text: str, reference_time: str) -> tuple[TimeMention, ...]:
    """Non-overlapping time expressions, longest match first at each position, left to right."""
    ref = datetime.fromisoformat(reference_time)
    tz = ref.tzinfo
    assert tz is not None
    out: list[TimeMention] = []
    i, n = 0, len(text)
    while i < n:
        if not _TIME_START.match(text, i):
            i += 1
            continue
        found = None
        for j in range(min(n, i + _MAX_SPAN), i, -1):
            s = text[i:j]
            if s[-1] in "的，,。 ？?从到去在":
                continue
            v = parse_absolute(s, tz) or resolve(s, ref)
            if v is not None:
                found = TimeMention(v, i, j, s, _steps_for(s, v))
                break
        if found is None or _is_bare_number(found.text):
            i += 1
            continue
        out.append(found)
        i = found.end
    return tuple(out)


def _is_bare_number(s: str) -> bool:
    """A lone number ('3', '三', '2026') is a count or an amount, not a time."""
    return bool(re.fullmatch(r"[0-9零〇一二两三四五六七八九十百千]+", s))


@functools.cache
def _place_index() -> tuple[re.Pattern[str], dict[str, str]]:
    names: dict[str, str] = {}
    for p in all_places():
        for a in (p.name, *p.aliases):
            if re.search(r"[\u4e00-\u9fff]", a) and len(a) >= 2:
                names.setdefault(a, p.name)
    for nick, city in NICKNAMES.items():
        names[nick] = city
    alt = "|".join(sorted(map(re.escape, names), key=len, reverse=True))
    return re.compile(alt), names


# Common words a place name sits inside across a word boundary: the place there is no mention
# (医保定点 holds no 保定, 三明治 no 三明, 未开封 no 开封, 大理石 no 大理).
NOT_PLACES = ("医保", "三明治", "未开封", "没开封", "已开封", "大同小异", "长治久安", "大理石")
_NOT_PLACES_RX = re.compile("|".join(map(re.escape, NOT_PLACES)))


def find_places(text: str) -> list[PlaceMention]:
    """Place names in free text, longest first, left to right; a name that a common word (``NOT_PLACES``)
    overlaps and reaches beyond is part of that word, not a mention (医保定点药店; 保定的医保定点药店
    still mentions 保定 once)."""
    rx, names = _place_index()
    words = [(w.start(), w.end()) for w in _NOT_PLACES_RX.finditer(text)]
    out = []
    for m in rx.finditer(text):
        a, b = m.start(), m.end()
        if any(ws < b and we > a and (ws < a or we > b) for ws, we in words):
            continue
        s = m.group(0)
        out.append(PlaceMention(names[s], a, b, s, "implicit_entity" if s in NICKNAMES else None))
    return out


def numbers_outside(text: str, spans: list[tuple[int, int]]) -> list[tuple[float, int, int, str]]:
    """Numbers not inside the given spans (dates, times), with the step a Chinese numeral needs."""
    out = []
    for v, a, b in find_numbers(text):
        if any(a < e and b > s for s, e in spans):
            continue
        surface = text[a:b]
        if surface == "一" and text[b : b + 1] in _NOT_A_COUNT:
            continue  # 查一下, 一些, 一点: not a number
        step = None if re.fullmatch(r"[0-9.,]+", surface) else "numeral"
        out.append((v, a, b, step or ""))
    return out
