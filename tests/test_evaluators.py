"""Stage I's result evaluator: it checks that the entities a call names come back in the response;
a category the call filtered on (an enum) is the schema's to check and costs nothing when the tool
does not echo it — otherwise the proposal that drops the user's constraint would outscore the one
that keeps it (found with income_tax_calc's ``housing``)."""

from __future__ import annotations

from plugineval.builder.pccf.evaluators import ResultEvaluator
from plugineval.builder.tools.server import CallOutcome
from plugineval.catalog import load_catalog
from plugineval.schema import Call

CAT = load_catalog()


def _ok(result: dict) -> CallOutcome:  # type: ignore[type-arg]
    return CallOutcome(True, result, None, None, 1.0)


def test_an_enum_argument_need_not_be_echoed() -> None:
    ev = ResultEvaluator(CAT)
    props = CAT.tool("income_tax_calc").parameters["properties"]
    assert "enum" in props["housing"]
    call = Call(name="income_tax_calc", arguments={"annual_income": 120000, "housing": "rent_tier1"})
    assert ev.assess([call], [_ok({"tax_cny": 1000.0})])[0] == 1.0
    # without the catalog every short string counts, as before: the constraint would cost 0.5
    assert ResultEvaluator().assess([call], [_ok({"tax_cny": 1000.0})])[0] == 0.5


def test_a_named_entity_missing_from_the_response_still_costs() -> None:
    ev = ResultEvaluator(CAT)
    call = Call(name="movie_showtimes", arguments={"city": "杭州", "date": "2026-03-18"})
    assert ev.assess([call], [_ok({"shows": [{"cinema_name": "上海影城"}]})])[0] < 1.0
    echoed = {"city": "杭州", "date": "2026-03-18", "shows": [{"cinema_name": "x"}]}
    assert ev.assess([call], [_ok(echoed)])[0] == 1.0
    failed = CallOutcome(False, None, "CITY_NOT_FOUND", "no such city", 1.0)
    assert ev.assess([call], [failed])[0] == 0.0
