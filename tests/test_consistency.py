"""Drafts that contradict themselves or their reference time are refused before Stage I
(``synth/consistency.py``)."""

from __future__ import annotations

from plugineval.builder.synth.consistency import contradiction, deadline_passed
from plugineval.catalog import load_catalog


def test_a_deadline_of_today_that_has_passed_is_no_request_the_tools_answer() -> None:
    """train round O: 厦门开车去福州中午前能到吗 asked at 13:01 — the model said noon had passed, the
    gold planned the route. Another day said, or a time before the deadline, is a request."""
    q = "厦门开车去福州中午前能到吗"
    assert deadline_passed(q, "2025-10-13T13:01:00+08:00") is not None
    assert contradiction(load_catalog(), q, "2025-10-13T13:01:00+08:00", []) is not None
    assert deadline_passed(q, "2025-10-13T08:30:00+08:00") is None
    assert deadline_passed("明天厦门开车去福州中午前能到吗", "2025-10-13T13:01:00+08:00") is None
    assert deadline_passed("今天坐火车回南京，天黑前能到吗", "2025-10-13T18:20:00+08:00") is not None
    assert deadline_passed("后天坐火车回南京，天黑前能到吗", "2025-10-13T18:20:00+08:00") is None
