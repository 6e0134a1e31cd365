"""The judge on airports and landmarks by their other names (tests/cases/judge_places.jsonl): an airport's
official name is its short name (洛阳北郊机场 = 洛阳机场), a landmark's full name its short name in its city
(成都远洋太古里 = 太古里, 上海外滩 = 外滩), and never across airports or cities."""

from __future__ import annotations

from typing import Any

import pytest
from test_judge import _check

from plugineval.judge import Judge

from judge_fixtures import load_cases, make_pred, make_record

CASES = load_cases("judge_places.jsonl")
JUDGE = Judge("rules")


@pytest.mark.parametrize("case", CASES, ids=[c["note"] for c in CASES])
def test_place_cases(case: dict[str, Any]) -> None:
    rec = make_record("r", gold=[(case["tool"], case["gold"])])
    v = JUDGE.judge_one(rec, make_pred("r", [(case["tool"], case["pred"])]))
    _check(v, case["expected"])


def test_every_mainland_city_with_an_airport_code_has_its_airport() -> None:
    """A city of the gazetteer with an IATA code has an airport entry carrying it (洛阳: 洛阳北郊机场)."""
    from plugineval.normalize.places import all_facilities, all_places

    coded: dict[str, set[str]] = {}
    for f in all_facilities():
        if f.kind == "airport":
            coded.setdefault(f.city, set()).update(f.iata)
    for p in all_places():
        if p.domestic and p.iata:
            assert p.name in coded, p.name
            assert set(p.iata) <= coded[p.name], (p.name, p.iata)


def test_landmarks_kept_from_the_store() -> None:
    """data/entities.json's landmarks are the store's, grouped with LANDMARK_NAMES (no builder at run time)."""
    import json

    from plugineval.judge._entities import DATA, LANDMARK_NAMES, store_landmarks

    kept = json.loads(DATA.read_text(encoding="utf-8"))["landmarks"]
    assert kept == store_landmarks()
    for city, groups in LANDMARK_NAMES.items():
        for names in groups:
            assert any(set(names) <= set(g) for g in kept.get(city, ())), (city, names)
