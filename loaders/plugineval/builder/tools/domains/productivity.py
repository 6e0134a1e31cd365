"""效率 productivity: calendar, reminders, unit conversion, world clock, date arithmetic, meeting rooms.

Stored: China's holiday calendar 2020–2030 (official arrangements through 2026, statutory days after),
unit tables, time-zone aliases, recurring calendar rules, meeting rooms. A date's calendar entries
and room occupancy are derived from (rule, date) / (room, date, hour) with ``stable_unit``, so any
date answers the same way; events, reminders and bookings created by tools go to the store.
"""

from __future__ import annotations

import json
import math
import random
import re
import sqlite3
from calendar import monthrange
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..runtime import ToolCtx, handler, stable_rng, stable_unit
from . import productivity_data as D
from ._common import CITIES, canonical_city, hhmm, parse_hhmm

STORE_VERSION = "1"
SCHEMA_SQL = """
CREATE TABLE prod_holidays (date TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, source TEXT NOT NULL);
CREATE TABLE prod_units (unit_id TEXT PRIMARY KEY, category TEXT NOT NULL, factor REAL NOT NULL, name_zh TEXT NOT NULL);
CREATE TABLE prod_zone_aliases (alias TEXT PRIMARY KEY, zone TEXT NOT NULL);
CREATE TABLE prod_calendar_rules (
    rule_id TEXT PRIMARY KEY, title TEXT NOT NULL, freq TEXT NOT NULL, weekday INTEGER NOT NULL,
    start TEXT NOT NULL, duration_min INTEGER NOT NULL, location TEXT NOT NULL
);
CREATE TABLE prod_calendar_events (
    event_id TEXT PRIMARY KEY, title TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL, location TEXT,
    attendees TEXT NOT NULL, remind_before_min INTEGER NOT NULL
);
CREATE TABLE prod_reminders (
    reminder_id TEXT PRIMARY KEY, content TEXT NOT NULL, remind_at TEXT NOT NULL, repeat TEXT NOT NULL,
    priority TEXT NOT NULL
);
CREATE TABLE prod_rooms (
    room_id TEXT PRIMARY KEY, building TEXT NOT NULL, floor INTEGER NOT NULL, name TEXT NOT NULL,
    capacity INTEGER NOT NULL, has_video INTEGER NOT NULL, has_projector INTEGER NOT NULL
);
CREATE TABLE prod_room_bookings (
    booking_id TEXT PRIMARY KEY, room_id TEXT NOT NULL, date TEXT NOT NULL, start_min INTEGER NOT NULL,
    end_min INTEGER NOT NULL, subject TEXT, attendees INTEGER NOT NULL
);
"""

CN = ZoneInfo("Asia/Shanghai")
_WEEKDAYS = ["周一", "周二", "周三", "周四", "周五", "周六", "周日"]
_CATEGORY = {"length": "长度", "mass": "质量", "area": "面积", "volume": "体积", "temperature": "温度"}
_CATEGORY |= {"speed": "速度", "data": "数据存储", "time": "时间", "energy": "能量"}
_OPEN, _CLOSE, _MAX_MEETING = 8 * 60, 21 * 60, 240


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    conn.executemany("INSERT INTO prod_holidays VALUES (?,?,?,?)", D.holiday_rows())
    conn.executemany("INSERT INTO prod_units VALUES (?,?,?,?)", D.unit_rows())
    conn.executemany("INSERT INTO prod_zone_aliases VALUES (?,?)", D.zone_rows(sorted(CITIES)))
    conn.executemany("INSERT INTO prod_calendar_rules VALUES (?,?,?,?,?,?,?)", D.CALENDAR_RULES)
    conn.executemany("INSERT INTO prod_rooms VALUES (?,?,?,?,?,?,?)", D.room_rows(rng))


# --- shared: holiday calendar, times ----------------------------------------------------------------
def _calendar(ctx: ToolCtx, d0: date, d1: date) -> dict[str, tuple[str, str, str]]:
    rows = ctx.query(
        "SELECT * FROM prod_holidays WHERE date BETWEEN ? AND ?", (d0.isoformat(), d1.isoformat())
    )
    return {r["date"]: (r["kind"], r["name"], r["source"]) for r in rows}


def _is_workday(d: date, cal: dict[str, tuple[str, str, str]]) -> bool:
    hit = cal.get(d.isoformat())
    return d.weekday() < 5 if hit is None else hit[0] == "workday"


def _parse_dt(ctx: ToolCtx, arg: str, raw: str) -> datetime:
    try:
        dt = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        ctx.fail("BAD_DATETIME", f"{arg}={raw!r} 不是 ISO 8601 日期时间，如 2026-03-20T14:00:00")
    return (dt.replace(tzinfo=CN) if dt.tzinfo is None else dt).astimezone(CN)


def _iso(dt: datetime) -> str:
    return dt.astimezone(CN).isoformat(timespec="seconds")


def _days(d0: date, d1: date) -> list[date]:
    return [d0 + timedelta(days=k) for k in range((d1 - d0).days + 1)]


# --- calendar ---------------------------------------------------------------------------------------
def _entries(ctx: ToolCtx, d0: date, d1: date) -> list[dict[str, Any]]:
    """Every calendar entry starting between d0 and d1: recurring rules, derived meetings, created events."""
    cal = _calendar(ctx, d0.replace(day=1), d1)
    rules = ctx.query("SELECT * FROM prod_calendar_rules ORDER BY rule_id")
    out: list[dict[str, Any]] = []

    def add(eid: str, title: str, start: datetime, minutes: int, place: str, source: str) -> None:
        end = start + timedelta(minutes=minutes)
        out.append({"event_id": eid, "title": title, "start_time": _iso(start), "end_time": _iso(end)})
        out[-1] |= {"location": place, "source": source, "_s": start, "_e": end}

    for d in _days(d0, d1):
        work, key = _is_workday(d, cal), d.strftime("%Y%m%d")
        first_work = work and not any(_is_workday(x, cal) for x in _days(d.replace(day=1), d)[:-1])
        for r in rules:
            due = {"workdays": work, "first_workday": first_work}.get(r["freq"], d.weekday() == r["weekday"])
            personal = r["weekday"] >= 5 or r["start"] >= "18:00"
            if due and (work or personal):
                start = datetime.combine(d, time.fromisoformat(r["start"]), CN)
                add(f"{r['rule_id']}-{key}", r["title"], start, r["duration_min"], r["location"], "recurring")
        if work and stable_unit("cal-extra", d.isoformat()) < 0.45:
            rng = stable_rng("cal-extra", d.isoformat())
            start = datetime.combine(d, time(), CN) + timedelta(minutes=rng.randrange(40, 68) * 15)
            title, place = rng.choice(D.EXTRA_EVENTS), rng.choice(D.EXTRA_PLACES)
            add(f"X-{key}", title, start, rng.choice([30, 45, 60, 90]), place, "scheduled")
    lo, hi = d0.isoformat(), (d1 + timedelta(days=1)).isoformat()
    for e in ctx.query(
        "SELECT * FROM prod_calendar_events WHERE start>=? AND start<? ORDER BY start", (lo, hi)
    ):
        s, t = datetime.fromisoformat(e["start"]), datetime.fromisoformat(e["end"])
        add(e["event_id"], e["title"], s, int((t - s).total_seconds() // 60), e["location"] or "", "created")
    out.sort(key=lambda x: (x["_s"], x["event_id"]))
    return out


def _public(e: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in e.items() if not k.startswith("_")}


@handler("calendar_create_event")
def calendar_create_event(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    start = _parse_dt(ctx, "start_time", args["start_time"])
    end = _parse_dt(ctx, "end_time", args["end_time"]) if "end_time" in args else start + timedelta(hours=1)
    if end <= start:
        ctx.fail("BAD_TIME_RANGE", "结束时间必须晚于开始时间")
    if end - start > timedelta(days=31):
        ctx.fail("EVENT_TOO_LONG", "单个日程最长 31 天，更长的安排请拆成多个日程")
    if start < ctx.now:
        ctx.fail("TIME_IN_PAST", f"开始时间 {_iso(start)} 已经过去，不能创建过去的日程")
    clash = [_public(e) for e in _entries(ctx, start.date(), end.date()) if e["_s"] < end and start < e["_e"]]
    n = ctx.one("SELECT COUNT(*) AS n FROM prod_calendar_events")
    eid = f"EV{(n['n'] if n else 0) + 1:05d}"
    attendees = list(args.get("attendees", []))
    row = (
        eid,
        args["title"],
        _iso(start),
        _iso(end),
        args.get("location"),
        json.dumps(attendees, ensure_ascii=False),
    )
    ctx.db.execute(
        "INSERT INTO prod_calendar_events VALUES (?,?,?,?,?,?,?)", (*row, args["remind_before_min"])
    )
    remind = start - timedelta(minutes=int(args["remind_before_min"]))
    out = {"event_id": eid, "status": "created", "title": args["title"], "start_time": _iso(start)}
    out |= {"end_time": _iso(end), "duration_min": int((end - start).total_seconds() // 60)}
    out |= {"location": args.get("location", ""), "attendees": attendees, "remind_at": _iso(remind)}
    return out | {"weekday": _WEEKDAYS[start.weekday()], "conflicts": clash}


@handler("calendar_list_events")
def calendar_list_events(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    d0 = date.fromisoformat(args["date_from"])
    d1 = date.fromisoformat(args["date_to"]) if "date_to" in args else d0
    if d1 < d0:
        ctx.fail("BAD_DATE_RANGE", "date_to 不能早于 date_from")
    events = _entries(ctx, d0, d1)
    if "keyword" in args:
        kw = args["keyword"].strip()
        events = [e for e in events if kw in e["title"] or kw in e["location"]]
    busy = sum(int((e["_e"] - e["_s"]).total_seconds() // 60) for e in events)
    out = {"date_from": d0.isoformat(), "date_to": d1.isoformat(), "count": len(events), "busy_minutes": busy}
    return out | {"events": [_public(e) for e in events]}


# --- reminders -------------------------------------------------------------------------------------------
def _add_months(d: datetime, k: int, day: int) -> datetime:
    y, m = divmod(d.month - 1 + k, 12)
    y, m = d.year + y, m + 1
    return d.replace(year=y, month=m, day=min(day, monthrange(y, m)[1]))


def _occurrences(ctx: ToolCtx, first: datetime, repeat: str, n: int = 5) -> list[datetime]:
    if repeat == "none":
        return [first]
    if repeat in ("daily", "weekly"):
        step = timedelta(days=1 if repeat == "daily" else 7)
        return [first + step * k for k in range(n)]
    if repeat in ("monthly", "yearly"):
        months = 1 if repeat == "monthly" else 12
        return [_add_months(first, k * months, first.day) for k in range(n)]
    cal = _calendar(ctx, first.date(), first.date() + timedelta(days=40))
    days = [d for d in _days(first.date(), first.date() + timedelta(days=40)) if _is_workday(d, cal)]
    return [datetime.combine(d, first.timetz()) for d in days[:n]]


@handler("reminder_create")
def reminder_create(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    at = _parse_dt(ctx, "remind_at", args["remind_at"])
    occ = _occurrences(ctx, at, args["repeat"])
    if not occ:
        ctx.fail("NO_OCCURRENCE", "该重复规则在接下来 40 天内没有可提醒的日期")
    if occ[0] <= ctx.now:
        ctx.fail("TIME_IN_PAST", f"提醒时间 {_iso(occ[0])} 已经过去，请设置将来的时间")
    n = ctx.one("SELECT COUNT(*) AS n FROM prod_reminders")
    rid = f"RM{(n['n'] if n else 0) + 1:05d}"
    row = (rid, args["content"], _iso(occ[0]), args["repeat"], args["priority"])
    ctx.db.execute("INSERT INTO prod_reminders VALUES (?,?,?,?,?)", row)
    out = {"reminder_id": rid, "status": "scheduled", "content": args["content"], "remind_at": _iso(occ[0])}
    out |= {"repeat": args["repeat"], "priority": args["priority"], "weekday": _WEEKDAYS[occ[0].weekday()]}
    out["minutes_until"] = int((occ[0] - ctx.now).total_seconds() // 60)
    return out | {"next_occurrences": [_iso(x) for x in occ]}


# --- unit conversion --------------------------------------------------------------------------------------
def _to_kelvin(v: float, unit: str) -> float:
    return {"celsius": v + 273.15, "fahrenheit": (v - 32) * 5 / 9 + 273.15}.get(unit, v)


def _from_kelvin(k: float, unit: str) -> float:
    return {"celsius": k - 273.15, "fahrenheit": (k - 273.15) * 9 / 5 + 32}.get(unit, k)


def _num(x: float) -> str:
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    return f"{x:.12g}"


@handler("unit_convert")
def unit_convert(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    src = ctx.one("SELECT * FROM prod_units WHERE unit_id=?", (args["from_unit"],))
    dst = ctx.one("SELECT * FROM prod_units WHERE unit_id=?", (args["to_unit"],))
    if src is None or dst is None:
        ctx.fail("UNKNOWN_UNIT", f"不支持的单位：{args['from_unit'] if src is None else args['to_unit']}")
    cat = src["category"]
    if cat != dst["category"]:
        why = f"{src['name_zh']}是{_CATEGORY[cat]}单位，{dst['name_zh']}是{_CATEGORY[dst['category']]}单位"
        ctx.fail("INCOMPATIBLE_UNITS", f"{why}，无法换算")
    v, p = float(args["value"]), int(args["precision"])
    factor: float | None = None
    if cat == "temperature":
        k = _to_kelvin(v, src["unit_id"])
        if k < 0:
            ctx.fail("BELOW_ABSOLUTE_ZERO", f"{_num(v)} {src['name_zh']} 低于绝对零度（-273.15 摄氏度）")
        exact = _from_kelvin(k, dst["unit_id"])
        formula = {"celsius": "°C", "fahrenheit": "°F", "kelvin": "K"}
        formula_text = f"{formula[src['unit_id']]} → K → {formula[dst['unit_id']]}（K = °C + 273.15，°F = °C × 9/5 + 32）"
    else:
        factor = float(src["factor"]) / float(dst["factor"])
        exact = v * factor
        formula_text = f"1 {src['name_zh']} = {_num(factor)} {dst['name_zh']}"
    if not math.isfinite(exact):
        ctx.fail("VALUE_OUT_OF_RANGE", f"{_num(v)} 换算后超出可表示的数值范围")
    result = round(exact, p)
    if result == 0 and exact != 0:  # too small for the decimals asked: keep significant digits
        result = float(f"{exact:.{max(p, 1)}g}")
    out = {"value": v, "from_unit": src["unit_id"], "to_unit": dst["unit_id"], "category": cat}
    out |= {"result": result, "result_text": f"{_num(v)} {src['name_zh']} = {_num(result)} {dst['name_zh']}"}
    return out | {"factor": factor, "formula": formula_text}


# --- world clock ------------------------------------------------------------------------------------------
def _zone(ctx: ToolCtx, raw: str) -> tuple[tzinfo, str]:
    s = raw.strip()
    m = re.fullmatch(r"(?:UTC|GMT)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?", s, re.IGNORECASE)
    if m:
        sign = 1 if m.group(1) == "+" else -1
        h, mi = int(m.group(2)), int(m.group(3) or 0)
        if h > 14 or mi >= 60:
            ctx.fail("UNKNOWN_TIMEZONE", f"{raw!r} 不是有效的 UTC 偏移")
        name = f"UTC{m.group(1)}{h:02d}:{mi:02d}"
        return timezone(sign * timedelta(hours=h, minutes=mi), name), name
    city = canonical_city(s.removesuffix("时间"))
    for key in (s, s.removesuffix("时间"), s.removesuffix("市"), s.lower().replace(" ", "_"), city or ""):
        r = ctx.one("SELECT zone FROM prod_zone_aliases WHERE alias=?", (key,))
        if r is not None:
            return ZoneInfo(r["zone"]), str(r["zone"])
    if "/" in s:
        try:
            return ZoneInfo(s), s
        except (ZoneInfoNotFoundError, ValueError):
            pass
    ctx.fail(
        "UNKNOWN_TIMEZONE",
        f"无法识别时区 {raw!r}：请用 IANA 时区名（如 America/New_York）或城市名（如 纽约）",
    )


def _offset(dt: datetime) -> str:
    off = dt.utcoffset() or timedelta()
    sign, mins = ("+" if off >= timedelta() else "-"), abs(int(off.total_seconds() // 60))
    return f"UTC{sign}{mins // 60:02d}:{mins % 60:02d}"


@handler("timezone_convert")
def timezone_convert(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    src_tz, src_name = _zone(ctx, args["from_timezone"])
    now_src = ctx.now.astimezone(src_tz)
    day = date.fromisoformat(args["date"]) if "date" in args else now_src.date()
    if "time" in args:
        clock = time.fromisoformat(args["time"].replace("Z", "")).replace(tzinfo=None)
    else:
        clock = time() if "date" in args else now_src.time().replace(second=0, microsecond=0, tzinfo=None)
    try:
        return _convert(ctx, datetime.combine(day, clock, src_tz), src_tz, src_name, args["to_timezones"])
    except OverflowError:
        ctx.fail("DATE_OUT_OF_RANGE", "换算结果超出可表示的日期范围（公元 1–9999 年）")


def _convert(
    ctx: ToolCtx, local: datetime, src_tz: tzinfo, src_name: str, targets: list[str]
) -> dict[str, Any]:
    note = ""
    if local.astimezone(UTC).astimezone(src_tz).replace(tzinfo=None) != local.replace(tzinfo=None):
        note = "该当地时间因夏令时调整而不存在，已按调整前的偏移换算"
    src = {
        "timezone": src_name,
        "datetime": local.isoformat(timespec="minutes"),
        "utc_offset": _offset(local),
    }
    src["weekday"] = _WEEKDAYS[local.weekday()]
    results = []
    for raw in targets:
        tz, name = _zone(ctx, raw)
        dt = local.astimezone(tz)
        diff = ((dt.utcoffset() or timedelta()) - (local.utcoffset() or timedelta())).total_seconds() / 3600
        item: dict[str, Any] = {"query": raw, "timezone": name, "datetime": dt.isoformat(timespec="minutes")}
        item |= {
            "date": dt.date().isoformat(),
            "time": dt.strftime("%H:%M"),
            "weekday": _WEEKDAYS[dt.weekday()],
        }
        item |= {
            "utc_offset": _offset(dt),
            "is_dst": bool(dt.dst()),
            "day_offset": (dt.date() - local.date()).days,
        }
        results.append(item | {"hours_ahead_of_source": diff})
    out = {
        "source": src,
        "utc": local.astimezone(UTC).isoformat(timespec="minutes"),
        "results": results,
    }
    return out | ({"note": note} if note else {})


# --- date arithmetic -----------------------------------------------------------------------------------------
def _ymd(lo: date, hi: date) -> tuple[int, int, int]:
    months = (hi.year - lo.year) * 12 + hi.month - lo.month - (1 if hi.day < lo.day else 0)
    y, m = divmod(lo.month - 1 + months, 12)
    anchor = date(lo.year + y, m + 1, min(lo.day, monthrange(lo.year + y, m + 1)[1]))
    return months // 12, months % 12, (hi - anchor).days


@handler("date_diff")
def date_diff(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    a, b = date.fromisoformat(args["start_date"]), date.fromisoformat(args["end_date"])
    lo, hi, sign = min(a, b), max(a, b), (1 if b >= a else -1)
    days, unit = (b - a).days, args["unit"]
    covered = lo.year in D.WORKDAY_YEARS and hi.year in D.WORKDAY_YEARS
    if unit == "workdays" and not covered:
        ctx.fail("WORKDAY_DATA_UNAVAILABLE", "工作日计算只支持 2020–2030 年（依据国务院节假日安排）")
    y, m, dd = _ymd(lo, hi)
    span = _days(lo, hi)
    out: dict[str, Any] = {"start_date": a.isoformat(), "end_date": b.isoformat(), "unit": unit, "days": days}
    out |= {"days_inclusive": len(span), "weeks": abs(days) // 7, "remainder_days": abs(days) % 7}
    out |= {"years_months_days": {"years": y, "months": m, "days": dd}}
    out |= {"weekend_days": sum(d.weekday() >= 5 for d in span), "start_weekday": _WEEKDAYS[a.weekday()]}
    out["end_weekday"] = _WEEKDAYS[b.weekday()]
    workdays: int | None = None
    holidays: list[dict[str, Any]] = []
    adjusted: list[str] = []
    source = "unavailable"
    if covered:
        cal = _calendar(ctx, lo, hi)
        workdays = sum(_is_workday(d, cal) for d in span)
        for d in span:
            kind, name, _ = cal.get(d.isoformat(), ("", "", ""))
            if kind == "workday":
                adjusted.append(d.isoformat())
            elif (
                kind == "holiday"
                and holidays
                and holidays[-1]["name"] == name
                and holidays[-1]["_d"] == d - timedelta(1)
            ):
                holidays[-1] |= {"end": d.isoformat(), "days": holidays[-1]["days"] + 1, "_d": d}
            elif kind == "holiday":
                holidays.append(
                    {"name": name, "start": d.isoformat(), "end": d.isoformat(), "days": 1, "_d": d}
                )
        source = "estimated" if hi.year not in D.OFFICIAL_YEARS else "official"
    out |= {
        "workdays": workdays,
        "holidays": [_public(h) for h in holidays[:60]],
        "adjusted_workdays": adjusted[:60],
    }
    out["holiday_data"] = source
    total_months = sign * (y * 12 + m)
    result: float = {"days": days, "weeks": round(days / 7, 2), "months": total_months}.get(
        unit, workdays or 0
    )
    text = {
        "days": f"相差 {days} 天",
        "weeks": f"相差 {abs(days) // 7} 周零 {abs(days) % 7} 天",
        "months": f"相差 {y} 年 {m} 个月 {dd} 天（共 {abs(total_months)} 个整月）",
        "workdays": f"含首尾共 {workdays} 个工作日",
    }[unit]
    return out | {"result": result, "result_text": text}


# --- meeting rooms -----------------------------------------------------------------------------------------
def _busy(ctx: ToolCtx, room: sqlite3.Row, d: date, s: int, e: int) -> bool:
    p = 0.3 + (0.15 if room["capacity"] <= 8 else 0.0)
    for h in range(9, 19):
        if h * 60 < e and s < h * 60 + 60 and stable_unit("room-busy", room["room_id"], d.isoformat(), h) < p:
            return True
    sql = "SELECT 1 FROM prod_room_bookings WHERE room_id=? AND date=? AND start_min<? AND ?<end_min"
    return ctx.one(sql, (room["room_id"], d.isoformat(), e, s)) is not None


@handler("meeting_room_book")
def meeting_room_book(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    d, s, e = (
        date.fromisoformat(args["date"]),
        parse_hhmm(args["start_time"][:5]),
        parse_hhmm(args["end_time"][:5]),
    )
    n_people, video = int(args["attendees"]), bool(args["need_video"])
    if e <= s:
        ctx.fail("BAD_TIME_RANGE", "结束时间必须晚于开始时间")
    if s % 15 or e % 15:
        ctx.fail("INVALID_TIME_SLOT", "会议室按 15 分钟为单位预订，开始和结束时间须为整点、15、30 或 45 分")
    if s < _OPEN or e > _CLOSE:
        ctx.fail("OUTSIDE_BUSINESS_HOURS", f"会议室开放时间为工作日 {hhmm(_OPEN)}–{hhmm(_CLOSE)}")
    if e - s > _MAX_MEETING:
        ctx.fail("DURATION_TOO_LONG", f"单次预订最长 {_MAX_MEETING // 60} 小时")
    cal = _calendar(ctx, d, d)
    if not _is_workday(d, cal):
        why = cal.get(d.isoformat(), ("", "周末", ""))[1]
        ctx.fail("NON_WORKING_DAY", f"{d.isoformat()}（{why}）不是工作日，会议室不开放")
    if d == ctx.today and s <= ctx.now.hour * 60 + ctx.now.minute:
        ctx.fail("TIME_IN_PAST", f"{args['start_time']} 已经过去，请选择之后的时间")
    if "room_id" in args:
        room = ctx.one("SELECT * FROM prod_rooms WHERE room_id=?", (args["room_id"],))
        if room is None:
            ctx.fail("UNKNOWN_ROOM", f"没有会议室 {args['room_id']}")
        if room["capacity"] < n_people:
            ctx.fail("ROOM_TOO_SMALL", f"{room['room_id']} {room['name']} 只能容纳 {room['capacity']} 人")
        if video and not room["has_video"]:
            ctx.fail("ROOM_NO_VIDEO", f"{room['room_id']} {room['name']} 没有视频会议设备")
        if _busy(ctx, room, d, s, e):
            ctx.fail(
                "ROOM_OCCUPIED",
                f"{room['room_id']} {room['name']} 在该时段已被占用，可不指定会议室让系统推荐",
            )
    else:
        sql = "SELECT * FROM prod_rooms WHERE building=? AND capacity>=? AND has_video>=? ORDER BY capacity, room_id"
        free = [
            r for r in ctx.query(sql, (args["building"], n_people, int(video))) if not _busy(ctx, r, d, s, e)
        ]
        if not free:
            ctx.fail(
                "NO_ROOM_AVAILABLE",
                f"{D.BUILDINGS[args['building']][0]} 该时段没有可容纳 {n_people} 人的空闲会议室",
            )
        room = free[0]
    n = ctx.one("SELECT COUNT(*) AS n FROM prod_room_bookings")
    bid = f"MR{d.strftime('%Y%m%d')}{(n['n'] if n else 0) + 1:04d}"
    subject = args.get("subject", "会议")
    ctx.db.execute(
        "INSERT INTO prod_room_bookings VALUES (?,?,?,?,?,?,?)",
        (bid, room["room_id"], d.isoformat(), s, e, subject, n_people),
    )
    equipment = [x for x, ok in (("视频会议", room["has_video"]), ("投影", room["has_projector"])) if ok] + [
        "白板"
    ]
    out = {"booking_id": bid, "status": "confirmed", "room_id": room["room_id"], "room_name": room["name"]}
    out |= {
        "building": room["building"],
        "building_name": D.BUILDINGS[room["building"]][0],
        "floor": room["floor"],
    }
    out |= {
        "capacity": room["capacity"],
        "equipment": equipment,
        "date": d.isoformat(),
        "weekday": _WEEKDAYS[d.weekday()],
    }
    return out | {
        "start_time": hhmm(s),
        "end_time": hhmm(e),
        "duration_min": e - s,
        "attendees": n_people,
        "subject": subject,
    }
