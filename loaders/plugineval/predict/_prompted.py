"""Prompt-based tool calling, for models without native tool calling.

The tools are described in the system message (``prompts/prompted_v1.txt``); the model answers in
text, and calls are read from the answer — the reply without its ``<think>`` block (``_replies``):

- a fenced block (```json, or ``` holding a JSON value) → the calls: a list of
  ``{"name", "arguments"}`` objects, or one such object; ``[]`` is an explicit "no call";
- else a reply that is itself JSON (starts with ``[`` or ``{``) → the calls, read the same way;
- else a reply that carries an ``"arguments"`` key inside a JSON value embedded in prose → that value;
- else plain text → no call (the text is the answer).

A reply that tries to call and cannot be read (a fenced block or a JSON-looking reply that does not
parse, a call without a name, arguments that are not an object) is *unparsable*: the line keeps the
reply in ``raw`` and ``content`` and carries ``error: "unparsable_output: <why>"``, which the
predictions reader scores as ``invalid_output`` — never as a silent abstention.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..predictions import _DECODER, BoundError
from ..schema import Record
from ._native import render
from ._output import UNPARSABLE
from ._replies import Unparsable, as_calls, load, split_reasoning, too_deep

PROMPTED_PROMPT = "prompted_v1"
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)```", re.S)


def prompted_request(record: Record) -> dict[str, Any]:
    tools = json.dumps(record.tools, ensure_ascii=False, indent=1)
    return {
        "messages": [
            {"role": "system", "content": render(PROMPTED_PROMPT, record, tools=tools)},
            {"role": "user", "content": record.query},
        ]
    }


def _embedded(text: str) -> list[dict[str, Any]] | None:
    """The first JSON value in prose that reads as calls, or None."""
    if too_deep(text):
        raise Unparsable("the reply nests brackets too deep to be read as calls")
    for m in re.finditer(r"[\[{]", text):
        try:
            value, _ = _DECODER.raw_decode(text, m.start())
        except (json.JSONDecodeError, BoundError):
            continue
        try:
            return as_calls(value)
        except Unparsable:
            continue
    return None


def parse_reply(text: str | None) -> list[dict[str, Any]]:
    """The calls in a prompted reply (``[]`` for a plain answer); raises Unparsable."""
    text = text or ""
    blocks = [
        body
        for lang, body in _FENCE.findall(text)
        if lang.lower() == "json" or (not lang and body.strip()[:1] in "[{")
    ]
    blocks = [b for b in blocks if b.strip()]
    if blocks:
        calls: list[dict[str, Any]] = []
        for k, body in enumerate(blocks):
            calls += as_calls(load(body, f"fenced block {k + 1}"))
        return calls
    s = text.strip()
    if s[:1] in ("[", "{"):
        return as_calls(load(s, "the reply"))
    if re.search(r"[\"']arguments[\"']\s*:", text):
        found = _embedded(text)
        if found is None:
            raise Unparsable("the reply mentions call arguments but holds no parsable call")
        return found
    if "```" in text and re.search(r"```[ \t]*json", text, re.I):
        raise Unparsable("an unterminated ```json block")
    return []


def prompted_line(message: dict[str, Any]) -> dict[str, Any]:
    """The prediction keys for one prompted reply: the calls read from the answer (the content without
    its ``<think>`` block); ``raw`` is the message as returned, reasoning included."""
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    answer, _, unclosed = split_reasoning(text)
    line: dict[str, Any] = {"content": answer, "raw": {k: v for k, v in message.items() if v is not None}}
    try:
        if unclosed:
            raise Unparsable("the reply ends inside an unclosed <think> block: no answer after the reasoning")
        line["calls"] = parse_reply(answer)
    except Unparsable as e:
        line["calls"] = []
        line["error"] = f"{UNPARSABLE}: {e}"
    return line
