"""The leaderboard's two plots, drawn off the request path (docs/space.md, "Speed at scale").

A load asks for the plots of the rows it shows (``summary.PLOT_ROWS`` at most, from their stored
summaries). A figure drawn before from the same data is served at once. Otherwise the load serves the
last figure drawn (of other rows: the page's note says the plots are being redrawn) together with the
fresh table, and hands the new data to the background drawer: one thread, which keeps only the newest
wish per plot (a burst of loads, or of new rows, makes one redraw each), builds the figure and renders
it in the pool (a child process: rendering holds the interpreter lock for up to a second), then keeps
it for the next load. A load never waits for a redraw. Only a process's very first figure of each plot
is drawn while a load waits, since there is no earlier one to show; the Space's warm-up after seeding
and after each written row draws it before a visitor asks, as a rule.
"""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from . import plots

log = logging.getLogger(__name__)
FORMAT = "webp"  # as Gradio's Plot sends a matplotlib figure (its default format)
KINDS = ("recall", "errors")

Named = Sequence[tuple[str, Mapping[str, Any]]]


class Redrawer:
    """The leaderboard plots' figures: ``figures`` for a load, ``wait`` for the drawer to be idle.
    ``run(fn, *args)`` renders a figure (in the pool); None renders in the drawing thread."""

    def __init__(self, run: Callable[..., Any] | None = None) -> None:
        self.run = run
        self._lock = threading.Lock()
        self._last: dict[str, Any] = {}  # kind → the last figure drawn
        self._want: dict[str, Named] = {}  # kind → the newest data asked for and not drawn yet
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()
        self.drawn = 0  # figures drawn in the background
        self.drawn_waiting = 0  # figures drawn while a load waited (the first of each plot)

    def figures(self, data: Mapping[str, Named]) -> tuple[list[Any], bool]:
        """The figure of each plot (``{kind: named rows}``, in order), and whether any of them shows
        other rows than asked (the last one drawn, while the new one is drawn in the background)."""
        out: dict[str, Any] = {}
        first: list[str] = []
        stale = False
        for kind, named in data.items():
            fig = plots.cached(kind, named)
            if fig is None:
                with self._lock:
                    fig = self._last.get(kind)
                if fig is None:
                    first.append(kind)
                    continue
                stale = True
                self._ask(kind, named)
            out[kind] = fig
        if first:  # nothing drawn yet to show: the first figures, each rendered in a child, both at once
            got: dict[str, Any] = {}

            def draw(k: str) -> None:
                got[k] = self._draw(k, data[k])

            threads = [threading.Thread(target=draw, args=(k,)) for k in first]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            self.drawn_waiting += len(first)
            for k in first:
                out[k] = got.get(k) if got.get(k) is not None else self._draw(k, data[k])
        return [out[k] for k in data], stale

    def wait(self, timeout: float | None = None) -> bool:
        """Until nothing is left to redraw (True), or ``timeout`` seconds (False)."""
        return self._idle.wait(timeout)

    def _draw(self, kind: str, named: Named) -> Any:
        fig = plots.build(kind, named)
        if self.run is not None:
            fig.render_with(self.run, FORMAT)
        fig.savefig(io.BytesIO(), format=FORMAT)  # rendered here if the pool could not (kept either way)
        plots.remember(kind, named, fig)
        with self._lock:
            self._last[kind] = fig
        return fig

    def _ask(self, kind: str, named: Named) -> None:
        with self._lock:
            self._want[kind] = named
            if self._thread is None:
                self._idle.clear()
                self._thread = threading.Thread(target=self._work, name="redraw", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            with self._lock:
                if not self._want:
                    self._thread = None
                    self._idle.set()
                    return
                kind = next(iter(self._want))
                named = self._want.pop(kind)
            if plots.cached(kind, named) is not None:
                continue
            try:
                self._draw(kind, named)
                self.drawn += 1
            except Exception:  # the last figure stays; the next load asks again
                log.exception("redrawing the leaderboard's %s plot failed", kind)
