"""Hostile values before the judge (issue 23): the judge does work linear in its input.

Every input is generated here, as the predictions fuzzer's are (tests/test_fuzz_predictions.py):
long runs of whitespace, digits, 万 / 千 / 点, digits and spaces alternating, long Chinese numerals,
nested brackets, each alone and behind the head a parser commits to (``1`` … ``元``, ``3点`` …,
``3月`` …, ``P`` …, ``今天`` …).

- A value longer than ``normalize.MAX_NORMALIZE_CHARS`` is not read by any value parser, and the judge
  decides it without normalizing (docs/judge.md, "What a normalizer reads"): 64 KiB values finish at
  once.
- Below the cap the patterns are linear: with the cap lifted, 16 KiB values finish too (the old
  patterns took from tens of seconds to hours on several of these shapes).

Time is asserted only as a generous deadline per call (5 s, run in a child process that is killed
when it passes): linear code takes milliseconds, the quadratic code it replaces far longer.
"""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from plugineval.judge import Judge, Outcome
from plugineval.judge._types import Reason
from plugineval.predictions import PredictionFileError, read_predictions

TESTS = Path(__file__).resolve().parent
DEADLINE_S = 5.0

# --------------------------------------------------------------------------- the shapes


def _run(unit: str, n: int) -> str:
    return (unit * (n // len(unit) + 1))[:n]


#: name -> the hostile string of about n characters (at most n + 12) of that shape
SHAPES: dict[str, Callable[[int], str]] = {
    "spaces": lambda n: _run(" ", n),
    "number, spaces, x": lambda n: "1" + _run(" ", n) + "x",
    "number, spaces, 元 x": lambda n: "100" + _run(" ", n) + "元x",
    "$, spaces, x": lambda n: "$" + _run(" ", n) + "x",
    "ideographic spaces": lambda n: "3" + _run("\u3000", n) + "公里x",
    "tabs and newlines": lambda n: _run("\t\n", n) + "1元",
    "no-break spaces": lambda n: "1" + _run("\u00a0", n) + "x",
    "digits, x": lambda n: _run("7", n) + "x",
    "digit space": lambda n: _run("7 ", n),
    "万": lambda n: _run("万", n),
    "千, x": lambda n: _run("千", n) + "x",
    "点": lambda n: _run("点", n),
    "一点": lambda n: _run("一点", n),
    "一 (digit by digit)": lambda n: _run("一", n),
    "Chinese numerals": lambda n: _run("一二三四五六七八九十百千万亿", n),
    "3月, digits": lambda n: "3月" + _run("7", n) + "x",
    "3点, digits": lambda n: "3点" + _run("7", n) + "x",
    "P, digits": lambda n: "P" + _run("7", n) + "x",
    "今天, digits": lambda n: "今天" + _run("7", n) + "x",
    "半": lambda n: _run("半", n) + "x",
    "date, t": lambda n: "2026-03-18" + _run("t", n) + "x",
    "元 space": lambda n: _run("元 ", n),
    "3小时": lambda n: _run("3小时", n) + "x",
    "nested brackets": lambda n: _run("(", n // 2) + _run(")", n // 2),
    "nested mixed brackets": lambda n: _run("([{", n // 2) + _run("}])", n // 2),
}


def shapes(n: int) -> dict[str, str]:
    """Every hostile shape at about ``n`` characters, by name (generated: nothing is stored)."""
    return {name: make(n) for name, make in SHAPES.items()}


#: name -> an expression of the value parsers (and the two scanners of free text) over ``s``
PARSERS = {
    "parse_money": "N.parse_money(s)",
    "parse_quantity": "N.parse_quantity(s)",
    "parse_number": "N.parse_number(s)",
    "canonical_currency": "N.canonical_currency(s)",
    "canonical_site": "canonical_site(s)",
    "parse_absolute": "N.parse_absolute(s, TZ, 2026)",
    "resolve": "N.resolve(s, REF)",
    "is_relative": "N.is_relative(s)",
    "compare_time": "N.compare_time(s, '2026-03-18', REF, TZ)",
    "calendar_kind": "calendar_kind(s)",
}
SCANNERS = {"find_numbers": "find_numbers(s)", "normalize_text": "N.normalize_text(s)"}

_CHILD = """
import sys
sys.path.insert(0, {tests!r})
from datetime import datetime, timedelta, timezone
from plugineval import normalize as N
from plugineval.normalize.calendar_expr import calendar_kind
from plugineval.normalize.numbers import find_numbers
from plugineval.normalize.places import canonical_site
from test_hostile_judge import shapes
if {lift}:
    from plugineval.normalize import limits
    limits.MAX_NORMALIZE_CHARS = 1 << 30
TZ = timezone(timedelta(hours=8))
REF = datetime(2026, 3, 18, 9, 30, tzinfo=TZ)
calls = {calls!r}
for shape, s in shapes({n}).items():
    for name, expr in calls.items():
        print("start", name, "|", shape, flush=True)
        eval(expr)
        print("done", flush=True)
print("end", flush=True)
"""


def _within_deadline(calls: dict[str, str], n: int, lift_cap: bool) -> None:
    """Run every call on every shape of ``n`` characters in a child process; fail naming the first
    call that does not finish within DEADLINE_S (the child is killed then: a regex cannot be
    interrupted from a thread)."""
    code = _CHILD.format(tests=str(TESTS), lift=lift_cap, calls=calls, n=n)
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    lines: queue.Queue[str] = queue.Queue()
    assert child.stdout is not None

    def pump() -> None:
        assert child.stdout is not None
        for line in child.stdout:
            lines.put(line.strip())
        lines.put("eof")

    threading.Thread(target=pump, daemon=True).start()
    current = "(start-up)"
    try:
        while True:
            try:
                line = lines.get(timeout=DEADLINE_S if current != "(start-up)" else 60)
            except queue.Empty:
                pytest.fail(f"{current} on {n:,} characters did not finish in {DEADLINE_S:.0f} s")
            if line.startswith("start "):
                current = line[len("start ") :]
            elif line == "end":
                break
            elif line == "eof":
                child.wait(10)
                pytest.fail(f"the child stopped during {current}: {child.stderr.read()[-2000:]}")  # type: ignore[union-attr]
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(10)


def test_a_value_past_the_cap_is_not_read() -> None:
    """64 KiB hostile values: every value parser answers at once (it does not read them)."""
    _within_deadline(PARSERS, 64 * 1024, lift_cap=False)


def test_the_patterns_are_linear_below_the_cap() -> None:
    """With the cap lifted, 16 KiB hostile values still finish within the deadline: the patterns
    themselves do not backtrack (the quadratic ones took 40 s on 16,000 spaces)."""
    _within_deadline(PARSERS | SCANNERS, 16 * 1024, lift_cap=True)


# --------------------------------------------------------------------------- the cap, parser by parser

TZ = timezone(timedelta(hours=8))
REF = datetime(2026, 3, 18, 9, 30, tzinfo=TZ)


def _padded(head: str, tail: str, length: int) -> str:
    """``head`` + spaces + ``tail``, ``length`` characters in all."""
    return head + " " * (length - len(head) - len(tail)) + tail


def test_each_parser_reads_up_to_the_cap_and_not_past_it() -> None:
    from plugineval import normalize as N
    from plugineval.normalize.calendar_expr import calendar_kind
    from plugineval.normalize.places import canonical_site

    cap = N.MAX_NORMALIZE_CHARS
    cases: list[tuple[Callable[[str], Any], str, str, Any, Any]] = [
        (N.parse_money, "100", "元", (100.0, "CNY"), None),
        (N.parse_quantity, "3", "公里", (3000.0, "m"), None),
        (N.canonical_currency, "", "人民币", "CNY", None),
        (N.parse_number, "", "42", 42.0, None),
        (canonical_site, "", "北京", "北京", None),
        (N.canonical_place, "", "上海市", "上海", None),
        (lambda s: N.parse_absolute(s, TZ), "", "2026-03-19", N.parse_absolute("2026-03-19", TZ), None),
        (lambda s: N.resolve(s, REF), "", "明天", N.resolve("明天", REF), None),
        (N.is_relative, "", "明天", True, False),
        (calendar_kind, "", "农历十月初八", "lunar", None),
    ]
    for fn, head, tail, read, unread in cases:
        assert read is not None
        assert fn(_padded(head, tail, cap)) == read, (head, tail)  # at the cap: read
        assert fn(_padded(head, tail, cap + 1)) == unread, (head, tail)  # one past it: not read
    assert N.compare_time(_padded("", "2026-03-19", cap + 1), "2026-03-19", REF, TZ) == "equal"  # stripped
    assert N.compare_time(_padded("", "2026年3月19日", cap + 1), "2026-03-19", REF, TZ) == "unparsed"
    assert N.compare_time(_padded("", "2026年3月19日", cap), "2026-03-19", REF, TZ) == "format_variant"


def test_a_value_past_the_cap_is_not_cached() -> None:
    from plugineval.normalize import numbers, timeexpr, units

    caches = [units._parse_money, units._parse_quantity, numbers._parse_number, timeexpr._parse_absolute]
    before = [c.cache_info().currsize for c in caches]
    big = "1" + " " * 70_000 + "元"
    units.parse_money(big), units.parse_quantity(big), numbers.parse_number(big)
    timeexpr.parse_absolute(big, TZ)
    assert [c.cache_info().currsize for c in caches] == before


def test_long_numbers_are_none_never_inf_nor_an_error() -> None:
    from plugineval.normalize import parse_number

    assert parse_number("一" * 400) is None  # digit by digit: raised OverflowError before
    assert parse_number("1" * 400) is None  # was inf, so two different such numbers were equal
    assert parse_number("二〇二六") == 2026.0
    assert parse_number("9" * 300) == float("9" * 300)


# --------------------------------------------------------------------------- through the judge

GOLD = {
    "from_city": "北京",
    "to_city": "上海",
    "date": "2026-03-19",
    "budget": "500元",
    "note": "靠窗",
}
MIB = 2**20  # the reader's bound on one string (MAX_STRING_CHARS): the largest a value can be


def _records(n: int) -> list[Any]:
    from judge_fixtures import make_record

    return [make_record(f"r{i}", gold=[("search", dict(GOLD))]) for i in range(n)]


def _normal_predictions() -> list[dict[str, Any]]:
    """One line per record: right, a format variant, an alias, a wrong value, a relative date …"""
    variants: list[dict[str, Any]] = [
        {},
        {"date": "2026年3月19日"},
        {"budget": "500块"},
        {"budget": "五百元"},
        {"budget": "600元"},
        {"from_city": "北京市"},
        {"to_city": "Shanghai"},
        {"date": "明天"},
        {"date": "2026-03-20"},
        {"note": "靠窗的座位"},
        {"budget": "500 元"},
        {"to_city": "上海虹桥站"},
    ]
    return [
        {"id": f"r{i}", "calls": [{"name": "search", "arguments": {**GOLD, **v}}]}
        for i, v in enumerate(variants)
    ]


NORMAL_REASONS = ["exact", "format_variant", "money_equal", "money_equal", "value_mismatch", "place_alias"]
NORMAL_REASONS += [
    "place_alias",
    "relative_time",
    "time_mismatch",
    "undecided",
    "normalized",
    "value_mismatch",
]


def _hostile_values(size: int) -> list[tuple[str, str]]:
    """(argument, value) of about ``size`` characters, every shape into every kind of argument."""
    args = ["budget", "date", "from_city", "note"]
    return [(args[i % len(args)], s) for i, s in enumerate(shapes(size).values())]


def _write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n", encoding="utf-8")
    return path


def _judged(path: Path, n: int) -> dict[str, Any]:
    records = _records(n)
    preds = read_predictions(path, {r.id for r in records})
    return Judge("rules").run(records, preds)


def test_hostile_values_in_a_predictions_file(tmp_path: Path) -> None:
    """1 MiB values of every shape in a predictions file: each is decided without normalizing, named
    by its reason; a value under the cap is normalized as before; the other lines keep their verdicts."""
    plain = _normal_predictions()
    hostile_values = _hostile_values(MIB - 64) + _hostile_values(1000)
    lines = [json.loads(json.dumps(x)) for x in plain]
    for k, (arg, value) in enumerate(hostile_values):
        args = {**GOLD, arg: value}
        lines.append({"id": f"r{len(plain) + k}", "calls": [{"name": "search", "arguments": args}]})
    n = len(lines)
    before = _judged(_write(tmp_path / "plain.jsonl", plain), len(plain))
    after = _judged(_write(tmp_path / "hostile.jsonl", lines), n)
    for rid, v in before.items():  # the normal lines: the same verdicts with the hostile ones beside them
        assert after[rid] == v
    reasons = [
        next((a.reason.value for a in v.arguments if a.reason is not Reason.EXACT), "exact")
        for v in before.values()
    ]
    assert reasons == NORMAL_REASONS  # the reasons the judge gave before the cap and the linear patterns
    cap_detail = "not normalized (the judge reads at most 1,024)"
    for k, (arg, value) in enumerate(hostile_values):
        v = after[f"r{len(plain) + k}"]
        (a,) = [a for a in v.arguments if a.arg == arg]
        if len(value) > 1024:
            if value.strip() == GOLD[arg]:
                assert a.reason is Reason.NORMALIZED
            else:
                assert (a.reason, a.detail) == (
                    Reason.VALUE_MISMATCH,
                    f"{len(value):,} characters: {cap_detail}",
                )
                assert v.outcome is Outcome.FN
                assert v.subtype == ("temporal" if arg == "date" else "incorrect_value")
        else:  # normalized, and wrong: never accepted
            assert a.reason not in (Reason.EXACT, Reason.NORMALIZED) and a.detail != cap_detail


def test_past_the_cap_equal_once_stripped_and_under_it_normalized(tmp_path: Path) -> None:
    lines = [
        {
            "id": "r0",
            "calls": [{"name": "search", "arguments": {**GOLD, "to_city": " 上海 " + " " * (MIB // 2)}}],
        },
        {
            "id": "r1",
            "calls": [{"name": "search", "arguments": {**GOLD, "budget": _padded("五百", "元", 1024)}}],
        },
        {
            "id": "r2",
            "calls": [{"name": "search", "arguments": {**GOLD, "budget": _padded("五百", "元", 1025)}}],
        },
        {
            "id": "r3",
            "calls": [{"name": "search", "arguments": {**GOLD, "date": _padded("", "2026年3月19日", 1024)}}],
        },
    ]
    out = _judged(_write(tmp_path / "p.jsonl", lines), len(lines))
    reason = {
        rid: next(a.reason for a in v.arguments if a.reason is not Reason.EXACT) for rid, v in out.items()
    }
    assert reason == {
        "r0": Reason.NORMALIZED,  # past the cap, but the gold once stripped
        "r1": Reason.MONEY_EQUAL,  # at the cap: read
        "r2": Reason.VALUE_MISMATCH,  # one past: not read
        "r3": Reason.FORMAT_VARIANT,
    }


def test_the_reader_bounds_a_string_at_one_mib(tmp_path: Path) -> None:
    """The cap decides what a normalizer reads; the reader already refuses a string past 1 MiB."""
    line = {"id": "r0", "calls": [{"name": "search", "arguments": {**GOLD, "note": " " * (MIB + 1)}}]}
    with pytest.raises(PredictionFileError, match="a string of 1,048,577 characters; the limit is 1,048,576"):
        read_predictions(_write(tmp_path / "p.jsonl", [line]), {"r0"})


def test_a_report_never_copies_a_hostile_value_back_out() -> None:
    from plugineval.judge._types import SHOWN_CHARS, _shown
    from plugineval.normalize.limits import MAX_NORMALIZE_CHARS

    big = "元" * (1 << 20)
    shown = _shown(big)
    assert len(shown) < SHOWN_CHARS + 40 and shown.endswith("(1,048,576 characters)")
    ok = "x" * MAX_NORMALIZE_CHARS
    assert _shown(ok) == ok and _shown(3) == 3


def test_a_code_run_into_a_relative_date_is_no_date() -> None:
    """600519十二天前 (a stock code before 十二天前) crashed the reader with OverflowError (train grammar
    pass); a count past ``MAX_OFFSET`` is no offset, the real ones still resolve."""
    from datetime import datetime, timedelta, timezone

    from plugineval.normalize import resolve

    ref = datetime(2026, 3, 18, 9, 30, tzinfo=timezone(timedelta(hours=8)))
    for s in ("600519十二天前", "9" * 30 + "天后", "123456789个月前", "99999年后"):
        assert resolve(s, ref) is None, s
    got = resolve("十二天前", ref)
    assert got is not None and str(got.start) == "2026-03-06"
