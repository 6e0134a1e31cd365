"""End-to-end mini builds: the release loads, every gold executes, builds are deterministic, a killed
build resumes to the same files, and bad configs fail clearly."""

from __future__ import annotations

import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from conftest import build_mini

from plugineval.builder.pccf.config import BuildConfig
from plugineval.builder.tools.server import ToolExecutor
from plugineval.catalog import load_catalog
from plugineval.jsonschema_lite import Validator
from plugineval.schema import Record, SchemaError

MINI = Path(__file__).parent / "data" / "mini.toml"
PLUGINS = "rail_tickets"
CAT = load_catalog()


def _build(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return build_mini(out, *extra)


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def release(mini_release: Path) -> Path:
    return mini_release


def _records(out: Path) -> list[Record]:
    import pyarrow.parquet as pq

    return [
        Record.from_row(r)
        for f in sorted((out / "data").glob("*/*.parquet"))
        if f.parent.name != "plugins"
        for r in pq.read_table(f).to_pylist()
    ]


def test_release_loads_with_datasets(release: Path) -> None:
    from datasets import load_dataset

    test = load_dataset(str(release), split="test")
    assert len(test) > 0 and set(test["split"]) == {"test"}
    hard = load_dataset(str(release), "hard", split="test")
    assert set(hard["difficulty"]) == {"hard"}
    plugins = load_dataset(str(release), "plugins", split="train")
    assert len(plugins) == len(CAT.tools)


def test_card_counts_match_the_files(release: Path) -> None:
    import pyarrow.parquet as pq

    text = (release / "README.md").read_text(encoding="utf-8")
    meta = yaml.safe_load(text.split("---\n")[1])
    files = {
        str(f.relative_to(release)): pq.read_metadata(f).num_rows
        for f in (release / "data").rglob("*.parquet")
    }
    import fnmatch

    for cfg, info in zip(meta["configs"], meta["dataset_info"], strict=True):
        assert cfg["config_name"] == info["config_name"]
        for df, sp in zip(cfg["data_files"], info["splits"], strict=True):
            globs = df["path"] if isinstance(df["path"], list) else [df["path"]]
            n = sum(c for f, c in files.items() if any(fnmatch.fnmatch(f, g) for g in globs))
            assert n == sp["num_examples"] and n > 0, (cfg["config_name"], df)
            assert sp["num_bytes"] > 0
    default = {s["name"]: s["num_examples"] for s in meta["dataset_info"][0]["splits"]}
    pos = {s["name"]: s["num_examples"] for s in meta["dataset_info"][1]["splits"]}
    neg = {s["name"]: s["num_examples"] for s in meta["dataset_info"][2]["splits"]}
    assert all(pos.get(k, 0) + neg.get(k, 0) == v for k, v in default.items())  # no row stored twice


def test_loading_with_a_shared_tool_memo_gives_the_same_records(release: Path) -> None:
    from plugineval.sources import load_records

    plain = {r.id: r for r in _records(release)}
    memoized = load_records(release, "test")  # parses each distinct offered-tool text once
    assert memoized and all(r == plain[r.id] for r in memoized)
    assert memoized[0].tools[0] is not memoized[1].tools[0]  # equal texts never alias one dict


def test_every_record_is_sound(release: Path) -> None:
    recs = _records(release)
    assert len({r.id for r in recs}) == len(recs)
    kinds = {r.kind for r in recs}
    assert kinds == {"positive", "neg_A", "neg_B", "neg_C", "underspecified"}
    for r in recs:
        offered = {t["function"]["name"] for t in r.tools}
        assert set(r.target_tools) <= offered and 3 <= len(offered - set(r.target_tools)) <= 7 + 3
        assert "canary" in r.source.model_dump() and r.source.canary
        ev = r.verification.get("evidence", {})
        if r.kind == "neg_C":
            assert ev["code"] in ev["observed"]
            # the limit is stated in the offered target tool's description, as the model reads it
            shown = {t["function"]["name"]: t["function"]["description"] for t in r.tools}
            assert ev["disclosed"]["tool"] in r.target_tools, r.id
            assert ev["disclosed"]["clause"] in shown[ev["disclosed"]["tool"]], r.id
        if r.kind == "neg_B":
            assert ev["execution"] and all(x == "ok" for x in ev["execution"])
            needed = set(CAT.plugin_of_tool(ev["calls"][0]["name"]).tool_names)
            assert needed <= offered or not needed & offered, r.id  # offered whole, or not at all
        if r.kind == "underspecified":
            assert ev["missing"] == r.verification["missing"]
        if r.kind != "positive":
            assert r.difficulty_basis.type == "behavioral" and r.difficulty_basis.K == 5
            st = r.verification.get("strengthened")
            if st is not None:  # the lure is said in the request itself, no preamble glued in front
                assert st["lure"] in r.query and not r.query.startswith(st["lure"] + "先不看了"), r.query
        else:
            assert r.verification["generator"] in ("slot_parser", "template_retriever")  # never 'intended'


def test_every_gold_call_validates_and_executes(release: Path) -> None:
    recs = [r for r in _records(release) if r.kind == "positive"]

    async def go() -> list[Any]:
        async with ToolExecutor(CAT) as ex:
            out = []
            for r in recs:
                for c in r.gold_calls:
                    assert not Validator(CAT.tool(c.name).parameters).errors(c.arguments), (r.id, c)
                    ex.reset_state()
                    out.append((r.id, await ex.call(c.name, c.arguments, r.reference_time)))
            return out

    for rid, o in anyio.run(go):
        assert o.ok, (rid, o.error_code, o.error_message)


def test_same_seed_same_bytes(release: Path, tmp_path: Path) -> None:
    again = tmp_path / "mini"
    assert _build(again).returncode == 0
    assert _digest(again) == _digest(release)


def test_kill_and_resume_gives_the_same_files(release: Path, tmp_path: Path) -> None:
    out = tmp_path / "mini"
    cmd = [
        sys.executable,
        "-m",
        "plugineval.cli",
        "build",
        "--config",
        str(MINI),
        "--out",
        str(out),
        "--plugins",
        PLUGINS,
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    journal = tmp_path / ".mini.work" / "journal.sqlite"
    deadline = time.monotonic() + 120
    rows = 0
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        if journal.exists():
            try:
                rows = sqlite3.connect(str(journal)).execute("SELECT COUNT(*) FROM results").fetchone()[0]
            except sqlite3.Error:
                rows = 0
            if rows >= 30:
                break
    assert proc.poll() is None, "the build finished before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (out / "README.md").exists()
    res = _build(out, "--resume")
    assert res.returncode == 0, res.stderr
    timing = json.loads((tmp_path / ".mini.work" / "timing.json").read_text())
    assert timing["journal_hits"] >= 25
    assert _digest(out) == _digest(release)


def test_bad_config_names_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(MINI.read_text() + "\n[stage1]\ntau = 1.5\nlamda_arg = 0.3\n", encoding="utf-8")
    with pytest.raises(SchemaError) as e:
        BuildConfig.load(bad)
    assert "stage1.tau" in str(e.value) and "stage1.lamda_arg" in str(e.value)
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "plugineval.cli",
            "build",
            "--config",
            str(bad),
            "--out",
            str(tmp_path / "o"),
            "--quiet",
        ],
        capture_output=True,
        text=True,
    )
    assert res.returncode == 2 and "stage1.tau" in res.stderr and "Traceback" not in res.stderr


def test_neg_b_offers_the_needed_plugin_in_about_half_and_otherwise_not_at_all() -> None:
    from types import SimpleNamespace

    from plugineval.builder.pccf.candidate import offered_for

    ctx = SimpleNamespace(cfg=BuildConfig.load(None), catalog=CAT)
    offered = []
    for p in CAT.plugins:
        for s in p.scenarios:
            if s.kind != "neg_B" or not s.needed_plugin:
                continue
            needed = set(CAT.plugin(s.needed_plugin).tool_names)
            for i in range(20):
                tools = set(offered_for(ctx, f"test|{p.id}|{s.id}|{i}", p, s))  # type: ignore[arg-type]
                assert set(p.tool_names) <= tools
                # all of the needed plugin's tools, or none (a distractor must not offer it by chance)
                assert needed <= tools or not needed & tools, (p.id, s.id, i)
                offered.append(needed <= tools)
    assert len(offered) > 500 and 0.4 < sum(offered) / len(offered) < 0.6


def test_report_gives_the_share_of_neg_b_offering_the_needed_plugin(release: Path) -> None:
    report = json.loads((release / "build_report.json").read_text(encoding="utf-8"))
    for split, info in report["splits"].items():
        negb = [r for r in _records(release) if r.kind == "neg_B" and r.split == split]
        offered = [
            set(CAT.plugin_of_tool(r.verification["evidence"]["calls"][0]["name"]).tool_names)
            <= {t["function"]["name"] for t in r.tools}
            for r in negb
        ]
        assert info["neg_b_needed_offered_share"] == (
            round(sum(offered) / len(offered), 4) if offered else None
        )


def _copies(tmp_path: Path, packages: list[str]) -> dict[str, Path]:
    """Copies of the named packages' folders, to edit without touching the checkout."""
    import shutil

    from plugineval._resources import package_folder

    out = {}
    for p in packages:
        out[p] = tmp_path / p
        shutil.copytree(package_folder(p), out[p], ignore=shutil.ignore_patterns("__pycache__"))
    return out


def test_fingerprint_follows_the_code_it_depends_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The journal's fingerprint hashes the imported packages' own files: the same for a copy of them in
    another place, different after an edit to a module or a normalizer's data (a journal of other code
    is never replayed)."""
    from plugineval._resources import package_folder
    from plugineval.builder.pccf import candidate
    from plugineval.builder.synth.grammar import load_grammars

    cfg, catalog, grammars = BuildConfig.load(), load_catalog(), load_grammars()
    before = candidate.fingerprint(cfg, catalog, grammars)
    copies = _copies(tmp_path, ["plugineval.builder.pccf", "plugineval.normalize"])
    monkeypatch.setattr(candidate, "package_folder", lambda p: copies.get(p) or package_folder(p))
    assert candidate.fingerprint(cfg, catalog, grammars) == before
    seen = {before}
    for edited in [
        copies["plugineval.builder.pccf"] / "stage1.py",
        copies["plugineval.normalize"] / "data" / "places.json",
    ]:
        original = edited.read_bytes()
        edited.write_bytes(original + b"\n")
        seen.add(candidate.fingerprint(cfg, catalog, grammars))
        edited.write_bytes(original)
    assert len(seen) == 3
    assert candidate.fingerprint(cfg, catalog, grammars) == before


def test_calendar_config_is_separate_and_opt_in(release: Path) -> None:
    from datasets import load_dataset

    from plugineval.realism import RARE_FORMS, forms_of
    from plugineval.sources import LoadError, load_records

    cal = load_records(release, "test", config="calendar")
    default = load_records(release, "test")
    assert cal and default
    assert not {r.id for r in cal} & {r.id for r in default}
    assert all(r.kind == "positive" for r in cal)
    # each calendar record says something the default ones do not: a stress step
    stress = {"calendar_fact", "date_arithmetic", "implicit_entity", "timezone_conversion"}
    assert all(stress & set(r.difficulty_basis.steps) for r in cal), [r.query for r in cal]
    # the default split holds no rare form beyond what people use (none in this grammar)
    assert not [r.query for r in default if set(forms_of(r.query)) & set(RARE_FORMS)]
    ds = load_dataset(str(release), "calendar", split="test")
    assert sorted(ds["id"]) == sorted(r.id for r in cal)
    assert len(load_dataset(str(release), split="test")) == len(default)  # the default never mixes it in
    with pytest.raises(LoadError, match="unknown config"):
        load_records(release, "test", config="lunar")
    rep = json.loads((release / "build_report.json").read_text(encoding="utf-8"))
    assert set(rep["realism"]["splits"]) == {"test", "validation", "train"}
    assert rep["realism"]["splits"]["test"]["n"] == len(default)
    assert rep["calendar"]["splits"]["test"]["records"] == len(cal)
