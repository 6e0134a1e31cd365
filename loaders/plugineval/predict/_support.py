"""Plumbing of the runner: the endpoint as the sidecar shows it, and progress. (The requests themselves
— transport, rate limit, retries, reading a completion — are the model seam's: ``plugineval.models``.)"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit


def public_url(url: str | None) -> str | None:
    """The endpoint without credentials or query string (it goes into the meta)."""
    if not url:
        return url
    p = urlsplit(url)
    host = p.hostname or ""
    if p.port:
        host += f":{p.port}"
    return urlunsplit((p.scheme, host, p.path, "", ""))


def progress_bar(
    show: bool, label: str, total: int
) -> tuple[Callable[[dict[str, Any]], None], Callable[[], None]]:
    state = {"cost": 0.0, "unpriced": 0, "errors": 0}
    bar: Any = None
    if show and total:
        try:
            from tqdm import tqdm

            bar = tqdm(total=total, desc=label, unit="pred", dynamic_ncols=True, file=sys.stderr)
        except ImportError:
            bar = None

    def tick(line: dict[str, Any]) -> None:
        if line.get("cost_usd") is None:
            state["unpriced"] += 1
        else:
            state["cost"] += float(line["cost_usd"])
        state["errors"] += 1 if line.get("error") else 0
        if bar is not None:
            cost = f"${state['cost']:.4f}" + ("+?" if state["unpriced"] else "") if state["cost"] else "n/a"
            bar.set_postfix_str(f"cost {cost} errors {int(state['errors'])}", refresh=False)
            bar.update(1)

    def close() -> None:
        if bar is not None:
            bar.close()

    return tick, close
