"""Predictions files (docs/format.md §9), evaluate() joined by id, metrics, mixtures, intervals, compare, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from plugineval import compare, evaluate
from plugineval.metrics import mixture, summarize
from plugineval.predictions import PredictionFileError, parse_predictions, read_predictions
from plugineval.report import Report
from plugineval.schema import Call, Prediction

from judge_fixtures import make_record

GOLD = {"city": "北京"}


def _records() -> list:  # type: ignore[type-arg]
    recs = []
    for i, d in enumerate(["easy", "easy", "medium", "hard"]):
        recs.append(make_record(f"p{i}", gold=[("weather", GOLD)], difficulty=d))
    recs.append(make_record("n0", kind="neg_A", scope="global", difficulty="easy"))
    recs.append(make_record("n1", kind="neg_C", scope="targeted", difficulty="hard"))
    return recs


def _lines(rows: list[dict]) -> list[str]:  # type: ignore[type-arg]
    return [json.dumps(r, ensure_ascii=False) for r in rows]


def test_plain_and_openai_forms_and_optional_keys() -> None:
    lines = _lines(
        [
            {
                "id": "a",
                "calls": [{"name": "weather", "arguments": {"city": "北京"}}],
                "latency_ms": 12.5,
                "model": "m",
            },
            {
                "id": "b",
                "tool_calls": [
                    {
                        "id": "x",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"city": "北京"}'},
                    }
                ],
            },
            {
                "id": "c",
                "tool_calls": [
                    {"type": "function", "function": {"name": "weather", "arguments": "{city: 北京"}}
                ],
            },
            {
                "id": "d",
                "calls": [],
                "content": "不需要工具",
                "usage": {"prompt_tokens": 3},
                "cost_usd": 0.001,
            },
            {"id": "e", "calls": [], "error": "HTTP 500"},
        ]
    )
    p = parse_predictions(lines)
    assert p["a"].calls[0].arguments == {"city": "北京"} and p["a"].latency_ms == 12.5
    assert p["b"].calls[0].arguments == {"city": "北京"} and not p["b"].invalid
    assert p["c"].invalid and "not valid JSON" in (p["c"].invalid_reason or "")
    assert p["d"].content == "不需要工具" and not p["d"].invalid
    assert p["e"].invalid
    # the reader builds models without a second validation pass: they equal the validated ones
    for pred in p.values():
        dumped = pred.model_dump()
        again = Prediction.model_validate(dumped)
        assert again == pred and again.model_dump() == dumped
        assert all(type(c) is Call for c in pred.calls)
    q = parse_predictions(_lines([{"id": "f", "calls": [], "latency_ms": 7, "cost_usd": 0}]))
    assert q["f"].latency_ms == 7.0 and isinstance(q["f"].latency_ms, float)
    assert q["f"] == Prediction(id="f", latency_ms=7, cost_usd=0)


def test_trusted_construction_equals_validation_and_shares_no_defaults() -> None:
    from plugineval.schema._base import trusted

    a = trusted(Prediction, {"id": "x"})
    b = trusted(Prediction, {"id": "x"})
    assert a == Prediction(id="x") and repr(a) == repr(Prediction(id="x"))
    assert a.calls is not b.calls  # a default factory is called per instance
    assert a.model_fields_set == {"id"}
    with pytest.raises(TypeError, match=r"Call\.name is required"):
        trusted(Call, {"arguments": {}})
    with pytest.raises(TypeError, match="unknown field"):
        trusted(Call, {"name": "f", "args": {}})
    c = trusted(Call, {"name": "f", "arguments": {"k": 1}})
    assert c == Call(name="f", arguments={"k": 1}) and repr(c) == repr(Call(name="f", arguments={"k": 1}))


def test_hot_path_constructors_equal_validation() -> None:
    from plugineval.schema.record import trusted_call

    c = trusted_call("f", {"k": [1, "x"]})
    assert c == Call(name="f", arguments={"k": [1, "x"]}) and repr(c) == repr(
        Call(name="f", arguments={"k": [1, "x"]})
    )
    assert c.model_fields_set == {"name", "arguments"} and c.model_dump() == {
        "name": "f",
        "arguments": {"k": [1, "x"]},
    }


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 2: not valid JSON"),
        ('{"calls": []}', "line 2: 'id' must be a non-empty string"),
        ('{"id": "a", "calls": []}', "line 2: duplicate id 'a' (first on line 1)"),
        ('{"id": "zz", "calls": []}', "line 2: unknown id 'zz'"),
        ('{"id": "b", "calls": {"name": "x"}}', "line 2: 'calls' must be a list"),
        (
            '{"id": "b", "calls": [{"name": "x", "arguments": 3}]}',
            "line 2: calls[0].arguments must be an object",
        ),
        ('{"id": "b", "latency_ms": "fast"}', "line 2: 'latency_ms' must be"),
        ('{"id": "b", "answer": 1}', "line 2: unknown keys ['answer']"),
    ],
)
def test_bad_lines_are_named(line: str, message: str) -> None:
    with pytest.raises(PredictionFileError) as e:
        parse_predictions(['{"id": "a", "calls": []}', line], "preds.jsonl", known_ids={"a", "b"})
    assert message in str(e.value) and "nothing was scored" in str(e.value)


def test_size_limit(tmp_path: Path) -> None:
    f = tmp_path / "p.jsonl"
    f.write_text('{"id": "a", "calls": []}\n' * 100, encoding="utf-8")
    with pytest.raises(PredictionFileError, match=r"file is 2\.4 KiB; the limit is 1000 B"):
        read_predictions(f, max_bytes=1000)
    from plugineval.predictions import human_size

    assert [human_size(n) for n in (64 * 2**20, 1.5 * 2**20, 0.05 * 2**20, 2**10, 900)] == [
        "64 MiB",
        "1.5 MiB",
        "51 KiB",
        "1 KiB",
        "900 B",
    ]


def test_evaluate_joins_by_id_and_missing_lines_are_invalid() -> None:
    recs = _records()
    preds = [
        {"id": "n1", "calls": [{"name": "weather", "arguments": {"city": "东京"}}]},
        {"id": "p0", "calls": [{"name": "weather", "arguments": {"city": "Beijing"}}]},
        {"id": "p2", "calls": [{"name": "weather", "arguments": {"city": "上海"}}]},
        {"id": "n0", "calls": [], "content": "你好"},
        {"id": "p3", "calls": [{"name": "weather", "arguments": {"city": "北京"}}]},
    ]
    rep = evaluate(preds, recs, judge="rules")
    pr = rep.per_record
    assert pr["p0"]["outcome"] == "TP" and pr["p3"]["outcome"] == "TP"
    assert pr["p1"]["category"] == "invalid_output"  # no line
    assert pr["p2"]["category"] == "parameter_error" and pr["n1"]["category"] == "over_recall"
    m = rep.metrics
    assert m["confusion"] == {"TP": 2, "FN": 2, "FP": 1, "TN": 1}
    assert m["recall"] == 0.5 and m["accuracy"] == 0.5
    assert m["rates"]["invalid_output_pos"] == 0.25 and m["rates"]["over_recall"] == 0.5
    assert rep.versions["judge"] and rep.versions["scorer"] and rep.versions["dataset"] == "test"
    for e in pr.values():
        assert {
            "outcome",
            "category",
            "subtype",
            "kind",
            "difficulty",
            "domain",
            "target_plugin",
            "arguments",
        } <= set(e)
    # a report round-trips and recomputes the same figures from per_record alone
    again = Report.from_dict(json.loads(json.dumps(rep.to_dict())))
    assert summarize(list(again.per_record.values()))["recall"] == m["recall"]
    assert "Recall" in rep.to_markdown()


def test_mixture_reweights_within_positives_and_negatives() -> None:
    entries = [
        {"outcome": "TP", "kind": "positive", "difficulty": "easy"},
        {"outcome": "FN", "kind": "positive", "difficulty": "hard", "category": "miss_recall"},
        {"outcome": "TN", "kind": "neg_A", "difficulty": "easy"},
        {"outcome": "FP", "kind": "neg_A", "difficulty": "hard", "category": "over_recall"},
    ]
    mx = mixture(entries, (0.6, 0.3, 0.1))  # medium absent: weights renormalized over easy and hard
    assert mx["recall"] == pytest.approx(0.6 / 0.7)
    assert mx["accuracy"] == pytest.approx(0.6 / 0.7)
    with pytest.raises(ValueError, match="three non-negative"):
        mixture(entries, (1.0, -1.0, 0.0))


def test_intervals_are_seeded_and_compare_is_paired() -> None:
    recs = _records()
    good = [
        {"id": r.id, "calls": [{"name": "weather", "arguments": GOLD}] if r.kind == "positive" else []}
        for r in recs
    ]
    bad = [{"id": r.id, "calls": []} for r in recs]
    a, a2 = evaluate(bad, recs, judge="rules"), evaluate(bad, recs, judge="rules")
    b = evaluate(good, recs, judge="rules")
    assert a.metrics["intervals"] == a2.metrics["intervals"]
    c = compare(a, b)
    assert c["n_paired"] == 6 and c["recall_diff"] == 1.0
    assert c["flips"]["b_right_a_wrong"] == 4 and c["flips"]["a_right_b_wrong"] == 0


def test_cli_evaluate_and_compare(tmp_path: Path) -> None:
    recs = _records()
    rec_file = tmp_path / "records.jsonl"
    rec_file.write_text("\n".join(json.dumps(r.to_row(), ensure_ascii=False) for r in recs), encoding="utf-8")
    pf = tmp_path / "p.jsonl"
    pf.write_text(
        "\n".join(_lines([{"id": "p0", "calls": [{"name": "weather", "arguments": GOLD}]}])), encoding="utf-8"
    )
    cmd = [
        sys.executable,
        "-m",
        "plugineval.cli",
        "evaluate",
        str(pf),
        "--records",
        str(rec_file),
        "--judge",
        "rules",
    ]
    out = subprocess.run(
        [*cmd, "--out", str(tmp_path / "r.json")], capture_output=True, text=True, check=True
    )
    assert "Recall" in out.stdout and (tmp_path / "r.json").exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "p0"}\n{"id": "nope"}\n', encoding="utf-8")
    res = subprocess.run([*cmd[:4], str(bad), *cmd[5:]], capture_output=True, text=True)
    assert res.returncode == 2 and "line 2: unknown id 'nope'" in res.stderr and "Traceback" not in res.stderr
    cmp = subprocess.run(
        [
            sys.executable,
            "-m",
            "plugineval.cli",
            "compare",
            str(tmp_path / "r.json"),
            str(tmp_path / "r.json"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "paired records: 6" in cmp.stdout


@pytest.mark.parametrize(
    "value",
    [
        [{"a": "x},{y"}, {"b": [{"c": 1}, {"d": 2}]}],  # the cut inside a string and a nested array
        [{"s": "},{"}],
        [{}],
        [{}, {}],
        [{"a": [{}, {}]}, {"b": {"c": {}}}, {"a": [{}, {}]}],
        [{"a": 1}, 2],  # not all objects: parsed whole
        [],
    ],
)
def test_tool_text_memo_parses_exactly_like_json(value: list) -> None:
    from plugineval.schema.record import _objects

    text = json.dumps(value, separators=(",", ":"))
    memo: dict = {}
    assert _objects(text, memo) == value and _objects(text, memo) == value


@pytest.mark.parametrize("text", ['[{"a":1},{"b":]', "[{},{", '[{"a":1}]x', '[{"a":1},{"a":1}'])
def test_tool_text_memo_raises_what_json_raises(text: str) -> None:
    from plugineval.schema.record import _objects

    with pytest.raises(json.JSONDecodeError):
        _objects(text, {})


@pytest.mark.parametrize(
    "value",
    [
        {"t1": {"a": {"x": 1}, "b": {"y": [{"q": 1}, {"r": 2}]}}, "t2": {}},  # cuts inside nested objects
        {"t": {"s": '},"'}},  # and inside a string
        {"a": {"k": '}},"z":{'}},
        {"a": {}, "b": {"c": {"d": {}}}},
        {"a": 1, "b": {}},  # not all objects: parsed whole
        {},
    ],
)
def test_annotation_text_memo_parses_exactly_like_json(value: dict) -> None:
    from plugineval.schema.record import _members

    text = json.dumps(value, separators=(",", ":"), sort_keys=True)
    memo: dict = {}
    assert _members(text, memo) == value and _members(text, memo) == value


@pytest.mark.parametrize("text", ['{"a":{},"b":}', '{"a":{}', '{"a":{"b":1}}x'])
def test_annotation_text_memo_raises_what_json_raises(text: str) -> None:
    from plugineval.schema.record import _members

    with pytest.raises(json.JSONDecodeError):
        _members(text, {})


def test_loading_with_a_memo_validates_shared_annotations_once_and_still_names_a_bad_one() -> None:
    from plugineval.schema import Record, SchemaError

    from judge_fixtures import make_record

    ann = {"weather": {"city": {"aliases": {"京": "北京"}, "time_valued": False}}}
    rows = [make_record(f"r{i}", gold=[("weather", {"city": "北京"})], ann=ann).to_row() for i in range(3)]
    memo: dict = {}
    loaded = [Record.from_row(r, memo) for r in rows]
    assert loaded == [Record.from_row(r) for r in rows]
    a, b = (r.tool_annotations["weather"]["city"] for r in loaded[:2])
    assert a is b  # one validated model for the text all records share
    bad = dict(
        rows[0], id="bad", tool_annotations=json.dumps({"weather": {"city": {"time_valued": "maybe"}}})
    )
    with pytest.raises(SchemaError, match=r"record bad[\s\S]*tool_annotations\.weather\.city\.time_valued"):
        Record.from_row(bad, memo)


# --- bounds of the reader (docs/predict.md, "Bounds") ------------------------------------------

DEEP = '{"id": "b", "calls": [{"name": "x", "arguments": {"k": ' + "[" * 5000 + "]" * 5000 + "}}]}"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (DEEP, "nested 5004 levels deep; the limit is 64"),
        ('{"id": "b", "content": "' + "x" * (4 * 2**20) + '"}', "characters long; the limit is 4,194,304"),
        ('{"id": "b", "content": "' + "长" * (2**20 + 1) + '"}', "a string of 1,048,577 characters"),
        (
            '{"id": "b", "latency_ms": ' + "9" * 5000 + "}",
            "a number literal of 5,000 characters; the limit is 40",
        ),
        ('{"id": "b", "latency_ms": 1e999}', "the number 1e999 is out of range (it overflows"),
        ('{"id": "b", "cost_usd": 1e-999}', "the number 1e-999 is out of range (it underflows"),
        ('{"id": "b", "latency_ms": NaN}', "NaN is not a JSON number"),
        ('{"id": "b", "latency_ms": -Infinity}', "-Infinity is not a JSON number"),
        ('{"id": "b", "content": "\\ud800"}', "lone surrogate"),
        ('{"id": "b\ud800", "calls": []}', "lone surrogate"),
    ],
)
def test_a_line_past_a_bound_is_named_with_the_bound(line: str, message: str) -> None:
    with pytest.raises(PredictionFileError) as e:
        parse_predictions(['{"id": "a", "calls": []}', line], "preds.jsonl", known_ids={"a", "b"})
    text = str(e.value)
    assert "line 2: the line breaks a bound of the reader" in text and message in text, text
    assert "nothing was scored" in text


def test_real_lines_pass_the_bounds() -> None:
    """What real files hold: nested argument objects a few levels deep, Chinese text, emoji escaped
    as surrogate pairs, a long reasoning trace in raw, U+2028 / U+0085 inside a string."""
    nested = {"passengers": [{"name": "许秀国", "证件": {"type": "身份证", "no": "110101199001011234"}}]}
    trace = "先确认出发城市和日期，" * 20000  # ~200k characters of reasoning
    rows = [
        {"id": "a", "calls": [{"name": "book", "arguments": {"order": nested, "count": 2, "price": 553.5}}]},
        {
            "id": "b",
            "tool_calls": [
                {"type": "function", "function": {"name": "book", "arguments": json.dumps(nested)}}
            ],
            "raw": {"role": "assistant", "reasoning_content": trace, "content": None},
            "usage": {"prompt_tokens": 1234, "completion_tokens": 56789},
        },
        {"id": "c", "calls": [], "content": "好的😀\u2028第二行\x85第三行", "latency_ms": 1.25e3},
    ]
    lines = [json.dumps(rows[0], ensure_ascii=False), json.dumps(rows[1]), json.dumps(rows[2])]
    from plugineval.predictions import split_lines

    p = parse_predictions(split_lines("\n".join(lines) + "\r\n"))
    assert p["a"].calls[0].arguments["order"] == nested and p["b"].calls[0].arguments == nested
    assert p["c"].content == "好的😀\u2028第二行\x85第三行" and not any(x.invalid for x in p.values())


def test_an_arguments_string_past_a_bound_is_the_models_invalid_output() -> None:
    deep = "[" * 3000 + "]" * 3000
    row = {"id": "a", "tool_calls": [{"type": "function", "function": {"name": "f", "arguments": deep}}]}
    huge = {
        "id": "b",
        "tool_calls": [
            {"type": "function", "function": {"name": "f", "arguments": '{"n": ' + "7" * 400 + "}"}}
        ],
    }
    p = parse_predictions(_lines([row, huge]))
    assert p["a"].invalid and "nested 3000 levels deep; the limit is 64" in (p["a"].invalid_reason or "")
    assert p["b"].invalid and "a number literal of 400 characters" in (p["b"].invalid_reason or "")


def test_hostile_files_through_the_cli_and_the_space(tmp_path: Path) -> None:
    recs = _records()
    rec_file = tmp_path / "records.jsonl"
    rec_file.write_text("\n".join(json.dumps(r.to_row(), ensure_ascii=False) for r in recs), encoding="utf-8")
    bad = tmp_path / "deep.jsonl"
    bad.write_text('{"id": "p0", "calls": []}\n' + DEEP.replace('"b"', '"p1"') + "\n", encoding="utf-8")
    cmd = [sys.executable, "-m", "plugineval.cli", "evaluate", str(bad), "--records", str(rec_file)]
    out = tmp_path / "r.json"
    res = subprocess.run([*cmd, "--judge", "rules", "--out", str(out)], capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr and not out.exists()
    assert (
        "line 2: the line breaks a bound of the reader: nested 5004 levels deep; the limit is 64"
        in res.stderr
    )

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "space"))
    from plugineval_space import livejudge

    with pytest.raises(livejudge.UploadError) as e:
        livejudge.judge_upload(bad, recs, judge="rules")
    assert "| 2 | the line breaks a bound of the reader: nested 5004 levels deep; the limit is 64 |" in str(
        e.value
    )
    # the failures table shows why an output was invalid (the verdict's "detail")
    good = tmp_path / "ok.jsonl"
    good.write_text(
        '{"id": "p0", "tool_calls": [{"type": "function", "function": {"name": "weather", "arguments": "{bad"}}]}\n',
        encoding="utf-8",
    )
    j = livejudge.judge_upload(good, recs, judge="rules")
    reasons = dict(livejudge.per_record_table(j.report.per_record)[["id", "reasons"]].values.tolist())
    assert "arguments are not valid JSON" in reasons["p0"] and reasons["p1"] == "no prediction for this id"


def test_report_bytes_are_pinned_and_round_trip_through_the_typed_entries(tmp_path: Path) -> None:
    """report.json of the judge cases (tests/report_fixture.py) is byte for byte the file the
    dict-based per-record entries wrote (tests/data/report_cases.json), and a loaded report saves to
    the same bytes again."""
    from report_fixture import report

    from plugineval.entries import VerdictEntry

    golden = Path(__file__).parent / "data" / "report_cases.json"
    rep = report()
    assert all(isinstance(e, VerdictEntry) for e in rep.per_record.values())
    rep.save(tmp_path / "new.json")
    assert (tmp_path / "new.json").read_bytes() == golden.read_bytes()
    again = Report.load(golden)
    again.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == golden.read_bytes()
    assert again.per_record == rep.per_record


def test_entries_are_typed_and_their_json_form_is_kept_exactly() -> None:
    from report_fixture import report

    from plugineval.entries import OUTCOME, VerdictEntry, typed
    from plugineval.judge import Category, Outcome, Subtype

    rep = report()
    stored = rep.to_dict()["per_record"]
    for rid, d in stored.items():
        e = VerdictEntry.from_json(d)
        assert list(e.to_json().items()) == list(d.items())  # same keys, same order, same values
        assert e == rep.per_record[rid] and dict(e) == d and e[OUTCOME] == d[OUTCOME]
        assert isinstance(e.outcome, Outcome)
        assert e.category is None or isinstance(e.category, Category)
        assert e.subtype is None or isinstance(e.subtype, Subtype)
    # keys a stored entry carries beyond the known ones are kept, in place
    odd = {"outcome": "TP", "note": [1], "kind": "positive"}
    assert list(VerdictEntry.from_json(odd).to_json().items()) == list(odd.items())
    # the metrics read the typed entries; entries in their JSON form give the same figures
    assert summarize(rep.per_record.values()) == summarize(stored.values())
    s = summarize(typed(stored.values()))
    assert s == {k: rep.metrics[k] for k in s}
    with pytest.raises(ValueError, match="'outcome'"):
        VerdictEntry.from_json({"kind": "positive"})
    with pytest.raises(ValueError):
        VerdictEntry.from_json({"outcome": "MAYBE"})


def test_the_cli_offers_the_schemas_splits() -> None:
    from plugineval.cli._args import SPLITS as CLI_SPLITS
    from plugineval.schema import SPLITS
    from plugineval.schema.record import Record

    assert CLI_SPLITS is SPLITS  # one declaration (plugineval._constants), the schema's Literal too
    assert tuple(Record.model_fields["split"].annotation.__args__) == SPLITS
