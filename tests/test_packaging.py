"""A wheel of the project carries what an editable install sees: every module and every data file
(catalog, gazetteer, prompts, grammars, the HammerBench sample, the build's default config, the dataset
card template, the Space app), and works installed on its own: it finds those files in itself, and its
build fingerprint and store key are the checkout's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    ROOT / "loaders" / "plugineval": "plugineval",
    # folders of the checkout shipped from where they are (setup.py, DATA_FOLDERS)
    ROOT / "configs": "plugineval/builder/configs",
    ROOT / "dataset_card": "plugineval/builder/dataset_card",
    ROOT / "space": "plugineval/space_app",
}


def _tracked(*paths: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z", *paths], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return [f for f in out.stdout.split("\0") if f]


def _source_files() -> set[str]:
    """Tracked files of the source tree and the shipped folders, as they are named inside the wheel."""
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
    for rel in _tracked(
        "setup.py", "pyproject.toml", "README.md", *sorted({f.relative_to(ROOT).parts[0] for f in SOURCES})
    ):
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


@pytest.mark.parametrize(
    "name",
    [
        "plugineval/builder/configs/default.toml",
        "plugineval/builder/dataset_card/body.md.tmpl",
        "plugineval/space_app/app.py",
    ],
)
def test_wheel_carries_config_card_template_and_space(wheel: Path, name: str) -> None:
    assert name in zipfile.ZipFile(wheel).namelist()


@pytest.fixture(scope="module")
def site(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel installed into a folder of its own (no dependencies: the test's environment has them)."""
    site = tmp_path_factory.mktemp("installed") / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
        check=True,
        capture_output=True,
        timeout=240,
    )
    return site


def _run_installed(site: Path, probe: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
    return subprocess.run(
        [sys.executable, "-c", probe, str(site)],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def test_installed_wheel_works_on_its_own(site: Path, tmp_path: Path) -> None:
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
    r = _run_installed(site, probe, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    plugins, place, prompt, grammars = r.stdout.split()
    assert int(plugins) >= 50 and place == "北京" and prompt == "True" and int(grammars) >= 50


INSTALLED_PATHS = """
import sys
from pathlib import Path
site = Path(sys.argv[1])
from plugineval.builder.pccf.config import DEFAULT_CONFIG, BuildConfig
from plugineval.builder.pccf.card import TEMPLATE_DIR
from plugineval.cli._space import SPACE_DIR
BuildConfig.load()
for name, path, inner in [
    ("config", DEFAULT_CONFIG, "."),
    ("card", TEMPLATE_DIR, "body.md.tmpl"),
    ("space", SPACE_DIR, "plugineval_space/livejudge.py"),
]:
    print(name, path.is_relative_to(site), (path / inner).is_file())
"""


@pytest.mark.parametrize("name", ["config", "card", "space"])
def test_installed_wheel_finds_its_config_card_template_and_space(
    site: Path, tmp_path: Path, name: str
) -> None:
    """Found in the installed package (importlib.resources), not beside it in a source layout."""
    r = _run_installed(site, INSTALLED_PATHS, tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    found = {line.split()[0]: line.split()[1:] for line in r.stdout.splitlines()}
    assert found[name] == ["True", "True"], (name, r.stdout)


FINGERPRINTS = """
from plugineval.builder.pccf.candidate import fingerprint
from plugineval.builder.pccf.config import BuildConfig
from plugineval.builder.synth.grammar import load_grammars
from plugineval.builder.tools.store import store_key
from plugineval.catalog import load_catalog
print(fingerprint(BuildConfig.load(), load_catalog(), load_grammars()), store_key(["travel", "weather"], 7))
"""


def test_installed_wheel_has_the_checkouts_fingerprint_and_store_key(site: Path, tmp_path: Path) -> None:
    """The build fingerprint and the store key hash the package's own files by their place in it, so the
    installed files give the checkout's keys (before, the wheel's fingerprint hashed no code at all)."""
    installed = _run_installed(site, FINGERPRINTS, tmp_path)
    assert installed.returncode == 0, installed.stderr[-2000:]
    checkout = subprocess.run(
        [sys.executable, "-c", FINGERPRINTS], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert checkout.returncode == 0, checkout.stderr[-2000:]
    assert installed.stdout == checkout.stdout
