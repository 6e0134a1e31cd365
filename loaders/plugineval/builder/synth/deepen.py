"""Deeper readings of authored patterns: the same request with its date said as a calendar fact
(农历十月初八, 下个月最后一个工作日, 国庆假期后的第一个工作日, 春节前最后一个工作日) or as a working-day
count (今天之后的第三个工作日), and with its city by nickname (鹏城) — each one a step a capable model
can get wrong (docs/format.md §2.4). A pattern with two dates or a date and a city gets a two-step
reading too.

Past dates are re-said only with their year (去年农历八月十五, 今年正月十二 — a past day's bare lunar
name would mean its next occurrence) and only when far enough back to be said that way. A slot with
``far_days`` (a tool whose window reaches months ahead or back) gets a far reading too, where the
pattern has no other date and no word that places it in time (``WHEN_WORDS``): its date drawn from
that range and said as a calendar fact (明年农历三月初八, 去年农历腊月初八), where one anchor no longer
settles it — the fortnight around today's lunar date does not reach it.

Derived patterns keep their source's calls and go to its split (``Pattern.family``), so no test
pattern's reading appears in train.
"""

from __future__ import annotations

import re

from .consistency import WEEKEND
from .grammar import SLOT_RE, Pattern, PluginGrammar, SlotSpec

DATE_FORMS = (None, "md", "rel", "iso")
TIMED = ("date", "datetime")
#: words that place a request in time on their own (跨年旅行, 周末, 年底): a far date beside them says
#: something else
WHEN_WORDS = re.compile(
    r"跨年|元旦|新年|春节|过年|国庆|中秋|端午|清明|五一|年底|年初|月底|月初|寒假|暑假|周末|最近|马上|过两天"
    r"|今天|今晚|明天|明早|后天|[这本下]周|下个?月|这个月|本月|(?:周|星期|礼拜)[一二三四五六日天]"
)
MAX_TWO_STEP = 2  # two-step readings per source pattern
MIN_WORK_DAYS = 5  # a slot reaching this far always holds a second working day (Friday → Tuesday)
MAX_WORK_DAYS = 31  # beyond, a working-day count ("第二十七个工作日") is no way anyone says a date
MAX_LUNAR_DAYS = 300  # within a lunar year, a lunar date's next occurrence is the one meant
PAST_DAYS = (-700, -40)  # a past slot reaching this far back, no further, is re-said with its year


def _slots(p: Pattern, g: PluginGrammar, kind: str, forms: tuple[str | None, ...]) -> list[str]:
    names = [m.group("name") for m in SLOT_RE.finditer(p.text)]
    out = []
    for m in SLOT_RE.finditer(p.text):
        name, form = m.group("name"), m.group("form")
        spec: SlotSpec = g.slots[name]
        if spec.type != kind or form not in forms or names.count(name) != 1 or name in out:
            continue
        if kind == "date" and not _sayable(spec):
            continue
        out.append(name)
    return out


def _sayable(spec: SlotSpec) -> bool:
    """Can the slot's dates be said as calendar facts: all ahead within a lunar year, or all past,
    within two years, reaching far enough back for most draws to be said with their year (a draw
    too recent for that is drawn again: ``slots.MIN_PAST_CAL_DAYS``)?"""
    if spec.min_days >= 0:
        return 1 <= spec.max_days <= MAX_LUNAR_DAYS
    return PAST_DAYS[0] <= spec.min_days <= PAST_DAYS[1] and spec.max_days < 0


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
            works = [
                d
                for d in dates
                if g.slots[d].min_days >= 0 and MIN_WORK_DAYS <= g.slots[d].max_days <= MAX_WORK_DAYS
            ]
            if WEEKEND.search(p.text):  # a working-day count beside 周末 / 周六 contradicts itself
                works = []
            timed = [m for m in SLOT_RE.finditer(p.text) if g.slots[m.group("name")].type in TIMED]
            if len(timed) == 1 and timed[0].group("form") in DATE_FORMS:  # the request's one date
                d = timed[0].group("name")
                if g.slots[d].far_days is not None and not WHEN_WORDS.search(p.text):
                    pats.append(_derive(p, f"far_{d}", _resay(p.text, d, "far")))
                    if cities:  # on top of MAX_TWO_STEP: the far date is the step worth having
                        c = cities[0]
                        far_nick = _resay(_resay(p.text, d, "far"), c, "nick")
                        pats.append(_derive(p, f"far_{d}__nick_{c}", far_nick))
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
