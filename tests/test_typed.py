"""A request is typed the way people type a short message: the pattern's commas mostly left out."""

from __future__ import annotations

import re

import pytest

from plugineval.builder.synth import typed as typed_mod
from plugineval.builder.synth.slots import SlotValue
from plugineval.builder.synth.synthesizer import _said
from plugineval.builder.synth.typed import typed


@pytest.fixture
def no_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typed_mod, "QUESTION_MARK", 0.0)
    monkeypatch.setattr(typed_mod, "FULL_STOP", 0.0)
    monkeypatch.setattr(typed_mod, "SLIP", 0.0)


def test_most_requests_lose_their_commas_and_the_draw_is_the_texts_own(monkeypatch) -> None:
    monkeypatch.setattr(typed_mod, "SLIP", 0.0)
    texts = [f"明天去城市{i}，要带伞吗" for i in range(400)]
    out = [typed([(t, True)]) for t in texts]
    dropped = sum("，" not in o for o in out) / len(out)
    assert abs(dropped - typed_mod.DROP_COMMAS) < 0.07
    assert out == [typed([(t, True)]) for t in texts]  # the same text is always typed the same way
    assert all(o.rstrip("？") in (t, t.replace("，", "")) for o, t in zip(out, texts, strict=True))


def test_a_comma_before_a_figure_or_a_slots_own_comma_stays(monkeypatch, no_marks) -> None:
    monkeypatch.setattr(typed_mod, "DROP_COMMAS", 1.0)
    assert typed([("身高1米58，体重62公斤，BMI多少", True)]) == "身高1米58体重62公斤，BMI多少"
    assert typed([("明天吃药，6月26日交水电费", True)]) == "明天吃药，6月26日交水电费"  # no 吃药6月26日
    assert typed([("500，300", True)]) == "500，300"  # 500300 would be another figure
    assert typed([("CA1234，MU5678", True)]) == "CA1234，MU5678"
    # a comma inside a slot's value (its surface) is the value's, not the pattern's
    assert typed([("提醒我", True), ("开会，带电脑", False), ("，明天", True)]) == "提醒我开会，带电脑明天"
    vals = {"c": SlotValue("北京", "北京"), "n": SlotValue(3, "3")}
    assert _said("去{c}，要带伞吗", vals) == "去北京要带伞吗"
    assert _said("{n}，{n}", vals) == "3，3"


def test_without_the_step_nothing_changes(monkeypatch, no_marks) -> None:
    monkeypatch.setattr(typed_mod, "DROP_COMMAS", 0.0)
    assert typed([("明天去桂林，要带伞吗", True)]) == "明天去桂林，要带伞吗"
    assert not re.search("，", typed([("明天天气", True)]))


def test_most_requests_are_written_in_the_standard_words(monkeypatch, no_marks) -> None:
    """啥 in 4.0 % of train requests (real 1.5 %), a question ending in 没 2.3 % (real 0.1 %)."""
    monkeypatch.setattr(typed_mod, "STANDARD_WORDS", 1.0)
    monkeypatch.setattr(typed_mod, "DROP_COMMAS", 0.0)
    said = {
        "海口昨天下雨没": "海口昨天下雨了吗",
        "招行还清了没": "招行还清了吗",
        "宁波大后天有场杂技没": "宁波大后天有场杂技吗",
        "去年有台风在深圳上岸没有": "去年有台风在深圳上岸吗",
        "为啥年底扣税变多了": "为什么年底扣税变多了",
        "西红柿咋做": "西红柿怎么做",
        "今天有没有": "今天有没有",
    }
    assert {q: typed([(q, True)]) for q in said} == said
    # a slot's value keeps its own words
    assert typed([("CCTV", True), ("啥剧", False), ("播啥", True)]) == "CCTV啥剧播什么"
    monkeypatch.setattr(typed_mod, "STANDARD_WORDS", 0.0)
    assert typed([("海口昨天下雨没", True)]) == "海口昨天下雨没"


def test_the_share_in_standard_words_follows_the_setting() -> None:
    out = [typed([(f"城市{i}明天有啥演出", True)]) for i in range(400)]
    share = sum("什么" in o for o in out) / len(out)
    assert abs(share - typed_mod.STANDARD_WORDS) < 0.07


def test_a_request_ends_with_a_mark_as_often_as_real_ones_do() -> None:
    """Real requests: a question ends with ？ a quarter of the time, another request with 。 about as
    often; a request ending in a figure or a Latin letter (台风2221) never gets one."""
    questions = [typed([(f"城市{i}明天下雨吗", True)]) for i in range(600)]
    asks = [typed([(f"播放歌手{i}的歌", True)]) for i in range(600)]
    q = sum(t.endswith("？") for t in questions) / len(questions)
    a = sum(t.endswith("。") for t in asks) / len(asks)
    assert abs(q - typed_mod.QUESTION_MARK) < 0.06 and abs(a - typed_mod.FULL_STOP) < 0.06
    assert not any(t.endswith("。") for t in questions) and not any(t.endswith("？") for t in asks)
    assert all(typed([(f"台风{2200 + i}", True)]).endswith(str(2200 + i)) for i in range(200))


@pytest.mark.parametrize(
    "text",
    [
        "海口1月13日下不下雨",
        "充电会不会排长队",
        "上个月水费交了没",
        "骑车要多久",
        "开车到新天地多远",
        "昨天算不算透雨",
    ],
)
def test_an_a_not_a_question_or_a_closing_mei_never_ends_with_a_full_stop(text: str) -> None:
    """A question said without a question word (下不下, 会不会, 多久, 交了没) is a question: it may end with
    ？, never with 。."""
    ends = {typed([(f"城市{i}{text}", True)])[-1] for i in range(200)}
    assert "。" not in ends and "？" in ends


def test_now_and_then_a_request_carries_a_slip_in_its_own_words_never_in_a_value(
    monkeypatch, no_marks
) -> None:
    monkeypatch.setattr(typed_mod, "SLIP", 1.0)  # after the fixture's 0
    monkeypatch.setattr(typed_mod, "DROP_COMMAS", 0.0)
    monkeypatch.setattr(typed_mod, "STANDARD_WORDS", 0.0)
    assert typed([("帮我查询", True), ("G1234", False), ("的余票", True)]) == "帮我查寻G1234的余票"
    assert typed([("放一首歌再来一首", True)]) == "放一首歌在来一首"
    assert typed([("招行", False), ("账单出了吗", True)]) == "招行帐单出了吗"
    assert typed([("明天", True), ("北京", False), ("下雨吗", True)]) == "明天北京下雨嘛"
    # a value keeps its words, and a request without a slip's word stays as it is
    assert typed([("搜下", True), ("查询系统吗", False)]) == "搜下查询系统吗"
    assert typed([("北京天气", True)]) == "北京天气"
    monkeypatch.setattr(typed_mod, "SLIP", 0.05)
    out = [typed([(f"城市{i}的账单", True)]) for i in range(1000)]
    assert 0.02 < sum("帐" in o for o in out) / len(out) < 0.09
