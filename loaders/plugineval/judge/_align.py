"""Alignment helpers of the judge: when predicted arguments are exactly the gold's, and which
one-to-one pairing of gold and predicted calls of one tool agrees most."""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

from ._types import ACCEPTING, ArgVerdict
from ._values import is_empty, same


def perfect_pairing(gis: list[int], pjs: list[int], cell: Any) -> list[tuple[int, int]] | None:
    """Greedy: every gold call takes the first unused prediction whose arguments all agree. When it
    pairs every gold call (and no more predictions exist than golds need), it is an optimal pairing."""
    if len(gis) == 1 and len(pjs) == 1:
        return [(gis[0], pjs[0])]
    if len(pjs) < len(gis):
        return None
    left = list(pjs)
    out = []
    for gi in gis:
        hit = next((pj for pj in left if all(v.reason in ACCEPTING for v in cell(gi, pj)[0])), None)
        if hit is None:
            return None
        left.remove(hit)
        out.append((gi, hit))
    return out


def nonempty(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if not is_empty(v)}


def has_number(v: Any) -> bool:
    """Whether a JSON value holds a number or a boolean anywhere (where == takes True for 1)."""
    t = type(v)
    if t is str or v is None:
        return False
    if t is list:
        return any(has_number(x) for x in v)
    if t is dict:
        return any(has_number(x) for x in v.values())
    return True


def exact_types(ga: dict[str, Any]) -> Callable[[dict[str, Any]], bool] | None:
    """For predicted arguments already == the gold's ``ga``: whether they are also same() — where ==
    takes True for 1. None when nothing can differ (no number or boolean in the gold: a string, or a
    list or object of strings, equals only its like). Scalars are checked by their types in one
    C-level step first (int and float may still be equal numbers: same() decides then)."""
    scalars = [k for k, v in ga.items() if type(v) in (int, float, bool)]
    nested = [k for k, v in ga.items() if type(v) in (list, dict) and has_number(v)]
    if not scalars and not nested:
        return None
    keys = (*scalars, *nested)

    def slow(pa: dict[str, Any]) -> bool:
        return all(same(pa[k], ga[k]) for k in keys)

    if nested:
        return slow
    if len(scalars) == 1:
        k, t = scalars[0], type(ga[scalars[0]])
        return lambda pa: type(pa[k]) is t or slow(pa)
    get, types = itemgetter(*scalars), tuple(type(ga[k]) for k in scalars)
    return lambda pa: tuple(map(type, get(pa))) == types or slow(pa)


def is_exact(pa: dict[str, Any], ga: dict[str, Any], typed: Callable[[dict[str, Any]], bool] | None) -> bool:
    """The predicted arguments are exactly the gold's (empty predicted values ignored; True != 1).
    ``typed``: the gold call's check of the values == cannot tell apart (``exact_types``)."""
    if pa != ga:
        if len(pa) <= len(ga):
            return False
        pa = nonempty(pa)
        if pa != ga:
            return False
    return typed is None or typed(pa)


def pairing_score(verdicts: list[ArgVerdict]) -> int:
    ok = sum(1 for v in verdicts if v.reason in ACCEPTING)
    return ok * 2 + (1 if ok == len(verdicts) else 0)


def best_pairing(
    gis: list[int],
    pjs: list[int],
    table: dict[tuple[int, int], tuple[list[ArgVerdict], dict[int, list[Any]]]],
) -> list[tuple[int, int]]:
    """One-to-one pairing of gold and predicted calls of one tool maximizing agreeing arguments."""
    if not gis or not pjs:
        return []
    if len(gis) == 1 and len(pjs) == 1:
        return [(gis[0], pjs[0])]
    if len(pjs) > 16:  # beyond exact search: greedy by score
        scored = sorted(((pairing_score(table[g, p][0]), g, p) for g in gis for p in pjs), reverse=True)
        used_g: set[int] = set()
        used_p: set[int] = set()
        out = []
        for _, g, p in scored:
            if g not in used_g and p not in used_p:
                used_g.add(g)
                used_p.add(p)
                out.append((g, p))
        return sorted(out)
    # exact: DP over subsets of predicted calls; each gold call takes one unused prediction (or none).
    n = len(pjs)
    score = [[pairing_score(table[g, p][0]) + 1000 for p in pjs] for g in gis]  # matching always beats not
    best: dict[int, int] = {0: 0}
    back: list[dict[int, tuple[int, int]]] = []  # per gold: new mask -> (old mask, k or -1)
    for row in score:
        nxt: dict[int, int] = {}
        ptr: dict[int, tuple[int, int]] = {}
        for mask, s in best.items():
            if nxt.get(mask, -1) < s:
                nxt[mask], ptr[mask] = s, (mask, -1)
            for k in range(n):
                if not mask >> k & 1:
                    m2, s2 = mask | 1 << k, s + row[k]
                    if nxt.get(m2, -1) < s2:
                        nxt[m2], ptr[m2] = s2, (mask, k)
        best = nxt
        back.append(ptr)
    mask = max(best, key=lambda m: (best[m], -m))
    out = []
    for gi_pos in range(len(gis) - 1, -1, -1):
        prev, k = back[gi_pos][mask]
        if k >= 0:
            out.append((gis[gi_pos], pjs[k]))
        mask = prev
    return sorted(out)
