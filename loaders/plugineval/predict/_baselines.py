"""Offline baselines, each a real method over the record's offered tools (no endpoint, no gold):

- ``baseline:router``: the builder's frozen reference router (TF-IDF over tool descriptions and the
  catalog's scenario exemplars, a calibrated call / no-call threshold), arguments by the text-only slot
  filler; no call when a required argument cannot be found. CAVEAT: this router calibrated the
  negatives' behavioural difficulty (p_K), so its score on negatives restates the labels.
- ``baseline:always-call``: the router's top-ranked offered tool whatever the threshold, arguments by
  the same slot filler; when the filler cannot ground a required argument it still calls, with what it
  found (an always-call baseline never abstains).
- ``baseline:never-call``: never calls a tool (answers in text).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..schema import Record

BASELINES = ("baseline:router", "baseline:always-call", "baseline:never-call")
ROUTER_CAVEAT = (
    "baseline:router is the reference router that calibrated the negatives' behavioural difficulty "
    "(p_K): its score on negatives restates the labels, not an independent measurement"
)
NEVER_CALL_TEXT = "这个请求我不调用工具。"


def baseline_info(name: str) -> dict[str, Any]:
    from ..baselines.router import ROUTER_VERSION

    info: dict[str, Any] = {"name": name}
    if name in ("baseline:router", "baseline:always-call"):
        info["router_version"] = ROUTER_VERSION
        info["argument_filler"] = "plugineval.baselines.slotfill (text-only)"
    if name == "baseline:router":
        info["caveat"] = ROUTER_CAVEAT
    return info


def make_baseline(name: str, noise: float = 0.0, seed: int = 0) -> Callable[[Record], dict[str, Any]]:
    """A function record -> prediction keys (``calls`` and ``content``). With ``noise`` > 0 each
    record's answer is replaced by the never-call answer with that probability, drawn from
    ``random.Random(f"{seed}:{record.id}")`` (the seeded noise that lets a baseline show trials)."""
    if name not in BASELINES:
        raise ValueError(f"unknown baseline {name!r} (choose from {', '.join(BASELINES)})")
    if noise:
        import random

        clean = make_baseline(name)

        def noisy(record: Record) -> dict[str, Any]:
            if random.Random(f"{seed}:{record.id}").random() < noise:
                return {"calls": [], "content": NEVER_CALL_TEXT}
            return clean(record)

        return noisy
    if name == "baseline:never-call":
        return lambda record: {"calls": [], "content": NEVER_CALL_TEXT}

    from ..baselines.router import ReferenceRouter
    from ..baselines.slotfill import SlotFiller, multi_fill
    from ..catalog import load_catalog

    router = ReferenceRouter(load_catalog())

    if name == "baseline:router":

        def route(record: Record) -> dict[str, Any]:
            calls = router.predict(record.query, record.reference_time, record.tools, record.tool_annotations)
            return {"calls": [c.model_dump() for c in calls]}

        return route

    def always(record: Record) -> dict[str, Any]:
        d = router.decide(record.query, record.tools)
        if not d.scores:  # no tool offered: nothing to call
            return {"calls": []}
        best = max(d.scores.items(), key=lambda kv: (kv[1], kv[0]))[0]  # the router's own ranking
        tool = next(t for t in record.tools if t.get("function", t).get("name") == best)
        filler = SlotFiller(tool, dict(record.tool_annotations.get(best) or {}))
        filler.required = []  # never abstain: call with what the query grounds
        fills = multi_fill(filler, record.query, record.reference_time)
        return {"calls": [{"name": f.tool, "arguments": f.arguments or {}} for f in fills]}

    return always
