"""Data and astronomy for the weather domain: climate normals, air-quality baselines, typhoon names,
the China AQI breakpoints (HJ 633-2012), and sun/moon computations (NOAA solar equations, a
low-precision lunar position).

Climate normals are compact per-city parameters (January and July mean daily highs/lows, rainy days
a year and their seasonality, humidity, PM2.5 annual mean); ``monthly_normals`` expands them into the
twelve monthly rows the store keeps.
"""

from __future__ import annotations

import math
import random
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo

from ._common import coords

# city: (jan_hi, jan_lo, jul_hi, jul_lo, rain_days_per_year, wet_peak_month, seasonality, humidity%, pm25)
# fmt: off
CLIMATE: dict[str, tuple[float, float, float, float, int, int, float, int, int]] = {
    "北京": (2, -8, 31, 22, 70, 7, 0.8, 55, 34), "上海": (8, 2, 32, 25, 125, 6, 0.35, 75, 28),
    "广州": (18, 10, 33, 26, 150, 6, 0.55, 77, 24), "深圳": (20, 12, 32, 26, 140, 7, 0.6, 76, 19),
    "天津": (2, -7, 31, 23, 65, 7, 0.8, 60, 41), "重庆": (10, 6, 34, 25, 150, 6, 0.4, 80, 36),
    "成都": (10, 3, 30, 22, 140, 7, 0.55, 82, 39), "杭州": (8, 2, 34, 25, 145, 6, 0.3, 76, 29),
    "南京": (7, -1, 32, 24, 120, 7, 0.35, 75, 31), "武汉": (8, 1, 33, 26, 120, 6, 0.4, 76, 37),
    "西安": (6, -4, 33, 22, 90, 7, 0.55, 65, 45), "长沙": (9, 3, 34, 26, 140, 5, 0.35, 79, 38),
    "郑州": (6, -3, 32, 24, 80, 7, 0.6, 63, 46), "济南": (4, -5, 32, 24, 75, 7, 0.75, 58, 40),
    "青岛": (3, -3, 27, 22, 80, 7, 0.7, 72, 28), "沈阳": (-5, -17, 29, 20, 85, 7, 0.8, 64, 36),
    "大连": (0, -8, 27, 21, 75, 7, 0.8, 66, 27), "哈尔滨": (-13, -24, 28, 19, 100, 7, 0.75, 67, 35),
    "长春": (-10, -21, 28, 18, 95, 7, 0.75, 65, 33), "石家庄": (3, -7, 32, 23, 65, 7, 0.8, 60, 49),
    "太原": (2, -10, 29, 18, 75, 7, 0.7, 58, 43), "呼和浩特": (-5, -17, 28, 16, 70, 7, 0.8, 52, 30),
    "合肥": (7, 0, 32, 25, 115, 6, 0.35, 76, 35), "福州": (15, 8, 34, 26, 150, 6, 0.45, 75, 21),
    "厦门": (17, 10, 32, 26, 120, 6, 0.5, 76, 20), "南昌": (9, 3, 34, 26, 145, 5, 0.4, 77, 31),
    "南宁": (17, 10, 33, 25, 150, 6, 0.5, 79, 27), "海口": (21, 15, 33, 26, 145, 8, 0.6, 83, 14),
    "三亚": (26, 19, 32, 26, 110, 8, 0.75, 80, 12), "贵阳": (8, 2, 28, 19, 170, 6, 0.35, 78, 24),
    "昆明": (15, 3, 24, 17, 130, 7, 0.8, 72, 22), "拉萨": (8, -9, 23, 10, 85, 7, 0.9, 40, 11),
    "兰州": (2, -11, 30, 17, 70, 7, 0.75, 52, 35), "西宁": (1, -14, 24, 11, 90, 7, 0.8, 56, 32),
    "银川": (0, -13, 30, 18, 55, 7, 0.8, 52, 31), "乌鲁木齐": (-7, -16, 30, 18, 95, 6, 0.3, 58, 41),
    "苏州": (8, 1, 33, 25, 130, 6, 0.35, 77, 30), "无锡": (7, 0, 33, 25, 125, 6, 0.35, 76, 31),
    "宁波": (9, 2, 33, 25, 150, 6, 0.3, 78, 25), "温州": (12, 5, 32, 25, 155, 6, 0.35, 78, 25),
    "东莞": (19, 11, 33, 26, 145, 6, 0.55, 77, 24), "佛山": (18, 10, 33, 26, 150, 6, 0.55, 77, 27),
    "珠海": (19, 12, 32, 26, 140, 7, 0.6, 79, 19), "桂林": (12, 6, 33, 25, 165, 5, 0.45, 76, 29),
    "丽江": (12, -1, 24, 15, 120, 7, 0.85, 60, 15), "洛阳": (6, -3, 32, 23, 85, 7, 0.6, 63, 44),
    "烟台": (2, -4, 28, 22, 80, 7, 0.7, 67, 24), "徐州": (6, -3, 32, 24, 95, 7, 0.6, 70, 41),
    # foreign places the forecast and almanac tools also serve (PM2.5 unused: air quality is domestic)
    "香港": (19, 14, 32, 27, 135, 7, 0.6, 78, 17), "澳门": (18, 13, 32, 27, 130, 7, 0.6, 79, 18),
    "台北": (19, 13, 34, 26, 175, 6, 0.3, 77, 15), "东京": (10, 1, 31, 23, 110, 6, 0.3, 65, 12),
    "大阪": (9, 2, 32, 24, 105, 6, 0.3, 64, 13), "首尔": (2, -6, 29, 22, 105, 7, 0.55, 65, 20),
    "新加坡": (30, 24, 31, 25, 170, 12, 0.2, 83, 14), "曼谷": (32, 22, 33, 26, 110, 9, 0.7, 73, 25),
    "伦敦": (8, 2, 23, 14, 150, 11, 0.15, 78, 10), "巴黎": (7, 3, 25, 15, 150, 5, 0.1, 75, 12),
    "纽约": (4, -3, 29, 21, 120, 7, 0.1, 63, 8), "悉尼": (26, 19, 17, 8, 140, 6, 0.25, 68, 7),
}

TIMEZONES: dict[str, str] = {
    "香港": "Asia/Hong_Kong", "澳门": "Asia/Macau", "台北": "Asia/Taipei", "东京": "Asia/Tokyo",
    "大阪": "Asia/Tokyo", "首尔": "Asia/Seoul", "新加坡": "Asia/Singapore", "曼谷": "Asia/Bangkok",
    "伦敦": "Europe/London", "巴黎": "Europe/Paris", "纽约": "America/New_York", "悉尼": "Australia/Sydney",
}
# fmt: on


def tz_of(city: str) -> ZoneInfo:
    return ZoneInfo(TIMEZONES.get(city, "Asia/Shanghai"))


def monthly_normals(city: str) -> list[tuple[int, float, float, float, float, int]]:
    """(month, mean high, mean low, rainy days, precipitation mm, humidity %) for the 12 months."""
    jh, jl, uh, ul, rain, peak, k, hum, _ = CLIMATE[city]
    weights = [1 + k * math.cos(2 * math.pi * (m - peak) / 12) for m in range(1, 13)]
    total = sum(weights)
    out = []
    for m in range(1, 13):
        c = math.cos(2 * math.pi * (m - 1) / 12)
        hi = (jh + uh) / 2 - (uh - jh) / 2 * c
        lo = (jl + ul) / 2 - (ul - jl) / 2 * c
        days = min(rain * weights[m - 1] / total, 26.0)
        mm = days * (4.0 + max(hi, 0) * 0.35 + (hum - 50) * 0.08)
        h = min(95, max(25, round(hum + 8 * (weights[m - 1] - 1))))
        out.append((m, round(hi, 1), round(lo, 1), round(days, 1), round(mm, 1), h))
    return out


# Typhoon names (rotated through the season's numbering); tracks in the store are simulated.
TYPHOON_NAMES: list[str] = [
    "达维",
    "海葵",
    "鸣蝉",
    "珍珠",
    "杜苏芮",
    "卡努",
    "兰恩",
    "苏拉",
    "达维斯",
    "鸳鸯",
    "小犬",
    "布拉万",
    "三巴",
    "杰拉华",
    "艾云尼",
    "马力斯",
    "格美",
    "派比安",
    "玛莉亚",
    "山神",
    "安比",
    "悟空",
    "云雀",
    "珊珊",
    "摩羯",
    "丽琵",
    "贝碧嘉",
    "温比亚",
    "苏力",
    "西马仑",
    "飞燕",
    "潭美",
    "康妮",
    "银杏",
    "桃芝",
    "万宜",
    "天兔",
    "帕布",
    "蝴蝶",
    "圣帕",
    "丹娜丝",
    "百合",
    "韦帕",
    "范斯高",
    "竹节草",
    "罗莎",
    "剑鱼",
    "玲玲",
    "杨柳",
    "米娜",
    "海贝思",
    "浣熊",
    "博罗依",
    "麦德姆",
    "娜基莉",
    "风神",
    "凤凰",
    "北冕",
    "巴蓬",
    "黄蜂",
    "美莎克",
    "海神",
    "红霞",
    "白鹿",
    "灿鸿",
    "莲花",
    "米克拉",
    "海高斯",
    "巴威",
    "森拉克",
    "黑格比",
    "蔷薇",
    "沙德尔",
    "天鹅",
    "艾莎尼",
    "环高",
    "科罗旺",
    "杜鹃",
    "舒力基",
    "彩云",
    "小熊",
    "查帕卡",
    "烟花",
    "卢碧",
    "银河",
    "妮妲",
    "奥麦斯",
    "康森",
    "灿都",
    "蒲公英",
    "圆规",
    "南川",
    "玛瑙",
    "妮亚图",
    "雷伊",
    "马勒卡",
    "鲇鱼",
    "艾利",
    "桑达",
    "暹芭",
    "木兰",
    "马鞍",
    "蝎虎",
    "米雷",
    "梅花",
    "苗柏",
    "南玛都",
    "塔拉斯",
    "奥鹿",
    "洛克",
    "尼格",
    "榕树",
    "海燕",
    "黄蜂鸟",
    "泰利",
    "古超",
    "玛娃",
    "巴威尔",
    "卡努拉",
    "珊瑚",
    "卡莉",
    "南卡",
]

# China's Ambient Air Quality Index (HJ 633-2012): IAQI breakpoints, 24-hour means (O3: 8-hour).
IAQI_LEVELS = (0, 50, 100, 150, 200, 300, 400, 500)
AQI_BREAKPOINTS: dict[str, tuple[float, ...]] = {
    "so2": (0, 50, 150, 475, 800, 1600, 2100, 2620),
    "no2": (0, 40, 80, 180, 280, 565, 750, 940),
    "pm10": (0, 50, 150, 250, 350, 420, 500, 600),
    "co": (0, 2, 4, 14, 24, 36, 48, 60),
    "o3": (0, 100, 160, 215, 265, 800),
    "pm25": (0, 35, 75, 115, 150, 250, 350, 500),
}
AQI_CATEGORIES = (
    (50, "excellent", "优", "空气质量令人满意，基本无空气污染，各类人群可正常活动"),
    (100, "good", "良", "极少数异常敏感人群应减少户外活动"),
    (150, "light", "轻度污染", "儿童、老年人及心脏病、呼吸系统疾病患者应减少长时间、高强度的户外锻炼"),
    (200, "moderate", "中度污染", "儿童、老年人及心脏病、呼吸系统疾病患者避免长时间、高强度的户外锻炼"),
    (300, "heavy", "重度污染", "儿童、老年人和病人应停留在室内，一般人群减少户外运动"),
    (10**6, "severe", "严重污染", "儿童、老年人和病人应留在室内，避免体力消耗，一般人群避免户外活动"),
)


def iaqi(pollutant: str, conc: float) -> int:
    bp = AQI_BREAKPOINTS[pollutant]
    if conc >= bp[-1]:
        return IAQI_LEVELS[len(bp) - 1]
    for i in range(1, len(bp)):
        if conc <= bp[i]:
            lo, hi = bp[i - 1], bp[i]
            return math.ceil(
                IAQI_LEVELS[i - 1] + (IAQI_LEVELS[i] - IAQI_LEVELS[i - 1]) * (conc - lo) / (hi - lo)
            )
    return IAQI_LEVELS[-1]  # pragma: no cover


# --- the sun: NOAA solar calculator equations ---------------------------------------------------------


def _julian_day(d: date) -> float:
    return d.toordinal() + 1721424.5  # JD at 00:00 UTC


def _sun_params(jd: float) -> tuple[float, float]:
    """(declination in degrees, equation of time in minutes) at Julian day ``jd``."""
    t = (jd - 2451545.0) / 36525.0
    l0 = (280.46646 + t * (36000.76983 + t * 0.0003032)) % 360
    m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
    e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    mr = math.radians(m)
    c = (
        math.sin(mr) * (1.914602 - t * (0.004817 + 0.000014 * t))
        + math.sin(2 * mr) * (0.019993 - 0.000101 * t)
        + math.sin(3 * mr) * 0.000289
    )
    omega = math.radians(125.04 - 1934.136 * t)
    lam = math.radians(l0 + c - 0.00569 - 0.00478 * math.sin(omega))
    eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
    eps = math.radians(eps0 + 0.00256 * math.cos(omega))
    decl = math.degrees(math.asin(math.sin(eps) * math.sin(lam)))
    y = math.tan(eps / 2) ** 2
    l0r = math.radians(l0)
    eot = 4 * math.degrees(
        y * math.sin(2 * l0r)
        - 2 * e * math.sin(mr)
        + 4 * e * y * math.sin(mr) * math.cos(2 * l0r)
        - 0.5 * y * y * math.sin(4 * l0r)
        - 1.25 * e * e * math.sin(2 * mr)
    )
    return decl, eot


def sun_events(lat: float, lon: float, d: date) -> dict[str, float | None]:
    """UTC minutes after 00:00 UTC of ``d``: solar noon, sunrise/sunset (zenith 90.833°), civil dawn/dusk
    (96°); also the noon solar elevation in degrees. None where the sun does not cross."""
    noon = 720 - 4 * lon
    decl, eot = _sun_params(_julian_day(d) + noon / 1440)
    noon = 720 - 4 * lon - eot
    decl, eot = _sun_params(_julian_day(d) + noon / 1440)
    noon = 720 - 4 * lon - eot
    out: dict[str, float | None] = {"noon": noon, "elevation": 90 - abs(lat - decl)}
    la, de = math.radians(lat), math.radians(decl)
    for name, zenith in (("sunrise", 90.833), ("civil", 96.0)):
        x = math.cos(math.radians(zenith)) / (math.cos(la) * math.cos(de)) - math.tan(la) * math.tan(de)
        ha = math.degrees(math.acos(x)) if -1 <= x <= 1 else None
        if name == "sunrise":
            out["sunrise"] = None if ha is None else noon - 4 * ha
            out["sunset"] = None if ha is None else noon + 4 * ha
        else:
            out["dawn"] = None if ha is None else noon - 4 * ha
            out["dusk"] = None if ha is None else noon + 4 * ha
    return out


def utc_minutes_to_local(d: date, minutes: float, tz: ZoneInfo) -> datetime:
    base = datetime(d.year, d.month, d.day, tzinfo=UTC)
    return (base + timedelta(seconds=round(minutes * 60))).astimezone(tz)


# --- the moon: low-precision position (errors of a few arc-minutes), phase from the synodic month -----

SYNODIC_MONTH = 29.530588853
_NEW_MOON_JD = 2451550.26  # 2000-01-06 18:14 UTC
MOON_PHASES = (
    (1.0, "new_moon", "新月"),
    (6.4, "waxing_crescent", "峨眉月"),
    (8.4, "first_quarter", "上弦月"),
    (13.8, "waxing_gibbous", "盈凸月"),
    (15.8, "full_moon", "满月"),
    (21.1, "waning_gibbous", "亏凸月"),
    (23.1, "last_quarter", "下弦月"),
    (28.5, "waning_crescent", "残月"),
    (99.0, "new_moon", "新月"),
)


def moon_phase(jd: float) -> tuple[float, float, str, str]:
    """(age in days, illuminated fraction, phase id, Chinese phase name)."""
    age = (jd - _NEW_MOON_JD) % SYNODIC_MONTH
    illum = (1 - math.cos(2 * math.pi * age / SYNODIC_MONTH)) / 2
    for limit, pid, zh in MOON_PHASES:
        if age < limit:
            return age, illum, pid, zh
    return age, illum, "new_moon", "新月"  # pragma: no cover


def _moon_altitude(jd: float, lat: float, lon: float) -> float:
    d = jd - 2451545.0
    rad = math.pi / 180
    lm = rad * (218.316 + 13.176396 * d)
    mm = rad * (134.963 + 13.064993 * d)
    f = rad * (93.272 + 13.229350 * d)
    lon_ecl = lm + rad * 6.289 * math.sin(mm)
    lat_ecl = rad * 5.128 * math.sin(f)
    e = rad * 23.4397
    ra = math.atan2(math.sin(lon_ecl) * math.cos(e) - math.tan(lat_ecl) * math.sin(e), math.cos(lon_ecl))
    dec = math.asin(math.sin(lat_ecl) * math.cos(e) + math.cos(lat_ecl) * math.sin(e) * math.sin(lon_ecl))
    theta = rad * (280.16 + 360.9856235 * d) + rad * lon
    h = theta - ra
    phi = rad * lat
    alt = math.asin(math.sin(phi) * math.sin(dec) + math.cos(phi) * math.cos(dec) * math.cos(h))
    return math.degrees(alt)


def moon_rise_set(
    lat: float, lon: float, local_midnight_utc: datetime
) -> tuple[datetime | None, datetime | None]:
    """Moonrise and moonset (UTC) within the 24 hours after ``local_midnight_utc``; None if absent."""
    jd0 = local_midnight_utc.timestamp() / 86400 + 2440587.5
    h0 = 0.133  # the moon's upper limb with refraction and parallax, degrees
    step = 10 / 1440
    prev = _moon_altitude(jd0, lat, lon) - h0
    rise: datetime | None = None
    set_: datetime | None = None
    for i in range(1, 145):
        cur = _moon_altitude(jd0 + i * step, lat, lon) - h0
        if (prev < 0 <= cur and rise is None) or (prev >= 0 > cur and set_ is None):
            frac = prev / (prev - cur)
            t = local_midnight_utc + timedelta(minutes=(i - 1 + frac) * 10)
            if prev < 0:
                rise = t
            else:
                set_ = t
        prev = cur
    return rise, set_


# --- typhoon tracks ------------------------------------------------------------------------------

_COASTAL = ["上海", "广州", "深圳", "宁波", "温州", "福州", "厦门", "海口", "三亚", "珠海", "青岛", "大连",
            "烟台", "香港", "澳门", "台北", "东京", "大阪", "首尔"]  # fmt: skip
_CN = timezone(timedelta(hours=8))


def pressure_hpa(wind_ms: float) -> int:
    """Atkinson–Holliday wind–pressure relation, wind in knots."""
    return round(1010 - math.pow(wind_ms * 1.944 / 6.7, 1 / 0.644))


def _over_land(lat: float, lon: float) -> bool:
    """Roughly the mainland coast of southern and eastern China and Indochina."""
    return (
        lon < 108.5
        or (lat > 22.6 and lon < 116.5)
        or (lat > 24.5 and lon < 119.3)
        or (lat > 28 and lon < 121.3)
    )


def make_track(
    rng: random.Random, t0: datetime
) -> tuple[list[tuple[str, float, float, float, int]], str | None]:
    scs = rng.random() < 0.2
    lat, lon = (
        (rng.uniform(12, 19), rng.uniform(110, 118)) if scs else (rng.uniform(8, 20), rng.uniform(126, 152))
    )
    heading = rng.uniform(280, 315)  # compass degrees: west-north-west
    recurve_lat = rng.uniform(21, 30)
    speed = rng.uniform(14, 24)  # km/h
    peak = rng.choice([19.0, 23.0, 28.0, 33.0, 38.0, 45.0, 52.0, 58.0, 65.0]) + rng.uniform(-2, 2)
    wind, landed, landfall = rng.uniform(12.5, 16.0), False, None
    points: list[tuple[str, float, float, float, int]] = []
    for i in range(rng.randint(14, 48)):
        t = t0 + timedelta(hours=6 * i)
        points.append(
            (
                t.isoformat(timespec="minutes"),
                round(lat, 1),
                round(lon, 1),
                round(wind, 1),
                pressure_hpa(wind),
            )
        )
        if lat > recurve_lat:
            heading = (heading + rng.uniform(6, 14)) % 360 if heading > 180 or heading < 45 else heading
            speed = min(speed + 2, 45)
        else:  # slow poleward drift on the way west
            heading = min(heading + rng.uniform(0, 3), 335)
        km = speed * 6
        lat += km * math.cos(math.radians(heading)) / 111
        lon += km * math.sin(math.radians(heading)) / (111 * math.cos(math.radians(lat)))
        near = [c for c in _COASTAL if track_km(lat, lon, c) < 70]
        if near and not landed:
            landed, landfall = True, near[0]
        if landed or lat > 32 or _over_land(lat, lon):
            wind *= rng.uniform(0.72, 0.85)
        elif wind < peak:
            wind = min(peak, wind + rng.uniform(1.5, 4.5))
        else:
            wind *= rng.uniform(0.93, 1.0)
        if wind < 10.8 or lat > 42:
            break
    return points, landfall


def track_km(lat: float, lon: float, city: str) -> float:
    la, lo = coords(city)
    p1, p2 = math.radians(lat), math.radians(la)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(lo - lon) / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(h))


_GRADES = [(51.0, "super_typhoon", "超强台风"), (41.5, "severe_typhoon", "强台风"), (32.7, "typhoon", "台风"),
           (24.5, "severe_tropical_storm", "强热带风暴"), (17.2, "tropical_storm", "热带风暴"),
           (0.0, "tropical_depression", "热带低压")]  # fmt: skip
_BEAUFORT = [10.8, 13.9, 17.2, 20.8, 24.5, 28.5, 32.7, 37.0, 41.5, 46.2, 51.0, 56.1, 61.3]


def grade(wind: float) -> tuple[str, str, int]:
    gid, zh = next((g, z) for lim, g, z in _GRADES if wind >= lim)
    return gid, zh, 5 + sum(1 for b in _BEAUFORT if wind >= b)


# --- life indices --------------------------------------------------------------------------------

WET = {"light_rain", "moderate_rain", "heavy_rain", "rainstorm", "thunder_shower", "sleet", "light_snow",
        "moderate_snow", "heavy_snow"}  # fmt: skip


_COLD: list[tuple[str, str]] = [
    ("少发", "各项气象条件适宜，发生感冒几率较低"),
    ("较易发", "昼夜温差较大，注意适当增减衣物"),
    ("易发", "天气变化明显，易发生感冒，请注意防护"),
    ("极易发", "天气变化剧烈，极易感冒，注意保暖防寒"),
]


def life_index(
    kind: str, w: dict[str, Any], nxt: list[dict[str, Any]], prev: dict[str, Any]
) -> tuple[str, str]:
    hi, lo, wet = w["temp_high_c"], w["temp_low_c"], w["condition"] in WET
    mean = (hi + lo) / 2
    if kind == "dressing":
        scale = [(28, "炎热", "建议穿短衫、短裤等清凉夏季服装"), (24, "热", "适宜穿T恤、薄长裙等夏季服装"),
                 (21, "舒适", "建议穿长袖衬衫、单裤等服装"), (17, "较舒适", "建议穿薄外套或牛仔衫裤"),
                 (12, "较冷", "建议穿夹克、风衣加毛衣等服装"), (5, "冷", "建议穿棉衣、冬大衣或羽绒服"),
                 (-99, "寒冷", "天气寒冷，建议穿厚羽绒服、帽子、手套等保暖衣物")]  # fmt: skip
        return next((lvl, adv) for t, lvl, adv in scale if mean >= t)
    if kind == "uv":
        uv = w["uv_index"]
        scale2 = [(10, "很强", "避免在10点至14点暴露于日光下，需涂擦SPF30以上防晒霜"), (7, "强", "外出请涂擦SPF20以上防晒霜，戴遮阳帽"),
                  (5, "中等", "外出建议涂擦SPF15左右的防晒霜"), (3, "弱", "紫外线强度较弱，外出可适当防护"),
                  (0, "最弱", "紫外线很弱，无需特别防护")]  # fmt: skip
        return next((lvl, adv) for t, lvl, adv in scale2 if uv >= t)
    if kind == "car_wash":
        if wet:
            return "不宜", "今天有降水，不宜洗车"
        if any(x["condition"] in WET for x in nxt):
            return "较不宜", "未来两天有降水，洗车后可能被雨水弄脏"
        return (
            ("适宜", "天气较好，适合洗车") if w["wind_level"] <= 4 else ("较适宜", "风力较大，洗车后容易蒙尘")
        )
    if kind == "sport":
        if wet or hi >= 35 or hi <= -5:
            return "较不宜", "天气条件不佳，建议选择室内运动"
        if 12 <= mean <= 26 and w["wind_level"] <= 4:
            return "适宜", "天气不错，适宜户外运动"
        return "较适宜", "户外运动请注意防暑或保暖"
    if kind == "cold_risk":
        swing = abs(mean - (prev["temp_high_c"] + prev["temp_low_c"]) / 2)
        score = int(hi - lo >= 10) + int(swing >= 4) + int(mean < 5) + int(swing >= 7)
        return _COLD[min(score, 3)]
    if kind == "umbrella":
        if wet:
            return "带伞", f"有{w['condition_zh']}，出门请带雨具"
        return (
            ("建议带伞", "有降水可能，建议备伞")
            if w["precip_prob"] >= 40
            else ("不用带伞", "降水可能性小，无需带伞")
        )
    if kind == "drying":
        if wet:
            return "不宜", "有降水，不适宜晾晒"
        if w["condition"] == "sunny" and w["humidity"] < 70:
            return "适宜", "天气晴好，适宜晾晒"
        return "基本适宜", "天气条件一般，可适当晾晒"
    # travel
    if wet and w["precip_mm"] >= 10:
        return "较不宜", "有较强降水，出行请注意安全"
    return ("适宜", "天气较好，适宜出游") if not wet and 8 <= mean <= 28 else ("较适宜", "出游请关注天气变化")


INDEX_ZH = {"dressing": "穿衣指数", "uv": "紫外线指数", "car_wash": "洗车指数", "sport": "运动指数",
             "cold_risk": "感冒指数", "umbrella": "雨伞指数", "drying": "晾晒指数", "travel": "旅游指数"}  # fmt: skip
