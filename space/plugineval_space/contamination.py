"""The contamination note: the release's canary string and what a bundle's ``trained_on_plugineval``
means. The canary is read from the loaded records (``source.canary``, docs/format.md §2) or, for a
release without one there, from the release's dataset card (its ``## Canary`` section): never from the
builder, which the Space does not import."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from plugineval.schema import Record

_CARD_CANARY = re.compile(r"^## Canary\s*$(.*?)(?=^## |\Z)", re.M | re.S)
_CODE_LINE = re.compile(r"^`([^`\n]+)`\s*$", re.M)  # the canary stands alone on its line


def record_canaries(records: Iterable[Record]) -> list[str]:
    """The distinct canary strings the records carry in ``source.canary`` (synthetic records)."""
    return sorted({r.source.canary for r in records if r.source.canary})


def card_canary(card: str) -> str | None:
    """The canary string of a dataset card: the code span on a line of its own in its ``## Canary``
    section (the section's prose may hold other code spans)."""
    m = _CARD_CANARY.search(card)
    if m is None:
        return None
    code = _CODE_LINE.search(m.group(1))
    return code.group(1).strip() if code else None


def release_card_canary(source: str | None) -> str | None:
    """The canary of a local release folder's card (``README.md``), or None (a Hub repo or a JSONL:
    its records carry the canary)."""
    if not source:
        return None
    card = Path(source) / "README.md"
    try:
        return card_canary(card.read_text(encoding="utf-8")) if card.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def note(canaries: list[str]) -> str:
    """The Markdown the Space shows (the About tab, API ``/contamination``)."""
    if canaries:
        shown = "\n\n".join(f"`{c}`" for c in canaries)
        head = (
            "Every synthetic record of this release carries the canary string below in its "
            "`source.canary` field, and the dataset card repeats it:\n\n" + shown + "\n\n"
            "Keep PluginEval out of training data: drop every document that contains this string from "
            "training and fine-tuning corpora. A model that can complete the string has probably seen the "
            "benchmark in training, and its scores then say little about how it routes tools it has not "
            "seen."
        )
    else:
        head = "This release carries no canary string (none in its records' `source.canary` or its card)."
    return (
        "### Contamination\n\n" + head + "\n\n"
        "**`trained_on_plugineval`.** Every submission bundle declares in its `submission.json` whether "
        "any PluginEval data — any split, train included — was in the model's training data (a required "
        "boolean; docs/submit.md). The leaderboard shows the declaration in the **Trained on PluginEval** "
        "column: `yes` or `no` as declared, `—` for rows without a bundle (the baselines and single-file "
        "uploads). Like the row itself, the declaration is self-reported unless the maintainers ran the "
        "model; a `yes` row stays on the board, labelled, so compare it with that in mind."
    )
