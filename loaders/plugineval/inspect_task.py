"""PluginEval as an inspect_ai task (``pip install "plugineval[inspect]"``; docs/inspect.md).

    inspect eval plugineval/plugineval_zh --model <provider/model> -T records=<release or Hub repo> -T split=test

The package registers this module with inspect through the ``inspect_ai`` entry point group
(pyproject.toml), so inspect imports it only when a ``plugineval/…`` name is looked up; nothing in the
core imports it, and importing ``plugineval`` never imports ``inspect_ai``.

- **Dataset.** One sample per record of the split (``plugineval.sources.load_records``: a release
  folder, a Hub dataset repo id or a JSONL of rows), id = record id; the input is the system message of
  ``plugineval predict``'s native mode (``prompts/system_v1.txt`` filled with the record's reference
  time, weekday and time zone) and the query.
- **Solver** (``offer_tools``). One ``generate`` with the record's offered tools as inspect
  ``ToolInfo`` (definitions only: there is no function behind them) and ``tool_choice="auto"``. The
  calls are never executed and the conversation stops after that one reply: the benchmark scores the
  calls, not what the tools would return.
- **Scorer** (``plugineval_judge``). The reply becomes a line of the predictions file exactly as
  ``plugineval predict`` writes it (``predict._native.native_line`` and ``fit_line``: a ``<think>``
  block cut off, Hermes ``<tool_call>`` tags read, a reply past the reader's bounds unparsable), is
  read by the predictions reader and judged by the gold-anchored judge (``plugineval.judge``: rules,
  or hybrid when ``PLUGINEVAL_JUDGE_BASE_URL`` and ``PLUGINEVAL_JUDGE_MODEL`` are set). The Score's
  value is C (TP, TN) / I (FN, FP) / N (EXCLUDED); its metadata is the record's entry of
  ``report.json``'s ``per_record`` (outcome, category, subtype, arguments, kind, difficulty, …) plus the
  predictions line under ``prediction``, so a predictions file can be rebuilt from the log.
- **Metrics.** Recall, Accuracy and every error rate of docs/format.md §7, each computed by
  ``plugineval.metrics.summarize`` over the samples' metadata, the way ``plugineval evaluate`` computes
  them. A sample that errored in inspect has no score and is left out of the metrics (``plugineval
  evaluate`` would count the missing line as ``invalid_output``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    ContentReasoning,
    GenerateConfig,
    ModelOutput,
    get_model,
)
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    NOANSWER,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    metric,
    scorer,
)
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import ToolInfo, ToolParams

from . import metrics as M
from .entries import OUTCOME
from .judge import Judge, JudgeMode, Outcome
from .predict._native import NATIVE_PROMPT, native_line, render
from .predict._output import UNPARSABLE, fit_line
from .predictions import parse_line
from .schema import Record
from .scoring import entry
from .sources import load_records

TASK_NAME = "plugineval_zh"
SUMMARY_METRICS = ("recall", "accuracy")
RATE_METRICS = (*M.POSITIVE_RATES, *M.NEGATIVE_RATES)


@functools.lru_cache(maxsize=4)
def split_records(records: str | None, split: str, revision: str | None) -> Mapping[str, Record]:
    """The split's records by id (loaded once per process for the task, its solver and its scorer,
    which take the source's name rather than the records, so that inspect logs only the name)."""
    return {r.id: r for r in sorted(load_records(records, split, revision), key=lambda r: r.id)}


def tool_infos(record: Record) -> list[ToolInfo]:
    """The record's offered tools (OpenAI function format) as inspect tool definitions. inspect's schema
    model keeps the keys it knows (type, description, enum, items, properties, required, default,
    format, pattern, min/max, minLength/maxLength, anyOf, additionalProperties); others (minItems,
    uniqueItems) are not sent."""
    out = []
    for t in record.tools:
        fn = t["function"]
        params = fn.get("parameters") or {"type": "object", "properties": {}}
        out.append(
            ToolInfo(
                name=fn["name"],
                description=fn.get("description", ""),
                parameters=ToolParams.model_validate(params),
            )
        )
    return out


def record_sample(record: Record) -> Sample:
    return Sample(
        id=record.id,
        input=[
            ChatMessageSystem(content=render(NATIVE_PROMPT, record)),
            ChatMessageUser(content=record.query),
        ],
        target=json.dumps(
            [{"name": c.name, "arguments": c.arguments} for c in record.gold_calls], ensure_ascii=False
        ),
        metadata={
            "kind": record.kind,
            "difficulty": record.difficulty,
            "domain": record.domain,
            "target_plugin": record.target_plugin,
            "reference_time": record.reference_time,
        },
    )


def output_message(output: ModelOutput) -> dict[str, Any]:
    """The assistant message in the OpenAI form ``plugineval predict`` reads (``native_line``)."""
    msg = output.message
    d: dict[str, Any] = {"role": "assistant", "content": msg.text}
    # a provider's reasoning blocks stay in raw, as predict keeps reasoning_content: never read as calls
    reasoning = (
        [c.reasoning for c in msg.content if isinstance(c, ContentReasoning)]
        if isinstance(msg.content, list)
        else []
    )
    if reasoning:
        d["reasoning"] = "\n".join(str(r) for r in reasoning)
    if msg.tool_calls:
        d["tool_calls"] = [
            {
                "id": tc.id,
                "type": "function",
                "function": {"name": tc.function, "arguments": json.dumps(tc.arguments, ensure_ascii=False)},
            }
            for tc in msg.tool_calls
        ]
    return d


def prediction_line(record_id: str, output: ModelOutput) -> dict[str, Any]:
    """The predictions-file line (docs/format.md §9) for one inspect reply, as ``plugineval predict``
    would write it for the same assistant message."""
    line: dict[str, Any] = {"id": record_id, **native_line(output_message(output))}
    if output.model:
        line["model"] = output.model
    if output.stop_reason and isinstance(line.get("raw"), dict):
        line["raw"]["finish_reason"] = output.stop_reason
    bad = [
        f"tool_calls[{i}]: {tc.parse_error}"
        for i, tc in enumerate(output.message.tool_calls or [])
        if tc.parse_error
    ]
    if bad and "error" not in line:  # the arguments inspect could not parse: the reader's invalid_output
        line["error"] = f"{UNPARSABLE}: the arguments are not valid JSON: {'; '.join(bad)}"
    if output.error and "error" not in line:
        line["error"] = f"request_failed: {output.error}"
    if output.usage is not None:
        line["usage"] = {
            "prompt_tokens": output.usage.input_tokens,
            "completion_tokens": output.usage.output_tokens,
            "total_tokens": output.usage.total_tokens,
        }
    return fit_line(line)


@solver
def offer_tools(records: str | None = None, split: str = "test", revision: str | None = None) -> Solver:
    """One reply with the record's tools offered and ``tool_choice="auto"``; no tool is executed."""
    by_id = split_records(records, split, revision)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        record = by_id[str(state.sample_id)]
        state.output = await get_model().generate(
            state.messages, tools=tool_infos(record), tool_choice="auto"
        )
        state.messages.append(state.output.message)
        state.completed = True
        return state

    return solve


def _entries(scores: Sequence[SampleScore]) -> list[Mapping[str, Any]]:
    return [s.score.metadata for s in scores if s.score.metadata and OUTCOME in s.score.metadata]


def _summary_metric(key: str) -> Callable[[], Metric]:
    def factory() -> Metric:
        def compute(scores: list[SampleScore]) -> float:
            s = M.summarize(_entries(scores))
            v = s[key] if key in SUMMARY_METRICS else s["rates"][key]
            return float("nan") if v is None else float(v)

        return compute

    factory.__name__ = key
    factory.__qualname__ = key
    # every epoch's score: with --epochs K the K replies of a record are K observations, as K trial
    # files are to plugineval evaluate (pooled here)
    return metric(name=key, scores="unreduced")(factory)


# Recall, Accuracy and the error rates (docs/format.md §7), as plugineval.metrics.summarize gives them
METRICS: dict[str, Callable[[], Metric]] = {k: _summary_metric(k) for k in (*SUMMARY_METRICS, *RATE_METRICS)}


@scorer(metrics=[m() for m in METRICS.values()])
def plugineval_judge(
    records: str | None = None, split: str = "test", revision: str | None = None, judge: JudgeMode = "hybrid"
) -> Scorer:
    """The gold-anchored judge on one sample. The value is inspect's C (TP or TN) / I (FN or FP) / N
    (EXCLUDED); the explanation reads ``outcome · category · subtype · detail``; the metadata is the
    report's per-record entry (outcome, category, subtype, arguments, kind, difficulty, …) with the
    judge mode and the predictions line under ``prediction``."""
    by_id = split_records(records, split, revision)
    j = Judge(judge)

    async def score(state: TaskState, target: Target) -> Score:
        record = by_id[str(state.sample_id)]
        line = prediction_line(record.id, state.output)
        pred = parse_line(line)
        if j.llm is None:
            verdict = j.judge_one(record, pred)
        else:  # the LLM judge runs its own event loop: off inspect's
            import anyio.to_thread

            verdict = (await anyio.to_thread.run_sync(j.run, [record], {record.id: pred}))[record.id]
        meta = entry(record, verdict).to_json()
        meta["judge_mode"] = j.mode
        meta["prediction"] = line
        return Score(
            value=CORRECT
            if verdict.correct
            else NOANSWER
            if verdict.outcome is Outcome.EXCLUDED
            else INCORRECT,
            answer=json.dumps(
                [{"name": c.name, "arguments": c.arguments} for c in pred.calls], ensure_ascii=False
            ),
            explanation=" · ".join(
                str(x) for x in (verdict.outcome, verdict.category, verdict.subtype, verdict.detail) if x
            ),
            metadata=meta,
        )

    return score


@task(name=TASK_NAME)
def plugineval_zh(
    records: str | None = None,
    split: str = "test",
    revision: str | None = None,
    judge: JudgeMode = "hybrid",
) -> Task:
    """PluginEval (Chinese plugins): native tool calling with each record's offered tools, scored by the
    gold-anchored judge. ``records``: a release folder, a Hub dataset repo id or a JSONL of rows
    (default: dist/plugineval-zh when built, else $PLUGINEVAL_HUB_REPO); ``split``: test, validation
    or train; ``revision``: a Hub revision; ``judge``: rules, hybrid (the default: rules unless the
    judge's endpoint is configured) or llm."""
    by_id = split_records(records, split, revision)
    return Task(
        dataset=MemoryDataset([record_sample(r) for r in by_id.values()], name=f"plugineval-zh/{split}"),
        solver=offer_tools(records, split, revision),
        scorer=plugineval_judge(records, split, revision, judge),
        config=GenerateConfig(temperature=0.0),
        metadata={"split": split, "records": str(records) if records else None, "revision": revision},
    )


__all__ = [
    "METRICS",
    "TASK_NAME",
    "offer_tools",
    "plugineval_judge",
    "plugineval_zh",
    "prediction_line",
    "record_sample",
    "tool_infos",
]
