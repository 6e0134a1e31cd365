"""Deeper readings of authored patterns: the same request with its date said as a calendar fact
(农历十月初八, 下个月最后一个工作日, 国庆假期后的第一个工作日) or as a working-day count (今天之后的第三个
工作日), and with its city by nickname (鹏城) — each one a step a capable model can get wrong
(docs/format.md §2.4). A pattern with two dates or a date and a city gets a two-step reading too.

Derived patterns keep their source's calls and go to its split (``Pattern.family``), so no test
pattern's reading appears in train. Only future dates are re-said: a lunar or working-day name of a
past day reads unnaturally ("上一个农历十月初八").
"""

from __future__ import annotations

from .consistency import WEEKEND
from .grammar import SLOT_RE, Pattern, PluginGrammar, SlotSpec

DATE_FORMS = (None, "md", "rel", "iso")
MAX_TWO_STEP = 2  # two-step readings per source pattern
MIN_WORK_DAYS = 5  # a slot reaching this far always holds a second working day (Friday → Tuesday)
MAX_WORK_DAYS = 31  # beyond, a working-day count ("第二十七个工作日") is no way anyone says a date
MAX_LUNAR_DAYS = 300  # within a lunar year, a lunar date's next occurrence is the one meant


def _slots(p: Pattern, g: PluginGrammar, kind: str, forms: tuple[str | None, ...]) -> list[str]:
    names = [m.group("name") for m in SLOT_RE.finditer(p.text)]
    out = []
    for m in SLOT_RE.finditer(p.text):
        name, form = m.group("name"), m.group("form")
        spec: SlotSpec = g.slots[name]
        if spec.type != kind or form not in forms or names.count(name) != 1 or name in out:
            continue
        if kind == "date" and (spec.min_days < 0 or not 1 <= spec.max_days <= MAX_LUNAR_DAYS):
            continue
        out.append(name)
    return out


def _resay(text: str, name: str, form: str) -> str:
    return SLOT_RE.sub(lambda m: f"{{{name}:{form}}}" if m.group("name") == name else m.group(0), text)


def _derive(p: Pattern, suffix: str, text: str) -> Pattern:
    return p.model_copy(update={"id": f"{p.id}__{suffix}", "text": text, "family": p.id})


def deepen(g: PluginGrammar) -> PluginGrammar:
    """The grammar with every pattern's deeper readings added after it."""
    scenarios = {}
    for sid, sc in g.scenarios.items():
        pats: list[Pattern] = []
        for p in sc.patterns:
            pats.append(p)
            if p.family is not None:
                continue
            dates = _slots(p, g, "date", DATE_FORMS)
            cities = _slots(p, g, "city", (None,))
            works = [d for d in dates if MIN_WORK_DAYS <= g.slots[d].max_days <= MAX_WORK_DAYS]
            if WEEKEND.search(p.text):  # a working-day count beside 周末 / 周六 contradicts itself
                works = []
            for d in dates:
                pats.append(_derive(p, f"cal_{d}", _resay(p.text, d, "cal")))
                if d in works:
                    pats.append(_derive(p, f"work_{d}", _resay(p.text, d, "work")))
            two: list[Pattern] = []
            if len(dates) >= 2 and dates[1] in works:
                a, b = dates[0], dates[1]
                two.append(_derive(p, f"cal_{a}__work_{b}", _resay(_resay(p.text, a, "cal"), b, "work")))
            if dates and cities:
                d, c = dates[0], cities[0]
                two.append(_derive(p, f"cal_{d}__nick_{c}", _resay(_resay(p.text, d, "cal"), c, "nick")))
                if d in works:
                    two.append(
                        _derive(p, f"work_{d}__nick_{c}", _resay(_resay(p.text, d, "work"), c, "nick"))
                    )
            pats += two[:MAX_TWO_STEP]
        scenarios[sid] = sc.model_copy(update={"patterns": pats})
    return g.model_copy(update={"scenarios": scenarios})
