"""Every tool executes over MCP (in-process client session); every boundary answers its error."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator

from plugineval.builder.tools.server import ToolExecutor, parse_result
from plugineval.catalog import load_catalog

from tool_probes import violating_arguments

CAT = load_catalog()
BOUNDARY_CASES = [(p, b, t) for p, b in CAT.iter_boundaries() for t in b.tools]


def _run(calls: list[tuple[str, dict[str, Any], str]]) -> list[Any]:
    async def go() -> list[Any]:
        async with ToolExecutor(CAT) as ex:
            out = []
            for name, args, ref in calls:
                ex.reset_state()
                out.append(await ex.call(name, args, ref))
            return out

    return anyio.run(go)


@pytest.mark.parametrize("domain", [d.id for d in CAT.domains])
def test_every_tool_example_executes_and_output_validates(domain: str) -> None:
    tools = [t for p in CAT.domain(domain).plugins for t in p.tools]
    calls = [(t.name, ex.arguments, ex.reference_time) for t in tools for ex in t.examples]
    outcomes = _run(calls)
    for (name, args, _), o in zip(calls, outcomes, strict=True):
        assert o.ok, f"{name}({args}) failed: {o.error_code} {o.error_message}"
        errs = list(Draft202012Validator(CAT.tool(name).output).iter_errors(o.result))
        assert not errs, f"{name}: output breaks its schema: {errs[0].message}"
        # Outputs are computed from the store, not an echo of the arguments.
        assert set(o.result) - set(args), f"{name} only echoes its arguments"


@pytest.mark.parametrize(
    ("plugin", "boundary", "tool"), BOUNDARY_CASES, ids=[f"{b.id}-{t}" for _, b, t in BOUNDARY_CASES]
)
def test_every_boundary_is_enforced(plugin: Any, boundary: Any, tool: str) -> None:
    args, ref = violating_arguments(CAT.tool(tool), boundary)
    (o,) = _run([(tool, args, ref)])
    assert not o.ok, f"{tool}({args}) should cross {boundary.id}"
    assert o.error_code == boundary.code, (
        f"{tool}: expected {boundary.code}, got {o.error_code}: {o.error_message}"
    )
    assert o.error_message and "Error executing tool" not in o.error_message


def test_schema_invalid_arguments_get_a_clear_error() -> None:
    t = CAT.tools[0]
    req = t.required[0]
    args = {k: v for k, v in t.examples[0].arguments.items() if k != req}
    args["no_such_argument"] = 1
    (o,) = _run([(t.name, args, t.examples[0].reference_time)])
    assert o.error_code == "SCHEMA_VIOLATION"
    assert req in (o.error_message or "") and "no_such_argument" in (o.error_message or "")


def test_unknown_tool_and_missing_reference_time() -> None:
    (o,) = _run([("no_such_tool", {}, "2026-03-18T09:30:00+08:00")])
    assert o.error_code == "UNKNOWN_TOOL"


def test_same_arguments_same_answer() -> None:
    t = CAT.tools[0]
    ex = t.examples[0]
    a, b = _run([(t.name, ex.arguments, ex.reference_time), (t.name, ex.arguments, ex.reference_time)])
    assert a.ok and a.result == b.result


def test_stdio_server_end_to_end() -> None:
    """One domain server as a subprocess over stdio, driven by the mcp client."""
    from mcp import Client, StdioServerParameters

    dom = CAT.domains[0]
    tool = dom.plugins[0].tools[0]
    ex = tool.examples[0]
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "plugineval.cli", "tools", "serve", dom.id],
        env={**os.environ},
    )

    async def go() -> tuple[list[str], Any, Any]:
        async with Client(params) as c:
            listed = await c.list_tools()
            ok = await c.call_tool(tool.name, ex.arguments, meta={"reference_time": ex.reference_time})
            bad = await c.call_tool(tool.name, {}, meta={"reference_time": ex.reference_time})
            return [t.name for t in listed.tools], ok, bad

    names, ok, bad = anyio.run(go)
    assert tool.name in names and set(names) == {t.name for p in dom.plugins for t in p.tools}
    good, data, _, _ = parse_result(ok)
    assert good and data
    failed, _, code, msg = parse_result(bad)
    assert not failed and code == "SCHEMA_VIOLATION" and "required" in (msg or "")
    assert json.loads(bad.content[0].text)["error"]["tool"] == tool.name


@pytest.mark.parametrize(
    ("plugin", "boundary", "tool"), BOUNDARY_CASES, ids=[f"{b.id}-{t}" for _, b, t in BOUNDARY_CASES]
)
def test_stated_edge_is_inclusive_as_the_runtime_checks(plugin: Any, boundary: Any, tool: str) -> None:
    """The shown description says every edge is inclusive (today + N 天 含当天, 最大为 L（含）): the
    runtime's own check lets the edge pass and refuses one step beyond it."""
    from datetime import datetime

    from plugineval.builder.tools.runtime import boundary_violation

    if boundary.kind == "place_scope":
        pytest.skip("a place scope has no edge")
    spec = CAT.tool(tool)
    at, ref = violating_arguments(spec, boundary, edge=True)
    beyond, _ = violating_arguments(spec, boundary)
    today = datetime.fromisoformat(ref).date()
    assert boundary_violation(boundary, at, today) is None, f"{tool}: the stated edge {at} is refused"
    assert boundary_violation(boundary, beyond, today) is not None, f"{tool}: {beyond} passes"


def test_store_key_follows_exactly_what_the_store_reads(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing a domain module, the gazetteer (normalize/data/places.json) or a normalizer gives a new
    store; editing another domain's module does not."""
    import shutil

    from plugineval._resources import package_folder
    from plugineval.builder.tools import store

    copies = {}
    for p in ("plugineval.builder.tools", "plugineval.normalize"):
        copies[p] = tmp_path / p
        shutil.copytree(package_folder(p), copies[p], ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(store, "package_folder", lambda p: copies.get(p) or package_folder(p))
    before = store.store_key(["travel"], 7)
    assert store.store_key(["travel"], 8) != before

    def key_after_edit(path: Any) -> str:
        original = path.read_bytes()
        path.write_bytes(original + b"\n")
        try:
            return store.store_key(["travel"], 7)
        finally:
            path.write_bytes(original)

    tools, normalize = copies["plugineval.builder.tools"], copies["plugineval.normalize"]
    for edited in [
        tools / "domains" / "travel.py",
        tools / "domains" / "travel_more.py",
        tools / "domains" / "_common.py",
        normalize / "data" / "places.json",
        normalize / "places.py",
    ]:
        assert key_after_edit(edited) != before, edited.name
    assert key_after_edit(tools / "domains" / "weather.py") == before
    assert store.store_key(["travel"], 7) == before


# The person a booking is for, left out, is the signed-in account (issue 24: a real assistant takes the
# contact's name and phone from the user's profile, so requests need not carry made-up ones).
ACCOUNT_DEFAULTS = [
    ("restaurant_reserve", "contact_name"),
    ("restaurant_reserve", "phone"),
    ("housekeeping_book", "contact_phone"),
    ("appointment_book", "patient_name"),
    ("vaccine_book", "person_name"),
    ("train_book_ticket", "passenger_name"),
    ("hotel_book", "guest_name"),
    ("mobile_recharge", "phone"),
]


@pytest.mark.parametrize(("tool", "arg"), ACCOUNT_DEFAULTS, ids=[f"{t}.{a}" for t, a in ACCOUNT_DEFAULTS])
def test_a_booking_left_without_its_person_is_the_accounts(tool: str, arg: str) -> None:
    from plugineval.builder.tools.domains._common import ACCOUNT_HOLDER, ACCOUNT_PHONE

    t = CAT.tool(tool)
    sch = t.properties[arg]
    assert arg not in t.required
    desc = str(sch["description"])
    assert "不填则为" in desc and ("本人" in desc or "手机号" in desc or "本机号码" in desc), desc
    if "pattern" not in sch:  # a name: the schema default the judge compares (writing it out is no error)
        assert sch.get("default") == ACCOUNT_HOLDER
    ex = next(e for e in t.examples if arg in e.arguments)
    without = {k: v for k, v in ex.arguments.items() if k != arg}
    bad = {**ex.arguments, arg: "12" if "pattern" in sch else ""}  # a given value is still checked
    given, left_out, invalid = _run([(tool, ex.arguments, ex.reference_time), (tool, without, ex.reference_time),
                                     (tool, bad, ex.reference_time)])  # fmt: skip
    assert given.ok, f"{tool}({ex.arguments}): {given.error_code} {given.error_message}"
    assert left_out.ok, f"{tool}({without}): {left_out.error_code} {left_out.error_message}"
    assert not invalid.ok and invalid.error_code == "SCHEMA_VIOLATION", (bad, invalid.error_code)
    for key in ("patient_name", "person_name", "phone"):
        if key == arg and key in left_out.result:  # the output names whom it booked: the account
            assert left_out.result[key] in (ACCOUNT_HOLDER, ACCOUNT_PHONE)
            assert given.result[key] == ex.arguments[arg]
