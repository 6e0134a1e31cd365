"""PCCF roles on the model seam: end to end through the real `openai` client against a local
OpenAI-compatible server (generator and evaluators in Stage I, the synthesizer, the router), the
rest on the package's mock provider."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from plugineval.baselines.router import ReferenceRouter
from plugineval.builder.pccf.config import BuildConfig, Stage1
from plugineval.builder.pccf.generators import Task, make_generators
from plugineval.builder.pccf.llm_roles import RoleClient, RoleConfig
from plugineval.builder.pccf.retriever import TemplateRetriever
from plugineval.builder.pccf.stage1 import StageOne
from plugineval.builder.synth.grammar import load_grammars
from plugineval.builder.synth.synthesizer import Candidate
from plugineval.builder.tools.server import ToolExecutor
from plugineval.builder.tools.store import Store
from plugineval.catalog import load_catalog
from plugineval.models.mock import slow
from plugineval.schema import Call

from fake_openai import FakeOpenAI, MockServer

CAT = load_catalog()
REF = "2026-03-18T09:30:00+08:00"
RAIL = CAT.plugin("rail_tickets")


def _data(body: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    system = body["messages"][0]["content"]
    data = json.loads(body["messages"][-1]["content"].split("DATA:\n", 1)[1])
    role = next(
        r
        for r in (
            "annotate a function-calling",
            "check the arguments",
            "check whether tool outputs",
            "write one natural",
            "route a Chinese",
            "make a negative",
        )
        if r in system
    )
    return role, data


def _answer(obj: dict[str, Any]) -> dict[str, Any]:
    return {"content": json.dumps(obj, ensure_ascii=False)}


def scripted(
    first: dict[str, Any],
    second: dict[str, Any],
    arg_score: float = 1.0,
    justified: bool = True,
    delay: float = 0.0,
) -> Any:
    def behaviour(body: dict[str, Any]) -> dict[str, Any]:
        role, data = _data(body)
        if role == "annotate a function-calling":
            answer = _answer(first if not data["history"] else second)
            return slow(delay, answer) if delay else answer  # type: ignore[return-value]
        if role == "check the arguments":
            return _answer({"score": arg_score, "justified": justified, "justification": "ok"})
        if role == "check whether tool outputs":
            return _answer({"score": 1.0, "justification": "answers it"})
        raise AssertionError(role)

    return behaviour


def _call(name: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "arguments_json": json.dumps(args, ensure_ascii=False)}


def _verify(
    server: FakeOpenAI | MockServer,
    tmp: Path,
    query: str,
    kind: str,
    generators: list[str],
    intended: list[Call] | None = None,
    timeout: float = 30.0,
) -> Any:
    roles = {
        r: RoleConfig(base_url=server.base_url, model="fake", timeout_s=timeout, max_retries=0)
        for r in ("generator", "argument_evaluator", "result_evaluator")
    }

    async def go() -> Any:
        llm = RoleClient(roles, tmp / "cache.sqlite")
        try:
            async with ToolExecutor(CAT) as ex:
                gens = make_generators(
                    generators, CAT, ReferenceRouter(CAT), TemplateRetriever(CAT, load_grammars()), llm
                )
                s1 = StageOne(Stage1(generators=generators), CAT, ex, gens, llm)  # type: ignore[arg-type]
                scen = next(s for s in RAIL.scenarios if s.kind == kind)
                cand = Candidate(query, "rail_tickets", scen.id, kind, "p", REF, intended or [], [], query)
                db = Store.open(["travel"]).readonly_connection()
                if kind == "trigger":
                    return await s1.annotate(Task(query, REF, RAIL, db, intended))
                return await s1.verify(cand, RAIL, scen, db)
        finally:
            await llm.aclose()

    return anyio.run(go)


def test_schema_invalid_first_proposal_is_repaired_in_round_2(tmp_path: Path) -> None:
    bad = {"calls": [_call("train_search_tickets", from_city="北京", to_city="上海", date="后天")]}
    good = {"calls": [_call("train_search_tickets", from_city="北京", to_city="上海", date="2026-03-20")]}
    with FakeOpenAI(scripted(bad, good)) as srv:
        v = _verify(srv, tmp_path, "后天从北京去上海的火车有哪些", "trigger", ["llm"])
    assert v.accepted and v.generator == "llm" and v.rounds == 2
    assert v.gold[0].arguments["date"] == "2026-03-20"
    assert "validation_errors" in v.trace[0]["proposals"][0]


def test_execution_error_is_fed_back_and_repaired(tmp_path: Path) -> None:
    bad = {
        "calls": [
            _call(
                "train_book_ticket",
                train_no="G9999",
                date="2026-03-20",
                seat_class="second_class",
                passenger_name="张伟",
            )
        ]
    }
    good = {
        "calls": [
            _call(
                "train_book_ticket",
                train_no="G1",
                date="2026-03-20",
                seat_class="second_class",
                passenger_name="张伟",
            )
        ]
    }
    with MockServer(scripted(bad, good)) as srv:
        v = _verify(srv, tmp_path, "给张伟订一张2026年3月20日G1的二等座", "trigger", ["llm"])
    assert v.accepted and v.rounds == 2
    errs = v.trace[0]["proposals"][0]["execution_errors"]
    assert errs and errs[0].startswith("UNKNOWN_TRAIN")


def test_justified_abstention_confirms_an_underspecified_query(tmp_path: Path) -> None:
    abstain = {"abstain": True, "reason": "missing_information", "missing": ["from_city", "date"]}
    with MockServer(scripted(abstain, abstain, justified=True)) as srv:
        v = _verify(
            srv,
            tmp_path,
            "帮我查一下去上海的高铁",
            "underspecified",
            ["llm"],
            intended=[Call(name="train_search_tickets", arguments={"to_city": "上海"})],
        )
    assert v.accepted and v.reason == "verified"
    assert v.evidence["missing"] == ["date", "from_city"]


def test_timed_out_generator_is_ineligible_and_others_carry_on(tmp_path: Path) -> None:
    good = {"calls": [_call("train_search_tickets", from_city="北京", to_city="上海", date="2026-03-20")]}
    with MockServer(scripted(good, good, delay=2.0)) as srv:
        v = _verify(
            srv,
            tmp_path,
            "帮我查一下2026年3月20日从北京到上海的火车",
            "trigger",
            ["llm", "slot_parser"],
            timeout=0.3,
        )
    llm = v.trace[0]["proposals"][0]
    assert llm["generator"] == "llm" and not llm["eligible"] and "error" in llm
    assert v.accepted and v.generator == "slot_parser"


def test_unknown_role_and_llm_generator_without_endpoint_are_config_errors() -> None:
    base = BuildConfig.load(Path(__file__).parent / "data" / "mini.toml").model_dump()
    with pytest.raises(ValueError, match="unknown roles"):
        BuildConfig.model_validate({**base, "roles": {"oracle": {"base_url": "http://x", "model": "m"}}})
    with pytest.raises(ValueError, match=r"roles\.generator"):
        BuildConfig.model_validate(
            {**base, "stage1": {**base["stage1"], "generators": ["llm", "slot_parser"]}}
        )


def test_synthesizer_and_router_roles_end_to_end_and_their_cache(tmp_path: Path) -> None:
    """The synthesizer and router roles through the real client: strict structured output sent, the
    answer parsed; the router's sampled seeds are separate cache entries, a repeat is a hit, and a
    second client over the same cache file asks nothing."""
    from plugineval.builder.pccf.llm_roles import QueryOut, RouteOut

    def behaviour(body: dict[str, Any]) -> dict[str, Any]:
        role, _ = _data(body)
        fmt = body["response_format"]
        assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
        if role == "write one natural":
            assert fmt["json_schema"]["name"] == "QueryOut" and body["temperature"] == 0.0
            return _answer({"query": "明天从北京去上海的火车有哪些"})
        if role == "route a Chinese":
            assert body["temperature"] == 0.7 and "seed" in body
            return _answer({"tool": "train_search_tickets" if body["seed"] == 0 else None})
        raise AssertionError(role)

    async def go(srv: FakeOpenAI) -> tuple[list[Any], dict[str, int]]:
        roles = {
            r: RoleConfig(base_url=srv.base_url, model="fake", max_retries=0)
            for r in ("synthesizer", "router")
        }
        llm = RoleClient(roles, tmp_path / "cache.sqlite")
        try:
            got: list[Any] = [await llm.ask("synthesizer", {"plugin": "rail_tickets"}, QueryOut)]
            for seed in (0, 1, 0):
                got.append(
                    await llm.ask("router", {"query": got[0].query}, RouteOut, seed=seed, temperature=0.7)
                )
            return got, llm.calls
        finally:
            await llm.aclose()

    with FakeOpenAI(behaviour) as srv:
        got, calls = anyio.run(go, srv)
        assert got[0].query == "明天从北京去上海的火车有哪些"
        assert [g.tool for g in got[1:]] == ["train_search_tickets", None, "train_search_tickets"]
        assert calls == {"synthesizer": 1, "router": 2} and len(srv.requests) == 3
        _, again = anyio.run(go, srv)
    assert again == {"synthesizer": 0, "router": 0} and len(srv.requests) == 3


def test_a_role_that_fails_raises_role_error_and_is_not_cached(tmp_path: Path) -> None:
    from plugineval.builder.pccf.llm_roles import QueryOut, RoleError

    replies = iter(['{"query": ""}', "not json", '{"query": "明天的火车"}'])

    async def go(srv: MockServer) -> list[str]:
        llm = RoleClient({"synthesizer": RoleConfig(base_url=srv.base_url, model="m")}, tmp_path / "c.sqlite")
        out = []
        try:
            for _ in range(3):
                try:
                    out.append((await llm.ask("synthesizer", {"plugin": "rail_tickets"}, QueryOut)).query)
                except RoleError as e:
                    out.append(str(e))
        finally:
            await llm.aclose()
        return out

    with MockServer(lambda body: {"content": next(replies)}) as srv:
        got = anyio.run(go, srv)
    assert got[0].startswith("synthesizer: ValidationError") and got[1].startswith(
        "synthesizer: ValidationError"
    )
    assert got[2] == "明天的火车" and len(srv.requests) == 3
