"""The ``openai`` provider: one ``AsyncOpenAI`` client per role, imported when the first request goes.

Requests go through the client's documented raw-request path (``client.post``): the same retries
(``max_retries``: 408 / 409 / 429 / 5xx, connection errors and time-outs, exponential back-off,
``Retry-After`` honoured), authentication and error types as ``chat.completions.create``, without its
per-call re-typing of the (large) tool schemas, which costs milliseconds of CPU per request. With
``aiohttp`` installed the client's aiohttp transport is used (several times less CPU per request than
the httpx pool at high concurrency; ``PLUGINEVAL_PREDICT_HTTPX=1`` forces httpx). The provider's
exceptions become the seam's (``errors``).
"""

from __future__ import annotations

import os
from typing import Any

from .errors import FatalError, ModelError, RequestRefused, TransientError, UnusableResponse


def http_response() -> Any:
    try:
        import httpx2

        return httpx2.Response
    except ImportError:  # an openai release on plain httpx
        import httpx

        return httpx.Response


def transport(timeout_s: float) -> Any:
    """openai's aiohttp transport when aiohttp is installed, else None: the client's default."""
    if os.environ.get("PLUGINEVAL_PREDICT_HTTPX"):
        return None
    try:
        import aiohttp  # noqa: F401
        from openai import DefaultAioHttpClient
    except ImportError:
        return None
    return DefaultAioHttpClient(timeout=timeout_s)


def retry_after(e: BaseException) -> float | None:
    resp = getattr(e, "response", None)
    if resp is None:
        return None
    v = resp.headers.get("retry-after")
    try:
        return float(v) if v is not None else None
    except ValueError:
        return None


def map_error(e: BaseException) -> ModelError | None:
    """The seam's error for an exception of the ``openai`` client (None: not the client's)."""
    import openai

    if isinstance(e, openai.AuthenticationError | openai.PermissionDeniedError | openai.NotFoundError):
        return FatalError.wrap(e)
    if isinstance(e, openai.RateLimitError | openai.InternalServerError | openai.APIConnectionError):
        return TransientError.wrap(e, retry_after(e))
    if isinstance(e, openai.APIStatusError):
        if e.status_code in (408, 409):
            return TransientError.wrap(e, retry_after(e))
        return RequestRefused.wrap(e)  # 400, 413, 422…: this request is refused
    if isinstance(e, openai.APIResponseValidationError):
        return UnusableResponse.wrap(e)
    return None


class OpenAIProvider:
    name = "openai"

    def __init__(self, base_url: str | None, api_key: str, timeout_s: float, max_retries: int) -> None:
        self.base_url = base_url
        self.api_key = api_key
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self._client: Any = None

    def _get(self) -> Any:
        if self._client is None:
            from openai import AsyncOpenAI

            self._client = AsyncOpenAI(
                base_url=self.base_url,
                api_key=self.api_key,  # required even with a base_url
                max_retries=self.max_retries,
                timeout=self.timeout_s,
                http_client=transport(self.timeout_s),
            )
        return self._client

    async def send(self, body: dict[str, Any]) -> tuple[bytes, float]:
        """The response body and the latency of the final HTTP attempt (ms)."""
        client = self._get()
        try:
            resp = await client.post("/chat/completions", cast_to=http_response(), body=body)
        except Exception as e:
            err = map_error(e)
            if err is None:
                raise
            raise err from None
        return bytes(resp.content), resp.elapsed.total_seconds() * 1000

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None
