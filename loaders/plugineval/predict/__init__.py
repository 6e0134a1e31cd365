"""``plugineval predict``: run an OpenAI-compatible model (native or prompt-based tool calling) or an
offline baseline over the records, writing a resumable predictions file (docs/format.md §9) and its sidecar
``<out>.meta.json`` (prompt version, request settings, records, totals).

Importing this package is cheap: ``openai`` and ``tqdm`` are imported when a run starts.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._baselines import BASELINES, ROUTER_CAVEAT
from ._native import NATIVE_PROMPT
from ._output import META_SUFFIX, meta_path, read_meta
from ._prompted import PROMPTED_PROMPT, parse_reply
from ._replies import Unparsable
from ._runner import PredictConfig, RunSummary, check_trials, run_predict, run_trials


def read_run_meta(predictions_path: str | Path) -> dict[str, Any] | None:
    """The sidecar ``<predictions_path>.meta.json`` written by ``plugineval predict`` (model, prompt
    version, request settings, records, totals, and for ``baseline:router`` the calibration caveat
    under ``notes``), or None when the file has none. A damaged sidecar raises ValueError naming it."""
    return read_meta(predictions_path)


__all__ = [
    "BASELINES",
    "META_SUFFIX",
    "NATIVE_PROMPT",
    "PROMPTED_PROMPT",
    "ROUTER_CAVEAT",
    "PredictConfig",
    "RunSummary",
    "Unparsable",
    "check_trials",
    "meta_path",
    "parse_reply",
    "read_run_meta",
    "run_predict",
    "run_trials",
]
