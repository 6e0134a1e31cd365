"""购物 shopping: word lists, carriers and the deterministic price / logistics formulas.

Everything here is pure: prices and tracking events are functions of stored facts and a date, so the
store answers for any day 2020–2030 without holding a daily series.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, datetime, timedelta
from typing import Any

from ..runtime import stable_unit
from ._common import CITIES, distance_km

# category id -> (Chinese name, [(product noun, price low, price high)], brands: real brands of the
# category, as many as before so the generator draws the same; the models are invented)
CATEGORIES: dict[str, tuple[str, list[tuple[str, int, int]], list[str]]] = {
    "phones": (
        "手机",
        [("5G手机", 1299, 6999), ("拍照手机", 1999, 5999), ("游戏手机", 2299, 4999)],
        ["华为", "小米", "OPPO", "vivo", "荣耀"],
    ),
    "laptops": (
        "笔记本电脑",
        [("轻薄笔记本", 3999, 9999), ("游戏本", 5999, 12999), ("商务笔记本", 4599, 10999)],
        ["联想", "华为", "机械革命", "神舟"],
    ),
    "tablets": (
        "平板电脑",
        [("平板电脑", 1299, 6999), ("学习平板", 999, 3999)],
        ["华为", "小米", "优学派"],
    ),
    "headphones": (
        "耳机",
        [("蓝牙耳机", 99, 899), ("降噪耳机", 399, 2499), ("运动耳机", 129, 599), ("头戴式耳机", 299, 2999)],
        ["索尼", "漫步者", "JBL", "倍思"],
    ),
    "smart_watches": (
        "智能穿戴",
        [("智能手表", 599, 3999), ("运动手环", 149, 499)],
        ["华为", "小米", "佳明"],
    ),
    "home_appliances": (
        "家用电器",
        [
            ("空调", 2199, 6999),
            ("冰箱", 1899, 8999),
            ("洗衣机", 1299, 5999),
            ("扫地机器人", 1299, 4999),
            ("空气净化器", 699, 3499),
            ("电视", 1799, 9999),
        ],
        ["美的", "格力", "海尔", "海信"],
    ),
    "kitchen_appliances": (
        "厨房电器",
        [
            ("电饭煲", 199, 1299),
            ("空气炸锅", 199, 799),
            ("破壁机", 299, 1999),
            ("微波炉", 399, 1499),
            ("电水壶", 69, 299),
        ],
        ["九阳", "苏泊尔", "美的", "小熊"],
    ),
    "clothing": (
        "服装",
        [
            ("羽绒服", 399, 1999),
            ("卫衣", 99, 399),
            ("T恤", 49, 199),
            ("牛仔裤", 129, 499),
            ("冲锋衣", 299, 1599),
        ],
        ["优衣库", "太平鸟", "波司登", "森马"],
    ),
    "shoes": (
        "鞋靴",
        [("跑步鞋", 299, 1299), ("板鞋", 199, 699), ("篮球鞋", 399, 1499), ("登山鞋", 399, 1199)],
        ["李宁", "安踏", "特步", "361度"],
    ),
    "beauty": (
        "美妆护肤",
        [
            ("面霜", 129, 899),
            ("精华液", 199, 1299),
            ("防晒霜", 69, 299),
            ("口红", 89, 399),
            ("洗面奶", 39, 159),
        ],
        ["兰蔻", "欧莱雅", "珀莱雅", "薇诺娜"],
    ),
    "snacks": (
        "食品零食",
        [("坚果礼盒", 59, 199), ("牛肉干", 29, 99), ("饼干", 15, 59), ("巧克力", 29, 129), ("果干", 19, 69)],
        ["三只松鼠", "良品铺子", "百草味", "来伊份"],
    ),
    "books": (
        "图书",
        [("长篇小说", 29, 89), ("历史读物", 39, 129), ("编程入门", 59, 149), ("儿童绘本", 25, 99)],
        ["人民文学出版社", "中信出版社", "机械工业出版社"],
    ),
    "toys": (
        "玩具",
        [("积木", 99, 999), ("遥控车", 129, 599), ("拼图", 39, 159)],
        ["乐高", "布鲁可", "奥迪双钻"],
    ),
    "sports": (
        "运动户外",
        [("瑜伽垫", 49, 259), ("登山包", 199, 899), ("帐篷", 299, 1999), ("羽毛球拍", 99, 799)],
        ["迪卡侬", "凯乐石", "探路者"],
    ),
    "baby": (
        "母婴",
        [("纸尿裤", 89, 259), ("婴儿推车", 599, 3999), ("奶瓶", 59, 199), ("儿童安全座椅", 899, 3999)],
        ["帮宝适", "好孩子", "贝亲"],
    ),
}
SERIES = ["Plus", "Lite", "青春版", "Pro", "Air", "Max", "经典款", "SE", "Ultra", "mini", "标准版", "旗舰版"]
ELECTRONICS = {"phones", "laptops", "tablets", "headphones", "smart_watches"}
# The series word of everyday goods (clothes, food, toys…): 波司登经典款 羽绒服, not 波司登Ultra.
_GOODS_SERIES = dict(
    zip(SERIES, ["加大款", "轻便款", "青春款", "专业款", "透气款", "升级款", "经典款", "简约款", "新款",
                 "迷你款", "标准款", "礼盒装"], strict=True)
)  # fmt: skip


def product_name(category: str, brand: str, series: str, model: str, noun: str) -> str:
    """A product's listed name: brand, series and model, then what it is."""
    if category not in ELECTRONICS and category not in ("home_appliances", "kitchen_appliances"):
        series = _GOODS_SERIES[series]
    return f"{brand}{series}{model} {noun}"


# carrier id -> (Chinese name, tracking-number prefix, digits after it, line-haul km/h, price factor)
CARRIERS: dict[str, tuple[str, str, int, float, float]] = {
    "sf": ("顺丰速运", "SF", 13, 65.0, 1.45),
    "zto": ("中通快递", "7", 13, 38.0, 1.0),
    "yto": ("圆通速递", "YT", 13, 36.0, 1.0),
    "yunda": ("韵达快递", "43", 11, 35.0, 0.95),
    "jd": ("京东物流", "JD", 13, 58.0, 1.3),
    "ems": ("中国邮政EMS", "11", 11, 30.0, 1.2),
}
COURIER_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高"
SIGNERS = ["本人签收", "家门口", "快递柜", "菜鸟驿站", "前台代收", "物业代收"]

# 618 and 双11 campaign windows (month, first day, last day) and their extra discount.
PROMOTIONS: list[tuple[int, int, int, float]] = [(6, 1, 18, 0.12), (11, 1, 11, 0.15), (12, 10, 12, 0.06)]


def list_price(base: float, category: str, d: date) -> float:
    """The listed price on day ``d``: electronics get cheaper over the years, other goods follow inflation."""
    years = (d - date(2025, 1, 1)).days / 365.25
    drift = 1 - 0.06 * years if category in ELECTRONICS else 1 + 0.02 * years
    return base * max(0.5, min(1.6, drift))


def price_on(product_id: str, base: float, category: str, d: date) -> float:
    """The selling price of a product on day ``d`` (weekly shop discounts plus campaign discounts)."""
    p = list_price(base, category, d)
    iso = d.isocalendar()
    u = stable_unit("shop-discount", product_id, iso.year, iso.week)
    if u > 0.55:
        p *= 1 - 0.18 * (u - 0.55) / 0.45
    for month, first, last, cut in PROMOTIONS:
        if d.month == month and first <= d.day <= last:
            p *= 1 - cut * (0.6 + 0.4 * stable_unit("promo", product_id, d.year, month))
    if p >= 100:
        return float(round(p) - (1 if round(p) % 10 == 0 else 0))
    return round(p, 1)


def tracking_number(carrier: str, serial: int) -> str:
    _, prefix, digits, _, _ = CARRIERS[carrier]
    body = str(int(stable_unit("waybill", carrier, serial) * 10**digits)).zfill(digits)
    return prefix + body


def _at(t: datetime, hour: int, minute: int) -> datetime:
    return t.replace(hour=hour, minute=minute, second=0, microsecond=0)


def parcel_events(
    tracking_no: str, carrier: str, from_city: str, to_city: str, shipped: datetime
) -> list[tuple[datetime, str, str, str]]:
    """Every event of a parcel's life as (time, city, status, text), from pickup to signature."""
    name = CARRIERS[carrier][0]
    u = [stable_unit("parcel", tracking_no, i) for i in range(8)]
    courier = f"{COURIER_SURNAMES[int(u[0] * len(COURIER_SURNAMES))]}师傅"
    phone = f"1{35 + int(u[1] * 50)}****{int(u[2] * 9000) + 1000}"
    ev: list[tuple[datetime, str, str, str]] = [
        (shipped, from_city, "picked_up", f"【{from_city}】{name}快递员{courier}已揽收"),
    ]
    t = shipped + timedelta(minutes=90 + int(u[3] * 150))
    ev.append((t, from_city, "in_transit", f"快件已到达【{from_city}转运中心】"))
    if from_city != to_city:
        t += timedelta(minutes=60 + int(u[4] * 180))
        ev.append(
            (t, from_city, "in_transit", f"快件已从【{from_city}转运中心】发出，下一站【{to_city}转运中心】")
        )
        hours = distance_km(from_city, to_city) * 1.25 / CARRIERS[carrier][3] + 3
        t += timedelta(minutes=int(hours * 60 * (0.9 + 0.3 * u[5])))
        ev.append((t, to_city, "in_transit", f"快件已到达【{to_city}转运中心】"))
    t += timedelta(minutes=120 + int(u[6] * 120))
    out = t if 8 <= t.hour < 17 else _at(t + timedelta(days=1 if t.hour >= 17 else 0), 8, int(u[6] * 50))
    ev.append((out, to_city, "out_for_delivery", f"【{to_city}】快递员{courier}正在派送，电话 {phone}"))
    signer = SIGNERS[int(u[7] * len(SIGNERS))]
    ev.append(
        (
            out + timedelta(minutes=40 + int(u[7] * 200)),
            to_city,
            "delivered",
            f"快件已签收，签收方式：{signer}",
        )
    )
    return ev


def quote_zone(from_city: str, to_city: str) -> tuple[str, float, float, int]:
    """(zone, first-kg price, per extra kg, base transit days) for a standard carrier."""
    if from_city == to_city:
        return "same_city", 8.0, 1.0, 1
    km = distance_km(from_city, to_city)
    if km < 500:
        return "within_500km", 10.0, 2.0, 1
    if km < 1200:
        return "within_1200km", 12.0, 4.0, 2
    if km < 2500:
        return "within_2500km", 15.0, 6.0, 3
    return "remote", 20.0, 10.0, 4


FMT = "%Y-%m-%d %H:%M:%S"
HUBS = ["上海", "北京", "广州", "深圳", "杭州", "武汉", "成都", "苏州", "东莞", "郑州"]
_CONDITIONS = {
    "brand_new": ("全新未拆", 0.85),
    "like_new": ("99新", 0.7),
    "lightly_used": ("9成新", 0.55),
    "used": ("有使用痕迹", 0.35),
}
_NICK_A = ["快乐", "安静", "爱吃", "努力", "佛系", "闲置", "清风", "橘子", "小鹿", "阿木"]
_NICK_B = ["的猫", "小王", "阿姨", "青年", "达人", "店主", "同学", "奶爸", "宝妈", "老李"]
_CREDIT = ["信用极好", "信用优秀", "信用良好"]


def order_number(t: datetime, serial: int, taken: set[str]) -> str:
    """A 16-digit order number that does not read as a date: a leading 3–9, seven digits derived from
    the order's time and the eight random digits ``serial`` (the generator's draw, so the rows after
    it are unchanged). ``taken`` keeps them unique."""
    salt = 0
    while True:
        u = stable_unit("order-no", t.isoformat(), serial, salt)
        oid = f"{3 + int(u * 7)}{int(u * 7 * 10**7) % 10**7:07d}{serial}"
        if oid not in taken:
            taken.add(oid)
            return oid
        salt += 1


def populate_orders(conn: sqlite3.Connection, rng: random.Random, products: list[tuple[Any, ...]]) -> None:
    homes = ["杭州", "杭州", "杭州", "上海", "南京"]
    carriers = sorted(CARRIERS)
    serial = 0
    parcels: list[tuple[Any, ...]] = []
    orders: list[tuple[Any, ...]] = []
    items: list[tuple[Any, ...]] = []
    taken: set[str] = set()
    t = datetime(2020, 1, 1, 9, 0)
    while t < datetime(2031, 1, 1):
        t += timedelta(minutes=rng.randint(3 * 1440, 11 * 1440))
        t = t.replace(hour=rng.randint(7, 23), minute=rng.randint(0, 59), second=rng.randint(0, 59))
        oid = order_number(t, rng.randint(10**7, 10**8 - 1), taken)
        total = 0.0
        first = None
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            p = rng.choice(products)
            first = first or p
            q = rng.choice([1, 1, 1, 2])
            unit = price_on(p[0], p[5], p[3], t.date())
            total += unit * q
            items.append((oid, p[0], q, unit))
        serial += 1
        carrier = "jd" if first and "京选" in first[8] else rng.choice(carriers)
        tn = tracking_number(carrier, serial)
        ship = t + timedelta(minutes=rng.randint(120, 40 * 60))
        city = rng.choice(homes)
        parcels.append((tn, carrier, first[9] if first else "上海", city, ship.strftime(FMT), 1.0))
        flag = "cancelled" if rng.random() < 0.05 else "refunded" if rng.random() < 0.04 else "normal"
        orders.append((oid, t.strftime(FMT), flag, round(total, 2), tn, city))
    cities = sorted(CITIES)
    t = datetime(2020, 1, 1, 8, 0)
    while t < datetime(2031, 1, 1):
        t += timedelta(minutes=rng.randint(60, 40 * 60))
        serial += 1
        carrier = rng.choice(carriers)
        a, b = rng.choice(cities), rng.choice(cities)
        parcels.append(
            (
                tracking_number(carrier, serial),
                carrier,
                a,
                b,
                t.strftime(FMT),
                round(rng.uniform(0.2, 20), 1),
            )
        )
    conn.executemany("INSERT INTO shop_orders VALUES (?,?,?,?,?,?)", orders)
    conn.executemany("INSERT INTO shop_order_items VALUES (?,?,?,?)", items)
    conn.executemany("INSERT OR IGNORE INTO shop_parcels VALUES (?,?,?,?,?,?)", parcels)


def populate_coupons(conn: sqlite3.Connection, rng: random.Random) -> None:
    rows: list[tuple[Any, ...]] = []
    scopes: list[tuple[str, str, str]] = [("platform", "all", "全平台")] * 6
    brands: set[str] = set()
    for cat in sorted(CATEGORIES):
        zh, _, bs = CATEGORIES[cat]
        scopes += [("category", cat, zh)] * 3
        brands.update(bs)
    scopes += [("brand", b, b) for b in sorted(brands)]
    for scope_type, value, label in scopes:
        kind = rng.choice(["full_reduction", "full_reduction", "discount", "no_threshold"])
        if kind == "full_reduction":
            spend = float(rng.choice([99, 199, 299, 399, 599, 999, 1999]))
            amount = float(round(spend * rng.uniform(0.06, 0.18)))
            title = f"{label}满{spend:g}减{amount:g}"
        elif kind == "discount":
            spend, amount = float(rng.choice([0, 99, 199])), rng.choice([0.8, 0.85, 0.88, 0.9, 0.95])
            title = f"{label}{amount * 10:g}折券" + (f"（满{spend:g}可用）" if spend else "")
        else:
            spend, amount = 0.0, float(rng.choice([3, 5, 10, 20]))
            title = f"{label}{amount:g}元无门槛券"
        cycle = rng.choice(["weekly", "monthly", "monthly"])
        start = rng.randint(0, 6) if cycle == "weekly" else rng.randint(1, 25)
        length = rng.randint(1, 3) if cycle == "weekly" else rng.randint(3, 12)
        rows.append(
            (
                f"C{len(rows) + 3001}",
                title,
                scope_type,
                value,
                kind,
                spend,
                amount,
                cycle,
                start,
                length,
                rng.choice([500, 1000, 5000, 20000]),
            )
        )
    conn.executemany("INSERT INTO shop_coupons VALUES (?,?,?,?,?,?,?,?,?,?,?)", rows)


def populate_listings(conn: sqlite3.Connection, rng: random.Random, products: list[tuple[Any, ...]]) -> None:
    cities = sorted(CITIES)
    weights = [{1: 6, 2: 3, 3: 1}[CITIES[c][2]] for c in cities]
    rows: list[tuple[Any, ...]] = []
    for i in range(5000):
        p = rng.choice(products)
        cond = rng.choice(sorted(_CONDITIONS))
        zh, factor = _CONDITIONS[cond]
        reason = rng.choice(["自用", "闲置", "搬家出", "换新了出", "送人的礼物", "公司年会奖品"])
        title = f"{reason} {p[1]} {zh}"
        price = round(p[5] * factor * rng.uniform(0.85, 1.1))
        seller = rng.choice(_NICK_A) + rng.choice(_NICK_B)
        rows.append(
            (
                f"L{i + 500001}",
                title,
                p[3],
                rng.choices(cities, weights)[0],
                price,
                p[5],
                cond,
                seller,
                rng.choice(_CREDIT),
                int(rng.random() < 0.4),
            )
        )
    conn.executemany("INSERT INTO shop_listings VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
