"""Stage II budget bookkeeping: the deficit of an exhausted unit moves to live units of the same kind
and difficulty, the plugin's own units first, and nothing already counted is lost."""

from __future__ import annotations

from types import SimpleNamespace

from plugineval.builder.pccf.build import Builder, BuildStats, SplitState
from plugineval.builder.pccf.coverage import Coverage
from plugineval.catalog import load_catalog

CAT = load_catalog()
KIND_OF = {(p.id, s.id): s.kind for p in CAT.plugins for s in p.scenarios}


def _units(kind: str) -> list[tuple[str, str]]:
    return [(p.id, s.id) for p in CAT.plugins for s in p.scenarios if s.kind == kind]


def test_exhausted_deficit_moves_to_live_units_of_the_same_kind_and_difficulty() -> None:
    trig = _units("trigger")
    a, b = trig[0], next(u for u in trig if u[0] == trig[0][0] and u != trig[0])
    c = next(u for u in trig if u[0] != a[0])
    neg = _units("neg_C")[0]
    budgets = {
        (*a, "hard"): 6,  # exhausted with 2 counted: its deficit of 4 moves
        (*b, "hard"): 3,  # same plugin, same difficulty: served first
        (*c, "hard"): 3,
        (*c, "easy"): 5,  # another difficulty: untouched
        (*neg, "hard"): 2,  # another kind: untouched
    }
    st = SplitState(Coverage("test", dict(budgets)))
    st.coverage.counts[(*a, "hard")] = 2
    st.exhausted.add((*a, "hard"))
    me = SimpleNamespace(kind_of=KIND_OF, stats=BuildStats())
    Builder._reallocate(me, st, "test")  # type: ignore[arg-type]
    got = st.coverage.budgets
    assert got[(*a, "hard")] == 2 and st.coverage.deficit((*a, "hard")) == 0
    assert got[(*b, "hard")] + got[(*c, "hard")] == 3 + 3 + 4
    assert got[(*b, "hard")] >= 3 + 2  # round-robin starts with the plugin's own units
    assert got[(*c, "easy")] == 5 and got[(*neg, "hard")] == 2
    assert sum(got.values()) == sum(budgets.values())
    assert me.stats.reallocated == {"test": 4}


def test_nothing_moves_when_no_live_unit_of_that_kind_and_difficulty_remains() -> None:
    a = _units("trigger")[0]
    st = SplitState(Coverage("test", {(*a, "hard"): 5}))
    st.exhausted.add((*a, "hard"))
    me = SimpleNamespace(kind_of=KIND_OF, stats=BuildStats())
    Builder._reallocate(me, st, "test")  # type: ignore[arg-type]
    assert st.coverage.budgets == {(*a, "hard"): 5} and me.stats.reallocated == {}


def test_a_negative_kind_with_no_live_unit_at_that_difficulty_takes_another_difficulty() -> None:
    neg = _units("neg_C")
    a, b = neg[0], neg[1]
    budgets = {(*a, "easy"): 4, (*b, "easy"): 2, (*b, "medium"): 3, (*a, "hard"): 1}
    st = SplitState(Coverage("test", dict(budgets)))
    st.exhausted |= {(*a, "easy"), (*b, "easy")}  # every easy neg_C unit is spent
    me = SimpleNamespace(kind_of=KIND_OF, stats=BuildStats())
    Builder._reallocate(me, st, "test")  # type: ignore[arg-type]
    got = st.coverage.budgets
    assert got[(*a, "easy")] == 0 and got[(*b, "easy")] == 0
    assert got[(*b, "medium")] + got[(*a, "hard")] == 3 + 1 + 6
    assert me.stats.reallocated == {"test, negatives at another difficulty": 6}
    # positives keep their difficulty: a spent hard trigger unit with no live hard unit keeps its deficit
    t = _units("trigger")[0]
    st2 = SplitState(Coverage("test", {(*t, "hard"): 5, (*t, "easy"): 5}))
    st2.exhausted.add((*t, "hard"))
    Builder._reallocate(SimpleNamespace(kind_of=KIND_OF, stats=BuildStats()), st2, "test")  # type: ignore[arg-type]
    assert st2.coverage.budgets == {(*t, "hard"): 5, (*t, "easy"): 5}
