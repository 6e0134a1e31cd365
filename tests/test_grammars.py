"""Every catalog scenario has synthesizer patterns whose calls carry their kind's execution evidence."""

from __future__ import annotations

import anyio
import pytest

from plugineval.builder.synth.check import coverage_problems, evidence_problems
from plugineval.builder.synth.grammar import load_grammars
from plugineval.catalog import load_catalog

CAT = load_catalog()
GRAMMARS = load_grammars()


@pytest.mark.parametrize("plugin", [p.id for p in CAT.plugins])
def test_grammar_covers_every_scenario(plugin: str) -> None:
    problems = coverage_problems(CAT, GRAMMARS, [plugin])
    assert not problems, "\n".join(map(str, problems))


@pytest.mark.parametrize("plugin", sorted(GRAMMARS))
def test_patterns_carry_their_evidence(plugin: str) -> None:
    problems = anyio.run(evidence_problems, CAT, GRAMMARS[plugin], plugin, 3)
    assert not problems, "\n".join(map(str, problems[:20]))


def test_yieldcheck_reports_capacity_by_split_and_difficulty(capsys: pytest.CaptureFixture[str]) -> None:
    from plugineval.builder.synth.yieldcheck import capacities, main, masked_forms

    g = GRAMMARS["weather_forecast"]
    rows = capacities(CAT, "weather_forecast", g)
    assert {r.split for r in rows} == {"test", "train"}
    # a pattern's capacity counts mutually distinct masked surfaces: never more than its expansions
    for r in rows:
        pat = next(p for p in g.scenarios[r.scenario].patterns if p.id == r.pattern)
        assert r.capacity <= len(masked_forms(pat))
    assert any(r.capacity > 1 for r in rows)
    assert main(["weather_forecast"]) == 0
    out = capsys.readouterr().out
    assert "== weather_forecast" in out and "test capacity: easy" in out
    assert main(["no_such_plugin"]) == 2
