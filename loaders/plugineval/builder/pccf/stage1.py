"""Stage I: execution-grounded annotation with iterative refinement (docs/format.md §4), and the execution
evidence of negatives."""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from plugineval.baselines.implied import implied_today
from plugineval.catalog import Catalog
from plugineval.jsonschema_lite import Validator
from plugineval.judge._core import RulesJudge, decide
from plugineval.schema import Call, GoldAlternative, Plugin, Record, Scenario
from plugineval.schema.disclosure import edge_clause, stated_facts, visible_text

from ..synth.consistency import ANSWER_TOOLS, answer_contradiction
from ..synth.synthesizer import Candidate
from ..tools.server import ToolExecutor
from .alternatives import AlternativeFinder
from .config import Stage1
from .declared import declared
from .evaluators import OBSERVABLE_STEPS, ArgumentEvaluator, ResultEvaluator
from .generators import TEXT_ONLY, Generator, Proposal, Task


@dataclass
class Verification:
    accepted: bool
    reason: str
    gold: list[Call] = field(default_factory=list)
    generator: str | None = None
    score: float = 0.0
    rounds: int = 0
    steps: set[str] = field(default_factory=set)
    evidence: dict[str, Any] = field(default_factory=dict)
    trace: list[dict[str, Any]] = field(default_factory=list)
    intended_differs: bool | None = None
    outcome: str | None = None  # "call" | "abstain"
    alternatives: list[GoldAlternative] = field(default_factory=list)  # aligned with gold
    alternative_calls: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {
            "stage": "I",
            "accepted": self.accepted,
            "reason": self.reason,
            "generator": self.generator,
            "score": round(self.score, 4),
            "rounds": self.rounds,
            "measured_steps": sorted(self.steps),
            "intended_differs": self.intended_differs,
            "evidence": self.evidence,
            "trace": self.trace,
        }


class StageOne:
    def __init__(
        self,
        cfg: Stage1,
        catalog: Catalog,
        executor: ToolExecutor,
        generators: list[Generator],
        llm: Any = None,
        retriever: Any = None,
    ) -> None:
        self.retriever = retriever  # its exemplar alignments serve the argument evaluator as a lexicon
        self.llm = llm  # a RoleClient: LLM argument / result evaluators when configured
        self.cfg = cfg
        self.catalog = catalog
        self.ex = executor
        self.generators = generators
        self.args = ArgumentEvaluator(catalog)
        self.results = ResultEvaluator(catalog)
        self.rules = RulesJudge()
        self._validators: dict[str, Validator] = {}
        self.proposals = 0
        self.alternatives = AlternativeFinder(catalog, self)

    def _validator(self, tool: str) -> Validator:
        v = self._validators.get(tool)
        if v is None:
            v = self._validators[tool] = Validator(self.catalog.tool(tool).parameters)
        return v

    def equivalent(self, a: list[Call], b: list[Call], ref: str) -> bool:
        """Do two call lists mean the same (the judge's rules, b as the anchor)?"""
        if sorted(c.name for c in a) != sorted(c.name for c in b):
            return False
        tools = [self.catalog.tool(n) for n in sorted({c.name for c in b})]
        rec = Record(
            id="eq", version="0", query="-", reference_time=ref, domain="-", target_plugin="-",
            target_tools=[t.name for t in tools], kind="positive", negative_scope="none", needs_tool=True,
            target_relevant=True, tools=[t.openai_function() for t in tools],
            tool_annotations={t.name: dict(t.annotations) for t in tools}, gold_calls=b,
            difficulty="easy", difficulty_basis={"type": "inference_depth", "depth": 0},  # type: ignore[arg-type]
            primary_scenario="-", source={"type": "synthetic", "origin": "-", "license": "-"},  # type: ignore[arg-type]
            split="test",
        )  # fmt: skip
        from plugineval.schema import Prediction

        v = decide(self.rules.judge(rec, Prediction(id="eq", calls=a)), self.rules)
        return str(v.outcome) == "TP"

    async def _execute(self, calls: list[Call], ref: str) -> list[Any]:
        self.ex.reset_state()  # a stateful tool sees a fresh copy of the store per verification
        return [await self.ex.call(c.name, c.arguments, ref) for c in calls]

    async def scores(self, calls: list[Call], task: Task, generator: str) -> bool:
        """Whether Stage I would accept ``calls`` as a reading of ``task``: schema-valid, executed,
        and scored at tau (a proposal made by ``generator``, counted like any other)."""
        e = await self._assess(Proposal(generator=generator, calls=calls), task)
        return bool(e.get("eligible")) and float(e.get("score", 0.0)) >= self.cfg.tau

    async def _assess(self, p: Proposal, task: Task) -> dict[str, Any]:
        e: dict[str, Any] = {"generator": p.generator, "eligible": False, "score": 0.0}
        self.proposals += 1
        self.args.learn(task.db)  # the store's landmarks: a city they imply is grounded
        if p.abstains:
            e["abstain"] = p.abstain_reason
            if p.abstain_reason and p.abstain_reason.startswith("error"):
                e["error"] = p.abstain_reason  # the generator itself failed (time-out, bad answer)
                return e
            if p.abstain_reason == "missing_information":
                justified, missing = self.args.abstention(
                    task.query, task.reference_time, task.plugin, p.missing, self._requested(task)
                )
                if self.llm is not None and self.llm.has("argument_evaluator"):
                    j = await self._llm_args(task, None, p)
                    justified, missing = bool(j is not None and j.justified), missing or p.missing
                e["justified"], e["missing"] = justified, missing
                if justified:
                    e["eligible"], e["score"] = True, self.cfg.abstention_score
            return e
        calls = p.calls or []
        errors = [f"{c.name}.{m}" for c in calls for m in self._validator(c.name).errors(c.arguments)]
        e["calls"] = [c.model_dump() for c in calls]
        if errors:
            e["validation_errors"] = errors
            return e
        outcomes = await self._execute(calls, task.reference_time)
        e["execution"] = [o.error_code or "ok" for o in outcomes]
        if any(not o.ok for o in outcomes):
            e["execution_errors"] = [f"{o.error_code}: {o.error_message}" for o in outcomes if not o.ok]
            return e
        if self.cfg.content_validation:
            a = self.args.assess(
                task.query,
                task.reference_time,
                task.plugin,
                calls,
                self._lexicon(task),
                self._requested(task),
            )
            s_out, note = self.results.assess(calls, outcomes)
            if self.llm is not None and self.llm.has("argument_evaluator"):
                j = await self._llm_args(task, calls, p)
                if j is None:
                    e["error"] = "argument evaluator failed"
                    return e
                a.score = j.score
            if self.llm is not None and self.llm.has("result_evaluator"):
                r = await self._llm_result(task, calls, outcomes)
                if r is None:
                    e["error"] = "result evaluator failed"
                    return e
                s_out = r
            e["S_arg"], e["S_out"], e["grounding"], e["steps"] = (
                round(a.score, 4),
                round(s_out, 4),
                a.grounded,
                sorted(a.steps),
            )
            e["mentions_used"] = [a.used, a.mentions]
            if note:
                e["result_note"] = note
            if a.note:
                e["argument_note"] = a.note
            score = self.cfg.lambda_arg * a.score + self.cfg.lambda_out * s_out
        else:
            a = self.args.assess(task.query, task.reference_time, task.plugin, calls)
            e["steps"] = sorted(a.steps)
            score = 1.0
        e["eligible"], e["score"] = True, round(score, 4)
        return e

    def _lexicon(self, task: Task) -> set[tuple[str, str, str]]:
        """(tool, arg, value) the plugin's exemplars align to this query's spans (both readings)."""
        if self.retriever is None:
            return set()
        cached = getattr(task, "_lexicon", None)
        if cached is not None:
            return cached  # type: ignore[no-any-return]
        from .retriever import fill_args

        out: set[tuple[str, str, str]] = set()
        for variant in (0, 1):
            hit = self.retriever.fill(task.plugin.id, task.query, task.ref, task.db, variant=variant)
            if hit is None:
                continue
            cp, values = hit
            for c in cp.pattern.calls:
                for k, v in fill_args(c.args, values).items():
                    if v not in (None, ""):
                        out.add((c.tool, k, json.dumps(v, ensure_ascii=False)))
        task._lexicon = out  # type: ignore[attr-defined]
        return out

    def _requested(self, task: Task) -> set[str] | None:
        """The tools the plugin's trigger exemplars read this query as asking for (None without a
        retriever): a call that takes nothing from the query must be one of them to count."""
        if self.retriever is None:
            return None
        cached = getattr(task, "_requested", None)
        if cached is None:
            cached = self.retriever.requested_tools(task.plugin.id, task.query, task.ref, task.db)
            task._requested = cached  # type: ignore[attr-defined]
        return cached  # type: ignore[no-any-return]

    async def _llm_args(self, task: Task, calls: list[Call] | None, p: Proposal) -> Any:
        from .llm_roles import ArgOut, RoleError

        data = {
            "query": task.query,
            "reference_time": task.reference_time,
            "tools": [t.openai_function() for t in task.plugin.tools],
            "calls": None if calls is None else [c.model_dump() for c in calls],
            "abstention": None if calls is not None else {"reason": p.abstain_reason, "missing": p.missing},
        }
        try:
            return await self.llm.ask("argument_evaluator", data, ArgOut)
        except RoleError:
            return None

    async def _llm_result(self, task: Task, calls: list[Call], outcomes: list[Any]) -> float | None:
        from .llm_roles import ResultOut, RoleError

        data = {
            "query": task.query,
            "reference_time": task.reference_time,
            "calls": [c.model_dump() for c in calls],
            "outputs": [o.result for o in outcomes],
        }
        try:
            out = await self.llm.ask("result_evaluator", data, ResultOut)
        except RoleError:
            return None
        return float(out.score)

    async def annotate(self, task: Task) -> Verification:
        """Rounds of proposals; the best eligible one is accepted at tau (never 'intended' alone)."""
        trace: list[dict[str, Any]] = []
        partial = False  # the last round's best reading was partial (see _partial)
        for r in range(self.cfg.max_rounds):
            props = [await g.propose(task, r) for g in self.generators]
            entries = [await self._assess(p, task) for p in props]
            _refute_abstentions(entries, task, self.catalog)
            trace.append({"round": r + 1, "proposals": entries})
            order = {g.name: i for i, g in enumerate(self.generators)}
            ranked = sorted(
                (e for e in entries if e["eligible"]),
                key=lambda e: (
                    -e["score"],
                    -sum(1 for g in (e.get("grounding") or {}).values() if g),  # the fuller grounded request
                    e["generator"] not in TEXT_ONLY,
                    order[e["generator"]],
                ),
            )
            if task.intended:
                # two independent readings that agree outrank one that stands alone: a text-only
                # proposal that means what the synthesizer meant wins over a better-scored one that
                # does not (a listing call that reads only the city and date of a booking request
                # scored above the booking); the intended call alone never becomes gold
                for e in ranked:
                    if (
                        e["generator"] in TEXT_ONLY
                        and "calls" in e
                        and e["score"] >= self.cfg.tau
                        and self.equivalent(
                            [Call(**c) for c in e["calls"]], task.intended, task.reference_time
                        )
                    ):
                        return self._accepted(e, r + 1, trace, task)
            partial = False
            for best in ranked:
                if best["score"] < self.cfg.tau:
                    break
                if best["generator"] in TEXT_ONLY:
                    if self._partial(best, entries, task):
                        partial = True  # another round may read the whole request
                        break
                    return self._accepted(best, r + 1, trace, task)
                break  # 'intended' leads, and no text-only reading means the same (checked above)
            task.history.append(trace[-1])
        reason = "partial_reading" if partial else "not_accepted"
        return Verification(False, reason, rounds=self.cfg.max_rounds, trace=trace)

    def _partial(self, best: dict[str, Any], entries: list[dict[str, Any]], task: Task) -> bool:
        """The best text-only reading differs from the synthesizer's intent and carries less of the
        request than the intended call does (a listing call that reads only the city and date of a
        booking request): it is a partial reading, not a gold. The intended call is the cross-check
        here — it can reject a reading, never become gold itself. A reading that differs but carries
        as much (another year for 去年 read differently, a date range made explicit) stands."""
        if not task.intended or "calls" not in best or "mentions_used" not in best:
            return False
        failed = next(
            (e for e in entries if e["generator"] == "intended" and e.get("execution_errors")), None
        )
        if failed is not None and not self.equivalent(
            [Call(**c) for c in best["calls"]], task.intended, task.reference_time
        ):
            # the intended call failed (a booking of a full session): a reading that differs — the
            # listing of the city's sessions read from the place's name — is no gold of the request
            return True
        intended = next(
            (e for e in entries if e["generator"] == "intended" and e["eligible"] and "mentions_used" in e),
            None,
        )
        if intended is None or self.equivalent(
            [Call(**c) for c in best["calls"]], task.intended, task.reference_time
        ):
            return False
        if intended["mentions_used"][0] > best["mentions_used"][0]:
            return True
        # ... or it leaves out (or reads otherwise) an argument of the intended call that the query
        # grounds (去年 -> year 2025 read as no year, a coupon to claim read as a coupon listing)
        have = {_arg_key(c["name"], k, v) for c in best["calls"] for k, v in c["arguments"].items()}
        for key, how in (intended.get("grounding") or {}).items():
            i, _, arg = key.partition(".")
            if how is None or arg == "*":
                continue
            call = intended["calls"][int(i)]
            if _arg_key(call["name"], arg, call["arguments"][arg]) not in have:
                return True
        return False

    def _accepted(
        self, e: dict[str, Any], rounds: int, trace: list[dict[str, Any]], task: Task
    ) -> Verification:
        if "calls" not in e:
            return Verification(
                True,
                "abstention",
                generator=e["generator"],
                score=e["score"],
                rounds=rounds,
                trace=trace,
                outcome="abstain",
                evidence={"missing": e.get("missing", [])},
            )
        gold = [Call(**c) for c in e["calls"]]
        differs = None if not task.intended else not self.equivalent(gold, task.intended, task.reference_time)
        steps = set(e.get("steps", [])) & OBSERVABLE_STEPS
        return Verification(
            True,
            "call",
            gold,
            e["generator"],
            e["score"],
            rounds,
            steps,
            trace=trace,
            intended_differs=differs,
            outcome="call",
        )

    async def add_alternatives(self, v: Verification, task: Task) -> list[Any] | None:
        """The gold's accepted alternatives: omittable defaults, and (unless switched off) the
        variants that execution shows to give the gold's answer (``alternatives.py``). Returns the
        gold calls' answers where it executed them (None where alternatives are switched off)."""
        from .records import alternatives_for

        base = alternatives_for(self.catalog, v.gold)
        if not self.cfg.alternatives:
            v.alternatives = base
            return None
        found = await self.alternatives.find(task.query, task.reference_time, v.gold, base, v.trace)
        v.alternatives, v.alternative_calls = found.alternatives, found.alternative_calls
        v.evidence["alternatives"] = found.summary()
        v.evidence["gold_answer_empty"] = found.empty
        return found.results

    async def other_tool_readings(
        self, task: Task, gold: list[Call], offered: list[str], dbs: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """Another offered plugin's reading that serves the request (``AlternativeFinder.other_tools``)."""
        if self.retriever is None or not self.cfg.alternatives:
            return []
        return await self.alternatives.other_tools(task, gold, offered, dbs)

    async def declared_readings(
        self,
        gold: list[Call],
        intended: list[Call],
        also: list[list[Call]],
        offered: list[str],
        ref: str,
        refused: Counter[str],
        query: str,
    ) -> list[dict[str, Any]]:
        """The pattern's other readings that hold by execution (``pccf.declared.declared``)."""
        if not self.cfg.alternatives:
            return []
        return await declared(self.alternatives, gold, intended, also, offered, ref, refused, query)

    # --- per kind -----------------------------------------------------------------------------
    async def verify(self, cand: Candidate, plugin: Plugin, scenario: Scenario, db: Any) -> Verification:
        task = Task(
            cand.query,
            cand.reference_time,
            plugin,
            db,
            intended=cand.intended_calls if cand.kind == "trigger" else None,
        )
        k = scenario.kind
        if k == "trigger":
            v = await self.annotate(task)
            if v.accepted and v.outcome == "abstain":
                return Verification(False, "positive_but_abstention_accepted", rounds=v.rounds, trace=v.trace)
            if v.accepted:
                answers = await self.add_alternatives(v, task)
                if v.evidence.get("gold_answer_empty"):
                    # nothing found (西甲 after the season ends, 火锅 where the store has none): a request
                    # people seldom make, and one whose alternatives execution cannot decide
                    return Verification(False, "gold_answer_empty", v.gold, rounds=v.rounds, trace=v.trace)
                if any(c.name in ANSWER_TOOLS for c in v.gold):  # an event passed, a metro trip by bus
                    if answers is None:  # alternatives switched off: the gold was not executed yet
                        answers = [o.result for o in await self._execute(v.gold, task.reference_time)]
                    if why := answer_contradiction(task.query, task.reference_time, v.gold, answers):
                        return Verification(False, why, v.gold, rounds=v.rounds, trace=v.trace)
            return v
        if k == "neg_A":
            justified, _ = self.args.abstention(
                cand.query, cand.reference_time, plugin, [], self._requested(task)
            )
            ev = {"type": "no_tool_worthy_request", "fillable_tool": not justified}
            return Verification(justified, "verified" if justified else "refuted_tool_worthy", evidence=ev)
        if k == "neg_B":
            outs = await self._execute(cand.intended_calls, cand.reference_time)
            ok = (
                bool(outs)
                and all(o.ok for o in outs)
                and all(
                    self.catalog.plugin_of_tool(c.name).id == scenario.needed_plugin
                    for c in cand.intended_calls
                )
            )
            ev = {
                "type": "needed_plugin_succeeds",
                "needed_plugin": scenario.needed_plugin,
                "calls": [c.model_dump() for c in cand.intended_calls],
                "execution": [o.error_code or "ok" for o in outs],
            }
            return Verification(ok, "verified" if ok else "needed_call_failed", evidence=ev)
        if k == "neg_C":
            want = plugin.boundary(scenario.boundary or "").code
            outs = await self._execute(cand.intended_calls, cand.reference_time)
            codes = [o.error_code for o in outs]
            ev = {
                "type": "boundary_error",
                "boundary": scenario.boundary,
                "code": want,
                "would_be_calls": [c.model_dump() for c in cand.intended_calls],
                "observed": codes,
            }
            if want not in codes:
                return Verification(False, "boundary_not_hit", evidence=ev)
            # docs/format.md §1/§4: the limit is stated where the model reads it — in the shown text of the
            # target tool the would-be call hits
            b = plugin.boundary(scenario.boundary or "")
            hit = [c.name for c, o in zip(cand.intended_calls, outs, strict=True) if o.error_code == want]
            stated = [
                t for t in hit if all(f in visible_text(plugin.tool(t), b.argument) for f in stated_facts(b))
            ]
            if not stated:
                return Verification(False, "limit_not_disclosed", evidence=ev)
            read_only = not any(plugin.tool(t).stateful for t in hit)
            if b.kind == "max_items" and read_only and b.splittable:
                # 6 drugs for a 5-drug check: overlapping checks of five cover every pair
                return Verification(False, "limit_splittable", evidence=ev)
            if b.kind == "max_span_days":
                # a span per call limits no read: two calls over the halves answer the request whole;
                # nor a booking (单笔订单最多连续入住 30 晚: two back-to-back orders book a 46-night stay,
                # and reviewers of train round F held a neg_C label on it wrong)
                return Verification(False, "limit_splittable", evidence=ev)
            if b.kind == "max_value" and read_only and _EXTENT.match(b.argument):
                # a search extent (radius, result count): the search at the limit answers part of the
                # request and says so, which a careful grader accepts — no clear negative
                return Verification(False, "limit_partial_search", evidence=ev)
            ev["disclosed"] = {"tool": stated[0], "clause": edge_clause(b, plugin.tool(stated[0]))}
            v = await self.annotate(task)
            if v.accepted and v.outcome == "call":
                return Verification(False, "refuted_answerable", evidence=ev, trace=v.trace, rounds=v.rounds)
            return Verification(True, "verified", evidence=ev, trace=v.trace, rounds=v.rounds)
        # underspecified
        call = cand.intended_calls[0]
        served = served_otherwise(plugin, scenario)
        if served:
            ev = {"type": "served_by_other_target_tool", "tool": served}
            return Verification(False, "served_by_other_target_tool", evidence=ev)
        errs = self._validator(call.name).errors(call.arguments)
        missing = sorted(m.split(":")[0] for m in errs if "required argument missing" in m)
        ev = {
            "type": "schema_missing_required",
            "would_be_call": call.model_dump(),
            "missing": missing,
            "schema_errors": errs,
        }
        if missing != sorted(scenario.missing) or len(errs) != len(missing):
            return Verification(False, "missing_mismatch", evidence=ev)
        if implied_by_time(plugin.tool(call.name), missing, cand.query, cand.reference_time):
            # 合肥的月亮几点升起来 asks about today: the value is not missing (docs/format.md §1)
            return Verification(False, "value_implied_by_time", evidence=ev)
        v = await self.annotate(task)
        if v.accepted and v.outcome == "abstain":
            return Verification(
                True,
                "verified",
                evidence=ev,
                trace=v.trace,
                rounds=v.rounds,
                generator=v.generator,
                score=v.score,
            )
        return Verification(
            False,
            "refuted_answerable" if v.accepted else "abstention_not_justified",
            evidence=ev,
            trace=v.trace,
            rounds=v.rounds,
        )


_EXTENT = re.compile(r"^(radius.*|limit|max_results)$")


def implied_by_time(tool: Any, missing: list[str], query: str, reference_time: str) -> bool:
    """Every missing argument is a day that the request's own time implies: the core's
    predicate (``baselines.implied``), the same one the slot parser fills today by."""
    return implied_today(tool.properties, tool.annotations, tool.stateful, missing, query, reference_time)


def served_otherwise(plugin: Plugin, scenario: Scenario) -> str | None:
    """Another tool of the target plugin that serves an underspecified request without the missing
    information (docs/format.md §1): one that needs no required argument the request lacks, and whose answer
    supplies a missing argument (coupon_list lists the coupon_id that coupon_claim needs; the
    missing argument's description may name it: 可先用 coupon_list 查询). A listing's date window
    is no such argument where the missing value is an id: 我的订单怎么还没发货 is served by the recent
    orders (train round J: a strong model listed them, as a careful assistant would)."""
    tool = plugin.tool(scenario.tools[0])
    missing = set(scenario.missing)
    for other in plugin.tools:
        if other.name == tool.name or set(other.required) & missing:
            continue
        needs = set(other.required) - set(tool.properties)
        window = {r for r in needs if other.properties[r].get("format") == "date"}
        if needs - window or (window and not all(m.endswith("_id") for m in missing)):
            continue  # it needs something this request never offered to give
        named = any(other.name in str(tool.properties[m].get("description", "")) for m in missing)
        if named or missing & _output_keys(other.output):
            return other.name
    return None


def _output_keys(schema: Any) -> set[str]:
    out: set[str] = set()
    if isinstance(schema, dict):
        for k, v in (schema.get("properties") or {}).items():
            out.add(k)
            out |= _output_keys(v)
        out |= _output_keys(schema.get("items"))
    return out


def _refute_abstentions(entries: list[dict[str, Any]], task: Task, catalog: Catalog) -> None:
    """A 'missing information' abstention is not justified when another proposal executed and
    grounds every required argument of its calls in the query: the information was there."""
    grounded_by = None
    for e in entries:
        if not e["eligible"] or "calls" not in e or e.get("S_arg") is None:
            continue
        calls = e["calls"]
        required = {f"{i}.{a}" for i, c in enumerate(calls) for a in catalog.tool(c["name"]).required}
        g = e.get("grounding") or {}
        if required and all(g.get(k) for k in required):
            grounded_by = e["generator"]
            break
    if grounded_by is None:
        return
    for e in entries:
        if e.get("abstain") == "missing_information" and e["eligible"]:
            e["eligible"], e["score"] = False, 0.0
            e["refuted_by"] = grounded_by


def _arg_key(tool: str, arg: str, value: Any) -> tuple[str, str, str]:
    return tool, arg, json.dumps(value, ensure_ascii=False, sort_keys=True)
