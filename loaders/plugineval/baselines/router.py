"""The frozen reference router: character n-gram TF-IDF over tool descriptions and the catalog's
scenario exemplars, a calibrated call / no-call threshold, and fixed sampling across K runs.

Its parameters derive only from the catalog and the constants below (``ROUTER_VERSION``); the builder
uses it to calibrate the behavioural difficulty of negatives (p_K), and ``plugineval predict
baseline:router`` runs it (run ``None``: the deterministic decision) as a baseline — whose score on
negatives restates the labels it calibrated.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import dataclass
from typing import Any

from ..catalog import Catalog
from ..normalize import normalize_text
from ..schema import Call
from .slotfill import SlotFiller, multi_fill

ROUTER_VERSION = "tfidf-char1-3-v2"
NGRAMS = (1, 2, 3)
TEMPERATURE = 0.02  # sampling spread around the threshold across the K runs
DEFAULT_K = 5


def _grams(text: str) -> Counter[str]:
    t = normalize_text(text)
    c: Counter[str] = Counter()
    for n in NGRAMS:
        c.update(t[i : i + n] for i in range(max(0, len(t) - n + 1)))
    return c


def _unit(*keys: object) -> float:
    h = hashlib.blake2b("|".join(map(str, keys)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") / 2**64


@dataclass(frozen=True)
class Decision:
    tool: str | None
    score: float
    scores: dict[str, float]


class ReferenceRouter:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        texts: dict[str, list[str]] = {}
        for p in catalog.plugins:
            for t in p.tools:
                texts[t.name] = [t.description, p.name, p.description]
            for s in p.scenarios:
                if s.kind == "trigger":
                    for tn in s.tools:
                        texts[tn].append(s.description)  # examples are held out: they calibrate the threshold
        df: Counter[str] = Counter()
        grams = {name: _grams(" ".join(parts)) for name, parts in texts.items()}
        for g in grams.values():
            df.update(set(g))
        self._n_docs = len(grams)
        self._df = df
        self._docs = {name: self._vec(g) for name, g in grams.items()}
        self._extra: dict[tuple[str, str], dict[str, float]] = {}
        self.threshold = self._calibrate()

    @property
    def version(self) -> str:
        return f"{ROUTER_VERSION}+theta={self.threshold:.4f}"

    def _idf(self, g: str) -> float:
        return math.log((1 + self._n_docs) / (1 + self._df.get(g, 0))) + 1.0

    def _vec(self, grams: Counter[str]) -> dict[str, float]:
        v = {g: (1 + math.log(c)) * self._idf(g) for g, c in grams.items()}
        norm = math.sqrt(sum(x * x for x in v.values())) or 1.0
        return {g: x / norm for g, x in v.items()}

    def _doc(self, tool: dict[str, Any]) -> dict[str, float]:
        fn = tool.get("function", tool)
        name = str(fn.get("name"))
        if name in self._docs:
            return self._docs[name]
        key = (name, str(fn.get("description", "")))
        if key not in self._extra:
            self._extra[key] = self._vec(_grams(f"{name} {fn.get('description', '')}"))
        return self._extra[key]

    def scores(self, query: str, tools: list[dict[str, Any]]) -> dict[str, float]:
        q = self._vec(_grams(query))
        out = {}
        for t in tools:
            d = self._doc(t)
            name = str(t.get("function", t).get("name"))
            out[name] = sum(w * d.get(g, 0.0) for g, w in q.items())
        return out

    def _calibrate(self) -> float:
        """The threshold that best separates trigger exemplars from no-tool (neg_A) exemplars."""
        pts: list[tuple[float, int]] = []
        for p in self.catalog.plugins:
            tools = [t.openai_function() for t in p.tools]
            for s in p.scenarios:
                if s.kind in ("trigger", "neg_A"):
                    best = max(self.scores(s.example, tools).values())
                    pts.append((best, 1 if s.kind == "trigger" else 0))
        pts.sort()
        pos = sum(y for _, y in pts)
        neg = len(pts) - pos
        best_acc, best_t = -1.0, 0.1
        below_pos = below_neg = 0
        for i, (sc, y) in enumerate(pts):
            # threshold just above pts[i]: everything up to i says "no call"
            below_pos += y
            below_neg += 1 - y
            acc = 0.5 * ((pos - below_pos) / max(pos, 1) + below_neg / max(neg, 1))
            nxt = pts[i + 1][0] if i + 1 < len(pts) else sc + 0.01
            if acc > best_acc:
                best_acc, best_t = acc, (sc + nxt) / 2
        return round(best_t, 6)

    def decide(
        self, query: str, tools: list[dict[str, Any]], run: int | None = None, key: str = ""
    ) -> Decision:
        """Call the best-scoring tool if it clears the threshold. ``run`` j samples the decision with the
        fixed seed j (used for p_K); ``None`` is the deterministic decision."""
        sc = self.scores(query, tools)
        if not sc:
            return Decision(None, 0.0, sc)
        name, best = max(sc.items(), key=lambda kv: (kv[1], kv[0]))
        if run is None:
            call = best >= self.threshold
        else:
            p = 1.0 / (1.0 + math.exp(-(best - self.threshold) / TEMPERATURE))
            call = _unit(ROUTER_VERSION, key or query, run) < p
        return Decision(name if call else None, best, sc)

    def p_k(
        self, query: str, tools: list[dict[str, Any]], correct: Any, k: int = DEFAULT_K, key: str = ""
    ) -> float:
        """Share of K fixed-seed runs whose decision ``correct(tool_or_None)`` accepts."""
        return sum(1 for j in range(k) if correct(self.decide(query, tools, j, key).tool)) / k

    def predict(
        self, query: str, reference_time: str, tools: list[dict[str, Any]], annotations: dict[str, Any]
    ) -> list[Call]:
        """The baseline: the deterministic decision, arguments by the text-only slot filler; no call
        when a required argument cannot be found (it would have to ask)."""
        d = self.decide(query, tools)
        if d.tool is None:
            return []
        tool = next(t for t in tools if t.get("function", t).get("name") == d.tool)
        fills = multi_fill(SlotFiller(tool, annotations.get(d.tool)), query, reference_time)
        return [Call(name=f.tool, arguments=f.arguments) for f in fills if f.arguments is not None]
