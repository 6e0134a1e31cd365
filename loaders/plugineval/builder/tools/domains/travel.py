"""出行 travel: rail tickets (search, booking), coach tickets, ride-hailing fares; flights, hotels and
scenic-spot tickets live in ``travel_more`` (imported at the bottom).

Timetables are daily schedules stored once; a date's prices and remaining seats are derived
deterministically from (train, date, seat class), so the store answers for any date 2020–2030.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any

from ..runtime import ToolCtx, handler, stable_unit
from ._common import ACCOUNT_HOLDER, CITIES, canonical_city, distance_km, hhmm, parse_hhmm
from .navigation_data import NAME_CHARS, haversine, locate
from .travel_more import MORE_SCHEMA_SQL, populate_more, resolve_city
from .travel_scenic_data import MIN_SPOTS, SPOTS

STORE_VERSION = "3"
RAIL_SCHEMA_SQL = """
CREATE TABLE rail_trains (
    train_no TEXT PRIMARY KEY, train_type TEXT NOT NULL, from_city TEXT NOT NULL, to_city TEXT NOT NULL,
    depart_min INTEGER NOT NULL, duration_min INTEGER NOT NULL, distance_km REAL NOT NULL
);
CREATE INDEX rail_route ON rail_trains(from_city, to_city);
CREATE TABLE rail_orders (
    order_id TEXT PRIMARY KEY, train_no TEXT, date TEXT, seat_class TEXT, passenger TEXT, count INTEGER,
    total_cny REAL
);
CREATE TABLE coach_schedules (
    coach_no TEXT PRIMARY KEY, from_city TEXT NOT NULL, to_city TEXT NOT NULL, from_station TEXT NOT NULL,
    to_station TEXT NOT NULL, depart_min INTEGER NOT NULL, duration_min INTEGER NOT NULL,
    distance_km REAL NOT NULL, vehicle TEXT NOT NULL
);
CREATE INDEX coach_route ON coach_schedules(from_city, to_city);
"""
SCHEMA_SQL = RAIL_SCHEMA_SQL + MORE_SCHEMA_SQL

# km/h and CNY per km by train type; which seat classes each type sells.
_SPEED = {"G": 280.0, "D": 200.0, "Z": 120.0, "T": 100.0, "K": 80.0}
_SEATS = {
    "G": {"business": 1.45, "first_class": 0.75, "second_class": 0.46},
    "D": {"first_class": 0.50, "second_class": 0.31},
    "Z": {"soft_sleeper": 0.33, "hard_sleeper": 0.21, "hard_seat": 0.11},
    "T": {"soft_sleeper": 0.31, "hard_sleeper": 0.20, "hard_seat": 0.10},
    "K": {"soft_sleeper": 0.29, "hard_sleeper": 0.19, "hard_seat": 0.09},
}


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    cities = sorted(CITIES)
    rows: list[tuple[Any, ...]] = []
    counters = dict.fromkeys(_SPEED, 0)
    for a in cities:
        for b in cities:
            if a == b:
                continue
            km = distance_km(a, b) * 1.2  # rail is longer than the great circle
            if km > 2600 and rng.random() < 0.6:
                continue
            kinds = ["G", "D"] if km < 1200 else ["G", "Z", "K"]
            if rng.random() < 0.3:
                kinds.append("T")
            for k in kinds:
                for _ in range(rng.randint(1, 2)):
                    counters[k] += 1
                    dep = rng.randrange(6 * 60, 22 * 60, 5)
                    dur = int(km / _SPEED[k] * 60) + rng.randint(10, 40)
                    rows.append((f"{k}{counters[k]}", k, a, b, dep, dur, round(km, 1)))
    conn.executemany("INSERT INTO rail_trains VALUES (?,?,?,?,?,?,?)", rows)
    _populate_coaches(conn, random.Random(rng.getrandbits(64)))
    populate_more(conn, rng)
    _populate_scenic(conn, random.Random(rng.getrandbits(64)))


def _remaining(train_no: str, date: str, seat: str) -> int:
    u = stable_unit("rail-remaining", train_no, date, seat)
    return 0 if u < 0.12 else int(u * 300)


def _price(km: float, train_type: str, seat: str) -> float:
    return round(km * _SEATS[train_type][seat] / 0.5) * 0.5


@handler("train_search_tickets")
def train_search_tickets(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    a, b = canonical_city(args["from_city"]), canonical_city(args["to_city"])
    for arg, c in (("from_city", a), ("to_city", b)):
        if c is None or c not in CITIES:
            ctx.fail("UNKNOWN_CITY", f"{arg}={args[arg]!r} is not a city with rail service in the store")
    sql = "SELECT * FROM rail_trains WHERE from_city=? AND to_city=?"
    params: list[Any] = [a, b]
    if "train_type" in args:
        sql += " AND train_type=?"
        params.append(args["train_type"])
    if "depart_after" in args:
        sql += " AND depart_min>=?"
        params.append(parse_hhmm(args["depart_after"]))
    trains = []
    for r in ctx.query(sql + " ORDER BY depart_min, train_no", tuple(params)):
        seats = _SEATS[r["train_type"]]
        wanted = [args["seat_class"]] if "seat_class" in args else list(seats)
        for s in wanted:
            if s not in seats:
                continue
            trains.append(
                {
                    "train_no": r["train_no"],
                    "depart_time": hhmm(r["depart_min"]),
                    "arrive_time": hhmm(r["depart_min"] + r["duration_min"]),
                    "duration_min": r["duration_min"],
                    "seat_class": s,
                    "price_cny": _price(r["distance_km"], r["train_type"], s),
                    "remaining": _remaining(r["train_no"], args["date"], s),
                }
            )
    return {"date": args["date"], "from_city": a, "to_city": b, "trains": trains}


@handler("train_book_ticket")
def train_book_ticket(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    r = ctx.one("SELECT * FROM rail_trains WHERE train_no=?", (args["train_no"],))
    if r is None:
        ctx.fail(
            "UNKNOWN_TRAIN",
            f"train {args['train_no']} does not exist; search first with train_search_tickets",
        )
    seat = args["seat_class"]
    if seat not in _SEATS[r["train_type"]]:
        ctx.fail(
            "SEAT_NOT_SOLD", f"{args['train_no']} sells {', '.join(_SEATS[r['train_type']])}, not {seat}"
        )
    count = int(args["count"])
    if _remaining(r["train_no"], args["date"], seat) < count:
        ctx.fail("SOLD_OUT", f"{args['train_no']} on {args['date']} has fewer than {count} {seat} seats left")
    n = ctx.one("SELECT COUNT(*) AS n FROM rail_orders")
    order_id = f"R{args['date'].replace('-', '')}{(n['n'] if n else 0) + 1:04d}"
    total = _price(r["distance_km"], r["train_type"], seat) * count
    ctx.db.execute(
        "INSERT INTO rail_orders VALUES (?,?,?,?,?,?,?)",
        (
            order_id,
            args["train_no"],
            args["date"],
            seat,
            args.get("passenger_name", ACCOUNT_HOLDER),
            count,
            total,
        ),
    )
    return {
        "order_id": order_id,
        "train_no": args["train_no"],
        "date": args["date"],
        "seat_class": seat,
        "count": count,
        "total_cny": total,
        "status": "booked",
    }


# --- coaches ------------------------------------------------------------------------------------
_COACH_STATIONS = ["汽车客运站", "长途汽车客运中心", "汽车东站", "汽车南站", "汽车西站", "汽车北站"]


def _populate_coaches(conn: sqlite3.Connection, rng: random.Random) -> None:
    cities = sorted(CITIES)
    stations = {c: rng.sample(_COACH_STATIONS, rng.randint(1, 3)) for c in cities}
    rows: list[tuple[Any, ...]] = []
    n = 0
    for a in cities:
        for b in cities:
            km = distance_km(a, b) * 1.3  # road distance
            if a == b or km > 750:
                continue
            per_day = rng.randint(8, 16) if km < 200 else rng.randint(3, 8) if km < 450 else rng.randint(1, 3)
            for _ in range(per_day):
                n += 1
                dep = rng.randrange(6 * 60, (20 if km < 450 else 22) * 60, 10)
                dur = int(km / 75 * 60) + rng.randint(10, 40)
                vehicle = rng.choice(["large_bus", "medium_bus"]) if km < 450 else "sleeper_bus"
                rows.append(
                    (
                        f"C{n:05d}",
                        a,
                        b,
                        a + rng.choice(stations[a]),
                        b + rng.choice(stations[b]),
                        dep,
                        dur,
                        round(km, 1),
                        vehicle,
                    )
                )
    conn.executemany("INSERT INTO coach_schedules VALUES (?,?,?,?,?,?,?,?,?)", rows)


@handler("coach_search")
def coach_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    a, b = canonical_city(args["from_city"]), canonical_city(args["to_city"])
    for arg, c in (("from_city", a), ("to_city", b)):
        if c is None or c not in CITIES:
            ctx.fail("UNKNOWN_CITY", f"{arg}={args[arg]!r} 不是已开通客运班线的城市")
    sql = "SELECT * FROM coach_schedules WHERE from_city=? AND to_city=?"
    params: list[Any] = [a, b]
    if "depart_after" in args:
        sql += " AND depart_min>=?"
        params.append(parse_hhmm(args["depart_after"]))
    rows = ctx.query(sql + " ORDER BY depart_min, coach_no", tuple(params))
    if not rows and ctx.one("SELECT 1 FROM coach_schedules WHERE from_city=? AND to_city=?", (a, b)) is None:
        ctx.fail(
            "NO_COACH_ROUTE",
            f"{a} 到 {b} 没有直达客车班线（相距约 {distance_km(str(a), str(b)) * 1.3:.0f} 公里）",
        )
    out = []
    for r in rows:
        price = round(r["distance_km"] * (0.42 if r["vehicle"] == "sleeper_bus" else 0.36) + 5)
        u = stable_unit("coach-left", r["coach_no"], args["date"])
        out.append(
            {
                "coach_no": r["coach_no"],
                "from_station": r["from_station"],
                "to_station": r["to_station"],
                "depart_time": hhmm(r["depart_min"]),
                "arrive_time": hhmm(r["depart_min"] + r["duration_min"]),
                "duration_min": r["duration_min"],
                "vehicle": r["vehicle"],
                "price_cny": float(price),
                "remaining": 0 if u < 0.1 else int(u * 45),
            }
        )
    return {"date": args["date"], "from_city": a, "to_city": b, "count": len(out), "coaches": out}


# --- ride hailing -------------------------------------------------------------------------------
# start fee, per km, per minute, minimum fare (tier-1 city prices; other tiers cheaper)
_RIDE = {
    "express": (10.0, 1.8, 0.45, 13.0),
    "comfort": (13.0, 2.4, 0.55, 18.0),
    "premium": (18.0, 3.6, 0.9, 28.0),
    "six_seater": (18.0, 3.2, 0.8, 25.0),
    "taxi": (13.0, 2.3, 0.5, 13.0),
}


@handler("ride_estimate_fare")
def ride_estimate_fare(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = canonical_city(args["city"])
    if city is None or city not in CITIES:
        ctx.fail("UNKNOWN_CITY", f"city={args['city']!r} 不是已开通打车服务的城市")
    o, d = locate(city, args["origin"]), locate(city, args["destination"])
    straight = haversine(o.lat, o.lon, d.lat, d.lon)
    if straight < 0.2:
        ctx.fail("SAME_PLACE", "起点和终点太近（不足 200 米），无法估价")
    km = round(straight * 1.35, 1)
    if km > 300:
        ctx.fail("TOO_FAR", f"行程约 {km} 公里，超出市内打车估价范围（300 公里）")
    when = datetime.fromisoformat(args["depart_at"]) if "depart_at" in args else ctx.now
    if when.tzinfo is None:
        when = when.replace(tzinfo=ctx.now.tzinfo)
    h = when.hour
    peak = h in (7, 8, 9, 17, 18, 19) and when.weekday() < 5
    speed = 22.0 if peak else 32.0 if 6 <= h < 22 else 45.0
    minutes = max(3, round(km / speed * 60))
    night = h >= 23 or h < 5
    tier = CITIES[city][2]
    scale = {1: 1.0, 2: 0.85, 3: 0.75}[tier]
    surge = round(1.0 + (0.5 * stable_unit("surge", city, when.strftime("%Y-%m-%d %H")) if peak else 0.0), 2)
    types = [args["car_type"]] if "car_type" in args else list(_RIDE)
    est = []
    for t in types:
        start, per_km, per_min, minimum = _RIDE[t]
        fare = (start + per_km * km + per_min * minutes) * scale * (1.2 if night else 1.0)
        fare *= surge if t != "taxi" else 1.0
        fare = max(fare, minimum * scale)
        est.append(
            {"car_type": t, "fare_cny": round(fare, 1), "surge_multiplier": surge if t != "taxi" else 1.0}
        )
    return {
        "city": city,
        "origin": {"name": o.name, "lat": o.lat, "lon": o.lon, "match": o.kind},
        "destination": {"name": d.name, "lat": d.lat, "lon": d.lon, "match": d.kind},
        "depart_at": when.isoformat(timespec="minutes"),
        "distance_km": km,
        "duration_min": minutes,
        "arrive_at": (when + timedelta(minutes=minutes)).isoformat(timespec="minutes"),
        "night_surcharge": night,
        "estimates": est,
    }


# --- scenic spots -------------------------------------------------------------------------------
# real spots per city (travel_scenic_data); invented ones (_KINDS) only fill a city up to MIN_SPOTS
FAMOUS = SPOTS
_KINDS = [
    ("风景区", "nature"),
    ("森林公园", "nature"),
    ("湿地公园", "nature"),
    ("古镇", "history"),
    ("古寺", "history"),
    ("遗址公园", "history"),
    ("博物馆", "museum"),
    ("科技馆", "museum"),
    ("欢乐谷", "theme_park"),
    ("动物园", "zoo_aquarium"),
    ("海洋馆", "zoo_aquarium"),
    ("植物园", "nature"),
]
TICKET_FACTOR = {"adult": 1.0, "child": 0.5, "senior": 0.5, "student": 0.5}


def _populate_scenic(conn: sqlite3.Connection, rng: random.Random) -> None:
    rows: list[tuple[Any, ...]] = []
    n = 0
    for city in sorted(CITIES):
        spots = [(nm, cat, lvl, p) for nm, cat, lvl, p in FAMOUS.get(city, [])]
        used = {s[0] for s in spots}
        while len(spots) < MIN_SPOTS:
            suffix, cat = rng.choice(_KINDS)
            nm = (
                f"{city}{rng.choice(NAME_CHARS)}{rng.choice(NAME_CHARS)}{suffix}"
                if rng.random() < 0.5
                else f"{rng.choice(NAME_CHARS)}{rng.choice(NAME_CHARS)}{suffix}"
            )
            if nm in used:
                continue
            used.add(nm)
            price = (
                0.0
                if cat == "museum" and rng.random() < 0.6
                else float(rng.choice([20, 30, 40, 50, 60, 80, 100, 120, 150, 180, 220]))
            )
            spots.append((nm, cat, rng.choice(["5A", "4A", "4A", "3A", "3A", "none"]), price))
        for nm, cat, lvl, price in spots:
            n += 1
            peak = round(price * 0.25) if cat == "nature" and price > 0 else 0.0
            open_min = rng.choice([480, 510, 540]) if cat != "theme_park" else 570
            close_min = (
                rng.choice([1020, 1050, 1080]) if cat in ("museum", "history") else rng.choice([1080, 1260])
            )
            closed = 0 if cat == "museum" else None
            rows.append(
                (
                    f"S{n:05d}",
                    city,
                    nm,
                    cat,
                    lvl,
                    price,
                    peak,
                    open_min,
                    close_min,
                    closed,
                    rng.randint(2, 60) * 500,
                )
            )
    conn.executemany("INSERT INTO scenic_spots VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)


@handler("scenic_ticket_search")
def scenic_ticket_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = resolve_city(ctx, "city", args["city"], True)
    day = date.fromisoformat(args["date"])
    sql, params = "SELECT * FROM scenic_spots WHERE city=?", [city]
    if "keyword" in args:
        sql += " AND name LIKE ?"
        params.append(f"%{args['keyword']}%")
    if "category" in args:
        sql += " AND category=?"
        params.append(args["category"])
    types = [args["ticket_type"]] if "ticket_type" in args else list(TICKET_FACTOR)
    peak = 4 <= day.month <= 10
    spots = []
    for s in ctx.query(sql + " ORDER BY level='none', level DESC, spot_id", tuple(params)):
        is_open = s["closed_weekday"] is None or s["closed_weekday"] != day.weekday()
        u = stable_unit("scenic-left", s["spot_id"], args["date"])
        left = 0 if (u < 0.05 or not is_open) else int(s["capacity"] * (0.2 + 0.8 * u))
        adult = s["adult_price"] + (s["peak_extra"] if peak else 0.0)
        tickets = [
            {"ticket_type": t, "price_cny": float(round(adult * TICKET_FACTOR[t])), "remaining": left}
            for t in types
        ]
        spots.append(
            {
                "spot_id": s["spot_id"],
                "name": s["name"],
                "category": s["category"],
                "level": s["level"],
                "open_hours": f"{hhmm(s['open_min'])}-{hhmm(s['close_min'])}",
                "open_on_date": is_open,
                "season": "peak" if peak and s["peak_extra"] else "regular",
                "tickets": tickets,
                "reservation_required": s["adult_price"] == 0,
            }
        )
    if not spots:
        ctx.fail("NO_SPOT_FOUND", f"{city} 没有匹配“{args.get('keyword', '')}”的景点")
    return {
        "city": city,
        "date": args["date"],
        "weekday": day.isoweekday(),
        "count": len(spots),
        "spots": spots,
    }
