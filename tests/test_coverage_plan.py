"""Stage II budget bookkeeping: the deficit of an exhausted unit moves to live units of the same kind
and difficulty — positives by the units' weights, negatives the plugin's own units first — and nothing
already counted is lost."""

from __future__ import annotations

from types import SimpleNamespace

from plugineval.builder.pccf.build import Builder, BuildStats, SplitState
from plugineval.builder.pccf.coverage import Coverage, fit_negative_mix
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
    # b is said briefly, c packs many values in: moved budget follows the weights (D'Hondt)
    weights = {(*b, "hard"): 1.0, (*c, "hard"): 0.3}
    st = SplitState(Coverage("test", dict(budgets), weights=weights))
    st.coverage.counts[(*a, "hard")] = 2
    st.exhausted.add((*a, "hard"))
    me = SimpleNamespace(kind_of=KIND_OF, stats=BuildStats())
    Builder._reallocate(me, st, "test")  # type: ignore[arg-type]
    got = st.coverage.budgets
    assert got[(*a, "hard")] == 2 and st.coverage.deficit((*a, "hard")) == 0
    assert (got[(*b, "hard")], got[(*c, "hard")]) == (3 + 3, 3 + 1)
    assert got[(*c, "easy")] == 5 and got[(*neg, "hard")] == 2
    assert sum(got.values()) == sum(budgets.values())
    assert me.stats.reallocated == {"test": 4}


def test_moved_positive_budget_is_proportional_to_weight_across_rounds() -> None:
    trig = _units("trigger")
    spent = trig[:3]
    heavy, light = trig[3], trig[4]
    budgets = {(*u, "easy"): 10 for u in spent} | {(*heavy, "easy"): 1, (*light, "easy"): 1}
    weights = {(*u, "easy"): 1e-9 for u in spent} | {(*heavy, "easy"): 1.0, (*light, "easy"): 0.25}
    st = SplitState(Coverage("test", dict(budgets), weights=weights))
    me = SimpleNamespace(kind_of=KIND_OF, stats=BuildStats())
    for u in spent:  # one spent unit a round: the split's state carries what each unit took
        st.exhausted.add((*u, "easy"))
        Builder._reallocate(me, st, "test")  # type: ignore[arg-type]
    got = st.coverage.budgets
    assert (got[(*heavy, "easy")] - 1, got[(*light, "easy")] - 1) == (24, 6)
    assert me.stats.reallocated == {"test": 30}
    # equal weights (none planned): an even spread, not everything to the first unit
    st2 = SplitState(Coverage("test", {(*spent[0], "easy"): 6, (*heavy, "easy"): 0, (*light, "easy"): 0}))
    st2.exhausted.add((*spent[0], "easy"))
    Builder._reallocate(me, st2, "test")  # type: ignore[arg-type]
    assert st2.coverage.budgets[(*heavy, "easy")] == st2.coverage.budgets[(*light, "easy")] == 3


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


# --- the negatives' difficulty plan from the pilot calibration --------------------------------------

SHARES = {"easy": 200, "medium": 200, "hard": 100}


def _mix_case() -> tuple[dict, dict, dict]:
    counts = {("p1", "chat"): 4, ("p2", "chat"): 4, ("p1", "bound"): 4, ("p2", "bound"): 3}
    kinds = {
        ("p1", "chat"): "neg_A",
        ("p2", "chat"): "neg_A",
        ("p1", "bound"): "neg_C",
        ("p2", "bound"): "neg_C",
    }
    supply = {
        ("p1", "chat"): {"easy": 14, "medium": 2, "hard": 0},  # chit-chat: the router stays quiet
        ("p2", "chat"): {"easy": 4, "medium": 10, "hard": 2},
        ("p1", "bound"): {"easy": 0, "medium": 0, "hard": 16},  # a boundary violation lures it always
        ("p2", "bound"): {"easy": 0, "medium": 9, "hard": 7},
    }
    return counts, kinds, supply


def test_negative_mix_keeps_kind_counts_and_follows_the_difficulty_targets() -> None:
    counts, kinds, supply = _mix_case()
    mix = fit_negative_mix(counts, kinds, supply, SHARES)
    for kind in ("neg_A", "neg_C"):
        want = sum(k for s, k in counts.items() if kinds[s] == kind)
        assert sum(sum(mix[s].values()) for s in mix if kinds[s] == kind) == want
    cols = {d: sum(m[d] for m in mix.values()) for d in SHARES}
    # 15 negatives at 2:2:1 would be 6/6/3, but p1/bound's 4 can only be hard (the pilot saw nothing else)
    assert cols == {"easy": 6, "medium": 5, "hard": 4}
    assert mix[("p1", "bound")]["easy"] == mix[("p1", "bound")]["medium"] == 0
    # the easy budget goes where the router is found easy
    assert mix[("p1", "chat")]["easy"] >= 3
    assert all(sum(m.values()) >= 1 for m in mix.values())  # every scenario stays represented


def test_negative_mix_without_supply_in_a_difficulty_does_not_plan_it_there() -> None:
    counts = {("p1", "a"): 5, ("p2", "b"): 5}
    kinds = dict.fromkeys(counts, "neg_C")
    supply = {s: {"easy": 0, "medium": 0, "hard": 16} for s in counts}
    mix = fit_negative_mix(counts, kinds, supply, SHARES)
    assert {d: sum(m[d] for m in mix.values()) for d in SHARES} == {"easy": 0, "medium": 0, "hard": 10}


def test_plan_without_pilot_splits_every_scenario_by_the_shares() -> None:
    from plugineval.builder.pccf.config import BuildConfig
    from plugineval.builder.pccf.coverage import plan
    from plugineval.builder.synth.grammar import load_grammars

    cfg = BuildConfig.load(None)
    grammars = dict(load_grammars())
    cov = plan("test", cfg.splits["test"], CAT, grammars)
    per: dict[tuple[str, str], dict[str, int]] = {}
    for (pid, sid, d), b in cov.budgets.items():
        if KIND_OF[(pid, sid)] != "trigger":
            per.setdefault((pid, sid), {})[d] = b
    # without a pilot each scenario's examples follow 2:2:1 (largest remainder): easy >= hard
    assert all(m.get("easy", 0) >= m.get("hard", 0) for m in per.values())
    assert sum(sum(m.values()) for m in per.values()) == 500
    cov2 = plan(
        "test", cfg.splits["test"], CAT, grammars, {s: {"easy": 0, "medium": 0, "hard": 8} for s in per}
    )
    hard = sum(
        b for (pid, sid, d), b in cov2.budgets.items() if KIND_OF[(pid, sid)] != "trigger" and d == "hard"
    )
    assert hard == 500  # a pilot that found every scenario hard plans them hard


def test_a_negative_moves_budget_to_its_observed_difficulty_only_while_the_plan_is_short_there() -> None:
    from plugineval.builder.pccf.config import BuildConfig

    a, b = _units("neg_C")[:2]
    cfg = BuildConfig.load(None)  # test: negative difficulty 200/200/100
    rec = SimpleNamespace(kind="neg_C")
    # the split's hard budget is already 100: a hard draft for an easy unit does not take easy budget
    st = SplitState(Coverage("test", {(*a, "easy"): 2, (*a, "hard"): 1, (*b, "hard"): 99}))
    me = SimpleNamespace(kind_of=KIND_OF, stats=BuildStats(), cfg=cfg)
    assert not Builder._transfer(me, st, "test", rec, (*a, "hard"))  # type: ignore[arg-type]
    assert st.coverage.budgets[(*a, "easy")] == 2
    # short of the plan at hard: it moves one unit of the scenario's budget and counts the move
    st2 = SplitState(Coverage("test", {(*a, "easy"): 2, (*a, "hard"): 1, (*b, "hard"): 50}))
    assert Builder._transfer(me, st2, "test", rec, (*a, "hard"))  # type: ignore[arg-type]
    assert st2.coverage.budgets[(*a, "easy")] == 1 and st2.coverage.budgets[(*a, "hard")] == 2
    assert st2.coverage.planned[(*a, "easy")] == 2 and me.stats.budget_transfers == 1


def test_a_rarely_easy_scenario_gets_more_tries_before_its_easy_unit_is_spent() -> None:
    a = _units("neg_A")[0]
    t = _units("trigger")[0]
    cov = Coverage("test", {}, supply={a: {"easy": 2, "medium": 10, "hard": 4}})
    st = SplitState(cov)
    me = SimpleNamespace(kind_of=KIND_OF)
    me._tries_per_success = lambda st, u: Builder._tries_per_success(me, st, u)  # type: ignore[arg-type]
    assert Builder._tries_per_success(me, st, (*a, "easy")) == 8.0  # type: ignore[arg-type]
    assert Builder._dry_limit(me, st, (*a, "easy")) == 24  # 2 of 16: about 8 tries per easy example
    assert Builder._dry_limit(me, st, (*a, "medium")) == 5
    assert Builder._dry_limit(me, st, (*t, "easy")) == 3  # positives: three failures in a row


def test_negative_mix_keeps_the_kind_count_when_every_scenario_has_one() -> None:
    # 12 scenarios of one example each (a small split): the easy-leaning ones take the easy cell,
    # a scenario left with none takes one from a scenario holding two, never one more than the kind's count
    counts = {("p", f"s{i:02d}"): 1 for i in range(12)}
    kinds = dict.fromkeys(counts, "underspecified")
    supply = {
        s: ({"easy": 16, "medium": 0, "hard": 0} if i < 4 else {"easy": 0, "medium": 2, "hard": 14})
        for i, s in enumerate(counts)
    }
    mix = fit_negative_mix(counts, kinds, supply, SHARES)
    assert sum(sum(m.values()) for m in mix.values()) == 12
    assert all(sum(m.values()) >= 1 for m in mix.values())


def test_a_real_query_takes_budget_from_a_unit_of_its_kind_and_difficulty() -> None:
    from plugineval.builder.pccf.build import Builder, BuildStats, SplitState

    b = Builder.__new__(Builder)  # only the bookkeeping under test
    b.kind_of = {("p1", "a"): "trigger", ("p2", "b"): "trigger", ("p1", "c"): "trigger", ("p1", "n"): "neg_A"}
    b.stats = BuildStats()
    cov = Coverage(
        "validation", {("p2", "b", "medium"): 3, ("p1", "c", "medium"): 1, ("p1", "n", "medium"): 5}
    )
    st = SplitState(cov)
    b._room_for_real(st, ("p1", "a", "medium"))  # no budget of its own: its plugin's trigger unit gives one
    assert cov.budgets == {
        ("p2", "b", "medium"): 3,
        ("p1", "c", "medium"): 0,
        ("p1", "n", "medium"): 5,
        ("p1", "a", "medium"): 1,
    }
    cov.counts[("p1", "a", "medium")] += 1
    b._room_for_real(st, ("p1", "a", "medium"))  # own plugin spent: the largest deficit of the kind
    assert cov.budgets[("p2", "b", "medium")] == 2 and cov.budgets[("p1", "a", "medium")] == 2
    b._room_for_real(st, ("p1", "a", "hard"))  # nobody of that difficulty: nothing moves
    assert ("p1", "a", "hard") not in cov.budgets
    assert sum(cov.budgets.values()) == 9 and b.stats.real_budget_moved == 2


def test_a_tier_goes_more_to_the_scenarios_people_say_briefly() -> None:
    """A tier's positives are spread by the expected weight of a unit's patterns: a unit whose
    patterns pack in a calendar date and three values gets less than one said in two words, every
    unit at least one, the tier's total unchanged."""
    from plugineval.builder.pccf.coverage import _spread_weighted
    from plugineval.builder.pccf.said import unit_weight
    from plugineval.builder.synth.grammar import Pattern

    def pat(text: str) -> Pattern:
        return Pattern.model_validate({"id": "p", "text": text, "calls": []})

    brief, packed = ("recipes", "how_to", "easy"), ("flight_tickets", "search", "easy")
    briefs = [pat(t) for t in ("{dish}怎么做", "{dish}咋做", "做{dish}", "{dish}的做法")]
    w = {brief: unit_weight(briefs), packed: unit_weight([pat("{d:md}{a}到{b}的机票")] * 4)}
    assert w[brief] == 1.0 and w[packed] == 1 / 54
    assert unit_weight(briefs[:1]) == 1 / 4  # one pattern alone would repeat itself: a quarter
    out = _spread_weighted(20, [brief, packed], w)
    assert sum(out.values()) == 20 and out[packed] >= 1 and out[brief] > 4 * out[packed]
    assert sum(_spread_weighted(1, [brief, packed], w).values()) == 1  # fewer records than units


def test_a_unit_people_never_say_that_way_is_owed_no_record() -> None:
    """An easy day-specific index must say its day by calendar date (徐州7月29日洗车指数; people say
    明天, a medium request): below FLOOR_WEIGHT a unit takes its proportional share only, while a
    plugin none of whose units reach it keeps its heaviest one."""
    from plugineval.builder.pccf.coverage import FLOOR_WEIGHT, _floored, _spread_weighted

    brief, packed = ("life_index", "what_to_wear", "easy"), ("life_index", "car_wash_tomorrow", "easy")
    lone = ("flight_tickets", "search", "easy")
    w = {brief: 1.0, packed: 1 / 9, lone: 1 / 27}
    assert w[packed] < FLOOR_WEIGHT <= w[brief]
    floored = _floored([brief, packed, lone], w)
    assert floored == {brief, lone}  # the flight plugin's only unit keeps its record
    out = _spread_weighted(6, [brief, packed, lone], w, floored)
    assert out.get(packed, 0) == 0 and out[lone] == 1 and out[brief] == 5
    assert sum(out.values()) == 6
    # with room to spare the packed unit gets its proportional share
    out = _spread_weighted(60, [brief, packed, lone], w, floored)
    assert 4 <= out[packed] <= 7 and sum(out.values()) == 60


def test_a_small_split_keeps_every_plugin_and_otherwise_goes_by_weight() -> None:
    """Validation's 250 positives cannot give each (scenario, tier) unit one: each plugin keeps
    one, the rest go by weight (before: one each to the first units in hash order, whatever they
    packed in), so the validation sample reads like test."""
    from plugineval.builder.pccf.config import BuildConfig
    from plugineval.builder.pccf.coverage import plan
    from plugineval.builder.synth.grammar import load_grammars

    cfg = BuildConfig.load("configs/default.toml")
    cov = plan("validation", cfg.splits["validation"], CAT, load_grammars())
    units = [u for u in cov.weights if KIND_OF[(u[0], u[1])] == "trigger"]
    got = {u: b for u, b in cov.budgets.items() if u in cov.weights}
    assert sum(got.values()) == sum(cfg.splits["validation"].positives.values())
    assert {u[0] for u in got} == {u[0] for u in units}
    mean_all = sum(cov.weights[u] for u in units) / len(units)
    mean_got = sum(cov.weights[u] * b for u, b in got.items()) / sum(got.values())
    assert mean_got > 1.3 * mean_all
