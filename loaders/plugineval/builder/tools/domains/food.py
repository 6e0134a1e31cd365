"""美食与生活 food: takeout, restaurant booking, recipes, utility bills, mobile recharge, housekeeping.

Restaurants sit at fixed offsets (km) from their city's centre; a delivery address is placed
deterministically near the centre from its text, so delivery fee and ETA follow from the distance.
Monthly utility bills are derived from each account's base usage, the season and tiered tariffs.
"""

from __future__ import annotations

import json
import math
import random
import sqlite3
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..runtime import ToolCtx, handler, stable_unit
from ._common import ACCOUNT_ADDRESS, ACCOUNT_HOLDER, ACCOUNT_PHONE, CITIES, CityArgument, hhmm, parse_hhmm
from .food_data import (
    CARRIER_NAMES,
    HOURLY_RATE,
    NO_RESERVATION,
    SEGMENTS,
    SERVICES,
    UTILITIES,
    populate_store,
)

STORE_VERSION = "2"
SCHEMA_SQL = """
CREATE TABLE food_restaurants (
    restaurant_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, cuisine TEXT NOT NULL,
    x_km REAL NOT NULL, y_km REAL NOT NULL, address TEXT NOT NULL, rating REAL NOT NULL, avg_price REAL NOT NULL,
    open_min INTEGER NOT NULL, close_min INTEGER NOT NULL, min_order REAL NOT NULL, packing_fee REAL NOT NULL,
    prep_min INTEGER NOT NULL, tables INTEGER NOT NULL, UNIQUE(city, name)
);
CREATE TABLE food_dishes (restaurant_id TEXT, dish TEXT, price REAL, monthly_sales INTEGER);
CREATE INDEX food_dishes_r ON food_dishes(restaurant_id);
CREATE TABLE food_orders (order_id TEXT PRIMARY KEY, restaurant_id TEXT, created TEXT, total REAL, address TEXT);
CREATE TABLE food_reservations (
    reservation_id TEXT PRIMARY KEY, restaurant_id TEXT, date TEXT, time TEXT, party_size INTEGER, seating TEXT,
    contact TEXT, phone TEXT
);
CREATE TABLE food_recipes (
    recipe_id TEXT PRIMARY KEY, name TEXT, cuisine TEXT, difficulty TEXT, minutes INTEGER, servings INTEGER,
    kcal INTEGER, ingredients TEXT, steps TEXT
);
CREATE TABLE food_utility_accounts (
    account_no TEXT PRIMARY KEY, city TEXT, utility_type TEXT, holder TEXT, address TEXT, base_usage REAL
);
CREATE TABLE food_recharges (order_id TEXT PRIMARY KEY, phone TEXT, amount INTEGER, created TEXT);
CREATE TABLE food_hk_workers (worker_id TEXT PRIMARY KEY, city TEXT, name TEXT, rating REAL, years INTEGER);
CREATE TABLE food_hk_bookings (
    booking_id TEXT PRIMARY KEY, worker_id TEXT, date TEXT, start_min INTEGER, end_min INTEGER, service TEXT
);
"""

CN = ZoneInfo("Asia/Shanghai")
RADIUS_KM = 6.0


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    populate_store(conn, rng)


# --- helpers ---------------------------------------------------------------------------------------


def _now_cn(ctx: ToolCtx) -> datetime:
    return ctx.now.astimezone(CN).replace(tzinfo=None)


def _iso(t: datetime) -> str:
    return f"{t:%Y-%m-%dT%H:%M:%S}+08:00"


_city = CityArgument("城市“{value}”不在服务范围内，请提供中国大陆地级市名称，如“杭州”")


def _address_point(city: str, address: str) -> tuple[float, float]:
    key = address.strip().replace(" ", "")
    return (stable_unit("addr-x", city, key) - 0.5) * 10, (stable_unit("addr-y", city, key) - 0.5) * 10


def _is_open(r: sqlite3.Row, minute: int) -> bool:
    return any(r["open_min"] <= m < r["close_min"] for m in (minute, minute + 1440))


def _delivery(r: sqlite3.Row, point: tuple[float, float], at: datetime) -> tuple[float, float, int]:
    """(distance km, delivery fee, ETA minutes) from a restaurant to an address at time ``at``."""
    km = math.hypot(r["x_km"] - point[0], r["y_km"] - point[1]) * 1.3  # roads are longer than a straight line
    fee = 2.5 + max(0.0, math.ceil((km - 3) * 2) / 2)
    minute = at.hour * 60 + at.minute
    if minute >= 22 * 60 or minute < 6 * 60:
        fee += 2
    rush = 11 * 60 <= minute < 13 * 60 or 17 * 60 <= minute < 19 * 60 + 30
    eta = r["prep_min"] + int(km * 4) + 8 + (12 if rush else 0)
    return round(km, 1), fee, eta


def _restaurant(ctx: ToolCtx, city: str, name: str) -> sqlite3.Row:
    q = name.strip()
    r = ctx.one("SELECT * FROM food_restaurants WHERE city=? AND name=?", (city, q))
    if r is not None:
        return r
    rows = ctx.query(
        "SELECT * FROM food_restaurants WHERE city=? AND name LIKE ? ORDER BY name", (city, f"%{q}%")
    )
    if len(rows) == 1:
        return rows[0]
    if rows:
        ctx.fail(
            "AMBIGUOUS_RESTAURANT",
            f"{city}有多家店名含“{q}”：{'、'.join(x['name'] for x in rows[:6])}，请说全店名",
        )
    ctx.fail("UNKNOWN_RESTAURANT", f"{city}没有找到餐厅“{q}”，请先搜索确认店名")


# --- takeout ---------------------------------------------------------------------------------------


@handler("takeout_search_restaurants")
def takeout_search_restaurants(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    point = _address_point(city, args["address"])
    now = _now_cn(ctx)
    sql, params = "SELECT * FROM food_restaurants WHERE city=?", [city]
    if "cuisine" in args:
        sql += " AND cuisine=?"
        params.append(args["cuisine"])
    if "keyword" in args:
        kw = f"%{str(args['keyword']).strip()}%"
        sql += (
            " AND (name LIKE ? OR restaurant_id IN (SELECT restaurant_id FROM food_dishes WHERE dish LIKE ?))"
        )
        params += [kw, kw]
    found = []
    for r in ctx.query(sql, tuple(params)):
        km, fee, eta = _delivery(r, point, now)
        if km > RADIUS_KM or fee > args.get("max_delivery_fee", math.inf):
            continue
        top = ctx.query(
            "SELECT dish, price FROM food_dishes WHERE restaurant_id=? ORDER BY monthly_sales DESC, dish LIMIT 3",
            (r["restaurant_id"],),
        )
        found.append(
            {
                "restaurant_id": r["restaurant_id"],
                "name": r["name"],
                "cuisine": r["cuisine"],
                "rating": r["rating"],
                "avg_price_cny": r["avg_price"],
                "distance_km": km,
                "delivery_fee_cny": fee,
                "min_order_cny": r["min_order"],
                "eta_minutes": eta,
                "is_open": _is_open(r, now.hour * 60 + now.minute),
                "hours": f"{hhmm(r['open_min'])}-{hhmm(r['close_min'])}",
                "popular_dishes": [{"dish": d["dish"], "price_cny": d["price"]} for d in top],
            }
        )
    keys: dict[str, Callable[[dict[str, Any]], tuple[Any, ...]]] = {
        "recommended": lambda x: (not x["is_open"], -x["rating"], x["distance_km"]),
        "distance": lambda x: (x["distance_km"],),
        "rating": lambda x: (-x["rating"],),
        "delivery_time": lambda x: (x["eta_minutes"],),
        "delivery_fee": lambda x: (x["delivery_fee_cny"],),
    }
    found.sort(key=lambda x: (*keys[args["sort"]](x), x["restaurant_id"]))
    return {
        "city": city,
        "searched_at": _iso(now.replace(second=0, microsecond=0)),
        "total": len(found),
        "restaurants": found[: args["limit"]],
    }


@handler("takeout_place_order")
def takeout_place_order(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    r = _restaurant(ctx, city, args["restaurant_name"])
    now = _now_cn(ctx)
    when = now
    if "deliver_at" in args:
        when = datetime.fromisoformat(args["deliver_at"])
        when = when.astimezone(CN).replace(tzinfo=None) if when.tzinfo else when
        if when < now + timedelta(minutes=30):
            ctx.fail("DELIVERY_TIME_TOO_SOON", "预约送达时间需晚于当前时间至少 30 分钟")
    address = args.get("address", ACCOUNT_ADDRESS)  # left out: the account's saved home address
    km, fee, eta = _delivery(r, _address_point(city, address), when)
    if km > RADIUS_KM:
        ctx.fail(
            "OUT_OF_DELIVERY_RANGE", f"{r['name']}距离配送地址约 {km} 公里，超出 {RADIUS_KM:g} 公里配送范围"
        )
    cook_at = when - timedelta(minutes=eta) if "deliver_at" in args else now
    if not _is_open(r, cook_at.hour * 60 + cook_at.minute):
        ctx.fail(
            "RESTAURANT_CLOSED",
            f"{r['name']}营业时间为 {hhmm(r['open_min'])}-{hhmm(r['close_min'])}，该时段不接单",
        )
    menu = {
        d["dish"]: d["price"]
        for d in ctx.query("SELECT * FROM food_dishes WHERE restaurant_id=?", (r["restaurant_id"],))
    }
    lines = []
    for it in args["items"]:
        want = str(it["dish_name"]).strip()
        hits = [d for d in menu if d == want] or [d for d in sorted(menu) if want in d]
        if len(hits) != 1:
            ctx.fail(
                "DISH_NOT_FOUND",
                f"{r['name']}的菜单里没有唯一匹配“{want}”的菜，可选：{'、'.join(sorted(menu))}",
            )
        q = int(it.get("quantity", 1))
        lines.append(
            {
                "dish": hits[0],
                "quantity": q,
                "unit_price_cny": menu[hits[0]],
                "amount_cny": round(menu[hits[0]] * q, 2),
            }
        )
    subtotal = round(sum(x["amount_cny"] for x in lines), 2)
    if subtotal < r["min_order"]:
        ctx.fail("BELOW_MINIMUM_ORDER", f"{r['name']}满 {r['min_order']:g} 元起送，当前只有 {subtotal:g} 元")
    packing = r["packing_fee"] * sum(x["quantity"] for x in lines if x["unit_price_cny"] > 5)
    total = round(subtotal + packing + fee, 2)
    n = ctx.one("SELECT COUNT(*) AS n FROM food_orders")
    order_id = f"T{now:%Y%m%d%H%M}{(n['n'] if n else 0) + 1:03d}"
    ctx.db.execute(
        "INSERT INTO food_orders VALUES (?,?,?,?,?)",
        (order_id, r["restaurant_id"], now.isoformat(), total, address),
    )
    arrive = when if "deliver_at" in args else now + timedelta(minutes=eta)
    return {
        "order_id": order_id,
        "restaurant": r["name"],
        "items": lines,
        "subtotal_cny": subtotal,
        "packing_fee_cny": packing,
        "delivery_fee_cny": fee,
        "total_cny": total,
        "address": address,
        "distance_km": km,
        "estimated_arrival": _iso(arrive.replace(second=0, microsecond=0)),
        "status": "placed",
    }


# --- restaurant booking ----------------------------------------------------------------------------


@handler("restaurant_reserve")
def restaurant_reserve(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    r = _restaurant(ctx, city, args["restaurant_name"])
    if r["cuisine"] in NO_RESERVATION:
        ctx.fail("RESERVATION_NOT_SUPPORTED", f"{r['name']}是快餐/饮品店，不接受订座，到店即可")
    day, minute = date.fromisoformat(args["date"]), parse_hhmm(args["time"])
    if not _is_open(r, minute) or not _is_open(r, minute + 60):
        ctx.fail(
            "OUTSIDE_OPENING_HOURS",
            f"{r['name']}营业时间 {hhmm(r['open_min'])}-{hhmm(r['close_min'])}，订座需在打烊前 1 小时以前",
        )
    now = _now_cn(ctx)
    if datetime.combine(day, datetime.min.time()) + timedelta(minutes=minute) < now + timedelta(minutes=30):
        ctx.fail("TOO_LATE_TO_BOOK", "订座时间需晚于当前时间至少 30 分钟")
    seating, party = args["seating"], int(args["party_size"])
    if seating == "private_room" and party < 6:
        ctx.fail("PRIVATE_ROOM_MIN_PARTY", "包间需 6 人及以上才能预订，可改订大厅或靠窗座位")
    slot = f"{minute // 30 * 30}"
    u = stable_unit("tables", r["restaurant_id"], day, slot)
    free = 0 if u < 0.06 else max(1, int(r["tables"] * (0.3 if seating != "hall" else 1.0) * u))
    taken = ctx.one(
        "SELECT COUNT(*) AS n FROM food_reservations WHERE restaurant_id=? AND date=? AND seating=?",
        (r["restaurant_id"], args["date"], seating),
    )
    if free - (taken["n"] if taken else 0) <= 0:
        ctx.fail(
            "FULLY_BOOKED", f"{r['name']} {args['date']} {args['time']} 的{seating}座位已订满，请换个时间"
        )
    n = ctx.one("SELECT COUNT(*) AS n FROM food_reservations")
    rid = f"B{day:%Y%m%d}{r['restaurant_id'][1:]}{(n['n'] if n else 0) + 1:02d}"
    ctx.db.execute(
        "INSERT INTO food_reservations VALUES (?,?,?,?,?,?,?,?)",
        (
            rid,
            r["restaurant_id"],
            args["date"],
            args["time"],
            party,
            seating,
            args.get("contact_name", ACCOUNT_HOLDER),
            args.get("phone", ACCOUNT_PHONE),
        ),
    )
    min_spend = float(party * r["avg_price"]) if seating == "private_room" else 0.0
    return {
        "reservation_id": rid,
        "restaurant": r["name"],
        "address": r["address"],
        "date": args["date"],
        "time": args["time"],
        "party_size": party,
        "seating": seating,
        "hold_minutes": 15,
        "private_room_min_spend_cny": round(min_spend),
        "status": "confirmed",
    }


# --- recipes ---------------------------------------------------------------------------------------


@handler("recipe_search")
def recipe_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    tokens = [t for t in str(args["keyword"]).replace("和", " ").replace("、", " ").split() if t]
    exclude = [str(x).strip() for x in args.get("exclude_ingredients", []) if str(x).strip()]
    out = []
    for r in ctx.query("SELECT * FROM food_recipes ORDER BY recipe_id"):
        ingredients = [{"name": n, "amount": a} for n, a in json.loads(r["ingredients"])]
        text = r["name"] + " " + " ".join(i["name"] for i in ingredients)
        if not all(t in text for t in tokens) or any(e in text for e in exclude):
            continue
        if "cuisine" in args and r["cuisine"] != args["cuisine"]:
            continue
        if "difficulty" in args and r["difficulty"] != args["difficulty"]:
            continue
        if r["minutes"] > args.get("max_minutes", 10**6):
            continue
        out.append(
            {
                "recipe_id": r["recipe_id"],
                "name": r["name"],
                "cuisine": r["cuisine"],
                "difficulty": r["difficulty"],
                "minutes": r["minutes"],
                "servings": r["servings"],
                "kcal_per_serving": r["kcal"],
                "ingredients": ingredients,
                "steps": json.loads(r["steps"]),
            }
        )
    out.sort(key=lambda x: (not any(t in x["name"] for t in tokens), x["minutes"], x["recipe_id"]))
    return {"total": len(out), "recipes": out[: args["limit"]]}


# --- utility bills ---------------------------------------------------------------------------------


def _bill_amount(kind: str, usage: float) -> tuple[float, list[dict[str, Any]]]:
    tiers, lower, total = [], 0.0, 0.0
    for i, (upper, price) in enumerate(UTILITIES[kind][1], start=1):
        part = max(0.0, min(usage, upper) - lower)
        if part > 0:
            amt = round(part * price, 2)
            tiers.append({"tier": i, "usage": round(part, 1), "unit_price_cny": price, "amount_cny": amt})
            total += amt
        lower = upper
    return round(total, 2), tiers


@handler("utility_bill_query")
def utility_bill_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    kind = args["utility_type"]
    if "account_no" not in args:  # the account's own home in that city: its bound household
        a = ctx.one(
            "SELECT * FROM food_utility_accounts WHERE city=? AND utility_type=? ORDER BY account_no LIMIT 1",
            (args["city"], kind),
        )
        if a is None:
            ctx.fail("NO_BOUND_ACCOUNT", f"账户在{args['city']}没有绑定{kind}户号，请提供户号")
    else:
        a = ctx.one("SELECT * FROM food_utility_accounts WHERE account_no=?", (args["account_no"],))
    if a is None or a["city"] != args["city"] or a["utility_type"] != kind:
        ctx.fail(
            "ACCOUNT_NOT_FOUND",
            f"{args['city']}没有户号为 {args['account_no']} 的{kind}账户，请核对户号和缴费类型",
        )
    today = ctx.today
    latest = (today.replace(day=1) - timedelta(days=1)).replace(day=1)  # last month's bill issues on the 3rd
    if today.day < 3:
        latest = (latest - timedelta(days=1)).replace(day=1)
    month = date.fromisoformat(f"{args['month']}-01") if "month" in args else latest
    if month > latest:
        ctx.fail(
            "BILL_NOT_ISSUED",
            f"{month:%Y-%m} 的账单尚未出账（每月 3 日出上月账单），最近一期为 {latest:%Y-%m}",
        )
    if (latest.year - month.year) * 12 + latest.month - month.month >= 24:
        ctx.fail("HISTORY_LIMIT", "只能查询最近 24 个月的账单")
    unit, _, _, season = UTILITIES[kind]
    usage = round(
        a["base_usage"]
        * season[month.month - 1]
        * (0.85 + 0.3 * stable_unit("usage", a["account_no"], month.isoformat())),
        1,
    )
    amount, tiers = _bill_amount(kind, usage)
    nxt = (month + timedelta(days=32)).replace(day=1)
    issued, due = nxt.replace(day=3), nxt.replace(day=25)
    paid_on = issued + timedelta(days=int(stable_unit("paid", a["account_no"], month.isoformat()) * 40))
    status = "paid" if paid_on <= today else ("overdue" if today > due else "unpaid")
    out: dict[str, Any] = {
        "account_no": a["account_no"],
        "holder": a["holder"],
        "address": a["address"],
        "city": a["city"],
        "utility_type": kind,
        "month": f"{month:%Y-%m}",
        "usage": usage,
        "unit": unit,
        "tiers": tiers,
        "amount_cny": amount,
        "issued_on": issued.isoformat(),
        "due_date": due.isoformat(),
        "status": status,
    }
    if status == "paid":
        out["paid_on"] = paid_on.isoformat()
    elif status == "overdue":
        out["late_fee_cny"] = round(amount * 0.001 * (today - due).days, 2)
    return out


# --- mobile recharge -------------------------------------------------------------------------------


@handler("mobile_recharge")
def mobile_recharge(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    phone, amount = args.get("phone", ACCOUNT_PHONE), int(args["amount"])  # left out: this phone's number
    carrier = next((c for c, segs in sorted(SEGMENTS.items()) if int(phone[:3]) in segs), None)
    if carrier is None:
        ctx.fail(
            "UNSUPPORTED_NUMBER", f"号段 {phone[:3]} 暂不支持充值（物联网卡或虚拟运营商号码请到对应渠道充值）"
        )
    now = _now_cn(ctx)
    day = now.date().isoformat()
    done = ctx.one(
        "SELECT COALESCE(SUM(amount), 0) AS s FROM food_recharges WHERE phone=? AND created LIKE ?",
        (phone, f"{day}%"),
    )
    if (done["s"] if done else 0) + amount > 1000:
        ctx.fail("DAILY_LIMIT", "同一号码每天累计充值不超过 1000 元")
    total = ctx.one("SELECT COALESCE(SUM(amount), 0) AS s FROM food_recharges WHERE phone=?", (phone,))
    balance = round(stable_unit("balance", phone, day) * 80 - 5, 2) + (total["s"] if total else 0) + amount
    pay = round(amount * (0.995 if amount >= 100 else 0.998 if amount >= 50 else 1.0), 2)
    n = ctx.one("SELECT COUNT(*) AS n FROM food_recharges")
    oid = f"M{now:%Y%m%d%H%M%S}{(n['n'] if n else 0) + 1:03d}"
    ctx.db.execute("INSERT INTO food_recharges VALUES (?,?,?,?)", (oid, phone, amount, now.isoformat()))
    return {
        "order_id": oid,
        "phone": phone,
        "carrier": carrier,
        "carrier_name": CARRIER_NAMES[carrier],
        "face_value_cny": amount,
        "pay_amount_cny": pay,
        "balance_after_cny": round(balance, 2),
        "status": "success",
        "credited_at": _iso((now + timedelta(minutes=2)).replace(second=0, microsecond=0)),
    }


# --- housekeeping ----------------------------------------------------------------------------------


@handler("housekeeping_book")
def housekeeping_book(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    address = args.get("address", ACCOUNT_ADDRESS)  # left out: the account's saved home address
    service, hours = args["service_type"], int(args["hours"])
    zh, factor, min_hours = SERVICES[service]
    if hours < min_hours:
        ctx.fail("BELOW_MIN_HOURS", f"{zh}至少需要预约 {min_hours} 小时")
    start = parse_hhmm(args["start_time"])
    end = start + hours * 60
    if start < 8 * 60 or end > 20 * 60:
        ctx.fail(
            "OUTSIDE_SERVICE_HOURS", f"服务时间为 08:00-20:00，{args['start_time']} 开始 {hours} 小时会超出"
        )
    day = date.fromisoformat(args["date"])
    if datetime.combine(day, datetime.min.time()) + timedelta(minutes=start) < _now_cn(ctx) + timedelta(
        hours=2
    ):
        ctx.fail("TOO_SOON", "需至少提前 2 小时预约")
    chosen = None
    for w in ctx.query("SELECT * FROM food_hk_workers WHERE city=? ORDER BY rating DESC, worker_id", (city,)):
        if stable_unit("hk-busy", w["worker_id"], day.isoformat()) < 0.35:
            continue
        clash = ctx.one(
            "SELECT 1 FROM food_hk_bookings WHERE worker_id=? AND date=? AND start_min<? AND end_min>?",
            (w["worker_id"], args["date"], end, start),
        )
        if clash is None:
            chosen = w
            break
    if chosen is None:
        ctx.fail("NO_WORKER_AVAILABLE", f"{city} {args['date']} 该时段暂无空闲的服务人员，请换个时间")
    price = round(HOURLY_RATE[CITIES[city][2]] * factor * hours)
    n = ctx.one("SELECT COUNT(*) AS n FROM food_hk_bookings")
    bid = f"H{day:%Y%m%d}{(n['n'] if n else 0) + 1:04d}"
    ctx.db.execute(
        "INSERT INTO food_hk_bookings VALUES (?,?,?,?,?,?)",
        (bid, chosen["worker_id"], args["date"], start, end, service),
    )
    return {
        "booking_id": bid,
        "service_type": service,
        "service_name": zh,
        "city": city,
        "date": args["date"],
        "start_time": hhmm(start),
        "end_time": hhmm(end),
        "hours": hours,
        "address": address,
        "worker": {"name": chosen["name"], "rating": chosen["rating"], "years_experience": chosen["years"]},
        "price_cny": float(price),
        "status": "confirmed",
    }
