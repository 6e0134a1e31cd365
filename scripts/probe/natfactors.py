"""What the blind naturalness ratings go with: pooled over rounds, by what each rated request says.

    .venv/bin/python scripts/probe/natfactors.py --release REL [--release REL ...] DIR [DIR ...]

Each DIR is a folder of ``natural.py`` (items.jsonl, key.json, natural_*.jsonl); each REL a built
release whose records the rated requests were drawn from (a request is matched to its record by its
text; the figures say how many matched). The reference's requests are read from the DIRs
at run time and never written anywhere. Prints, for our requests and for the reference:

- the mean, the share whose reviewers' mean is 4 or more, and the share the majority judged synthetic;
- by length band (characters);
- ours by tier and by the values a request says: the arguments of its gold calls, plus one for each
  call beyond the first (``北京和上海明天天气`` says five: a city and a date twice, and the second
  call), with the best cell named;
- ours by plugin, lowest first;
- ours by scenario, weighted by the scenario's share of the first release's test split: the rating
  lost to each (share x (reference mean - scenario mean)), largest first.

The figures answer one question: is the gap to the reference a few bad forms (a few scenarios or
bands carry the loss) or how our requests are made (every cell below the target)."""

from __future__ import annotations

import argparse
import glob
import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

BANDS = ((0, 8), (9, 12), (13, 16), (17, 10_000))


def _jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def rated(dirs: list[Path]) -> list[dict[str, Any]]:
    """One row per rated item: source, tier, text, the reviewers' mean, majority synthetic."""
    out = []
    for d in dirs:
        key = json.loads((d / "key.json").read_text(encoding="utf-8"))
        text = {x["id"]: x["text"] for x in _jsonl(d / "items.jsonl")}
        reviews = [
            {x["id"]: x for x in _jsonl(Path(f))} for f in sorted(glob.glob(str(d / "natural_*.jsonl")))
        ]
        if not reviews:
            raise SystemExit(f"{d}: no natural_*.jsonl (run the reviewers first)")
        for iid, k in key.items():
            got = [rv[iid] for rv in reviews if iid in rv]
            if not got:
                continue
            synthetic = sum(g.get("origin") == "synthetic" for g in got) * 2 > len(got)
            mean = statistics.mean(g["natural"] for g in got)
            out.append(
                {
                    "source": k["source"],
                    "tier": k["tier"],
                    "text": text[iid],
                    "mean": mean,
                    "synthetic": synthetic,
                }
            )
    return out


def records(releases: list[Path], split: str = "*") -> dict[str, dict[str, Any]]:
    """The default configs' records of ``releases`` (one ``split`` or all), by request text."""
    import pyarrow.parquet as pq

    cols = ["query", "gold_calls", "kind", "difficulty", "primary_scenario", "target_plugin"]
    out: dict[str, dict[str, Any]] = {}
    for rel in releases:
        for f in sorted(glob.glob(str(rel / "data" / split / "*.parquet"))):
            if "/calendar" in f or "/plugins" in f:
                continue
            for r in pq.read_table(f, columns=cols).to_pylist():
                out.setdefault(r["query"], r)
    return out


def said(record: dict[str, Any]) -> int:
    calls = json.loads(record["gold_calls"])
    return sum(len(c["arguments"]) for c in calls) + max(0, len(calls) - 1)


def _line(name: str, xs: list[dict[str, Any]]) -> str:
    if not xs:
        return f"  {name:24} n=  0"
    mean = statistics.mean(x["mean"] for x in xs)
    high = sum(x["mean"] >= 4 for x in xs) / len(xs)
    syn = sum(x["synthetic"] for x in xs) / len(xs)
    return f"  {name:24} n={len(xs):4}  mean {mean:.2f}  >=4 {high:5.1%}  synthetic {syn:5.1%}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("dirs", nargs="+", type=Path, help="natural.py folders, rated")
    ap.add_argument(
        "--release", action="append", type=Path, required=True, help="a built release (repeatable)"
    )
    ap.add_argument("--top", type=int, default=15, help="scenarios to list (default 15)")
    a = ap.parse_args(argv)
    rows = rated(a.dirs)
    ours = [r for r in rows if r["source"] == "ours"]
    ref = [r for r in rows if r["source"] != "ours"]
    print(f"{len(a.dirs)} rounds: {len(ours)} of ours, {len(ref)} of the reference")
    print(_line("ours", ours))
    print(_line("reference", ref))
    print("by length (characters):")
    for lo, hi in BANDS:
        band = f"{lo}-{hi}" if hi < 10_000 else f"{lo}+"
        for name, xs in (("ours", ours), ("reference", ref)):
            print(_line(f"{name} {band}", [x for x in xs if lo <= len(x["text"]) <= hi]))
    recs = records(a.release)
    matched = [(r, recs[r["text"]]) for r in ours if r["text"] in recs]
    print(f"ours by tier and values said ({len(matched)} of {len(ours)} matched to a record):")
    cells: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for r, rec in matched:
        if rec["kind"] == "positive":
            cells[(rec["difficulty"], min(said(rec), 4))].append(r)
    for (tier, n), xs in sorted(cells.items()):
        print(_line(f"{tier}, {n}{'+' if n == 4 else ''} said", xs))
    big = [(statistics.mean(x["mean"] for x in xs), c) for c, xs in cells.items() if len(xs) >= 20]
    if big:
        best, (tier, n) = max(big)
        print(f"  best cell of 20 or more: {tier} saying {n}{'+' if n == 4 else ''} ({best:.2f})")
    plugins: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r, rec in matched:
        plugins[rec["target_plugin"]].append(r)
    print("ours by plugin, lowest first:")
    for p, xs in sorted(plugins.items(), key=lambda kv: (statistics.mean(x["mean"] for x in kv[1]), kv[0])):
        print(_line(p, xs))
    if not ref:
        return 0
    target = statistics.mean(x["mean"] for x in ref)
    share = Counter(
        f"{r['target_plugin']}/{r['primary_scenario']}" for r in records(a.release[:1], "test").values()
    )
    total = sum(share.values()) or 1
    by: dict[str, list[float]] = defaultdict(list)
    for r, rec in matched:
        by[f"{rec['target_plugin']}/{rec['primary_scenario']}"].append(r["mean"])
    loss = sorted(
        (
            (share[s] / total * (target - statistics.mean(v)), s, share[s], len(v), statistics.mean(v))
            for s, v in by.items()
        ),
        reverse=True,
    )
    print(
        f"rating lost per scenario (test share x ({target:.2f} - its mean)); all scenarios: {sum(x[0] for x in loss):.2f}"
    )
    for lost, s, n, k, mean in loss[: a.top]:
        print(f"  {lost:.3f}  {s:44} test {n:4}  rated {k:3}  mean {mean:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
