"""Matplotlib figures (Agg backend; ASCII labels so that no CJK font is needed).

Names are text: a model name is never read as matplotlib math text (every ``$`` is escaped, so a
name such as ``$x^$`` shows as typed), and a leading ``_`` does not hide it from the legend. The
leaderboard's plots draw from the rows' stored summaries (``summary.py``): recall per difficulty
and the error profile's rates, at most ``summary.PLOT_ROWS`` models.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from plugineval import entries as E
from plugineval import metrics as M
from plugineval.schema import DIFFICULTIES

ERRORS = [
    ("miss_recall", "miss"),
    ("temporal", "param: temporal"),
    ("missing_argument", "param: missing"),
    ("incorrect_value", "param: value"),
    ("spurious_call", "spurious"),
    ("invalid_output_pos", "invalid (pos)"),
    ("over_recall", "over recall (neg)"),
]
COLORS = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c"]


_RENDERED: OrderedDict[str, Any] = OrderedDict()  # the data drawn → its figure (rendered once per format)
_RENDERED_MAX = 64
_RENDERED_LOCK = threading.Lock()


def _rendered_class() -> type:
    from matplotlib.figure import Figure

    class Rendered(Figure):
        """A figure that renders once per format: Gradio's Plot calls ``savefig`` on every response,
        and the leaderboard's plots are the same until the rows shown change."""

        __module__ = "matplotlib.figure"  # how Gradio's Plot recognizes a matplotlib figure

        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            self._bytes: dict[str, bytes] = {}
            self._lock = threading.Lock()

        def render_with(self, run: Any, fmt: str = "webp") -> None:
            """Render ``fmt`` now through ``run(fn, figure)`` (e.g. in a child process, so that the
            server's interpreter lock stays free), keeping the bytes for ``savefig``; on failure the
            figure renders itself when asked."""
            key = repr(((), [("format", fmt)]))
            if key in self._bytes:
                return
            try:
                data = run(_render, self, fmt)
            except Exception:
                return
            with self._lock:
                self._bytes.setdefault(key, data)

        def savefig(self, fname: Any, *a: Any, **kw: Any) -> None:
            key = repr((a, sorted(kw.items())))
            with self._lock:
                data = self._bytes.get(key)
                if data is None:
                    buf = io.BytesIO()
                    super().savefig(buf, *a, **kw)
                    data = self._bytes[key] = buf.getvalue()
            if hasattr(fname, "write"):
                fname.write(data)
            else:
                with open(fname, "wb") as f:
                    f.write(data)

    return Rendered


_CLASS: list[type] = []


def _render(fig: Any, fmt: str) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt)
    return buf.getvalue()


def _figure(width: float, height: float) -> tuple[Any, Any]:
    """A figure outside pyplot (no global state: safe from concurrent requests)."""
    if not _CLASS:
        _CLASS.append(_rendered_class())
    fig = _CLASS[0](figsize=(width, height), dpi=90, layout="constrained")
    return fig, fig.subplots()


def cached(kind: str, data: Any) -> Any:
    """The figure drawn from ``data`` before (same kind, same data), else None (nothing is drawn)."""
    key = f"{kind}:{data!r}"
    with _RENDERED_LOCK:
        fig = _RENDERED.get(key)
        if fig is not None:
            _RENDERED.move_to_end(key)
        return fig


def remember(kind: str, data: Any, fig: Any) -> None:
    """Keep ``fig`` as the figure of ``data`` (the most recent ``_RENDERED_MAX`` are kept)."""
    with _RENDERED_LOCK:
        _RENDERED[f"{kind}:{data!r}"] = fig
        while len(_RENDERED) > _RENDERED_MAX:
            _RENDERED.popitem(last=False)


def _cached(kind: str, data: Any, draw: Any) -> Any:
    """The figure drawn from ``data`` before (same kind, same data), else ``draw()``'s."""
    fig = cached(kind, data)
    if fig is None:
        fig = draw()
        remember(kind, data, fig)
    return fig


def _ascii(s: str, n: int = 28) -> str:
    """A name as plain text for a plot: ASCII, at most ``n`` characters, no math text (``$`` escaped:
    matplotlib then shows it literally), never hidden from a legend by a leading ``_``."""
    a = s.encode("ascii", "replace").decode("ascii")
    a = a if len(a) <= n else a[: n - 1] + "~"
    a = a.replace("$", r"\$")
    return " " + a if a.startswith("_") else a


def of_verdicts(entries: Sequence[Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """What the two plots need from a list of verdicts: (recall per difficulty, error rates)."""
    return M.breakdown(list(entries), E.DIFFICULTY), M.summarize(entries)["rates"]


def recall_by_difficulty(named: Sequence[tuple[str, Mapping[str, Any]]]) -> Any:
    """Grouped bars: recall on easy / medium / hard for each model (``breakdown`` by difficulty)."""
    return _cached("recall", named, lambda: _recall_by_difficulty(named))


def _recall_by_difficulty(named: Sequence[tuple[str, Mapping[str, Any]]]) -> Any:
    fig, ax = _figure(8, 3.6)
    n = max(len(named), 1)
    width = 0.8 / n
    for i, (name, by) in enumerate(named):
        vals = [100 * (by.get(d, {}).get("recall") or 0.0) for d in DIFFICULTIES]
        xs = [k + (i - (n - 1) / 2) * width for k in range(3)]
        ax.bar(xs, vals, width, label=_ascii(name), color=COLORS[i % len(COLORS)])
    ax.set_xticks(range(3), [d for d in DIFFICULTIES])
    ax.set_ylabel("Recall (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Recall per difficulty")
    if named:
        ax.legend(fontsize=7, ncols=min(n, 3), loc="upper right")
    return fig


def build(kind: str, named: Sequence[tuple[str, Mapping[str, Any]]]) -> Any:
    """A leaderboard plot drawn now, not looked up nor kept: ``recall`` (per difficulty) or ``errors``
    (the error profile)."""
    return {"recall": _recall_by_difficulty, "errors": _error_profile}[kind](named)


def error_profile(named: Sequence[tuple[str, Mapping[str, Any]]]) -> Any:
    """Horizontal stacked bars: each failure category as a share of its denominator (``summarize``'s
    rates of each model)."""
    return _cached("errors", named, lambda: _error_profile(named))


def _error_profile(named: Sequence[tuple[str, Mapping[str, Any]]]) -> Any:
    fig, ax = _figure(8, 1.9 + 0.3 * max(len(named), 1))
    ys = list(range(len(named)))
    left = [0.0] * len(named)
    for j, (key, label) in enumerate(ERRORS):
        vals = [100 * (rates.get(key) or 0.0) for _, rates in named]
        ax.barh(ys, vals, left=left, label=label, color=COLORS[j % len(COLORS)])
        left = [a + b for a, b in zip(left, vals, strict=True)]
    ax.set_yticks(ys, [_ascii(n) for n, _ in named])
    ax.invert_yaxis()
    ax.set_xlabel("% of positives (over recall: % of negatives)")
    ax.set_title("Error profile")
    fig.legend(fontsize=7, ncols=4, loc="outside lower center")
    return fig


def side_by_side(name_a: str, a: Sequence[dict[str, Any]], name_b: str, b: Sequence[dict[str, Any]]) -> Any:
    """Two models on the same axes: overall, per difficulty and per kind (recall on positives,
    share decided correctly on negatives)."""
    groups: list[tuple[str, Any]] = [("all", None)] + [(d, (E.DIFFICULTY, d)) for d in DIFFICULTIES]
    kinds = sorted({e[E.KIND] for e in [*a, *b]})  # stored verdicts, in their JSON form
    groups += [(k, (E.KIND, k)) for k in kinds]

    def score(entries: Sequence[dict[str, Any]], sel: Any) -> float:
        es = [e for e in entries if sel is None or e[sel[0]] == sel[1]]
        s = M.summarize(es)
        if (sel is not None and sel[0] == E.KIND and sel[1] != E.POSITIVE) or sel is None:
            v = s["accuracy"]
        else:
            v = s["recall"]
        return 100 * (v or 0.0)

    fig, ax = _figure(8, 3.6)
    xs = range(len(groups))
    ax.bar(
        [x - 0.2 for x in xs], [score(a, g) for _, g in groups], 0.4, label=_ascii(name_a), color=COLORS[0]
    )
    ax.bar(
        [x + 0.2 for x in xs], [score(b, g) for _, g in groups], 0.4, label=_ascii(name_b), color=COLORS[1]
    )
    ax.set_xticks(
        list(xs), [("accuracy" if g is None else lbl) for lbl, g in groups], rotation=20, fontsize=8
    )
    ax.set_ylim(0, 105)
    ax.set_ylabel("%")
    ax.set_title("Side by side (accuracy overall and on negatives; recall on positives / difficulties)")
    ax.title.set_fontsize(9)
    ax.legend(fontsize=8)
    return fig
