"""scripts/probe/natfactors.py: the pooled naturalness ratings, by what each rated request says."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("natfactors", ROOT / "scripts" / "probe" / "natfactors.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _record(query: str, calls: list[dict], difficulty: str, scenario: str) -> dict:
    return {
        "query": query,
        "gold_calls": json.dumps(calls, ensure_ascii=False),
        "kind": "positive",
        "difficulty": difficulty,
        "primary_scenario": scenario,
        "target_plugin": "weather_forecast",
    }


@pytest.fixture()
def rounds(tmp_path: Path) -> tuple[Path, Path]:
    rel = tmp_path / "rel"
    (rel / "data" / "test").mkdir(parents=True)
    one = [{"name": "weather_daily_forecast", "arguments": {"city": "北京"}}]
    two = [
        {"name": "weather_daily_forecast", "arguments": {"city": "北京", "date": "2026-03-19"}},
        {"name": "weather_daily_forecast", "arguments": {"city": "上海", "date": "2026-03-19"}},
    ]
    rows = [_record("北京天气", one, "easy", "now") for _ in range(1)]
    rows += [_record("明天北京和上海天气", two, "medium", "pair")]
    pq.write_table(pa.Table.from_pylist(rows), rel / "data" / "test" / "x.parquet")
    d = tmp_path / "nat"
    d.mkdir()
    items = [("q001", "北京天气", "ours", "easy"), ("q002", "明天北京和上海天气", "ours", "medium")]
    items += [("q003", "打开蓝牙", "reference", "reference")]
    (d / "items.jsonl").write_text(
        "".join(json.dumps({"id": i, "text": t}, ensure_ascii=False) + "\n" for i, t, _, _ in items),
        encoding="utf-8",
    )
    (d / "key.json").write_text(
        json.dumps({i: {"source": s, "tier": k} for i, _, s, k in items}), encoding="utf-8"
    )
    scores = {"A": {"q001": 4, "q002": 2, "q003": 5}, "B": {"q001": 5, "q002": 3, "q003": 5}}
    for reviewer, given in scores.items():
        lines = [
            json.dumps({"id": i, "natural": n, "origin": "real" if n >= 4 else "synthetic"})
            for i, n in given.items()
        ]
        (d / f"natural_{reviewer}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return rel, d


def test_said_counts_arguments_and_each_further_call(rounds: tuple[Path, Path]) -> None:
    mod = _module()
    rel, _ = rounds
    recs = mod.records([rel])
    assert mod.said(recs["北京天气"]) == 1
    assert mod.said(recs["明天北京和上海天气"]) == 5  # four arguments and one further call


def test_figures(rounds: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    rel, d = rounds
    assert _module().main(["--release", str(rel), str(d)]) == 0
    out = capsys.readouterr().out
    assert "1 rounds: 2 of ours, 1 of the reference" in out
    assert "ours                     n=   2  mean 3.50  >=4 50.0%  synthetic 50.0%" in out
    assert "easy, 1 said             n=   1  mean 4.50" in out
    assert "medium, 4+ said          n=   1  mean 2.50" in out
    assert out.index("  weather_forecast         n=   2  mean 3.50") > out.index("ours by plugin")
    # test share x (reference 5.00 - its mean): 0.5 x 2.5 for the pair, 0.5 x 0.5 for the one city
    assert "1.250  weather_forecast/pair" in out
    assert "0.250  weather_forecast/now" in out


def test_a_round_without_ratings_is_named(rounds: tuple[Path, Path]) -> None:
    rel, d = rounds
    for f in d.glob("natural_*.jsonl"):
        f.unlink()
    with pytest.raises(SystemExit, match="no natural_"):
        _module().main(["--release", str(rel), str(d)])
