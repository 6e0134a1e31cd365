"""Geography for navigation and ride hailing: a small geocoder, name lists, metro networks, roads.

Everything here is pure and deterministic (no store, no clock): positions derive from the city
centres in ``_common.CITIES``, a hand-written table of well-known landmarks, and ``stable_unit``.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
from dataclasses import dataclass

from ..runtime import stable_rng, stable_unit
from ._common import CITIES, canonical_city

# Well-known places: city -> name -> (km east, km north) of the city centre. Approximate.
# fmt: off
LANDMARKS: dict[str, dict[str, tuple[float, float]]] = {
    "北京": {
        "天安门": (0.0, 0.9), "故宫": (0.0, 1.5), "国贸": (6.5, 0.3), "三里屯": (4.8, 2.5), "中关村": (-6.5, 9.0),
        "五道口": (-5.0, 11.0), "望京": (8.0, 10.0), "西单": (-2.6, 0.2), "王府井": (1.2, 0.5), "北京南站": (-0.5, -6.0),
        "北京西站": (-7.0, -0.5), "北京站": (2.5, -0.3), "北京北站": (-4.5, 3.5), "首都机场": (20.0, 20.0),
        "大兴机场": (0.0, -46.0), "颐和园": (-12.0, 12.0), "鸟巢": (1.0, 10.0), "798艺术区": (9.0, 8.0),
        "北京大学": (-9.0, 10.0), "清华大学": (-7.0, 11.0), "西直门": (-5.0, 3.0),
    },
    "上海": {
        "人民广场": (0.0, 0.0), "外滩": (1.5, 0.5), "陆家嘴": (3.5, 0.5), "南京路步行街": (0.8, 0.3), "静安寺": (-3.5, 0.0),
        "徐家汇": (-4.5, -4.7), "虹桥火车站": (-20.0, -2.0), "虹桥机场": (-17.0, -2.0), "浦东机场": (38.0, -10.0),
        "上海站": (0.0, 2.5), "上海南站": (-3.5, -8.0), "迪士尼": (24.0, -10.0), "豫园": (1.3, -0.8), "新天地": (-0.3, -1.2),
        "五角场": (5.0, 9.0), "世纪公园": (8.0, -2.0),
    },
    "广州": {
        "广州塔": (2.7, -1.8), "天河城": (7.5, 0.5), "珠江新城": (8.0, -1.0), "北京路": (0.5, -0.2), "上下九": (-1.5, -0.5),
        "广州南站": (-3.0, -17.0), "广州东站": (8.5, 2.0), "广州站": (-0.5, 2.5), "白云机场": (3.0, 27.0), "长隆": (6.0, -18.0),
        "沙面": (-2.0, -1.5), "白云山": (2.5, 6.0),
    },
    "深圳": {
        "深圳北站": (0.5, 8.0), "深圳站": (5.5, -1.2), "宝安机场": (-26.0, 10.0), "华强北": (2.5, 0.5), "世界之窗": (-8.0, -0.5),
        "欢乐谷": (-9.0, 0.0), "科技园": (-12.0, 0.5), "东门": (5.0, 0.5), "蛇口": (-14.0, -6.0), "福田中心区": (0.0, 0.0),
        "市民中心": (0.0, 0.3), "大梅沙": (22.0, -2.0),
    },
    "杭州": {
        "西湖": (-1.0, -0.5), "断桥": (-0.8, 0.3), "灵隐寺": (-6.5, -0.5), "杭州东站": (7.0, 3.0), "武林广场": (0.5, 1.2),
        "钱江新城": (5.0, -3.0), "萧山机场": (22.0, -12.0), "西溪湿地": (-9.0, 3.0), "杭州站": (2.0, -0.5),
        "河坊街": (0.3, -1.5), "浙江大学": (-3.0, 3.5),
    },
    "成都": {
        "天府广场": (0.0, 0.1), "春熙路": (1.5, 0.0), "太古里": (1.8, 0.2), "宽窄巷子": (-2.0, 0.5), "锦里": (-1.5, -1.5),
        "武侯祠": (-1.5, -1.6), "成都东站": (8.5, -0.5), "双流机场": (-10.0, -17.0), "天府机场": (45.0, -50.0),
        "大熊猫基地": (4.0, 9.0), "成都站": (0.5, 5.0),
    },
    "南京": {
        "新街口": (0.0, 0.0), "夫子庙": (0.8, -2.0), "南京南站": (1.0, -9.0), "南京站": (0.8, 5.5), "中山陵": (6.0, 1.5),
        "玄武湖": (1.0, 3.0), "禄口机场": (5.0, -35.0),
    },
    "西安": {
        "钟楼": (0.0, 0.0), "大雁塔": (0.5, -4.5), "回民街": (-0.4, 0.3), "西安北站": (0.0, 14.0), "西安站": (1.5, 1.6),
        "兵马俑": (30.0, 8.0), "咸阳机场": (-20.0, 22.0), "大唐不夜城": (0.6, -5.0),
    },
    "武汉": {
        "黄鹤楼": (-0.5, -1.5), "江汉路": (-0.5, 2.0), "光谷": (10.0, -6.0), "武汉站": (12.0, 3.0), "汉口站": (-3.0, 5.0),
        "天河机场": (-10.0, 25.0), "东湖": (5.0, 0.0), "武汉大学": (3.0, -2.0),
    },
    "重庆": {
        "解放碑": (0.0, 0.0), "洪崖洞": (0.3, 0.5), "朝天门": (1.2, 0.8), "观音桥": (-1.0, 3.5), "重庆北站": (0.0, 9.0),
        "重庆西站": (-12.0, -4.0), "江北机场": (10.0, 18.0), "磁器口": (-11.0, 2.5),
    },
}
# fmt: on
# Well-known places a geocoder finds though no metro station is named after them (kept out of
# LANDMARKS, which also names the generated metro stations).
EXTRA_LANDMARKS: dict[str, dict[str, tuple[float, float]]] = {
    "上海": {"东方明珠": (3.2, 0.6)},
}

_DIRECTIONS = {"东": (1.0, 0.0), "西": (-1.0, 0.0), "南": (0.0, -1.0), "北": (0.0, 1.0)}
_CENTRE_WORDS = ("市中心", "市区", "市政府", "人民广场", "中心广场", "市中心广场")
_CITY_WORDS = tuple(w for w in _CENTRE_WORDS if w.startswith("市"))  # 市 of these is no city suffix


@dataclass(frozen=True)
class Spot:
    """A located place: display name, coordinates, and how it was matched."""

    name: str
    lat: float
    lon: float
    kind: str  # landmark | railway_station | airport | city_centre | approximate


def offset(lat: float, lon: float, east_km: float, north_km: float) -> tuple[float, float]:
    dlat = north_km / 111.0
    dlon = east_km / (111.0 * math.cos(math.radians(lat)))
    return round(lat + dlat, 5), round(lon + dlon, 5)


def haversine(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0 * math.asin(math.sqrt(min(1.0, h)))


def split_city(place: str) -> tuple[str | None, str]:
    """The covered city a place name starts with ("北京南站" -> 北京) and the name itself."""
    s = place.strip()
    c = canonical_city(s)
    if c is not None and c in CITIES:
        return c, s
    for n in range(4, 1, -1):
        head = s[:n]
        if head in CITIES:
            return head, s
        if s[n : n + 1] == "市" and head in CITIES:
            return head, s
    for city, marks in LANDMARKS.items():
        extra = EXTRA_LANDMARKS.get(city, {})
        if s in marks or s in extra or _airport_short(s) in marks:
            return city, s
    return None, s


def _airport_short(name: str) -> str:
    """ "浦东国际机场" is the landmark "浦东机场"."""
    return name.replace("国际机场", "机场")


def locate(city: str, place: str) -> Spot:
    """Geocode ``place`` inside ``city`` (a key of CITIES). Never fails: unknown names are placed
    deterministically within 6 km of the centre and marked ``approximate``."""
    lat0, lon0, _ = CITIES[city]
    s = place.strip().replace(" ", "")
    bare = s[len(city) :] if s.startswith(city) and len(s) > len(city) else s
    if bare is not s and bare.startswith("市") and not bare.startswith(_CITY_WORDS):
        bare = bare[1:]  # 呼和浩特市人民公园, but 呼和浩特市中心皇冠假日酒店 keeps its 市中心
    bare = bare.strip() or s
    if s == city or bare in _CENTRE_WORDS or s in _CENTRE_WORDS:
        return Spot(f"{city}市中心", lat0, lon0, "city_centre")
    marks = {**EXTRA_LANDMARKS.get(city, {}), **LANDMARKS.get(city, {})}
    for key in (s, bare, f"{city}{bare}", _airport_short(bare)):
        if key in marks:
            e, n = marks[key]
            return Spot(key, *offset(lat0, lon0, e, n), "landmark")
    if bare in ("站", "火车站", "高铁站") or s in (f"{city}站", f"{city}火车站"):
        return Spot(f"{city}站", *offset(lat0, lon0, 1.5, 2.0), "railway_station")
    if len(bare) == 2 and bare[1] == "站" and bare[0] in _DIRECTIONS:
        dx, dy = _DIRECTIONS[bare[0]]
        return Spot(f"{city}{bare}", *offset(lat0, lon0, 8.0 * dx, 8.0 * dy), "railway_station")
    if bare.endswith("机场") or "国际机场" in bare:
        ang = stable_unit("airport", city) * 2 * math.pi
        return Spot(f"{city}机场", *offset(lat0, lon0, 25 * math.cos(ang), 25 * math.sin(ang)), "airport")
    # placed by the name without its city, so 呼和浩特市中心皇冠假日酒店 and 市中心皇冠假日酒店 (the city
    # said apart: 呼和浩特站到市中心皇冠假日酒店) are one place (train round I)
    ang = stable_unit("geo-angle", city, bare) * 2 * math.pi
    r = 0.5 + 5.5 * stable_unit("geo-radius", city, bare)
    return Spot(s, *offset(lat0, lon0, r * math.cos(ang), r * math.sin(ang)), "approximate")


# --- names --------------------------------------------------------------------------------------
NAME_CHARS = "华兴盛安康泰和平明光新东南西北中金银龙凤瑞祥福海天山湖江云翠松竹梅兰锦绣阳春秋景德丰源"
STREET_WORDS = [
    "人民",
    "解放",
    "中山",
    "建设",
    "胜利",
    "和平",
    "新华",
    "文化",
    "青年",
    "民主",
    "长江",
    "黄河",
    "花园",
    "工业",
    "学府",
    "科技",
    "滨江",
    "湖滨",
    "迎宾",
    "朝阳",
    "光明",
    "幸福",
    "友谊",
    "北京",
    "上海",
    "南京",
]


def two_chars(rng_key: tuple[object, ...]) -> str:
    r = stable_rng(*rng_key)
    return r.choice(NAME_CHARS) + r.choice(NAME_CHARS)


# --- metro --------------------------------------------------------------------------------------
# Cities of the store that run a metro, and how many lines their generated network has.
# fmt: off
METRO_LINES: dict[str, int] = {
    "北京": 10, "上海": 10, "广州": 8, "深圳": 8, "成都": 8, "武汉": 7, "重庆": 7, "南京": 7, "杭州": 7, "西安": 6, "天津": 6,
    "郑州": 6, "长沙": 5, "苏州": 5, "青岛": 5, "沈阳": 4, "大连": 4, "合肥": 4, "宁波": 4, "昆明": 4, "南昌": 3, "南宁": 3, "福州": 3,
    "厦门": 3, "济南": 3, "哈尔滨": 3, "长春": 3, "石家庄": 3, "太原": 2, "贵阳": 2, "无锡": 3, "东莞": 2, "佛山": 3, "兰州": 2,
    "乌鲁木齐": 2, "呼和浩特": 2, "温州": 2, "徐州": 3, "洛阳": 2,
}
# fmt: on
_STATION_SUFFIX = ["路", "街", "桥", "门", "广场", "公园", "村", "湖", "口", "里", "中心", "大道"]


@dataclass(frozen=True)
class MetroStation:
    name: str
    lat: float
    lon: float
    lines: tuple[str, ...]


@dataclass(frozen=True)
class MetroNetwork:
    city: str
    lines: dict[str, list[str]]  # line name -> station names in order
    stations: dict[str, MetroStation]


@functools.cache
def metro_network(city: str) -> MetroNetwork:
    """A generated grid network: half the lines run east-west, half north-south; crossings are
    transfer stations; well-known landmarks of the city name the stations nearest to them."""
    n = METRO_LINES[city]
    rng = stable_rng("metro", city)
    lat0, lon0, _ = CITIES[city]
    ew = (n + 1) // 2
    ns = n - ew
    span = 6 + n  # km from the centre to a line's end
    ys = [(i - (ew - 1) / 2) * 2.8 + rng.uniform(-0.6, 0.6) for i in range(ew)]
    xs = [(j - (ns - 1) / 2) * 2.8 + rng.uniform(-0.6, 0.6) for j in range(ns)]
    pts: dict[tuple[int, int], tuple[float, float]] = {}
    line_pts: dict[str, list[tuple[int, int]]] = {}
    order = list(range(1, n + 1))
    for i, y in enumerate(ys):
        seq: list[tuple[int, int]] = []
        x = -span + rng.uniform(0, 1.5)
        while x < span:
            key = (round(x * 10), round(y * 10))
            pts[key] = (key[0] / 10, key[1] / 10)
            seq.append(key)
            x += rng.uniform(1.0, 1.7)
        line_pts[f"{order[i]}号线"] = seq
    for j, x in enumerate(xs):
        seq = []
        crossed: set[int] = set()
        y = -span + rng.uniform(0, 1.5)
        while y < span:
            near = next((i for i, c in enumerate(ys) if abs(c - y) < 0.9 and i not in crossed), None)
            if near is not None:
                crossed.add(near)
                cands = line_pts[f"{order[near]}号线"]
                key = min(cands, key=lambda k: abs(k[0] / 10 - x))
            else:
                key = (round(x * 10), round(y * 10))
                pts[key] = (key[0] / 10, key[1] / 10)
            if key not in seq:
                seq.append(key)
            y += rng.uniform(1.0, 1.7)
        line_pts[f"{order[ew + j]}号线"] = seq
    # names: landmarks take the nearest station, the rest get street-like names
    names: dict[tuple[int, int], str] = {}
    used: set[str] = set()
    for mark, (e, nn) in sorted(LANDMARKS.get(city, {}).items()):
        best = min(pts, key=lambda k: (pts[k][0] - e) ** 2 + (pts[k][1] - nn) ** 2)
        if best not in names and (pts[best][0] - e) ** 2 + (pts[best][1] - nn) ** 2 < 4.0:
            names[best] = mark
            used.add(mark)
    for key in sorted(pts):
        if key in names:
            continue
        while True:
            cand = rng.choice([*STREET_WORDS, two_chars(("st", city, key, len(used)))]) + rng.choice(
                _STATION_SUFFIX
            )
            if cand not in used:
                break
        names[key] = cand
        used.add(cand)
    lines = {ln: [names[k] for k in seq] for ln, seq in line_pts.items()}
    member: dict[str, list[str]] = {}
    for ln, seq2 in lines.items():
        for st in seq2:
            member.setdefault(st, []).append(ln)
    stations = {
        names[k]: MetroStation(names[k], *offset(lat0, lon0, p[0], p[1]), tuple(member[names[k]]))
        for k, p in pts.items()
        if names[k] in member
    }
    return MetroNetwork(city, lines, stations)


@dataclass(frozen=True)
class MetroLeg:
    line: str
    board: str
    alight: str
    stops: int
    km: float


def metro_path(net: MetroNetwork, a: str, b: str) -> tuple[float, list[MetroLeg]] | None:
    """Fastest ride from station ``a`` to ``b`` (minutes, legs): 35 km/h plus 40 s dwell per stop,
    5 minutes per transfer. None when they are not connected."""
    adj: dict[tuple[str, str], list[tuple[tuple[str, str], float, float]]] = {}
    for ln, seq in net.lines.items():
        for x, y in itertools.pairwise(seq):
            sx, sy = net.stations[x], net.stations[y]
            km = haversine(sx.lat, sx.lon, sy.lat, sy.lon)
            t = km / 35 * 60 + 0.67
            adj.setdefault((x, ln), []).append(((y, ln), t, km))
            adj.setdefault((y, ln), []).append(((x, ln), t, km))
    for st in net.stations.values():
        for l1 in st.lines:
            for l2 in st.lines:
                if l1 != l2:
                    adj.setdefault((st.name, l1), []).append(((st.name, l2), 5.0, 0.0))
    start = [(0.0, 0.0, (a, ln)) for ln in net.stations[a].lines]
    heap = list(start)
    heapq.heapify(heap)
    best: dict[tuple[str, str], float] = {n: 0.0 for _, _, n in start}
    prev: dict[tuple[str, str], tuple[tuple[str, str], float]] = {}
    while heap:
        t, km, node = heapq.heappop(heap)
        if t > best.get(node, math.inf):
            continue
        if node[0] == b:
            legs: list[MetroLeg] = []
            path = [node]
            while path[-1] in prev:
                path.append(prev[path[-1]][0])
            path.reverse()
            dist = {path[0]: 0.0}
            for i in range(1, len(path)):
                dist[path[i]] = dist[path[i - 1]] + prev[path[i]][1]
            i = 0
            while i < len(path) - 1:
                j = i
                while j + 1 < len(path) and path[j + 1][1] == path[i][1]:
                    j += 1
                if j > i:
                    legs.append(
                        MetroLeg(
                            path[i][1], path[i][0], path[j][0], j - i, round(dist[path[j]] - dist[path[i]], 2)
                        )
                    )
                i = j + 1 if j > i else i + 1
            return t, legs
        for nxt, dt, dk in adj.get(node, []):
            nt = t + dt
            if nt < best.get(nxt, math.inf):
                best[nxt] = nt
                prev[nxt] = (node, dk)
                heapq.heappush(heap, (nt, km + dk, nxt))
    return None


def metro_fare(km: float) -> float:
    """Distance fare in the Beijing style: 3 yuan up to 6 km, 4 up to 12, 5 up to 22, 6 up to 32, then 1 per 20 km."""
    if km <= 6:
        return 3.0
    if km <= 12:
        return 4.0
    if km <= 22:
        return 5.0
    if km <= 32:
        return 6.0
    return 6.0 + math.ceil((km - 32) / 20)


def nearest_station(net: MetroNetwork, lat: float, lon: float) -> tuple[MetroStation, float]:
    st = min(net.stations.values(), key=lambda s: (haversine(lat, lon, s.lat, s.lon), s.name))
    return st, haversine(lat, lon, st.lat, st.lon)


# --- roads and places ---------------------------------------------------------------------------
# Well-known roads: city -> [(name, class)]. Other roads are generated per city.
# fmt: off
FAMOUS_ROADS: dict[str, list[tuple[str, str]]] = {
    "北京": [
        ("二环路", "ring"), ("三环路", "ring"), ("四环路", "ring"), ("五环路", "ring"), ("长安街", "arterial"),
        ("京藏高速", "expressway"), ("京港澳高速", "expressway"), ("机场高速", "expressway"),
    ],
    "上海": [
        ("内环高架", "ring"), ("中环路", "ring"), ("外环高速", "ring"), ("延安高架", "expressway"), ("南北高架", "expressway"),
        ("沪嘉高速", "expressway"), ("世纪大道", "arterial"),
    ],
    "广州": [("内环路", "ring"), ("环城高速", "ring"), ("广州大道", "arterial"), ("天河路", "arterial"), ("黄埔大道", "arterial")],
    "深圳": [("深南大道", "arterial"), ("北环大道", "expressway"), ("滨海大道", "expressway"), ("梅观高速", "expressway")],
    "杭州": [("中河高架", "expressway"), ("上塘高架", "expressway"), ("绕城高速", "ring"), ("文一路", "arterial")],
    "成都": [("一环路", "ring"), ("二环高架", "ring"), ("三环路", "ring"), ("天府大道", "arterial")],
    "南京": [("内环", "ring"), ("中山路", "arterial"), ("应天大街高架", "expressway")],
    "武汉": [("二环线", "ring"), ("三环线", "ring"), ("武汉长江大桥", "bridge"), ("解放大道", "arterial")],
    "西安": [("二环路", "ring"), ("三环路", "ring"), ("长安路", "arterial")],
    "重庆": [("内环快速", "ring"), ("嘉陵江大桥", "bridge"), ("渝澳大桥", "bridge")],
}
# fmt: on
ROAD_SUFFIX = ["路", "大道", "街", "东路", "西路", "南路", "北路", "中路"]

# fmt: off
POI_CATEGORIES: dict[str, list[str]] = {
    "restaurant": ["家常菜馆", "火锅", "烧烤", "面馆", "饺子馆", "川菜馆", "粤菜馆", "湘菜馆", "西餐厅", "日料", "小吃店"],
    "cafe": ["咖啡", "咖啡馆", "茶饮", "书咖"],
    "hotel": ["酒店", "宾馆", "公寓酒店"],
    "supermarket": ["超市", "生鲜超市", "购物广场超市"],
    "convenience_store": ["便利店", "24小时便利店"],
    "shopping_mall": ["购物中心", "广场", "百货", "商业街"],
    "gas_station": ["加油站"],
    "hospital": ["人民医院", "中医院", "社区卫生服务中心", "妇幼保健院", "口腔医院"],
    "bank": ["银行支行", "银行营业部"],
    "atm": ["银行ATM", "自助银行"],
    "cinema": ["影城", "国际影院", "电影院"],
    "park": ["公园", "体育公园", "湿地公园", "广场公园"],
    "toilet": ["公共厕所"],
    "gym": ["健身房", "游泳馆", "体育馆"],
}
# fmt: on
POI_BRANDS: dict[str, list[str]] = {
    "cafe": ["星巴克", "瑞幸咖啡", "Manner", "库迪咖啡", "喜茶", "蜜雪冰城"],
    "convenience_store": ["全家", "罗森", "7-Eleven", "美宜佳", "便利蜂"],
    "supermarket": ["永辉超市", "盒马鲜生", "沃尔玛", "华润万家", "物美"],
    "restaurant": ["海底捞", "肯德基", "麦当劳", "西贝莜面村", "外婆家", "老乡鸡"],
    "gas_station": ["中国石化", "中国石油", "壳牌"],
    "bank": ["工商银行", "建设银行", "农业银行", "中国银行", "招商银行"],
    "cinema": ["万达影城", "CGV影城", "大地影院"],
}
