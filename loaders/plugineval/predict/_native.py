"""Native tool calling: the record's tools go in the request's ``tools``; the calls come back as
``tool_calls`` and are written verbatim (arguments as the model's JSON string), so a call whose
arguments are not JSON scores as ``invalid_output`` through the predictions reader (docs/format.md §9).

The reply forms of open models (``_replies``): reasoning (``reasoning_content`` / ``reasoning``, or a
``<think>`` block in the content) stays in ``raw`` and out of ``content``; a reply without
``tool_calls`` whose content holds Hermes / Qwen ``<tool_call>`` tags gets its calls from the tags,
marked ``raw["calls_from"] = "content"`` (and counted in the sidecar).

The system message is a versioned prompt file (``prompts/system_v1.txt``) filled with the record's
reference time, its weekday and its time zone (the UTC offset of ``reference_time``).
"""

from __future__ import annotations

import functools
import hashlib
from datetime import datetime
from pathlib import Path
from string import Template
from typing import Any

from ..schema import Record
from ._output import UNPARSABLE
from ._replies import CALLS_FROM_CONTENT, Unparsable, split_reasoning, tagged_calls

PROMPTS = Path(__file__).parent / "prompts"
NATIVE_PROMPT = "system_v1"
WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


@functools.lru_cache(maxsize=8)
def prompt_text(version: str) -> str:
    path = PROMPTS / f"{version}.txt"
    if not path.exists():
        raise FileNotFoundError(f"prompt {version!r} not found ({path})")
    return path.read_text(encoding="utf-8")


def prompt_sha256(version: str) -> str:
    return hashlib.sha256(prompt_text(version).encode("utf-8")).hexdigest()


def time_context(reference_time: str) -> dict[str, str]:
    """The reference time, its weekday (Chinese) and its zone as ``UTC+08:00``."""
    dt = datetime.fromisoformat(reference_time)
    off = dt.utcoffset()
    if off is None:
        raise ValueError(f"reference_time {reference_time!r} carries no UTC offset")
    minutes = int(off.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    zone = f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    if minutes == 8 * 60:
        zone += "（中国标准时间）"
    return {"reference_time": reference_time, "weekday": WEEKDAYS[dt.weekday()], "timezone": zone}


@functools.lru_cache(maxsize=8)
def _template(version: str) -> Template:
    return Template(prompt_text(version))


def render(version: str, record: Record, **extra: str) -> str:
    """The prompt file with ``$reference_time``, ``$weekday``, ``$timezone`` (and ``extra``) filled in."""
    return _template(version).substitute(**time_context(record.reference_time), **extra)


def native_request(record: Record, parallel_tool_calls: str) -> dict[str, Any]:
    """Keyword arguments for ``chat.completions.create`` (without model and sampling settings)."""
    kw: dict[str, Any] = {
        "messages": [
            {"role": "system", "content": render(NATIVE_PROMPT, record)},
            {"role": "user", "content": record.query},
        ],
        "tools": record.tools,
        "tool_choice": "auto",
    }
    if parallel_tool_calls in ("true", "false"):
        kw["parallel_tool_calls"] = parallel_tool_calls == "true"
    return kw


def native_line(message: dict[str, Any]) -> dict[str, Any]:
    """The prediction keys for one assistant message (``model_dump`` of the reply's message)."""
    line: dict[str, Any] = {}
    content = message.get("content")
    answer, _, unclosed = split_reasoning(content) if isinstance(content, str) else ("", None, False)
    if isinstance(content, str):
        line["content"] = answer
    line["raw"] = {k: v for k, v in message.items() if v is not None}
    tcs = message.get("tool_calls") or []
    kept: list[dict[str, Any]] = []
    for i, tc in enumerate(tcs):
        fn = tc.get("function") if isinstance(tc, dict) else None
        if not isinstance(fn, dict) or not isinstance(fn.get("name"), str) or not fn["name"]:
            line["error"] = f"{UNPARSABLE}: tool_calls[{i}] has no function name"
            line["calls"] = []
            return line
        args = fn.get("arguments")
        if args is not None and not isinstance(args, str | dict):
            line["error"] = f"{UNPARSABLE}: tool_calls[{i}].function.arguments is a {type(args).__name__}"
            line["calls"] = []
            return line
        entry = {
            "type": "function",
            "function": {"name": fn["name"], "arguments": args if args is not None else ""},
        }
        if isinstance(tc.get("id"), str):
            entry["id"] = tc["id"]
        kept.append(entry)
    if kept:
        line["tool_calls"] = kept
        return line
    line["calls"] = []
    try:
        tagged = tagged_calls(answer)
    except Unparsable as e:
        line["raw"]["calls_from"] = CALLS_FROM_CONTENT
        line["error"] = f"{UNPARSABLE}: {e}"
        return line
    if tagged is not None:
        line["calls"], line["content"] = tagged
        line["raw"]["calls_from"] = CALLS_FROM_CONTENT
    elif unclosed:
        line["error"] = f"{UNPARSABLE}: the reply ends inside an unclosed <think> block: no answer after it"
    return line
