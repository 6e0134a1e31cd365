"""Fuzzing the predictions reader: structure-aware and byte-level mutations of a valid predictions
file for the small release. Every case gives a whole report (every record scored, a report that
saves and loads as strict JSON) or a ``PredictionFileError`` — never another exception, never a
partial report. The Space's upload parser sees the same cases (a dict or an ``UploadError``).

Deterministic: ``random.Random(SEED)``. ``PLUGINEVAL_FUZZ_CASES`` / ``PLUGINEVAL_FUZZ_SEED`` change the
size and the seed for a one-off longer run (docs/predict.md, "Bounds").
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from plugineval.judge import Judge
from plugineval.predictions import PredictionFileError
from plugineval.report import Report
from plugineval.schema import Record
from plugineval.scoring import evaluate
from plugineval.sources import load_records

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "space"))
from plugineval_space import livejudge

SEED = int(os.environ.get("PLUGINEVAL_FUZZ_SEED", "20260725"))
CASES = int(os.environ.get("PLUGINEVAL_FUZZ_CASES", "3000"))
HOLE = "\x00HOLE\x00"

# JSON texts that break a bound (or come close to one), spliced in where a value stood
HOSTILE = [
    "[" * 3000 + "]" * 3000,
    '{"a":' * 700 + "1" + "}" * 700,
    "[" * 64 + "]" * 64,  # at the limit (plus the line's own levels: past it)
    "[" * 60 + "]" * 60,
    "[" * 5000,  # unbalanced
    "9" * 5000,
    "9" * 41,
    "-" + "9" * 39,
    "1e999",
    "-1e999",
    "1e-999",
    "0.000e-999",
    "NaN",
    "-Infinity",
    '"\\ud800"',
    '"\\udfff\\ud800"',
    '"\\ud83d\\ude00"',  # a valid pair
    '"' + "长" * 1000 + '"',
    "null",
    "true",
    "0",
    "-0.0",
    "[]",
    "{}",
    '""',
    '{"name": "", "arguments": {}}',
    '[{"name": 1}]',
]
BIG = ['"' + "x" * (2**20 + 3) + '"', '"' + "y" * (4 * 2**20) + '"']  # rarely: each costs MBs


@pytest.fixture(scope="module")
def records(mini_release: Path) -> list[Record]:
    return load_records(mini_release, "test")


def _valid_lines(records: list[Record]) -> list[dict[str, Any]]:
    """A perfect model's lines in both shapes, with nested argument objects and every optional key."""
    out: list[dict[str, Any]] = []
    for i, r in enumerate(records):
        base: dict[str, Any] = {
            "id": r.id,
            "model": "fuzz",
            "latency_ms": 12.5 + i,
            "usage": {"prompt_tokens": 9},
        }
        calls = [(c.name, dict(c.arguments)) for c in r.gold_calls]
        if calls and i % 3 == 0:
            calls[0][1]["备注"] = {"乘客": [{"姓名": "许秀国", "证件": {"类型": "身份证"}}], "n": [1, 2.5]}
        if not calls:
            out.append({**base, "calls": [], "content": "这个请求不需要调用工具。"})
        elif i % 2:
            tcs = [
                {
                    "id": f"c{k}",
                    "type": "function",
                    "function": {"name": n, "arguments": json.dumps(a, ensure_ascii=False)},
                }
                for k, (n, a) in enumerate(calls)
            ]
            out.append(
                {**base, "tool_calls": tcs, "raw": {"role": "assistant", "reasoning_content": "先想想"}}
            )
        else:
            out.append({**base, "calls": [{"name": n, "arguments": a} for n, a in calls], "cost_usd": 0.001})
    return out


def _paths(v: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(v, dict):
        for k, x in v.items():
            found += _paths(x, (*path, k))
    elif isinstance(v, list):
        for k, x in enumerate(v):
            found += _paths(x, (*path, k))
    return found


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    cur = obj
    for k in path[:-1]:
        cur = cur[k]
    cur[path[-1]] = value
    return obj


def _structural(rng: random.Random, lines: list[dict[str, Any]]) -> bytes:
    """Mutate one or a few lines as JSON values, then splice hostile JSON text where a value stood."""
    rows = [json.loads(json.dumps(x)) for x in lines]
    texts: list[str] = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        i = rng.randrange(len(rows))
        obj = rows[i]
        path = rng.choice(_paths(obj))
        op = rng.randrange(10)
        splice: str | None = None
        if op <= 3:  # a hostile value where a value stood
            splice = rng.choice(HOSTILE if rng.random() > 0.01 else BIG)
            obj = _set(obj, path, HOLE)
        elif op == 4:  # an arguments string replaced by hostile text (the model's output)
            tc = obj.get("tool_calls") if isinstance(obj, dict) else None
            # (an earlier mutation of the same line may have left tool_calls of another shape)
            if (
                isinstance(tc, list)
                and tc
                and isinstance(tc[0], dict)
                and isinstance(tc[0].get("function"), dict)
            ):
                tc[0]["function"]["arguments"] = rng.choice(HOSTILE)[:10000]
        elif op == 5 and path:  # a key or an item dropped
            parent = obj
            for k in path[:-1]:
                parent = parent[k]
            del parent[path[-1]]
        elif op == 6:  # a wrong type
            obj = _set(obj, path, rng.choice([None, True, 3, -1.5, "x", [], {}, [None], {"": ""}]))
        elif op == 7:  # an unknown key, an unknown id, both call shapes
            obj = obj if isinstance(obj, dict) else {}
            obj[rng.choice(["answer", "calls", "tool_calls", "id", "error"])] = rng.choice(
                [[], "zz", None, [{"name": "f"}], "HTTP 500"]
            )
        elif op == 8:  # a duplicate line
            rows.append(json.loads(json.dumps(obj)))
        else:  # deep nesting inside a value
            d = rng.choice([10, 63, 65, 1000, 20000])
            splice = "[" * d + '"深"' + "]" * d
            obj = _set(obj, path, HOLE)
        rows[i] = obj
        if splice is not None:
            texts.append(splice)
    out = []
    for row in rows:
        t = json.dumps(row, ensure_ascii=rng.random() < 0.3)
        while texts and json.dumps(HOLE) in t:
            t = t.replace(json.dumps(HOLE), texts.pop(), 1)
        out.append(t)
    return ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")


NOISE = [
    b"[",
    b"{",
    b"]",
    b"}",
    b'"',
    b"\\",
    b",",
    b":",
    b"\n",
    b"\r",
    b"\x00",
    b"\xff",
    b"\xe5\xa4",
    b"\xed\xa0\x80",
]
NOISE += [b"\xe2\x80\xa8", b"\xc2\x85", b"\xef\xbb\xbf", b"1e999", b"NaN", b"\\ud800", b"9" * 50]


def _bytes(rng: random.Random, data: bytes) -> bytes:
    """Byte-level mutations of the whole file."""
    b = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 4, 8])):
        op = rng.randrange(7)
        i = rng.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] = rng.randrange(256)
        elif op == 1:
            del b[i : i + rng.randrange(1, 40)]
        elif op == 2:
            b[i:i] = b"".join(rng.choice(NOISE) for _ in range(rng.randrange(1, 6)))
        elif op == 3:
            b[i:i] = rng.choice([b"[", b"{", b'{"a":']) * rng.choice([30, 70, 3000])
        elif op == 4:
            j = rng.randrange(len(b) + 1)
            b[i:i] = b[min(i, j) : max(i, j)][:5000]
        elif op == 5:
            del b[i:]
        else:
            b[i:i] = b"\n"
    return bytes(b)


def _strict(text: str) -> Any:
    def refuse(c: str) -> Any:
        raise AssertionError(f"the report holds {c}: not strict JSON")

    return json.loads(text, parse_constant=refuse)


def _check(case: int, data: bytes, records: list[Record], judge: Judge, tmp: Path) -> str:
    path = tmp / "p.jsonl"
    path.write_bytes(data)
    ids = {r.id for r in records}
    try:
        report = evaluate(path, records, judge=judge)
    except PredictionFileError as e:
        assert "nothing was scored" in str(e), (case, str(e)[:300])
        outcome = "refused"
    else:
        assert set(report.per_record) == ids, (case, "partial report")
        assert report.metrics["n"] == len(records)
        report.save(tmp / "r.json")
        again = Report.from_dict(_strict((tmp / "r.json").read_text(encoding="utf-8")))
        assert set(again.per_record) == ids
        outcome = "scored"
    with contextlib.suppress(livejudge.UploadError):  # the Space's upload parser: the same reader
        livejudge.parse_upload(data, records, "upload.jsonl")
    return outcome


def test_fuzzed_predictions_give_a_whole_report_or_a_prediction_file_error(
    records: list[Record], tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    judge = Judge("rules")
    lines = _valid_lines(records)
    valid = ("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n").encode("utf-8")
    assert _check(-1, valid, records, judge, tmp_path) == "scored"
    seen: Counter[str] = Counter()
    t0 = time.perf_counter()
    for case in range(CASES):
        kind = rng.choice(["structural", "bytes", "both"])
        data = _structural(rng, lines) if kind != "bytes" else valid
        if kind != "structural":
            data = _bytes(rng, data)
        try:
            seen[_check(case, data, records, judge, tmp_path)] += 1
        except AssertionError:
            raise
        except Exception as e:  # pragma: no cover - the failure this test exists to catch
            (tmp_path / f"case-{case}.jsonl").write_bytes(data)
            raise AssertionError(f"case {case} (seed {SEED}, {kind}): {type(e).__name__}: {e}"[:2000]) from e
    elapsed = time.perf_counter() - t0
    print(f"fuzz: {CASES} cases, seed {SEED}, {elapsed:.1f} s, {dict(seen)}")
    assert seen["scored"] > CASES // 20 and seen["refused"] > CASES // 2  # both paths exercised
