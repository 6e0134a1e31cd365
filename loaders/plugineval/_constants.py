"""The benchmark's fixed vocabularies and the metrics' seed, declared once (docs/format.md §1, §7).

A leaf module (it imports only ``typing``): the CLI's argument parsers, the schema, the metrics, the
builder and the Space all import these, and none of them pays for pydantic or numpy to do so.
"""

from __future__ import annotations

from typing import Literal, get_args

Kind = Literal["positive", "neg_A", "neg_B", "neg_C", "underspecified"]
Difficulty = Literal["easy", "medium", "hard"]
Split = Literal["train", "validation", "test"]

KINDS: tuple[str, ...] = get_args(Kind)
DIFFICULTIES: tuple[str, ...] = get_args(Difficulty)
SPLITS: tuple[str, ...] = get_args(Split)

SEED = 20260725
"""The default seed of every bootstrap interval (report, compare, the Space's mixtures)."""
