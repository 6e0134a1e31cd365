"""The price table (``prices.toml``, USD per 1M tokens per model name) and the cost of one reply."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DEFAULT_PRICES = Path(__file__).parent / "prices.toml"
Prices = dict[str, dict[str, float]]


def _read(path: Path) -> Prices:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise FileNotFoundError(f"price table not found: {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML ({e})") from None
    models = data.get("models", {})
    if not isinstance(models, dict):
        raise ValueError(f"{path}: [models] must be a table of model names")
    out: Prices = {}
    for name, entry in models.items():
        if not isinstance(entry, dict):
            raise ValueError(f"{path}: models.{name!r} must be a table with input and output prices")
        unknown = set(entry) - {"input", "output", "cached_input"}
        if unknown:
            raise ValueError(f"{path}: models.{name!r} has unknown keys {sorted(unknown)}")
        row: dict[str, float] = {}
        for k in ("input", "output", "cached_input"):
            v = entry.get(k)
            if v is None and k != "cached_input":
                raise ValueError(f"{path}: models.{name!r} lacks {k!r} (USD per 1M tokens)")
            if v is not None:
                if isinstance(v, bool) or not isinstance(v, int | float) or v < 0:
                    raise ValueError(f"{path}: models.{name!r}.{k} must be a number ≥ 0, got {v!r}")
                row[k] = float(v)
        out[str(name)] = row
    return out


def load_prices(extra: str | Path | None = None) -> Prices:
    """The shipped table, with ``extra`` (same format) merged over it."""
    prices = _read(DEFAULT_PRICES)
    if extra is not None:
        prices.update(_read(Path(extra)))
    return prices


def price_for(prices: Prices, names: Iterable[str | None]) -> dict[str, float] | None:
    """The first exact match among ``names`` (the requested model, then the one the endpoint reports)."""
    for n in names:
        if n and n in prices:
            return prices[n]
    return None


def cost_usd(price: dict[str, float] | None, usage: dict[str, Any] | None) -> float | None:
    """USD for one reply; None when the model is not priced or the endpoint reported no usage."""
    if price is None or not usage:
        return None
    pt, ct = usage.get("prompt_tokens"), usage.get("completion_tokens")
    if not isinstance(pt, int) or not isinstance(ct, int):
        return None
    details = usage.get("prompt_tokens_details") or {}
    cached = details.get("cached_tokens") if isinstance(details, dict) else None
    cached = cached if isinstance(cached, int) and 0 <= cached <= pt else 0
    cached_price = price.get("cached_input", price["input"])
    usd = ((pt - cached) * price["input"] + cached * cached_price + ct * price["output"]) / 1_000_000
    return round(usd, 8)
