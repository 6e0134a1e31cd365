"""Names people type into the leaderboard — model, organisation, link, model card — as plain text.

- ``clean_name(text, field)``: NFKC-normalised, stripped; refuses control, bidi, zero-width and other
  invisible characters (the message names the field and the character as U+XXXX), an empty or
  whitespace-only name and one past its length limit.
- ``clean_link(text)``: an ``http(s)://host…`` URL or nothing; no space, quote or angle bracket.
- ``skeleton(text)``: a key under which look-alike names collide (NFKC, case folded, accents dropped,
  Cyrillic / Greek / Armenian look-alikes and 0 / 1 / I mapped to Latin, separators dropped), so that
  ``baseline:router`` with a Cyrillic ``о`` has the real one's skeleton.
- ``is_reserved(name, organisation)``: a model name whose skeleton starts with ``baseline`` and an
  organisation whose skeleton starts with ``plugineval`` belong to the maintainers' seeding path only
  (``plugineval_space.seed``), which does not go through here.
- ``markdown_text(text)``: user text to put inside Markdown: the characters Markdown or HTML would
  read as markup are backslash-escaped and line breaks become spaces, so that a name such as
  ``![p](http://…)`` shows literally and makes the browser fetch nothing.

The refusals raise ``InvalidName`` (a ``ValueError``, so a pydantic validator reports it as the field's
problem and the Space as an upload problem); a message names the field, the reason and the refused
character as U+XXXX, and never repeats the text typed, so it is safe in Markdown as it is. No gradio
here.
"""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import urlsplit

MAX_NAME = 100
"""Characters in a model or organisation name."""
MAX_CARD = 300
"""Characters in the one-line model card."""
MAX_LINK = 300
"""Characters in a link."""
MAINTAINERS = "PluginEval maintainers"
"""The organisation of the maintainers' baseline rows (``plugineval_space.seed``)."""
RESERVED_MODEL_PREFIX = "baseline:"
RESERVED_ORG_PREFIX = "PluginEval"

# categories refused outright: controls, format characters (bidi marks and overrides, zero-width
# space / joiners, word joiner, BOM, soft hyphen, …), surrogates, private use, unassigned, and the
# line / paragraph separators
_REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}
# characters of other categories that render as nothing (or as a blank) and hide a difference
_INVISIBLE = {
    0x034F,  # combining grapheme joiner
    0x115F,  # hangul choseong filler
    0x1160,  # hangul jungseong filler
    0x17B4,  # khmer vowel inherent aq
    0x17B5,  # khmer vowel inherent aa
    0x180B,  # mongolian free variation selectors 1-3
    0x180C,
    0x180D,
    0x180F,
    0x2800,  # braille pattern blank
    0x3164,  # hangul filler
    0xFFA0,  # halfwidth hangul filler
    *range(0xFE00, 0xFE10),  # variation selectors
    *range(0xE0100, 0xE01F0),  # variation selectors supplement
}
_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}
_ZERO_WIDTH = {0x00AD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x180E}


class InvalidName(ValueError):
    """A name, link or model card the leaderboard refuses; the message names the field and why."""


def _kind(cp: int) -> str:
    if cp in _BIDI:
        return "a bidirectional control"
    if cp in _ZERO_WIDTH:
        return "a zero-width character"
    cat = unicodedata.category(chr(cp))
    if cat == "Cc":
        return "a control character"
    if cat in ("Zl", "Zp"):
        return "a line break"
    if cat == "Cs":
        return "a lone surrogate"
    if cat == "Co":
        return "a private-use character"
    if cat == "Cn":
        return "an unassigned code point"
    return "an invisible character"


def _describe(ch: str) -> str:
    cp = ord(ch)
    name = unicodedata.name(ch, "")
    return f"U+{cp:04X}" + (f" ({name})" if name else "")


def clean_name(text: object, field: str, max_len: int = MAX_NAME, required: bool = True) -> str:
    """``text`` NFKC-normalised and stripped, or ``InvalidName`` naming ``field`` and the reason: not a
    string, a control / bidi / zero-width / invisible character (as U+XXXX), empty or only
    whitespace (when ``required``), longer than ``max_len`` characters."""
    if not isinstance(text, str):
        raise InvalidName(f"{field}: must be text, got {type(text).__name__}")
    norm = unicodedata.normalize("NFKC", text)
    for form in (text, norm):  # as typed first, so that the message names the character typed
        for i, ch in enumerate(form):
            cp = ord(ch)
            if cp in _INVISIBLE or unicodedata.category(ch) in _REFUSED_CATEGORIES:
                raise InvalidName(
                    f"{field}: {_kind(cp)}, {_describe(ch)}, at character {i + 1}: control, "
                    "bidirectional, zero-width and invisible characters are not allowed"
                )
    norm = norm.strip()
    if not norm:
        if required:
            raise InvalidName(f"{field}: empty: give a name that shows (not only spaces)")
        return ""
    if len(norm) > max_len:
        raise InvalidName(f"{field}: {len(norm):,} characters; the limit is {max_len:,}")
    return norm


def clean_link(text: object, field: str = "link") -> str:
    """An ``http://`` or ``https://`` URL with a host (NFKC, stripped), or "" for none; else
    ``InvalidName``. Spaces, quotes, angle brackets and backslashes are refused (a link is shown as
    text, never as markup)."""
    v = clean_name(text, field, MAX_LINK, required=False)
    if not v:
        return ""
    if not v.lower().startswith(("https://", "http://")):
        raise InvalidName(f"{field}: must start with https:// (or http://)")
    bad = next((c for c in v if c.isspace() or c in "\"'<>\\`"), None)
    if bad is not None:
        raise InvalidName(f"{field}: the character {_describe(bad)} is not allowed in a link")
    try:
        host = urlsplit(v).hostname
    except ValueError:
        host = None
    if not host:
        raise InvalidName(f"{field}: not a URL with a host (https://host/…)")
    return v


def clean_card(text: object, field: str = "model_card") -> str:
    """The one-line model card: no line break, then as ``clean_name`` with ``MAX_CARD``."""
    if isinstance(text, str) and ("\n" in text or "\r" in text):
        raise InvalidName(f"{field}: the model card is one line (no line breaks)")
    return clean_name(text, field, MAX_CARD)


# look-alikes of Latin letters (after case folding and dropping accents): Cyrillic, Greek, Armenian,
# Latin variants, and the digits 0 / 1
_CONFUSABLE = str.maketrans(
    {
        # Cyrillic
        "а": "a",
        "в": "b",
        "ь": "b",
        "с": "c",
        "ԁ": "d",
        "е": "e",
        "є": "e",
        "ғ": "f",
        "ԍ": "g",
        "һ": "h",
        "н": "h",
        "і": "l",
        "ј": "j",
        "к": "k",
        "ӏ": "l",
        "м": "m",
        "п": "n",
        "о": "o",
        "р": "p",
        "ԛ": "q",
        "г": "r",
        "ѕ": "s",
        "т": "t",
        "ц": "u",
        "ѵ": "v",
        "ԝ": "w",
        "х": "x",
        "у": "y",
        "ү": "y",
        # Greek
        "α": "a",
        "β": "b",
        "ϲ": "c",
        "ε": "e",
        "η": "n",
        "ι": "l",
        "κ": "k",
        "μ": "u",
        "ν": "v",
        "ο": "o",
        "ρ": "p",
        "σ": "o",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "γ": "y",
        "ω": "w",
        "ζ": "z",
        # Armenian
        "օ": "o",
        "ս": "u",
        "հ": "h",
        "ո": "n",
        "ց": "g",
        "զ": "q",
        # Latin variants
        "ı": "l",
        "i": "l",
        "ȷ": "j",
        "ɑ": "a",
        "ɡ": "g",
        "ɩ": "l",
        "ʏ": "y",
        "ſ": "s",
        "ł": "l",
        "ø": "o",
        "đ": "d",
        # digits
        "0": "o",
        "1": "l",
    }
)
# a vertical bar reads as I or l (kept as a letter before the punctuation is dropped)
_BAR = str.maketrans({"|": "l", "¦": "l"})
_DIGRAPHS = (("rn", "m"), ("vv", "w"))


def skeleton(text: str) -> str:
    """The key under which two names that look alike collide: NFKC, case folded, accents and other
    marks dropped, look-alike letters and 0 mapped to Latin, i / I / l / 1 / | read as one letter,
    every character that is not a letter or a digit (spaces, punctuation, separators) dropped, and
    ``rn`` / ``vv`` read as ``m`` / ``w``. Only for comparing: never shown."""
    s = unicodedata.normalize("NFKC", text).translate(_BAR).casefold()
    s = unicodedata.normalize("NFD", s)
    s = "".join(c for c in s if unicodedata.category(c)[0] in "LN").translate(_CONFUSABLE)
    s = unicodedata.normalize("NFKC", s)
    for a, b in _DIGRAPHS:
        s = s.replace(a, b)
    return s


def reserved_reason(name: str, organisation: str = "") -> str | None:
    """Why the name or organisation is the maintainers' (``None`` when neither is). Like every message
    here it repeats nothing the user typed (so it can go into Markdown as it is)."""
    if skeleton(name).startswith(skeleton(RESERVED_MODEL_PREFIX)):
        return (
            f"model: reads as a {RESERVED_MODEL_PREFIX}… name, which only the maintainers' baseline rows "
            "carry; choose another name"
        )
    if organisation and skeleton(organisation).startswith(skeleton(RESERVED_ORG_PREFIX)):
        return f"organisation: reads as {MAINTAINERS!r}, the maintainers' organisation; give your own"
    return None


def is_reserved(name: str, organisation: str = "") -> bool:
    """Whether the model name (``baseline:…`` by skeleton) or the organisation (``PluginEval…`` by
    skeleton) is reserved for the maintainers' seeding path."""
    return reserved_reason(name, organisation) is not None


def refuse_reserved(name: str, organisation: str = "") -> None:
    """``InvalidName`` when the name or organisation is the maintainers'."""
    why = reserved_reason(name, organisation)
    if why is not None:
        raise InvalidName(why)


# what Markdown (CommonMark + GFM tables, strikethrough) or HTML reads as markup inside a line (a
# backslash before ASCII punctuation makes it literal): links and images need their brackets, raw
# HTML and autolinks their angle brackets, emphasis and code their * _ ~ `, math its $ (an
# underscore between two letters or digits makes no emphasis: ``model_card`` stays as it is)
_MARKUP = re.compile(r"([\\`*\[\]<>|~&$]|(?<![^\W_])_|_(?![^\W_]))")
# GFM links a bare URL by itself ("http://…", "www.…") and takes the backslashes after it into the
# link: ":\/\/" and "www\." show the same and link nothing
_BARE_URL = re.compile(r"(?i)(:)(//)|\b(www)(\.)")
_BREAKS = re.compile(r"[\r\n\u2028\u2029\x85\x0b\x0c]+")


def markdown_text(text: object) -> str:
    """``text`` (any user-given string) made literal inside a Markdown line or table cell (not at the
    start of a line): markup and HTML characters backslash-escaped, bare URLs kept from being linked,
    line breaks turned into spaces."""
    out = _MARKUP.sub(r"\\\1", _BREAKS.sub(" ", str(text)))
    return _BARE_URL.sub(lambda m: ":\\/\\/" if m.group(1) else m.group(3) + "\\.", out)
