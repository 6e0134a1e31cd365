from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# BFCL v4 single-turn data and the oracle verdicts of BFCL's own checker (Apache-2.0), vendored
# verbatim with their license and checksums (tests/data/README.md): no test reads outside the repository
# (PLUGINEVAL_BFCL_DIR points the tests at another copy).
BFCL_DIR = Path(os.environ.get("PLUGINEVAL_BFCL_DIR", ROOT / "tests" / "data" / "bfcl"))


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Stores and caches built by the tests live in a temporary folder, never in ~/.cache."""
    if "PLUGINEVAL_CACHE" not in os.environ:
        os.environ["PLUGINEVAL_CACHE"] = str(tmp_path_factory.mktemp("cache"))


@pytest.fixture(scope="session")
def bfcl_dir() -> Path:
    """The vendored BFCL folder (question/, possible_answer/, oracle/verdicts.jsonl)."""
    if not (BFCL_DIR / "oracle" / "verdicts.jsonl").is_file():
        pytest.fail(
            f"{BFCL_DIR}/oracle/verdicts.jsonl is missing: the checkout is incomplete (it is tracked in git)"
        )
    return BFCL_DIR


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
