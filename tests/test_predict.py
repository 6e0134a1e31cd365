"""``plugineval predict``: the model role end to end (the real ``openai`` client against a local server,
and a server that dies or a process killed mid-run), the rest on the package's mock provider (reply
forms, retries, refusals, resumability), the prompt-based parser, and the three offline baselines
scored end to end by ``plugineval.evaluate``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from plugineval.cli import main
from plugineval.predict import PredictConfig, Unparsable, parse_reply, read_run_meta, run_predict
from plugineval.predict._output import PredictionsWriter
from plugineval.schema import Record
from plugineval.scoring import evaluate
from plugineval.sources import load_records

from fake_openai import (
    FakeOpenAI,
    HTTPFail,
    MockServer,
    dies_after,
    fails_first,
    hermes_content,
    tool_call,
    with_reasoning,
)

MINI = Path(__file__).parent / "data" / "mini.toml"


@pytest.fixture(scope="module")
def release(mini_release: Path) -> Path:
    return mini_release


@pytest.fixture(scope="module")
def records(release: Path) -> list[Record]:
    recs = load_records(release, "test")
    assert any(r.is_positive for r in recs) and any(not r.is_positive for r in recs)
    return recs


def _by_query(records: list[Record]) -> dict[str, Record]:
    return {r.query: r for r in records}


def gold_answer(records: list[Record], broken: set[str] = frozenset()) -> Any:  # type: ignore[assignment]
    """A perfect native model: the gold calls for positives, text for negatives; ``broken`` ids get
    a tool call whose arguments are not JSON."""
    by_q = _by_query(records)

    def run(body: dict[str, Any]) -> dict[str, Any]:
        rec = by_q[body["messages"][-1]["content"]]
        if rec.id in broken:
            return {"tool_calls": [tool_call(rec.gold_calls[0].name, '{"from": "北京", ')]}
        if rec.gold_calls:
            return {
                "tool_calls": [
                    tool_call(c.name, c.arguments, f"call_{i}") for i, c in enumerate(rec.gold_calls)
                ]
            }
        return {"content": "这个请求我不需要调用工具，或者请告诉我更多信息。"}

    return run


def _cfg(tmp: Path, srv: FakeOpenAI | MockServer, **kw: Any) -> PredictConfig:
    base: dict[str, Any] = {
        "model": "fake-model",
        "out": tmp / "preds.jsonl",
        "base_url": srv.base_url,
        "concurrency": 4,
        "max_retries": 1,
        "retry_rounds": 1,
        "retry_backoff_s": 0.01,
        "timeout_s": 10.0,
        "progress": False,
    }
    base.update(kw)
    return PredictConfig(**base)


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_native_tool_calls_score_as_the_gold(tmp_path: Path, records: list[Record]) -> None:
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."fake-model"]\ninput = 2.0\noutput = 8.0\n', encoding="utf-8")
    with FakeOpenAI(gold_answer(records)) as srv:
        s = run_predict(_cfg(tmp_path, srv, parallel_tool_calls="false", prices=prices), records)
    assert s.status == "complete" and s.written == len(records)
    body = srv.requests[0]
    rec = _by_query(records)[body["messages"][-1]["content"]]
    system = body["messages"][0]["content"]
    assert body["messages"][0]["role"] == "system" and rec.reference_time in system and "UTC+08:00" in system
    assert body["tools"] == rec.tools and body["tool_choice"] == "auto"
    assert body["temperature"] == 0 and body["parallel_tool_calls"] is False and body["model"] == "fake-model"
    lines = _lines(s.out)
    assert [x["id"] for x in lines] == sorted(r.id for r in records)
    for x in lines:
        assert x["model"] == "fake-model" and x["usage"]["prompt_tokens"] == 10 and x["latency_ms"] >= 0
        assert x["cost_usd"] == pytest.approx((10 * 2.0 + 5 * 8.0) / 1e6)
        assert "raw" in x and "error" not in x
    report = evaluate(s.out, records, judge="rules")
    assert report.accuracy == 1.0 and report.recall == 1.0
    meta = read_run_meta(s.out)
    assert meta is not None and meta["prompt_version"] == "system_v1" and meta["status"] == "complete"
    assert meta["request"]["parallel_tool_calls"] == "false" and meta["request"]["temperature"] == 0.0
    assert meta["totals"]["cost_usd"] == pytest.approx(len(records) * 60 / 1e6)


def test_unknown_model_has_no_cost_and_auto_sends_no_parallel_flag(
    tmp_path: Path, records: list[Record]
) -> None:
    with MockServer(gold_answer(records)) as srv:
        s = run_predict(_cfg(tmp_path, srv, limit=3), records)
    assert all("parallel_tool_calls" not in b for b in srv.requests)
    lines = _lines(s.out)
    assert len(lines) == 3 and all("cost_usd" not in x for x in lines)
    assert s.meta["totals"]["cost_usd"] is None and s.meta["records"]["n_selected"] == 3


def test_malformed_tool_call_json_scores_invalid_output(tmp_path: Path, records: list[Record]) -> None:
    pos = sorted(r.id for r in records if r.gold_calls)[0]
    with MockServer(gold_answer(records, broken={pos})) as srv:
        s = run_predict(_cfg(tmp_path, srv), records)
    line = next(x for x in _lines(s.out) if x["id"] == pos)
    assert line["tool_calls"][0]["function"]["arguments"] == '{"from": "北京", '
    pr = evaluate(s.out, records, judge="rules").per_record
    assert pr[pos]["outcome"] == "FN" and pr[pos]["category"] == "invalid_output"
    assert all(e["outcome"] in ("TP", "TN") for i, e in pr.items() if i != pos)


def test_prompted_mode_parses_calls_from_the_reply(tmp_path: Path, records: list[Record]) -> None:
    by_q = _by_query(records)
    pos = sorted(r.id for r in records if r.gold_calls)
    garbled = pos[0]

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        assert "tools" not in body
        rec = by_q[body["messages"][-1]["content"]]
        assert all(t["function"]["name"] in body["messages"][0]["content"] for t in rec.tools)
        if rec.id == garbled:
            return {"content": '好的：\n```json\n[{"name": "x", "arguments": {"a": 1}\n```'}
        if rec.gold_calls:
            calls = [{"name": c.name, "arguments": c.arguments} for c in rec.gold_calls]
            return {
                "content": "好的，我来查询。\n```json\n" + json.dumps(calls, ensure_ascii=False) + "\n```"
            }
        return {"content": "这个不需要工具。"}

    with MockServer(reply) as srv:
        s = run_predict(_cfg(tmp_path, srv, mode="prompted"), records)
    lines = {x["id"]: x for x in _lines(s.out)}
    assert lines[garbled]["error"].startswith("unparsable_output")
    assert "```json" in lines[garbled]["raw"]["content"] and lines[garbled]["raw"]["finish_reason"] == "stop"
    assert s.meta["prompt_version"] == "prompted_v1" and s.meta["totals"]["unparsable_output"] == 1
    pr = evaluate(s.out, records, judge="rules").per_record
    assert pr[garbled]["category"] == "invalid_output"
    assert all(e["outcome"] in ("TP", "TN") for i, e in pr.items() if i != garbled)


@pytest.mark.parametrize(
    ("text", "calls"),
    [
        ("北京今天天气不错。", []),
        ('```json\n[{"name": "t", "arguments": {"a": 1}}]\n```', [{"name": "t", "arguments": {"a": 1}}]),
        ('```\n{"name": "t", "arguments": "{\\"a\\": 2}"}\n```', [{"name": "t", "arguments": {"a": 2}}]),
        (
            '[{"name": "t", "arguments": {}}, {"name": "u"}]',
            [{"name": "t", "arguments": {}}, {"name": "u", "arguments": {}}],
        ),
        ('我来调用 {"name": "t", "arguments": {"q": "x"}} 就好', [{"name": "t", "arguments": {"q": "x"}}]),
        ("```json\n[]\n```\n不需要调用。", []),
        ("```python\nprint(1)\n```", []),
    ],
)
def test_parse_reply_accepts(text: str, calls: list[dict[str, Any]]) -> None:
    assert parse_reply(text) == calls


@pytest.mark.parametrize(
    "text",
    [
        '```json\n[{"name": "t", "arguments": {"a": 1}\n```',
        '{"name": "t", "arguments": [1, 2]}',
        '```json\n[{"arguments": {"a": 1}}]\n```',
        '调用 {"name": "t", "arguments": {"a": 1 这里断了',
        '[{"name": "t", "arguments": "{bad"}]',
    ],
)
def test_parse_reply_rejects(text: str) -> None:
    with pytest.raises(Unparsable):
        parse_reply(text)


def test_429_then_success_is_retried(tmp_path: Path, records: list[Record]) -> None:
    with MockServer(fails_first(1, 429, gold_answer(records))) as srv:
        s = run_predict(_cfg(tmp_path, srv, concurrency=1, limit=2), records)
    assert len(srv.requests) == 3 and s.status == "complete"
    assert all("error" not in x for x in _lines(s.out))


def test_runner_retries_what_the_client_gave_up_on(tmp_path: Path, records: list[Record]) -> None:
    with MockServer(fails_first(2, 503, gold_answer(records))) as srv:
        s = run_predict(_cfg(tmp_path, srv, concurrency=1, limit=1, max_retries=0, retry_rounds=3), records)
    assert len(srv.requests) == 3 and s.status == "complete" and s.meta["runs"][-1]["retries"] == 2
    assert "error" not in _lines(s.out)[0]


def test_auth_error_stops_at_once_and_writes_nothing(tmp_path: Path, records: list[Record]) -> None:
    def deny(body: dict[str, Any]) -> dict[str, Any]:
        raise HTTPFail(401, "bad key")

    with MockServer(deny) as srv:
        s = run_predict(_cfg(tmp_path, srv, concurrency=1), records)
    assert s.status == "incomplete" and s.message and "401" in s.message and s.written == 0
    assert len(srv.requests) == 1 and _lines(s.out) == []


def test_a_refused_record_becomes_an_error_line_but_a_refused_model_stops(
    tmp_path: Path, records: list[Record]
) -> None:
    good = gold_answer(records)
    by_q = _by_query(records)
    victim = sorted(r.id for r in records)[3]

    def some(body: dict[str, Any]) -> dict[str, Any]:
        if by_q[body["messages"][-1]["content"]].id == victim:
            raise HTTPFail(400, "prompt too long")
        return good(body)

    with MockServer(some) as srv:
        s = run_predict(_cfg(tmp_path, srv, concurrency=1), records)
    line = next(x for x in _lines(s.out) if x["id"] == victim)
    assert s.status == "complete" and line["error"].startswith("request_failed: 400")
    assert evaluate(s.out, records, judge="rules").per_record[victim]["category"] == "invalid_output"

    def never(body: dict[str, Any]) -> dict[str, Any]:
        raise HTTPFail(400, "tools are not supported by this model")

    with MockServer(never) as srv:
        s2 = run_predict(_cfg(tmp_path / "b", srv, concurrency=1), records)
    assert s2.message and "tools are not supported" in s2.message and _lines(s2.out) == []


def test_server_dies_mid_run_then_rerun_resumes(tmp_path: Path, records: list[Record]) -> None:
    answer = gold_answer(records)
    srv = FakeOpenAI(answer)
    srv.behaviour = dies_after(srv, 8, answer)
    with srv:
        s1 = run_predict(_cfg(tmp_path, srv, concurrency=2), records)
    assert s1.status == "incomplete" and s1.message and 0 < s1.written < len(records)
    first = {x["id"]: x for x in _lines(s1.out)}
    assert len(first) == s1.written <= 8
    with FakeOpenAI(answer) as srv2:
        s2 = run_predict(_cfg(tmp_path, srv2, concurrency=2), records)
    assert s2.status == "complete" and s2.skipped == len(first) and s2.written == len(records) - len(first)
    assert len(srv2.requests) == len(records) - len(first)  # nothing asked twice
    lines = _lines(s2.out)
    ids = [x["id"] for x in lines]
    assert ids == sorted(r.id for r in records)  # none lost, no duplicate, ordered by id
    assert all(x == first[x["id"]] for x in lines if x["id"] in first)
    runs = s2.meta["runs"]
    assert len(runs) == 2 and "stopped" in runs[0] and "stopped" not in runs[1]
    assert runs[0]["written"] == len(first) and runs[1]["written"] == len(records) - len(first)
    assert evaluate(s2.out, records, judge="rules").accuracy == 1.0


def test_killed_process_loses_nothing_and_resumes(
    tmp_path: Path, records: list[Record], release: Path
) -> None:
    out = tmp_path / "killed.jsonl"
    with FakeOpenAI(gold_answer(records), latency_s=0.15) as srv:
        cmd = [
            sys.executable,
            "-m",
            "plugineval.cli",
            "predict",
            "--model",
            "fake-model",
            "--base-url",
            srv.base_url,
        ]
        cmd += ["--records", str(release), "--out", str(out), "--concurrency", "2", "--no-progress"]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not out.exists() or len(out.read_bytes().splitlines()) < 5):
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
        before = _lines(out)
        assert 5 <= len(before) < len(records)
        asked_before = len(srv.requests)
        assert (
            main(
                [
                    "predict",
                    "--model",
                    "fake-model",
                    "--base-url",
                    srv.base_url,
                    "--records",
                    str(release),
                    "--out",
                    str(out),
                    "--concurrency",
                    "2",
                    "--no-progress",
                ]
            )
            == 0
        )
    after = _lines(out)
    assert [x["id"] for x in after] == sorted(r.id for r in records)
    assert len(srv.requests) - asked_before == len(records) - len(before)
    assert all(x in after for x in before)


def test_truncated_last_line_is_dropped_and_rerun(tmp_path: Path, records: list[Record]) -> None:
    out = tmp_path / "p.jsonl"
    ids = sorted(r.id for r in records)
    w = PredictionsWriter(out, set(ids))
    w.append({"id": ids[0], "calls": []})
    w.close()
    with out.open("a", encoding="utf-8") as f:
        f.write('{"id": "' + ids[1] + '", "calls": [{"name": "查')
    w2 = PredictionsWriter(out, set(ids))
    assert w2.dropped_tail and w2.done == {ids[0]}
    w2.append({"id": ids[1], "calls": []})
    w2.finalize()
    assert [x["id"] for x in _lines(out)] == ids[:2]


def test_a_damaged_or_foreign_file_is_refused_untouched(tmp_path: Path, records: list[Record]) -> None:
    out = tmp_path / "p.jsonl"
    ids = sorted(r.id for r in records)
    out.write_text(
        f'{{"id": "{ids[0]}", "calls": []}}\nnot json\n{{"id": "{ids[1]}", "calls": []}}\n', encoding="utf-8"
    )
    text = out.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        PredictionsWriter(out, set(ids))
    assert out.read_text(encoding="utf-8") == text
    assert (
        main(
            [
                "predict",
                "--model",
                "baseline:never-call",
                "--records",
                str(records_file(tmp_path, records)),
                "--out",
                str(out),
            ]
        )
        == 2
    )  # not written by plugineval predict: refused
    assert out.read_text(encoding="utf-8") == text
    fresh = tmp_path / "fresh.jsonl"
    assert (
        main(["predict", "--model", "baseline:never-call", "--records", "nowhere", "--out", str(fresh)]) == 2
    )
    assert not fresh.exists()


def records_file(tmp: Path, records: list[Record]) -> Path:
    p = tmp / "records.jsonl"
    p.write_text(
        "".join(json.dumps(r.to_row(), ensure_ascii=False) + "\n" for r in records), encoding="utf-8"
    )
    return p


def test_rerun_with_other_settings_is_refused(tmp_path: Path, records: list[Record]) -> None:
    with MockServer(gold_answer(records)) as srv:
        run_predict(_cfg(tmp_path, srv, limit=2), records)
        with pytest.raises(ValueError, match="temperature"):
            run_predict(_cfg(tmp_path, srv, limit=4, temperature=0.7), records)
        assert len(_lines(tmp_path / "preds.jsonl")) == 2
        s = run_predict(_cfg(tmp_path, srv, limit=4), records)
    assert s.skipped == 2 and s.written == 2


def test_baselines_end_to_end(
    tmp_path: Path, release: Path, records: list[Record], capsys: pytest.CaptureFixture[str]
) -> None:
    reports = {}
    for name in ("router", "always-call", "never-call"):
        out = tmp_path / f"{name}.jsonl"
        assert (
            main(["predict", "--model", f"baseline:{name}", "--records", str(release), "--out", str(out)])
            == 0
        )
        reports[name] = evaluate(out, records, judge="rules").per_record
        meta = read_run_meta(out)
        assert meta is not None and meta["mode"] == "baseline" and meta["status"] == "complete"
    assert "restates the labels" in capsys.readouterr().err
    assert "restates the labels" in " ".join((read_run_meta(tmp_path / "router.jsonl") or {})["notes"])
    by_id = {r.id: r for r in records}
    never, always, router = reports["never-call"], reports["always-call"], reports["router"]
    for rid, rec in by_id.items():
        if rec.is_positive:
            assert never[rid]["outcome"] == "FN" and never[rid]["category"] == "miss_recall"
        else:
            assert never[rid]["outcome"] == "TN"
        if rec.negative_scope == "global":
            assert always[rid]["outcome"] == "FP"  # it always calls
        # the router calls only what always-call calls: it is right wherever always-call is, on positives,
        # and never wrong on a negative where always-call is right
        if router[rid]["outcome"] == "TP":
            assert always[rid]["outcome"] == "TP"
        if always[rid]["outcome"] == "TN":
            assert router[rid]["outcome"] == "TN"
    always_lines = {x["id"]: x for x in _lines(tmp_path / "always-call.jsonl")}
    assert all(always_lines[i]["calls"] for i in by_id if by_id[i].tools)
    assert any(always[i]["outcome"] == "TP" for i in by_id)


# --- the reply forms of open models (vLLM / sglang) -------------------------------------------------

NO_CALL = "这个请求我不需要调用工具，或者请告诉我更多信息。"


def _all_right(out: Path, records: list[Record], but: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    pr = evaluate(out, records, judge="rules").per_record
    assert all(e["outcome"] in ("TP", "TN") for i, e in pr.items() if i not in but), pr
    return pr


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_a_reasoning_field_stays_in_raw_and_is_never_read(
    tmp_path: Path, records: list[Record], field: str
) -> None:
    with MockServer(with_reasoning(gold_answer(records), field)) as srv:
        s = run_predict(_cfg(tmp_path, srv), records)
    for x in _lines(s.out):
        assert "draft_tool" in x["raw"][field] and "draft_tool" not in json.dumps(x.get("tool_calls", []))
        assert "calls_from" not in x["raw"] and "error" not in x
    _all_right(s.out, records)


def test_a_think_block_in_the_content_is_cut_off_the_answer(tmp_path: Path, records: list[Record]) -> None:
    by_q = _by_query(records)
    neg = sorted(r.id for r in records if not r.gold_calls)
    cut = neg[0]
    draft = '<tool_call>{"name": "draft_tool", "arguments": {}}</tool_call>'
    good = gold_answer(records)

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        rec = by_q[body["messages"][-1]["content"]]
        if rec.id == cut:  # cut short by max_tokens inside the reasoning
            return {"content": f"<think>\n先想想 {draft} 还没想完"}
        msg = dict(good(body))
        if rec.gold_calls:
            return {**msg, "content": f"<think>想想 {draft}</think>\n\n"}
        return {"content": f"<think>\n{draft}\n</think>\n\n{NO_CALL}"}  # a draft call, then no call

    with MockServer(reply) as srv:
        s = run_predict(_cfg(tmp_path, srv), records)
    lines = {x["id"]: x for x in _lines(s.out)}
    assert lines[neg[1]]["content"] == NO_CALL and "<think>" in lines[neg[1]]["raw"]["content"]
    assert lines[neg[1]]["calls"] == [] and "calls_from" not in lines[neg[1]]["raw"]
    assert lines[cut]["error"].startswith("unparsable_output: the reply ends inside an unclosed <think>")
    pr = _all_right(s.out, records, but={cut})
    assert pr[cut]["category"] == "invalid_output"  # never a free abstention


def test_hermes_tool_call_tags_in_the_content_are_read_and_noted(
    tmp_path: Path, records: list[Record]
) -> None:
    by_q = _by_query(records)
    pos = sorted(r.id for r in records if r.gold_calls)
    broken, cut_tag = pos[0], pos[1]

    def reply(body: dict[str, Any]) -> dict[str, Any]:  # vLLM without --tool-call-parser hermes
        rec = by_q[body["messages"][-1]["content"]]
        calls = [(c.name, c.arguments) for c in rec.gold_calls]
        if rec.id == broken:
            return {"content": '<tool_call>\n{"name": "x", "arguments": {"a": 1}\n</tool_call>'}
        if rec.id == cut_tag:  # the last tag without </tool_call> (the reply stopped at it)
            return {"content": hermes_content(calls).rsplit("\n</tool_call>", 1)[0]}
        if calls:
            think = '先想想。<tool_call>{"name": "draft_tool", "arguments": {}}</tool_call>'
            return {
                "content": hermes_content(calls, before="好的，我来查。\n", think=think),
                "tool_calls": [],
            }
        return {"content": NO_CALL}

    with MockServer(reply) as srv:
        s = run_predict(_cfg(tmp_path, srv), records)
    lines = {x["id"]: x for x in _lines(s.out)}
    tagged = [i for i in pos if i != broken]
    for i in tagged:
        x = lines[i]
        assert x["raw"]["calls_from"] == "content" and "<tool_call>" in x["raw"]["content"]
        assert "tool_calls" not in x and x["calls"] and "<tool_call>" not in x["content"]
        assert all(c["name"] != "draft_tool" for c in x["calls"])
    assert lines[broken]["error"].startswith("unparsable_output: <tool_call> tag 1 is not valid JSON")
    pr = _all_right(s.out, records, but={broken})
    assert pr[broken]["category"] == "invalid_output"
    meta = read_run_meta(s.out)
    assert meta is not None and meta["totals"]["calls_from_content"] == len(tagged) + 1  # the broken one too
    notes = [n for n in meta["notes"] if "<tool_call> tags in the content" in n]
    assert len(notes) == 1 and notes[0].startswith(f"{len(tagged) + 1} repl")


def test_prompted_mode_reads_the_fenced_block_of_the_answer_not_of_the_reasoning(
    tmp_path: Path, records: list[Record]
) -> None:
    by_q = _by_query(records)
    draft = '```json\n[{"name": "draft_tool", "arguments": {}}]\n```'

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        rec = by_q[body["messages"][-1]["content"]]
        calls = [{"name": c.name, "arguments": c.arguments} for c in rec.gold_calls]
        think = f"<think>\n草稿：\n{draft}\n</think>\n\n"
        if calls:
            return {"content": think + "```json\n" + json.dumps(calls, ensure_ascii=False) + "\n```"}
        return {"content": think + NO_CALL}

    with MockServer(with_reasoning(reply, text=f"另一个草稿 {draft}")) as srv:
        s = run_predict(_cfg(tmp_path, srv, mode="prompted"), records)
    for x in _lines(s.out):
        assert "draft_tool" not in json.dumps(x["calls"]) and "<think>" not in x["content"]
        assert "draft_tool" in x["raw"]["content"] and "draft_tool" in x["raw"]["reasoning_content"]
    _all_right(s.out, records)


def test_a_reply_past_the_readers_bounds_is_written_as_unparsable(
    tmp_path: Path, records: list[Record]
) -> None:
    by_q = _by_query(records)
    neg = sorted(r.id for r in records if not r.gold_calls)[0]
    good = gold_answer(records)

    def reply(body: dict[str, Any]) -> dict[str, Any]:
        if by_q[body["messages"][-1]["content"]].id == neg:
            return {"content": "啊" * (2**20 + 10)}  # a runaway reply: a string past the bound
        return good(body)

    with MockServer(reply) as srv:
        s = run_predict(_cfg(tmp_path, srv), records)
    line = next(x for x in _lines(s.out) if x["id"] == neg)
    assert line["error"].startswith("unparsable_output: the reply does not fit the predictions reader")
    assert "the limit is 1,048,576" in line["error"] and len(line["raw"]) == 65536
    assert _all_right(s.out, records, but={neg})[neg]["category"] == "invalid_output"
