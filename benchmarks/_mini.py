"""The benchmarks' small release: ``plugineval build`` of tests/data/mini.toml over rail_tickets (a few
seconds), as the tests build it (tests/conftest.py ``build_mini``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MINI_CONFIG = ROOT / "tests" / "data" / "mini.toml"


def build_mini(out: Path, timeout: float = 900) -> Path:
    """Build the mini release into ``out`` (a failure raises, with the builder's output); returns it."""
    cmd = [sys.executable, "-m", "plugineval.cli", "build", "--config", str(MINI_CONFIG)]
    cmd += ["--out", str(out), "--plugins", "rail_tickets", "--quiet"]
    subprocess.run(cmd, check=True, capture_output=True, timeout=timeout, cwd=ROOT)
    return out
