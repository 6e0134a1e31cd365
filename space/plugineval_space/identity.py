"""Who a leaderboard row belongs to, and how large the board may grow (docs/space.md, "Who a row
belongs to" and "Storage budget"): the row key bound to the submitter, the look-alike key of a name,
the size budgets, and ``Refused``, the board's refusal with its message."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass


class Refused(ValueError):
    """The board will not store this row or bundle; ``str(e)`` is the message for the submitter."""


def _who(organisation: str) -> str:
    """The submitter a row belongs to: the organisation as given, compared without case, width or
    spacing differences (stable: it is part of the row key)."""
    import unicodedata

    return " ".join(unicodedata.normalize("NFKC", organisation or "").casefold().split())


def row_key(kind: str, digest: str, organisation: str) -> str:
    """A row's key (the UNIQUE ``content_hash``): baselines in their own key space (only the seeding
    path writes kind ``baseline``), a submission's content digest bound to its submitter."""
    if kind == "baseline":
        return hashlib.sha256(f"baseline\x00{digest}".encode()).hexdigest()
    return hashlib.sha256(f"submission\x00{digest}\x00{_who(organisation)}".encode()).hexdigest()


def _skeleton(text: str) -> str:
    """``plugineval.names.skeleton``; a name of punctuation only (an empty skeleton) as it is."""
    from plugineval.names import skeleton

    return skeleton(text) or "\x00" + _who(text)


def _mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


@dataclass(frozen=True)
class Budget:
    """How large the board may grow: the SQLite file (rows and kept bundles) and, within it, the kept
    bundles. Past either a new row or bundle is refused with a message (``Refused``)."""

    board_bytes: int = 2048 * 2**20
    bundle_bytes: int = 1024 * 2**20

    @classmethod
    def from_env(cls) -> Budget:
        import os

        def mb(name: str, default: int) -> int:
            try:
                return int(float(os.environ.get(name, default)) * 2**20)
            except ValueError:
                return default * 2**20

        return cls(mb("PLUGINEVAL_SPACE_MAX_BOARD_MB", 2048), mb("PLUGINEVAL_SPACE_MAX_BUNDLES_MB", 1024))


def _full(what: str, used: int, adding: int, limit: int) -> Refused:
    return Refused(
        f"The leaderboard's {what} is full: {_mib(used)} used of its {_mib(limit)} budget, and this needs "
        f"{_mib(adding)} more. Nothing was stored: ask the maintainers to make room, or try again later."
    )
