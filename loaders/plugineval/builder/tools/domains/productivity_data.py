"""Facts for the productivity store: China's holiday calendar, unit tables, time-zone aliases, rooms.

The holiday calendar (2020–2026 official with 调休, 2027–2030 estimated) lives in the core,
``plugineval.normalize.workdays``, which the normalizer's workday expressions read too; outside
2020–2030 there is no holiday calendar and workday arithmetic refuses to answer.
"""

from __future__ import annotations

import random
from typing import Any

from plugineval.normalize.workdays import (
    OFFICIAL_YEARS,
    WORKDAY_YEARS,
    day_info,
    holiday_rows,
    holiday_table,
)

Rows = list[tuple[Any, ...]]

__all__ = ["OFFICIAL_YEARS", "WORKDAY_YEARS", "day_info", "holiday_rows", "holiday_table"]


def _w(s: str, sep: str | None = None) -> list[str]:
    return s.split(sep)


# --- units -------------------------------------------------------------------------------------------
# id: (category, factor to the category's base unit, Chinese name). Temperature is affine, handled apart.
_UNITS = """
length m 1 米;length km 1000 千米;length cm 0.01 厘米;length mm 0.001 毫米;length um 1e-6 微米;
length nm 1e-9 纳米;length mile 1609.344 英里;length yard 0.9144 码;length ft 0.3048 英尺;length inch 0.0254 英寸;
length nmi 1852 海里;length li 500 里;length zhang 3.3333333333333335 丈;length chi 0.3333333333333333 尺;
length cun 0.03333333333333333 寸;mass kg 1 千克;mass g 0.001 克;mass mg 1e-6 毫克;mass t 1000 吨;
mass lb 0.45359237 磅;mass oz 0.028349523125 盎司;mass jin 0.5 斤;mass liang 0.05 两;mass qian 0.005 钱;
mass carat 0.0002 克拉;area m2 1 平方米;area km2 1e6 平方千米;area cm2 1e-4 平方厘米;area ha 10000 公顷;
area mu 666.6666666666666 亩;area acre 4046.8564224 英亩;area sqft 0.09290304 平方英尺;volume l 1 升;
volume ml 0.001 毫升;volume m3 1000 立方米;volume gal_us 3.785411784 美制加仑;volume gal_uk 4.54609 英制加仑;
volume fl_oz 0.0295735295625 液量盎司;temperature celsius 1 摄氏度;temperature fahrenheit 1 华氏度;
temperature kelvin 1 开尔文;speed m_s 1 米每秒;speed km_h 0.2777777777777778 千米每小时;speed mph 0.44704 英里每小时;
speed knot 0.5144444444444445 节;data bit 0.125 比特;data byte 1 字节;data kb 1024 KB;data mb 1048576 MB;
data gb 1073741824 GB;data tb 1099511627776 TB;time ms 0.001 毫秒;time s 1 秒;time min 60 分钟;time h 3600 小时;
time day 86400 天;time week 604800 周;energy j 1 焦耳;energy kj 1000 千焦;energy cal 4.184 卡;
energy kcal 4184 千卡;energy kwh 3600000 千瓦时
"""


def unit_rows() -> Rows:
    rows: Rows = []
    for item in _UNITS.replace("\n", "").split(";"):
        cat, uid, factor, name = item.split()
        rows.append((uid, cat, float(factor), name))
    return rows


# --- time zones ------------------------------------------------------------------------------------------
_ZONES = """
香港:Asia/Hong_Kong 澳门:Asia/Macau 台北:Asia/Taipei 东京:Asia/Tokyo 大阪:Asia/Tokyo 日本:Asia/Tokyo
首尔:Asia/Seoul 韩国:Asia/Seoul 新加坡:Asia/Singapore 曼谷:Asia/Bangkok 泰国:Asia/Bangkok 吉隆坡:Asia/Kuala_Lumpur
雅加达:Asia/Jakarta 马尼拉:Asia/Manila 河内:Asia/Ho_Chi_Minh 胡志明市:Asia/Ho_Chi_Minh 新德里:Asia/Kolkata
孟买:Asia/Kolkata 印度:Asia/Kolkata 迪拜:Asia/Dubai 阿布扎比:Asia/Dubai 利雅得:Asia/Riyadh 德黑兰:Asia/Tehran
伊斯坦布尔:Europe/Istanbul 莫斯科:Europe/Moscow 伦敦:Europe/London 英国:Europe/London 都柏林:Europe/Dublin
巴黎:Europe/Paris 法国:Europe/Paris 柏林:Europe/Berlin 法兰克福:Europe/Berlin 慕尼黑:Europe/Berlin 德国:Europe/Berlin
罗马:Europe/Rome 米兰:Europe/Rome 马德里:Europe/Madrid 巴塞罗那:Europe/Madrid 阿姆斯特丹:Europe/Amsterdam
布鲁塞尔:Europe/Brussels 苏黎世:Europe/Zurich 日内瓦:Europe/Zurich 维也纳:Europe/Vienna 斯德哥尔摩:Europe/Stockholm
赫尔辛基:Europe/Helsinki 雅典:Europe/Athens 开罗:Africa/Cairo 内罗毕:Africa/Nairobi 约翰内斯堡:Africa/Johannesburg
纽约:America/New_York 华盛顿:America/New_York 波士顿:America/New_York 费城:America/New_York 迈阿密:America/New_York
多伦多:America/Toronto 蒙特利尔:America/Toronto 芝加哥:America/Chicago 休斯顿:America/Chicago 达拉斯:America/Chicago
丹佛:America/Denver 凤凰城:America/Phoenix 洛杉矶:America/Los_Angeles 旧金山:America/Los_Angeles 硅谷:America/Los_Angeles
西雅图:America/Los_Angeles 拉斯维加斯:America/Los_Angeles 温哥华:America/Vancouver 墨西哥城:America/Mexico_City
圣保罗:America/Sao_Paulo 里约热内卢:America/Sao_Paulo 布宜诺斯艾利斯:America/Argentina/Buenos_Aires
檀香山:Pacific/Honolulu 夏威夷:Pacific/Honolulu 悉尼:Australia/Sydney 墨尔本:Australia/Melbourne 布里斯班:Australia/Brisbane
珀斯:Australia/Perth 奥克兰:Pacific/Auckland 惠灵顿:Pacific/Auckland 北京时间:Asia/Shanghai 中国:Asia/Shanghai
东八区:Asia/Shanghai 格林尼治:Etc/UTC 世界标准时间:Etc/UTC 协调世界时:Etc/UTC UTC:Etc/UTC GMT:Etc/UTC
美东:America/New_York 美西:America/Los_Angeles 美中:America/Chicago
new_york:America/New_York london:Europe/London tokyo:Asia/Tokyo paris:Europe/Paris beijing:Asia/Shanghai
shanghai:Asia/Shanghai sydney:Australia/Sydney singapore:Asia/Singapore seoul:Asia/Seoul los_angeles:America/Los_Angeles
"""


def zone_rows(mainland: list[str]) -> Rows:
    rows: Rows = [(c, "Asia/Shanghai") for c in sorted(mainland)]
    rows += [tuple(x.split(":", 1)) for x in _ZONES.split()]
    return rows


# --- meeting rooms -------------------------------------------------------------------------------------
# building: (name, room-id prefix, floors)
BUILDINGS = {
    "hq_a": ("北京总部A座", "A", range(3, 13)),
    "hq_b": ("北京总部B座", "B", range(2, 9)),
    "shanghai": ("上海分公司", "SH", range(15, 19)),
    "shenzhen": ("深圳研发中心", "SZ", range(5, 10)),
    "chengdu": ("成都分公司", "CD", range(10, 12)),
}
ROOM_NAMES = _w(
    "泰山 华山 衡山 嵩山 恒山 黄山 庐山 峨眉 武夷 雁荡 长江 黄河 珠江 漓江 西湖 洞庭 鄱阳 太湖 天池 洱海 昆仑 祁连"
)
CAPACITIES = [4, 6, 6, 8, 8, 10, 12, 16, 20]


def room_rows(rng: random.Random) -> Rows:
    rows: Rows = []
    for bid, (_, prefix, floors) in sorted(BUILDINGS.items()):
        names = rng.sample(ROOM_NAMES, len(ROOM_NAMES))
        k = 0
        for floor in floors:
            for n in range(1, rng.randint(2, 4) + 1):
                cap = rng.choice(CAPACITIES)
                video, projector = int(cap >= 8 or rng.random() < 0.3), int(cap >= 6)
                name = f"{names[k % len(names)]}厅" if k < len(names) else f"{floor}{n:02d}会议室"
                rows.append((f"{prefix}-{floor}{n:02d}", bid, floor, name, cap, video, projector))
                k += 1
        top = floors[-1]  # one large hall per building on the top floor
        cap = 50 if bid.startswith("hq") else 30
        rows.append((f"{prefix}-{top}99", bid, top, "多功能厅", cap, 1, 1))
    return rows


# --- calendar --------------------------------------------------------------------------------------------
# rule id: (title, frequency weekly|workdays|first_workday, weekday 0=Mon (weekly), HH:MM, minutes, location)
CALENDAR_RULES = [
    ("R1", "项目站会", "workdays", -1, "09:30", 15, "线上会议"),
    ("R2", "部门周例会", "weekly", 0, "10:00", 60, "A座1203会议室"),
    ("R3", "技术分享会", "weekly", 2, "15:00", 60, "A座多功能厅"),
    ("R4", "周报复盘", "weekly", 4, "16:30", 60, "线上会议"),
    ("R5", "月度经营分析会", "first_workday", -1, "14:00", 120, "B座多功能厅"),
    ("R6", "羽毛球", "weekly", 1, "19:30", 90, "体育中心羽毛球馆"),
    ("R7", "孩子钢琴课", "weekly", 5, "10:00", 90, "少年宫"),
]
EXTRA_EVENTS = _w(
    "客户拜访 产品评审会 需求澄清会 面试 供应商沟通 一对一沟通 预算评审 跨部门对齐 设计评审 培训 体检 牙医复诊 "
    "上线发布 合同谈判",
)
EXTRA_PLACES = _w("客户公司;A座805会议室;线上会议;B座302会议室;医院;A座1099会议室", ";")
