"""The gold-anchored judge: tool alignment -> argument filtering and schema check -> semantic check.

``judge_rules`` does everything the rules can; an argument pair the rules cannot decide keeps the
reason ``undecided``. ``decide`` turns the per-argument verdicts into the query's outcome, category
and sub-type by the precedence of docs/format.md §6. The LLM judge (``_llm.py``) may later settle undecided
pairs, after which ``decide`` runs again on the same work.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from types import MappingProxyType
from typing import Any

from ..schema import GoldAlternative, Record
from ..schema.prediction import CallLike, PredictionLike
from ._align import best_pairing, exact_types, has_number, is_exact, perfect_pairing
from ._extras import asks_for, best_of, city_alike, listed_extra, views
from ._types import ACCEPTING, ArgVerdict, Category, Outcome, Reason, RecordVerdict, Subtype
from ._values import (
    _MISSING,
    _SIZED,
    ArgSpec,
    compare_value,
    is_derived_default,
    is_empty,
    make_argspec,
    means_default,
    same,
)

# Enum members read on the hot path, bound once: on CPython 3.11 ``Reason.EXACT`` goes through
# EnumType's attribute lookup (~0.13-0.18 us); a module global costs ~0.01 us.
C_BOTH_EMPTY = Category.BOTH_EMPTY
C_INVALID_OUTPUT = Category.INVALID_OUTPUT
C_JUDGE_FAILURE = Category.JUDGE_FAILURE
C_MISS_RECALL = Category.MISS_RECALL
C_OVER_RECALL = Category.OVER_RECALL
C_PARAMETER_ERROR = Category.PARAMETER_ERROR
C_SPURIOUS_CALL = Category.SPURIOUS_CALL
O_EXCLUDED = Outcome.EXCLUDED
O_FN = Outcome.FN
O_FP = Outcome.FP
O_TN = Outcome.TN
O_TP = Outcome.TP
R_DEFAULT = Reason.DEFAULT
R_EXACT = Reason.EXACT
R_FREE = Reason.FREE
R_JUDGE_FAILURE = Reason.JUDGE_FAILURE
R_MISSING = Reason.MISSING
R_OMITTABLE = Reason.OMITTABLE
R_SCHEMA_VIOLATION = Reason.SCHEMA_VIOLATION
R_UNSUPPORTED_EXTRA = Reason.UNSUPPORTED_EXTRA
S_INCORRECT_VALUE = Subtype.INCORRECT_VALUE
S_MISSING_ARGUMENT = Subtype.MISSING_ARGUMENT
S_TEMPORAL = Subtype.TEMPORAL


_GENERIC = make_argspec("", None, None, False)


@dataclass(slots=True)
class ToolInfo:
    args: dict[str, ArgSpec]
    required: frozenset[str]
    known: frozenset[str]


class _ToolCache:
    """Compiled argument specs per tool; records share tools, so each schema compiles once. Entries
    are found by name and matched by value equality (a C-level comparison that stops at the first
    difference — no key string is built per lookup)."""

    def __init__(self) -> None:
        self._by_name: dict[str, list[tuple[dict[str, Any], dict[str, Any], ToolInfo]]] = {}

    def get(self, name: str, params: dict[str, Any], ann: dict[str, Any]) -> ToolInfo:
        anns = {k: _ann_dict(v) for k, v in ann.items()}
        entries = self._by_name.setdefault(name, [])
        for p, a, info in entries:
            if p == params and a == anns:
                return info
        props: dict[str, Any] = params.get("properties", {}) or {}
        required = frozenset(params.get("required", []) or [])
        info = ToolInfo(
            args={k: make_argspec(k, s, anns.get(k), k in required) for k, s in props.items()},
            required=required,
            known=frozenset(props),
        )
        entries.append((params, anns, info))
        return info


def _ann_dict(a: Any) -> dict[str, Any] | None:
    if a is None:
        return None
    if isinstance(a, dict):
        return a
    dumped: dict[str, Any] = a.model_dump()
    return dumped


_NONE: tuple[int, ...] = ()
_NO_PAIRS: tuple[tuple[int, int], ...] = ()
_NO_ACCEPTED: Mapping[int, list[Any]] = MappingProxyType({})
_ONE_PAIR = ((0, 0),)
_FIRST = (0,)
_NO_WORKS: tuple[Work, ...] = ()


@dataclass(slots=True, init=False)
class Work:
    """Everything the judge found for one record, before the outcome is decided. Built once, with
    all its values (shared empty defaults: nothing appends to a Work)."""

    record: Record
    pred: PredictionLike | None
    pairs: Sequence[tuple[int, int]]
    args: list[ArgVerdict]
    unmatched_gold: Sequence[int]
    unmatched_pred: Sequence[int]
    accepted: Mapping[int, list[Any]]  # index in args -> accepted values
    # the same prediction judged against each of the record's alternative_calls (a view of the record
    # whose gold_calls are that list); set by RulesJudge.judge, read by decide and the LLM judge
    others: Sequence[Work]

    def __init__(
        self,
        record: Record,
        pred: PredictionLike | None,
        pairs: Sequence[tuple[int, int]] = _NO_PAIRS,
        args: list[ArgVerdict] | None = None,
        unmatched_gold: Sequence[int] = _NONE,
        unmatched_pred: Sequence[int] = _NONE,
        accepted: Mapping[int, list[Any]] = _NO_ACCEPTED,
    ) -> None:
        self.record = record
        self.pred = pred
        self.pairs = pairs
        self.args = [] if args is None else args
        self.unmatched_gold = unmatched_gold
        self.unmatched_pred = unmatched_pred
        self.accepted = accepted
        self.others = _NO_WORKS


@dataclass(slots=True)
class _RecordPlan:
    record: Record
    ref: datetime
    tz: tzinfo
    alts: list[GoldAlternative]
    exact_ok: tuple[bool, ...]  # per gold call: no argument is empty, so equal arguments are exact
    numeric: tuple[frozenset[str], ...]  # per gold call: arguments holding a number or a boolean
    typed: tuple[Callable[[dict[str, Any]], bool] | None, ...]  # per gold call: see exact_types
    tools: dict[str, ToolInfo | None] = field(default_factory=dict)  # offered tool name -> its specs
    infos: tuple[ToolInfo | None, ...] = ()  # per gold call: its tool's specs
    # per gold call: (argument, time-valued, gold value) for each argument, the rows of an exact pair
    exact_rows: tuple[tuple[tuple[str, bool, Any], ...], ...] = ()
    views: tuple[Record, ...] | None = None  # per alternative_calls list: the record with it as gold


class RulesJudge:
    """Deterministic part of the judge. Stateless apart from the compiled-schema and per-record caches
    (records are frozen models: what is derived from one never changes)."""

    def __init__(self) -> None:
        self._tools = _ToolCache()
        self._plans: dict[int, _RecordPlan] = {}

    def tool_info(self, record: Record, name: str) -> ToolInfo | None:
        """Compiled specs of one offered tool; memoized in the record's plan."""
        return self._tool_of(self._plan(record), name)

    def _tool_of(self, plan: _RecordPlan, name: str) -> ToolInfo | None:
        memo = plan.tools
        if name not in memo:
            memo[name] = self._lookup(plan.record, name)
        return memo[name]

    def _lookup(self, record: Record, name: str) -> ToolInfo | None:
        for t in record.tools:
            fn = t.get("function", t)
            if fn.get("name") == name:
                ann = record.tool_annotations.get(name, {})
                return self._tools.get(name, fn.get("parameters") or {}, ann)
        return None

    # --- one aligned pair --------------------------------------------------------------------
    def _pair(
        self, plan: _RecordPlan, gi: int, pred: CallLike
    ) -> tuple[list[ArgVerdict], dict[int, list[Any]]]:
        r = plan.record
        return self.pair_verdicts(
            r, gi, r.gold_calls[gi], plan.alts[gi], pred, plan.infos[gi], plan.ref, plan.tz, plan.numeric[gi]
        )

    def pair_verdicts(
        self,
        record: Record,
        gi: int,
        gold: CallLike,
        alt: GoldAlternative,
        pred: CallLike,
        info: ToolInfo | None,
        ref: datetime,
        tz: tzinfo,
        numeric: frozenset[str] | None = None,
    ) -> tuple[list[ArgVerdict], dict[int, list[Any]]]:
        """The verdict on every argument of one aligned pair, and the accepted values each rejected
        value was compared with (by index in the verdicts: what the LLM judge is asked about).
        ``numeric``: the gold arguments holding a number or a boolean, the only ones where == can
        take True for 1 (from the record's plan on the judge's own path, found here when not given)."""
        if numeric is None:
            numeric = frozenset(k for k, v in gold.arguments.items() if has_number(v))
        specs = info.args if info is not None else {}
        pa = pred.arguments
        gargs = gold.arguments
        extra: list[str] = []  # predicted arguments the gold lacks, in the prediction's order
        if not pa.keys() <= gargs.keys():
            for k, v in pa.items():
                # not is_empty(v), inlined: None, "", [] and {} say nothing (0 and False do)
                if k in gargs or v is None or (not v and type(v) in _SIZED):
                    continue
                if k in specs:  # an extra argument given the default the tool applies says nothing
                    sk = specs[k]  # (written as it is or as a declared alias of it: 经济舱 for economy)
                    d = sk.default
                    if d is not _MISSING and (same(v, d) or (sk.aliases and means_default(v, sk))):
                        continue
                    if sk.derived is not None and is_derived_default(v, sk, gargs, ref, tz):
                        continue
                extra.append(k)
        out: list[ArgVerdict] = []
        rejected: dict[int, list[Any]] = {}  # index in out -> the accepted values it was compared with
        for k, gv in gargs.items():
            spec = specs.get(k, _GENERIC)
            pv = pa.get(k, _MISSING)
            if pv is _MISSING or pv is None or (not pv and type(pv) in _SIZED):  # given empty: not given
                if is_empty(gv) and pv is not _MISSING and same(pv, gv):
                    reason = R_EXACT  # the gold itself is empty (e.g. an empty list) and so is the prediction
                elif spec.required and info is not None:
                    reason = R_MISSING
                elif k in alt.omittable:
                    reason = R_OMITTABLE
                elif means_default(gv, spec) or (
                    spec.derived is not None and is_derived_default(gv, spec, gargs, ref, tz)
                ):
                    reason = R_DEFAULT
                elif is_empty(gv):
                    continue
                else:
                    reason = R_MISSING
                out.append(ArgVerdict(gi, k, reason, spec.time_valued, None, gv))
                continue
            if pv == gv and (k not in numeric or same(pv, gv)):  # the gold value: no normalizer needed
                out.append(ArgVerdict(gi, k, R_EXACT, spec.time_valued, pv, gv))
                continue
            accepted = [gv, *alt.values.get(k, [])]
            reason, detail = compare_value(pv, accepted, spec, ref, tz)
            if reason not in ACCEPTING and (alike := city_alike(pv, accepted, gargs, k, spec)) is not None:
                reason, detail = alike  # 成都大熊猫基地 in city 成都 is 大熊猫基地
            if reason not in ACCEPTING:
                rejected[len(out)] = accepted
            out.append(ArgVerdict(gi, k, reason, spec.time_valued, pv, gv, detail))
        if not extra:
            return out, rejected
        for k in extra:
            pv = pa[k]
            if k in alt.free:
                out.append(ArgVerdict(gi, k, R_FREE, False, pv))
            elif info is not None and k not in info.known:
                allowed = ", ".join(sorted(info.known))
                out.append(
                    ArgVerdict(
                        gi,
                        k,
                        R_SCHEMA_VIOLATION,
                        False,
                        pv,
                        None,
                        f"unknown argument (allowed: {allowed})",
                    )
                )
            elif k in alt.extra:
                listed_extra(out, rejected, gi, k, pv, alt.extra[k], specs.get(k, _GENERIC), ref, tz)
            else:
                out.append(ArgVerdict(gi, k, R_UNSUPPORTED_EXTRA, False, pv))
        return out, rejected

    # --- the record ---------------------------------------------------------------------------
    def prepare(self, records: Any) -> None:
        """Compile, ahead of judging, what each record's gold calls need (tool specs, the record
        plan): the per-pair path then only looks them up. Judging without it gives the same verdicts."""
        for r in records:
            if r.kind == "positive" and r.gold_calls:
                self._plan(r)  # with the gold calls' tool specs

    def _plan(self, record: Record) -> _RecordPlan:
        """What judging a record needs besides the prediction, computed once per record object."""
        key = id(record)
        hit = self._plans.get(key)
        if hit is not None and hit.record is record:
            return hit
        if len(self._plans) > 200_000:
            self._plans.clear()
        ref = record.reference_datetime
        assert ref.tzinfo is not None
        exact_ok = tuple(not any(is_empty(v) for v in g.arguments.values()) for g in record.gold_calls)
        numeric = tuple(
            frozenset(k for k, v in g.arguments.items() if has_number(v)) for g in record.gold_calls
        )
        typed = tuple(exact_types(g.arguments) for g in record.gold_calls)
        plan = self._plans[key] = _RecordPlan(
            record, ref, ref.tzinfo, record.alternatives(), exact_ok, numeric, typed
        )
        plan.infos = tuple(self._tool_of(plan, g.name) for g in record.gold_calls)
        plan.exact_rows = tuple(
            tuple(
                (k, info is not None and k in info.args and info.args[k].time_valued, v)
                for k, v in g.arguments.items()
            )
            for g, info in zip(record.gold_calls, plan.infos, strict=True)
        )
        return plan

    def verdict(self, record: Record, pred: PredictionLike | None) -> RecordVerdict:
        """``decide(self.judge(record, pred), self)``: the rules' verdict on one record. The cases most
        predictions fall in (a negative record, no call, one call for one gold call) are decided where
        they are found, without the Work that an LLM judge may revise."""
        if record.kind != "positive":
            return _decide_negative(record, pred, self)
        gold = record.gold_calls
        if pred is None or pred.invalid or not gold:
            return decide(Work(record, pred), self)
        calls = pred.calls
        if not calls:
            missed = [gold[0].name] if len(gold) == 1 else [g.name for g in gold]
            return RecordVerdict(record.id, O_FN, C_MISS_RECALL, None, [], missed)
        if len(gold) != 1 or len(calls) != 1:
            return decide(self.judge(record, pred), self)
        g, c = gold[0], calls[0]
        if c.name != g.name:
            v = RecordVerdict(record.id, O_FN, C_MISS_RECALL, None, [], [g.name], [c.name])
            return self._best(record, pred, v) if record.alternative_calls else v
        plan = self._plans.get(id(record))
        if plan is None or plan.record is not record:
            plan = self._plan(record)
        ga = g.arguments
        if plan.exact_ok[0] and is_exact(c.arguments, ga, plan.typed[0]):
            return RecordVerdict(
                record.id,
                O_TP,
                None,
                None,
                [ArgVerdict(0, k, R_EXACT, t, v, v) for k, t, v in plan.exact_rows[0]],
            )
        v = _positive(record.id, self._pair(plan, 0, c)[0], [], [])
        if v.outcome is O_FN and record.alternative_calls:
            return self._best(record, pred, v)
        return v

    def _views(self, record: Record) -> tuple[Record, ...]:
        """The record once per list of ``alternative_calls`` (``views``), kept in the record's plan:
        each view (and its own plan) is made once."""
        plan = self._plans.get(id(record))
        if plan is None or plan.record is not record:
            plan = self._plan(record)
        if plan.views is None:
            plan.views = views(record)
        return plan.views

    def _best(self, record: Record, pred: PredictionLike, gold: RecordVerdict) -> RecordVerdict:
        """A positive with ``alternative_calls`` whose gold list the prediction does not meet: the
        verdict against the list it meets best (``best_of``)."""
        found = [gold]
        for i, view in enumerate(self._views(record)):
            v = self.verdict(view, pred)
            v.scored_against = i
            found.append(v)
        return best_of(found)

    def judge(self, record: Record, pred: PredictionLike | None) -> Work:
        """What the rules find for one record: against the gold calls, and (for a positive with
        ``alternative_calls`` and at least one predicted call) against each alternative list too."""
        w = self._judge(record, pred)
        if record.alternative_calls and pred is not None and not pred.invalid and pred.calls:
            w.others = tuple(self._judge(view, pred) for view in self._views(record))
        return w

    def _judge(self, record: Record, pred: PredictionLike | None) -> Work:
        if pred is None or pred.invalid or record.kind != "positive" or not record.gold_calls:
            return Work(record, pred, _NO_PAIRS, [])
        gold, calls = record.gold_calls, pred.calls
        if not calls:  # no call at all: every gold call is missed
            return Work(record, pred, _NO_PAIRS, [], _FIRST if len(gold) == 1 else tuple(range(len(gold))))
        plan = self._plans.get(id(record))
        if plan is None or plan.record is not record:
            plan = self._plan(record)
        if len(gold) == 1 and len(calls) == 1:  # most records: no alignment to search
            if calls[0].name != gold[0].name:
                return Work(record, pred, _NO_PAIRS, [], _FIRST, _FIRST)
            ga = gold[0].arguments
            if plan.exact_ok[0] and is_exact(calls[0].arguments, ga, plan.typed[0]):
                return Work(
                    record,
                    pred,
                    _ONE_PAIR,
                    [ArgVerdict(0, k, R_EXACT, t, v, v) for k, t, v in plan.exact_rows[0]],
                )
            verdicts, rejected = self._pair(plan, 0, calls[0])
            return Work(record, pred, _ONE_PAIR, verdicts, _NONE, _NONE, rejected)
        # an exact pair is always kept (no other partner agrees more): only the calls left over go
        # through the pairing search, so a perturbed call among several costs one comparison. Gold
        # calls are visited in order: their verdicts are listed as found until one has no exact
        # partner; from there on they wait in `later` for the search.
        names = [c.name for c in calls]
        free = list(range(len(calls)))  # predictions not paired yet, in order
        args: list[ArgVerdict] = []
        pairs: list[tuple[int, int]] = []
        later: dict[int, tuple[int, list[ArgVerdict], dict[int, list[Any]] | None]] = {}
        rest: list[int] = []  # gold calls without an exact partner
        exact_ok, typed = plan.exact_ok, plan.typed
        for gi, g in enumerate(gold):
            if exact_ok[gi]:
                gname, ga, check = g.name, g.arguments, typed[gi]
                for pj in free:
                    if names[pj] == gname and is_exact(calls[pj].arguments, ga, check):
                        free.remove(pj)
                        verdicts = [ArgVerdict(gi, k, R_EXACT, t, v, v) for k, t, v in plan.exact_rows[gi]]
                        if rest:
                            later[gi] = (pj, verdicts, None)
                        else:
                            args += verdicts
                            pairs.append((gi, pj))
                        break
                else:
                    rest.append(gi)
            else:
                rest.append(gi)
        if not rest:
            return Work(record, pred, pairs, args, _NONE, free)
        if free:
            for name in dict.fromkeys(gold[gi].name for gi in rest):  # per tool, in gold order
                left_g = [gi for gi in rest if gold[gi].name == name]
                left_p = [pj for pj in free if names[pj] == name]
                if left_p:
                    for gi, pj, verdicts, rejected in self._pair_rest(plan, left_g, left_p, calls):
                        later[gi] = (pj, verdicts, rejected)
                        free.remove(pj)
        acc_of: dict[int, list[Any]] = {}
        missed: list[int] = []
        for gi in range(rest[0], len(gold)):
            f = later.get(gi)
            if f is None:
                missed.append(gi)
                continue
            pj, verdicts, rejected_at = f
            if rejected_at:
                at = len(args)
                for i, acc in rejected_at.items():
                    acc_of[at + i] = acc
            args += verdicts
            pairs.append((gi, pj))
        return Work(record, pred, pairs, args, missed, free, acc_of)

    def _pair_rest(
        self, plan: _RecordPlan, left_g: list[int], left_p: list[int], calls: Sequence[CallLike]
    ) -> list[tuple[int, int, list[ArgVerdict], dict[int, list[Any]]]]:
        """Gold and predicted calls of one tool that no exact pair took: the pairing with the most
        agreeing arguments (a perfect greedy fit when there is one), with each pair's verdicts."""
        table: dict[tuple[int, int], tuple[list[ArgVerdict], dict[int, list[Any]]]] = {}

        def cell(gi: int, pj: int) -> tuple[list[ArgVerdict], dict[int, list[Any]]]:
            c = table.get((gi, pj))
            if c is None:
                c = table[gi, pj] = self._pair(plan, gi, calls[pj])
            return c

        pairs = perfect_pairing(left_g, left_p, cell)
        if pairs is None:  # no perfect fit: search the pairing with most agreeing arguments
            for gi in left_g:
                for pj in left_p:
                    cell(gi, pj)
            pairs = best_pairing(left_g, left_p, table)
        return [(gi, pj, *cell(gi, pj)) for gi, pj in pairs]


def decide(w: Work, rules: RulesJudge) -> RecordVerdict:
    """The outcome, the one category and sub-type of a failed query (docs/format.md §6 precedence)."""
    r, pred = w.record, w.pred
    if r.kind != "positive":
        return _decide_negative(r, pred, rules)
    if not r.gold_calls:
        return RecordVerdict(r.id, O_EXCLUDED, C_BOTH_EMPTY)
    args = w.args
    gold_names = [r.gold_calls[i].name for i in w.unmatched_gold] if w.unmatched_gold else []
    pred_names = (
        [pred.calls[j].name for j in w.unmatched_pred] if pred is not None and w.unmatched_pred else []
    )
    if pred is None or pred.invalid:
        detail = "no prediction for this id" if pred is None else pred.invalid_reason
        return RecordVerdict(
            r.id, O_FN, C_INVALID_OUTPUT, None, args, gold_names, pred_names, False, None, detail
        )
    v = _positive(r.id, args, gold_names, pred_names)
    if not w.others or v.outcome is O_TP:
        return v
    found = [v]
    for i, o in enumerate(w.others):
        vo = decide(o, rules)
        vo.scored_against = i
        found.append(vo)
    return best_of(found)


def _positive(
    rid: str, args: list[ArgVerdict], gold_names: list[str], pred_names: list[str]
) -> RecordVerdict:
    """A valid prediction on a positive record: TP, or the one category and sub-type of its failure."""
    bad = failed = temporal = missing = False
    for a in args:
        reason = a.reason
        if reason not in ACCEPTING:
            bad = True
            if reason is R_JUDGE_FAILURE:
                failed = True
            elif reason is R_MISSING:
                missing = True
            elif a.temporal:
                temporal = True
    category: Category | None = None
    subtype: Subtype | None = None
    if failed:
        category = C_JUDGE_FAILURE
    elif gold_names:
        category = C_MISS_RECALL
    elif bad:
        category = C_PARAMETER_ERROR
        subtype = S_TEMPORAL if temporal else S_MISSING_ARGUMENT if missing else S_INCORRECT_VALUE
    elif pred_names:
        category = C_SPURIOUS_CALL
    return RecordVerdict(
        rid, O_TP if category is None else O_FN, category, subtype, args, gold_names, pred_names
    )


def _decide_negative(r: Record, pred: PredictionLike | None, rules: RulesJudge) -> RecordVerdict:
    if pred is None or pred.invalid:
        detail = "no prediction for this id" if pred is None else pred.invalid_reason
        return RecordVerdict(r.id, O_FP, C_INVALID_OUTPUT, None, None, None, None, False, None, detail)
    calls = pred.calls
    names = [c.name for c in calls] if calls else []
    if not names:
        hit = False
    elif r.negative_scope == "global":
        hit = True
    else:
        targets = set(r.target_tools)
        hit = any(n in targets for n in names)
    asks: bool | None = None
    if r.kind == "underspecified":
        missing = r.verification.get("missing") or []
        specs: list[ArgSpec] = []
        for tname in r.target_tools:
            info = rules.tool_info(r, tname)
            if info is not None:
                names_m = missing or sorted(info.required)
                specs += [info.args[a] for a in names_m if a in info.args]
        asks = (not hit) and asks_for(pred.content, specs)
    if hit:
        return RecordVerdict(r.id, O_FP, C_OVER_RECALL, None, None, None, names, True, asks)
    return RecordVerdict(r.id, O_TN, None, None, None, None, names, False, asks)
