"""Data and series for the finance domain.

Real listed companies with their real codes and industries (names and codes are facts; their prices
here are simulated), fund names of real fund companies with theme words (the products are
invented), invented merchant names; the
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
from typing import Any

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
# The industries the generator used to draw from: the draws are kept (see ``stock_rows``).
_DRAWN_INDUSTRIES = sorted(INDUSTRIES)
INDUSTRIES.update(
    {
        "bank": (("银行",), 6.0, 0.20, 6.0),
        "mining": (("矿业",), 12.0, 0.36, 14.0),
        "telecom": (("通信",), 9.0, 0.26, 16.0),
        "internet": (("网络",), 90.0, 0.42, 25.0),
    }
)
INDUSTRY_ZH.update({"bank": "银行", "mining": "有色与煤炭", "telecom": "通信", "internet": "互联网"})

# Board (market, first code): "code|name|industry", sorted by code, as many as the board's count.
_S = {
    ("sh", 600000): (
        "600000|浦发银行|bank 600004|白云机场|logistics 600009|上海机场|logistics 600011|华能国际|utilities "
        "600015|华夏银行|bank 600016|民生银行|bank 600018|上港集团|logistics 600019|宝钢股份|mining "
        "600027|华电国际|utilities 600028|中国石化|chemicals 600029|南方航空|logistics 600030|中信证券|finance "
        "600031|三一重工|machinery 600036|招商银行|bank 600048|保利发展|real_estate 600050|中国联通|telecom "
        "600085|同仁堂|pharma 600089|特变电工|machinery 600104|上汽集团|auto 600111|北方稀土|mining "
        "600115|中国东航|logistics 600132|重庆啤酒|consumer 600150|中国船舶|machinery 600161|天坛生物|pharma "
        "600188|兖矿能源|mining 600196|复星医药|pharma "
        "600276|恒瑞医药|pharma 600309|万华化学|chemicals 600346|恒力石化|chemicals "
        "600406|国电南瑞|machinery 600436|片仔癀|pharma "
        "600438|通威股份|new_energy 600460|士兰微|semiconductor 600489|中金黄金|mining 600519|贵州茅台|consumer "
        "600547|山东黄金|mining 600570|恒生电子|software 600584|长电科技|semiconductor 600585|海螺水泥|chemicals "
        "600588|用友网络|software 600600|青岛啤酒|consumer 600637|东方明珠|media 600690|海尔智家|consumer "
        "600703|三安光电|semiconductor 600745|闻泰科技|electronics 600760|中航沈飞|machinery "
        "600809|山西汾酒|consumer 600886|国投电力|utilities 600887|伊利股份|consumer 600893|航发动力|machinery "
        "600900|长江电力|utilities 600905|三峡能源|utilities 600919|江苏银行|bank 600926|杭州银行|bank "
        "600989|宝丰能源|chemicals 600999|招商证券|finance 601006|大秦铁路|logistics 601009|南京银行|bank "
        "601012|隆基绿能|new_energy 601021|春秋航空|logistics 601088|中国神华|mining 601111|中国国航|logistics "
        "601127|赛力斯|auto 601138|工业富联|electronics 601166|兴业银行|bank 601186|中国铁建|machinery "
        "601225|陕西煤业|mining 601288|农业银行|bank 601318|中国平安|finance 601328|交通银行|bank "
        "601390|中国中铁|machinery 601398|工商银行|bank 601600|中国铝业|mining 601601|中国太保|finance "
        "601628|中国人寿|finance 601633|长城汽车|auto 601668|中国建筑|real_estate 601688|华泰证券|finance "
        "601816|京沪高铁|logistics 601857|中国石油|chemicals 601888|中国中免|consumer 601899|紫金矿业|mining "
        "601919|中远海控|logistics 601939|建设银行|bank 601985|中国核电|utilities 601988|中国银行|bank "
        "603259|药明康德|pharma 603288|海天味业|consumer 603799|华友钴业|new_energy 603986|兆易创新|semiconductor"
    ),
    ("sh", 688001): (
        "688005|容百科技|new_energy 688008|澜起科技|semiconductor 688012|中微公司|semiconductor "
        "688036|传音控股|electronics 688041|海光信息|semiconductor 688065|凯赛生物|chemicals "
        "688099|晶晨股份|semiconductor 688111|金山办公|software 688122|西部超导|mining "
        "688126|沪硅产业|semiconductor 688169|石头科技|electronics 688185|康希诺|pharma "
        "688187|时代电气|machinery 688223|晶科能源|new_energy 688235|百济神州|pharma "
        "688256|寒武纪|semiconductor 688271|联影医疗|pharma 688303|大全能源|new_energy 688363|华熙生物|pharma "
        "688396|华润微|semiconductor 688472|阿特斯|new_energy 688561|奇安信|software 688599|天合光能|new_energy "
        "688777|中控技术|software 688981|中芯国际|semiconductor"
    ),
    ("sz", 1): (
        "000001|平安银行|bank 000002|万科A|real_estate 000027|深圳能源|utilities 000039|中集集团|machinery "
        "000060|中金岭南|mining 000063|中兴通讯|telecom 000069|华侨城A|real_estate 000088|盐田港|logistics "
        "000089|深圳机场|logistics 000100|TCL科技|electronics 000157|中联重科|machinery 000166|申万宏源|finance "
        "000333|美的集团|consumer 000338|潍柴动力|auto 000402|金融街|real_estate 000423|东阿阿胶|pharma "
        "000425|徐工机械|machinery 000513|丽珠集团|pharma 000538|云南白药|pharma 000568|泸州老窖|consumer "
        "000596|古井贡酒|consumer 000625|长安汽车|auto 000636|风华高科|electronics 000651|格力电器|consumer "
        "000661|长春高新|pharma 000703|恒逸石化|chemicals 000708|中信特钢|mining 000725|京东方A|electronics "
        "000728|国元证券|finance 000729|燕京啤酒|consumer 000768|中航西飞|machinery 000776|广发证券|finance "
        "000783|长江证券|finance 000786|北新建材|chemicals 000792|盐湖股份|chemicals 000799|酒鬼酒|consumer "
        "000800|一汽解放|auto 000858|五粮液|consumer 000876|新希望|consumer 000895|双汇发展|consumer "
        "000938|紫光股份|software 000963|华东医药|pharma 000977|浪潮信息|electronics 000999|华润三九|pharma "
        "001979|招商蛇口|real_estate"
    ),
    ("sz", 2001): (
        "002001|新和成|chemicals 002007|华兰生物|pharma 002027|分众传媒|media 002032|苏泊尔|consumer "
        "002049|紫光国微|semiconductor 002050|三花智控|machinery 002074|国轩高科|new_energy "
        "002120|韵达股份|logistics 002129|TCL中环|new_energy 002142|宁波银行|bank 002179|中航光电|electronics "
        "002230|科大讯飞|software 002236|大华股份|electronics 002241|歌尔股份|electronics "
        "002271|东方雨虹|chemicals 002304|洋河股份|consumer 002352|顺丰控股|logistics "
        "002371|北方华创|semiconductor 002384|东山精密|electronics 002410|广联达|software "
        "002415|海康威视|electronics 002459|晶澳科技|new_energy 002460|赣锋锂业|new_energy "
        "002463|沪电股份|electronics 002466|天齐锂业|new_energy 002475|立讯精密|electronics "
        "002493|荣盛石化|chemicals 002507|涪陵榨菜|consumer 002555|三七互娱|media 002568|百润股份|consumer "
        "002594|比亚迪|auto 002601|龙佰集团|chemicals 002624|完美世界|media 002648|卫星化学|chemicals "
        "002709|天赐材料|new_energy 002714|牧原股份|consumer 002736|国信证券|finance 002812|恩捷股份|new_energy "
        "002916|深南电路|electronics 002938|鹏鼎控股|electronics"
    ),
    ("sz", 300001): (
        "300003|乐普医疗|pharma 300012|华测检测|machinery 300014|亿纬锂能|new_energy 300015|爱尔眼科|pharma "
        "300033|同花顺|software 300059|东方财富|finance 300122|智飞生物|pharma 300124|汇川技术|machinery "
        "300142|沃森生物|pharma 300144|宋城演艺|media 300207|欣旺达|new_energy 300274|阳光电源|new_energy "
        "300285|国瓷材料|chemicals 300316|晶盛机电|machinery 300347|泰格医药|pharma 300408|三环集团|electronics "
        "300413|芒果超媒|media 300433|蓝思科技|electronics 300450|先导智能|machinery 300454|深信服|software "
        "300476|胜宏科技|electronics 300496|中科创达|software 300498|温氏股份|consumer 300601|康泰生物|pharma "
        "300628|亿联网络|telecom 300661|圣邦股份|semiconductor 300676|华大基因|pharma "
        "300750|宁德时代|new_energy 300751|迈为股份|new_energy 300759|康龙化成|pharma 300760|迈瑞医疗|pharma "
        "300763|锦浪科技|new_energy 300782|卓胜微|semiconductor 300832|新产业|pharma "
        "300866|安克创新|electronics 300888|稳健医疗|pharma 300896|爱美客|pharma 300919|中伟股份|new_energy "
        "300957|贝泰妮|consumer 300999|金龙鱼|consumer"
    ),
    ("hk", 1): (
        "00001|长和|real_estate 00002|中电控股|utilities 00003|香港中华煤气|utilities 00005|汇丰控股|bank "
        "00006|电能实业|utilities 00011|恒生银行|bank 00016|新鸿基地产|real_estate 00027|银河娱乐|consumer "
        "00066|港铁公司|logistics 00135|昆仑能源|utilities 00151|中国旺旺|consumer 00175|吉利汽车|auto "
        "00241|阿里健康|internet 00268|金蝶国际|software 00285|比亚迪电子|electronics 00291|华润啤酒|consumer "
        "00322|康师傅控股|consumer 00388|香港交易所|finance 00669|创科实业|machinery "
        "00688|中国海外发展|real_estate 00700|腾讯控股|internet 00772|阅文集团|media 00836|华润电力|utilities "
        "00883|中国海洋石油|chemicals 00941|中国移动|telecom 00960|龙湖集团|real_estate 00992|联想集团|electronics "
        "01024|快手|internet 01044|恒安国际|consumer 01093|石药集团|pharma 01109|华润置地|real_estate "
        "01177|中国生物制药|pharma 01211|比亚迪股份|auto 01299|友邦保险|finance 01347|华虹半导体|semiconductor "
        "01801|信达生物|pharma 01810|小米集团|electronics 01928|金沙中国|consumer 01929|周大福|consumer 02015|理想汽车|auto "
        "02020|安踏体育|consumer 02269|药明生物|pharma 02313|申洲国际|consumer 02319|蒙牛乳业|consumer "
        "02331|李宁|consumer 02382|舜宇光学科技|electronics 03690|美团|internet 06618|京东健康|internet "
        "06862|海底捞|consumer 09618|京东集团|internet 09626|哔哩哔哩|internet 09633|农夫山泉|consumer "
        "09866|蔚来|auto 09868|小鹏汽车|auto 09888|百度集团|internet 09961|携程集团|internet "
        "09987|百胜中国|consumer 09988|阿里巴巴|internet 09992|泡泡玛特|consumer 09999|网易|internet"
    ),
}
LISTED: dict[tuple[str, int], list[tuple[str, str, str]]] = {
    k: [(a, b, c) for a, b, c in (x.split("|") for x in v.split())] for k, v in _S.items()
}


def stock_rows(
    rng: random.Random, boards: list[tuple[str, tuple[int, int], int, float]], n_days: int
) -> list[tuple[Any, ...]]:
    """The ``fin_stocks`` rows: each board's listed companies (``LISTED``) with simulated prices.

    The generator once drew a code, an industry and an invented name per stock; those draws are still
    made (and dropped) so that the tables drawn after the stocks (funds, FX, merchants) keep their rows.
    """
    rows, invented = [], set()
    for market, (lo, hi), count, limit in boards:
        listed = LISTED[(market, lo)]
        assert len(listed) == count, (market, lo, len(listed))
        rng.sample(range(lo, hi + 1), count)
        for symbol, name, ind in listed:
            drawn = _DRAWN_INDUSTRIES[rng.randrange(len(_DRAWN_INDUSTRIES))]
            while True:
                stem = rng.choice(NAME_FIRST) + rng.choice(NAME_SECOND)
                old = stem + rng.choice(HK_SUFFIXES if market == "hk" else INDUSTRIES[drawn][0])
                if old not in invented:
                    break
            invented.add(old)
            _sufs, typical, vol, pe = INDUSTRIES[ind]
            price = typical * math.exp(rng.gauss(0, 0.55)) * (0.6 if market == "hk" else 1.0)
            first = 0 if rng.random() < 0.85 else rng.randrange(0, int(n_days * 0.6))
            eps = price / (pe * rng.uniform(0.6, 1.6)) * (-0.3 if rng.random() < 0.08 else 1.0)
            rows.append(
                (symbol, market, name, ind, first, round(price, 2), round(rng.gauss(0.04, 0.1), 4),
                 round(vol * rng.uniform(0.8, 1.25), 4), limit, round(math.exp(rng.uniform(5.3, 9.9)), 1),
                 round(eps, 3))
            )  # fmt: skip
    return rows


# Real fund houses (short names), twelve as before so the generator's draws stay the same.
FUND_COMPANIES = [
    "易方达",
    "华夏",
    "南方",
    "广发",
    "嘉实",
    "富国",
    "汇添富",
    "博时",
    "招商",
    "中欧",
    "景顺长城",
    "工银瑞信",
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
