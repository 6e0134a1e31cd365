"""The reply forms of open models served by vLLM or sglang (docs/predict.md, "Serving open models").

- Reasoning: a ``reasoning_content`` / ``reasoning`` field of the message (a server with a reasoning
  parser) stays in ``raw`` and is never read; ``<think>…</think>`` in the content (a server without
  one) is cut off the answer, kept in ``raw``, and never parsed as calls. A reply that ends inside
  an unclosed ``<think>`` has no answer: it is unparsable, never a free abstention.
- Hermes / Qwen tool calls: ``<tool_call>{"name", "arguments"}</tool_call>`` in the content of a native
  reply without ``tool_calls`` (a server without the right ``--tool-call-parser``) are read as the
  calls; a last tag cut short (no ``</tool_call>``) is read too, as vLLM's hermes parser does.

Every JSON text goes through the predictions reader's bounded loader: a hostile reply cannot raise a
RecursionError or a huge-integer ValueError here.
"""

from __future__ import annotations

import json
import operator
import re
from itertools import accumulate
from typing import Any

from ..predictions import MAX_DEPTH, BoundError, loads_bounded

THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
_TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>|<tool_call>(.*)\Z", re.S)
CALLS_FROM_CONTENT = "content"
"""``raw["calls_from"]`` of a native line whose calls were read from ``<tool_call>`` tags in the content."""


class Unparsable(ValueError):
    pass


def split_reasoning(text: str) -> tuple[str, str | None, bool]:
    """(the answer, the reasoning or None, whether the reply ended inside an unclosed ``<think>``).

    The answer is what follows the last ``</think>`` (templates that open the block in the prompt,
    as Qwen3 and DeepSeek-R1 do, leave only the closing tag in the reply)."""
    if THINK_CLOSE in text:
        head, _, tail = text.rpartition(THINK_CLOSE)
        return tail.strip(), head, False
    if THINK_OPEN in text:
        i = text.index(THINK_OPEN)
        return text[:i].strip(), text[i:], True
    return text, None, False


def load(text: str, where: str) -> Any:
    try:
        return loads_bounded(text)
    except json.JSONDecodeError as e:
        raise Unparsable(f"{where} is not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except BoundError as e:
        raise Unparsable(f"{where} breaks a bound of the predictions reader: {e}") from None


def as_calls(value: Any) -> list[dict[str, Any]]:
    """``{"name", "arguments"}`` calls from a decoded JSON value: a list of calls, one call, an
    OpenAI-shaped call, or an object holding ``calls`` / ``tool_calls``; raises Unparsable."""
    if isinstance(value, dict) and ("calls" in value or "tool_calls" in value) and "name" not in value:
        value = value.get("calls", value.get("tool_calls"))
    items = value if isinstance(value, list) else [value]
    calls = []
    for i, item in enumerate(items):
        if isinstance(item, dict) and isinstance(item.get("function"), dict):
            item = item["function"]  # an OpenAI-shaped call
        if not isinstance(item, dict):
            raise Unparsable(f"call {i} is a {type(item).__name__}, not an object with name and arguments")
        name = item.get("name")
        if not isinstance(name, str) or not name.strip():
            raise Unparsable(f"call {i} has no tool name")
        args = item.get("arguments", item.get("parameters", {}))
        if isinstance(args, str):
            args = load(args, f"call {i} ({name}): the arguments string") if args.strip() else {}
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise Unparsable(f"call {i} ({name}): arguments is a {type(args).__name__}, not an object")
        calls.append({"name": name.strip(), "arguments": args})
    return calls


def tagged_calls(text: str) -> tuple[list[dict[str, Any]], str] | None:
    """The calls in Hermes / Qwen ``<tool_call>`` tags and the text outside them; None without a tag.
    Raises Unparsable when a tag holds no readable call (e.g. Qwen3-Coder's XML form)."""
    if "<tool_call>" not in text:
        return None
    calls: list[dict[str, Any]] = []
    for k, m in enumerate(_TOOL_CALL.finditer(text)):
        body = (m.group(1) if m.group(1) is not None else m.group(2)).strip()
        if not body:
            raise Unparsable(f"<tool_call> tag {k + 1} is empty")
        calls += as_calls(load(body, f"<tool_call> tag {k + 1}"))
    rest = _TOOL_CALL.sub("", text).strip()
    return calls, rest


_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def too_deep(text: str) -> bool:
    """Whether a decode starting anywhere in ``text`` could nest deeper than the reader allows: the
    largest rise of the bracket count over any stretch, brackets in strings counted too (prose has
    no reliable string boundaries; over-counting only refuses, never recurses)."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return False
    level = list(accumulate(map(_STEP.__getitem__, _NOT_BRACKET.sub("", text)), initial=0))
    lowest = accumulate(level, min)
    rise: int = max(map(operator.sub, level, lowest))
    return rise > MAX_DEPTH
