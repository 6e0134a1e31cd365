"""The inspect_ai task (``plugineval.inspect_task``, docs/inspect.md): ``inspect eval
plugineval/plugineval_zh`` on inspect's ``mockllm`` provider scores as ``plugineval evaluate`` does on the
same answers written as a predictions file (Recall, Accuracy, every rate, each record's outcome,
category and subtype); the tools are offered and never executed; the core never imports inspect_ai."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from plugineval import metrics as M

inspect_ai = pytest.importorskip(
    "inspect_ai", reason="inspect_ai is not installed: pip install -e '.[inspect]' (the dev extra has it)"
)

from inspect_ai.log import EvalLog, read_eval_log  # noqa: E402
from inspect_ai.model import (  # noqa: E402
    ChatCompletionChoice,
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolCall, ToolChoice, ToolInfo  # noqa: E402

from plugineval.predict._native import NATIVE_PROMPT, render  # noqa: E402
from plugineval.report import Report  # noqa: E402
from plugineval.schema import Record  # noqa: E402
from plugineval.sources import load_records  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# mockllm counts the token usage of a reply that carries none with tiktoken's o200k_base, which
# tiktoken downloads on first use: the tests read nothing outside the repository, so the CLI runs with
# that count replaced by a character estimate (nothing else of inspect is changed)
CLI = """
import sys
from inspect_ai.model._providers.mockllm import MockLLM
async def _count(self, text):
    return max(1, len(text) // 4)
MockLLM.count_text_tokens = _count
from inspect_ai._cli.main import main
sys.argv = ["inspect", *sys.argv[1:]]
main()
"""
USAGE = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
RATES = M.POSITIVE_RATES + M.NEGATIVE_RATES  # every error rate, as plugineval.metrics names them


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLUGINEVAL_JUDGE_")}
    return {**env, "INSPECT_LOG_LEVEL": "warning", "NO_COLOR": "1"}


def _reply(content: str, calls: Sequence[tuple[str, dict[str, Any], str | None]] = ()) -> ModelOutput:
    tcs = [
        ToolCall(id=f"call_{i}", function=name, arguments=args, parse_error=err)
        for i, (name, args, err) in enumerate(calls)
    ]
    msg = ChatMessageAssistant(content=content, tool_calls=tcs or None, model="mockllm")
    stop = "tool_calls" if tcs else "stop"
    return ModelOutput(
        model="mockllm/model", choices=[ChatCompletionChoice(message=msg, stop_reason=stop)], usage=USAGE
    )


def script(records: list[Record]) -> tuple[dict[str, ModelOutput], list[dict[str, Any]]]:
    """A scripted answer per record (keyed by query), and the same answers as predictions lines
    (written independently of the task's conversion: calls, tool_calls with a raw JSON string, text)."""
    outputs: dict[str, ModelOutput] = {}
    lines: list[dict[str, Any]] = []
    for i, r in enumerate(records):
        offered = r.tools[0]["function"]["name"]
        gold = [(c.name, dict(c.arguments)) for c in r.gold_calls]
        form = i % 6
        if r.kind == "positive" and form in (0, 1):  # the gold calls
            outputs[r.query] = _reply("", [(n, a, None) for n, a in gold])
            lines.append({"id": r.id, "calls": [{"name": n, "arguments": a} for n, a in gold]})
        elif r.kind == "positive" and form == 2 and gold and gold[0][1]:  # a wrong value for one argument
            n, a = gold[0]
            k = sorted(a)[0]
            a = {**a, k: "完全不对的值" if isinstance(a[k], str) else 987654}
            outputs[r.query] = _reply("", [(n, a, None)])
            lines.append(
                {
                    "id": r.id,
                    "tool_calls": [
                        {
                            "type": "function",
                            "function": {"name": n, "arguments": json.dumps(a, ensure_ascii=False)},
                        }
                    ],
                }
            )
        elif form == 3:  # a call whose arguments the model got wrong as JSON
            outputs[r.query] = _reply("", [(offered, {}, "Expecting value: line 1 column 1 (char 0)")])
            lines.append(
                {
                    "id": r.id,
                    "tool_calls": [
                        {"type": "function", "function": {"name": offered, "arguments": "{城市: 北京"}}
                    ],
                }
            )
        elif form == 4:  # a call on every record, negatives too: over-recall there
            args = dict(gold[0][1]) if gold else {}
            name = gold[0][0] if gold else offered
            outputs[r.query] = _reply("好的，我来查一下。", [(name, args, None)])
            lines.append(
                {"id": r.id, "calls": [{"name": name, "arguments": args}], "content": "好的，我来查一下。"}
            )
        else:  # text only (reasoning in a <think> block, which is cut off)
            text = "请问您要出发的日期和城市是哪里？"
            outputs[r.query] = _reply(f"<think>用户没说清楚。</think>{text}")
            lines.append({"id": r.id, "calls": [], "content": text})
    return outputs, lines


@pytest.fixture(scope="module")
def records(mini_release: Path) -> list[Record]:
    return sorted(load_records(mini_release, "test"), key=lambda r: r.id)


def _evaluate(tmp_path: Path, mini_release: Path, lines: list[dict[str, Any]]) -> Report:
    preds = tmp_path / "preds.jsonl"
    preds.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    out = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "plugineval.cli", "evaluate", str(preds), "--records", str(mini_release)]
    res = subprocess.run(
        [*cmd, "--split", "test", "--judge", "rules", "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
    )
    assert res.returncode == 0, res.stderr
    return Report.load(out)


def _assert_same(log: EvalLog, report: Report) -> None:
    assert log.status == "success", log.error
    assert log.results is not None and log.samples is not None
    [scores] = log.results.scores
    assert scores.name == "plugineval_judge"
    got = {k: m.value for k, m in scores.metrics.items()}
    assert got["recall"] == pytest.approx(report.recall)
    assert got["accuracy"] == pytest.approx(report.accuracy)
    for k in RATES:  # a rate without a denominator is None in the report, NaN in inspect
        want = report.metrics["rates"][k]
        assert got[k] == pytest.approx(float("nan") if want is None else want, nan_ok=True), k
    per_sample = {}
    for s in log.samples:
        assert s.scores is not None
        sc = s.scores["plugineval_judge"]
        assert sc.metadata is not None
        per_sample[str(s.id)] = sc
        assert sc.value == ("C" if sc.metadata["outcome"] in ("TP", "TN") else "I")
    assert set(per_sample) == set(report.per_record)
    for rid, want in report.per_record.items():
        meta = per_sample[rid].metadata
        assert meta is not None
        assert (meta["outcome"], meta["category"], meta["subtype"]) == (
            want["outcome"],
            want["category"],
            want["subtype"],
        ), rid
        assert meta["arguments"] == want["arguments"], rid


def test_core_never_imports_inspect_ai() -> None:
    code = (
        "import sys, plugineval, plugineval.scoring, plugineval.cli, plugineval.predict, plugineval.judge,"
        " plugineval.metrics, plugineval.report, plugineval.submission, plugineval.trials;"
        " plugineval.evaluate; assert 'inspect_ai' not in sys.modules, 'inspect_ai imported'"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    from importlib.metadata import entry_points

    eps = {ep.name: ep.value for ep in entry_points(group="inspect_ai")}
    assert eps.get("plugineval") == "plugineval.inspect_task"


def test_scripted_mockllm_scores_as_plugineval_evaluate(
    tmp_path: Path, mini_release: Path, records: list[Record]
) -> None:
    outputs, lines = script(records)
    seen: list[tuple[list[ChatMessage], list[ToolInfo], ToolChoice]] = []

    def reply(
        input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        seen.append((input, tools, tool_choice))
        return outputs[input[-1].text]

    [log] = inspect_ai.eval(
        "plugineval/plugineval_zh",  # by its registered name: the entry point loads the task
        model="mockllm/model",
        model_args={"custom_outputs": reply},
        task_args={"records": str(mini_release), "split": "test", "judge": "rules"},
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    report = _evaluate(tmp_path, mini_release, lines)
    outcomes = {e["outcome"] for e in report.per_record.values()}
    categories = {e["category"] for e in report.per_record.values()}
    assert {"TP", "FN"} <= outcomes and {"FP", "TN"} & outcomes, outcomes  # the script covers both sides
    assert {"invalid_output", "parameter_error"} <= categories, categories
    _assert_same(log, report)

    # what the model saw: the predict system prompt with the record's time, the query, the offered
    # tools with tool_choice auto; one reply per record, no tool executed
    by_query = {r.query: r for r in records}
    assert len(seen) == len(records)
    for input, tools, choice in seen:
        r = by_query[input[-1].text]
        assert [m.role for m in input] == ["system", "user"]
        assert input[0].text == render(NATIVE_PROMPT, r)
        assert [t.name for t in tools] == [t["function"]["name"] for t in r.tools]
        assert choice == "auto"
    assert log.samples is not None
    for s in log.samples:
        assert [m.role for m in s.messages] == ["system", "user", "assistant"]
        assert not any(isinstance(m, ChatMessageTool) for m in s.messages)
        # the predictions line in the metadata scores the same as the answer the script wrote
        assert s.scores is not None and s.scores["plugineval_judge"].metadata is not None
        assert s.scores["plugineval_judge"].metadata["prediction"]["id"] == s.id


def test_the_inspect_command_runs_on_mockllm(
    tmp_path: Path, mini_release: Path, records: list[Record]
) -> None:
    """`inspect eval plugineval/plugineval_zh --model mockllm/model -T records=… -T split=test`: the
    mock answers every record with its default text, which plugineval evaluate scores as no call."""
    logs = tmp_path / "logs"
    cmd = [sys.executable, "-c", CLI, "eval", "plugineval/plugineval_zh", "--model", "mockllm/model"]
    cmd += ["-T", f"records={mini_release}", "-T", "split=test", "--log-dir", str(logs)]
    res = subprocess.run(
        [*cmd, "--log-format", "json", "--display", "none"],
        capture_output=True,
        text=True,
        timeout=300,
        env=_env(),
        cwd=tmp_path,
    )
    assert res.returncode == 0, res.stdout + res.stderr
    [path] = logs.glob("*.json")
    log = read_eval_log(str(path))
    assert log.eval.task == "plugineval/plugineval_zh"
    text = "Default output from mockllm/model"
    report = _evaluate(tmp_path, mini_release, [{"id": r.id, "calls": [], "content": text} for r in records])
    _assert_same(log, report)


def test_reply_forms_become_the_line_predict_writes() -> None:
    """A provider's reasoning block stays in raw; Hermes tags in the content are read as the calls (as
    `plugineval predict` reads them); arguments inspect could not parse make the record invalid_output."""
    from inspect_ai.model import ContentReasoning, ContentText

    from plugineval.inspect_task import prediction_line
    from plugineval.predictions import parse_line

    msg = ChatMessageAssistant(
        content=[ContentReasoning(reasoning="先想一想"), ContentText(text="不需要调用工具。")], model="m"
    )
    out = ModelOutput(model="m", choices=[ChatCompletionChoice(message=msg, stop_reason="stop")], usage=USAGE)
    line = prediction_line("r1", out)
    assert line["content"] == "不需要调用工具。" and line["raw"]["reasoning"] == "先想一想"
    assert line["calls"] == [] and "error" not in line and line["usage"]["total_tokens"] == 110

    tagged = '<think>查车票</think><tool_call>{"name": "train_search_tickets", "arguments": {"from_city": "北京"}}</tool_call>'
    line = prediction_line("r2", _reply(tagged))
    pred = parse_line(line)
    assert [(c.name, c.arguments) for c in pred.calls] == [("train_search_tickets", {"from_city": "北京"})]
    assert line["raw"]["calls_from"] == "content" and not pred.invalid

    line = prediction_line("r3", _reply("", [("train_search_tickets", {}, "Expecting value")]))
    pred = parse_line(line)
    assert pred.invalid and "not valid JSON" in (pred.invalid_reason or "")
