"""The opt-in compiled judge (``PLUGINEVAL_COMPILE=1``, mypyc; setup.py).

A wheel built from a copy of the tracked sources with the judge's hot modules compiled (quick: mypy
analyses only them) is installed with ``--target``; in a subprocess, those modules are extension
modules, ``plugineval.judge.COMPILED`` says so, and the judge's verdicts on the judge's case files and on a sample of the BFCL oracle pairs equal, field for
field, the pure judge's from the source tree. A build that asks for compiling where mypyc or a C
compiler is missing stops with a message naming what is missing; an editable install stays pure."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from _compiled_judge import build_wheel, copy_sources, install  # noqa: E402

HOT = [
    "plugineval.judge._align",
    "plugineval.judge._core",
    "plugineval.judge._types",
    "plugineval.judge._values",
]

PROBE = r"""
import json, sys
root = sys.argv[1]
sys.path[:0] = [root + "/tests", root + "/benchmarks"]
import plugineval
import plugineval.judge as J
from plugineval.judge import Judge, _align, _core, _types, _values
from plugineval.adapters.bfcl import load_bfcl, bfcl_prediction, read_oracle
from _compiled_judge import bfcl_dir, verdict_row
from judge_fixtures import load_cases, make_pred, make_record

judge = Judge("rules")
rows = []
for c in load_cases("judge_args.jsonl"):
    ann = {c["tool"]: c["ann"]} if "ann" in c else None
    alts = [c["alt"]] if "alt" in c else None
    rec = make_record("r", gold=[(c["tool"], c["gold"])], alts=alts, ann=ann)
    rows.append(verdict_row(judge.judge_one(rec, make_pred("r", [(c["tool"], c["pred"])]))))
for c in load_cases("judge_records.jsonl"):
    rec = make_record("r", kind=c["kind"], gold=[tuple(g) for g in c.get("gold", [])], scope=c.get("scope"))
    p = c["pred"]
    pred = make_pred("r", [tuple(x) for x in p] if isinstance(p, list) else p)
    rows.append(verdict_row(judge.judge_one(rec, pred)))
d = bfcl_dir()
records = {r.id: r for r in load_bfcl(d)}
pairs = [p for p in read_oracle(d / "oracle" / "verdicts.jsonl") if p.id in records][:: int(sys.argv[2])]
for p in pairs:
    r = records[p.id]
    rows.append(verdict_row(judge.judge_one(r, bfcl_prediction(r, p.prediction))))
files = {m.__name__: m.__file__ for m in (_align, _core, _types, _values)}
print(json.dumps({"package": plugineval.__file__, "files": files, "compiled": J.COMPILED, "rows": rows}))
"""


def _probe(bfcl_dir: Path, site: Path | None, cwd: Path) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PLUGINEVAL_BFCL_DIR": str(bfcl_dir)}
    if site is not None:
        env["PYTHONPATH"] = str(site)
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT), "5"],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr[-3000:]
    out: dict[str, Any] = json.loads(r.stdout)
    return out


@pytest.mark.timeout(600)
def test_compiled_build_gives_the_pure_judges_verdicts(tmp_path: Path, bfcl_dir: Path) -> None:
    src, out, site = tmp_path / "src", tmp_path / "wheel", tmp_path / "site"
    copy_sources(src)
    wheel = build_wheel(src, out, timeout=500)
    assert not wheel.name.endswith("-none-any.whl"), wheel.name  # a platform wheel: it holds an extension
    install(wheel, site)

    compiled = _probe(bfcl_dir, site, tmp_path)
    pure = _probe(bfcl_dir, None, tmp_path)
    assert Path(compiled["package"]).parent == site / "plugineval", compiled["package"]
    assert sorted(compiled["files"]) == HOT
    assert all(f.endswith(".so") for f in compiled["files"].values()), compiled["files"]
    assert all(f.endswith(".py") for f in pure["files"].values()), pure["files"]
    assert compiled["compiled"] is True and pure["compiled"] is False
    assert len(pure["rows"]) > 3000  # the case files and a fifth of the 16,074 BFCL oracle pairs
    differ = [(a, b) for a, b in zip(pure["rows"], compiled["rows"], strict=True) if a != b]
    assert differ == [], (len(differ), differ[:3])


def _copy(tmp_path: Path) -> Path:
    src = tmp_path / "src"
    copy_sources(src)
    return src


def _wheel(src: Path, tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        str(tmp_path),
    ]
    full = os.environ | {"PLUGINEVAL_COMPILE": "1"} | env
    return subprocess.run([*cmd, str(src)], capture_output=True, text=True, env=full, timeout=240)


def test_compiling_without_a_c_compiler_is_a_clear_error(tmp_path: Path) -> None:
    r = _wheel(_copy(tmp_path), tmp_path, CC="/nonexistent/bin/cc")
    assert r.returncode != 0
    assert "lacks: a C compiler ('/nonexistent/bin/cc' not found" in r.stdout + r.stderr, r.stderr[-2000:]
    assert not list(tmp_path.glob("*.whl"))  # no silent pure-Python fallback


def test_compiling_without_mypyc_is_a_clear_error(tmp_path: Path) -> None:
    fake = tmp_path / "no_mypyc" / "mypyc"  # shadows the installed mypyc: importing it fails
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('mypyc is not installed here (test)')\n")
    r = _wheel(_copy(tmp_path), tmp_path, PYTHONPATH=str(fake.parent))
    assert r.returncode != 0
    assert "lacks: mypyc (it comes with mypy" in r.stdout + r.stderr, r.stderr[-2000:]
    assert not list(tmp_path.glob("*.whl"))


def test_an_editable_install_stays_pure(tmp_path: Path) -> None:
    """Neither its metadata step (dist_info, which pip runs first) nor its build looks for a toolchain."""
    src = _copy(tmp_path)
    env = os.environ | {"PLUGINEVAL_COMPILE": "1", "CC": "/nonexistent/bin/cc"}
    (tmp_path / "meta").mkdir()
    for args in (["dist_info", "--output-dir", str(tmp_path / "meta")], ["editable_wheel", "--help"]):
        r = subprocess.run(
            [sys.executable, "setup.py", *args], cwd=src, capture_output=True, text=True, env=env, timeout=120
        )
        assert r.returncode == 0, r.stderr[-2000:]
    assert "ignored for an editable install" in r.stderr
    import plugineval.judge

    assert plugineval.judge.COMPILED is False  # this environment's (editable) install
