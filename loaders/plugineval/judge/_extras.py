"""What a record accepts beyond its gold calls as written (docs/format.md §2.1-§2.2, §5): an ``extra`` argument with a
listed value, and other complete call lists (``alternative_calls``) scored like the gold; and the
underspecified diagnostic (``asks_for``: does the reply ask for a missing argument).

Cold paths, kept out of the per-pair code of ``_core``: a record without these features never
reaches them."""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from typing import Any

from ..schema import Record
from ._types import ACCEPTING, ArgVerdict, Outcome, Reason, RecordVerdict
from ._values import ArgSpec, compare_value

R_EXACT = Reason.EXACT
R_EXTRA = Reason.EXTRA
R_UNDECIDED = Reason.UNDECIDED
R_UNSUPPORTED_EXTRA = Reason.UNSUPPORTED_EXTRA
O_TP = Outcome.TP


def listed_extra(
    out: list[ArgVerdict],
    rejected: dict[int, list[Any]],
    gi: int,
    k: str,
    pv: Any,
    listed: list[Any],
    spec: ArgSpec,
    ref: datetime,
    tz: tzinfo,
) -> None:
    """The verdict on an argument the gold lacks and ``extra`` lists, appended to ``out``: ``extra``
    (accepted) when the predicted value means one of the listed values, compared as a gold value is
    (上海市 means 上海); ``undecided`` where the rules cannot tell (the LLM judge may settle it against
    the listed values: ``rejected`` records them); else ``unsupported_extra``."""
    reason, detail = compare_value(pv, listed, spec, ref, tz)
    if reason in ACCEPTING:
        note = None if reason is R_EXACT else (f"{reason}: {detail}" if detail else str(reason))
        out.append(ArgVerdict(gi, k, R_EXTRA, spec.time_valued, pv, None, note))
    elif reason is R_UNDECIDED and isinstance(pv, str) and any(_same_words(pv, x) for x in listed):
        out.append(
            ArgVerdict(gi, k, R_EXTRA, False, pv, None, "normalized: the listed words in another order")
        )
    elif reason is R_UNDECIDED:
        rejected[len(out)] = list(listed)
        out.append(ArgVerdict(gi, k, R_UNDECIDED, False, pv, None, f"extra: listed {listed!r}"))
    else:
        why = f"not one of the listed values {listed!r} ({detail or reason})"
        out.append(ArgVerdict(gi, k, R_UNSUPPORTED_EXTRA, False, pv, None, why))


_FUNCTION_CHARS = frozenset("要的给帮请个一下把了吧呢啊")


def _same_words(a: str, b: Any) -> bool:
    """``a`` says the characters of ``b`` in another order, function characters aside (客户连线 for a
    listed 要连线客户): the user's own words for a field the tool only echoes. Every content
    character counts, so 要辣 is no 不要辣."""
    if not isinstance(b, str):
        return False
    ka, kb = (sorted(c for c in x if c not in _FUNCTION_CHARS and not c.isspace()) for x in (a, b))
    return len(ka) >= 2 and ka == kb


def views(record: Record) -> tuple[Record, ...]:
    """The record once per list of ``alternative_calls``, with that list (and its alternatives) as the
    gold and no alternative lists of its own: the judge scores a prediction against each view as it
    does against the gold."""
    return tuple(
        record.model_copy(
            update={"gold_calls": a.calls, "gold_alternatives": a.aligned(), "alternative_calls": []}
        )
        for a in record.alternative_calls
    )


def failures(v: RecordVerdict) -> int:
    """Failing argument verdicts plus unmatched gold and predicted calls."""
    return (
        sum(1 for a in v.arguments if a.reason not in ACCEPTING)
        + len(v.unmatched_gold)
        + len(v.unmatched_pred)
    )


def best_of(found: list[RecordVerdict]) -> RecordVerdict:
    """Of the verdicts against the gold list (first) and each alternative list (``scored_against``
    set): the first TP; else the one with fewest ``failures``, the earliest on ties — the gold before
    any alternative."""
    best, fewest = found[0], -1
    for v in found:
        if v.outcome is O_TP:
            return v
        n = failures(v)
        if fewest < 0 or n < fewest:
            best, fewest = v, n
    return best


def _unprefixed(s: str, cities: tuple[str, ...]) -> set[str]:
    out = {s}
    for c in cities:
        if s.startswith(c) and len(s) - len(c) >= 2:
            out.add(s[len(c) :])
    return out


def city_alike(
    pv: Any, accepted: list[Any], gold_args: dict[str, Any], arg: str, spec: ArgSpec
) -> tuple[Reason, str] | None:
    """A place named with or without the call's own city — or its nickname — in front (成都大熊猫基地 /
    大熊猫基地, 成都市中心 / 市中心, 蓉城红灯笼粤菜馆 / 红灯笼粤菜馆, 丽江万达影城万象城店 /
    万达影城万象城店, with ``city: 成都`` / ``丽江``): the same place. Only the gold call's ``city``
    counts, so 北京烤鸭店 stays apart from 烤鸭店 elsewhere. And one of the store's landmarks by another
    of its names (成都远洋太古里 / 太古里; 上海外滩 / 外滩 with no city given): ``same_landmark``."""
    city = gold_args.get("city")
    if arg == "city" or type(pv) is not str or spec.enum or spec.time_valued:
        return None
    if type(city) is str:
        from ..normalize import canonical_place
        from ..normalize.places import CITY_NICKNAMES

        base = canonical_place(city) or city
        nicks = {n for n, c in CITY_NICKNAMES.items() if c == base}
        cities = tuple(sorted({city, base, base + "市", *nicks}, key=len, reverse=True))
        mine = _unprefixed(pv.strip(), cities)
        for g in accepted:
            if type(g) is str and mine & _unprefixed(g.strip(), cities):
                return Reason.NORMALIZED, f"the same place with or without the city {base}"
    from ._entities import same_landmark

    for g in accepted:
        if type(g) is str and (why := same_landmark(pv, g, city if type(city) is str else None)) is not None:
            return Reason.NORMALIZED, why
    return None


_ASK = re.compile(
    r"[?？]|请问|请提供|请告诉|告诉我|麻烦|需要您|您想|您要|哪|什么|多少|几|which|what|when|where|please",
    re.I,
)


def asks_for(content: str | None, args: list[ArgSpec]) -> bool:
    """Rules: the reply asks a question and names at least one missing argument by its description."""
    if not content or not _ASK.search(content):
        return False
    low = content.lower()  # once: a reply may hold 1 MiB, and each argument has tens of words
    for a in args:
        words = {a.name.lower()}
        head = re.split(r"[，,（(：:；;。]", a.description, maxsplit=1)[0]
        head = re.sub(r"^(如|例如|请输入|输入)", "", head)
        han = re.sub(r"[^\u4e00-\u9fff]", "", head)
        words |= {han[i : i + 2] for i in range(len(han) - 1)}
        if any(w and w in low for w in words):
            return True
    return False
