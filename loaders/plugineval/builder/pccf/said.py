"""How much a pattern's text packs in, and how often it is drawn for it: blind reviewers rate a request
by how much it says at once (docs/authoring.md)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from ..synth.grammar import ALT_RE, SLOT_RE, Pattern, SlotSpec, alternatives
from ..synth.synthesizer import branch_weights

__all__ = ["DATE_FORMS", "draw_weight", "literal_length", "said_cost", "said_weight", "unit_weight"]

#: slot forms that say a day by its calendar date (3月20号, 2026年3月20日): people name a day by 明天
#: or 周五 far more often (0.4 % of real requests to a voice assistant say a calendar date; 15 % of the
#: test split of dataset 1.5.0 did, and blind reviewers named 徐州7月29日洗车指数 among the giveaways),
#: so such a date costs as much as two more values said
DATE_FORMS = frozenset({"md", "full", "iso"})
DATE_COST = 2
_TAIL = re.compile(r"[，,]([^，,。？?！!]*)$")
_JOINED = re.compile(r"\}[和、跟与]\{")
FEW_PATTERNS = 4  # a unit of fewer patterns repeats itself when it takes a large share of its tier
#: arguments people seldom state themselves: a search radius said as a figure (夫子庙1公里内有停车场吗,
#: 3公里内的充电站) reads as form language to blind raters, where people say 附近; such a value costs one more
FORM_ARGS = frozenset({"radius_m"})


def said_cost(p: Pattern, slots: Mapping[str, SlotSpec] | None = None) -> int:
    """How much a pattern's text packs in, counted the way blind reviewers read it: each distinct
    value said; two more for each day said by its calendar date; one more for values tacked on
    after a comma at the end (…的酒店，11月21日到11月25日 / …，南京，户号…); one more for two values
    joined by 和 (深圳和长春空气); one more for each figure of ``FORM_ARGS`` said (1公里内); one more
    for each code said of the grammar's ``slots`` (``identifier``: 3986444380933033怎么还没发货,
    blind raters' most named giveaway in train round 15)."""
    said = {m.group("name") for m in SLOT_RE.finditer(p.text)}
    dates = {m.group("name") for m in SLOT_RE.finditer(p.text) if m.group("form") in DATE_FORMS}
    cost = len(said) + DATE_COST * len(dates)
    tail = _TAIL.search(p.text)
    if tail and SLOT_RE.search(tail.group(1)):
        words = re.sub(r"\[[^\[\]]*\]", "", SLOT_RE.sub("", tail.group(1)))
        cost += len(words) <= 3
    cost += bool(_JOINED.search(p.text))
    form = {
        m.group("name")
        for c in p.calls
        for arg, v in c.args.items()
        if arg in FORM_ARGS and isinstance(v, str)
        for m in SLOT_RE.finditer(v)
    }
    cost += len(form & said)
    if slots is not None:
        cost += sum(1 for n in said if n in slots and (slots[n].identifier or slots[n].type == "phone"))
    return cost


def said_weight(p: Pattern, slots: Mapping[str, SlotSpec] | None = None) -> float:
    """How often a pattern is drawn among its scenario's: people most often give one value (广州的天气如何,
    去南昌的火车), now and then two, seldom more (blind reviewers rate a request by how much it packs in:
    订五张12月24号17:50…影城…店的《…》 reads as a form). The second value halves the weight and each
    unit of ``said_cost`` beyond two divides it by three."""
    cost = said_cost(p, slots)
    return 2.0 ** -min(1, max(0, cost - 1)) * 3.0 ** -max(0, cost - 2)


def unit_weight(pats: list[Pattern], slots: Mapping[str, SlotSpec] | None = None) -> float:
    """The weight of a coverage unit among the units of its difficulty: the expected ``said_weight``
    of the pattern its draws pick (each drawn by its own weight). A unit whose patterns all pack a
    calendar date and three values in (an easy flight search) takes a smaller share of its tier than
    one people say in two words (红烧肉怎么做); a unit of fewer than ``FEW_PATTERNS`` patterns takes a
    smaller share still."""
    ws = [said_weight(p, slots) for p in pats]
    if not ws:
        return 0.0
    # (三条"昨天X灰蒙蒙的，是雾霾吗" in one blind sample of sixty): its weight shrinks below FEW_PATTERNS
    return sum(w * w for w in ws) / sum(ws) * min(1.0, len(ws) / FEW_PATTERNS)


#: how much likelier a pattern of its scenario is for each character of wording it says fewer (its
#: values aside, which ``said_weight`` counts): 想买双跑步鞋 over 家里的跑步鞋彻底坏了想换个新的
SHORTER_PATTERN = 0.9


def literal_length(p: Pattern) -> float:
    """The characters a pattern's wording says around its values: its literal text, and each
    alternative group's branches by the weights they are drawn with (``synth.synthesizer.branch_weights``)."""
    n = float(len(SLOT_RE.sub("", ALT_RE.sub("", p.text))))
    for branches in alternatives(p.text):
        ws = branch_weights(branches)
        lengths = [len(SLOT_RE.sub("", b)) for b in branches]
        n += sum(w * k for w, k in zip(ws, lengths, strict=True)) / sum(ws)
    return n


def draw_weight(p: Pattern, slots: Mapping[str, SlotSpec] | None = None) -> float:
    """How often a pattern is drawn among the patterns a unit's draft chooses from: ``said_weight``,
    and ``SHORTER_PATTERN`` for each character of its ``literal_length``. The unit's share of its tier
    stays ``unit_weight``'s: the wording decides which of a unit's patterns, not how many records."""
    return said_weight(p, slots) * float(SHORTER_PATTERN ** literal_length(p))
