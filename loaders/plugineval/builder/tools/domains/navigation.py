"""出行导航 navigation: route planning, nearby POIs, road traffic, metro routes, parking, EV charging.

Places are geocoded by ``navigation_data.locate`` (landmarks, stations, airports, else a stable
approximate position); POIs, roads, car parks and charging stations are generated per city around
its coordinates. Time-dependent figures (traffic, free spaces, time-of-use prices) derive from the
requested or reference time and stable_unit, never from the clock.
"""

from __future__ import annotations

import math
import random
import sqlite3
from datetime import datetime, timedelta
from typing import Any

from ..runtime import ToolCtx, handler, stable_unit
from ._common import CITIES, CityArgument, hhmm
from .navigation_data import (
    FAMOUS_ROADS,
    LANDMARKS,
    METRO_LINES,
    NAME_CHARS,
    POI_BRANDS,
    POI_CATEGORIES,
    ROAD_SUFFIX,
    STREET_WORDS,
    Spot,
    haversine,
    locate,
    metro_fare,
    metro_network,
    metro_path,
    nearest_station,
    offset,
    split_city,
)

STORE_VERSION = "3"
SCHEMA_SQL = """
CREATE TABLE nav_pois (
    poi_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, category TEXT NOT NULL,
    lat REAL NOT NULL, lon REAL NOT NULL, address TEXT NOT NULL, rating REAL NOT NULL,
    avg_price REAL NOT NULL, open_min INTEGER NOT NULL, close_min INTEGER NOT NULL
);
CREATE INDEX nav_poi_city ON nav_pois(city, category);
CREATE TABLE nav_roads (
    road_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, road_class TEXT NOT NULL,
    length_km REAL NOT NULL, free_speed REAL NOT NULL, busy REAL NOT NULL
);
CREATE INDEX nav_road_city ON nav_roads(city);
CREATE TABLE nav_parking (
    lot_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, lot_type TEXT NOT NULL,
    lat REAL NOT NULL, lon REAL NOT NULL, spaces INTEGER NOT NULL, first_hour REAL NOT NULL,
    per_hour REAL NOT NULL, daily_cap REAL NOT NULL, open_24h INTEGER NOT NULL
);
CREATE INDEX nav_parking_city ON nav_parking(city);
CREATE TABLE nav_chargers (
    station_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, operator TEXT NOT NULL,
    lat REAL NOT NULL, lon REAL NOT NULL, fast_piles INTEGER NOT NULL, slow_piles INTEGER NOT NULL,
    max_kw INTEGER NOT NULL, service_fee REAL NOT NULL, open_24h INTEGER NOT NULL
);
CREATE INDEX nav_chargers_city ON nav_chargers(city);
"""

OPERATORS = {
    "state_grid": "国家电网", "teld": "特来电", "star_charge": "星星充电", "xiaoju": "小桔充电",
    "ykc": "云快充", "nio_power": "蔚来能源",
}  # fmt: skip
_LOT_TYPES = ["mall", "underground", "street", "public", "hospital", "office"]


_MARK_OFFSETS = {c: [m[k] for k in sorted(m)] for c, m in LANDMARKS.items()}


def _scatter(rng: random.Random, city: str) -> tuple[float, float]:
    """A position: a third clustered within 1.5 km of landmarks, most within 7 km, a few to 15 km."""
    lat0, lon0, _ = CITIES[city]
    marks = _MARK_OFFSETS.get(city)
    u = rng.random()
    if marks and u < 0.3:
        e, n = rng.choice(marks)
        r, a = 1.5 * math.sqrt(rng.random()), rng.uniform(0, 2 * math.pi)
        return offset(lat0, lon0, e + r * math.cos(a), n + r * math.sin(a))
    r = 7 * math.sqrt(rng.random()) if u < 0.85 else math.sqrt(rng.uniform(49, 225))
    a = rng.uniform(0, 2 * math.pi)
    return offset(lat0, lon0, r * math.cos(a), r * math.sin(a))


def _street(rng: random.Random) -> str:
    return f"{rng.choice(STREET_WORDS)}{rng.choice(ROAD_SUFFIX)}{rng.randint(1, 599)}号"


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    pois: list[tuple[Any, ...]] = []
    roads: list[tuple[Any, ...]] = []
    lots: list[tuple[Any, ...]] = []
    chargers: list[tuple[Any, ...]] = []
    cats = sorted(POI_CATEGORIES)
    for city in sorted(CITIES):
        tier = CITIES[city][2]
        kinds = [*cats, *["restaurant"] * 6, "cafe", "cafe", "convenience_store"]
        for _ in range({1: 1800, 2: 1000, 3: 550}[tier]):
            cat = rng.choice(kinds)
            lat, lon = _scatter(rng, city)
            street = _street(rng)
            if cat in POI_BRANDS and rng.random() < 0.5:
                name = f"{rng.choice(POI_BRANDS[cat])}（{rng.choice(STREET_WORDS)}{rng.choice(['路', '街', '广场'])}店）"
            else:
                words = POI_CATEGORIES[cat] + (
                    ["火锅"] * 5 if cat == "restaurant" and city in ("成都", "重庆") else []
                )
                name = f"{rng.choice(NAME_CHARS)}{rng.choice(NAME_CHARS)}{rng.choice(words)}"
            lo_hi = {"restaurant": (25, 200), "cafe": (15, 45), "hotel": (150, 900)}.get(cat)
            price = float(rng.randint(*lo_hi)) if lo_hi else 0.0
            o, c = (0, 24 * 60) if cat in ("convenience_store", "toilet", "atm", "hospital", "gas_station") else (
                rng.choice([420, 540, 600, 660]), rng.choice([1260, 1320, 1380, 1440]))  # fmt: skip
            pid = f"P{len(pois) + 1:06d}"
            pois.append(
                (pid, city, name, cat, lat, lon, f"{city}{street}", round(rng.uniform(3.2, 4.9), 1),
                 price, o, c)
            )  # fmt: skip
        rings = ["二环路", "三环路", "四环路"][: 4 - tier]
        named = [
            *FAMOUS_ROADS.get(city, []),
            *((r, "ring") for r in rings),
            ("绕城高速", "ring"),
            ("机场高速", "expressway"),
        ]
        seen = set()
        for w in rng.sample(STREET_WORDS, 14 + 4 * (3 - tier)):
            named.append((w + rng.choice(ROAD_SUFFIX), rng.choice(["arterial", "arterial", "local"])))
        for name, cls in named:
            if name in seen:
                continue
            seen.add(name)
            length = {
                "ring": rng.uniform(25, 100),
                "expressway": rng.uniform(15, 45),
                "bridge": rng.uniform(1, 4),
            }
            speed = {"ring": 70.0, "expressway": 80.0, "bridge": 50.0, "arterial": 45.0, "local": 30.0}[cls]
            roads.append(
                (f"R{len(roads) + 1:05d}", city, name, cls, round(length.get(cls, rng.uniform(5, 25)), 1), speed,
                 round(rng.uniform(0.6, 1.0) * (1.2 if tier == 1 else 1.0), 2))
            )  # fmt: skip
        for _ in range({1: 180, 2: 120, 3: 80}[tier]):
            lat, lon = _scatter(rng, city)
            kind = rng.choice(_LOT_TYPES)
            base = {1: 8.0, 2: 5.0, 3: 3.0}[tier] * (1.5 if kind in ("mall", "office") else 1.0)
            label = {"mall": "购物中心停车场", "underground": "地下停车场", "street": "路侧停车位", "public": "公共停车场",
                     "hospital": "医院停车场", "office": "大厦停车场"}[kind]  # fmt: skip
            lots.append(
                (f"K{len(lots) + 1:05d}", city, f"{rng.choice(NAME_CHARS)}{rng.choice(NAME_CHARS)}{label}", kind,
                 lat, lon, rng.randint(20, 60) if kind == "street" else rng.randint(80, 1200), round(base),
                 round(base * rng.uniform(0.5, 1.0)), round(base * rng.uniform(5, 12)), int(kind != "office"))
            )  # fmt: skip
        for _ in range({1: 120, 2: 80, 3: 50}[tier]):
            lat, lon = _scatter(rng, city)
            op = rng.choice(sorted(OPERATORS))
            fast = rng.randint(0, 20)
            chargers.append(
                (f"E{len(chargers) + 1:05d}", city,
                 f"{OPERATORS[op]}{rng.choice(NAME_CHARS)}{rng.choice(NAME_CHARS)}充电站", op, lat, lon, fast,
                 rng.randint(0 if fast else 2, 12), rng.choice([60, 120, 160, 240]) if fast else 7,
                 round(rng.uniform(0.4, 0.9), 2), int(rng.random() < 0.8))
            )  # fmt: skip
    conn.executemany("INSERT INTO nav_pois VALUES (?,?,?,?,?,?,?,?,?,?,?)", pois)
    conn.executemany("INSERT INTO nav_roads VALUES (?,?,?,?,?,?,?)", roads)
    conn.executemany("INSERT INTO nav_parking VALUES (?,?,?,?,?,?,?,?,?,?,?)", lots)
    conn.executemany("INSERT INTO nav_chargers VALUES (?,?,?,?,?,?,?,?,?,?,?)", chargers)


# --- helpers ------------------------------------------------------------------------------------
_city = CityArgument("{arg}={value!r} 不是已覆盖的中国大陆城市")


def _when(ctx: ToolCtx, args: dict[str, Any], key: str) -> datetime:
    if key not in args:
        return ctx.now
    t = datetime.fromisoformat(args[key])
    return t if t.tzinfo is not None else t.replace(tzinfo=ctx.now.tzinfo)


def _spot_json(s: Spot) -> dict[str, Any]:
    return {"name": s.name, "lat": s.lat, "lon": s.lon, "match": s.kind}


def _centre(ctx: ToolCtx, city: str, args: dict[str, Any]) -> Spot:
    return locate(city, args["near"]) if "near" in args else locate(city, city)


def _nearby(ctx: ToolCtx, table: str, city: str, centre: Spot, radius_m: float, extra: str = "", params: tuple[Any, ...] = ()) -> list[tuple[float, Any]]:  # fmt: skip
    dlat = radius_m / 1000 / 111.0
    dlon = dlat / max(0.2, math.cos(math.radians(centre.lat)))
    rows = ctx.query(
        f"SELECT * FROM {table} WHERE city=? AND lat BETWEEN ? AND ? AND lon BETWEEN ? AND ?{extra}",
        (city, centre.lat - dlat, centre.lat + dlat, centre.lon - dlon, centre.lon + dlon, *params),
    )
    out = [(round(haversine(centre.lat, centre.lon, r["lat"], r["lon"]) * 1000), r) for r in rows]
    return sorted([x for x in out if x[0] <= radius_m], key=lambda x: (x[0], x[1][0]))


def _traffic_factor(city: str, key: str, when: datetime, busy: float) -> float:
    """Congestion index (1 = free flow) for an hour: commuter peaks on weekdays, a weekend afternoon hump."""
    h = when.hour + when.minute / 60
    if when.weekday() < 5:
        peak = math.exp(-((h - 8.2) ** 2) / 1.2) + math.exp(-((h - 18.0) ** 2) / 1.8)
    else:
        peak = 0.5 * math.exp(-((h - 15.5) ** 2) / 8)
    noise = 0.3 * stable_unit("traffic", city, key, when.strftime("%Y-%m-%d %H"))
    return round(1.0 + busy * (1.6 * peak + noise), 2)


def _status(index: float) -> str:
    return "smooth" if index < 1.5 else "slow" if index < 2.0 else "congested" if index < 3.0 else "severe"


# --- route planning -----------------------------------------------------------------------------
def _endpoint(ctx: ToolCtx, value: str, city_arg: str | None, arg: str) -> tuple[str, Spot]:
    city, name = split_city(value)
    if city is None and city_arg is not None:
        city = _city(ctx, city_arg)
    if city is None:
        ctx.fail("CITY_REQUIRED", f"无法确定 {arg}={value!r} 所在城市，请在地点前加城市名或填写 city")
    return city, locate(city, name)


@handler("route_plan")
def route_plan(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    c1, a = _endpoint(ctx, args["origin"], args.get("city"), "origin")
    c2, b = _endpoint(ctx, args["destination"], args.get("city"), "destination")
    mode, when = args["mode"], _when(ctx, args, "depart_at")
    straight = haversine(a.lat, a.lon, b.lat, b.lon)
    if straight < 0.1:
        ctx.fail("SAME_PLACE", "起点和终点几乎在同一位置")
    limits = {"walking": 50.0, "cycling": 150.0}
    if mode == "transit" and c1 != c2:
        ctx.fail("TRANSIT_CROSS_CITY", f"公交/地铁方案只规划同城路线；{c1} 到 {c2} 请改用驾车或查询火车票")
    km = round(straight * (1.2 if c1 != c2 else 1.3), 1)
    if mode in limits and km > limits[mode]:
        ctx.fail(
            "TOO_FAR_FOR_MODE",
            f"全程约 {km} 公里，超出{'步行' if mode == 'walking' else '骑行'}规划上限 {limits[mode]:g} 公里",
        )
    steps: list[dict[str, Any]] = []
    fare, tolls = 0.0, 0.0
    if mode == "driving":
        idx = _traffic_factor(c1, "route", when, 0.8)
        if c1 != c2:
            hw = max(0.0, km - 30)
            minutes = hw / 95 * 60 + 30 / 35 * 60 * (1 + (idx - 1) * 0.5)
            tolls = round(hw * 0.5)
            steps = [
                {"instruction": f"从{a.name}出发，驶入高速", "distance_km": 15.0},
                {"instruction": f"沿高速行驶前往{c2}", "distance_km": round(hw, 1)},
                {"instruction": f"驶出高速，到达{b.name}", "distance_km": round(km - hw - 15, 1)},
            ]
        else:
            minutes = km / (40 / idx) * 60 + 3
            steps = [
                {"instruction": f"从{a.name}出发", "distance_km": round(km * 0.15, 1)},
                {"instruction": "沿城市主干道行驶", "distance_km": round(km * 0.7, 1)},
                {"instruction": f"到达{b.name}", "distance_km": round(km * 0.15, 1)},
            ]
    elif mode == "transit":
        minutes, fare, steps = _transit(c1, a, b, km)
    else:
        speed = 4.8 if mode == "walking" else 14.0
        minutes = km / speed * 60
        steps = [{"instruction": f"{'步行' if mode == 'walking' else '骑行'}前往{b.name}", "distance_km": km}]
    minutes = max(1, round(minutes))
    return {
        "origin": {**_spot_json(a), "city": c1},
        "destination": {**_spot_json(b), "city": c2},
        "mode": mode,
        "distance_km": km,
        "duration_min": minutes,
        "depart_at": when.isoformat(timespec="minutes"),
        "arrive_at": (when + timedelta(minutes=minutes)).isoformat(timespec="minutes"),
        "tolls_cny": float(tolls),
        "fare_cny": float(fare),
        "steps": steps,
    }


def _transit(city: str, a: Spot, b: Spot, km: float) -> tuple[float, float, list[dict[str, Any]]]:
    if city in METRO_LINES:
        net = metro_network(city)
        s1, w1 = nearest_station(net, a.lat, a.lon)
        s2, w2 = nearest_station(net, b.lat, b.lon)
        found = metro_path(net, s1.name, s2.name) if s1.name != s2.name else None
        if found is not None and w1 < 2.5 and w2 < 2.5:
            t, legs = found
            ride_km = sum(leg.km for leg in legs)
            steps = [{"instruction": f"步行至地铁{s1.name}站", "distance_km": round(w1 * 1.2, 1)}]
            steps += [
                {
                    "instruction": f"乘坐{lg.line}从{lg.board}到{lg.alight}（{lg.stops}站）",
                    "distance_km": lg.km,
                }
                for lg in legs
            ]
            steps.append({"instruction": f"从{s2.name}站步行至{b.name}", "distance_km": round(w2 * 1.2, 1)})
            return t + (w1 + w2) * 1.2 / 4.8 * 60 + 4, metro_fare(ride_km), steps
    bus = f"{int(stable_unit('bus', city, a.name, b.name) * 900) + 1}路"
    steps = [
        {"instruction": "步行至公交站", "distance_km": 0.4},
        {"instruction": f"乘坐{bus}公交车", "distance_km": round(km, 1)},
        {"instruction": f"步行至{b.name}", "distance_km": 0.3},
    ]
    return km / 16 * 60 + 0.7 / 4.8 * 60 + 8, 2.0, steps


# --- POIs ---------------------------------------------------------------------------------------
@handler("poi_search_nearby")
def poi_search_nearby(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    centre = _centre(ctx, city, args)
    extra, params = "", []
    if "category" in args:
        extra += " AND category=?"
        params.append(args["category"])
    if "keyword" in args:
        extra += " AND name LIKE ?"
        params.append(f"%{args['keyword']}%")
    found = _nearby(ctx, "nav_pois", city, centre, args["radius_m"], extra, tuple(params))
    now_min = ctx.now.hour * 60 + ctx.now.minute
    items = [
        {
            "poi_id": r["poi_id"], "name": r["name"], "category": r["category"], "address": r["address"],
            "distance_m": d, "rating": r["rating"], "avg_price_cny": r["avg_price"],
            "open_hours": "24小时" if r["close_min"] - r["open_min"] >= 1440 else f"{hhmm(r['open_min'])}-{hhmm(r['close_min'])}",
            "open_now": r["open_min"] <= now_min < r["close_min"],
        }
        for d, r in found
    ]  # fmt: skip
    if args["sort_by"] == "rating":
        items.sort(key=lambda x: (-x["rating"], x["distance_m"]))
    return {"city": city, "centre": _spot_json(centre), "radius_m": args["radius_m"], "total": len(items), "pois": items[: args["limit"]]}  # fmt: skip


# --- traffic ------------------------------------------------------------------------------------
@handler("traffic_road_status")
def traffic_road_status(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    q = args["road"].strip().removeprefix(city)
    r = ctx.one("SELECT * FROM nav_roads WHERE city=? AND name=?", (city, q))
    if r is None:
        r = ctx.one("SELECT * FROM nav_roads WHERE city=? AND (name LIKE ? OR ? LIKE '%' || name || '%') ORDER BY length(name)", (city, f"%{q}%", q))  # fmt: skip
    if r is None:
        some = [
            x["name"]
            for x in ctx.query("SELECT name FROM nav_roads WHERE city=? ORDER BY road_id LIMIT 8", (city,))
        ]
        ctx.fail("UNKNOWN_ROAD", f"{city} 没有找到道路“{args['road']}”，可查询如：{'、'.join(some)}")
    when = _when(ctx, args, "at")
    n = max(2, min(6, round(r["length_km"] / 8)))
    segs = []
    for i in range(n):
        idx = _traffic_factor(city, f"{r['road_id']}-{i}", when, r["busy"])
        seg_len = r["length_km"] / n
        speed = round(r["free_speed"] / idx, 1)
        segs.append({"segment": f"第{i + 1}段", "length_km": round(seg_len, 1), "congestion_index": idx, "status": _status(idx), "avg_speed_kmh": speed})  # fmt: skip
    total_min = sum(s["length_km"] / s["avg_speed_kmh"] * 60 for s in segs)
    index = round(
        sum(s["congestion_index"] * s["length_km"] for s in segs) / sum(s["length_km"] for s in segs), 2
    )
    return {
        "city": city, "road": r["name"], "road_class": r["road_class"], "length_km": r["length_km"],
        "at": when.isoformat(timespec="minutes"), "realtime": abs((when - ctx.now).total_seconds()) < 900,
        "congestion_index": index, "status": _status(index), "avg_speed_kmh": round(r["length_km"] / total_min * 60, 1),
        "travel_time_min": round(total_min), "segments": segs,
    }  # fmt: skip


# --- metro --------------------------------------------------------------------------------------
def _station(ctx: ToolCtx, net: Any, city: str, value: str, arg: str) -> tuple[str, int]:
    s = value.strip().removeprefix(city).removesuffix("地铁站")
    for cand in (s, s.removesuffix("站")):
        if cand in net.stations:
            return str(cand), 0
    spot = locate(city, s)
    st, dist = nearest_station(net, spot.lat, spot.lon)
    if dist > 3.0:
        ctx.fail("NO_STATION_NEARBY", f"{arg}={value!r} 附近 3 公里内没有地铁站")
    return st.name, round(dist * 1000)


@handler("metro_route")
def metro_route(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    if city not in METRO_LINES:
        ctx.fail("NO_METRO", f"{city} 没有开通地铁")
    net = metro_network(city)
    a, wa = _station(ctx, net, city, args["from_station"], "from_station")
    b, wb = _station(ctx, net, city, args["to_station"], "to_station")
    if a == b:
        ctx.fail("SAME_STATION", f"起点和终点都对应 {a} 站")
    when = _when(ctx, args, "depart_at")
    m = when.hour * 60 + when.minute
    if m >= 23 * 60 + 10 or m < 5 * 60 + 30:
        ctx.fail("NO_SERVICE", f"{hhmm(m)} 不在地铁运营时间（05:30–23:10）内")
    found = metro_path(net, a, b)
    if found is None:
        ctx.fail("NOT_CONNECTED", f"{a} 与 {b} 之间没有地铁线路连通")
    t, legs = found
    km = round(sum(leg.km for leg in legs), 1)
    wait = 2 + round(4 * stable_unit("headway", city, when.strftime("%H")))
    minutes = round(t + wait)
    return {
        "city": city, "from_station": a, "to_station": b, "walk_to_origin_m": wa, "walk_from_destination_m": wb,
        "depart_at": when.isoformat(timespec="minutes"),
        "arrive_at": (when + timedelta(minutes=minutes)).isoformat(timespec="minutes"),
        "duration_min": minutes, "distance_km": km, "stops": sum(leg.stops for leg in legs),
        "transfers": len(legs) - 1, "fare_cny": metro_fare(km),
        "legs": [{"line": x.line, "board": x.board, "alight": x.alight, "stops": x.stops} for x in legs],
    }  # fmt: skip


# --- parking ------------------------------------------------------------------------------------
def _occupancy(kind: str, lot_id: str, when: datetime) -> float:
    h = when.hour
    weekend = when.weekday() >= 5
    busy = {"mall": 0.85 if weekend and 11 <= h <= 20 else 0.55 if 10 <= h <= 21 else 0.15,
            "office": 0.9 if not weekend and 9 <= h <= 18 else 0.2,
            "hospital": 0.95 if not weekend and 8 <= h <= 16 else 0.5}.get(kind, 0.75 if 8 <= h <= 20 else 0.45)  # fmt: skip
    return min(1.0, max(0.0, busy + 0.25 * (stable_unit("park", lot_id, when.strftime("%Y-%m-%d %H")) - 0.5)))


def _parking_fee(r: Any, hours: float) -> float:
    days, rest = divmod(hours, 24)
    first, per, cap = float(r["first_hour"]), float(r["per_hour"]), float(r["daily_cap"])
    fee_rest = 0.0 if rest <= 0.25 else first + max(0, math.ceil(rest - 1)) * per
    return round(days * cap + min(fee_rest, cap), 1)


@handler("parking_search")
def parking_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    centre = _centre(ctx, city, args)
    when, hours = _when(ctx, args, "arrive_at"), float(args["duration_hours"])
    lots = []
    for d, r in _nearby(ctx, "nav_parking", city, centre, args["radius_m"]):
        if not r["open_24h"] and not 7 <= when.hour < 22:
            continue
        free = int(r["spaces"] * (1 - _occupancy(r["lot_type"], r["lot_id"], when)))
        lots.append(
            {"lot_id": r["lot_id"], "name": r["name"], "lot_type": r["lot_type"], "distance_m": d,
             "total_spaces": r["spaces"], "free_spaces": free, "first_hour_cny": r["first_hour"],
             "per_hour_cny": r["per_hour"], "daily_cap_cny": r["daily_cap"], "estimated_fee_cny": _parking_fee(r, hours),
             "open_24h": bool(r["open_24h"])}
        )  # fmt: skip
    key = {"price": lambda x: (x["estimated_fee_cny"], x["distance_m"]), "free_spaces": lambda x: (-x["free_spaces"], x["distance_m"])}  # fmt: skip
    lots.sort(key=key.get(args["sort_by"], lambda x: (x["distance_m"], x["lot_id"])))
    return {"city": city, "centre": _spot_json(centre), "arrive_at": when.isoformat(timespec="minutes"), "duration_hours": hours, "total": len(lots), "lots": lots[:20]}  # fmt: skip


# --- EV charging --------------------------------------------------------------------------------
def _tou(when: datetime) -> tuple[str, float]:
    """Time-of-use electricity price (CNY/kWh): peak 10–15 h and 18–21 h, valley 23–7 h, flat otherwise."""
    h = when.hour
    if 10 <= h < 15 or 18 <= h < 21:
        return "peak", 1.05
    if h >= 23 or h < 7:
        return "valley", 0.35
    return "flat", 0.68


@handler("charging_station_search")
def charging_station_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    centre = _centre(ctx, city, args)
    when = _when(ctx, args, "arrive_at")
    period, energy = _tou(when)
    extra, params = "", []
    if "operator" in args:
        extra, params = " AND operator=?", [args["operator"]]
    kind = args["charger_type"]
    out = []
    for d, r in _nearby(ctx, "nav_chargers", city, centre, args["radius_m"], extra, tuple(params)):
        if (kind == "fast" and r["fast_piles"] == 0) or (kind == "slow" and r["slow_piles"] == 0):
            continue
        if not r["open_24h"] and not 7 <= when.hour < 23:
            continue
        u = stable_unit("ev", r["station_id"], when.strftime("%Y-%m-%d %H"))
        busy = 0.8 if period == "valley" else 0.5
        out.append(
            {"station_id": r["station_id"], "name": r["name"], "operator": r["operator"], "distance_m": d,
             "fast_total": r["fast_piles"], "fast_free": int(r["fast_piles"] * (1 - busy) * (0.5 + u)) if r["fast_piles"] else 0,
             "slow_total": r["slow_piles"], "slow_free": int(r["slow_piles"] * (1 - busy) * (0.5 + u)) if r["slow_piles"] else 0,
             "max_power_kw": r["max_kw"], "price_period": period, "electricity_cny_per_kwh": energy,
             "service_fee_cny_per_kwh": r["service_fee"], "total_cny_per_kwh": round(energy + r["service_fee"], 2),
             "open_24h": bool(r["open_24h"])}
        )  # fmt: skip
    return {"city": city, "centre": _spot_json(centre), "at": when.isoformat(timespec="minutes"), "total": len(out), "stations": out[: args["limit"]]}  # fmt: skip
