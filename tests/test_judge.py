"""The judge against case files (tests/cases/judge_*.jsonl): per-argument reasons and docs/format.md §6 precedence."""

from __future__ import annotations

import json
from typing import Any

import pytest

from plugineval.judge import Judge

from judge_fixtures import load_cases, make_pred, make_record

ARG_CASES = load_cases("judge_args.jsonl")
REC_CASES = load_cases("judge_records.jsonl")
JUDGE = Judge("rules")


def _check(v: Any, expected: dict[str, Any]) -> None:
    assert str(v.outcome) == expected["outcome"], v.to_dict()
    if "category" in expected:
        assert (None if v.category is None else str(v.category)) == expected["category"], v.to_dict()
    if "subtype" in expected:
        assert (None if v.subtype is None else str(v.subtype)) == expected["subtype"], v.to_dict()
    if "scored_against" in expected:
        assert v.scored_against == expected["scored_against"], v.to_dict()
    for arg, reason in expected.get("reasons", {}).items():
        got = {a.arg: str(a.reason) for a in v.arguments}
        assert got.get(arg) == reason, (arg, got)


@pytest.mark.parametrize("case", ARG_CASES, ids=[c["note"] for c in ARG_CASES])
def test_argument_cases(case: dict[str, Any]) -> None:
    ann = {case["tool"]: case["ann"]} if "ann" in case else None
    rec = make_record(
        "r", gold=[(case["tool"], case["gold"])], alts=[case["alt"]] if "alt" in case else None, ann=ann
    )
    v = JUDGE.judge_one(rec, make_pred("r", [(case["tool"], case["pred"])]))
    _check(v, case["expected"])


def _record(rid: str, case: dict[str, Any]) -> Any:
    """A record case: its kind, gold calls, scope, the gold's alternatives and alternative call lists."""
    return make_record(
        rid,
        kind=case["kind"],
        gold=[tuple(g) for g in case.get("gold", [])],  # type: ignore[misc]
        scope=case.get("scope"),
        alts=case.get("alts"),
        alt_calls=case.get("alternative_calls"),
    )


@pytest.mark.parametrize("case", REC_CASES, ids=[c["note"] for c in REC_CASES])
def test_record_cases(case: dict[str, Any]) -> None:
    rec = _record("r", case)
    pred = case["pred"]
    v = JUDGE.judge_one(rec, make_pred("r", [tuple(c) for c in pred] if isinstance(pred, list) else pred))
    _check(v, case["expected"])


def test_failed_query_gets_exactly_one_category() -> None:
    for case in REC_CASES:
        rec = _record("r", case)
        pred = case["pred"]
        v = JUDGE.judge_one(rec, make_pred("r", [tuple(c) for c in pred] if isinstance(pred, list) else pred))
        assert (v.category is None) == (str(v.outcome) in ("TP", "TN"))


def test_underspecified_diagnostic_does_not_change_the_outcome() -> None:
    rec = make_record("u", kind="underspecified", target="search", query="帮我查去上海的票")
    asks = JUDGE.judge_one(rec, make_pred("u", [], content="好的，请问您从哪个城市出发？哪天走？"))
    silent = JUDGE.judge_one(rec, make_pred("u", [], content="好的。"))
    assert asks.asks_for_missing is True and silent.asks_for_missing is False
    assert str(asks.outcome) == str(silent.outcome) == "TN"


def test_hybrid_without_endpoint_runs_as_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PLUGINEVAL_JUDGE_BASE_URL", raising=False)
    j = Judge("hybrid")
    assert j.mode == "rules" and j.requested_mode == "hybrid"


def test_bad_mode_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="judge mode must be one of"):
        Judge("strict")  # type: ignore[arg-type]


def test_every_route_to_a_verdict_agrees() -> None:
    """``judge_one`` and ``Judge.run`` in rules mode decide the common cases where they find them; on
    every case file record they give the verdict of the general path, ``decide(RulesJudge.judge(...))``
    (the one the LLM judge revises)."""
    from dataclasses import fields

    from plugineval.judge import RecordVerdict
    from plugineval.judge._core import RulesJudge, decide

    recs, preds = [], {}
    for i, case in enumerate(ARG_CASES):
        ann = {case["tool"]: case["ann"]} if "ann" in case else None
        alts = [case["alt"]] if "alt" in case else None
        recs.append(make_record(f"a{i}", gold=[(case["tool"], case["gold"])], alts=alts, ann=ann))
        preds[f"a{i}"] = make_pred(f"a{i}", [(case["tool"], case["pred"])])
    for i, case in enumerate(REC_CASES):
        recs.append(_record(f"r{i}", case))
        pred = case["pred"]
        preds[f"r{i}"] = make_pred(f"r{i}", [tuple(c) for c in pred] if isinstance(pred, list) else pred)
    del preds["r0"]  # one record without a prediction line
    rules = RulesJudge()
    ran = Judge("rules").run(recs, preds)
    assert list(ran) == [r.id for r in recs]

    def row(v: RecordVerdict) -> list[Any]:
        return [getattr(v, f.name) for f in fields(RecordVerdict)]

    for r in recs:
        general = row(decide(rules.judge(r, preds.get(r.id)), rules))
        assert row(JUDGE.judge_one(r, preds.get(r.id))) == general, r.id
        assert row(ran[r.id]) == general, r.id


def test_a_time_valued_argument_is_marked_temporal_on_every_path() -> None:
    """``temporal`` says the argument is time-valued, whether the call it is in was exact (decided at
    once) or had another argument wrong (compared argument by argument), alone or among several calls."""
    gold = [("weather", {"city": "北京", "date": "2026-03-19"})]
    rec = make_record("t", gold=gold)
    two = make_record("t2", gold=[*gold, ("weather", {"city": "上海", "date": "2026-03-20"})])
    cases = [
        (rec, [("weather", {"city": "北京", "date": "2026-03-19"})]),
        (rec, [("weather", {"city": "南京", "date": "2026-03-19"})]),
        (
            two,
            [
                ("weather", {"city": "上海", "date": "2026-03-20"}),
                ("weather", {"city": "北京", "date": "2026-03-19"}),
            ],
        ),
        (
            two,
            [
                ("weather", {"city": "上海", "date": "2026-03-20"}),
                ("weather", {"city": "南京", "date": "2026-03-19"}),
            ],
        ),
    ]
    for r, calls in cases:
        v = JUDGE.judge_one(r, make_pred(r.id, calls))
        flags = {(a.call, a.arg): a.temporal for a in v.arguments}
        assert flags and all(t == (arg == "date") for (_, arg), t in flags.items()), (calls, flags)


def test_alternative_calls_and_extra_round_trip_through_a_row() -> None:
    """``alternative_calls`` is a JSON string column like ``gold_alternatives``; a row written before
    it existed loads with ``[]``; only a positive may have one; an annotation's ``derived_default``
    survives the ``tool_annotations`` column and is left out where there is none."""
    from plugineval.schema import JSON_COLUMNS, AlternativeCalls, Record, SchemaError

    assert "alternative_calls" in JSON_COLUMNS
    ann = {"weather": {"date": {"time_valued": True}}}
    rec = make_record(
        "rt", gold=[("weather", {"city": "上海"})], alts=[{"extra": {"date": ["2026-03-18"]}}], ann=ann
    )
    other = AlternativeCalls.model_validate(
        {
            "calls": [{"name": "search", "arguments": {"from_city": "北京"}}],
            "alternatives": [{"free": ["note"]}],
        }
    )
    rec = rec.model_copy(update={"alternative_calls": [other]})
    row = rec.to_row()
    assert isinstance(row["alternative_calls"], str) and '"calls"' in row["alternative_calls"]
    assert '"derived_default"' not in row["tool_annotations"]
    back = Record.from_row(row)
    assert back == rec and back.alternative_calls[0].alternatives[0].free == ["note"]
    assert back.gold_alternatives[0].extra == {"date": ["2026-03-18"]}
    old = dict(row)
    del old["alternative_calls"]
    assert Record.from_row(old).alternative_calls == []
    neg = make_record("n", kind="neg_B").to_row()
    neg["alternative_calls"] = row["alternative_calls"]
    with pytest.raises(SchemaError, match="only a positive"):
        Record.from_row(neg)
    with pytest.raises(ValueError, match="align"):
        AlternativeCalls.model_validate({"calls": [{"name": "weather"}], "alternatives": [{}, {}]})
    derived = {"hotel": {"date_to": {"derived_default": {"from_argument": "date_from", "days": 6}}}}
    row["tool_annotations"] = json.dumps(derived)
    typed = Record.from_row(row)
    dd = typed.tool_annotations["hotel"]["date_to"].derived_default
    assert dd is not None and (dd.from_argument, dd.days) == ("date_from", 6)
    assert json.loads(typed.to_row()["tool_annotations"])["hotel"]["date_to"]["derived_default"] == {
        "from_argument": "date_from",
        "days": 6,
    }


def test_hybrid_settles_undecided_pairs_of_alternative_lists_and_extras(tmp_path: Any) -> None:
    """In hybrid mode the LLM is asked about an undecided pair of an alternative call list and about
    an undecided ``extra`` value (against the listed values), and its answer decides the verdict."""
    from plugineval.judge import LLMConfig

    from fake_openai import MockServer, judge_data

    def synonyms(body: dict[str, Any]) -> dict[str, Any]:
        d = judge_data(body)
        hit = "川菜" if d["predicted_value"] == "四川菜" and "川菜" in d["accepted_values"] else None
        ans = {"equivalent": hit is not None, "matched_value": hit, "justification": "synonym"}
        return {"content": json.dumps(ans, ensure_ascii=False)}

    alt_list = [{"calls": [{"name": "cuisine", "arguments": {"city": "成都", "style": "川菜"}}]}]
    rec = make_record("h", gold=[("weather", {"city": "成都"})], alt_calls=alt_list)
    extra = make_record("x", gold=[("cuisine", {"city": "成都"})], alts=[{"extra": {"style": ["川菜"]}}])
    preds = {
        "h": make_pred("h", [("cuisine", {"city": "成都", "style": "四川菜"})]),
        "x": make_pred("x", [("cuisine", {"city": "成都", "style": "四川菜"})]),
    }
    assert str(JUDGE.judge_one(rec, preds["h"]).outcome) == "FN"  # rules alone: undecided
    with MockServer(synonyms) as srv:
        cfg = LLMConfig(base_url=srv.base_url, model="fake-judge", cache_path=str(tmp_path / "c.sqlite"))
        got = Judge("hybrid", cfg).run([rec, extra], preds)  # type: ignore[arg-type]
    assert str(got["h"].outcome) == "TP" and got["h"].scored_against == 0
    assert {a.arg: str(a.reason) for a in got["h"].arguments}["style"] == "llm_equivalent"
    assert str(got["x"].outcome) == "TP"
    assert {a.arg: str(a.reason) for a in got["x"].arguments}["style"] == "llm_equivalent"


def test_the_report_entry_says_which_list_was_scored() -> None:
    from plugineval.scoring import entry

    alt_list = [
        {
            "calls": [
                {
                    "name": "metro",
                    "arguments": {"city": "上海", "from_station": "徐家汇", "to_station": "人民广场"},
                }
            ]
        }
    ]
    rec = make_record(
        "e", gold=[("route", {"origin": "徐家汇", "destination": "人民广场"})], alt_calls=alt_list
    )
    met = JUDGE.judge_one(
        rec, make_pred("e", [("metro", {"city": "上海", "from_station": "徐家汇", "to_station": "人民广场"})])
    )
    assert entry(rec, met)["scored_against"] == 0
    gold = JUDGE.judge_one(rec, make_pred("e", [("route", {"origin": "徐家汇", "destination": "人民广场"})]))
    assert "scored_against" not in entry(rec, gold)


def test_entity_names_match_only_where_the_data_says_they_name_one_entity() -> None:
    """A generic suffix added or taken away names the same entity only when the data holds one of the
    names and the shorter one is unambiguous there: two entities behind one stem match neither."""
    from plugineval.judge._entities import index_of, same_entity

    one = index_of({"北京国安": {"team:北京国安"}, "河南队": {"team:河南队"}})
    assert same_entity("北京国安队", "北京国安", one) and same_entity("河南", "河南队", one)
    assert same_entity("上海申花", "上海申花队", one) is None  # the data holds neither name
    assert same_entity("国安", "北京国安", one) is None  # not a generic suffix: a nickname
    two = index_of({"北京国安": {"team:北京国安"}, "北京国安队": {"team:另一支"}})
    assert same_entity("北京国安队", "北京国安", two) is None
    rivals = index_of({"河南队": {"team:河南队"}, "河南店": {"restaurant:河南店"}})
    assert same_entity("河南", "河南队", rivals) is None


def test_every_array_argument_of_the_catalog_says_whether_its_order_means_something() -> None:
    """``unordered`` is declared, never guessed: each array argument of the catalog is either declared
    unordered or listed here as one whose order carries meaning (none so far), and the declaration
    reaches a record's ``tool_annotations`` and survives its row."""
    from plugineval.builder.pccf.records import annotations_for
    from plugineval.catalog import load_catalog
    from plugineval.schema import Record

    cat = load_catalog()
    ordered: set[tuple[str, str]] = set()
    arrays = {
        (t.name, a)
        for d in cat.domains
        for p in d.plugins
        for t in p.tools
        for a, s in t.properties.items()
        if s.get("type") == "array"
    }
    declared = {(n, a) for n, a in arrays if (ann := cat.tool(n).annotations.get(a)) and ann.unordered}
    assert arrays and declared | ordered == arrays and not declared & ordered, arrays - declared - ordered
    assert ("drug_interaction_check", "drugs") in declared
    anns = annotations_for(cat, ["drug_interaction_check", "flight_search"])
    assert anns["drug_interaction_check"]["drugs"] == {"unordered": True}
    rec = make_record("u", gold=[("weather", {"city": "北京"})], ann=anns)
    row = rec.to_row()
    assert (
        '"unordered":true' in row["tool_annotations"] and '"unordered":false' not in row["tool_annotations"]
    )
    assert Record.from_row(row).tool_annotations["drug_interaction_check"]["drugs"].unordered


def test_unordered_is_refused_on_an_argument_that_is_not_an_array() -> None:
    from plugineval.schema import ToolSpec

    spec = {
        "name": "x_tool",
        "description": "一个工具",
        "parameters": {"type": "object", "properties": {"city": {"type": "string", "description": "城市"}}},
        "output": {"type": "object"},
        "annotations": {"city": {"unordered": True}},
        "examples": [{"reference_time": "2026-03-18T09:30:00+08:00", "arguments": {"city": "北京"}}],
    }
    with pytest.raises(ValueError, match="unordered but is not an array"):
        ToolSpec.model_validate(spec)


def test_the_judges_entity_names_are_the_stores() -> None:
    """The judge reads the store's entity names from its own data file (a core install has no
    builder); the file is what the store's data modules give (regenerate: ``_entities.write_data``)."""
    from plugineval.judge._entities import DATA, store_names

    assert json.loads(DATA.read_text(encoding="utf-8")) == store_names()


def test_the_accounts_person_written_out_is_no_error_and_an_invented_one_is() -> None:
    """A booking whose request names nobody goes to the signed-in account (the catalog's ``default``):
    a prediction that writes the default out passes, one that makes up a name or a phone fails, and
    a name the request does say must be given."""
    from plugineval.catalog import load_catalog

    cat = load_catalog()
    tools = {n: cat.tool(n) for n in ("appointment_book", "restaurant_reserve")}
    gold = {
        "appointment_book": {"doctor_id": "D001895", "date": "2026-03-20", "period": "morning"},
        "restaurant_reserve": {"city": "杭州", "restaurant_name": "农耕记湖南土菜", "date": "2026-03-20",
                               "time": "18:30", "party_size": 4},
    }  # fmt: skip

    def verdict(tool: str, gold_args: dict[str, Any], pred_args: dict[str, Any]) -> str:
        rec = make_record("acct", gold=[(tool, gold_args)], target=tool, query="订")
        t = tools[tool]
        rec = rec.model_copy(update={"tools": [t.openai_function()], "tool_annotations": {
            tool: {k: a.model_dump() for k, a in t.annotations.items()}}})  # fmt: skip
        return str(JUDGE.judge_one(rec, make_pred("acct", [(tool, pred_args)])).outcome)

    book, reserve = gold["appointment_book"], gold["restaurant_reserve"]
    assert verdict("appointment_book", book, book) == "TP"
    assert verdict("appointment_book", book, {**book, "patient_name": "本人"}) == "TP"
    assert verdict("appointment_book", book, {**book, "patient_name": "张浩丽"}) != "TP"
    assert verdict("restaurant_reserve", reserve, {**reserve, "contact_name": "本人"}) == "TP"
    assert verdict("restaurant_reserve", reserve, {**reserve, "phone": "19872470543"}) != "TP"
    said = {**book, "patient_name": "张桂芳"}  # 给我妈挂个号，张桂芳
    assert verdict("appointment_book", said, said) == "TP"
    assert verdict("appointment_book", said, book) != "TP"
