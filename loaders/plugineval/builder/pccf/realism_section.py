"""The realism profile of each split of a release, beside the reference profile of real requests:
for the build report and the card (docs/authoring.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from plugineval.realism import GIVEAWAYS, RARE_FORMS, profile
from plugineval.schema import SPLITS

REFERENCE = Path(__file__).resolve().parents[1] / "real" / "realism_reference.json"
RARE_LIMIT = 0.02  # each rare form at most 2 % of a default split (docs/authoring.md)


def reference() -> dict[str, Any] | None:
    """The aggregate profile of a corpus of real requests (``benchmarks/realism_profile.py
    --write-reference``), with its origin; None when the file is absent."""
    if not REFERENCE.exists():
        return None
    out: dict[str, Any] = json.loads(REFERENCE.read_text(encoding="utf-8"))
    return out


def realism_of(records: dict[str, list[Any]]) -> dict[str, Any]:
    """Per split, the profile of its records (``Record`` objects or rows)."""
    out: dict[str, Any] = {}
    for split in SPLITS:
        recs = records.get(split) or []
        rows = [r if isinstance(r, dict) else r.to_row() for r in recs]
        if rows:
            out[split] = profile(rows)
    ref = reference()
    return {"splits": out, "reference": ref}


def realism_by_split(release: Path) -> dict[str, Any]:
    import pyarrow.parquet as pq

    records: dict[str, list[Any]] = {}
    for split in SPLITS:
        for f in sorted((release / "data" / split).glob("*.parquet")):
            records.setdefault(split, []).extend(pq.ParquetFile(f).read().to_pylist())
    return realism_of(records)


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def realism_markdown(r: dict[str, Any]) -> str:
    """A table: one column per split and one for the reference, a row per measure; a rare form over
    the 2 % bound is marked."""
    cols = list(r["splits"])
    profs = [r["splits"][c] for c in cols]
    ref = r.get("reference")
    if ref:
        cols.append("real requests (reference)")
        profs.append(ref["profile"])
    head = "| | " + " | ".join(cols) + " |"
    lines = [head, "|---" * (len(cols) + 1) + "|"]

    def row(name: str, vals: list[str]) -> None:
        lines.append(f"| {name} | " + " | ".join(vals) + " |")

    row("requests", [str(p["n"]) for p in profs])
    row("median length (chars)", [str(p["length"]["median"]) for p in profs])
    row(
        "p25 / p75 / p90 length",
        [f"{p['length']['p25']} / {p['length']['p75']} / {p['length']['p90']}" for p in profs],
    )
    row("≤ 10 characters", [_pct(p["short_share"]) for p in profs])
    for k in RARE_FORMS:
        row(
            k.replace("_", " "),
            [_pct(p["rare_forms"][k]) + (" ⚠" if p["rare_forms"][k] > RARE_LIMIT else "") for p in profs],
        )
    for k in GIVEAWAYS:
        row(k.replace("_", " "), [_pct(p["giveaways"][k]) for p in profs])
    row("from real requests", [_pct(p["real_share"]) for p in profs])
    kinds = sorted({k for p in profs for k in p.get("kinds", {})})
    for k in kinds:
        row(f"kind {k}", [_pct(p.get("kinds", {}).get(k, 0.0)) if p.get("kinds") else "—" for p in profs])
    out = "\n".join(lines)
    if ref:
        out += f"\n\nReference: {ref['origin']}"
    return out
