"""Structured output through the seam: the ``response_format`` of a pydantic model, and its reading.

``response_format(Model)`` is what ``chat.completions.parse`` sends (openai's strict JSON schema,
named after the model), built once per model; ``parse(completion, Model)`` reads the answer the way
``parse`` does: a reply cut by ``max_tokens`` or refused has no answer (``NoAnswer``), otherwise the
content must validate as the model (pydantic's ``ValidationError`` when not).
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


class NoAnswer(ValueError):
    pass


@functools.lru_cache(maxsize=64)
def response_format(model: type[BaseModel]) -> dict[str, Any]:
    try:
        from openai.lib._pydantic import to_strict_json_schema
    except ImportError:  # without openai (the mock provider alone): the plain schema, not strict
        return {
            "type": "json_schema",
            "json_schema": {"schema": model.model_json_schema(), "name": model.__name__, "strict": False},
        }
    return {
        "type": "json_schema",
        "json_schema": {"schema": to_strict_json_schema(model), "name": model.__name__, "strict": True},
    }


def parse(completion: Any, model: type[M]) -> M:
    """The answer of a ``Completion`` as ``model``."""
    if completion.finish_reason == "length":
        raise NoAnswer("the reply was cut by the token limit (finish_reason length)")
    if completion.finish_reason == "content_filter":
        raise NoAnswer("the reply was filtered (finish_reason content_filter)")
    content = completion.content
    if content is None or completion.message.get("refusal"):
        raise NoAnswer("the model returned no parsable answer")
    return model.model_validate_json(content)
