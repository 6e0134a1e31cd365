"""A gazetteer of Chinese and major foreign places (``data/places.json``).

Look-ups are case-, width-, space- and punctuation-insensitive
(``"bei jing"``, ``"BEIJING"``, ``"Ｂｅｉｊｉｎｇ"`` → 北京).  When a name is not
known as written, the suffixes 市 / 省 / 自治区 / 特别行政区 (and English
``city``) are stripped and the look-up retried.  Ambiguous abbreviations and
romanizations (苏, 宁, ``Suzhou`` of 宿州 …) are deliberately not aliases.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

__all__ = ["PlaceInfo", "all_places", "canonical_place", "is_domestic", "place_info"]

_DATA = Path(__file__).parent / "data" / "places.json"


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


@lru_cache(maxsize=16384)
def _lookup(s: str) -> PlaceInfo | None:
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
