"""Catalog data checks: the schema, cross references, and the figures the issue asks for."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from plugineval.catalog import load_catalog
from plugineval.jsonschema_lite import Validator
from plugineval.schema import NEGATIVE_KINDS, SchemaError

CAT = load_catalog()
TOOLS = CAT.tools


def test_catalog_size() -> None:
    s = CAT.stats()
    assert s["domains"] >= 9
    assert s["plugins"] >= 54
    assert s["tools"] >= 63


def test_tool_names_are_openai_function_names() -> None:
    rx = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
    names = [t.name for t in TOOLS]
    assert len(names) == len(set(names))
    assert all(rx.match(n) for n in names)


@pytest.mark.parametrize("plugin", CAT.plugins, ids=lambda p: p.id)
def test_every_plugin_has_all_scenario_kinds(plugin) -> None:  # type: ignore[no-untyped-def]
    kinds = [s.kind for s in plugin.scenarios]
    assert kinds.count("trigger") >= 3
    for k in NEGATIVE_KINDS:
        assert k in kinds, f"{plugin.id} lacks a {k} scenario"
    assert re.search(r"[\u4e00-\u9fff]", plugin.description)


@pytest.mark.parametrize("tool", TOOLS, ids=lambda t: t.name)
def test_tool_schema_is_valid_json_schema_and_examples_validate(tool) -> None:  # type: ignore[no-untyped-def]
    Draft202012Validator.check_schema(tool.parameters)
    Draft202012Validator.check_schema(tool.output)
    assert re.search(r"[\u4e00-\u9fff]", tool.description)
    lite = Validator(tool.parameters)
    for ex in tool.examples:
        assert lite.errors(ex.arguments) == []
        assert not list(Draft202012Validator(tool.parameters).iter_errors(ex.arguments))
    for arg, sch in tool.properties.items():
        assert re.search(r"[\u4e00-\u9fff]", sch.get("description", "")), f"{arg} needs a Chinese description"
        if sch.get("format") in ("date", "date-time", "time", "duration"):
            assert tool.annotations.get(arg) is not None and tool.annotations[arg].time_valued, (
                f"{tool.name}.{arg} has format {sch['format']} but is not annotated time_valued"
            )


def test_enum_aliases_are_unambiguous() -> None:
    for t in TOOLS:
        for arg, ann in t.annotations.items():
            lowered: dict[str, object] = {}
            for alias, canon in ann.aliases.items():
                k = alias.casefold().strip()
                assert lowered.setdefault(k, canon) == canon, f"{t.name}.{arg}: {alias!r} is ambiguous"


def test_invalid_catalog_file_names_file_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "broken.yaml"
    bad.write_text(
        "id: x\nname: 坏的\ndescription: 坏的领域\nplugins:\n  - id: p\n    name: 插件\n", encoding="utf-8"
    )
    with pytest.raises(SchemaError) as e:
        load_catalog(bad)
    msg = str(e.value)
    assert "broken.yaml" in msg and "plugins.0.description" in msg


def test_cross_reference_errors_are_reported(tmp_path: Path) -> None:
    src = (Path(__file__).parents[1] / "loaders/plugineval/catalog/data/travel.yaml").read_text(
        encoding="utf-8"
    )
    (tmp_path / "travel.yaml").write_text(
        src.replace("needed_plugin: flight_tickets", "needed_plugin: nope"), "utf-8"
    )
    with pytest.raises(SchemaError, match="needed_plugin 'nope'"):
        load_catalog(tmp_path)
