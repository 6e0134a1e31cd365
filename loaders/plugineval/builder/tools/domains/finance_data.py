"""Data and series for the finance domain.

Word lists for invented listed companies, funds and merchants (no real company is meant); the
exchange calendar (weekdays without the mainland's public holidays); deterministic daily price and
NAV paths per instrument; FX anchors (approximate CNY per unit at the start of 2020–2026); China's
LPR and housing-provident-fund rate history; the individual income tax tables (IIT Law as amended in
2018, in force from 2019, and the special additional deduction standards by year).
"""

from __future__ import annotations

import math
import random
from datetime import date, timedelta
from functools import lru_cache

from plugineval.normalize.holidays import holiday_date

from ..runtime import stable_rng, stable_unit

# --- invented company and fund names ----------------------------------------------------------------

NAME_FIRST = "华恒天金瑞鼎嘉博安宏泰联远新盛德凯鸿润航景昊晟启融汇星辰弘悦峻铭知澄朗"
NAME_SECOND = "信岳宸澜拓峰源创达和锦诺睿翔川禾屹琨烨骁途澈衡沐桓珩"
# industry: (suffixes, typical price CNY, yearly volatility, PE)
INDUSTRIES: dict[str, tuple[tuple[str, ...], float, float, float]] = {
    "semiconductor": (("微电子", "半导体", "芯源"), 60.0, 0.48, 65.0),
    "software": (("软件", "信息", "数智"), 35.0, 0.45, 55.0),
    "electronics": (("电子", "光电", "精密"), 28.0, 0.40, 35.0),
    "new_energy": (("新能源", "锂能", "光伏"), 40.0, 0.45, 30.0),
    "pharma": (("药业", "生物", "医疗"), 45.0, 0.38, 40.0),
    "consumer": (("食品", "酒业", "乳业"), 55.0, 0.28, 28.0),
    "auto": (("汽车", "汽配", "动力"), 25.0, 0.38, 22.0),
    "machinery": (("重工", "机械", "装备"), 15.0, 0.32, 18.0),
    "chemicals": (("化工", "新材", "材料"), 18.0, 0.35, 16.0),
    "media": (("传媒", "文化", "影业"), 9.0, 0.42, 30.0),
    "logistics": (("物流", "航运", "供应链"), 12.0, 0.30, 15.0),
    "utilities": (("电力", "环保", "水务"), 7.0, 0.20, 14.0),
    "real_estate": (("地产", "置业", "城建"), 6.0, 0.35, 10.0),
    "finance": (("证券", "信托", "保险"), 14.0, 0.30, 12.0),
}
INDUSTRY_ZH = {
    "semiconductor": "半导体", "software": "计算机软件", "electronics": "电子", "new_energy": "新能源",
    "pharma": "医药生物", "consumer": "食品饮料", "auto": "汽车", "machinery": "机械设备", "chemicals": "基础化工",
    "media": "传媒", "logistics": "交通运输", "utilities": "公用事业", "real_estate": "房地产", "finance": "非银金融",
}  # fmt: skip
HK_SUFFIXES = ("控股", "集团", "国际", "科技集团", "医药集团")

FUND_COMPANIES = [
    "华信",
    "恒泰",
    "鼎澜",
    "嘉诺",
    "博睿",
    "安屹",
    "宏源达",
    "远川",
    "盛禾",
    "景澈",
    "昊衡",
    "晟拓",
]
FUND_THEMES: dict[str, tuple[str, ...]] = {
    "stock": ("科技创新", "消费升级", "医疗健康", "高端制造", "新能源主题", "价值精选", "成长优选"),
    "hybrid": ("稳健增长", "灵活配置", "均衡优选", "红利精选", "核心资产", "行业轮动", "品质生活"),
    "bond": ("纯债", "短债", "双利债券", "信用增强", "稳利"),
    "index": ("沪深300指数", "中证500指数", "创业板指数", "中证1000指数", "科创50指数", "红利低波指数"),
}
FUND_TYPE_ZH = {"stock": "股票型", "hybrid": "混合型", "bond": "债券型", "index": "指数型"}
# type: (annual drift, annual volatility)
FUND_RISK = {"stock": (0.05, 0.24), "hybrid": (0.04, 0.18), "bond": (0.03, 0.02), "index": (0.045, 0.22)}

# --- the exchange calendar -----------------------------------------------------------------------------

FIRST_DAY = date(2020, 1, 1)
LAST_DAY = date(2030, 12, 31)


@lru_cache(maxsize=1)
def _closed_days() -> frozenset[date]:
    out: set[date] = set()
    for y in range(FIRST_DAY.year, LAST_DAY.year + 1):
        out.add(date(y, 1, 1))
        out.update(date(y, 5, d) for d in range(1, 6))
        out.update(date(y, 10, d) for d in range(1, 8))
        spring = holiday_date("春节", y)
        if spring is not None:
            out.update(spring + timedelta(days=k) for k in range(-1, 6))
        for name in ("清明", "端午", "中秋"):
            d = holiday_date(name, y)
            if d is not None:
                out.add(d)
    return frozenset(out)


@lru_cache(maxsize=1)
def trading_days() -> tuple[date, ...]:
    closed = _closed_days()
    n = (LAST_DAY - FIRST_DAY).days + 1
    days = (FIRST_DAY + timedelta(days=i) for i in range(n))
    return tuple(d for d in days if d.weekday() < 5 and d not in closed)


@lru_cache(maxsize=1)
def trading_index() -> dict[date, int]:
    return {d: i for i, d in enumerate(trading_days())}


def is_trading_day(d: date) -> bool:
    return d in trading_index()


def last_trading_day(d: date) -> int | None:
    """Index of the last trading day on or before ``d`` (None before 2020)."""
    idx = trading_index()
    for k in range(15):
        i = idx.get(d - timedelta(days=k))
        if i is not None:
            return i
    return None


@lru_cache(maxsize=256)
def price_path(
    key: str, start: float, drift: float, vol: float, limit: float, first: int
) -> tuple[float, ...]:
    """Daily closes from trading day ``first`` on: a random walk seeded by ``key`` with fat tails and
    daily moves clamped to ``limit`` (the price-limit rule); values before ``first`` are 0."""
    rng = stable_rng("path", key)
    days = trading_days()
    mu, sigma = drift / 250, vol / math.sqrt(250)
    out = [0.0] * len(days)
    p = start
    for i in range(first, len(days)):
        if i > first:
            shock = rng.gauss(0, sigma) * (2.2 if rng.random() < 0.04 else 1.0)
            r = max(-limit, min(limit, mu + shock))
            p = max(p * (1 + r), 0.2)
        out[i] = p
    return tuple(out)


def bar(key: str, closes: tuple[float, ...], i: int, tick: float) -> dict[str, float]:
    """Open/high/low/close/volume of trading day ``i`` around the stored path."""
    close = round(closes[i] / tick) * tick
    prev = closes[i - 1] if i > 0 and closes[i - 1] > 0 else closes[i]
    op = prev * (1 + (stable_unit("open", key, i) - 0.5) * 0.02)
    hi = max(op, closes[i]) * (1 + stable_unit("hi", key, i) * 0.025)
    lo = min(op, closes[i]) * (1 - stable_unit("lo", key, i) * 0.025)
    return {
        "open": round(round(op / tick) * tick, 3),
        "high": round(round(hi / tick) * tick, 3),
        "low": round(round(lo / tick) * tick, 3),
        "close": round(close, 3),
        "prev_close": round(round(prev / tick) * tick, 3),
    }


# --- foreign exchange -------------------------------------------------------------------------------------

# CNY per unit at 1 January 2020, 2021, …, 2026 (approximate market mid rates); HKD and MOP follow USD.
FX_ANCHORS: dict[str, tuple[float, ...]] = {
    "USD": (6.96, 6.53, 6.37, 6.90, 7.10, 7.30, 7.02),
    "EUR": (7.81, 8.00, 7.21, 7.36, 7.85, 7.55, 8.22),
    "JPY": (0.0641, 0.0632, 0.0553, 0.0523, 0.0503, 0.0465, 0.0448),
    "GBP": (9.17, 8.90, 8.62, 8.32, 9.05, 9.15, 9.44),
    "KRW": (0.00603, 0.00600, 0.00535, 0.00547, 0.00549, 0.00497, 0.00486),
    "AUD": (4.88, 5.02, 4.62, 4.69, 4.83, 4.54, 4.68),
    "CAD": (5.35, 5.12, 5.03, 5.09, 5.36, 5.08, 5.12),
    "SGD": (5.17, 4.93, 4.72, 5.14, 5.37, 5.35, 5.46),
    "THB": (0.232, 0.218, 0.191, 0.200, 0.207, 0.213, 0.221),
    "CHF": (7.17, 7.37, 6.98, 7.47, 8.44, 8.05, 8.84),
    "TWD": (0.232, 0.232, 0.230, 0.225, 0.231, 0.223, 0.223),
    "NZD": (4.69, 4.70, 4.36, 4.38, 4.48, 4.12, 4.06),
    "MYR": (1.70, 1.62, 1.53, 1.57, 1.54, 1.63, 1.73),
}
FX_PEGGED = {"HKD": 7.80, "MOP": 8.034}  # units per USD
CURRENCY_ZH = {
    "CNY": "人民币", "USD": "美元", "EUR": "欧元", "JPY": "日元", "GBP": "英镑", "HKD": "港币", "KRW": "韩元",
    "AUD": "澳元", "CAD": "加元", "SGD": "新加坡元", "THB": "泰铢", "CHF": "瑞士法郎", "TWD": "新台币",
    "MOP": "澳门元", "NZD": "新西兰元", "MYR": "林吉特",
}  # fmt: skip


def fx_rows(rng: random.Random) -> list[tuple[str, str, float]]:
    """The daily CNY mid-rate fixings of every currency on business days (weekdays), 2020–2030."""
    n = (LAST_DAY - FIRST_DAY).days + 1
    days = [FIRST_DAY + timedelta(days=i) for i in range(n)]
    business = [i for i, d in enumerate(days) if d.weekday() < 5]
    texts = [d.isoformat() for d in days]
    # position of each day inside its year, and the year's index
    pos = [((d - date(d.year, 1, 1)).days / (365 + (d.year % 4 == 0)), d.year - FIRST_DAY.year) for d in days]
    series: dict[str, list[float]] = {}
    for cur in sorted(FX_ANCHORS):
        logs = [math.log(v) for v in FX_ANCHORS[cur]]
        while len(logs) < LAST_DAY.year - FIRST_DAY.year + 2:
            logs.append(logs[-1] + rng.gauss(0, 0.05))
        x, vals = 0.0, []
        for i in business:
            f, k = pos[i]
            x = 0.97 * x + rng.gauss(0, 0.0025)
            vals.append(math.exp((1 - f) * logs[k] + f * logs[k + 1] + x))
        series[cur] = vals
    for cur, per_usd in sorted(FX_PEGGED.items()):
        series[cur] = [u / (per_usd * (1 + 0.003 * math.sin(i / 65))) for i, u in enumerate(series["USD"])]
    return [
        (cur, texts[i], round(v, 4 - math.floor(math.log10(v))))
        for cur in sorted(series)
        for i, v in zip(business, series[cur], strict=True)
    ]


# --- loans: LPR and provident-fund rates (%), by effective date --------------------------------------

# (effective date, LPR 1y, LPR 5y+, provident fund ≤5y, provident fund >5y)
LOAN_RATES: list[tuple[str, float, float, float, float]] = [
    ("2019-12-20", 4.15, 4.80, 2.75, 3.25), ("2020-02-20", 4.05, 4.75, 2.75, 3.25),
    ("2020-04-20", 3.85, 4.65, 2.75, 3.25), ("2021-12-20", 3.80, 4.65, 2.75, 3.25),
    ("2022-01-20", 3.70, 4.60, 2.75, 3.25), ("2022-05-20", 3.70, 4.45, 2.75, 3.25),
    ("2022-08-22", 3.65, 4.30, 2.75, 3.25), ("2022-10-01", 3.65, 4.30, 2.60, 3.10),
    ("2023-06-20", 3.55, 4.20, 2.60, 3.10), ("2023-08-21", 3.45, 4.20, 2.60, 3.10),
    ("2024-02-20", 3.45, 3.95, 2.60, 3.10), ("2024-05-18", 3.45, 3.95, 2.35, 2.85),
    ("2024-07-22", 3.35, 3.85, 2.35, 2.85), ("2024-10-21", 3.10, 3.60, 2.35, 2.85),
    ("2025-05-08", 3.10, 3.60, 2.10, 2.60), ("2025-05-20", 3.00, 3.50, 2.10, 2.60),
]  # fmt: skip

# --- individual income tax ------------------------------------------------------------------------------

# Comprehensive income, annual: (upper bound of the bracket, rate, quick deduction)
TAX_BRACKETS: list[tuple[float, float, float]] = [
    (36_000, 0.03, 0), (144_000, 0.10, 2_520), (300_000, 0.20, 16_920), (420_000, 0.25, 31_920),
    (660_000, 0.30, 52_920), (960_000, 0.35, 85_920), (math.inf, 0.45, 181_920),
]  # fmt: skip
BASIC_DEDUCTION = 60_000.0
# Special additional deductions: item -> [(first year, monthly or yearly amount)], newest last.
DEDUCTION_STANDARDS: dict[str, list[tuple[int, float]]] = {
    "children_education": [(2019, 1000), (2023, 2000)],  # per child, monthly
    "infant_care": [(2022, 1000), (2023, 2000)],  # per child under 3, monthly
    "elderly_support": [(2019, 2000), (2023, 3000)],  # monthly cap (only child)
    "housing_loan_interest": [(2019, 1000)],  # monthly
    "rent_tier1": [(2019, 1500)],  # municipalities, provincial capitals, cities specifically listed
    "rent_tier2": [(2019, 1100)],  # other cities with over 1 million registered residents
    "rent_tier3": [(2019, 800)],  # other cities
    "continuing_education_degree": [(2019, 400)],  # monthly
    "continuing_education_certificate": [(2019, 3600)],  # yearly, the year the certificate is obtained
    "personal_pension": [(2022, 12000)],  # yearly cap
}
# income type -> share of the receipt counted as comprehensive income
INCOME_SHARE = {"salary": 1.0, "labor_service": 0.8, "author_remuneration": 0.56, "royalties": 0.8}


def deduction_standard(item: str, year: int) -> float:
    amount = 0.0
    for first, value in DEDUCTION_STANDARDS[item]:
        if year >= first:
            amount = value
    return amount


def bracket(taxable: float) -> tuple[float, float]:
    """(rate, quick deduction) for an annual taxable income."""
    for upper, rate, quick in TAX_BRACKETS:
        if taxable <= upper:
            return rate, quick
    return TAX_BRACKETS[-1][1], TAX_BRACKETS[-1][2]  # pragma: no cover


# --- credit cards ---------------------------------------------------------------------------------------

# code: (Chinese name, grace days from statement to due date, minimum payment share, points per CNY)
BANKS: dict[str, tuple[str, int, float, float]] = {
    "icbc": ("工商银行", 25, 0.10, 1.0), "ccb": ("建设银行", 20, 0.10, 1.0), "abc": ("农业银行", 25, 0.10, 1.0),
    "boc": ("中国银行", 20, 0.10, 1.0), "bocom": ("交通银行", 25, 0.10, 1.0), "cmb": ("招商银行", 18, 0.10, 0.05),
    "citic": ("中信银行", 20, 0.10, 1.0), "cib": ("兴业银行", 20, 0.10, 1.0), "spdb": ("浦发银行", 25, 0.10, 1.0),
    "cmbc": ("民生银行", 20, 0.10, 1.0), "ceb": ("光大银行", 20, 0.10, 1.0), "pab": ("平安银行", 18, 0.10, 1.0),
    "gdb": ("广发银行", 20, 0.10, 1.0), "hxb": ("华夏银行", 20, 0.10, 1.0), "psbc": ("邮储银行", 25, 0.10, 1.0),
}  # fmt: skip
# category: (Chinese name, merchant words, amount range CNY)
MERCHANT_KINDS: dict[str, tuple[str, tuple[str, ...], tuple[float, float]]] = {
    "dining": ("餐饮", ("小馆", "餐厅", "火锅", "面馆", "咖啡", "茶饮"), (18, 420)),
    "groceries": ("商超", ("超市", "生鲜", "便利店", "果蔬"), (12, 380)),
    "shopping": ("购物", ("商城", "百货", "数码", "服饰", "家居"), (39, 2600)),
    "transport": ("交通出行", ("出行", "加油站", "停车场", "轨道交通"), (4, 480)),
    "travel": ("旅行住宿", ("酒店", "航空", "旅行社"), (180, 4800)),
    "entertainment": ("休闲娱乐", ("影城", "KTV", "健身", "书店"), (35, 680)),
    "utilities": ("生活缴费", ("电力缴费", "燃气缴费", "通信充值"), (30, 420)),
    "medical": ("医疗健康", ("药房", "口腔诊所", "体检中心"), (25, 1200)),
}
MERCHANT_BRANDS = [
    "鼎润",
    "味坊",
    "禾悦",
    "沐途",
    "嘉澄",
    "知鲜",
    "朗庭",
    "星屹",
    "锦岳",
    "宸禾",
    "途澈",
    "悦铭",
    "骁达",
    "瑞禾",
    "恒沐",
    "衡启",
]
