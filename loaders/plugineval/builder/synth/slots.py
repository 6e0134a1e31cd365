"""Slot values and their Chinese surfaces; every relative surface is checked by resolving it back."""

from __future__ import annotations

import calendar
import random
import re
import sqlite3
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from plugineval.catalog import Catalog
from plugineval.normalize import resolve
from plugineval.normalize.calendar_expr import calendar_kind, calendar_step, holiday_ends, holiday_starts
from plugineval.normalize.holidays import SOLAR_TERMS, solar_term_date
from plugineval.normalize.lunar import lunar_day_name, lunar_month_name, to_lunar
from plugineval.normalize.places import CITY_NICKNAMES
from plugineval.normalize.workdays import day_info, official
from plugineval.normalize.zones import ZONES, zone

from ..tools.domains._common import CITIES, FOREIGN_CITIES
from .grammar import SlotSpec

CN_DIGITS = "零一二三四五六七八九"
WEEKDAYS = "一二三四五六日"
NICKNAMES = {city: nick for nick, city in CITY_NICKNAMES.items()}  # city → its nickname
SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
)
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏建国志文斌宇浩凯婷雪琳晨欣悦"


@dataclass(frozen=True)
class SlotValue:
    value: Any
    surface: str
    steps: tuple[str, ...] = ()


def cn_number(n: int, counting: bool = False) -> str:
    """Chinese numeral for 0..9999 (两 for a count of 2)."""
    if n == 2 and counting:
        return "两"
    if n < 10:
        return CN_DIGITS[n]
    if n < 20:
        return "十" + (CN_DIGITS[n % 10] if n % 10 else "")
    if n < 100:
        return CN_DIGITS[n // 10] + "十" + (CN_DIGITS[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        tail = (
            ""
            if rest == 0
            else ("零" + CN_DIGITS[rest])
            if rest < 10
            else cn_number(rest)
            if rest >= 20
            else "一" + cn_number(rest)
        )
        return CN_DIGITS[n // 100] + "百" + tail
    rest = n % 1000
    tail = "" if rest == 0 else ("零" + cn_number(rest)) if rest < 100 else cn_number(rest)
    return CN_DIGITS[n // 1000] + "千" + tail


def relative_surfaces(d: date, ref: datetime) -> list[str]:
    """Relative expressions for day ``d`` seen from ``ref`` that resolve back to ``d`` exactly."""
    today = ref.date()
    off = (d - today).days
    cands: list[str] = []
    cands += {0: ["今天"], 1: ["明天"], 2: ["后天"], 3: ["大后天"], -1: ["昨天"], -2: ["前天"]}.get(off, [])
    if 2 <= off <= 30:
        cands.append(f"{cn_number(off, counting=True)}天后")
    if -30 <= off <= -2:
        cands.append(f"{cn_number(-off, counting=True)}天前")
    wd = WEEKDAYS[d.weekday()]
    monday = today - timedelta(days=today.weekday())
    week = (d - monday).days // 7
    if week == 0 and off > 0:
        cands += [f"这周{wd}", f"本周{wd}", f"周{wd}"]
    elif week == 1:
        cands += [f"下周{wd}", f"下星期{wd}"]
    elif week == 2:
        cands.append(f"下下周{wd}")
    elif week == -1:
        cands += [f"上周{wd}", f"上星期{wd}"]
    if d.day == calendar.monthrange(d.year, d.month)[1] and (d.year, d.month) == (today.year, today.month):
        cands.append("月底")
    nm = (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    if (d.year, d.month) == (nm.year, nm.month):
        cands.append(f"下个月{d.day}号")
    pm = (today.replace(day=1) - timedelta(days=1)).replace(day=1)
    if (d.year, d.month) == (pm.year, pm.month):
        cands.append(f"上个月{d.day}号")
    out = []
    for c in cands:
        v = resolve(c, ref)
        if v is not None and v.kind == "date" and v.start == d:
            out.append(c)
    return out


_COUNTED = re.compile(r"^(?P<n>[一二两三四五六七八九十]+)天[后前]$")


def said_relative(cands: list[str]) -> list[str]:
    """The relative expressions people use for a day, most used first kept (blind reviewers read 五天后,
    十四天后 and a range 周二住到两天后 as generated): a day word (明天, 后天, 前天) where one names the day,
    else a weekday (周五, 下周三); else 月底 / 下个月N号, else 下下周X; a count of days (三天后) only up to three, or
    where nothing else names the day."""
    day_words = [c for c in cands if c in ("今天", "明天", "后天", "大后天", "昨天", "前天")]
    weekdays = [c for c in cands if ("周" in c or "星期" in c) and not c.startswith("下下")]
    if day_words or weekdays:
        return day_words or weekdays  # 明天, not 周四, for tomorrow: people say the day word ~10 to 1
    month = [c for c in cands if "月" in c]
    far_weekdays = [c for c in cands if c.startswith("下下")]
    if month or far_weekdays:
        return month or far_weekdays
    short = [c for c in cands if (m := _COUNTED.match(c)) and m.group("n") in ("一", "两", "二", "三")]
    return short or cands


NEAR_WORDS = {-2: "前天", -1: "昨天", 0: "今天", 1: "明天", 2: "后天"}


SAID_DAY_WEIGHT = {0: 10.0, 1: 10.0, 2: 1.5, -1: 1.5, -2: 0.3, 3: 0.4}
"""How often people name a day at each offset from today, relative to one another, where they name it
relatively: in 3,739 real requests to a Chinese phone assistant 今天 and 明天 each come ~90 times, 后天 and
昨天 ~10, a weekday (周三, 下周二) ~9 in all, 前天 and 大后天 once. A day at any other offset weighs
``OTHER_DAY_WEIGHT`` (blind reviewers read 下星期二, 下下周三 in an errand as generated)."""
OTHER_DAY_WEIGHT = 0.15


def said_offset(rng: random.Random, lo: int, hi: int) -> int:
    """An offset in [lo, hi] drawn as often as people name a day at it (``SAID_DAY_WEIGHT``)."""
    offsets = list(range(lo, hi + 1))
    weights = [SAID_DAY_WEIGHT.get(o, OTHER_DAY_WEIGHT) for o in offsets]
    return rng.choices(offsets, weights=weights)[0]


def near_day(d: date, today: date) -> bool:
    """A day people name by a day word (今天, 明天, 后天, 昨天, 前天), never by its month and day:
    blind reviewers read 5月21号 for tomorrow as generated."""
    return (d - today).days in NEAR_WORDS


def _all_near(spec: SlotSpec) -> bool:
    return all(o in NEAR_WORDS for o in range(spec.min_days, spec.max_days + 1))


YEAR_WORDS = {-2: "前年", -1: "去年", 0: "今年", 1: "明年"}
MIN_PAST_CAL_DAYS = 20  # a lunar name of a day this recent is no way anyone says it ("今年农历十月廿二")
SPECIAL_SHARE = 0.4
"""Of calendar readings, the share drawn among the days that have a name of their own — a solar
term, the working days around a public holiday — rather than among all days of the slot's range
(most of which only a lunar date names); of working-day counts, the share drawn to pass a day the
weekday does not tell (a holiday, a 调休 Saturday), where the slot's range holds one."""
SPECIAL_KINDS = frozenset({"term", "before", "after"})


def special_days(lo: date, hi: date) -> list[date]:
    """The days in [lo, hi] a solar term falls on or that lie within five days of a public
    holiday's first or last day: the candidates for a calendar name other than a lunar date."""
    out: set[date] = set()
    for y in range(lo.year, hi.year + 1):
        for name in SOLAR_TERMS:
            d = solar_term_date(name, y)
            if d is not None:
                out.add(d)
    for starts in holiday_starts().values():
        out |= {s - timedelta(days=k) for s in starts for k in range(1, 6)}
    for ends in holiday_ends().values():
        out |= {e + timedelta(days=k) for e in ends for k in range(1, 6)}
    return sorted(d for d in out if lo <= d <= hi)


def _with_year(name: str, d: date, today: date) -> list[str]:
    """A day's name bare, and with its year word where that is how one says it (a past day, or a
    day in another year: 去年农历八月十五, 明年立春那天)."""
    year = YEAR_WORDS.get(d.year - today.year)
    return [name] + ([year + name] if year is not None and (d < today or year != "今年") else [])


def calendar_surfaces(d: date, ref: datetime) -> list[str]:
    """Calendar-fact names of day ``d`` seen from ``ref`` (a lunar date — with its year for a past
    or next year's day —, a solar term's day, a month's last or first working day, the first working
    day after a holiday or the last one before it, a month's n-th weekday), each checked by
    resolving it back to ``d``."""
    today = ref.date()
    cands: list[str] = []
    lunar = to_lunar(d)
    if lunar is not None and (d >= today or (today - d).days >= MIN_PAST_CAL_DAYS):
        _y, m, leap, day = lunar
        month = lunar_month_name(m, leap)
        cands += _with_year(
            ("" if month in ("正月", "腊月") else "农历") + month + lunar_day_name(day), d, today
        )
    for term in SOLAR_TERMS:  # 霜降那天, 明年立春那天, 去年小雪那天
        if solar_term_date(term, d.year) == d:
            cands += _with_year(f"{term}那天", d, today)
    months = {0: "这个月", 1: "下个月"}
    k = (d.year - today.year) * 12 + d.month - today.month
    if k in months and official(d):
        days = [d.replace(day=x) for x in range(1, calendar.monthrange(d.year, d.month)[1] + 1)]
        work = [x for x in days if day_info(x)[0]]
        if work and work[-1] == d:
            cands.append(f"{months[k]}最后一个工作日")
        if work and work[0] == d and d > today:
            cands.append(f"{months[k]}第一个工作日")
        nth = (d.day - 1) // 7 + 1
        if k == 1:
            cands.append(f"下个月第{CN_DIGITS[nth]}个周{WEEKDAYS[d.weekday()]}")
    for h, ends in holiday_ends().items():  # only near a holiday's end: the resolver says which day
        if h != "十一" and h != "劳动节" and any(0 < (d - e).days <= 10 for e in ends):
            cands.append(f"{h}假期后的第一个工作日")
    for h, starts in holiday_starts().items():  # the last working day before a holiday (调休 counted)
        if h != "十一" and h != "劳动节" and any(0 < (s - d).days <= 10 for s in starts):
            cands += [f"{h}前最后一个工作日", f"{h}节前的最后一个工作日"]
    out = []
    for c in cands:
        v = resolve(c, ref)
        if v is not None and v.kind == "date" and v.start == d and calendar_step(c):
            out.append(c)
    return out


def crosses_shift(today: date, d: date) -> bool:
    """Does a working-day count from ``today`` to ``d`` pass a day the weekday does not tell: a
    holiday on a weekday, or a 调休 weekend day that is worked?"""
    return any(
        day_info(x)[0] != (x.weekday() < 5)
        for x in (today + timedelta(days=k) for k in range(1, (d - today).days + 1))
    )


def workday_surfaces(d: date, ref: datetime) -> list[str]:
    """ "今天之后的第N个工作日" for working day ``d`` (调休 counted), checked by resolving it back."""
    today = ref.date()
    if d <= today or not official(d) or not day_info(d)[0]:
        return []
    n = sum(day_info(today + timedelta(days=k))[0] for k in range(1, (d - today).days + 1))
    if n < 2:
        return []
    out = []
    for c in (f"今天之后的第{cn_number(n)}个工作日", f"今天以后第{cn_number(n)}个工作日"):
        v = resolve(c, ref)
        if v is not None and v.kind == "date" and v.start == d:
            out.append(c)
    return out


def duration_surface(minutes: int, rng: random.Random) -> str:
    h, m = divmod(minutes, 60)
    if m == 0:
        return f"{cn_number(h, counting=True)}个小时"
    if m == 30:
        return f"{cn_number(h, counting=True)}个半小时" if h else "半小时"
    return rng.choice([f"{minutes}分钟", f"{cn_number(minutes)}分钟"])


def time_surface(h: int, m: int) -> str:
    period = "凌晨" if h < 6 else "上午" if h < 12 else "中午" if h == 12 else "下午" if h < 18 else "晚上"
    hh = h if h <= 12 else h - 12
    tail = "点" if m == 0 else "点半" if m == 30 else f"点{cn_number(m)}分"
    return f"{period}{cn_number(hh)}{tail}"


class SlotContext:
    def __init__(
        self, rng: random.Random, ref: datetime, catalog: Catalog, db: sqlite3.Connection | None
    ) -> None:
        self.rng = rng
        self.ref = ref
        self.catalog = catalog
        self.db = db
        self.chosen: dict[str, SlotValue] = {}

    def sample(self, name: str, spec: SlotSpec, form: str | None) -> SlotValue | None:
        rng = self.rng
        taken = {self.chosen[o].value for o in spec.distinct if o in self.chosen}
        t = spec.type
        if t in ("city", "foreign_city"):
            pool = sorted((CITIES if t == "city" else FOREIGN_CITIES).keys() - taken)
            if form == "nick":
                pool = [c for c in pool if c in NICKNAMES]
            if not pool:
                return None
            c = rng.choice(pool)
            return SlotValue(c, NICKNAMES[c], ("implicit_entity",)) if form == "nick" else SlotValue(c, c)
        if t == "date":
            said = {self.chosen[o].surface for o in spec.distinct if o in self.chosen}
            for _ in range(6):  # two days of one query are said apart too (1月26号 of two years)
                got = self._date(spec, form, taken)
                if got is None or got.surface not in said:
                    return got
            return None
        if t == "datetime":
            return self._datetime(spec, form)
        if t == "time" and form == "dur":
            return self._end(spec, form)
        if t == "time":
            for _ in range(12):  # `distinct`: draw again on a collision
                h = rng.randint(*spec.hours)
                m = rng.choice([0, 0, 30, 15, 45])
                v = f"{h:02d}:{m:02d}"
                if v not in taken:
                    break
            else:
                return None
            return SlotValue(v, time_surface(h, m), ("time_format",)) if form == "cn" else SlotValue(v, v)
        if t == "int":
            n = rng.randint(spec.min, spec.max)
            for _ in range(12):  # `distinct`: draw again on a collision
                if n not in taken:
                    break
                n = rng.randint(spec.min, spec.max)
            else:
                return None
            return (
                SlotValue(n, cn_number(n, counting=True), ("numeral",))
                if form == "cn"
                else SlotValue(n, str(n))
            )
        if t == "enum":
            assert spec.tool and spec.arg
            tool = self.catalog.tool(spec.tool)
            enum = tool.properties[spec.arg].get("enum") or tool.properties[spec.arg].get("items", {}).get(
                "enum", []
            )
            ann = tool.annotations.get(spec.arg)
            aliases = ann.aliases if ann else {}
            v = rng.choice(
                [e for e in enum if e not in taken and any(c == e for c in aliases.values())] or enum
            )
            surfaces = sorted(a for a, c in aliases.items() if c == v)
            return SlotValue(v, rng.choice(surfaces) if surfaces else str(v))
        if t == "choice":
            ch = rng.choice([c for c in spec.choices if c.value not in taken] or spec.choices)
            return SlotValue(ch.value, ch.text)
        if t == "person":
            s = rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice([1, 2])))
            return SlotValue(s, s)
        if t == "phone":
            s = "1" + rng.choice("3589") + "".join(str(rng.randint(0, 9)) for _ in range(9))
            return SlotValue(s, s)
        if t == "sql":
            if self.db is None or spec.sql is None:
                return None
            params = {
                **{k: v.value for k, v in self.chosen.items()},
                "ref_date": self.ref.date().isoformat(),
                "ref_datetime": self.ref.isoformat(),
                "ref_year": self.ref.year,
            }
            rows = [r[0] for r in self.db.execute(spec.sql, params).fetchall() if r[0] not in taken]
            if not rows:
                return None
            v = rng.choice(sorted(rows, key=str))
            return SlotValue(v, str(v))
        return None

    def _date(self, spec: SlotSpec, form: str | None, taken: set[Any] | None = None) -> SlotValue | None:
        today = self.ref.date()
        if form in ("cal", "far"):  # a calendar name; ``far``: of a day in the slot's far range
            lo, hi = spec.far_days if form == "far" and spec.far_days else (spec.min_days, spec.max_days)
            special = self.rng.random() < SPECIAL_SHARE
            for attempt in range(12):
                got = self._calendar_day(lo, hi, special and attempt < 2, taken)
                if got is not None:
                    return got
            return None
        shifted = form == "work" and self.rng.random() < SPECIAL_SHARE  # a count across 调休
        for attempt in range(12):
            off = (
                said_offset(self.rng, spec.min_days, spec.max_days)
                if form == "rel"
                else self.rng.randint(spec.min_days, spec.max_days)
            )
            d = today + timedelta(days=off)
            iso = d.isoformat()
            if taken and iso in taken:  # `distinct`: two dates of one query differ
                continue
            if spec.weekdays and d.weekday() >= 5:
                continue
            if form == "rel":
                rel = said_relative(relative_surfaces(d, self.ref))
                if rel:
                    return SlotValue(iso, self.rng.choice(rel), ("relative_time",))
                continue
            if form == "work":
                if attempt < 6 and shifted and not crosses_shift(today, d):
                    continue
                surf = workday_surfaces(d, self.ref)
                if surf:
                    return SlotValue(iso, self.rng.choice(surf), ("date_arithmetic",))
                continue
            if form == "md":
                if near_day(d, today):
                    if attempt < 8 and not _all_near(spec):
                        continue  # a date named by its month and day is a day further off
                    word = NEAR_WORDS[(d - today).days]  # 明天, never 5月21号, for tomorrow
                    return SlotValue(iso, word, ("relative_time",))
                return SlotValue(iso, f"{d.month}月{d.day}{self.rng.choice('日号')}", ("year_inference",))
            if form == "iso":
                return SlotValue(iso, iso)
            return SlotValue(iso, f"{d.year}年{d.month}月{d.day}日")
        return None

    def _calendar_day(self, lo: int, hi: int, special: bool, taken: set[Any] | None) -> SlotValue | None:
        """A day ``lo``..``hi`` days ahead said by a calendar name (None when the draw has none):
        with ``special``, one of the days that have a name of their own (``special_days``: 霜降那天,
        春节前最后一个工作日) said by it, else any day of the range said by any of its names."""
        today = self.ref.date()
        if special:
            days = special_days(today + timedelta(days=lo), today + timedelta(days=hi))
            if not days:
                return None
            d = self.rng.choice(days)
        else:
            d = today + timedelta(days=self.rng.randint(lo, hi))
        if taken and d.isoformat() in taken:  # `distinct`: two dates of one query differ
            return None
        surf = calendar_surfaces(d, self.ref)
        if special:
            surf = [s for s in surf if calendar_kind(s) in SPECIAL_KINDS]
        if not surf:
            return None
        return SlotValue(d.isoformat(), self.rng.choice(surf), ("calendar_fact",))

    def _datetime(self, spec: SlotSpec, form: str | None) -> SlotValue | None:
        """A moment in China time: said here ("3月12日下午三点"), in another zone (``tz``: "纽约时间
        3月12日上午10点", summer time included), or as a duration after another slot (``dur``)."""
        if form == "dur":
            return self._end(spec, form)
        today, tz = self.ref.date(), self.ref.tzinfo
        for _ in range(12):
            d = today + timedelta(days=self.rng.randint(max(spec.min_days, 1), max(spec.max_days, 1)))
            h = self.rng.randint(*spec.hours)
            mi = self.rng.choice([0, 0, 30])
            here = datetime(d.year, d.month, d.day, h, mi, tzinfo=tz)
            value = here.isoformat()
            if form != "tz":
                if near_day(d, today):  # 明天下午三点, not 5月21日下午三点
                    return SlotValue(
                        value,
                        NEAR_WORDS[(d - today).days] + time_surface(h, mi),
                        ("relative_time", "time_format"),
                    )
                return SlotValue(
                    value, f"{d.month}月{d.day}日{time_surface(h, mi)}", ("year_inference", "time_format")
                )
            name = self.rng.choice(sorted(ZONES))
            wall = here.astimezone(zone(name))
            if not 7 <= wall.hour <= 21:  # a time people in that city would name
                continue
            surface = f"{name}时间{wall.month}月{wall.day}日{time_surface(wall.hour, wall.minute)}"
            return SlotValue(value, surface, ("timezone_conversion",))
        return None

    def _end(self, spec: SlotSpec, form: str | None) -> SlotValue | None:
        """The end of a duration after slot ``spec.after`` ("开一个半小时"): HH:MM or ISO like the start."""
        start = self.chosen.get(spec.after or "")
        if start is None:
            return None
        lo, hi = spec.minutes
        minutes = 15 * self.rng.randint(max(1, lo // 15), max(1, hi // 15))
        surface = duration_surface(minutes, self.rng)
        v = str(start.value)
        if len(v) == 5:  # HH:MM
            end = datetime(2000, 1, 1, int(v[:2]), int(v[3:])) + timedelta(minutes=minutes)
            if end.day != 1:
                return None
            return SlotValue(end.strftime("%H:%M"), surface, ("date_arithmetic",))
        end_dt = datetime.fromisoformat(v) + timedelta(minutes=minutes)
        return SlotValue(end_dt.isoformat(), surface, ("date_arithmetic",))
