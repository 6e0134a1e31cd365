"""Deterministic normalizers for the PluginEval judge (pure standard library).

Text, numbers, units and money, places, holidays, and time expressions.
Data files are loaded lazily on first use.  A value parser reads at most ``MAX_NORMALIZE_CHARS``
characters (``limits``; docs/judge.md, "What a normalizer reads").
"""

from __future__ import annotations

from .holidays import canonical_holiday, holiday_date, holiday_names, next_holiday
from .limits import MAX_NORMALIZE_CHARS
from .numbers import find_numbers, parse_number
from .places import PlaceInfo, all_places, canonical_place, is_domestic, place_info
from .text import normalize_text, normalize_ws
from .timeexpr import TimeValue, compare_time, is_relative, parse_absolute, resolve
from .units import canonical_currency, parse_money, parse_quantity

__all__ = [
    "MAX_NORMALIZE_CHARS",
    "PlaceInfo",
    "TimeValue",
    "all_places",
    "canonical_currency",
    "canonical_holiday",
    "canonical_place",
    "compare_time",
    "find_numbers",
    "holiday_date",
    "holiday_names",
    "is_domestic",
    "is_relative",
    "next_holiday",
    "normalize_text",
    "normalize_ws",
    "parse_absolute",
    "parse_money",
    "parse_number",
    "parse_quantity",
    "place_info",
    "resolve",
]
