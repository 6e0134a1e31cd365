from __future__ import annotations

import os
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
