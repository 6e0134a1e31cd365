"""A realism profile of a set of requests: how long they are, how often each rare form and each
giveaway of generated text appears, how many come from real requests, and the mix of kinds — to
set a split beside requests people really send (docs/authoring.md, docs/probes.md; the build report and
the card print it per split beside a reference profile).

The detectors are deliberately plain regular expressions over the request text (linear, no
nested quantifiers): a profile counts surface forms; whether a request reads like a person's is
the blind naturalness audit's question (``docs/probes.md``).

    python -m plugineval.realism REQUESTS.jsonl    # one {"text": ...} or {"query": ...} per line
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from .normalize.places import CITY_NICKNAMES

__all__ = ["GIVEAWAYS", "RARE_FORMS", "SHORT", "forms_of", "profile"]

SHORT = 10
"""A request of this many characters or fewer counts as short."""

_TERMS = "立春|雨水|惊蛰|春分|谷雨|立夏|小满|芒种|夏至|小暑|大暑|立秋|处暑|白露|秋分|寒露|霜降|立冬|小雪|大雪|冬至|小寒|大寒"
_ZONE_CITIES = "纽约|伦敦|东京|巴黎|洛杉矶|悉尼|柏林|首尔|莫斯科|温哥华|芝加哥|旧金山|迪拜|多伦多|西雅图|曼谷"

RARE_FORMS: dict[str, re.Pattern[str]] = {
    # a lunar date (农历八月十五, 正月十二, 腊月廿三) or a solar term said as a day (霜降那天)
    "lunar_or_solar_term": re.compile(
        rf"农历|阴历|(?:正|腊|冬)月(?:初|十|廿|二十|三十)|(?:{_TERMS})(?:那天|当天|这天|前后)"
    ),
    "city_nickname": re.compile("|".join(sorted(CITY_NICKNAMES, key=len, reverse=True))),
    "working_day_count": re.compile(r"工作日"),
    "time_in_another_zone": re.compile(rf"当地时间|(?:{_ZONE_CITIES})时间"),
}
"""Forms people seldom use in requests to an assistant: at most 2 % of a default split each."""

GIVEAWAYS: dict[str, re.Pattern[str]] = {
    "iso_date": re.compile(r"\d{4}-\d{1,2}-\d{1,2}"),
    "date_with_year": re.compile(r"\d{4}年\d{1,2}月"),
    "key_value": re.compile(r"[\u4e00-\u9fff]{2,6}[:：]\s*\S"),
    "backstory": re.compile(r"人在|领导让我|公司安排我|之前问过|现在想问|我是做"),
    "ceremony": re.compile(r"^(?:您好|你好)[，,]|谢谢$|麻烦了$|辛苦了?$"),
    # a day said by its month and day (3月20号): people name most days 明天 or 周五
    "calendar_date": re.compile(r"(?<!\d)\d{1,2}月\d{1,2}[日号]"),
    # values listed one after another like a form's fields (下周二，19:00到20:00，6个人)
    "comma_list": re.compile(r"[，,][^，,]*[，,]"),
}
"""Surface marks of generated or form-like text (docs/authoring.md)."""


def _text(row: Mapping[str, Any]) -> str:
    return str(row.get("query") or row.get("text") or "")


def forms_of(text: str) -> list[str]:
    """The rare forms and giveaways the text carries, by name."""
    return [n for n, rx in (RARE_FORMS | GIVEAWAYS).items() if rx.search(text)]


def _quantile(xs: list[int], q: float) -> float:
    if not xs:
        return 0.0
    i = (len(xs) - 1) * q
    lo = int(i)
    hi = min(lo + 1, len(xs) - 1)
    return round(xs[lo] + (xs[hi] - xs[lo]) * (i - lo), 1)


def profile(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """The profile of requests given as records (``query``, ``kind``, ``source``) or as ``{"text"}``
    lines. Shares are fractions rounded to 4 places; lengths count characters."""
    lengths: list[int] = []
    forms: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    real = 0
    for r in rows:
        t = _text(r).strip()
        lengths.append(len(t))
        forms.update(forms_of(t))
        if r.get("kind"):
            kinds[str(r["kind"])] += 1
        src = r.get("source")
        if isinstance(src, str) and src.startswith("{"):
            src = json.loads(src)
        if isinstance(src, Mapping) and src.get("type") == "real":
            real += 1
    n = len(lengths)
    lengths.sort()

    def share(k: int) -> float:
        return round(k / n, 4) if n else 0.0

    out: dict[str, Any] = {
        "n": n,
        "length": {
            "p10": _quantile(lengths, 0.1),
            "p25": _quantile(lengths, 0.25),
            "median": _quantile(lengths, 0.5),
            "p75": _quantile(lengths, 0.75),
            "p90": _quantile(lengths, 0.9),
        },
        "short_share": share(sum(x <= SHORT for x in lengths)),
        "rare_forms": {k: share(forms[k]) for k in RARE_FORMS},
        "giveaways": {k: share(forms[k]) for k in GIVEAWAYS},
        "real_share": share(real),
    }
    if kinds:  # over the rows that name a kind
        nk = sum(kinds.values())
        out["kinds"] = {k: round(v / nk, 4) for k, v in sorted(kinds.items())}
    return out


def _main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    path = Path(argv[0])
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    print(json.dumps(profile(rows), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
