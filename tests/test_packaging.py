"""A wheel of the project carries what an editable install sees: every module and every data file
(catalog, gazetteer, prompts, grammars, the HammerBench sample), and works installed on its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {ROOT / "loaders" / "plugineval": "plugineval", ROOT / "builder": "plugineval/builder"}


def _tracked(*paths: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z", *paths], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return [f for f in out.stdout.split("\0") if f]


def _source_files() -> set[str]:
    """Tracked files of the two source trees, as they are named inside the wheel."""
    out = set()
    for folder, prefix in SOURCES.items():
        rel = folder.relative_to(ROOT).as_posix()
        out |= {f"{prefix}/{Path(f).relative_to(rel).as_posix()}" for f in _tracked(rel)}
    return out


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the tracked sources: a working tree's build/ and *.egg-info/ (whose
    SOURCES.txt setuptools reads back) would add files that a clean clone does not give it."""
    src, out = tmp_path_factory.mktemp("src"), tmp_path_factory.mktemp("wheel")
    for rel in _tracked("setup.py", "pyproject.toml", "README.md", "loaders", "builder"):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "-q",
        "--no-deps",
        "--no-build-isolation",
        "-w",
        str(out),
        str(src),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=240)
    (whl,) = out.glob("plugineval-*.whl")
    return whl


def test_wheel_carries_every_module_and_data_file(wheel: Path) -> None:
    names = {n for n in zipfile.ZipFile(wheel).namelist() if n.startswith("plugineval/")}
    expected = _source_files()
    data = {n for n in expected if not n.endswith(".py")}
    assert len(data) >= 30  # catalog, gazetteer, prompts, grammars, prices, HammerBench sample
    assert expected - names == set(), sorted(expected - names)[:10]


def test_installed_wheel_works_on_its_own(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=240,
    )
    probe = """
import plugineval, sys
from pathlib import Path
assert Path(plugineval.__file__).parent == Path(sys.argv[1]) / "plugineval", plugineval.__file__
from plugineval.catalog import load_catalog
from plugineval.judge import prompt_version
from plugineval.normalize.places import canonical_place
from plugineval.builder.synth.grammar import load_grammars
cat = load_catalog()
print(len(cat.plugins), canonical_place("Beijing"), bool(prompt_version()), len(load_grammars()))
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    r = subprocess.run(
        [sys.executable, "-c", probe, str(site)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    plugins, place, prompt, grammars = r.stdout.split()
    assert int(plugins) >= 50 and place == "北京" and prompt == "True" and int(grammars) >= 50
