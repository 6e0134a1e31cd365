"""出行 travel, continued: flights (search, status) and hotels (search, booking).

Imported at the bottom of ``travel.py``; its tables are part of travel's SCHEMA_SQL. Schedules and
inventories are stored once; a date's fares, rooms left and delays derive from stable_unit.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..runtime import ToolCtx, handler, stable_unit
from ._common import ACCOUNT_HOLDER, CITIES, FOREIGN_CITIES, canonical_city, distance_km
from ._names import resolve_id
from .navigation_data import STREET_WORDS, offset

MORE_SCHEMA_SQL = """
CREATE TABLE flights (
    flight_no TEXT PRIMARY KEY, airline TEXT NOT NULL, from_city TEXT NOT NULL, to_city TEXT NOT NULL,
    from_airport TEXT NOT NULL, to_airport TEXT NOT NULL, depart_min INTEGER NOT NULL,
    duration_min INTEGER NOT NULL, distance_km REAL NOT NULL, aircraft TEXT NOT NULL, weekdays TEXT NOT NULL
);
CREATE INDEX flight_route ON flights(from_city, to_city);
CREATE TABLE hotels (
    hotel_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, district TEXT NOT NULL,
    address TEXT NOT NULL, star INTEGER NOT NULL, rating REAL NOT NULL, base_price REAL NOT NULL,
    lat REAL NOT NULL, lon REAL NOT NULL, rooms_total INTEGER NOT NULL
);
CREATE INDEX hotel_city ON hotels(city);
CREATE TABLE hotel_orders (
    order_id TEXT PRIMARY KEY, hotel_id TEXT, check_in TEXT, check_out TEXT, room_type TEXT,
    rooms INTEGER, guest TEXT, total_cny REAL
);
CREATE TABLE scenic_spots (
    spot_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, category TEXT NOT NULL,
    level TEXT NOT NULL, adult_price REAL NOT NULL, peak_extra REAL NOT NULL, open_min INTEGER NOT NULL,
    close_min INTEGER NOT NULL, closed_weekday INTEGER, capacity INTEGER NOT NULL
);
CREATE INDEX scenic_city ON scenic_spots(city);
"""

# --- flights ------------------------------------------------------------------------------------
AIRLINES = {
    "CA": ("中国国航", ("北京", "成都", "上海", "重庆")),
    "MU": ("东方航空", ("上海", "昆明", "西安", "南京")),
    "CZ": ("南方航空", ("广州", "深圳", "乌鲁木齐", "沈阳")),
    "HU": ("海南航空", ("海口", "北京", "三亚")),
    "3U": ("四川航空", ("成都", "重庆")),
    "ZH": ("深圳航空", ("深圳",)),
    "MF": ("厦门航空", ("厦门", "福州")),
    "SC": ("山东航空", ("济南", "青岛", "烟台")),
    "9C": ("春秋航空", ("上海",)),
    "HO": ("吉祥航空", ("上海",)),
    "CX": ("国泰航空", ("香港",)),
    "NX": ("澳门航空", ("澳门",)),
    "CI": ("中华航空", ("台北",)),
    "JL": ("日本航空", ("东京", "大阪")),
    "NH": ("全日空", ("东京", "大阪")),
    "KE": ("大韩航空", ("首尔",)),
    "SQ": ("新加坡航空", ("新加坡",)),
    "TG": ("泰国国际航空", ("曼谷",)),
    "BA": ("英国航空", ("伦敦",)),
    "AF": ("法国航空", ("巴黎",)),
    "UA": ("美国联合航空", ("纽约",)),
    "QF": ("澳洲航空", ("悉尼",)),
}
_DOMESTIC_AIRLINES = ["CA", "MU", "CZ", "HU", "3U", "ZH", "MF", "SC", "9C", "HO"]
_TZ = {
    "CN": "Asia/Shanghai",
    "HK": "Asia/Hong_Kong",
    "MO": "Asia/Macau",
    "TW": "Asia/Taipei",
    "JP": "Asia/Tokyo",
    "KR": "Asia/Seoul",
    "SG": "Asia/Singapore",
    "TH": "Asia/Bangkok",
    "GB": "Europe/London",
    "FR": "Europe/Paris",
    "US": "America/New_York",
    "AU": "Australia/Sydney",
}
CABIN_FACTOR = {"economy": 1.0, "premium_economy": 1.6, "business": 3.0, "first": 4.5}


def _iata(city: str) -> tuple[str, ...]:
    from plugineval.normalize import place_info

    info = place_info(city)
    return tuple(info.iata) if info is not None and info.iata else ()


def city_tz(city: str) -> ZoneInfo:
    return ZoneInfo(_TZ[FOREIGN_CITIES[city][2]] if city in FOREIGN_CITIES else _TZ["CN"])


def _populate_flights(conn: sqlite3.Connection, rng: random.Random) -> None:
    dom = [c for c in sorted(CITIES) if _iata(c)]
    counters: dict[str, int] = dict.fromkeys(AIRLINES, 1100)
    rows: list[tuple[Any, ...]] = []

    def add(a: str, b: str, n: int, carriers: list[str]) -> None:
        km = distance_km(a, b)
        for _ in range(n):
            weights = [4 if (a in AIRLINES[c][1] or b in AIRLINES[c][1]) else 1 for c in carriers]
            code = rng.choices(carriers, weights)[0]
            counters[code] += rng.randint(1, 9)
            aircraft = (
                rng.choice(["A330", "B787", "B777", "A350"])
                if km > 2800
                else rng.choice(["A320", "A321", "B737", "C919"])
            )
            days = (
                "1234567" if rng.random() < 0.8 else "".join(sorted(rng.sample("1234567", rng.randint(3, 5))))
            )
            rows.append(
                (
                    f"{code}{counters[code]}",
                    code,
                    a,
                    b,
                    rng.choice(_iata(a)),
                    rng.choice(_iata(b)),
                    rng.randrange(6 * 60 + 30, 23 * 60, 5),
                    int(km / 800 * 60) + rng.randint(35, 55),
                    round(km, 1),
                    aircraft,
                    days,
                )
            )

    for a in dom:
        for b in dom:
            if a == b or distance_km(a, b) < 350:
                continue
            ta, tb = CITIES[a][2], CITIES[b][2]
            p = 1.0 if max(ta, tb) == 1 else (0.75 if ta + tb <= 4 else 0.35)
            if rng.random() < p:
                add(
                    a,
                    b,
                    rng.randint(6, 12) if ta + tb == 2 else rng.randint(1, 8 - ta - tb),
                    _DOMESTIC_AIRLINES,
                )
    for f in sorted(FOREIGN_CITIES):
        foreign = [c for c, (_n, hubs) in AIRLINES.items() if f in hubs]
        for a in dom:
            if CITIES[a][2] == 1 or (CITIES[a][2] == 2 and rng.random() < 0.35):
                carriers = _DOMESTIC_AIRLINES[:4] + foreign
                add(a, f, rng.randint(1, 3), carriers)
                add(f, a, rng.randint(1, 3), carriers)
    conn.executemany("INSERT INTO flights VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)


def _fare(r: Any, day: str, cabin: str, days_ahead: int) -> float:
    full = 0.62 * r["distance_km"] + 180
    if r["from_city"] in FOREIGN_CITIES or r["to_city"] in FOREIGN_CITIES:
        full *= 1.3
    if cabin in ("economy", "premium_economy"):
        disc = 0.35 + 0.55 * stable_unit("fare", r["flight_no"], day, cabin)
        disc = min(1.0, disc + (0.25 if days_ahead < 3 else 0.1 if days_ahead < 7 else 0.0))
    else:
        disc = 0.85 + 0.15 * stable_unit("fare", r["flight_no"], day, cabin)
    return float(round(full * CABIN_FACTOR[cabin] * disc / 10) * 10)


def _cabins(r: Any) -> list[str]:
    wide = r["aircraft"] in ("A330", "B787", "B777", "A350")
    return ["economy", "premium_economy", "business", "first"] if wide else ["economy", "business"]


def _seats_left(flight_no: str, day: str, cabin: str) -> int:
    u = stable_unit("seats", flight_no, day, cabin)
    return 0 if u < 0.08 else int(u * (9 if cabin in ("business", "first") else 60))


def _local_times(r: Any, day: date) -> tuple[datetime, datetime]:
    dep = datetime.combine(day, datetime.min.time(), city_tz(r["from_city"])) + timedelta(
        minutes=r["depart_min"]
    )
    arr = (dep + timedelta(minutes=r["duration_min"])).astimezone(city_tz(r["to_city"]))
    return dep, arr


def resolve_city(ctx: ToolCtx, arg: str, value: str, domestic_only: bool) -> str:
    c = canonical_city(value)
    if c is None or (domestic_only and c not in CITIES):
        ctx.fail("UNKNOWN_CITY", f"{arg}={value!r} 不在服务城市范围内")
    return c


@handler("flight_search")
def flight_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    a = resolve_city(ctx, "from_city", args["from_city"], False)
    b = resolve_city(ctx, "to_city", args["to_city"], False)
    if a == b:
        ctx.fail("SAME_CITY", "出发城市和到达城市相同")
    if a in FOREIGN_CITIES and b in FOREIGN_CITIES:
        ctx.fail("ROUTE_NOT_SERVED", "仅支持往返中国大陆的航线")
    day = date.fromisoformat(args["date"])
    cabin, adults = args["cabin"], int(args["adults"])
    days_ahead = (day - ctx.today).days
    sql, params = "SELECT * FROM flights WHERE from_city=? AND to_city=?", [a, b]
    if "airline" in args:
        sql += " AND airline=?"
        params.append(args["airline"])
    out = []
    for r in ctx.query(sql, tuple(params)):
        if str(day.isoweekday()) not in r["weekdays"] or cabin not in _cabins(r):
            continue
        dep, arr = _local_times(r, day)
        price = _fare(r, args["date"], cabin, days_ahead)
        left = _seats_left(r["flight_no"], args["date"], cabin)
        out.append(
            {
                "flight_no": r["flight_no"],
                "airline": AIRLINES[r["airline"]][0],
                "from_airport": r["from_airport"],
                "to_airport": r["to_airport"],
                "depart_time": dep.strftime("%H:%M"),
                "arrive_time": arr.strftime("%H:%M"),
                "arrive_date": arr.date().isoformat(),
                "duration_min": r["duration_min"],
                "aircraft": r["aircraft"],
                "cabin": cabin,
                "price_cny": price,
                "taxes_cny": 50.0 if a in CITIES and b in CITIES else 420.0,
                "total_cny": round((price + (50.0 if a in CITIES and b in CITIES else 420.0)) * adults, 1),
                "seats_left": left,
                "bookable": left >= adults,
            }
        )
    key = {
        "price": lambda f: (f["price_cny"], f["depart_time"]),
        "duration": lambda f: (f["duration_min"], f["depart_time"]),
    }
    out.sort(key=key.get(args["sort_by"], lambda f: (f["depart_time"], f["flight_no"])))
    return {
        "date": args["date"],
        "from_city": a,
        "to_city": b,
        "adults": adults,
        "count": len(out),
        "flights": out,
    }


@handler("flight_status")
def flight_status(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    fno = args["flight_no"].upper()
    r = ctx.one("SELECT * FROM flights WHERE flight_no=?", (fno,))
    if r is None:
        ctx.fail("UNKNOWN_FLIGHT", f"没有航班 {fno}，请核对航班号")
    day = date.fromisoformat(args["date"])
    if str(day.isoweekday()) not in r["weekdays"]:
        ctx.fail("NOT_OPERATING", f"{fno} 在 {args['date']} 不执飞（班期：周{'、'.join(r['weekdays'])}）")
    dep, arr = _local_times(r, day)
    now = ctx.now
    u = stable_unit("delay", fno, args["date"])
    cancelled = u < 0.03
    delay = 0 if u < 0.65 else int(15 + (u - 0.65) / 0.35 * 180)
    known = dep - now <= timedelta(hours=24)
    est_dep = dep + timedelta(minutes=delay if known else 0)
    est_arr = arr + timedelta(minutes=delay if known else 0)
    if cancelled and known:
        status = "cancelled"
    elif now >= est_arr:
        status = "arrived"
    elif now >= est_dep:
        status = "departed"
    elif known and delay >= 15:
        status = "delayed"
    elif est_dep - now <= timedelta(minutes=45):
        status = "boarding"
    else:
        status = "scheduled"
    gate = (
        f"{'ABCDE'[int(stable_unit('gate', fno, args['date']) * 5)]}{int(stable_unit('gnum', fno) * 60) + 1}"
    )
    return {
        "flight_no": fno,
        "airline": AIRLINES[r["airline"]][0],
        "date": args["date"],
        "status": status,
        "from_city": r["from_city"],
        "to_city": r["to_city"],
        "from_airport": r["from_airport"],
        "to_airport": r["to_airport"],
        "scheduled_departure": dep.isoformat(),
        "scheduled_arrival": arr.isoformat(),
        "estimated_departure": est_dep.isoformat(),
        "estimated_arrival": est_arr.isoformat(),
        "delay_min": delay if known and not cancelled else 0,
        "terminal": f"T{1 + int(stable_unit('term', fno) * 3)}",
        "gate": gate,
        "aircraft": r["aircraft"],
    }


# --- hotels -------------------------------------------------------------------------------------
# Real chains: a budget or mid-range brand names a branch (全季酒店（杭州西湖店）), a luxury brand its
# city and area (杭州滨江希尔顿酒店).
_BUDGET = ["如家", "汉庭", "7天", "锦江之星", "格林豪泰", "城市便捷", "速8", "尚客优"]
_MIDRANGE = ["全季", "亚朵", "桔子水晶", "维也纳国际", "麗枫", "智选假日", "美居", "和颐", "希岸", "秋果"]
_LUXURY = ["希尔顿", "万豪", "洲际", "香格里拉", "皇冠假日", "喜来登", "凯悦", "威斯汀", "索菲特"]
_AREAS = [
    "火车站",
    "市中心",
    "高新区",
    "开发区",
    "老城区",
    "会展中心",
    "大学城",
    "万达广场",
    "步行街",
    "人民广场",
    "新区",
    "滨江",
    "湖滨",
    "机场",
    "体育中心",
    "世纪大道",
]
# cities without an airport of their own name their "airport" hotels after a district instead
_NO_AIRPORT = {"苏州": "园区", "东莞": "松山湖"}
ROOM_FACTOR = {"king": 1.0, "twin": 1.05, "family": 1.45, "suite": 2.2}


def _populate_hotels(conn: sqlite3.Connection, rng: random.Random) -> None:
    rows: list[tuple[Any, ...]] = []
    n = 0
    for city in sorted(CITIES):
        lat0, lon0, tier = CITIES[city]
        names: set[str] = set()
        for _ in range({1: 60, 2: 40, 3: 25}[tier]):
            area = rng.choice(_AREAS)
            if area == "机场":
                area = _NO_AIRPORT.get(city, area)
            u = rng.random()
            if u < 0.45:
                star, name = rng.choice([2, 3]), f"{rng.choice(_BUDGET)}酒店（{city}{area}店）"
            elif u < 0.8:
                star, name = rng.choice([3, 4]), f"{rng.choice(_MIDRANGE)}酒店（{city}{area}店）"
            else:
                star, name = rng.choice([4, 5]), f"{city}{area}{rng.choice(_LUXURY)}酒店"
            if name in names:
                continue
            names.add(name)
            n += 1
            base = {2: 160, 3: 260, 4: 480, 5: 900}[star] * (
                1.35 if tier == 1 else 1.0 if tier == 2 else 0.85
            )
            lat, lon = offset(lat0, lon0, rng.uniform(-9, 9), rng.uniform(-9, 9))
            street = f"{rng.choice(STREET_WORDS)}{rng.choice(['路', '街', '大道'])}{rng.randint(1, 399)}号"
            rows.append(
                (
                    f"H{n:05d}",
                    city,
                    name,
                    area,
                    f"{city}{area}{street}",
                    star,
                    round(rng.uniform(3.6, 4.9), 1),
                    round(base * rng.uniform(0.8, 1.25)),
                    lat,
                    lon,
                    rng.randint(40, 400),
                )
            )
    conn.executemany("INSERT INTO hotels VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)


def _nights(ctx: ToolCtx, args: dict[str, Any]) -> list[date]:
    ci, co = date.fromisoformat(args["check_in"]), date.fromisoformat(args["check_out"])
    if co <= ci:
        ctx.fail("BAD_DATE_RANGE", "离店日期必须晚于入住日期")
    return [ci + timedelta(days=i) for i in range((co - ci).days)]


def _night_price(h: Any, night: date, room: str) -> float:
    weekend = 1.18 if night.weekday() in (4, 5) else 1.0
    jitter = 0.9 + 0.25 * stable_unit("hotel-price", h["hotel_id"], night.isoformat())
    return float(round(h["base_price"] * ROOM_FACTOR[room] * weekend * jitter))


def _rooms_left(h: Any, night: date, room: str) -> int:
    u = stable_unit("hotel-rooms", h["hotel_id"], night.isoformat(), room)
    return 0 if u < 0.07 else int(u * h["rooms_total"] * (0.15 if room in ("family", "suite") else 0.3))


@handler("hotel_search")
def hotel_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = resolve_city(ctx, "city", args["city"], True)
    nights = _nights(ctx, args)
    room = args.get("room_type", "king")
    sql, params = "SELECT * FROM hotels WHERE city=?", [city]
    if "keyword" in args:
        sql += " AND (name LIKE ? OR district LIKE ? OR address LIKE ?)"
        params += [f"%{args['keyword']}%"] * 3
    if "min_star" in args:
        sql += " AND star>=?"
        params.append(args["min_star"])
    hotels = []
    for h in ctx.query(sql, tuple(params)):
        prices = [_night_price(h, d, room) for d in nights]
        avg = round(sum(prices) / len(prices), 1)
        if "max_price" in args and avg > args["max_price"]:
            continue
        left = min(_rooms_left(h, d, room) for d in nights)
        hotels.append(
            {
                "hotel_id": h["hotel_id"],
                "name": h["name"],
                "star": h["star"],
                "rating": h["rating"],
                "district": h["district"],
                "address": h["address"],
                "room_type": room,
                "avg_price_cny": avg,
                "total_cny": round(sum(prices), 1),
                "rooms_left": left,
                "available": left > 0,
            }
        )
    order = args["sort_by"]
    if order == "price_asc":
        hotels.sort(key=lambda x: (x["avg_price_cny"], x["hotel_id"]))
    elif order == "rating_desc":
        hotels.sort(key=lambda x: (-x["rating"], x["hotel_id"]))
    else:
        hotels.sort(
            key=lambda x: (not x["available"], -x["rating"] * 100 + x["avg_price_cny"] / 20, x["hotel_id"])
        )
    return {
        "city": city,
        "check_in": args["check_in"],
        "check_out": args["check_out"],
        "nights": len(nights),
        "total_found": len(hotels),
        "hotels": hotels[: args["limit"]],
    }


@handler("hotel_book")
def hotel_book(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    hid = resolve_id(ctx, args["hotel_id"], r"H[0-9]{5}", "SELECT hotel_id, city, name FROM hotels", (), "hotel_id",
                     what="酒店", not_found="UNKNOWN_HOTEL", hint="请先用 hotel_search 查询")  # fmt: skip
    h = ctx.one("SELECT * FROM hotels WHERE hotel_id=?", (hid,))
    if h is None:
        ctx.fail("UNKNOWN_HOTEL", f"酒店 {hid} 不存在，请先用 hotel_search 查询")
    nights = _nights(ctx, args)
    room, rooms = args["room_type"], int(args["rooms"])
    booked = ctx.one(
        "SELECT COALESCE(SUM(rooms),0) AS n FROM hotel_orders WHERE hotel_id=? AND room_type=? AND check_in<? AND check_out>?",
        (h["hotel_id"], room, args["check_out"], args["check_in"]),
    )
    already = int(booked["n"]) if booked else 0
    if min(_rooms_left(h, d, room) for d in nights) - already < rooms:
        ctx.fail("NO_ROOMS", f"{h['name']} 在所选日期的该房型剩余不足 {rooms} 间")
    total = sum(_night_price(h, d, room) for d in nights) * rooms
    n = ctx.one("SELECT COUNT(*) AS n FROM hotel_orders")
    order_id = f"HB{args['check_in'].replace('-', '')}{(n['n'] if n else 0) + 1:04d}"
    ctx.db.execute(
        "INSERT INTO hotel_orders VALUES (?,?,?,?,?,?,?,?)",
        (
            order_id,
            h["hotel_id"],
            args["check_in"],
            args["check_out"],
            room,
            rooms,
            args.get("guest_name", ACCOUNT_HOLDER),
            total,
        ),
    )
    free_cancel = (date.fromisoformat(args["check_in"]) - timedelta(days=1)).isoformat() + "T18:00:00+08:00"
    return {
        "order_id": order_id,
        "hotel_id": h["hotel_id"],
        "hotel_name": h["name"],
        "address": h["address"],
        "check_in": args["check_in"],
        "check_out": args["check_out"],
        "nights": len(nights),
        "room_type": room,
        "rooms": rooms,
        "total_cny": float(total),
        "free_cancel_before": free_cancel,
        "status": "confirmed",
    }


def populate_more(conn: sqlite3.Connection, rng: random.Random) -> None:
    _populate_flights(conn, random.Random(rng.getrandbits(64)))
    _populate_hotels(conn, random.Random(rng.getrandbits(64)))
