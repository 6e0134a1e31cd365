"""PCCF roles served by an LLM through the model seam (``plugineval.models``; any OpenAI-compatible
endpoint, or the mock provider with ``base_url = "mock://…"``).

Each role has a versioned prompt file (``prompts/<role>_v<N>.txt``, ``PROMPT_VERSIONS``) and a typed structured output. The
seam gives every role bounded concurrency, retries with back-off (429 / 5xx / time-outs), a rate limit
and the disk cache, keyed by the request as sent (the prompt's text, model, temperature, seed,
response format, messages). The builder's roles run as the seam's roles: ``generator``;
``argument_evaluator`` and ``result_evaluator`` as ``evaluator``; ``synthesizer`` and
``strengthener`` as ``synthesizer``; ``router``. A role that still fails raises ``RoleError``; the
caller records it in the trace.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from plugineval.models.cache import DiskCache
from plugineval.models.config import ModelConfig
from plugineval.schema import Call

from .generators import Proposal, Task

PROMPTS = Path(__file__).parent / "prompts"
#: the prompt version of each role (``prompts/<role>_v<N>.txt``); a role not listed uses v1. The
#: synthesizer's v2 writes requests as people make them (docs/authoring.md).
PROMPT_VERSIONS = {"synthesizer": 2}
Role = Literal["synthesizer", "generator", "argument_evaluator", "result_evaluator", "router", "strengthener"]
ROLES: tuple[str, ...] = (
    "synthesizer",
    "generator",
    "argument_evaluator",
    "result_evaluator",
    "router",
    "strengthener",
)
# the seam's role each builder role runs as (its PLUGINEVAL_<ROLE>_API_KEY, its usage)
SEAM_ROLES = {
    "synthesizer": "synthesizer",
    "generator": "generator",
    "argument_evaluator": "evaluator",
    "result_evaluator": "evaluator",
    "router": "router",
    "strengthener": "synthesizer",
}
M = TypeVar("M", bound=BaseModel)


class RoleConfig(ModelConfig):
    """A ``[roles.<role>]`` table: the seam's ``ModelConfig`` with the builder's defaults (the key in
    ``PLUGINEVAL_LLM_API_KEY``, 8 requests in flight, 3 client retries, temperature 0 always sent)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str
    api_key_env: str | None = "PLUGINEVAL_LLM_API_KEY"
    concurrency: int = Field(default=8, ge=1, le=256)
    max_retries: int = Field(default=3, ge=0, le=10)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)


class RoleError(Exception):
    pass


# --- structured outputs --------------------------------------------------------------------
class _Out(BaseModel):
    model_config = ConfigDict(extra="ignore")


class GeneratedCall(_Out):
    name: str
    arguments_json: str = "{}"


class GeneratorOut(_Out):
    abstain: bool = False
    reason: str | None = None
    missing: list[str] = Field(default_factory=list)
    calls: list[GeneratedCall] = Field(default_factory=list)


class ArgOut(_Out):
    score: float = Field(ge=0.0, le=1.0)
    justified: bool | None = None
    ungrounded: list[str] = Field(default_factory=list)
    justification: str = ""


class ResultOut(_Out):
    score: float = Field(ge=0.0, le=1.0)
    justification: str = ""


class QueryOut(_Out):
    query: str = Field(min_length=1)


class RouteOut(_Out):
    tool: str | None = None


class RoleClient:
    """One seam client per role, one shared cache file; created inside the build's event loop."""

    def __init__(self, roles: Mapping[str, RoleConfig], cache_path: Path) -> None:
        self.roles = dict(roles)
        self.cache = DiskCache(cache_path)
        self._clients: dict[str, Any] = {}

    def has(self, role: str) -> bool:
        return role in self.roles

    @property
    def calls(self) -> dict[str, int]:
        """Requests sent per role (cache hits not counted)."""
        return {r: (self._clients[r].usage.requests if r in self._clients else 0) for r in self.roles}

    def usage(self) -> dict[str, dict[str, Any]]:
        """The seam's accounting per role that ran (requests, cache hits, retries, tokens, latency)."""
        return {r: c.usage.to_dict() for r, c in self._clients.items()}

    def _client(self, role: str) -> Any:
        if role not in self._clients:
            from plugineval.models import ModelClient

            self._clients[role] = ModelClient(self.roles[role], role=SEAM_ROLES[role], cache=self.cache)
        return self._clients[role]

    async def aclose(self) -> None:
        try:
            for c in self._clients.values():
                await c.aclose()
        finally:
            self.cache.close()

    async def ask(
        self,
        role: str,
        data: dict[str, Any],
        out: type[M],
        seed: int | None = None,
        temperature: float | None = None,
    ) -> M:
        from plugineval.models import ModelError
        from plugineval.models.structured import parse, response_format

        cfg = self.roles[role]
        prompt = (PROMPTS / f"{role}_v{PROMPT_VERSIONS.get(role, 1)}.txt").read_text(encoding="utf-8")
        messages = [
            {"role": "system", "content": prompt},
            {"role": "user", "content": "DATA:\n" + json.dumps(data, ensure_ascii=False, sort_keys=True)},
        ]
        body: dict[str, Any] = {
            "messages": messages,
            "response_format": response_format(out),
            "temperature": cfg.temperature if temperature is None else temperature,
        }
        if seed is not None:
            body["seed"] = seed
        try:  # the seam answers from the cache, or asks (and caches only an answer that parses)
            comp = await self._client(role).complete(body, check=lambda c: parse(c, out))
            return parse(comp, out)
        except ModelError as e:  # the client already retried 429 / 5xx / time-outs
            raise RoleError(f"{role}: {e.type_name}: {e.text}"[:300]) from None
        except Exception as e:  # no parsable answer (cut, refused, not the schema), or a client failure
            raise RoleError(f"{role}: {type(e).__name__}: {e}"[:300]) from None


class LLMGenerator:
    """A generator that reads only the query (and the refinement history)."""

    name = "llm"

    def __init__(self, client: RoleClient) -> None:
        self.client = client

    async def propose(self, task: Task, round_: int) -> Proposal:
        data = {
            "query": task.query,
            "reference_time": task.reference_time,
            "tools": [t.openai_function() for t in task.plugin.tools],
            "history": task.history[-2:],
            "round": round_ + 1,
        }
        try:
            out = await self.client.ask("generator", data, GeneratorOut)
        except RoleError as e:
            return Proposal(self.name, None, [], f"error: {e}")
        if out.abstain:
            reason = (
                out.reason
                if out.reason in ("missing_information", "unsupported", "no_request")
                else "missing_information"
            )
            return Proposal(self.name, None, list(out.missing), reason)
        calls = []
        for c in out.calls:
            try:
                args = json.loads(c.arguments_json or "{}")
            except json.JSONDecodeError:
                args = {"__unparsable_arguments__": c.arguments_json}
            calls.append(
                Call(name=c.name, arguments=args if isinstance(args, dict) else {"__not_an_object__": args})
            )
        return Proposal(self.name, calls)


def describe_roles(roles: Mapping[str, RoleConfig], offline: dict[str, str]) -> dict[str, str]:
    """Which implementation served each role (for the build report)."""
    names = {
        "synthesizer": "synthesizer",
        "generator": "generators",
        "argument_evaluator": "argument_evaluator",
        "result_evaluator": "result_evaluator",
        "router": "reference_router",
        "strengthener": "negative_strengthener",
    }
    out = dict(offline)
    for role, key in names.items():
        if role in roles:
            out[key] = roles[role].describe() + (f"; plus {offline[key]}" if role == "generator" else "")
    return out
