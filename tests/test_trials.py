"""Repeated trials: ``plugineval predict --trials K`` (a seeded-noise baseline, and an endpoint with
seeds: the package's mock provider), and ``plugineval evaluate`` over the K files: each metric's
mean and spread, pass^k of the positives, the typed ``trials`` field; one file's report unchanged."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path
from typing import Any

import pytest

from plugineval.cli import main
from plugineval.predict import PredictConfig, read_run_meta, run_trials
from plugineval.report import Report
from plugineval.schema import Record
from plugineval.scoring import evaluate
from plugineval.sources import load_records
from plugineval.trials import TrialsError, TrialsSummary, pass_hat_k, trial_index, trial_paths

from fake_openai import MockServer, tool_call


@pytest.fixture(scope="module")
def records(mini_release: Path) -> list[Record]:
    return load_records(mini_release, "test")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_trial_paths_are_named_predictably() -> None:
    assert trial_paths("out/preds.jsonl", 1) == [Path("out/preds.jsonl")]
    assert trial_paths("out/preds.jsonl", 3) == [Path(f"out/preds.t{i}.jsonl") for i in (1, 2, 3)]
    assert [trial_index(p) for p in trial_paths("a.b.jsonl", 2)] == [1, 2]
    assert trial_index("preds.jsonl") is None


def test_pass_hat_k_is_the_unbiased_estimator() -> None:
    outcomes = {"a": ["TP", "TP", "TP"], "b": ["TP", "FN", "TP"], "c": ["FN"] * 3, "n": ["FP", "TN", "TN"]}
    kinds = {"a": "positive", "b": "positive", "c": "positive", "n": "neg_A"}
    n, pk = pass_hat_k(outcomes, kinds)
    assert n == 3
    assert pk["1"] == pytest.approx((1 + 2 / 3 + 0) / 3)  # the mean recall over trials
    assert pk["2"] == pytest.approx((1 + math.comb(2, 2) / math.comb(3, 2)) / 3)
    assert pk["3"] == pytest.approx(1 / 3)  # the share every trial got right


def test_baseline_trials_with_seeded_noise_end_to_end(
    tmp_path: Path, mini_release: Path, records: list[Record], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "always.jsonl"
    argv = ["predict", "--model", "baseline:always-call", "--records", str(mini_release), "--out", str(out)]
    assert main([*argv, "--trials", "3"]) == 2
    assert "is deterministic" in capsys.readouterr().err and not any(tmp_path.iterdir())
    assert main([*argv, "--trials", "3", "--noise", "0.3", "--seed", "5"]) == 0
    files = trial_paths(out, 3)
    assert all(f.exists() for f in files) and not out.exists()
    assert "plugineval evaluate " + " ".join(map(str, files)) in capsys.readouterr().out
    for i, f in enumerate(files, 1):
        meta = read_run_meta(f)
        assert meta is not None and meta["trial"] == {"index": i, "of": 3, "seed": 4 + i}
        assert meta["settings"]["noise"] == 0.3 and meta["status"] == "complete"
    assert len({f.read_bytes() for f in files}) == 3  # the trials differ
    # the same command again resumes: nothing asked twice, nothing changes
    before = [f.read_bytes() for f in files]
    assert main([*argv, "--trials", "3", "--noise", "0.3", "--seed", "5"]) == 0
    assert [f.read_bytes() for f in files] == before

    singles = [evaluate(f, records, judge="rules") for f in files]
    rep = evaluate(files, records, judge="rules")
    t = rep.trials
    assert isinstance(t, TrialsSummary) and t.k == 3 and [x.seed for x in t.files] == [5, 6, 7]
    assert rep.metrics == singles[0].metrics and rep.per_record == singles[0].per_record
    recalls = [s.recall for s in singles]
    assert t.metrics["recall"].values == recalls
    assert t.metrics["recall"].mean == pytest.approx(statistics.mean(recalls))
    assert t.metrics["recall"].std == pytest.approx(statistics.stdev(recalls))
    assert (t.metrics["recall"].min, t.metrics["recall"].max) == (min(recalls), max(recalls))
    assert "mixture.original.recall" in t.metrics and "over_recall" in t.metrics
    pos = [r.id for r in records if r.kind == "positive"]
    every = sum(all(s.per_record[i]["outcome"] == "TP" for s in singles) for i in pos) / len(pos)
    assert t.positives == len(pos) and t.pass_k["3"] == pytest.approx(every)
    assert t.pass_k["1"] == pytest.approx(statistics.mean(recalls))
    assert t.pass_k["1"] >= t.pass_k["2"] >= t.pass_k["3"]  # type: ignore[operator]

    # the CLI: a table with the spread, report.json with the typed field, the markdown section
    rj, md = tmp_path / "r.json", tmp_path / "r.md"
    assert (
        main(
            [
                "evaluate",
                *map(str, files),
                "--records",
                str(mini_release),
                "--judge",
                "rules",
                "--out",
                str(rj),
                "--markdown",
                str(md),
            ]
        )
        == 0
    )
    printed = capsys.readouterr().out
    assert "trials 3" in printed and "pass^k" in printed
    saved = json.loads(rj.read_text(encoding="utf-8"))
    assert (
        saved["trials"]["format"] == "plugineval-trials/1"
        and "sample standard deviation" in saved["trials"]["spread"]
    )
    assert saved["trials"]["outcomes"][pos[0]] == [s.per_record[pos[0]]["outcome"] for s in singles]
    assert Report.load(rj).trials == TrialsSummary.model_validate(saved["trials"])
    text = md.read_text(encoding="utf-8")
    assert "## 3 trials" in text and "pass^3" in text and "| recall |" in text


def test_one_file_gives_the_same_report_bytes(
    tmp_path: Path, mini_release: Path, records: list[Record]
) -> None:
    out = tmp_path / "never.jsonl"
    assert (
        main(["predict", "--model", "baseline:never-call", "--records", str(mini_release), "--out", str(out)])
        == 0
    )
    a, b = evaluate(out, records, judge="rules"), evaluate([out], records, judge="rules")
    a.save(tmp_path / "a.json")
    b.save(tmp_path / "b.json")
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert "trials" not in json.loads((tmp_path / "a.json").read_text(encoding="utf-8"))
    assert a.to_markdown() == b.to_markdown() and "trials" not in a.to_markdown()


def _gold(records: list[Record]) -> Any:
    by_q = {r.query: r for r in records}

    def run(body: dict[str, Any]) -> dict[str, Any]:
        rec = by_q[body["messages"][-1]["content"]]
        # seed 8 (trial 2) misses the positives whose id ends in an even digit
        if rec.gold_calls and not (body.get("seed") == 8 and rec.id[-1] in "02468"):
            return {
                "tool_calls": [tool_call(c.name, c.arguments, f"c{i}") for i, c in enumerate(rec.gold_calls)]
            }
        return {"content": "不需要调用工具。"}

    return run


def test_endpoint_trials_send_seeds_and_temperature_zero_needs_one(
    tmp_path: Path, records: list[Record]
) -> None:
    with MockServer(_gold(records)) as srv:
        cfg = PredictConfig(
            model="fake-model",
            out=tmp_path / "p.jsonl",
            base_url=srv.base_url,
            concurrency=2,
            max_retries=0,
            retry_rounds=0,
            timeout_s=10.0,
            progress=False,
            trials=2,
        )
        with pytest.raises(ValueError, match="temperature 0 without --seed"):
            run_trials(cfg, records)
        assert not srv.requests
        runs = run_trials(PredictConfig(**{**cfg.__dict__, "seed": 7}), records)
    assert [s.status for s in runs] == ["complete", "complete"]
    assert sorted({b["seed"] for b in srv.requests}) == [7, 8]
    assert all(b["temperature"] == 0 for b in srv.requests)
    t1, t2 = trial_paths(tmp_path / "p.jsonl", 2)
    assert (read_run_meta(t2) or {})["request"]["seed"] == 8
    rep = evaluate([t1, t2], records, judge="rules")
    assert rep.trials is not None and rep.trials.metrics["recall"].values[0] == 1.0
    assert rep.trials.pass_k["2"] == rep.trials.metrics["recall"].values[1]


def test_evaluate_refuses_files_that_are_not_trials_of_one_run(tmp_path: Path, records: list[Record]) -> None:
    def write(name: str, model: str, ids: list[str]) -> Path:
        p = tmp_path / name
        p.write_text("".join(json.dumps({"id": i, "calls": [], "model": model}) + "\n" for i in ids))
        return p

    ids = sorted(r.id for r in records)
    a, b = write("a.jsonl", "m1", ids), write("b.jsonl", "m2", ids)
    with pytest.raises(TrialsError, match=r"b.jsonl: model 'm2'.*trials must be of one model"):
        evaluate([a, b], records, judge="rules")
    c = write("c.jsonl", "m1", ids[1:])
    with pytest.raises(TrialsError, match=r"c.jsonl: its record ids differ"):
        evaluate([a, c], records, judge="rules")
    with pytest.raises(TrialsError, match="given twice"):
        evaluate([a, a], records, judge="rules")
    d = write("d.jsonl", "m1", ids)
    for p, temp in ((a, 0.7), (d, 0.2)):
        (tmp_path / f"{p.name}.meta.json").write_text(
            json.dumps(
                {"format": "plugineval-predict-meta/1", "model": "m1", "settings": {"temperature": temp}}
            )
        )
    with pytest.raises(TrialsError, match=r"d.jsonl: not a trial of the same run.*temperature: 0.7 vs 0.2"):
        evaluate([a, d], records, judge="rules")
