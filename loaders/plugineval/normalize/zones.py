"""Clock times said in another time zone ("纽约时间3月12日上午10点") and durations that give an end
("下午两点开始，开一个半小时"): the two kinds of time arithmetic a request can ask of a reader.

Zones are IANA names read with :mod:`zoneinfo` (summer time included: 纽约 is UTC-5 in winter and
UTC-4 from the second Sunday of March).
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import cache
from zoneinfo import ZoneInfo

__all__ = ["DURATION_AFTER", "ZONES", "ZONE_BEFORE", "duration_of", "zone"]

#: the place a clock time is said in -> IANA zone
ZONES: dict[str, str] = {
    "纽约": "America/New_York", "美东": "America/New_York", "华盛顿": "America/New_York",
    "波士顿": "America/New_York", "多伦多": "America/Toronto", "芝加哥": "America/Chicago",
    "洛杉矶": "America/Los_Angeles", "旧金山": "America/Los_Angeles", "西雅图": "America/Los_Angeles",
    "美西": "America/Los_Angeles", "温哥华": "America/Vancouver", "伦敦": "Europe/London",
    "巴黎": "Europe/Paris", "柏林": "Europe/Berlin", "法兰克福": "Europe/Berlin",
    "阿姆斯特丹": "Europe/Amsterdam", "罗马": "Europe/Rome", "马德里": "Europe/Madrid",
    "莫斯科": "Europe/Moscow", "迪拜": "Asia/Dubai", "新德里": "Asia/Kolkata",
    "曼谷": "Asia/Bangkok", "新加坡": "Asia/Singapore", "东京": "Asia/Tokyo", "首尔": "Asia/Seoul",
    "悉尼": "Australia/Sydney", "墨尔本": "Australia/Melbourne", "奥克兰": "Pacific/Auckland",
}  # fmt: skip

#: "<place>(当地)时间" right before a clock time
ZONE_BEFORE = re.compile(
    "(?P<z>" + "|".join(sorted(ZONES, key=len, reverse=True)) + r")(?:当地)?时间[的，,\s]*$"
)
_DN = "0-9一二两三四五六七八九十"
#: a duration right after a start time ("开始，开一个半小时", "，持续90分钟")
DURATION_AFTER = re.compile(
    r"(?:开始)?[，,\s]*(?:要开|开|持续|时长|一共|总共|共|大概|大约|约)+"
    rf"(?P<d>(?P<h>[{_DN}]+)个?(?P<half>半)?(?:小时|钟头)|(?P<m>[{_DN}]+)分钟|半个?小时)"
)


@cache
def zone(name: str) -> ZoneInfo:
    return ZoneInfo(ZONES[name])


def duration_of(m: re.Match[str]) -> timedelta | None:
    """The duration a ``DURATION_AFTER`` match names."""
    from .numbers import parse_int

    if m.group("h"):
        h = parse_int(m.group("h"))
        return None if h is None else timedelta(hours=h, minutes=30 if m.group("half") else 0)
    if m.group("m"):
        n = parse_int(m.group("m"))
        return None if n is None else timedelta(minutes=n)
    return timedelta(minutes=30)
