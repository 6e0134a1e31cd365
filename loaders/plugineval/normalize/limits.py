"""How much a normalizer reads (docs/judge.md, "What a normalizer reads").

A parser of one value (a number, an amount, a quantity, a place, a time expression, a calendar
expression) reads at most ``MAX_NORMALIZE_CHARS`` characters: a longer string is not read at all and
the parser answers "not understood" (``None``; ``is_relative`` False; ``compare_time`` "unparsed"),
without touching its cache. The judge decides such a value without normalizing it
(``judge._values.compare_value``). Below the cap every pattern runs in time linear in its input (no
nested or overlapping quantifiers that can backtrack; tests/test_hostile_judge.py).

Scanners of free text (``normalize_text``, ``normalize_ws``, ``find_numbers``) are single linear
passes and are not capped: they read queries, which may be long.
"""

from __future__ import annotations

__all__ = ["MAX_NORMALIZE_CHARS"]

#: the longest string a value parser reads (the longest argument value of the BFCL oracle pairs and
#: possible answers is 225 characters; a date, an amount or a place name is a few dozen)
MAX_NORMALIZE_CHARS = 1024
