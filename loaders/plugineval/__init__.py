"""PluginEval: a diagnostic benchmark for LLM function calling over Chinese plugins.

Public API (imported lazily, so ``import plugineval`` stays fast)::

    import plugineval
    report = plugineval.evaluate("preds.jsonl", records="dist/plugineval-zh", judge="rules")
    print(report.to_markdown())
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._version import JUDGE_VERSION, SCHEMA_VERSION, SCORER_VERSION, __version__

if TYPE_CHECKING:
    from .catalog import Catalog, load_catalog
    from .hub import load
    from .judge import Judge, LLMConfig
    from .report import Report
    from .schema import Prediction, Record
    from .scoring import compare, evaluate
    from .sources import load_records

_LAZY = {
    "evaluate": ".scoring",
    "compare": ".scoring",
    "Judge": ".judge",
    "LLMConfig": ".judge",
    "Report": ".report",
    "Record": ".schema",
    "Prediction": ".schema",
    "Catalog": ".catalog",
    "load_catalog": ".catalog",
    "load_records": ".sources",
    "load": ".hub",
}

__all__ = [
    "JUDGE_VERSION",
    "SCHEMA_VERSION",
    "SCORER_VERSION",
    "Catalog",
    "Judge",
    "LLMConfig",
    "Prediction",
    "Record",
    "Report",
    "__version__",
    "compare",
    "evaluate",
    "load",
    "load_catalog",
    "load_records",
]


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module 'plugineval' has no attribute {name!r}")
    value = getattr(importlib.import_module(mod, __name__), name)
    globals()[name] = value
    return value
