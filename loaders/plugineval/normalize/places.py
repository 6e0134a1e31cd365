"""A gazetteer of Chinese and major foreign places (``data/places.json``).

Look-ups are case-, width-, space- and punctuation-insensitive
(``"bei jing"``, ``"BEIJING"``, ``"Ｂｅｉｊｉｎｇ"`` → 北京).  When a name is not
known as written, the suffixes 市 / 省 / 自治区 / 特别行政区 (and English
``city``) are stripped and the look-up retried.  Ambiguous abbreviations and
romanizations (苏, 宁, ``Suzhou`` of 宿州 …) are deliberately not aliases.

Railway stations and airports (``facilities``) are places of their own, each with its official
name and the common names people use (海口火车站 is 海口站; 徐州机场 and 徐州观音机场 are
徐州观音国际机场), and an airport's IATA code.  Two names are one facility only when one entry lists
both: 海口站 and 海口东站 are two entries, and a name several airports could carry (北京机场,
上海机场) is nobody's alias.  ``canonical_place`` knows cities and regions only;
``canonical_site`` knows facilities too.

A name longer than ``limits.MAX_NORMALIZE_CHARS`` is no place (``None``), without a look-up.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from . import limits

__all__ = [
    "CITY_NICKNAMES",
    "FacilityInfo",
    "PlaceInfo",
    "all_facilities",
    "all_places",
    "canonical_facility",
    "canonical_place",
    "canonical_site",
    "facility_info",
    "is_domestic",
    "place_info",
]

_DATA = Path(__file__).parent / "data" / "places.json"


#: a city's common nickname → the city (鹏城 is 深圳); one nickname, one city (江城 is 武汉 here)
CITY_NICKNAMES: dict[str, str] = {
    "魔都": "上海", "帝都": "北京", "羊城": "广州", "鹏城": "深圳", "蓉城": "成都", "山城": "重庆",
    "春城": "昆明", "泉城": "济南", "冰城": "哈尔滨", "江城": "武汉", "星城": "长沙", "鹭岛": "厦门",
}  # fmt: skip


@dataclass(frozen=True)
class PlaceInfo:
    """One place.  ``domestic`` is true for mainland China only (HK/MO/TW: false)."""

    name: str
    kind: str  # municipality | province | autonomous_region | sar | city | county_city | …
    pinyin: str | None
    province: str | None
    country: str  # ISO 3166-1 alpha-2
    region: str  # "CN" (mainland), "HK", "MO", "TW", or the country code abroad
    domestic: bool
    aliases: tuple[str, ...]
    iata: tuple[str, ...]
    station: str | None


@dataclass(frozen=True)
class FacilityInfo:
    """A railway station or an airport: its official name, the city it serves, its other names."""

    name: str
    kind: str  # railway_station | airport
    city: str  # the canonical name of the city (a place of the gazetteer)
    aliases: tuple[str, ...]
    iata: tuple[str, ...]


_KEY_DROP = re.compile(r"[\s'’‘`\-_.,，。·・()（）]+")
_SUFFIXES = ("特别行政区", "自治区", "市", "省", "city")


def place_key(s: str) -> str:
    """The look-up key of a name: NFKC, casefold, no spaces or punctuation."""
    return _KEY_DROP.sub("", unicodedata.normalize("NFKC", s).casefold())


@cache
def _load() -> tuple[tuple[PlaceInfo, ...], dict[str, PlaceInfo]]:
    raw: dict[str, Any] = json.loads(_DATA.read_text(encoding="utf-8"))
    places: list[PlaceInfo] = []
    index: dict[str, PlaceInfo] = {}
    for rec in raw["places"]:
        info = PlaceInfo(
            name=rec["name"],
            kind=rec["kind"],
            pinyin=rec.get("pinyin"),
            province=rec.get("province"),
            country=rec["country"],
            region=rec["region"],
            domestic=bool(rec["domestic"]),
            aliases=tuple(rec["aliases"]),
            iata=tuple(rec.get("iata") or ()),
            station=rec.get("station"),
        )
        places.append(info)
        for alias in (info.name, *info.aliases):
            k = place_key(alias)
            prev = index.get(k)
            if prev is not None and prev.name != info.name:
                raise ValueError(f"alias {alias!r} maps to {prev.name} and {info.name}")
            index[k] = info
    return tuple(places), index


@cache
def _load_facilities() -> tuple[tuple[FacilityInfo, ...], dict[str, FacilityInfo]]:
    raw: dict[str, Any] = json.loads(_DATA.read_text(encoding="utf-8"))
    places = _load()[1]
    out: list[FacilityInfo] = []
    index: dict[str, FacilityInfo] = {}
    for rec in raw.get("facilities", []):
        info = FacilityInfo(
            name=rec["name"],
            kind=rec["kind"],
            city=rec["city"],
            aliases=tuple(rec["aliases"]),
            iata=tuple(rec.get("iata") or ()),
        )
        if _lookup(info.city) is None:
            raise ValueError(f"facility {info.name}: unknown city {info.city!r}")
        out.append(info)
        for alias in (info.name, *info.aliases, *info.iata):
            k = place_key(alias)
            prev = index.get(k)
            if (prev is not None and prev.name != info.name) or k in places:
                raise ValueError(f"facility name {alias!r} is also {prev.name if prev else places[k].name}")
            index[k] = info
    return tuple(out), index


def _lookup(s: str) -> PlaceInfo | None:
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return None  # not read, and not cached
    return _lookup_key(s)


@lru_cache(maxsize=16384)
def _lookup_key(s: str) -> PlaceInfo | None:
    index = _load()[1]
    k = place_key(s)
    if not k:
        return None
    hit = index.get(k)
    if hit is not None:
        return hit
    for suf in _SUFFIXES:
        if k.endswith(suf) and len(k) > len(suf):
            hit = index.get(k[: -len(suf)])
            if hit is not None:
                return hit
    return None


def canonical_place(s: str) -> str | None:
    """The canonical Chinese name of a place, or ``None`` if unknown."""
    info = _lookup(s)
    return None if info is None else info.name


def place_info(name: str) -> PlaceInfo | None:
    """Everything known about a place, by any alias."""
    return _lookup(name)


def all_places() -> list[PlaceInfo]:
    """All places in the gazetteer, in file order."""
    return list(_load()[0])


def is_domestic(name: str) -> bool | None:
    """True for mainland China, False for HK/MO/TW and abroad, None if unknown."""
    info = _lookup(name)
    return None if info is None else info.domestic


def alias_index() -> dict[str, str]:
    """Look-up key → canonical name (a copy, for tests and reports)."""
    return {k: v.name for k, v in _load()[1].items()}


def facility_info(name: str) -> FacilityInfo | None:
    """The railway station or airport a name means (official name, common name or IATA code)."""
    if len(name) > limits.MAX_NORMALIZE_CHARS:
        return None  # not read, and not cached
    return _facility(name)


@lru_cache(maxsize=16384)
def _facility(name: str) -> FacilityInfo | None:
    k = place_key(name)
    return _load_facilities()[1].get(k) if k else None


def canonical_facility(s: str) -> str | None:
    """The official name of a railway station or an airport, or ``None`` if unknown."""
    info = facility_info(s)
    return None if info is None else info.name


def canonical_site(s: str) -> str | None:
    """The canonical name of a facility (station, airport) or else of a place, or ``None``: what the
    judge compares place-valued text by (a station is not its city: 北京站 is not 北京)."""
    info = facility_info(s)
    return info.name if info is not None else canonical_place(s)


def all_facilities() -> list[FacilityInfo]:
    """All railway stations and airports of the gazetteer, in file order."""
    return list(_load_facilities()[0])
