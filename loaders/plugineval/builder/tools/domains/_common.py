"""Shared facts for domain modules: cities with coordinates, distances, name canonicalization."""

from __future__ import annotations

import math
from collections.abc import Container
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..runtime import ToolCtx

# The signed-in account a booking is made for when the caller leaves the person out: its holder (the
# catalog's ``default: 本人`` for a name), the phone bound to it (a contact phone left out) and the
# home address saved on it (a service or delivery address left out; the city is still said, so the
# same street address stands for the account's home in whichever city the call names).
ACCOUNT_HOLDER = "本人"
ACCOUNT_PHONE = "13957108826"
ACCOUNT_ADDRESS = "锦绣家园5栋1单元802"

# name: (latitude, longitude, tier). Mainland cities the stores cover.
CITIES: dict[str, tuple[float, float, int]] = {
    "北京": (39.90, 116.40, 1),
    "上海": (31.23, 121.47, 1),
    "广州": (23.13, 113.26, 1),
    "深圳": (22.54, 114.06, 1),
    "天津": (39.13, 117.20, 2),
    "重庆": (29.56, 106.55, 2),
    "成都": (30.57, 104.07, 2),
    "杭州": (30.27, 120.15, 2),
    "南京": (32.06, 118.80, 2),
    "武汉": (30.59, 114.31, 2),
    "西安": (34.34, 108.94, 2),
    "长沙": (28.23, 112.94, 2),
    "郑州": (34.75, 113.62, 2),
    "济南": (36.65, 117.12, 2),
    "青岛": (36.07, 120.38, 2),
    "沈阳": (41.80, 123.43, 2),
    "大连": (38.91, 121.61, 2),
    "哈尔滨": (45.80, 126.53, 2),
    "长春": (43.82, 125.32, 3),
    "石家庄": (38.04, 114.51, 3),
    "太原": (37.87, 112.55, 3),
    "呼和浩特": (40.84, 111.75, 3),
    "合肥": (31.82, 117.23, 2),
    "福州": (26.07, 119.30, 3),
    "厦门": (24.48, 118.09, 2),
    "南昌": (28.68, 115.86, 3),
    "南宁": (22.82, 108.32, 3),
    "海口": (20.04, 110.20, 3),
    "三亚": (18.25, 109.51, 3),
    "贵阳": (26.65, 106.63, 3),
    "昆明": (24.88, 102.83, 2),
    "拉萨": (29.65, 91.13, 3),
    "兰州": (36.06, 103.83, 3),
    "西宁": (36.62, 101.78, 3),
    "银川": (38.49, 106.23, 3),
    "乌鲁木齐": (43.83, 87.62, 3),
    "苏州": (31.30, 120.59, 2),
    "无锡": (31.49, 120.31, 3),
    "宁波": (29.87, 121.55, 2),
    "温州": (28.00, 120.70, 3),
    "东莞": (23.02, 113.75, 3),
    "佛山": (23.02, 113.12, 3),
    "珠海": (22.27, 113.58, 3),
    "桂林": (25.27, 110.29, 3),
    "丽江": (26.86, 100.23, 3),
    "洛阳": (34.62, 112.45, 3),
    "烟台": (37.46, 121.45, 3),
    "徐州": (34.26, 117.18, 3),
}
# A few places outside the mainland, for tools that do serve them (flights, weather, FX).
FOREIGN_CITIES: dict[str, tuple[float, float, str]] = {
    "香港": (22.32, 114.17, "HK"),
    "澳门": (22.20, 113.55, "MO"),
    "台北": (25.03, 121.57, "TW"),
    "东京": (35.68, 139.69, "JP"),
    "大阪": (34.69, 135.50, "JP"),
    "首尔": (37.57, 126.98, "KR"),
    "新加坡": (1.35, 103.82, "SG"),
    "曼谷": (13.76, 100.50, "TH"),
    "伦敦": (51.51, -0.13, "GB"),
    "巴黎": (48.86, 2.35, "FR"),
    "纽约": (40.71, -74.01, "US"),
    "悉尼": (-33.87, 151.21, "AU"),
}


def canonical_city(name: str) -> str | None:
    """The store's name for a city ("北京市", "Beijing" -> "北京"), or None when not covered."""
    s = name.strip()
    if s in CITIES or s in FOREIGN_CITIES:
        return s
    try:
        from plugineval.normalize import canonical_place

        c = canonical_place(s)
    except ImportError:  # pragma: no cover - the normalizers ship with the core
        c = None
    if c is not None and (c in CITIES or c in FOREIGN_CITIES):
        return c
    for suffix in ("市", "站"):
        if s.endswith(suffix) and s[: -len(suffix)] in CITIES:
            return s[: -len(suffix)]
    return None


class CityArgument:
    """A city argument's check, one per domain: ``check(ctx, value, arg)`` is the store's name for the
    city when ``covered`` has it; otherwise the call fails with ``UNKNOWN_CITY`` and the domain's own
    ``unknown`` message, a ``str.format`` template of ``value`` (what the call said) and ``arg`` (the
    argument's name)."""

    def __init__(self, unknown: str, covered: Container[str] = CITIES) -> None:
        self.unknown = unknown
        self.covered = covered

    def __call__(self, ctx: ToolCtx, value: Any, arg: str = "city") -> str:
        c = canonical_city(str(value))
        if c is None or c not in self.covered:
            ctx.fail("UNKNOWN_CITY", self.unknown.format(value=value, arg=arg))
        return c


def coords(city: str) -> tuple[float, float]:
    if city in CITIES:
        lat, lon, _ = CITIES[city]
    else:
        lat, lon, _c = FOREIGN_CITIES[city]
    return lat, lon


def distance_km(a: str, b: str) -> float:
    """Great-circle distance between two covered cities."""
    (la1, lo1), (la2, lo2) = coords(a), coords(b)
    p1, p2 = math.radians(la1), math.radians(la2)
    dp, dl = p2 - p1, math.radians(lo2 - lo1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def hhmm(minutes: int) -> str:
    minutes %= 24 * 60
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def parse_hhmm(s: str) -> int:
    h, m = s.split(":")[:2]
    return int(h) * 60 + int(m)
