from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PLUGINEVAL_SHARED", ROOT.parent / "shared"))


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Stores and caches built by the tests live in a temporary folder, never in ~/.cache."""
    if "PLUGINEVAL_CACHE" not in os.environ:
        os.environ["PLUGINEVAL_CACHE"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.exists():
        pytest.fail(f"../shared not found at {SHARED}: set PLUGINEVAL_SHARED")
    return SHARED


sys.path.insert(0, str(ROOT / "tests"))

MINI_CONFIG = ROOT / "tests" / "data" / "mini.toml"


def build_mini(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """`plugineval build` of the small test config over rail_tickets into ``out``."""
    cmd = [sys.executable, "-m", "plugineval.cli", "build", "--config", str(MINI_CONFIG), "--out", str(out)]
    return subprocess.run(
        [*cmd, "--plugins", "rail_tickets", "--quiet", *extra],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ},
    )


@pytest.fixture(scope="session")
def mini_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One small release per test session, shared by the build, predict and Space tests (read-only)."""
    out = tmp_path_factory.mktemp("mini-release") / "mini"
    res = build_mini(out)
    assert res.returncode == 0, res.stderr
    return out
