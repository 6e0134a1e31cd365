"""Pilot calibration (Stage II planning): before a split is synthesized, a few drafts per negative
scenario are instantiated from the split's own patterns and calibrated by the reference router — no
Stage I, no records. Their easy / medium / hard counts tell the planner which scenarios can supply
which behavioural difficulty (``coverage.fit_negative_mix``)."""

from __future__ import annotations

from typing import Any

from .candidate import Context, calibrate, draft, offered_for
from .coverage import patterns_by_split
from .records import difficulty_of_pk, record_id, rng_for


async def negative_supply(ctx: Context, split: str, drafts: int) -> dict[tuple[str, str], dict[str, int]]:
    """Per negative scenario with patterns in ``split``: how many of ``drafts`` drafts the router
    calibrates easy, medium and hard. Deterministic: every draft derives from the seed and its key."""
    cat, cfg = ctx.catalog, ctx.cfg
    out: dict[tuple[str, str], dict[str, int]] = {}
    if drafts <= 0:
        return out
    for plugin in cat.plugins:
        g = ctx.grammars.get(plugin.id)
        if g is None:
            continue
        for scenario in plugin.scenarios:
            if scenario.kind == "trigger" or scenario.id not in g.scenarios:
                continue
            pats = patterns_by_split(plugin.id, scenario.id, g).get(split, [])
            if not pats:
                continue
            counts = {"easy": 0, "medium": 0, "hard": 0}
            for i in range(drafts):
                key = f"{split}|pilot|{plugin.id}/{scenario.id}|{i}"
                _, cand = draft(ctx, rng_for(cfg.seed, key), plugin.id, scenario, pats)
                if cand is None:
                    continue
                offered: list[dict[str, Any]] = [
                    cat.tool(t).openai_function() for t in offered_for(ctx, key, plugin, scenario)
                ]
                rid = record_id(cand.query, plugin.id, scenario.kind)
                p, _ = await calibrate(ctx, cand, plugin.id, scenario.kind, offered, rid)
                counts[difficulty_of_pk(p)] += 1
            out[(plugin.id, scenario.id)] = counts
    return out
