"""天气 weather: forecasts, hourly forecasts, history, air quality, life indices, typhoons, sun and moon.

The store keeps each city's monthly climate normals; a date's weather is derived deterministically
from the normals (interpolated between mid-months) and noise keyed by (city, date), so forecasts,
history and the indices built on them agree for any date 2020–2030. Typhoon seasons 2020–2030 are
generated once (6-hourly track points). Sunrise and sunset follow the NOAA solar equations.
"""

from __future__ import annotations

import math
import random
import sqlite3
from calendar import monthrange
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

from ..runtime import ToolCtx, handler, stable_unit
from ._common import CITIES, CityArgument, coords
from .weather_data import (
    AQI_CATEGORIES,
    CLIMATE,
    INDEX_ZH,
    TYPHOON_NAMES,
    WET,
    grade,
    iaqi,
    life_index,
    make_track,
    monthly_normals,
    moon_phase,
    moon_rise_set,
    sun_events,
    track_km,
    tz_of,
    utc_minutes_to_local,
)

STORE_VERSION = "2"
SCHEMA_SQL = """
CREATE TABLE weather_cities (
    city TEXT PRIMARY KEY, lat REAL NOT NULL, lon REAL NOT NULL, timezone TEXT NOT NULL,
    domestic INTEGER NOT NULL, pm25_annual REAL NOT NULL
);
CREATE TABLE weather_normals (
    city TEXT NOT NULL, month INTEGER NOT NULL, high_c REAL NOT NULL, low_c REAL NOT NULL,
    rain_days REAL NOT NULL, precip_mm REAL NOT NULL, humidity INTEGER NOT NULL, PRIMARY KEY (city, month)
);
CREATE TABLE typhoons (
    typhoon_id TEXT PRIMARY KEY, year INTEGER NOT NULL, name TEXT NOT NULL, start_time TEXT NOT NULL,
    end_time TEXT NOT NULL, landfall_city TEXT
);
CREATE INDEX typhoon_year ON typhoons(year, name);
CREATE TABLE typhoon_points (
    typhoon_id TEXT NOT NULL, seq INTEGER NOT NULL, time TEXT NOT NULL, lat REAL NOT NULL, lon REAL NOT NULL,
    wind_ms REAL NOT NULL, pressure_hpa INTEGER NOT NULL, PRIMARY KEY (typhoon_id, seq)
);
"""

_CN = timezone(timedelta(hours=8))
_CONDITIONS = {
    "sunny": "晴",
    "partly_cloudy": "多云",
    "overcast": "阴",
    "fog": "雾",
    "light_rain": "小雨",
    "moderate_rain": "中雨",
    "heavy_rain": "大雨",
    "rainstorm": "暴雨",
    "thunder_shower": "雷阵雨",
    "sleet": "雨夹雪",
    "light_snow": "小雪",
    "moderate_snow": "中雪",
    "heavy_snow": "大雪",
}
_DIRS = ["北风", "东北风", "东风", "东南风", "南风", "西南风", "西风", "西北风"]
_HIGHLAND = {"拉萨": 1.35, "西宁": 1.2, "丽江": 1.25, "昆明": 1.15, "贵阳": 1.05}


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    for city in sorted(CLIMATE):
        lat, lon = coords(city)
        conn.execute(
            "INSERT INTO weather_cities VALUES (?,?,?,?,?,?)",
            (city, lat, lon, tz_of(city).key, int(city in CITIES), CLIMATE[city][8]),
        )
        conn.executemany(
            "INSERT INTO weather_normals VALUES (?,?,?,?,?,?,?)", [(city, *m) for m in monthly_normals(city)]
        )
    name_i = 0
    for year in range(2020, 2031):
        starts = sorted(
            min(max(rng.gauss(235, 50), 15), 350) + rng.random() for _ in range(rng.randint(20, 28))
        )  # day of year
        for seq, doy in enumerate(starts, 1):
            tid = f"{year % 100:02d}{seq:02d}"
            t0 = datetime(year, 1, 1, tzinfo=_CN) + timedelta(days=int(doy), hours=6 * rng.randrange(4))
            points, landfall = make_track(rng, t0)
            name = TYPHOON_NAMES[name_i % len(TYPHOON_NAMES)]
            name_i += 1
            conn.execute(
                "INSERT INTO typhoons VALUES (?,?,?,?,?,?)",
                (tid, year, name, points[0][0], points[-1][0], landfall),
            )
            conn.executemany(
                "INSERT INTO typhoon_points VALUES (?,?,?,?,?,?,?)",
                [(tid, i, *p) for i, p in enumerate(points)],
            )


# --- the daily weather model ----------------------------------------------------------------------


_city = CityArgument("暂无“{value}”的天气数据，请换一个城市（支持全国主要城市及部分境外城市）", CLIMATE)


def _normals(ctx: ToolCtx, city: str) -> list[Any]:
    return ctx.query("SELECT * FROM weather_normals WHERE city=? ORDER BY month", (city,))


def _normal_on(normals: list[Any], d: date) -> tuple[float, float, float, float]:
    """(high, low, rain probability, humidity) interpolated between the mid-months around ``d``."""
    pos = d.month - 1 + (d.day - 0.5) / monthrange(d.year, d.month)[1] - 0.5
    i0 = math.floor(pos) % 12
    i1 = (i0 + 1) % 12
    f = pos - math.floor(pos)
    a, b = normals[i0], normals[i1]
    rain = (1 - f) * a["rain_days"] / monthrange(2021, i0 + 1)[1] + f * b["rain_days"] / monthrange(
        2021, i1 + 1
    )[1]
    return (
        (1 - f) * a["high_c"] + f * b["high_c"],
        (1 - f) * a["low_c"] + f * b["low_c"],
        rain,
        (1 - f) * a["humidity"] + f * b["humidity"],
    )


def _noise(*keys: object) -> float:
    return 2 * stable_unit(*keys) - 1


def _uv(city: str, d: date, cond: str) -> int:
    lat, lon = coords(city)
    elev = float(sun_events(lat, lon, d)["elevation"] or 0.0)
    cloud = {"sunny": 1.0, "partly_cloudy": 0.8, "overcast": 0.5, "fog": 0.45}.get(cond, 0.3)
    uv = 12.5 * math.pow(max(math.sin(math.radians(elev)), 0.0), 2.42) * cloud * _HIGHLAND.get(city, 1.0)
    return max(0, min(15, round(uv)))


def day_weather(city: str, normals: list[Any], d: date) -> dict[str, Any]:
    hi_n, lo_n, p_rain, hum_n = _normal_on(normals, d)
    jh, _, uh, _, *_ = CLIMATE[city]
    amp = 1.5 + abs(uh - jh) / 14
    anomaly = (
        amp
        * (
            0.5 * _noise("wx-t", city, d)
            + 0.3 * _noise("wx-t", city, d - timedelta(1))
            + 0.2 * _noise("wx-t", city, d - timedelta(2))
        )
        * 1.6
    )
    ds = d.isoformat()
    u_rain, u_kind, u_sky = (
        stable_unit("wx-rain", city, ds),
        stable_unit("wx-kind", city, ds),
        stable_unit("wx-sky", city, ds),
    )
    rainy = u_rain < p_rain
    high = hi_n + anomaly
    low = lo_n + 0.8 * anomaly
    if rainy:
        high -= 2.0 + 2 * u_kind
        cuts = [
            (0.55, "light_rain", 3.0),
            (0.8, "moderate_rain", 14.0),
            (0.93, "heavy_rain", 32.0),
            (1.01, "rainstorm", 65.0),
        ]
        cond, mm = next((c, m) for lim, c, m in cuts if u_kind < lim)
        if high >= 26 and u_sky < 0.5:
            cond = "thunder_shower"
        if high <= 3:
            cond = "light_snow" if u_kind < 0.6 else "moderate_snow" if u_kind < 0.88 else "heavy_snow"
            mm /= 2.5
        elif high <= 6 and low < 0:
            cond = "sleet"
        precip = round(mm * (0.6 + 0.8 * u_sky), 1)
        prob = 60 + int(35 * stable_unit("wx-pop", city, ds))
    else:
        clear = 0.45 + (60 - hum_n) / 100
        cond = "sunny" if u_sky < clear else "partly_cloudy" if u_sky < clear + 0.3 else "overcast"
        if cond == "overcast" and hum_n > 70 and u_kind < 0.12 and hi_n < 20:
            cond = "fog"
        high += 1.0 if cond == "sunny" else -0.5 if cond == "overcast" else 0.0
        low += -0.8 if cond == "sunny" else 0.5
        precip = 0.0
        prob = int(p_rain * 60 * stable_unit("wx-pop", city, ds)) + (10 if cond == "overcast" else 0)
    hum = hum_n + (14 if rainy else -10 if cond == "sunny" else 0) + 6 * _noise("wx-h", city, ds)
    winter = d.month in (11, 12, 1, 2, 3)
    di = int(stable_unit("wx-wd", city, ds) * 3) + (6 if winter else 2)
    level = (
        1
        + int(stable_unit("wx-wl", city, ds) ** 1.6 * 5)
        + (1 if winter and CITIES.get(city, (0, 0, 0))[0] > 35 else 0)
    )
    high, low = round(high), round(min(low, high - 2))
    return {
        "date": ds, "condition": cond, "condition_zh": _CONDITIONS[cond], "temp_high_c": int(high),
        "temp_low_c": int(low), "precip_prob": min(prob, 99), "precip_mm": precip,
        "humidity": int(max(15, min(100, round(hum)))), "wind_dir": _DIRS[di % 8], "wind_level": min(level, 7),
        "uv_index": _uv(city, d, cond),
    }  # fmt: skip


def _hm(dt: datetime | None) -> str | None:
    return None if dt is None else dt.strftime("%H:%M")


def _sun_local(city: str, d: date) -> dict[str, str | None]:
    lat, lon = coords(city)
    ev = sun_events(lat, lon, d)
    tz = tz_of(city)
    out: dict[str, str | None] = {}
    for k in ("sunrise", "sunset", "noon", "dawn", "dusk"):
        v = ev[k]
        out[k] = None if v is None else _hm(utc_minutes_to_local(d, v, tz))
    return out


def _today_at(ctx: ToolCtx, city: str) -> datetime:
    return ctx.now.astimezone(tz_of(city))


# --- forecasts and history ------------------------------------------------------------------------


@handler("weather_daily_forecast")
def weather_daily_forecast(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    start = date.fromisoformat(args.get("date") or ctx.today.isoformat())
    horizon = ctx.today + timedelta(days=15)
    normals = _normals(ctx, city)
    days = []
    for i in range(int(args["days"])):
        d = start + timedelta(days=i)
        if d > horizon:
            break
        w = day_weather(city, normals, d)
        sun = _sun_local(city, d)
        days.append({**w, "sunrise": sun["sunrise"], "sunset": sun["sunset"]})
    return {
        "city": city,
        "issued_at": ctx.now.isoformat(timespec="minutes"),
        "horizon_end": horizon.isoformat(),
        "days": days,
    }


@handler("weather_hourly_forecast")
def weather_hourly_forecast(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    d = date.fromisoformat(args.get("date") or ctx.today.isoformat())
    w = day_weather(city, _normals(ctx, city), d)
    local_now = _today_at(ctx, city)
    first = local_now.hour if d == local_now.date() else 0
    first = max(first, int(args.get("start_hour", 0)))
    wet = w["condition"] in WET
    rain_from = int(stable_unit("wx-rh", city, d) * 18)
    rain_len = 3 + int(stable_unit("wx-rl", city, d) * 8)
    span = w["temp_high_c"] - w["temp_low_c"]
    hours = []
    for h in range(first, 24):
        # minimum near 06:00, maximum near 14:00
        f = (
            (1 - math.cos(math.pi * (h - 6) / 8)) / 2
            if 6 <= h <= 14
            else (1 + math.cos(math.pi * ((h - 14) % 24) / 16)) / 2
        )
        raining = wet and rain_from <= h < rain_from + rain_len
        cond = w["condition"] if raining or not wet else "overcast"
        hours.append({
            "time": f"{h:02d}:00", "temp_c": round(w["temp_low_c"] + span * f, 1), "condition": cond,
            "condition_zh": _CONDITIONS[cond], "precip_prob": w["precip_prob"] if raining else min(w["precip_prob"], 20),
            "precip_mm": round(w["precip_mm"] / rain_len, 1) if raining else 0.0,
            "humidity": min(100, w["humidity"] + int(10 * (1 - f)) - 5), "wind_dir": w["wind_dir"],
            "wind_level": max(1, w["wind_level"] - (1 if h < 9 or h > 20 else 0)),
        })  # fmt: skip
    return {"city": city, "date": d.isoformat(), "timezone": tz_of(city).key, "hours": hours}


@handler("weather_history_query")
def weather_history_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    start = date.fromisoformat(args["start_date"])
    end = date.fromisoformat(args.get("end_date") or args["start_date"])
    if end < start:
        ctx.fail("BAD_DATE_RANGE", "结束日期不能早于开始日期")
    if end > ctx.today:
        ctx.fail("DATE_NOT_IN_PAST", f"历史天气只能查询今天（{ctx.today.isoformat()}）及以前的日期")
    normals = _normals(ctx, city)
    days, n = [], (end - start).days + 1
    for i in range(n):
        w = day_weather(city, normals, start + timedelta(days=i))
        days.append({k: w[k] for k in ("date", "condition", "condition_zh", "temp_high_c", "temp_low_c",
                                         "precip_mm", "humidity", "wind_dir", "wind_level")})  # fmt: skip
    norm = [_normal_on(normals, start + timedelta(days=i)) for i in range(n)]
    hottest = max(days, key=lambda x: x["temp_high_c"])
    coldest = min(days, key=lambda x: x["temp_low_c"])
    avg_hi = sum(x["temp_high_c"] for x in days) / n
    return {
        "city": city, "start_date": start.isoformat(), "end_date": end.isoformat(), "days": days,
        "summary": {
            "avg_high_c": round(avg_hi, 1), "avg_low_c": round(sum(x["temp_low_c"] for x in days) / n, 1),
            "max_temp_c": hottest["temp_high_c"], "max_temp_date": hottest["date"],
            "min_temp_c": coldest["temp_low_c"], "min_temp_date": coldest["date"],
            "rainy_days": sum(1 for x in days if x["precip_mm"] > 0),
            "total_precip_mm": round(sum(x["precip_mm"] for x in days), 1),
            "high_vs_normal_c": round(avg_hi - sum(x[0] for x in norm) / n, 1),
        },
    }  # fmt: skip


# --- air quality and life indices -----------------------------------------------------------------


def _gauss(*keys: object) -> float:
    u1 = max(stable_unit(*keys, "a"), 1e-9)
    return math.sqrt(-2 * math.log(u1)) * math.cos(2 * math.pi * stable_unit(*keys, "b"))


def _air(city: str, lat: float, pm25_annual: float, d: date, w: dict[str, Any]) -> dict[str, float]:
    season = {12: 0, 1: 0, 2: 0, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2}.get(d.month, 3)
    sf = ((1.6, 1.0, 0.6, 0.95) if lat > 32 else (1.3, 1.0, 0.65, 0.95))[season]
    met = (0.55 if w["precip_mm"] > 0 else 1.0) * (1.3 - 0.1 * w["wind_level"])
    z = 0.6 * _gauss("aq", city, d) + 0.4 * _gauss("aq", city, d - timedelta(1))
    pm25 = pm25_annual * sf * met * math.exp(0.45 * z)
    dusty = city in ("乌鲁木齐", "兰州", "银川", "西宁", "呼和浩特", "拉萨") and season == 1
    pm10 = pm25 * (1.5 + 0.5 * stable_unit("aq10", city, d) + (1.2 if dusty else 0.0))
    sky = {"sunny": 1.2, "partly_cloudy": 1.0, "overcast": 0.8}.get(w["condition"], 0.6)
    o3 = (30 + 4.8 * max(w["temp_high_c"] - 5, 0)) * sky * math.exp(0.25 * _gauss("aqo3", city, d))
    tier = CITIES[city][2]
    no2 = (52 - 9 * tier) * (1.25 if season == 0 else 0.85 if season == 2 else 1.0) * met * math.exp(0.3 * z)
    so2 = (4 + 6 * stable_unit("aqso2", city, d)) * (1.6 if season == 0 and lat > 32 else 1.0)
    co = 0.45 + 0.5 * stable_unit("aqco", city, d) + (0.4 if season == 0 and lat > 32 else 0.0)
    return {"pm25": round(pm25), "pm10": round(pm10), "o3": round(o3), "no2": round(no2), "so2": round(so2),
            "co": round(co, 1)}  # fmt: skip


@handler("air_quality_query")
def air_quality_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    if city not in CITIES:
        ctx.fail("CITY_NOT_COVERED", f"空气质量数据仅覆盖中国大陆城市，暂不支持“{city}”")
    d = date.fromisoformat(args.get("date") or ctx.today.isoformat())
    row = ctx.one("SELECT * FROM weather_cities WHERE city=?", (city,))
    if row is None:
        ctx.fail("UNKNOWN_CITY", f"暂无“{city}”的空气质量数据")
    w = day_weather(city, _normals(ctx, city), d)
    conc = _air(city, row["lat"], row["pm25_annual"], d, w)
    sub = {k: iaqi(k, v) for k, v in conc.items()}
    aqi = max(sub.values())
    _, level, level_zh, advice = next(c for c in AQI_CATEGORIES if aqi <= c[0])
    primary = max(sub, key=lambda k: sub[k]) if aqi > 50 else None
    return {
        "city": city, "date": d.isoformat(), "is_forecast": d > ctx.today, "aqi": aqi, "level": level,
        "level_zh": level_zh, "primary_pollutant": primary, "concentrations": conc, "iaqi": sub,
        "health_advice": advice,
    }  # fmt: skip


@handler("life_index_query")
def life_index_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    if city not in CITIES:
        ctx.fail("CITY_NOT_COVERED", f"生活指数仅覆盖中国大陆城市，暂不支持“{city}”")
    d = date.fromisoformat(args.get("date") or ctx.today.isoformat())
    normals = _normals(ctx, city)
    w = day_weather(city, normals, d)
    nxt = [day_weather(city, normals, d + timedelta(days=i)) for i in (1, 2)]
    prev = day_weather(city, normals, d - timedelta(days=1))
    kinds = list(dict.fromkeys(args.get("indices") or list(INDEX_ZH)))
    indices = []
    for k in kinds:
        level, advice = life_index(k, w, nxt, prev)
        indices.append({"type": k, "name_zh": INDEX_ZH[k], "level": level, "advice": advice})
    weather = {k: w[k] for k in ("condition_zh", "temp_high_c", "temp_low_c", "uv_index", "wind_level")}
    return {"city": city, "date": d.isoformat(), "weather": weather, "indices": indices}


# --- typhoons and the almanac ---------------------------------------------------------------------


def _point(r: Any, forecast: bool) -> dict[str, Any]:
    gid, zh, force = grade(r["wind_ms"])
    return {"time": r["time"], "lat": r["lat"], "lon": r["lon"], "wind_ms": r["wind_ms"], "wind_force": force,
            "pressure_hpa": r["pressure_hpa"], "grade": gid, "grade_zh": zh, "forecast": forecast}  # fmt: skip


def _typhoon(ctx: ToolCtx, t: Any, with_track: bool) -> dict[str, Any]:
    now = ctx.now
    pts = ctx.query("SELECT * FROM typhoon_points WHERE typhoon_id=? ORDER BY seq", (t["typhoon_id"],))
    seen = [p for p in pts if datetime.fromisoformat(p["time"]) <= now]
    active = datetime.fromisoformat(t["end_time"]) > now
    strongest = max(seen, key=lambda p: p["wind_ms"])
    gid, zh, force = grade(strongest["wind_ms"])
    landfall = t["landfall_city"]
    if landfall is not None and active and not any(track_km(p["lat"], p["lon"], landfall) < 70 for p in seen):
        landfall = None  # not yet
    out: dict[str, Any] = {
        "typhoon_id": t["typhoon_id"], "name": t["name"], "status": "active" if active else "dissipated",
        "start_time": t["start_time"], "end_time": None if active else t["end_time"],
        "peak_wind_ms": strongest["wind_ms"], "peak_wind_force": force, "min_pressure_hpa": strongest["pressure_hpa"],
        "peak_grade": gid, "peak_grade_zh": zh, "landfall_city": landfall, "current": _point(seen[-1], False) if active else None,
    }  # fmt: skip
    if with_track:
        horizon = now + timedelta(hours=72)
        fut = (
            [_point(p, True) for p in pts if now < datetime.fromisoformat(p["time"]) <= horizon]
            if active
            else []
        )
        out["track"] = [_point(p, False) for p in seen] + fut
    return out


def _season(ctx: ToolCtx, args: dict[str, Any]) -> tuple[int, str]:
    now = ctx.now.astimezone(_CN)
    year = int(args.get("year") or now.year)
    if year > now.year:
        ctx.fail("YEAR_IN_FUTURE", f"{year} 年的台风尚未生成，只能查询今年及以前的台风")
    if year > 2030:
        ctx.fail("NO_TYPHOON_DATA", "暂无该年度的台风数据")
    return year, now.isoformat(timespec="minutes")


def _payload(ctx: ToolCtx, year: int, typhoons: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "year": year, "as_of": ctx.now.isoformat(timespec="minutes"), "count": len(typhoons),
        "active_count": sum(1 for t in typhoons if t["status"] == "active"), "typhoons": typhoons,
    }  # fmt: skip


@handler("typhoon_list")
def typhoon_list(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    year, now = _season(ctx, args)
    rows = ctx.query("SELECT * FROM typhoons WHERE year=? AND start_time<=? ORDER BY start_time", (year, now))
    typhoons = [_typhoon(ctx, r, with_track=False) for r in rows]
    if args.get("active_only"):
        typhoons = [t for t in typhoons if t["status"] == "active"]
    return _payload(ctx, year, typhoons)


@handler("typhoon_track")
def typhoon_track(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    year, now = _season(ctx, args)
    key = str(args["typhoon"]).strip()
    for junk in ("号台风", "台风", "号", "“", "”", '"'):
        key = key.replace(junk, "")
    key = key.strip()
    cond = "typhoon_id=?" if key.isdigit() else "name=?"
    if "year" in args:
        sql = f"SELECT * FROM typhoons WHERE {cond} AND year=? AND start_time<=?"
    else:  # the most recent typhoon of that name up to this year
        sql = f"SELECT * FROM typhoons WHERE {cond} AND year<=? AND start_time<=? ORDER BY start_time DESC LIMIT 1"
    rows = ctx.query(sql, (key, year, now))
    if not rows:
        where = f"{year} 年" if "year" in args else "2020 年以来"
        ctx.fail(
            "TYPHOON_NOT_FOUND", f"{where}没有名称或编号为“{key}”的台风，可先用 typhoon_list 查看台风列表"
        )
    return _payload(ctx, int(rows[0]["year"]), [_typhoon(ctx, rows[0], with_track=True)])


@handler("sun_moon_times")
def sun_moon_times(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    d = date.fromisoformat(args.get("date") or ctx.today.isoformat())
    lat, lon = coords(city)
    tz = tz_of(city)
    sun = _sun_local(city, d)
    ev = sun_events(lat, lon, d)
    day_min = None if ev["sunrise"] is None or ev["sunset"] is None else round(ev["sunset"] - ev["sunrise"])
    midnight = datetime(d.year, d.month, d.day, tzinfo=tz).astimezone(UTC)
    rise, set_ = moon_rise_set(lat, lon, midnight)
    noon_jd = (midnight + timedelta(hours=12)).timestamp() / 86400 + 2440587.5
    age, illum, pid, zh = moon_phase(noon_jd)
    return {
        "city": city, "date": d.isoformat(), "timezone": tz.key, "latitude": lat, "longitude": lon,
        "sunrise": sun["sunrise"], "sunset": sun["sunset"], "solar_noon": sun["noon"],
        "civil_dawn": sun["dawn"], "civil_dusk": sun["dusk"],
        "day_length": None if day_min is None else f"{day_min // 60:02d}:{day_min % 60:02d}",
        "moonrise": _hm(rise.astimezone(tz)) if rise else None, "moonset": _hm(set_.astimezone(tz)) if set_ else None,
        "moon_phase": pid, "moon_phase_zh": zh, "moon_illumination_pct": round(illum * 100, 1),
        "moon_age_days": round(age, 1),
    }  # fmt: skip
