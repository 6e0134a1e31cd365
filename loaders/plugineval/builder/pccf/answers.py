"""Comparing tool answers (the alternatives step's measure): an answer's canonical key without
generated ids and timestamps, one answer holding another's items, the value every item shares."""

from __future__ import annotations

import json
import re
from typing import Any

# answer keys that name no part of the answer: generated ids and the time of the call
# (the time of the call itself, not a time the answer gives: remind_at, depart_at stay)
_VOLATILE = re.compile(
    r"^(id|.*_id|.*_ids|.*_no|(searched|created|issued|booked|claimed|placed|updated|generated|ordered)_at"
    r"|as_of|confirmation.*|booking_ref|pickup_code|verify_code)$"
)
_ALL_SAME_MIN = 2  # a value "every item shares" needs at least this many items


def answer_key(result: Any) -> str:
    """The answer a tool gave, as a canonical string: generated ids and timestamps left out."""
    return json.dumps(_strip(result), ensure_ascii=False, sort_keys=True)


def _strip(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _strip(x) for k, x in v.items() if not _VOLATILE.match(str(k))}
    if isinstance(v, list):
        return [_strip(x) for x in v]
    return v


def sub_answer(part: Any, whole: Any) -> bool:
    """``part`` is ``whole`` with some list items left out (none emptied): the same keys, the same
    scalars, every list a non-empty subsequence of the whole's."""
    if isinstance(part, dict) and isinstance(whole, dict):
        return part.keys() == whole.keys() and all(sub_answer(part[k], whole[k]) for k in part)
    if isinstance(part, list) and isinstance(whole, list):
        if not part or len(part) > len(whole):
            return part == whole
        it = iter(whole)
        return all(any(sub_answer(x, y) for y in it) for x in part)
    return bool(part == whole)


def _lists_nothing(result: Any) -> bool:
    """An answer whose lists are all empty (no show, no POI found)."""
    lists = [v for v in result.values() if isinstance(v, list)] if isinstance(result, dict) else []
    return bool(lists) and not any(lists)


_SIDE_NOTES = re.compile(r"^(message|note|notes|hint|tip|tips|unit|currency)$")
_COUNT_KEY = re.compile(r"^(count|total|total_found|found|matches|num_results|.*_count)$")


def is_echo(key: str, value: Any, arguments: set[str]) -> bool:
    """An answer's field that restates an argument (``city``, ``search_type``): a scalar under an
    argument's name. A list or object under one is the answer itself (the forecast's ``days`` beside
    the ``days`` count asked for), never an echo."""
    return key in arguments and not isinstance(value, list | dict)


def finds_nothing(result: Any, tool: Any = None) -> bool:
    """An answer that found nothing: ids, timestamps and the echo of ``tool``'s own arguments aside,
    it has lists and all are empty, and it says so (a count of 0), or ``tool`` only reads (a search
    whose ``nights: 2`` is only the request's arithmetic), or it says nothing else but zeros and side
    notes. Any answer equals another such one, so equality between them proves nothing. A booking
    whose ``conflicts`` list is empty found something (its ``status``, its ``remind_at``)."""
    if result is None:
        return True
    if not isinstance(result, dict):
        return not result
    echo = set(tool.properties) if tool is not None else set()
    rest = {k: v for k, v in _strip(result).items() if not is_echo(k, v, echo)}
    lists = [v for v in rest.values() if isinstance(v, list)]
    if not lists or any(lists):
        return False
    if any(_COUNT_KEY.match(k) and v == 0 for k, v in rest.items()):
        return True
    if tool is not None and not tool.stateful:
        return True
    for k, v in rest.items():
        if isinstance(v, list) or _SIDE_NOTES.match(k) or v is None or v == "":
            continue
        if isinstance(v, dict):
            if finds_nothing(v) or not v:
                continue
            return False
        if isinstance(v, int | float) and not isinstance(v, bool) and v == 0:
            continue
        return False
    return True


def _clipped(x: Any, clip: str) -> Any:
    """``x`` with every day on or after ``clip`` read as "to the window's end": the narrower window
    cuts an item's dates there (a show's ``last_date``), the wider one lets them run on."""
    if isinstance(x, dict):
        return {k: _clipped(v, clip) for k, v in x.items()}
    if isinstance(x, list):
        return [_clipped(v, clip) for v in x]
    if isinstance(x, str) and _ISO_DAY.fullmatch(x) and x >= clip:
        return ">=" + clip
    return x


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def _holds_items(part: Any, whole: Any) -> bool:
    """Every list of ``part`` (found items) is a subsequence of ``whole``'s list under the same key,
    the counts aside (a wider search finds more: ``total`` grows)."""
    if not isinstance(part, dict) or not isinstance(whole, dict):
        return False
    lists = [k for k, v in part.items() if isinstance(v, list)]
    if not lists:
        return False
    for k in lists:
        if not isinstance(whole.get(k), list) or not (not part[k] or sub_answer(part[k], whole[k])):
            return False
    return True


def _carries_selected(parts: list[Any], whole: Any) -> bool:
    """Gold answers that differ only in top-level scalars their differing argument selects (date_diff's
    ``unit``: ``result`` 136 days or 95 workdays, its ``result_text``) are held by one answer that
    agrees on everything else and carries each selected number under a key of its own (``days``
    136, ``workdays`` 95)."""
    if not all(isinstance(p, dict) for p in parts) or not isinstance(whole, dict):
        return False
    selected = {k for p in parts for q in parts for k in p if p.get(k) != q.get(k)}
    if not selected or any(isinstance(p.get(k), dict | list) for p in parts for k in selected):
        return False
    for p in parts:
        rest = {k: v for k, v in p.items() if k not in selected}
        if any(whole.get(k) != v for k, v in rest.items()):
            return False
        numbers = [p[k] for k in selected if isinstance(p.get(k), int | float) and not isinstance(p[k], bool)]
        if not numbers or any(n not in [v for k, v in whole.items() if k not in selected] for n in numbers):
            return False
    return True


def shared_values(result: Any, key: str, least: int = _ALL_SAME_MIN) -> list[Any]:
    """The one scalar value that every item of the answer carrying ``key`` shares (at any depth),
    when at least two items carry it; else nothing."""
    seen: list[Any] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if key in v and isinstance(v[key], str | int | float) and not isinstance(v[key], bool):
                seen.append(v[key])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(result)
    return [seen[0]] if len(seen) >= least and len(set(map(str, seen))) == 1 else []
