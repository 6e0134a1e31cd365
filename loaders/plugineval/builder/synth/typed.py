"""A request as people type or dictate it.

Commas: most people leave out the comma between the parts of a short
message (身高1米58体重62公斤算胖吗, 明天去桂林要带伞吗). In the real reference (3,739 requests to a
Chinese assistant) 3.4 % of requests carry a ``，``; a pattern written with one says the same thing
without it, so a rendered request drops its commas with ``DROP_COMMAS`` chance.

The draw is seeded by the request's own text, not by the synthesizer's generator, so that every
other draw of a build is the same with or without this step. A comma stays before a figure or a
Latin word, where its removal would run a value into the words before it (500，300 / 吃药，6月26日),
and a comma a slot's value says (its surface) is never touched.

Register: patterns were written in a chattier register than people use with an assistant (啥 in 4.0 %
of train requests, 1.5 % of real ones; a question ending in 没 2.3 %, real 0.1 %). With
``STANDARD_WORDS`` chance a request is written in the standard words instead (啥 → 什么, 咋 → 怎么,
下雨没 → 下雨了吗, 有比赛没 → 有比赛吗): one draw per request, since a person writes in one register,
and only in the pattern's own words.

End marks: a request typed or dictated to an assistant often ends with a mark (the speech recognizer
adds one): in the real reference a question ends with ``？`` a quarter of the time (``QUESTION_MARK``)
and other requests with ``。`` (``FULL_STOP``); 0.2 % of train requests of 1.6.7 did. A request that
ends in a value's own mark or a Latin letter or figure (台风2221, 查下CA1234) is left as it is.

Slips: now and then a request carries the slip of a typist or a speech recognizer (查寻 for 查询, 在来一首
for 再来一首, 帐单 for 账单, a closing 嘛 for 吗), as real requests do; with ``SLIP`` chance one of
``SLIPS`` is made in the pattern's own words, never in a slot's value, so that every value the
request gives is still said as the store knows it."""

from __future__ import annotations

import hashlib
import random
import re

DROP_COMMAS = 0.8
STANDARD_WORDS = 0.65
QUESTION_MARK = 0.25
FULL_STOP = 0.23
#: a question as the real reference's questions are told apart: a question word or particle, an
#: A-not-A (下不下, 会不会排队), 多久 / 多远 and a closing 没 (交了没) — read only on a request that ends
#: without a mark (``_MARKED_END``). Blind raters named 海口明天下不下雨。 and 排多久。 as written to order
QUESTION = re.compile(
    r"[吗呢么吧嘛]$|什么|多少|几|怎么|哪|谁|啥|咋|是否|有没有|能不能|是不是|如何|要不要|[^一-龥]?不[一-龥]?$"
    r"|多[久远长大高重]|([一-龥])不\1|没有?$"
)
SLIP = 0.05
#: what people meant to write -> the slip they make of it (a pattern's own words only)
SLIPS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile("查询"), "查寻"),
    (re.compile("再(?=[来看查放订买])"), "在"),
    (re.compile("账"), "帐"),
    (re.compile("吗$"), "嘛"),
)
_MARKED_END = re.compile(r"[。？?！!.…，,、A-Za-z0-9》」”)）]$")
_JOINS = re.compile(r"[A-Za-z0-9]")
#: the colloquial word -> the standard one (为啥 → 为什么, 咋样 → 怎么样 follow); the template retriever
#: reads either (``retriever._as_typed``)
STANDARD_FOR = {"啥": "什么", "咋": "怎么"}
_ENDS_HAS = re.compile(r"没有?$")  # 有比赛没 → 有比赛吗 (有 said before it)
_ENDS_DONE = re.compile(r"了?没有?$")  # 下雨没 / 还清了没 → 下雨了吗 / 还清了吗


def _standard(pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    out = []
    for text, own in pieces:
        if own:
            for word, standard in STANDARD_FOR.items():
                text = text.replace(word, standard)
        out.append((text, own))
    while out and not out[-1][0]:
        out.pop()
    if out and out[-1][1] and _ENDS_DONE.search(out[-1][0]) and not re.search("有没有?$", out[-1][0]):
        text, query = out[-1][0], "".join(t for t, _ in out)
        has = "有" in query[: len(query) - len(_ENDS_HAS.search(query).group())]  # type: ignore[union-attr]
        out[-1] = (_ENDS_HAS.sub("吗", text) if has else _ENDS_DONE.sub("了吗", text), True)
    return out


def typed(pieces: list[tuple[str, bool]]) -> str:
    """The request said by ``pieces`` (text, whether it is the pattern's own words rather than a
    slot's value), with the pattern's commas left out as most people type a short request, in the
    standard words most people use, and now and then with an end mark (see the module)."""
    query = "".join(t for t, _ in pieces)
    rng = random.Random(int.from_bytes(hashlib.sha256(query.encode("utf-8")).digest()[:8], "big"))
    drop, standard, mark = rng.random() < DROP_COMMAS, rng.random() < STANDARD_WORDS, rng.random()
    slip = rng.random() < SLIP
    if standard:
        pieces = _standard(pieces)
        query = "".join(t for t, _ in pieces)
    if slip:
        pieces = _slipped(pieces)
        query = "".join(t for t, _ in pieces)
    if drop and "，" in query:
        query = _dropped(pieces, query)
    query = query.rstrip()
    if query and not _MARKED_END.search(query):
        if QUESTION.search(query):
            query += "？" if mark < QUESTION_MARK else ""
        elif mark < FULL_STOP:
            query += "。"
    return query


def _slipped(pieces: list[tuple[str, bool]]) -> list[tuple[str, bool]]:
    """``pieces`` with the first slip of ``SLIPS`` that the pattern's own words allow (a closing 吗
    only at the request's end)."""
    last = max((i for i, (t, _) in enumerate(pieces) if t), default=-1)
    for pattern, slip in SLIPS:
        for i, (text, own) in enumerate(pieces):
            if own and pattern.search(text) and (pattern.pattern[-1] != "$" or i == last):
                return [*pieces[:i], (pattern.sub(slip, text, count=1), True), *pieces[i + 1 :]]
    return pieces


def _dropped(pieces: list[tuple[str, bool]], query: str) -> str:
    """``query`` without the pattern's own commas (a comma before a figure or a Latin letter stays)."""
    out: list[str] = []
    pos = 0
    for text, own in pieces:
        for i, ch in enumerate(text):
            at = pos + i
            if own and ch == "，" and 0 < at < len(query) - 1 and not _JOINS.match(query[at + 1]):
                continue
            out.append(ch)
        pos += len(text)
    return "".join(out)
