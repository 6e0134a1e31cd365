"""PCCF roles served by an LLM through the ``openai`` client (any OpenAI-compatible endpoint).

Each role has a versioned prompt file (``prompts/<role>_v1.txt``), a typed structured output, a
disk cache keyed by exactly what changes the answer (role, prompt version, model, temperature,
seed, messages), bounded concurrency, and retries with back-off (the client's, on 429 / 5xx /
time-outs). A role that still fails raises ``RoleError``; the caller records it in the trace.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from plugineval.schema import Call

from .generators import Proposal, Task

PROMPTS = Path(__file__).parent / "prompts"
Role = Literal["synthesizer", "generator", "argument_evaluator", "result_evaluator", "router", "strengthener"]
ROLES: tuple[str, ...] = (
    "synthesizer",
    "generator",
    "argument_evaluator",
    "result_evaluator",
    "router",
    "strengthener",
)
M = TypeVar("M", bound=BaseModel)


class RoleConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str
    model: str
    api_key_env: str = "PLUGINEVAL_LLM_API_KEY"
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=3, ge=0, le=10)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)

    def describe(self) -> str:
        return f"llm: {self.model} at {self.base_url}"


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
    """One endpoint per role; shared cache file; created inside the build's event loop."""

    def __init__(self, roles: Mapping[str, RoleConfig], cache_path: Path) -> None:
        self.roles = dict(roles)
        cache_path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(cache_path))
        self._db.execute("CREATE TABLE IF NOT EXISTS answers (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._clients: dict[str, Any] = {}
        self._sems: dict[str, asyncio.Semaphore] = {}
        self.calls: dict[str, int] = dict.fromkeys(roles, 0)

    def has(self, role: str) -> bool:
        return role in self.roles

    def _client(self, role: str) -> Any:
        if role not in self._clients:
            from openai import AsyncOpenAI

            c = self.roles[role]
            key = os.environ.get(c.api_key_env) or os.environ.get("OPENAI_API_KEY") or "unused"
            self._clients[role] = AsyncOpenAI(
                base_url=c.base_url, api_key=key, timeout=c.timeout_s, max_retries=c.max_retries
            )
            self._sems[role] = asyncio.Semaphore(c.concurrency)
        return self._clients[role]

    async def aclose(self) -> None:
        for c in self._clients.values():
            await c.close()
        self._db.close()

    async def ask(
        self,
        role: str,
        data: dict[str, Any],
        out: type[M],
        seed: int | None = None,
        temperature: float | None = None,
    ) -> M:
        cfg = self.roles[role]
        prompt = (PROMPTS / f"{role}_v1.txt").read_text(encoding="utf-8")
        messages = [
            {"role": "system", "content": prompt},
            {"role": "user", "content": "DATA:\n" + json.dumps(data, ensure_ascii=False, sort_keys=True)},
        ]
        temp = cfg.temperature if temperature is None else temperature
        key = hashlib.sha256(
            json.dumps([role, "v1", cfg.model, temp, seed, messages], ensure_ascii=False).encode()
        ).hexdigest()
        row = self._db.execute("SELECT value FROM answers WHERE key=?", (key,)).fetchone()
        if row is not None:
            return out.model_validate_json(row[0])
        client = self._client(role)
        try:
            async with self._sems[role]:
                self.calls[role] += 1
                kwargs: dict[str, Any] = {
                    "model": cfg.model,
                    "messages": messages,
                    "response_format": out,
                    "temperature": temp,
                }
                if seed is not None:
                    kwargs["seed"] = seed
                resp = await client.chat.completions.parse(**kwargs)
        except Exception as e:  # the client already retried 429 / 5xx / time-outs
            raise RoleError(f"{role}: {type(e).__name__}: {e}"[:300]) from None
        parsed = resp.choices[0].message.parsed
        if parsed is None:
            raise RoleError(f"{role}: the model returned no parsable answer")
        value = out.model_validate(parsed.model_dump())
        self._db.execute("INSERT OR REPLACE INTO answers VALUES (?, ?)", (key, value.model_dump_json()))
        self._db.commit()
        return value


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
