"""The LLM judge (model role ``judge``): only for argument pairs the rules cannot decide.

It answers one question — does the predicted value mean one of the accepted gold values — as typed
structured output with a justification. It can never excuse a tool mismatch, a missing argument or a
wrong date: those never reach it. Its "yes" is trusted only when (1) the value passed the plausibility
gate (no long or multi-sentence text), (2) the answer names an accepted value exactly, and (3) the same
question about a decoy gold (an unrelated value) gets "no" — a value that carries instructions makes an
obedient model say "yes" to the decoy too, and is then rejected (reason ``llm_inconsistent``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..models.cache import DiskCache, default_cache_dir
from ..models.config import ModelConfig, role_config
from ._types import Reason

PROMPT_FILE = Path(__file__).parent / "prompts" / "equivalence_v1.txt"
PROMPT_VERSION = "equivalence_v1"
DECOYS = ("长颈鹿", "量子力学", "手风琴", "海王星", "orchid", "saxophone", "冰川", "甲骨文")


class LLMConfig(ModelConfig):
    """The ``judge`` role of the model seam (``plugineval.models``), with the judge's defaults. Read
    from ``PLUGINEVAL_JUDGE_BASE_URL`` / ``_MODEL`` / ``_API_KEY`` / ``_CONCURRENCY`` by ``from_env``.
    ``cache_path`` None: ``$PLUGINEVAL_CACHE/judge-cache.sqlite`` (``~/.cache/plugineval``)."""

    model_config = ConfigDict(extra="forbid")

    base_url: str
    api_key_env: str | None = "PLUGINEVAL_JUDGE_API_KEY"
    concurrency: int = Field(default=16, ge=1, le=512)
    max_retries: int = Field(default=4, ge=0, le=20)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)  # always sent

    @classmethod
    def from_env(cls) -> LLMConfig | None:
        return role_config("judge", cls)

    def api_key(self, role: str = "judge") -> str:
        # openai requires a key even for local endpoints; an unset variable means "none needed".
        return super().api_key(role)


class Equivalence(BaseModel):
    model_config = ConfigDict(extra="ignore")

    equivalent: bool
    matched_value: Any = None
    justification: str = ""


RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {"name": "equivalence", "schema": Equivalence.model_json_schema(), "strict": False},
}


@dataclass(frozen=True)
class Question:
    query: str
    tool: str
    argument: str
    description: str
    predicted: Any
    accepted: list[Any]


@dataclass(frozen=True)
class Answer:
    reason: Reason
    detail: str


def default_cache_path() -> Path:
    return default_cache_dir() / "judge-cache.sqlite"


def plausible(pred: Any, accepted: list[Any]) -> bool:
    """Free text the LLM may be asked about: short, one clause, like a value and not a message."""
    if not isinstance(pred, str):
        return True
    longest = max((len(str(a)) for a in accepted), default=0)
    if "\n" in pred or len(pred) > 3 * longest + 10:
        return False
    return not any(mark in pred for mark in ("。", "！", "？", "!", "?", "：", ": ", "；"))


def _equivalence(comp: Any) -> Equivalence:
    try:
        return Equivalence.model_validate_json(comp.content or "")
    except ValueError as e:
        raise ValueError(f"the judge model returned no parsable answer ({type(e).__name__})") from None


class LLMJudge:
    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self.prompt = PROMPT_FILE.read_text(encoding="utf-8")
        self.calls = 0
        self.cache_hits = 0

    @property
    def name(self) -> str:
        return self.config.model

    def _messages(self, q: Question, accepted: list[Any]) -> list[dict[str, str]]:
        data = {
            "query": q.query,
            "tool": q.tool,
            "argument": q.argument,
            "argument_description": q.description,
            "predicted_value": q.predicted,
            "accepted_values": accepted,
        }
        return [
            {"role": "system", "content": self.prompt},
            {"role": "user", "content": "DATA:\n" + json.dumps(data, ensure_ascii=False, sort_keys=True)},
        ]

    async def _ask(self, client: Any, messages: list[dict[str, str]]) -> Equivalence:
        from ..models import UnusableResponse

        # the seam fills model and temperature, answers from the disk cache (keyed by the request: the
        # prompt's text, the model, the temperature) and caches only answers that parse
        body = {"messages": messages, "response_format": RESPONSE_FORMAT}
        try:
            comp = await client.complete(body, check=_equivalence)
        except UnusableResponse:
            raise ValueError("the judge model returned no parsable answer (not a chat completion)") from None
        return _equivalence(comp)

    async def _one(self, client: Any, q: Question) -> Answer:
        from ..models import ModelError

        if not plausible(q.predicted, q.accepted):
            return Answer(
                Reason.IMPLAUSIBLE, "free text that reads as a message, not a value: not sent to the judge"
            )
        decoy = DECOYS[int(hashlib.sha256(repr(q.accepted).encode()).hexdigest(), 16) % len(DECOYS)]
        try:
            real, fake = await asyncio.gather(
                self._ask(client, self._messages(q, q.accepted)),
                self._ask(client, self._messages(q, [decoy])),
            )
        except ModelError as e:  # the client already retried 429 / 5xx / time-outs with back-off
            return Answer(Reason.JUDGE_FAILURE, f"{e.type_name}: {e.text}"[:300])
        except Exception as e:
            return Answer(Reason.JUDGE_FAILURE, f"{type(e).__name__}: {e}"[:300])
        if not real.equivalent:
            return Answer(Reason.LLM_DIFFERENT, real.justification[:300])
        if not any(
            json.dumps(real.matched_value, ensure_ascii=False) == json.dumps(a, ensure_ascii=False)
            for a in q.accepted
        ):
            return Answer(
                Reason.LLM_DIFFERENT,
                f"the judge matched {real.matched_value!r}, which is not an accepted value",
            )
        if fake.equivalent:
            return Answer(
                Reason.LLM_INCONSISTENT,
                "the judge also accepted an unrelated decoy: its verdict is not trusted",
            )
        return Answer(Reason.LLM_EQUIVALENT, real.justification[:300])

    async def answer_all(
        self, questions: list[Question], progress: Callable[[int], None] | None = None
    ) -> list[Answer]:
        from ..models import ModelClient

        c = self.config
        cache = DiskCache(Path(c.cache_path) if c.cache_path else default_cache_path())
        try:
            async with ModelClient(c, role="judge", cache=cache) as client:

                async def run(q: Question) -> Answer:
                    a = await self._one(client, q)
                    if progress is not None:
                        progress(1)
                    return a

                try:
                    return list(await asyncio.gather(*(run(q) for q in questions)))
                finally:
                    self.calls += client.usage.requests
                    self.cache_hits += client.usage.cache_hits
        finally:
            cache.close()


def run_sync(coro: Any) -> Any:
    """Run a coroutine from sync code, also when the caller already runs an event loop (e.g. a web app)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["v"] = asyncio.run(coro)
        except BaseException as e:
            box["e"] = e

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if "e" in box:
        raise box["e"]
    return box["v"]
