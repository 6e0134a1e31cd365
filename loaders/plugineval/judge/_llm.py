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
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ._types import Reason

PROMPT_FILE = Path(__file__).parent / "prompts" / "equivalence_v1.txt"
PROMPT_VERSION = "equivalence_v1"
DECOYS = ("长颈鹿", "量子力学", "手风琴", "海王星", "orchid", "saxophone", "冰川", "甲骨文")


class LLMConfig(BaseModel):
    """Where the judge model lives. Read from PLUGINEVAL_JUDGE_* variables by ``from_env``."""

    model_config = ConfigDict(extra="forbid")

    base_url: str
    model: str
    api_key_env: str = "PLUGINEVAL_JUDGE_API_KEY"
    concurrency: int = Field(default=16, ge=1, le=512)
    timeout_s: float = Field(default=60.0, gt=0)
    max_retries: int = Field(default=4, ge=0, le=20)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    cache_path: str | None = None

    @classmethod
    def from_env(cls) -> LLMConfig | None:
        base, model = os.environ.get("PLUGINEVAL_JUDGE_BASE_URL"), os.environ.get("PLUGINEVAL_JUDGE_MODEL")
        if not base or not model:
            return None
        return cls(
            base_url=base, model=model, concurrency=int(os.environ.get("PLUGINEVAL_JUDGE_CONCURRENCY", "16"))
        )

    def api_key(self) -> str:
        # openai requires a key even for local endpoints; an unset variable means "none needed".
        return os.environ.get(self.api_key_env) or os.environ.get("OPENAI_API_KEY") or "unused"


class Equivalence(BaseModel):
    model_config = ConfigDict(extra="ignore")

    equivalent: bool
    matched_value: Any = None
    justification: str = ""


RESPONSE_FORMAT = {
    "type": "json_schema",
    "json_schema": {"name": "equivalence", "schema": Equivalence.model_json_schema(), "strict": False},
}


def http_response() -> Any:
    from ..predict._support import http_response as raw

    return raw()


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
    base = os.environ.get("PLUGINEVAL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "plugineval")
    return Path(base) / "judge-cache.sqlite"


class _DiskCache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # no fsync per answer on the event loop
        self._pending = 0
        self._db.execute("CREATE TABLE IF NOT EXISTS verdicts (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self._db.commit()

    def get(self, key: str) -> str | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM verdicts WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def put(self, key: str, value: str) -> None:
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO verdicts VALUES (?, ?)", (key, value))
            self._pending += 1
            if self._pending >= 64:  # a crash loses at most the last answers, which are asked again
                self._db.commit()
                self._pending = 0

    def close(self) -> None:
        with self._lock:
            self._db.commit()
            self._db.close()


def plausible(pred: Any, accepted: list[Any]) -> bool:
    """Free text the LLM may be asked about: short, one clause, like a value and not a message."""
    if not isinstance(pred, str):
        return True
    longest = max((len(str(a)) for a in accepted), default=0)
    if "\n" in pred or len(pred) > 3 * longest + 10:
        return False
    return not any(mark in pred for mark in ("。", "！", "？", "!", "?", "：", ": ", "；"))


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

    def _key(self, messages: list[dict[str, str]]) -> str:
        c = self.config
        blob = json.dumps(
            [PROMPT_VERSION, c.model, c.temperature, messages], ensure_ascii=False, sort_keys=True
        )
        return hashlib.sha256(blob.encode()).hexdigest()

    async def _ask(
        self, client: Any, sem: asyncio.Semaphore, cache: _DiskCache, messages: list[dict[str, str]]
    ) -> Equivalence:
        key = self._key(messages)
        hit = cache.get(key)
        if hit is not None:
            self.cache_hits += 1
            return Equivalence.model_validate_json(hit)
        async with sem:
            self.calls += 1
            # the client's documented raw-request path: the same retries, auth and errors as
            # chat.completions.parse, without its per-call re-typing of the request (most of its CPU)
            resp = await client.post(
                "/chat/completions",
                cast_to=http_response(),
                body={
                    "model": self.config.model,
                    "messages": messages,
                    "temperature": self.config.temperature,
                    "response_format": RESPONSE_FORMAT,
                },
            )
        try:
            content = resp.json()["choices"][0]["message"]["content"]
            answer = Equivalence.model_validate_json(content or "")
        except (ValueError, KeyError, IndexError, TypeError) as e:
            raise ValueError(f"the judge model returned no parsable answer ({type(e).__name__})") from None
        cache.put(key, answer.model_dump_json())
        return answer

    async def _one(self, client: Any, sem: asyncio.Semaphore, cache: _DiskCache, q: Question) -> Answer:
        if not plausible(q.predicted, q.accepted):
            return Answer(
                Reason.IMPLAUSIBLE, "free text that reads as a message, not a value: not sent to the judge"
            )
        decoy = DECOYS[int(hashlib.sha256(repr(q.accepted).encode()).hexdigest(), 16) % len(DECOYS)]
        try:
            real, fake = await asyncio.gather(
                self._ask(client, sem, cache, self._messages(q, q.accepted)),
                self._ask(client, sem, cache, self._messages(q, [decoy])),
            )
        except Exception as e:  # the client already retried 429 / 5xx / time-outs with back-off
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
        from openai import AsyncOpenAI

        c = self.config
        cache = _DiskCache(Path(c.cache_path) if c.cache_path else default_cache_path())
        sem = asyncio.Semaphore(c.concurrency)
        try:
            from ..predict._support import transport

            async with AsyncOpenAI(
                base_url=c.base_url,
                api_key=c.api_key(),
                timeout=c.timeout_s,
                max_retries=c.max_retries,
                http_client=transport(c.timeout_s),  # aiohttp when installed: less CPU per request
            ) as client:

                async def run(q: Question) -> Answer:
                    a = await self._one(client, sem, cache, q)
                    if progress is not None:
                        progress(1)
                    return a

                return list(await asyncio.gather(*(run(q) for q in questions)))
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
