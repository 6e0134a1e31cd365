"""The seam's errors: every provider (the ``openai`` client, the mock) fails with one of these, so a
role decides what to do by the kind of failure, never by a provider's exception types.

- ``FatalError`` — authentication, permission, not found (401 / 403 / 404): nothing will work, stop.
- ``RequestRefused`` — this request is refused (400 / 413 / 422, …): the next one may pass.
- ``TransientError`` — 408 / 409 / 429 / 5xx, connection errors and time-outs: retried with back-off
  (``retry_after`` is the server's ``Retry-After`` in seconds, when it sent one).
- ``UnusableResponse`` — a 200 whose body is not a chat completion: retried like a transient error.

``str(error)`` is ``"<status> <TypeName>: <message>"`` (``describe``), ``type_name`` / ``text`` the
provider's own exception name and message (the mock names its errors as the ``openai`` client does).
"""

from __future__ import annotations

# the openai client's exception name per HTTP status (the mock names its errors the same way)
STATUS_NAMES = {
    400: "BadRequestError",
    401: "AuthenticationError",
    403: "PermissionDeniedError",
    404: "NotFoundError",
    409: "ConflictError",
    422: "UnprocessableEntityError",
    429: "RateLimitError",
}
FATAL_STATUSES = frozenset({401, 403, 404})
TRANSIENT_STATUSES = frozenset({408, 409, 429})


def status_name(status: int) -> str:
    if status >= 500:
        return "InternalServerError"
    return STATUS_NAMES.get(status, "APIStatusError")


def describe(e: BaseException) -> str:
    """One line for logs and prediction lines: ``"429 RateLimitError: …"`` (at most 400 characters)."""
    status = getattr(e, "status_code", None)
    msg = str(getattr(e, "message", None) or e).replace("\n", " ")
    return f"{status} {type(e).__name__}: {msg}"[:400] if status else f"{type(e).__name__}: {msg}"[:400]


class ModelError(Exception):
    """A failed request. ``original`` is the provider's exception (None for the mock)."""

    def __init__(
        self,
        summary: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        type_name: str | None = None,
        text: str | None = None,
        original: BaseException | None = None,
    ) -> None:
        super().__init__(summary)
        self.status = status
        self.retry_after = retry_after
        self.type_name = type_name or type(self).__name__
        self.text = summary if text is None else text
        self.original = original

    @classmethod
    def wrap(cls, e: BaseException, retry_after: float | None = None) -> ModelError:
        return cls(
            describe(e),
            status=getattr(e, "status_code", None),
            retry_after=retry_after,
            type_name=type(e).__name__,
            text=str(e),
            original=e,
        )

    @classmethod
    def http(cls, status: int, message: str, retry_after: float | None = None) -> ModelError:
        """The error of an HTTP ``status`` whose body's error message is ``message``, named and worded
        as the openai client raises it (for the mock)."""
        text = f"Error code: {status} - {message}"
        name = status_name(status)
        kind: type[ModelError]
        if status in FATAL_STATUSES:
            kind = FatalError
        elif status in TRANSIENT_STATUSES or status >= 500:
            kind = TransientError
        else:
            kind = RequestRefused
        return kind(
            f"{status} {name}: {text}"[:400],
            status=status,
            retry_after=retry_after,
            type_name=name,
            text=text,
        )


class FatalError(ModelError):
    pass


class RequestRefused(ModelError):
    pass


class TransientError(ModelError):
    pass


class UnusableResponse(ModelError, ValueError):
    pass
