"""购物 shopping: product search, orders, parcels, price history, coupons, second-hand listings.

Products carry a base price; the price on any day is derived (weekly shop discounts, 618 / 双11
campaigns, yearly drift). Orders and parcels have fixed times spread over 2020–2030; their status
and tracking events are derived from those times and the caller's reference time.
"""

from __future__ import annotations

import math
import random
import re
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..runtime import ToolCtx, handler, stable_unit
from ._common import CityArgument
from ._names import ambiguous, name_key
from .shopping_data import (
    CARRIERS,
    CATEGORIES,
    FMT,
    HUBS,
    SERIES,
    parcel_events,
    populate_coupons,
    populate_listings,
    populate_orders,
    price_on,
    product_name,
    quote_zone,
)

STORE_VERSION = "2"
SCHEMA_SQL = """
CREATE TABLE shop_products (
    product_id TEXT PRIMARY KEY, name TEXT NOT NULL, brand TEXT NOT NULL, category TEXT NOT NULL,
    noun TEXT NOT NULL, base_price REAL NOT NULL, rating REAL NOT NULL, monthly_sales INTEGER NOT NULL,
    shop TEXT NOT NULL, warehouse TEXT NOT NULL, search_text TEXT NOT NULL
);
CREATE TABLE shop_orders (
    order_id TEXT PRIMARY KEY, order_time TEXT NOT NULL, flag TEXT NOT NULL, total_cny REAL NOT NULL,
    tracking_no TEXT NOT NULL, city TEXT NOT NULL
);
CREATE INDEX shop_orders_time ON shop_orders(order_time);
CREATE TABLE shop_order_items (order_id TEXT, product_id TEXT, quantity INTEGER, unit_price REAL);
CREATE INDEX shop_order_items_order ON shop_order_items(order_id);
CREATE TABLE shop_parcels (
    tracking_no TEXT PRIMARY KEY, carrier TEXT NOT NULL, from_city TEXT NOT NULL, to_city TEXT NOT NULL,
    ship_time TEXT NOT NULL, weight_kg REAL NOT NULL
);
CREATE TABLE shop_coupons (
    coupon_id TEXT PRIMARY KEY, title TEXT NOT NULL, scope_type TEXT NOT NULL, scope_value TEXT NOT NULL,
    kind TEXT NOT NULL, min_spend REAL NOT NULL, value REAL NOT NULL, cycle TEXT NOT NULL,
    start_day INTEGER NOT NULL, length_days INTEGER NOT NULL, quantity INTEGER NOT NULL
);
CREATE TABLE shop_coupon_claims (claim_id TEXT PRIMARY KEY, coupon_id TEXT, claimed_at TEXT);
CREATE TABLE shop_listings (
    listing_id TEXT PRIMARY KEY, title TEXT NOT NULL, category TEXT NOT NULL, city TEXT NOT NULL,
    price REAL NOT NULL, original_price REAL NOT NULL, condition TEXT NOT NULL, seller TEXT NOT NULL,
    seller_credit TEXT NOT NULL, free_shipping INTEGER NOT NULL
);
"""

CN = ZoneInfo("Asia/Shanghai")


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    products: list[tuple[Any, ...]] = []
    for cat in sorted(CATEGORIES):
        zh, nouns, brands = CATEGORIES[cat]
        for noun, lo, hi in nouns:
            for brand in brands:
                for series in rng.sample(SERIES, 3):
                    model = f"{rng.choice('ACKMSVXZ')}{rng.randint(1, 9)}" if rng.random() < 0.6 else ""
                    name = product_name(cat, brand, series, model, noun)
                    base = round(rng.uniform(lo, hi), -1 if hi > 300 else 0) - 1
                    shop = f"{brand}{'官方旗舰店' if rng.random() < 0.7 else '京选专卖店'}"
                    text = f"{name} {brand} {zh} {noun}".lower()
                    products.append(
                        (
                            name,
                            brand,
                            cat,
                            noun,
                            base,
                            round(rng.uniform(4.2, 5.0), 1),
                            int(rng.lognormvariate(6, 1.3)),
                            shop,
                            rng.choice(HUBS),
                            text,
                        )
                    )
    seen: set[str] = set()
    rows: list[tuple[Any, ...]] = []
    for p in products:
        if p[0] not in seen:
            seen.add(p[0])
            rows.append((f"P{len(rows) + 100001}", *p))
    conn.executemany("INSERT INTO shop_products VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)
    populate_orders(conn, rng, rows)
    populate_coupons(conn, rng)
    populate_listings(conn, rng, rows)


# --- helpers ---------------------------------------------------------------------------------------


def _now_cn(ctx: ToolCtx) -> datetime:
    return ctx.now.astimezone(CN).replace(tzinfo=None)


def _iso(t: datetime) -> str:
    return f"{t:%Y-%m-%dT%H:%M:%S}+08:00"


_city = CityArgument("{arg}={value!r} 不在服务范围内的城市列表中，请提供中国大陆地级市名称")


def _parcel_view(ctx: ToolCtx, p: sqlite3.Row) -> dict[str, Any]:
    now = _now_cn(ctx)
    shipped = datetime.strptime(p["ship_time"], FMT)
    all_events = parcel_events(p["tracking_no"], p["carrier"], p["from_city"], p["to_city"], shipped)
    events = [e for e in all_events if e[0] <= now]
    status = events[-1][2] if events else "awaiting_pickup"
    out_day = next(e[0] for e in all_events if e[2] == "out_for_delivery").date()
    return {
        "tracking_no": p["tracking_no"],
        "carrier": p["carrier"],
        "carrier_name": CARRIERS[p["carrier"]][0],
        "from_city": p["from_city"],
        "to_city": p["to_city"],
        "status": status,
        "estimated_delivery_date": out_day.isoformat(),
        "events": [{"time": _iso(t), "city": c, "description": d} for t, c, _, d in reversed(events)],
    }


def _product(ctx: ToolCtx, query: str) -> sqlite3.Row:
    """A product by id (P100206), by full name (索尼MaxZ3 降噪耳机, spaces optional) or by what comes
    before the noun, brand + series + model as people say it (索尼MaxZ3), when that names one product;
    else by keywords (every space-separated word in the product's text)."""
    q = query.strip()
    if re.fullmatch(r"[Pp][0-9]{6}", q):
        r = ctx.one("SELECT * FROM shop_products WHERE product_id=?", (q.upper(),))
        if r is None:
            ctx.fail("UNKNOWN_PRODUCT", f"没有编号为 {q} 的商品，请核对编号或改用商品名称")
        return r
    if not q:
        ctx.fail("UNKNOWN_PRODUCT", "请提供商品名称或商品编号")
    key = name_key(q).lower()
    rows = ctx.query("SELECT * FROM shop_products ORDER BY product_id")
    for part in (slice(None), slice(0, 1)):  # the full name, then what comes before the noun
        found = [r for r in rows if name_key("".join(r["name"].split(" ")[part])).lower() == key]
        if len(found) == 1:
            return found[0]
        if found:
            return ambiguous(ctx, q, "商品", [f"{r['name']}（{r['product_id']}）" for r in found])
    tokens = q.lower().split()
    sql = "SELECT * FROM shop_products WHERE " + " AND ".join("search_text LIKE ?" for _ in tokens)
    found = ctx.query(sql + " ORDER BY monthly_sales DESC, product_id", tuple(f"%{t}%" for t in tokens))
    if not found:
        ctx.fail("UNKNOWN_PRODUCT", f"没有找到商品“{q}”，请核对名称或改用商品编号（如 P100001）")
    if len(found) > 1:
        return ambiguous(ctx, q, "商品", [f"{r['name']}（{r['product_id']}）" for r in found])
    return found[0]


# --- handlers --------------------------------------------------------------------------------------


@handler("product_search")
def product_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    tokens = [t for t in str(args["keyword"]).lower().split() if t]
    sql, params = "SELECT * FROM shop_products WHERE 1=1", []
    for t in tokens:
        sql += " AND search_text LIKE ?"
        params.append(f"%{t}%")
    for key in ("category", "brand"):
        if key in args:
            sql += f" AND {key}=?"
            params.append(str(args[key]).strip())
    dest = _city(ctx, args["ship_to"], "ship_to") if "ship_to" in args else None
    today = ctx.today
    found = []
    for r in ctx.query(sql, tuple(params)):
        price = price_on(r["product_id"], r["base_price"], r["category"], today)
        if price < args.get("min_price", 0) or price > args.get("max_price", math.inf):
            continue
        item: dict[str, Any] = {
            "product_id": r["product_id"],
            "name": r["name"],
            "brand": r["brand"],
            "category": r["category"],
            "price_cny": price,
            "rating": r["rating"],
            "monthly_sales": r["monthly_sales"],
            "shop": r["shop"],
            "in_stock": stable_unit("stock", r["product_id"], today.isoformat()) > 0.08,
            "ships_from": r["warehouse"],
        }
        if dest is not None:
            days = quote_zone(r["warehouse"], dest)[3] + (0 if "京选" in r["shop"] else 1)
            item["estimated_delivery_date"] = (today + timedelta(days=days)).isoformat()
        found.append(item)
    keys = {
        "relevance": lambda x: -x["monthly_sales"] * x["rating"],
        "price_asc": lambda x: x["price_cny"],
        "price_desc": lambda x: -x["price_cny"],
        "sales": lambda x: -x["monthly_sales"],
        "rating": lambda x: -x["rating"],
    }
    found.sort(key=lambda x: (keys[args["sort"]](x), x["product_id"]))
    return {"date": today.isoformat(), "total": len(found), "products": found[: args["limit"]]}


def _order_status(ctx: ToolCtx, o: sqlite3.Row) -> tuple[str, dict[str, Any] | None]:
    if o["flag"] != "normal":
        return o["flag"], None
    p = ctx.one("SELECT * FROM shop_parcels WHERE tracking_no=?", (o["tracking_no"],))
    if p is None:
        ctx.fail("INTERNAL_DATA", f"订单 {o['order_id']} 缺少物流记录")
    parcel = _parcel_view(ctx, p)
    st = parcel["status"]
    if st == "awaiting_pickup":
        return "pending_shipment", None
    if st == "delivered":
        signed = datetime.fromisoformat(parcel["events"][0]["time"]).replace(tzinfo=None)
        return ("completed" if _now_cn(ctx) - signed > timedelta(days=7) else "delivered"), parcel
    return ("out_for_delivery" if st == "out_for_delivery" else "shipped"), parcel


@handler("order_status")
def order_status(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    o = ctx.one("SELECT * FROM shop_orders WHERE order_id=?", (args["order_id"],))
    if o is None or datetime.strptime(o["order_time"], FMT) > _now_cn(ctx):
        ctx.fail("ORDER_NOT_FOUND", f"当前账号下没有订单 {args['order_id']}，请核对订单号")
    status, parcel = _order_status(ctx, o)
    items = [
        {
            "product_id": r["product_id"],
            "name": r["name"],
            "quantity": r["quantity"],
            "unit_price_cny": r["unit_price"],
        }
        for r in ctx.query(
            "SELECT i.*, p.name FROM shop_order_items i JOIN shop_products p USING(product_id) WHERE order_id=?",
            (o["order_id"],),
        )
    ]
    out: dict[str, Any] = {
        "order_id": o["order_id"],
        "order_time": _iso(datetime.strptime(o["order_time"], FMT)),
        "status": status,
        "total_cny": o["total_cny"],
        "ship_to_city": o["city"],
        "items": items,
    }
    if parcel is not None:
        out["tracking_no"] = parcel["tracking_no"]
        out["carrier_name"] = parcel["carrier_name"]
        out["latest_event"] = parcel["events"][0]
    return out


@handler("order_list")
def order_list(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    now = _now_cn(ctx)
    start = date.fromisoformat(args["start_date"])
    end = date.fromisoformat(args["end_date"]) if "end_date" in args else now.date()
    if end < start:
        ctx.fail("BAD_DATE_RANGE", "结束日期不能早于开始日期")
    rows = ctx.query(
        "SELECT * FROM shop_orders WHERE order_time>=? AND order_time<? AND order_time<=? ORDER BY order_time DESC",
        (f"{start} 00:00:00", f"{end + timedelta(days=1)} 00:00:00", now.strftime(FMT)),
    )
    orders = []
    for o in rows:
        status, _ = _order_status(ctx, o)
        if "status" in args and status != args["status"]:
            continue
        first = ctx.one(
            "SELECT p.name, COUNT(*) OVER () AS n FROM shop_order_items i JOIN shop_products p USING(product_id) "
            "WHERE order_id=?",
            (o["order_id"],),
        )
        summary = (first["name"] + (f" 等{first['n']}件" if first["n"] > 1 else "")) if first else ""
        orders.append(
            {
                "order_id": o["order_id"],
                "order_time": _iso(datetime.strptime(o["order_time"], FMT)),
                "status": status,
                "total_cny": o["total_cny"],
                "summary": summary,
            }
        )
    return {
        "start_date": start.isoformat(),
        "end_date": end.isoformat(),
        "count": len(orders),
        "orders": orders,
    }


@handler("parcel_track")
def parcel_track(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    no = str(args["tracking_no"]).strip().upper()
    p = ctx.one("SELECT * FROM shop_parcels WHERE tracking_no=?", (no,))
    now = _now_cn(ctx)
    if p is None or datetime.strptime(p["ship_time"], FMT) - timedelta(days=1) > now:
        ctx.fail("PARCEL_NOT_FOUND", f"查不到运单 {no} 的信息，请核对运单号（运单生成后才能查询）")
    if "carrier" in args and args["carrier"] != p["carrier"]:
        ctx.fail("CARRIER_MISMATCH", f"运单号 {no} 属于{CARRIERS[p['carrier']][0]}，不是所选的快递公司")
    return _parcel_view(ctx, p)


@handler("parcel_price_quote")
def parcel_price_quote(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    a, b = _city(ctx, args["from_city"], "from_city"), _city(ctx, args["to_city"], "to_city")
    weight = float(args["weight_kg"])
    billable = max(1, math.ceil(weight))
    zone, first, extra, days = quote_zone(a, b)
    quotes = []
    for c in [args["carrier"]] if "carrier" in args else sorted(CARRIERS):
        name, _, _, speed, factor = CARRIERS[c]
        f1 = round(first * factor, 1)
        ex = round(extra * factor, 1)
        transit = max(1, days - 1) if speed > 50 else days + (1 if speed < 32 else 0)
        quotes.append(
            {
                "carrier": c,
                "carrier_name": name,
                "first_kg_cny": f1,
                "extra_kg_cny": ex,
                "total_cny": round(f1 + ex * (billable - 1), 1),
                "transit_days": transit,
            }
        )
    quotes.sort(key=lambda q: (q["total_cny"], q["carrier"]))
    return {"from_city": a, "to_city": b, "zone": zone, "billable_weight_kg": billable, "quotes": quotes}


@handler("price_history_query")
def price_history_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    p = _product(ctx, str(args["product"]))
    today = ctx.today
    end = date.fromisoformat(args["end_date"]) if "end_date" in args else today
    start = date.fromisoformat(args["start_date"]) if "start_date" in args else end - timedelta(days=29)
    if end > today:
        ctx.fail("DATE_IN_FUTURE", f"结束日期 {end} 晚于今天 {today}，只能查询已经发生的价格")
    if start > end:
        ctx.fail("BAD_DATE_RANGE", "开始日期不能晚于结束日期")
    days = [start + timedelta(days=i) for i in range((end - start).days + 1)]
    prices = [price_on(p["product_id"], p["base_price"], p["category"], d) for d in days]
    series: list[dict[str, Any]] = [
        {"date": d.isoformat(), "price_cny": v} for d, v in zip(days, prices, strict=True)
    ]
    i_low = min(range(len(prices)), key=lambda i: (prices[i], i))
    i_high = max(range(len(prices)), key=lambda i: (prices[i], -i))
    low, high = series[i_low], series[i_high]
    current = price_on(p["product_id"], p["base_price"], p["category"], today)
    first, last = prices[0], prices[-1]
    trend = "flat" if abs(last - first) <= 0.02 * first else ("rising" if last > first else "falling")
    return {
        "product_id": p["product_id"],
        "name": p["name"],
        "current_price_cny": current,
        "lowest": low,
        "highest": high,
        "average_price_cny": round(sum(prices) / len(prices), 2),
        "trend": trend,
        "is_lowest_now": current <= prices[i_low],
        "prices": series,
    }


def _coupon_window(c: sqlite3.Row, d: date) -> tuple[date, date] | None:
    if c["cycle"] == "weekly":
        start = d - timedelta(days=(d.weekday() - c["start_day"]) % 7)
        end = start + timedelta(days=c["length_days"] - 1)
        return (start, end) if d <= end else None
    for m in (0, -1):
        y, mo = (d.year, d.month) if m == 0 else ((d.year, d.month - 1) if d.month > 1 else (d.year - 1, 12))
        start = date(y, mo, c["start_day"])
        end = start + timedelta(days=c["length_days"] - 1)
        if start <= d <= end:
            return start, end
    return None


def _coupon_key(title: str) -> str:
    """A coupon title as matched: brackets and spaces dropped, a trailing 券 / 的券 optional."""
    return re.sub(r"的?券$", "", name_key(title)).lower()


def _coupon(ctx: ToolCtx, value: str) -> sqlite3.Row:
    """A coupon by id (C3001) or by its title as coupon_list shows it (全平台满999减150, 耳机8.8折券;
    brackets, a trailing 券 or 的券 optional) when one coupon has that title."""
    v = value.strip()
    if re.fullmatch(r"[Cc][0-9]{4}", v):
        c = ctx.one("SELECT * FROM shop_coupons WHERE coupon_id=?", (v.upper(),))
        if c is None:
            ctx.fail("UNKNOWN_COUPON", f"没有编号为 {v} 的优惠券，请先用 coupon_list 查询")
        return c
    key = _coupon_key(v)
    found = [
        c
        for c in ctx.query("SELECT * FROM shop_coupons ORDER BY coupon_id")
        if _coupon_key(c["title"]) == key
    ]
    if not found:
        ctx.fail("UNKNOWN_COUPON", f"没有名为“{v}”的优惠券，请先用 coupon_list 查询")
    if len(found) > 1:
        return ambiguous(ctx, v, "优惠券", [f"{c['title']}（{c['coupon_id']}）" for c in found])
    return found[0]


@handler("coupon_list")
def coupon_list(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    d = date.fromisoformat(args["date"]) if "date" in args else ctx.today
    brand_cats = {
        b: {c for c, (_, _, bs) in CATEGORIES.items() if b in bs}
        for _, _, bs in CATEGORIES.values()
        for b in bs
    }
    brand = str(args["brand"]).strip() if "brand" in args else None
    if brand is not None and brand not in brand_cats:
        ctx.fail("UNKNOWN_BRAND", f"领券中心暂无品牌“{brand}”的活动，请换个品牌或按品类查询")
    cat = args.get("category")
    coupons = []
    for c in ctx.query("SELECT * FROM shop_coupons ORDER BY coupon_id"):
        st, val = c["scope_type"], c["scope_value"]
        if cat is not None and not (
            st == "platform"
            or (st == "category" and val == cat)
            or (st == "brand" and cat in brand_cats[val])
        ):
            continue
        if brand is not None and not (
            st == "platform"
            or (st == "brand" and val == brand)
            or (st == "category" and val in brand_cats[brand])
        ):
            continue
        win = _coupon_window(c, d)
        if win is None:
            continue
        left = int(c["quantity"] * stable_unit("coupon-left", c["coupon_id"], d.isoformat()) ** 1.5)
        coupons.append(
            {
                "coupon_id": c["coupon_id"],
                "title": c["title"],
                "scope": st,
                "scope_value": val,
                "kind": c["kind"],
                "min_spend_cny": c["min_spend"],
                "value": c["value"],
                "valid_from": win[0].isoformat(),
                "valid_to": win[1].isoformat(),
                "remaining": left,
            }
        )
    return {"date": d.isoformat(), "count": len(coupons), "coupons": coupons}


@handler("secondhand_search")
def secondhand_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    tokens = [t for t in str(args["keyword"]).lower().split() if t]
    sql, params = "SELECT * FROM shop_listings WHERE 1=1", []
    for t in tokens:
        sql += " AND lower(title) LIKE ?"
        params.append(f"%{t}%")
    if "city" in args:
        sql += " AND city=?"
        params.append(_city(ctx, args["city"], "city"))
    if "condition" in args:
        sql += " AND condition=?"
        params.append(args["condition"])
    if "max_price" in args:
        sql += " AND price<=?"
        params.append(args["max_price"])
    now = _now_cn(ctx)
    day = now.date().isoformat()
    found = []
    for r in ctx.query(sql, tuple(params)):
        if stable_unit("sold", r["listing_id"], day) < 0.1:
            continue
        posted = now - timedelta(minutes=int(stable_unit("posted", r["listing_id"], day) * 20 * 1440))
        found.append(
            {
                "listing_id": r["listing_id"],
                "title": r["title"],
                "price_cny": r["price"],
                "original_price_cny": r["original_price"],
                "condition": r["condition"],
                "city": r["city"],
                "seller": r["seller"],
                "seller_credit": r["seller_credit"],
                "free_shipping": bool(r["free_shipping"]),
                "posted_at": _iso(posted.replace(second=0, microsecond=0)),
            }
        )
    keys = {
        "latest": lambda x: x["posted_at"],
        "price_asc": lambda x: -x["price_cny"],
        "price_desc": lambda x: x["price_cny"],
    }
    found.sort(key=lambda x: (keys[args["sort"]](x), x["listing_id"]), reverse=True)
    return {"total": len(found), "listings": found[: args["limit"]]}


@handler("coupon_claim")
def coupon_claim(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    c = _coupon(ctx, str(args["coupon_id"]))
    today = ctx.today
    win = _coupon_window(c, today)
    if win is None:
        ctx.fail("COUPON_NOT_AVAILABLE", f"“{c['title']}”今天（{today}）不在领取时间内，请在活动期内再领")
    left = int(c["quantity"] * stable_unit("coupon-left", c["coupon_id"], today.isoformat()) ** 1.5)
    if left <= 0:
        ctx.fail("COUPON_SOLD_OUT", f"“{c['title']}”今天已经被抢光了")
    key = f"{c['coupon_id']}-{win[0]:%Y%m%d}"
    if ctx.one("SELECT 1 FROM shop_coupon_claims WHERE claim_id=?", (key,)) is not None:
        ctx.fail("ALREADY_CLAIMED", f"本期“{c['title']}”已经领过了，每个账号限领一次")
    now = _now_cn(ctx)
    ctx.db.execute("INSERT INTO shop_coupon_claims VALUES (?,?,?)", (key, c["coupon_id"], now.strftime(FMT)))
    return {
        "claim_id": key,
        "coupon_id": c["coupon_id"],
        "title": c["title"],
        "claimed_at": _iso(now.replace(microsecond=0)),
        "valid_to": win[1].isoformat(),
        "remaining": left - 1,
        "status": "claimed",
    }
