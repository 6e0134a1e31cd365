"""Physical quantities and money.

Canonical units: length ``m``, mass ``kg``, time ``s``, temperature ``C`` / ``F``
(kept apart, never converted), area ``m2``, volume ``L``, data ``B`` (binary
multiples: 1 KB = 1024 B), speed ``m/s``.  Currencies are ISO 4217 codes.

A string longer than ``limits.MAX_NORMALIZE_CHARS`` is not read (``None``).  The number before a unit
is the shortest that leaves only spaces and the unit, so it ends in a non-space and the spaces are
matched possessively: a run of spaces is read once (a lazy number followed by a plain run of spaces
reads the run again from every position of the number: quadratic).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from . import limits
from .numbers import parse_number

__all__ = ["canonical_currency", "parse_money", "parse_quantity"]

_U: dict[str, tuple[str, float]] = {}


def _add(unit: str, factor: float, *names: str) -> None:
    for n in names:
        _U[n] = (unit, factor)


_add("m", 1.0, "米", "m", "公尺", "meter", "meters", "metre", "metres")
_add("m", 1000.0, "公里", "千米", "km", "KM", "Km", "kilometer", "kilometers", "kilometre")
_add("m", 0.01, "厘米", "公分", "cm", "CM")
_add("m", 0.001, "毫米", "mm")
_add("m", 0.1, "分米", "dm")
_add("m", 500.0, "里", "华里")
_add("m", 1609.344, "英里", "mile", "miles", "mi")
_add("m", 0.3048, "英尺", "ft", "feet", "foot")
_add("m", 0.0254, "英寸", "inch", "inches", "in")
_add("m", 1852.0, "海里", "nmi")
_add("kg", 1.0, "公斤", "千克", "kg", "KG", "Kg", "kgs", "kilogram", "kilograms")
_add("kg", 0.001, "克", "g", "gram", "grams")
_add("kg", 1e-6, "毫克", "mg")
_add("kg", 0.5, "斤", "市斤")
_add("kg", 0.05, "两")
_add("kg", 1000.0, "吨", "t", "公吨")
_add("kg", 0.45359237, "磅", "lb", "lbs")
_add("kg", 0.028349523125, "盎司", "oz")
_add("s", 1.0, "秒", "秒钟", "s", "sec", "secs", "second", "seconds")
_add("s", 0.001, "毫秒", "ms")
_add("s", 60.0, "分钟", "min", "mins", "minute", "minutes")
_add("s", 3600.0, "小时", "个小时", "钟头", "个钟头", "h", "hr", "hrs", "hour", "hours")
_add("s", 86400.0, "天", "d", "day", "days")
_add("s", 604800.0, "周", "星期", "个星期", "礼拜", "个礼拜", "week", "weeks")
_add("C", 1.0, "度", "摄氏度", "℃", "°c", "°C", "摄氏")
_add("F", 1.0, "华氏度", "℉", "°f", "°F", "华氏")
_add("m2", 1.0, "平方米", "平米", "平", "㎡", "m2", "m²", "平方")
_add("m2", 1e6, "平方公里", "平方千米", "km2", "km²")
_add("m2", 1e-4, "平方厘米", "cm2", "cm²")
_add("m2", 1e4, "公顷", "ha")
_add("m2", 10000.0 / 15.0, "亩")
_add("L", 1.0, "升", "公升", "l", "L", "liter", "liters", "litre")
_add("L", 0.001, "毫升", "ml", "mL", "ML")
_add("L", 1000.0, "立方米", "方", "m3", "m³")
_add("L", 3.785411784, "加仑", "gallon", "gallons", "gal")
_add("B", 1.0, "字节", "b", "B", "byte", "bytes")
_add("B", 1024.0, "kb", "KB", "k", "K", "kib", "KiB")
_add("B", 1024.0**2, "mb", "MB", "M", "兆", "mib", "MiB")
_add("B", 1024.0**3, "gb", "GB", "G", "g字节", "gib", "GiB")
_add("B", 1024.0**4, "tb", "TB", "T字节", "tib", "TiB")
_add("m/s", 1.0, "米每秒", "m/s", "米/秒")
_add("m/s", 1 / 3.6, "公里每小时", "公里/小时", "千米每小时", "km/h", "kmh", "kph", "码")

_QTY_RE = re.compile(
    r"(?P<num>.*?\S)\s*+(?P<unit>" + "|".join(re.escape(u) for u in sorted(_U, key=len, reverse=True)) + r")"
)


def parse_quantity(s: str) -> tuple[float, str] | None:
    """``"3公里"`` → ``(3000.0, "m")``; ``None`` when no known unit follows a number.

    Case matters only where it must: ``M`` is megabytes, ``m`` metres, ``g`` grams,
    ``G`` gigabytes.  ``度`` is read as degrees Celsius.
    """
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return None  # not read, and not cached
    return _parse_quantity(s)


@lru_cache(maxsize=65536)
def _parse_quantity(s: str) -> tuple[float, str] | None:
    t = unicodedata.normalize("NFKC", s).strip()
    m = _QTY_RE.fullmatch(t)
    if m is None:
        return None
    num = m.group("num").strip()
    # a trailing 个 belongs to the unit (三个小时), 多/左右 are not exact
    if num.endswith("个"):
        num = num[:-1]
    v = parse_number(num)
    if v is None:
        return None
    unit, factor = _U[m.group("unit")]
    return (v * factor, unit)


_CUR: dict[str, str] = {}


def _cur(code: str, *names: str) -> None:
    _CUR[code.casefold()] = code
    for n in names:
        _CUR[n.casefold()] = code


_cur("CNY", "人民币", "元", "块", "块钱", "元钱", "rmb", "¥", "￥", "圆", "元人民币", "人民币元", "软妹币")
_cur("USD", "美元", "美金", "刀", "$", "us$", "usd$", "美刀", "美圆")
_cur("EUR", "欧元", "€", "欧")
_cur("JPY", "日元", "日币", "円", "日圆", "jp¥", "jpy¥")
_cur("GBP", "英镑", "£", "镑")
_cur("HKD", "港币", "港元", "港纸", "hk$")
_cur("KRW", "韩元", "韩币", "₩", "韩圆")
_cur("AUD", "澳元", "澳大利亚元", "a$", "au$")
_cur("CAD", "加元", "加币", "加拿大元", "c$", "ca$")
_cur("SGD", "新加坡元", "新币", "新元", "s$")
_cur("THB", "泰铢", "฿")
_cur("CHF", "瑞士法郎", "法郎")
_cur("TWD", "新台币", "台币", "nt$")
_cur("MOP", "澳门元", "澳门币", "葡币")
_cur("RUB", "卢布", "₽")
_cur("INR", "卢比", "印度卢比", "₹")
_cur("NZD", "新西兰元", "纽币", "nz$")
_cur("MYR", "林吉特", "马币")
_cur("VND", "越南盾", "₫")

_CUR_ALT = "|".join(re.escape(c) for c in sorted(_CUR, key=len, reverse=True))
_PREFIX_RE = re.compile(rf"(?P<cur>{_CUR_ALT})\s*+(?P<num>\S.*)", re.IGNORECASE)
_SUFFIX_RE = re.compile(rf"(?P<num>.*?\S)\s*+(?P<cur>{_CUR_ALT})", re.IGNORECASE)
_TRAIL_RE = re.compile(r"(?:整|左右)$")


def canonical_currency(s: str) -> str | None:
    """``"人民币"``/``"元"``/``"RMB"``/``"¥"``/``"块"`` → ``"CNY"``; ``None`` if unknown."""
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return None
    return _canonical_currency(s)


@lru_cache(maxsize=4096)
def _canonical_currency(s: str) -> str | None:
    t = unicodedata.normalize("NFKC", s).strip().casefold()
    t = t.replace("\uffe5", "¥")
    return _CUR.get(t)


def parse_money(s: str) -> tuple[float, str] | None:
    """``"3500元"``, ``"RMB 3,500"``, ``"$100"``, ``"100美元"`` → ``(value, ISO code)``."""
    if len(s) > limits.MAX_NORMALIZE_CHARS:
        return None  # not read, and not cached
    return _parse_money(s)


@lru_cache(maxsize=65536)
def _parse_money(s: str) -> tuple[float, str] | None:
    t = unicodedata.normalize("NFKC", s).strip()
    t = _TRAIL_RE.sub("", t).strip()
    if not t:
        return None
    m = _SUFFIX_RE.fullmatch(t)
    if m is not None:
        num = m.group("num").strip()
        cur = _CUR[m.group("cur").casefold()]
        pre = _PREFIX_RE.fullmatch(num)
        if pre is not None:  # "人民币3500元", "$100 USD"
            if _CUR[pre.group("cur").casefold()] != cur:
                return None
            num = pre.group("num").strip()
        v = parse_number(num)
        if v is not None:
            return (v, cur)
    m = _PREFIX_RE.fullmatch(t)
    if m is not None:
        v = parse_number(m.group("num").strip())
        if v is not None:
            return (v, _CUR[m.group("cur").casefold()])
    return None
