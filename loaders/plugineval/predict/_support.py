"""Plumbing of the runner: the rate limit, the HTTP transport, reading a completion, errors, progress."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit


class TokenBucket:
    """At most ``rate`` requests per second on average, bursts up to ``max(1, rate)``."""

    def __init__(self, rate: float) -> None:
        if rate <= 0:
            raise ValueError("--rate-limit must be > 0 requests per second")
        self.rate = rate
        self.capacity = max(1.0, rate)
        self.tokens = self.capacity
        self.stamp = time.monotonic()
        self._lock = asyncio.Lock()

    async def acquire(self) -> None:
        async with self._lock:
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens < 1:
                await asyncio.sleep((1 - self.tokens) / self.rate)
                now = time.monotonic()
                self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
                self.stamp = now
            self.tokens -= 1


def http_response() -> Any:
    try:
        import httpx2

        return httpx2.Response
    except ImportError:  # an openai release on plain httpx
        import httpx

        return httpx.Response


def transport(timeout_s: float) -> Any:
    """openai's aiohttp transport when aiohttp is installed (several times less CPU per request than
    the default httpx pool at high concurrency), else None: the client's default."""
    if os.environ.get("PLUGINEVAL_PREDICT_HTTPX"):
        return None
    try:
        import aiohttp  # noqa: F401
        from openai import DefaultAioHttpClient
    except ImportError:
        return None
    return DefaultAioHttpClient(timeout=timeout_s)


COMPLETION_MAX_CHARS = 64 * 2**20


def completion_json(resp: Any) -> dict[str, Any]:
    """The JSON body of a chat completion, checked just enough to read it (else ValueError)."""
    from ..predictions import loads_bounded

    # nesting and numbers bounded like a predictions line (a hostile server cannot raise
    # RecursionError here; BoundError and JSONDecodeError are ValueErrors: retried); a long string
    # is the model's reply, not the server's fault: the line it makes is fitted to the reader later
    text = resp.content.decode("utf-8")
    data = loads_bounded(text, max_chars=COMPLETION_MAX_CHARS, max_string=COMPLETION_MAX_CHARS)
    choices = data.get("choices") if isinstance(data, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise ValueError("the response holds no choices")
    if not isinstance(choices[0].get("message"), dict):
        raise ValueError("the response's first choice holds no message")
    return dict(data)


def public_url(url: str | None) -> str | None:
    """The endpoint without credentials or query string (it goes into the meta)."""
    if not url:
        return url
    p = urlsplit(url)
    host = p.hostname or ""
    if p.port:
        host += f":{p.port}"
    return urlunsplit((p.scheme, host, p.path, "", ""))


def describe(e: BaseException) -> str:
    status = getattr(e, "status_code", None)
    msg = str(getattr(e, "message", None) or e).replace("\n", " ")
    return f"{status} {type(e).__name__}: {msg}"[:400] if status else f"{type(e).__name__}: {msg}"[:400]


def retry_after(e: BaseException) -> float | None:
    resp = getattr(e, "response", None)
    if resp is None:
        return None
    v = resp.headers.get("retry-after")
    try:
        return float(v) if v is not None else None
    except ValueError:
        return None


def progress_bar(
    show: bool, label: str, total: int
) -> tuple[Callable[[dict[str, Any]], None], Callable[[], None]]:
    state = {"cost": 0.0, "unpriced": 0, "errors": 0}
    bar: Any = None
    if show and total:
        try:
            from tqdm import tqdm

            bar = tqdm(total=total, desc=label, unit="pred", dynamic_ncols=True, file=sys.stderr)
        except ImportError:
            bar = None

    def tick(line: dict[str, Any]) -> None:
        if line.get("cost_usd") is None:
            state["unpriced"] += 1
        else:
            state["cost"] += float(line["cost_usd"])
        state["errors"] += 1 if line.get("error") else 0
        if bar is not None:
            cost = f"${state['cost']:.4f}" + ("+?" if state["unpriced"] else "") if state["cost"] else "n/a"
            bar.set_postfix_str(f"cost {cost} errors {int(state['errors'])}", refresh=False)
            bar.update(1)

    def close() -> None:
        if bar is not None:
            bar.close()

    return tick, close
