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

A cold path: the judge asks only about a text pair the other rules left undecided, and the data
(``data/entities.json``, kept from the store's data modules: ``store_names``) is read once, on the
first pair that has the shape (one name is the other plus a generic suffix).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from ..normalize import normalize_text

#: suffixes that say what kind of thing a name names, not which one (longest first); 男篮 and
#: 足球俱乐部 are what the store's team look-up takes off, besides 队
GENERIC_SUFFIXES: tuple[str, ...] = ("足球俱乐部", "医院", "公司", "集团", "男篮", "队", "店", "馆", "站")

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
    }


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
