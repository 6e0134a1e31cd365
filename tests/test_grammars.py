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
