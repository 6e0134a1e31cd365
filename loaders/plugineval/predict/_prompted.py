"""Prompt-based tool calling, for models without native tool calling.

The tools are described in the system message (``prompts/prompted_v1.txt``); the model answers in
text, and calls are read from the reply:

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

from ..schema import Record
from ._native import render
from ._output import UNPARSABLE

PROMPTED_PROMPT = "prompted_v1"
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n(.*?)```", re.S)


class Unparsable(ValueError):
    pass


def prompted_request(record: Record) -> dict[str, Any]:
    tools = json.dumps(record.tools, ensure_ascii=False, indent=1)
    return {
        "messages": [
            {"role": "system", "content": render(PROMPTED_PROMPT, record, tools=tools)},
            {"role": "user", "content": record.query},
        ]
    }


def _as_calls(value: Any) -> list[dict[str, Any]]:
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
            try:
                args = json.loads(args) if args.strip() else {}
            except json.JSONDecodeError as e:
                raise Unparsable(f"call {i} ({name}): arguments string is not JSON ({e.msg})") from None
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise Unparsable(f"call {i} ({name}): arguments is a {type(args).__name__}, not an object")
        calls.append({"name": name.strip(), "arguments": args})
    return calls


def _load(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise Unparsable(f"{where} is not valid JSON ({e.msg} at line {e.lineno} column {e.colno})") from None


def _embedded(text: str) -> list[dict[str, Any]] | None:
    """The first JSON value in prose that reads as calls, or None."""
    dec = json.JSONDecoder()
    for m in re.finditer(r"[\[{]", text):
        try:
            value, _ = dec.raw_decode(text, m.start())
        except json.JSONDecodeError:
            continue
        try:
            return _as_calls(value)
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
            calls += _as_calls(_load(body, f"fenced block {k + 1}"))
        return calls
    s = text.strip()
    if s[:1] in ("[", "{"):
        return _as_calls(_load(s, "the reply"))
    if re.search(r"[\"']arguments[\"']\s*:", text):
        found = _embedded(text)
        if found is None:
            raise Unparsable("the reply mentions call arguments but holds no parsable call")
        return found
    if "```" in text and re.search(r"```[ \t]*json", text, re.I):
        raise Unparsable("an unterminated ```json block")
    return []


def prompted_line(message: dict[str, Any]) -> dict[str, Any]:
    content = message.get("content")
    text = content if isinstance(content, str) else ""
    line: dict[str, Any] = {"content": text, "raw": text}
    try:
        line["calls"] = parse_reply(text)
    except Unparsable as e:
        line["calls"] = []
        line["error"] = f"{UNPARSABLE}: {e}"
    return line
