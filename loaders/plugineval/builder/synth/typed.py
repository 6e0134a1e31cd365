"""A request as people type or dictate it: most leave out the comma between the parts of a short
message (身高1米58体重62公斤算胖吗, 明天去桂林要带伞吗). In the real reference (3,739 requests to a
Chinese assistant) 3.4 % of requests carry a ``，``; a pattern written with one says the same thing
without it, so a rendered request drops its commas with ``DROP_COMMAS`` chance.

The draw is seeded by the request's own text, not by the synthesizer's generator, so that every
other draw of a build is the same with or without this step. A comma stays where its removal would
run two figures or two Latin words together (500，300 / CA1234，MU5678), and a comma a slot's value
says (its surface) is never touched."""

from __future__ import annotations

import hashlib
import random
import re

DROP_COMMAS = 0.8
_JOINS = re.compile(r"[A-Za-z0-9]")


def typed(pieces: list[tuple[str, bool]]) -> str:
    """The request said by ``pieces`` (text, whether it is the pattern's own words rather than a
    slot's value), with the pattern's commas left out as most people type a short request."""
    query = "".join(t for t, _ in pieces)
    if "，" not in query:
        return query
    rng = random.Random(int.from_bytes(hashlib.sha256(query.encode("utf-8")).digest()[:8], "big"))
    if rng.random() >= DROP_COMMAS:
        return query
    out: list[str] = []
    pos = 0
    for text, own in pieces:
        for i, ch in enumerate(text):
            at = pos + i
            if (
                own
                and ch == "，"
                and 0 < at < len(query) - 1
                and not (_JOINS.match(query[at - 1]) and _JOINS.match(query[at + 1]))
            ):
                continue
            out.append(ch)
        pos += len(text)
    return "".join(out)
