"""A value the request's own time implies (docs/authoring.md, "Negatives"): 合肥的月亮几点升起来
asks about today. One predicate for the reader (the slot parser fills today) and for the label (the
builder refutes an ``underspecified`` draft whose missing value is implied), so the two agree."""

from __future__ import annotations

import re
from typing import Any

from .textscan import find_times

# a date argument that names the day a fact holds (日期, 预报日期), not the day of an action the user
# plans (出发日期, 入住日期, 游玩日期, 就诊日期): a present-tense question means today
_FACT_DAY = re.compile(r"^(日期|查询日期|预报日期|预报起始日期|节目日期)")
# words that put the request at another, unnamed time (之前的天气, 改天, 到时候), or at none in
# particular (一般几点日出: on no day anyone can name)
_OTHER_TIME = re.compile(
    r"之前|以前|过去|那天|那时|当时|以后|之后|下次|到时候|改天|哪天|某天|哪一天|什么时候|几号"
    r"|一般|通常|平时|平常|往往|每年|每个月"
)


def _time_valued(ann: Any) -> bool:
    if ann is None:
        return False
    if isinstance(ann, dict):
        return bool(ann.get("time_valued"))
    return bool(getattr(ann, "time_valued", False))


def implied_today(
    props: dict[str, Any],
    annotations: dict[str, Any] | None,
    stateful: bool,
    missing: list[str],
    query: str,
    reference_time: str,
) -> bool:
    """Every missing argument is a day that the request's own time implies: a fact-of-the-day date
    (sun and moon times, a forecast, a TV listing) of a read-only tool, asked in the present tense,
    with no time said and none put elsewhere (合肥的月亮几点升起来: today). A day the user plans
    (出发日期 of a trip, a ticket's date) is never implied."""
    if stateful or not missing or _OTHER_TIME.search(query) or find_times(query, reference_time):
        return False
    for m in missing:
        sch = props.get(m, {})
        if not _time_valued((annotations or {}).get(m)) or not _FACT_DAY.match(
            str(sch.get("description", ""))
        ):
            return False
    return True
