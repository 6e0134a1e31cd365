"""Numbers written with Arabic digits, Chinese numerals, or a mix of both.

``parse_number`` reads a whole string as one number (surrounding unit words are
*not* stripped: ``parse_number("3500元")`` is ``None``; see ``units``).
Colloquial elision is understood: 三千五 = 3500, 两万三 = 23000, 一百二 = 120;
a 零 cancels it (一万零五 = 10005).  A run of bare digits is read digit by digit
(二〇二六 = 2026).  Percentages: ``5%`` / ``百分之五`` = 0.05, ``‰`` / ``千分之`` ÷ 1000.

A string longer than ``limits.MAX_NORMALIZE_CHARS`` is not read (``None``), and neither is a number
too large for a float (``None``, never ``inf``: two such numbers are not "equal").
"""

from __future__ import annotations

import math
import re
import unicodedata
from functools import lru_cache

from . import limits

__all__ = ["CN_DIGITS", "find_numbers", "parse_int", "parse_number"]

CN_DIGITS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}

# Capital (financial) numerals and traditional forms mapped to the plain ones.
_CAPITALS = str.maketrans(
    {
        "壹": "一",
        "贰": "二",
        "貳": "二",
        "叁": "三",
        "參": "三",
        "肆": "四",
        "伍": "五",
        "陆": "六",
        "陸": "六",
        "柒": "七",
        "捌": "八",
        "玖": "九",
        "拾": "十",
        "佰": "百",
        "仟": "千",
        "萬": "万",
        "億": "亿",
        "兩": "两",
        "○": "〇",
        "Ｏ": "〇",
    }
)

_UNITS: tuple[tuple[str, int], ...] = (
    ("亿", 10**8),
    ("万", 10**4),
    ("千", 1000),
    ("百", 100),
    ("十", 10),
)
_ARABIC_RE = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?")
_ARABIC_ANY_RE = re.compile(r"\d")


def _arabic(s: str) -> float | None:
    if not s or not _ARABIC_ANY_RE.search(s) or not _ARABIC_RE.fullmatch(s):
        return None
    return float(s.replace(",", ""))


def _digit_string(s: str) -> float | None:
    """A unit-less run: an Arabic number, one Chinese digit, or digits read one by one."""
    v = _arabic(s)
    if v is not None:
        return v
    if not s:
        return None
    if len(s) == 1:
        d = CN_DIGITS.get(s)
        return None if d is None else float(d)
    if "两" in s:
        return None
    digits = []
    for ch in s:
        d = CN_DIGITS.get(ch)
        if d is None:
            return None
        digits.append(str(d))
    return float("".join(digits))  # linear (an int built digit by digit is quadratic), inf if huge


def _parse_cn(s: str, level: int = 0) -> float | None:
    if not s:
        return None
    for idx in range(level, len(_UNITS)):
        unit, mag = _UNITS[idx]
        i = s.rfind(unit) if idx < 2 else s.find(unit)
        if i < 0:
            continue
        left, right = s[:i], s[i + 1 :]
        lv: float | None
        if not left:
            lv = 1.0 if unit == "十" else None
        elif idx < 2:
            lv = _parse_cn(left, idx + 1)
        else:
            lv = _arabic(left)
            if lv is None and len(left) == 1:
                d = CN_DIGITS.get(left)
                lv = None if d is None else float(d)
        if lv is None:
            return None
        if not right:
            return lv * mag
        rv: float | None
        if right[0] in "零〇":
            rv = _parse_cn(right[1:], idx + 1) if len(right) > 1 else None
        elif right == "两":
            return None  # never a last digit (十二, 一百零二): 十两 is ten liang, 二十两 twenty
        elif len(right) == 1 and (right in CN_DIGITS or right.isdigit()):
            # colloquial elision: 三千五 = 3500, 两万三 = 23000
            rv = float(CN_DIGITS.get(right, 0) if not right.isdigit() else int(right))
            rv = rv * mag / 10
        else:
            rv = _parse_cn(right, idx + 1)
        if rv is None or rv >= mag:
            return None
        return lv * mag + rv
    return _digit_string(s)


def _fraction(s: str) -> float | None:
    if not s:
        return None
    digits = []
    for ch in s:
        if ch.isdigit():
            digits.append(ch)
        elif ch in CN_DIGITS and ch != "两":
            digits.append(str(CN_DIGITS[ch]))
        else:
            return None
    return float("0." + "".join(digits))


def parse_number(s: str) -> float | None:
    """Parse a whole string as a number; ``None`` if it is not exactly one number (or is longer than
    ``limits.MAX_NORMALIZE_CHARS``, or too large for a float)."""
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return None  # not read, and not cached
    return _parse_number(s)


@lru_cache(maxsize=65536)
def _parse_number(s: str) -> float | None:
    t = unicodedata.normalize("NFKC", s).strip().translate(_CAPITALS)
    t = t.replace(" ", "")
    if not t:
        return None
    scale = 1.0
    if t.endswith("%"):
        t, scale = t[:-1], 0.01
    elif t.endswith("‰"):
        t, scale = t[:-1], 0.001
    elif t.startswith("百分之"):
        t, scale = t[3:], 0.01
    elif t.startswith("千分之"):
        t, scale = t[3:], 0.001
    sign = 1.0
    if t.startswith("负"):
        t, sign = t[1:], -1.0
    if not t:
        return None
    v = _arabic(t)
    if v is None:
        t = t.replace("廿", "二十").replace("卅", "三十")
        if t.startswith(("-", "+")):
            sign = -sign if t[0] == "-" else sign
            t = t[1:]
        if "点" in t:
            ip, _, fp = t.partition("点")
            iv = _parse_cn(ip)
            fv = _fraction(fp)
            if iv is None or fv is None or iv != int(iv):
                return None
            v = iv + fv
        else:
            v = _parse_cn(t)
    if v is None or not math.isfinite(v):
        return None
    return sign * v * scale


def parse_int(s: str) -> int | None:
    """``parse_number`` restricted to non-negative integers."""
    v = parse_number(s)
    if v is None or v < 0 or v != int(v):
        return None
    return int(v)


_CN_CHARS = "零〇一二两三四五六七八九十百千万亿壹贰貳叁參肆伍陆陸柒捌玖拾佰仟萬億兩廿卅"
_FIND_HEAD = r"(?:百分之|千分之)?负?(?:[+-](?=\d))?"
#: where a number can start (the first character of one): a search for it reads each character once
_START_RE = re.compile(rf"{_FIND_HEAD}[\d{_CN_CHARS}]")
#: a number from its start (matched within ``_SPAN`` characters)
_FIND_RE = re.compile(
    _FIND_HEAD + rf"(?:\d+(?:,\d{{3}})*(?:\.\d+)?|[{_CN_CHARS}])"
    rf"(?:\d+(?:,\d{{3}})*(?:\.\d+)?|[{_CN_CHARS}]|点(?=[\d{_CN_CHARS}]))*"
    r"[%‰]?"
)
_WIDTH = str.maketrans(
    {chr(0xFF10 + i): str(i) for i in range(10)} | {"，": ",", "．": ".", "％": "%", "－": "-", "＋": "+"}
)
_LONE = frozenset("十百千万亿拾佰仟萬億")
_SPAN = 32  # the longest number find_numbers reads at once (a longer run of digits is read in pieces)
_NEVER_FIRST = frozenset("百千万亿佰仟萬億")  # no number starts with one (百分之 / 千分之 aside)
_KILO_UNITS = frozenset("克米瓦卡帕")


def find_numbers(text: str) -> list[tuple[float, int, int]]:
    """Every number in free text as ``(value, start, end)`` spans of ``text``.

    Lone magnitude characters (万, 千, …) are not numbers on their own.  A candidate
    that does not parse as a whole is shortened from the right until it does.  A candidate is at
    most 32 characters long (a longer run is read in pieces), so the scan is linear in ``text``.
    """
    t = text.translate(_WIDTH)  # length-preserving, so spans index ``text``
    out: list[tuple[float, int, int]] = []
    pos = 0
    while True:
        head = _START_RE.search(t, pos)
        if head is None:
            break
        start = head.start()
        m = _FIND_RE.match(t, start, start + _SPAN)
        assert m is not None  # its head matched here
        end = m.end()
        if end - start > 1 and t[end - 1] in "千仟" and t[end : end + 1] in _KILO_UNITS:
            end -= 1  # 58千克 is 58 kg, not 58,000 g: 千 before 克/米/瓦/卡 is the unit's prefix
        found = False
        if t[start] == "两" and start > 0 and (t[start - 1] in _CN_CHARS or t[start - 1].isdigit()):
            end = start  # 十两 / 十二两 / 3两: 两 right after a number is the unit liang, not a digit
        elif t[start] in _NEVER_FIRST and t[start + 1 : start + 3] != "分之":
            end = start  # 千千千…: none of its prefixes parses (a magnitude needs a digit before it)
        while end > start:
            cand = t[start:end]
            if cand not in _LONE or (cand in "十拾" and t[end : end + 1] == "两"):
                v = parse_number(cand)
                if v is not None:
                    out.append((v, start, end))
                    found = True
                    break
            end -= 1
        pos = end if found else start + 1
    return out
