"""Another offered plugin that serves the request (``other_tools``, source ``other_tool``): metro_route
for 坐地铁 beside route_plan with mode transit, the forecast for 明天穿什么 beside the life index's
dressing index.

- The gold's plugin declares that the other serves its requests too (the grammar's ``serves_also``: a
  plausible reading of one tool by another is no proof of it — a charging query read as a bare nearby
  search had the same free values), and the request names none of the gold plugin's own ``modes``
  (动车 for rail; 穿衣指数 asks for the index itself).
- The query says one of the other plugin's cue words (the lures of its scenarios: 地铁, 换乘; 伞, 穿).
- Stage I accepts a text-only reading of the query for it — grounded, executed and scored at tau, as
  many calls as the gold, carrying every value the gold reads from the query.
- **Its siblings** (``siblings``): the same values given to each other offered tool of that plugin that
  takes them all, scored by Stage I at tau like the reading. Which forecast a text-only reader picks
  for 明天穿什么 (daily or hourly) is the wording's accident; both answer it, and a record that offers
  only the other one otherwise accepted no forecast at all (reference reviewers, final sample 15: the
  same advice requests accepted the forecast in some records and not in others).
- **Measures** (the other plugin's ``measures``): a word that asks for a measure (紫外线) is served only
  by a tool whose answer carries that field (the daily forecast's ``uv_index``; the hourly has none).

Each such reading is an ``alternative_calls`` list, with its own grounded variants.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugineval.schema import Call

if TYPE_CHECKING:
    from .alternatives import AlternativeFinder

__all__ = ["carries", "other_tools"]


def carries(schema: Any, field: str) -> bool:
    """Whether an output JSON Schema has a property ``field`` at any depth."""
    if isinstance(schema, dict):
        props = schema.get("properties")
        if isinstance(props, dict) and field in props:
            return True
        return any(carries(v, field) for v in schema.values())
    if isinstance(schema, list):
        return any(carries(v, field) for v in schema)
    return False


async def siblings(
    finder: AlternativeFinder, task: Any, reading: list[Call], offered: set[str]
) -> list[list[Call]]:
    """The one-call ``reading`` given to each other offered tool of its plugin that takes every value
    it holds (and needs no other), where Stage I scores it at tau."""
    if len(reading) != 1:
        return []
    c = reading[0]
    out: list[list[Call]] = []
    for t in finder.catalog.plugin_of_tool(c.name).tools:
        if t.name == c.name or t.name not in offered or t.stateful:  # a reading never books
            continue
        if not set(c.arguments) <= set(t.properties) or not set(t.parameters.get("required", [])) <= set(
            c.arguments
        ):
            continue
        calls = [Call(name=t.name, arguments=dict(c.arguments))]
        if await finder.s1.scores(calls, task, "sibling"):
            out.append(calls)
    return out


async def other_tools(
    finder: AlternativeFinder, task: Any, gold: list[Call], offered: list[str], dbs: dict[str, Any]
) -> list[dict[str, Any]]:
    """Each offered other plugin's readings that serve the request (this module's rules), as
    ``alternative_calls`` lists with their own variants."""
    from .alternatives import free_values
    from .generators import Task
    from .records import alternatives_for

    catalog, s1, retriever = finder.catalog, finder.s1, finder.s1.retriever
    offered_set = set(offered)
    gold_plugins = {catalog.plugin_of_tool(c.name).id for c in gold}
    declared = {q for p in gold_plugins if p in retriever.grammars for q in retriever.grammars[p].serves_also}
    plugins = sorted(({catalog.plugin_of_tool(t).id for t in offered} & declared) - gold_plugins)
    modes = [w for p in gold_plugins if p in retriever.grammars for w in retriever.grammars[p].modes]
    if any(w in task.query for w in modes):
        return []  # the request names the gold's own mode (动车, 穿衣指数): no other plugin serves it
    need = free_values(catalog, gold)
    out: list[dict[str, Any]] = []
    for pid in plugins:
        plugin = catalog.plugin(pid)
        db = dbs.get(catalog.domain_of_plugin(pid))
        if pid not in retriever.grammars or db is None:
            continue  # a build over some plugins knows no exemplars of the others
        grammar = retriever.grammars[pid]
        cues = {w for sc in grammar.scenarios.values() for w in sc.lures}
        if not any(w in task.query for w in cues):
            continue  # the request names nothing this plugin is for (地铁 for the metro guide)
        sub = Task(task.query, task.reference_time, plugin, db)
        v = await s1.annotate(sub)
        if not (v.accepted and v.outcome == "call" and len(v.gold) == len(gold)):
            continue
        if not need <= free_values(catalog, v.gold):
            continue  # it leaves out part of what the gold reads (陆家嘴 of 陆家嘴附近哪里能停车)
        asked = [f for w, f in grammar.measures.items() if w in task.query]
        readings = [v.gold, *await siblings(finder, sub, v.gold, offered_set)]
        for calls in readings:
            if not all(c.name in offered_set for c in calls):
                continue
            if not all(carries(catalog.tool(c.name).output, f) for f in asked for c in calls):
                continue  # 紫外线 asked of a forecast that gives no UV index
            alts = alternatives_for(catalog, calls)
            # the reading's own variants, found as the gold's are (穿毛衣热不热: the life index's
            # ``indices: [dressing]`` beside its whole list)
            alts = (await finder.find(task.query, task.reference_time, calls, alts, [])).alternatives
            out.append(
                {"calls": [c.model_dump() for c in calls], "alternatives": [a.model_dump() for a in alts]}
            )
    return out
