"""The model seam: one OpenAI-compatible client for every role that asks a model (docs/models.md).

Roles: ``model`` (``plugineval predict``), ``judge`` (the LLM judge), ``generator``, ``evaluator``,
``synthesizer`` and ``router`` (the builder's PCCF roles). Each has a typed ``ModelConfig``
(endpoint, model, key variable, concurrency, rate limit, time-out, retries, sampling, cache);
``ModelClient`` sends its requests with retries and back-off, a token-bucket rate limit, bounded
concurrency, a disk cache keyed by what changes the answer, and usage / cost / latency accounting.
``plugineval.models.mock`` is a provider with scripted replies (``base_url = "mock://…"``).

Importing this package is cheap: ``openai`` is imported when the first request goes.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cache import DiskCache, cache_key
    from .client import Completion, ModelClient, Usage
    from .config import ROLES, ModelConfig, Role, role_config
    from .errors import FatalError, ModelError, RequestRefused, TransientError, UnusableResponse

_LAZY = {
    "DiskCache": ".cache",
    "cache_key": ".cache",
    "Completion": ".client",
    "ModelClient": ".client",
    "Usage": ".client",
    "ROLES": ".config",
    "ModelConfig": ".config",
    "Role": ".config",
    "role_config": ".config",
    "FatalError": ".errors",
    "ModelError": ".errors",
    "RequestRefused": ".errors",
    "TransientError": ".errors",
    "UnusableResponse": ".errors",
}

__all__ = [
    "ROLES",
    "Completion",
    "DiskCache",
    "FatalError",
    "ModelClient",
    "ModelConfig",
    "ModelError",
    "RequestRefused",
    "Role",
    "TransientError",
    "UnusableResponse",
    "Usage",
    "cache_key",
    "role_config",
]


def __getattr__(name: str) -> Any:
    mod = _LAZY.get(name)
    if mod is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(mod, __name__), name)
