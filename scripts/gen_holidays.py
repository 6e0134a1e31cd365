"""Generate loaders/plugineval/normalize/data/holidays.json (a dev-time tool).

Lunar holidays come from the ``lunardate`` package; the 24 solar terms (节气) from a
low-precision solar-longitude computation (Meeus, *Astronomical Algorithms*, ch. 25;
error well under an hour in this century), in China time (UTC+8), cross-checked
against a table of published dates for 清明 and 冬至 and, for every term, against
the ``lunar-python`` package's table (an independent, arc-second algorithm, 寿星天文历;
it settles the terms whose moment lies near midnight). A term the two disagree on is
left out: its day is not known for certain, and a date that is not known is never
guessed. For 2019–2032 they agree on all 336.

Run (lunar-python is a dev-time dependency only, e.g. in a scratch venv):
    pip install lunardate lunar-python && python scripts/gen_holidays.py
"""

from __future__ import annotations

import json
import math
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

from lunardate import LunarDate

OUT = Path(__file__).resolve().parent.parent / "loaders/plugineval/normalize/data/holidays.json"
YEARS = range(2019, 2033)  # 2020–2030 guaranteed, one spare year on each side
CN_TZ = timezone(timedelta(hours=8))

# (month, day) in the lunar calendar; 腊八 and 小年 belong to the 12th month of
# the *previous* lunar year (the Spring Festival season of the given year).
LUNAR = {
    "春节": (1, 1, 0),
    "元宵": (1, 15, 0),
    "龙抬头": (2, 2, 0),
    "端午": (5, 5, 0),
    "七夕": (7, 7, 0),
    "中元": (7, 15, 0),
    "中秋": (8, 15, 0),
    "重阳": (9, 9, 0),
    "腊八": (12, 8, -1),
    "小年": (12, 23, -1),
}

# Published dates (China time) used as a check of the computation.
KNOWN = {
    "清明": {
        2020: "04-04",
        2021: "04-04",
        2022: "04-05",
        2023: "04-05",
        2024: "04-04",
        2025: "04-04",
        2026: "04-05",
        2027: "04-05",
        2028: "04-04",
        2029: "04-04",
        2030: "04-05",
    },
    "冬至": {
        2020: "12-21",
        2021: "12-21",
        2022: "12-22",
        2023: "12-22",
        2024: "12-21",
        2025: "12-21",
        2026: "12-22",
        2027: "12-22",
        2028: "12-21",
        2029: "12-21",
        2030: "12-22",
    },
}


def _jd(dt: datetime) -> float:
    return dt.timestamp() / 86400.0 + 2440587.5


def _sun_longitude(jd_tt: float) -> float:
    """Apparent geocentric ecliptic longitude of the Sun, degrees (Meeus 25.2-25.8)."""
    t = (jd_tt - 2451545.0) / 36525.0
    l0 = 280.46646 + 36000.76983 * t + 0.0003032 * t * t
    m = math.radians(357.52911 + 35999.05029 * t - 0.0001537 * t * t)
    c = (
        (1.914602 - 0.004817 * t - 0.000014 * t * t) * math.sin(m)
        + (0.019993 - 0.000101 * t) * math.sin(2 * m)
        + 0.000289 * math.sin(3 * m)
    )
    omega = math.radians(125.04 - 1934.136 * t)
    lam = l0 + c - 0.00569 - 0.00478 * math.sin(omega)
    return lam % 360.0


#: the 24 solar terms: name -> (solar longitude, a date near it)
TERMS = {
    "小寒": (285, 1, 6), "大寒": (300, 1, 20), "立春": (315, 2, 4), "雨水": (330, 2, 19),
    "惊蛰": (345, 3, 6), "春分": (0, 3, 21), "清明": (15, 4, 5), "谷雨": (30, 4, 20),
    "立夏": (45, 5, 6), "小满": (60, 5, 21), "芒种": (75, 6, 6), "夏至": (90, 6, 21),
    "小暑": (105, 7, 7), "大暑": (120, 7, 23), "立秋": (135, 8, 8), "处暑": (150, 8, 23),
    "白露": (165, 9, 8), "秋分": (180, 9, 23), "寒露": (195, 10, 8), "霜降": (210, 10, 23),
    "立冬": (225, 11, 7), "小雪": (240, 11, 22), "大雪": (255, 12, 7), "冬至": (270, 12, 22),
}  # fmt: skip


def solar_term(year: int, longitude: float, guess: date) -> date:
    """China-time date on which the Sun reaches ``longitude``."""
    return solar_term_moment(year, longitude, guess).date()


def solar_term_moment(year: int, longitude: float, guess: date) -> datetime:
    """China-time moment at which the Sun reaches ``longitude``."""
    delta_t = 69.0 + 0.5 * (year - 2020)  # seconds, TT - UT (approximate)
    lo = datetime(guess.year, guess.month, guess.day, tzinfo=UTC) - timedelta(days=5)
    hi = lo + timedelta(days=10)
    for _ in range(60):
        mid = lo + (hi - lo) / 2
        lam = _sun_longitude(_jd(mid) + delta_t / 86400.0)
        diff = (lam - longitude + 180.0) % 360.0 - 180.0
        if diff < 0:
            lo = mid
        else:
            hi = mid
    return lo.astimezone(CN_TZ)


def _reference_terms() -> dict[tuple[str, int], date]:
    """The lunar-python package's table: (term, year) -> China-time date."""
    from lunar_python import Solar  # dev-time only

    pinyin = {"DONG_ZHI": "冬至", "XIAO_HAN": "小寒", "DA_HAN": "大寒", "LI_CHUN": "立春"}
    pinyin |= {"YU_SHUI": "雨水", "JING_ZHE": "惊蛰", "DA_XUE": "大雪"}
    out: dict[tuple[str, int], date] = {}
    for year in range(YEARS.start - 1, YEARS.stop + 1):
        for key, jq in Solar.fromYmd(year, 7, 1).getLunar().getJieQiTable().items():
            name = pinyin.get(key, key)
            d = date(jq.getYear(), jq.getMonth(), jq.getDay())
            if name in TERMS:
                out[(name, d.year)] = d
    return out


def _all_terms() -> dict[str, dict[str, str]]:
    ref = _reference_terms()
    terms: dict[str, dict[str, str]] = {name: {} for name in TERMS}
    left_out = []
    for year in YEARS:
        for name, (lon, m, d) in TERMS.items():
            at = solar_term_moment(year, float(lon), date(year, m, d))
            if ref.get((name, year)) != at.date():
                left_out.append(f"{name} {year} ({at:%Y-%m-%d %H:%M}, lunar-python {ref.get((name, year))})")
                continue
            terms[name][str(year)] = at.date().isoformat()
    print(f"solar terms left out ({len(left_out)}): " + "; ".join(left_out))
    return terms


def main() -> None:
    lunar: dict[str, dict[str, str]] = {name: {} for name in LUNAR}
    lunar["除夕"] = {}
    terms = _all_terms()
    for year in YEARS:
        for name, (m, d, shift) in LUNAR.items():
            lunar[name][str(year)] = LunarDate(year + shift, m, d).to_solar_date().isoformat()
        spring = LunarDate(year, 1, 1).to_solar_date()
        lunar["除夕"][str(year)] = (spring - timedelta(days=1)).isoformat()
    for name, table in KNOWN.items():
        for year, md in table.items():
            got = terms[name].get(str(year))
            if got != f"{year}-{md}":
                raise SystemExit(f"{name} {year}: computed {got}, published {year}-{md}")
    doc = {
        "comment": "generated by scripts/gen_holidays.py; do not edit",
        "years": [YEARS.start, YEARS.stop - 1],
        "lunar": lunar,
        "solar_terms": terms,
    }
    OUT.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
