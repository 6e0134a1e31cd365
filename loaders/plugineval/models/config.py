"""Typed configuration of one model role (``ModelConfig``), and where each role reads it from.

Roles: ``model`` (``plugineval predict``), ``judge`` (the LLM judge), and the builder's ``generator``,
``evaluator`` (argument and result evaluators), ``synthesizer`` (queries and strengthened negatives)
and ``router`` (the LLM reference router). Each role reads ``PLUGINEVAL_<ROLE>_BASE_URL``,
``PLUGINEVAL_<ROLE>_MODEL``, ``PLUGINEVAL_<ROLE>_API_KEY`` and ``PLUGINEVAL_<ROLE>_CONCURRENCY``
(``role_config``); the variables documented before the seam stay aliases: ``OPENAI_BASE_URL`` /
``OPENAI_API_KEY`` for ``model``, ``PLUGINEVAL_LLM_API_KEY`` for the builder's roles, and
``OPENAI_API_KEY`` as the last fallback of every role (docs/models.md).

A ``base_url`` of ``mock://<name>`` (or ``provider = "mock"``) selects the mock provider
(``plugineval.models.mock``): no HTTP server, no key.
"""

from __future__ import annotations

import os
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

Role = Literal["model", "judge", "generator", "evaluator", "synthesizer", "router"]
ROLES: tuple[str, ...] = ("model", "judge", "generator", "evaluator", "synthesizer", "router")
Provider = Literal["openai", "mock"]
MOCK_SCHEME = "mock://"

# the variables each role read before the seam: kept, and documented, as aliases
KEY_ALIASES: dict[str, tuple[str, ...]] = {
    "model": ("OPENAI_API_KEY",),
    "judge": (),
    "generator": ("PLUGINEVAL_LLM_API_KEY",),
    "evaluator": ("PLUGINEVAL_LLM_API_KEY",),
    "synthesizer": ("PLUGINEVAL_LLM_API_KEY",),
    "router": ("PLUGINEVAL_LLM_API_KEY",),
}
BASE_URL_ALIASES: dict[str, tuple[str, ...]] = {"model": ("OPENAI_BASE_URL",)}


def env_prefix(role: str) -> str:
    if role not in ROLES:
        raise ValueError(f"unknown model role {role!r}; roles are {', '.join(ROLES)}")
    return f"PLUGINEVAL_{role.upper()}_"


class ModelConfig(BaseModel):
    """One role's endpoint, request settings, retries, limits and cache. Unknown keys are errors."""

    model_config = ConfigDict(extra="forbid")

    model: str = Field(min_length=1, description="the model name sent to the endpoint")
    base_url: str | None = Field(
        default=None, description="an OpenAI-compatible endpoint; mock://<name> selects the mock provider"
    )
    provider: Provider | None = Field(default=None, description="None: mock for mock://, else openai")
    api_key_env: str | None = Field(default=None, description="the variable holding the key")
    concurrency: int = Field(default=8, ge=1, description="requests in flight")
    rate_limit: float | None = Field(default=None, gt=0, description="requests per second (token bucket)")
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0, description="the client's own retries per round")
    retry_rounds: int = Field(default=0, ge=0, description="more rounds after the client gives up")
    retry_backoff_s: float = Field(default=10.0, ge=0, description="round k waits backoff * 2**k, jittered")
    retry_after_cap_s: float = Field(default=600.0, ge=0, description="the longest Retry-After honoured")
    temperature: float | None = Field(
        default=0.0, description="None: not sent (the endpoint checks the range)"
    )
    max_tokens: int | None = Field(default=None, ge=1)
    seed: int | None = None
    cache_path: str | None = Field(default=None, description="a SQLite file of completions; None: no cache")

    def resolved_provider(self) -> Provider:
        if self.provider is not None:
            return self.provider
        return "mock" if (self.base_url or "").startswith(MOCK_SCHEME) else "openai"

    def api_key(self, role: str = "model") -> str:
        """The key: ``api_key_env``, then ``PLUGINEVAL_<ROLE>_API_KEY``, the role's aliases and
        ``OPENAI_API_KEY``; ``"unused"`` when none is set (the openai client insists on a key, a local
        endpoint needs none). Never part of the cache key."""
        names = [self.api_key_env] if self.api_key_env else []
        names += [env_prefix(role) + "API_KEY", *KEY_ALIASES.get(role, ()), "OPENAI_API_KEY"]
        for n in names:
            v = os.environ.get(n)
            if v:
                return v
        return "unused"

    def describe(self) -> str:
        return f"llm: {self.model} at {self.base_url}"


C = TypeVar("C", bound=ModelConfig)


def role_config(role: str, cls: type[C] = ModelConfig, **overrides: object) -> C | None:  # type: ignore[assignment]
    """The role's config (``cls``, a ``ModelConfig``) from ``PLUGINEVAL_<ROLE>_*`` (and its aliases),
    or None without an endpoint and a model. ``overrides`` are further fields (``cache_path=…``)."""
    prefix = env_prefix(role)
    base = os.environ.get(prefix + "BASE_URL")
    for alias in BASE_URL_ALIASES.get(role, ()):
        base = base or os.environ.get(alias)
    model = os.environ.get(prefix + "MODEL")
    if not base or not model:
        return None
    fields: dict[str, object] = {"base_url": base, "model": model}
    if os.environ.get(prefix + "CONCURRENCY"):
        fields["concurrency"] = int(os.environ[prefix + "CONCURRENCY"])
    return cls.model_validate({**fields, **overrides})
