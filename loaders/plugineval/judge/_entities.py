"""Entity names with and without a generic suffix: 河南 / 河南队, 北京国安 / 北京国安队 / 北京国安足球俱乐部.

Two names are one entity here only where the data says so, never by a blanket strip of the suffix:

- one of them is a name the store's data holds: a team of its leagues (or a nickname the store
  resolves to one), a restaurant name its generator gives, a fixed organisation name (a pharmacy
  chain, a troupe, a publisher, a cinema brand);
- the other is that name with one generic suffix (``GENERIC_SUFFIXES``) added or taken away, and the
  shorter name keeps at least two characters (狼 is not 狼队);
- the shorter name is unambiguous in the data: no other entity is named by it, or by it with a
  generic suffix (were the store to hold 北京国安 and 北京国安队 as two teams, neither would match);
- the gazetteer does not know the two as different places (北京 is no 北京站: that pair is decided
  before, by the place rules).

Stations and airports are not extended this way: the gazetteer lists every name of each one
(海口火车站 is 海口站), and a stem such as 虹桥 names a station, an airport and a district at once.

Landmarks (``same_landmark``): the sights and places the store's navigation and scenic-spot data
name, each in its city, with the official full names people also use (``LANDMARK_NAMES``:
成都远洋太古里 is 太古里 in 成都) and the city's name in front (上海外滩 is 外滩, 深圳欢乐谷 is 欢乐谷 in
深圳). Two names are one landmark only where one landmark of one city carries both, and, with no
city given, where neither name is another city's landmark too (欢乐谷 lies in several cities).

A cold path: the judge asks only about a text pair the other rules left undecided, and the data
(``data/entities.json``, kept from the store's data modules: ``store_names``) is read once, on the
first pair that has the shape (one name is the other plus a generic suffix).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from ..normalize import limits, normalize_text

#: suffixes that say what kind of thing a name names, not which one (longest first); 男篮 and
#: 足球俱乐部 are what the store's team look-up takes off, besides 队
GENERIC_SUFFIXES: tuple[str, ...] = ("足球俱乐部", "医院", "公司", "集团", "男篮", "队", "店", "馆", "站")

#: official full names and common names of the store's landmarks (city -> the names of one landmark,
#: the store's own among them): well-known public names only, never a rename of one place to another
# fmt: off
LANDMARK_NAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "北京": (("故宫", "故宫博物院", "北京故宫博物院"), ("王府井", "王府井大街", "王府井步行街"), ("国贸", "中国国际贸易中心"), ("鸟巢", "国家体育场"),
             ("天坛公园", "天坛"), ("圆明园", "圆明园遗址公园"), ("中国国家博物馆", "国家博物馆"),
             ("香山公园", "香山"), ("北京环球度假区", "北京环球影城", "环球影城", "环球度假区")),
    "上海": (("南京路步行街", "南京东路步行街"), ("迪士尼", "上海迪士尼乐园", "迪士尼乐园", "上海迪士尼度假区", "迪士尼度假区"),
             ("东方明珠", "东方明珠广播电视塔", "东方明珠塔"), ("朱家角古镇", "朱家角")),
    "广州": (("上下九", "上下九步行街"), ("北京路", "北京路步行街"), ("长隆", "长隆旅游度假区"), ("陈家祠", "陈氏书院"), ("白云山", "白云山风景名胜区")),
    "深圳": (("大梅沙", "大梅沙海滨公园"), ("锦绣中华民俗村", "锦绣中华")),
    "天津": (("天津之眼", "永乐桥摩天轮"),),
    "重庆": (("解放碑", "解放碑步行街", "人民解放纪念碑"), ("洪崖洞", "洪崖洞民俗风貌区"), ("朝天门", "朝天门广场"),
             ("磁器口", "磁器口古镇"), ("观音桥", "观音桥步行街"), ("三峡博物馆", "中国三峡博物馆", "重庆中国三峡博物馆")),
    "成都": (("太古里", "远洋太古里", "成都远洋太古里"), ("春熙路", "春熙路步行街"), ("大熊猫基地", "成都大熊猫繁育研究基地", "大熊猫繁育研究基地"),
             ("武侯祠", "武侯祠博物馆", "成都武侯祠博物馆"), ("锦里", "锦里古街"),
             ("杜甫草堂", "杜甫草堂博物馆", "成都杜甫草堂博物馆"), ("金沙遗址博物馆", "金沙遗址")),
    "杭州": (("西湖", "西湖风景名胜区", "杭州西湖风景名胜区"), ("河坊街", "清河坊街", "清河坊"), ("西溪湿地", "西溪国家湿地公园")),
    "南京": (("夫子庙", "夫子庙秦淮风光带"), ("玄武湖", "玄武湖公园"),
             ("侵华日军南京大屠杀遇难同胞纪念馆", "南京大屠杀遇难同胞纪念馆", "南京大屠杀纪念馆")),
    "西安": (("兵马俑", "秦始皇兵马俑博物馆", "秦始皇帝陵博物院"), ("华清宫", "华清池")),
    "武汉": (("黄鹤楼", "黄鹤楼公园"), ("东湖", "东湖风景区", "东湖生态旅游风景区"), ("江汉路", "江汉路步行街"),
             ("归元禅寺", "归元寺")),
    "长沙": (("橘子洲", "橘子洲头", "橘子洲景区"), ("湖南博物院", "湖南省博物馆")),
    "郑州": (("少林寺", "嵩山少林寺"),),
    "济南": (("趵突泉", "趵突泉公园"), ("大明湖", "大明湖公园")),
    "沈阳": (("沈阳故宫", "沈阳故宫博物院"), ("张氏帅府", "张氏帅府博物馆", "大帅府"), ("中街", "中街步行街")),
    "哈尔滨": (("圣索菲亚大教堂", "索菲亚教堂", "圣索菲亚教堂"), ("中央大街", "中央大街步行街")),
    "长春": (("伪满皇宫博物院", "伪满皇宫"),),
    "拉萨": (("八廓街", "八角街"),),
}
# fmt: on

Index = tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]


def _stem(name: str) -> tuple[str, str] | None:
    """``name`` without its generic suffix, and the suffix (None when it has none, or when fewer than
    two characters would be left)."""
    for suf in GENERIC_SUFFIXES:
        if name.endswith(suf) and len(name) - len(suf) >= 2:
            return name[: -len(suf)], suf
    return None


def index_of(names: dict[str, set[str]]) -> Index:
    """(normalized name -> the entities it names, stem -> the entities whose name it is without a
    generic suffix), from raw name -> entities."""
    by_name: dict[str, set[str]] = {}
    for name, ents in names.items():
        by_name.setdefault(normalize_text(name), set()).update(ents)
    stems: dict[str, set[str]] = {}
    for name, ents in by_name.items():
        st = _stem(name)
        if st is not None:
            stems.setdefault(st[0], set()).update(ents)
    return (
        {k: frozenset(v) for k, v in by_name.items()},
        {k: frozenset(v) for k, v in stems.items()},
    )


DATA = Path(__file__).parent / "data" / "entities.json"


def store_names() -> dict[str, Any]:
    """The entity names of the store's data, as ``data/entities.json`` keeps them: the leagues' teams,
    the nicknames the store resolves to a team, the parts the restaurant generator joins (a prefix and
    a cuisine's suffix), the fixed organisation names. Reads the builder's data modules: the judge
    itself reads the file (a core install has no builder), and a test checks the two agree.
    Regenerate after a change to the store's names::

        .venv/bin/python -c "from plugineval.judge._entities import write_data; write_data()"
    """
    from ..builder.tools.domains import entertainment_data as ent
    from ..builder.tools.domains import food_data as food
    from ..builder.tools.domains import health_data as health

    return {
        "teams": sorted({t for league in ent.LEAGUES.values() for t in league[2]}),
        "team_nicknames": dict(sorted(ent.TEAM_ALIASES.items())),
        "restaurant_prefixes": sorted(set(food.NAME_PREFIX)),
        "restaurant_suffixes": sorted({s for c in food.CUISINES.values() for s in c[1]}),
        "organisations": sorted({*health.PHARMACY_CHAINS, *ent.TROUPES, *ent.PUBLISHERS, *ent.CINEMA_BRANDS}),
        "landmarks": store_landmarks(),
    }


def _bare(names: set[str], city: str) -> set[str]:
    return {n[len(city) :] if n.startswith(city) and len(n) - len(city) >= 2 else n for n in names}


def store_landmarks() -> dict[str, list[list[str]]]:
    """City -> its landmarks, each the list of its names: the navigation data's landmarks and the
    scenic spots, with ``LANDMARK_NAMES``; stations and airports left out (the gazetteer's)."""
    from ..builder.tools.domains import navigation_data as nav
    from ..builder.tools.domains import travel_scenic_data as scenic
    from ..normalize.places import canonical_site

    by_city: dict[str, set[str]] = {}
    for table in (nav.LANDMARKS, nav.EXTRA_LANDMARKS):
        for city, marks in table.items():
            by_city.setdefault(city, set()).update(marks)
    for city, spots in scenic.SPOTS.items():
        by_city.setdefault(city, set()).update(s[0] for s in spots)
    out: dict[str, list[list[str]]] = {}
    for city, names in sorted(by_city.items()):
        groups: list[set[str]] = []
        for name in sorted(names):
            if canonical_site(name) is not None:
                continue
            known = set(next((g for g in LANDMARK_NAMES.get(city, ()) if name in g), (name,)))
            mine = [g for g in groups if _bare(g, city) & _bare(known, city)]  # 欢乐谷 and 深圳欢乐谷 in 深圳
            merged = known.union(*mine)
            groups = [g for g in groups if g not in mine] + [merged]
        out[city] = sorted(sorted(g) for g in groups)
    return out


def write_data() -> None:
    DATA.write_text(json.dumps(store_names(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def names_of(data: dict[str, Any]) -> dict[str, set[str]]:
    """Name -> the entities it names, from the kept store names."""
    names: dict[str, set[str]] = {}

    def add(name: str, entity: str) -> None:
        names.setdefault(name, set()).add(entity)

    for team in data["teams"]:
        add(team, "team:" + team)
    for nickname, team in data["team_nicknames"].items():
        add(nickname, "team:" + team)
    for prefix in data["restaurant_prefixes"]:
        for suffix in data["restaurant_suffixes"]:
            add(prefix + suffix, "restaurant:" + prefix + suffix)
    for org in data["organisations"]:
        add(org, "organisation:" + org)
    return names


@functools.cache
def data_index() -> Index:
    """The entity names the store's data holds (``data/entities.json``), read once."""
    return index_of(names_of(json.loads(DATA.read_text(encoding="utf-8"))))


@functools.lru_cache(maxsize=65536)
def _shape(a: str, b: str) -> tuple[str, str, str] | None:
    """(longer, shorter, suffix) of two normalized names when the longer is the shorter plus one
    generic suffix, else None: the cheap test made before the data is read."""
    long, short = (a, b) if len(a) > len(b) else (b, a)
    st = _stem(long)
    if st is None or st[0] != short:
        return None
    return long, short, st[1]


def same_entity(a: str, b: str, index: Index | None = None) -> str | None:
    """Why ``a`` and ``b`` name the same entity, one with and one without a generic suffix — or None
    where the data does not say so (see the module's rules). ``index``: the data (``data_index``
    by default)."""
    shape = _shape(normalize_text(a), normalize_text(b))
    if shape is None:
        return None
    long, short, suffix = shape
    by_name, stems = index if index is not None else data_index()
    known = by_name.get(long) or by_name.get(short)
    if known is None or len(known) != 1:
        return None
    rivals = by_name.get(long, frozenset()) | by_name.get(short, frozenset()) | stems.get(short, frozenset())
    if rivals != known:
        return None
    from ..normalize.places import canonical_site

    site_long, site_short = canonical_site(long), canonical_site(short)
    if site_long is not None and site_short is not None and site_long != site_short:
        return None
    (entity,) = known
    return f"{a!r} and {b!r} both name {entity.split(':', 1)[1]} (with or without {suffix})"


@functools.cache
def landmark_index() -> dict[str, frozenset[tuple[str, int]]]:
    """Normalized name -> the landmarks (city, number) it names: each name of a landmark as written,
    with its city in front (外滩, 上海外滩, 上海市外滩) and without (深圳欢乐谷, 欢乐谷)."""
    data = json.loads(DATA.read_text(encoding="utf-8"))
    out: dict[str, set[tuple[str, int]]] = {}
    for city, marks in data["landmarks"].items():
        for i, names in enumerate(marks):
            for name in names:
                bare = name[len(city) :] if name.startswith(city) and len(name) - len(city) >= 2 else name
                for form in {name, bare, city + bare, city + "市" + bare}:
                    out.setdefault(normalize_text(form), set()).add((city, i))
    return {k: frozenset(v) for k, v in out.items()}


def same_landmark(a: str, b: str, city: str | None) -> str | None:
    """Why ``a`` and ``b`` name one landmark of the store (成都远洋太古里 / 太古里, 上海外滩 / 外滩), or None.
    ``city``: the gold call's city — only that city's landmarks count; without one, neither name
    may name a landmark of another city (欢乐谷 / 北京欢乐谷 stay apart)."""
    if len(a) > limits.MAX_NORMALIZE_CHARS or len(b) > limits.MAX_NORMALIZE_CHARS:
        return None  # no landmark's name, and not read
    ka, kb = normalize_text(a), normalize_text(b)
    if ka == kb:
        return None
    index = landmark_index()
    la, lb = index.get(ka), index.get(kb)
    if not la or not lb:
        return None
    if city is not None:
        from ..normalize import canonical_place

        home = canonical_place(city) or city.strip()
        la = frozenset(m for m in la if m[0] == home)
        lb = frozenset(m for m in lb if m[0] == home)
    if len(la) != 1 or la != lb:
        return None
    ((where, _),) = la
    return f"{a!r} and {b!r} both name one landmark of {where}"
