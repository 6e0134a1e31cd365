"""The text-only slot filler (the builder's slot parser and the router baseline's argument filling):
one mention serves one argument, and mentions fill arguments in the order they are written."""

from __future__ import annotations

from plugineval.baselines.slotfill import SlotFiller
from plugineval.catalog import load_catalog

CAT = load_catalog()
REF = "2026-03-18T09:30:00+08:00"


def _fill(tool: str, query: str) -> dict | None:  # type: ignore[type-arg]
    t = CAT.tool(tool)
    return SlotFiller(t.openai_function(), t.annotations).fill(query, REF).arguments


def test_one_unit_mention_does_not_fill_both_units() -> None:
    # an underspecified request (no target unit) stays underspecified: it used to become kg -> kg
    assert _fill("unit_convert", "帮我把23公斤换算一下") is None


def test_units_fill_in_the_order_they_are_written() -> None:
    assert _fill("unit_convert", "把5英里换成公里") == {"value": 5.0, "from_unit": "mile", "to_unit": "km"}
    assert _fill("unit_convert", "请把58千克换算成斤") == {"value": 58.0, "from_unit": "kg", "to_unit": "jin"}
