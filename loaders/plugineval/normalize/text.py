"""Text normalization: width, case, whitespace and punctuation.

``normalize_text`` produces a comparison key: NFKC (full width → half width),
casefold, and every whitespace and punctuation character removed (not only at
the ends), so ``"北京，朝阳"`` and ``"北京 朝阳"`` compare equal.  Symbols that
carry meaning (``% # & @ + * $ ¥ €``) are kept.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["PUNCTUATION", "normalize_text", "normalize_ws"]

#: Chinese and ASCII punctuation removed by :func:`normalize_text` (after NFKC).
PUNCTUATION = frozenset(
    "，。、！？；：“”‘’（）《》【】〈〉「」『』〔〕［］｛｝·・—–‐‑‒―…⋯～"
    "-_/\\.,!?;:'\"()[]{}<>~`|^"
    "\u3000\u00b7\u2027\u30fb\u300a\u300b"
)

_WS_RE = re.compile(r"\s+")
_STRIP_TABLE = {ord(c): None for c in PUNCTUATION}


@lru_cache(maxsize=65536)
def normalize_text(s: str) -> str:
    """Return a comparison key: NFKC, casefold, no whitespace or punctuation."""
    t = unicodedata.normalize("NFKC", s).casefold()
    t = _WS_RE.sub("", t)
    return t.translate(_STRIP_TABLE)


def normalize_ws(s: str) -> str:
    """Collapse runs of whitespace (including U+3000) to one space and strip."""
    return _WS_RE.sub(" ", s).strip()
