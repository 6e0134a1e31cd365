"""A booking tool takes the place or person by name as people say it, where it takes its id: the same
answer as with the id; an unknown name refused as unknown, a name of several refused as ambiguous."""

from __future__ import annotations

from typing import Any

from test_tools import _run

from plugineval.builder.tools.store import Store


def _by_name(tool: str, arg: str, ref: str, base: dict[str, Any], id_: str, names: list[str]) -> list[Any]:
    """Call with the id, then each name: every name gives the id's answer."""
    outs = _run([(tool, {**base, arg: v}, ref) for v in [id_, *names]])
    assert outs[0].ok, outs[0].error_message
    for name, o in zip(names, outs[1:], strict=True):
        assert o.ok and o.result == outs[0].result, (name, o.error_message)
    return outs


def _refused(tool: str, args: dict[str, Any], ref: str) -> tuple[str, str]:
    (o,) = _run([(tool, args, ref)])
    assert not o.ok
    return str(o.error_code), str(o.error_message)


VAC_REF = "2026-09-01T14:30:00+08:00"
VAC = {"vaccine": "hpv_9valent", "date": "2026-09-03", "period": "morning"}


def test_vaccine_centre_by_name() -> None:
    # VC2508 is 杭州市龙山街道社区卫生服务中心
    _by_name("vaccine_book", "centre_id", VAC_REF, VAC, "VC2508",
             ["杭州市龙山街道社区卫生服务中心", "杭州龙山街道社区卫生服务中心"])  # fmt: skip
    code, msg = _refused("vaccine_book", {**VAC, "centre_id": "杭州市火星街道社区卫生服务中心"}, VAC_REF)
    assert code == "CENTRE_NOT_FOUND" and "火星街道" in msg
    # without its city the short name is one in many cities: refused with the candidates
    code, msg = _refused("vaccine_book", {**VAC, "centre_id": "龙山街道社区卫生服务中心"}, VAC_REF)
    assert code == "AMBIGUOUS_NAME" and "杭州市龙山街道社区卫生服务中心" in msg


HOTEL_REF = "2026-09-20T20:00:00+08:00"
HOTEL = {"check_in": "2026-10-01", "check_out": "2026-10-03", "room_type": "king"}


def test_hotel_by_name() -> None:
    # H00842 is 亚朵酒店（杭州滨江店）: said with or without the brackets
    _by_name(
        "hotel_book", "hotel_id", HOTEL_REF, HOTEL, "H00842", ["亚朵酒店（杭州滨江店）", "亚朵酒店杭州滨江店"]
    )
    code, msg = _refused("hotel_book", {**HOTEL, "hotel_id": "亚朵酒店杭州月球店"}, HOTEL_REF)
    assert code == "UNKNOWN_HOTEL" and "亚朵酒店杭州月球店" in msg


DOC_REF = "2026-04-08T10:15:00+08:00"


def test_doctor_by_name_and_an_ambiguous_one() -> None:
    base = {"date": "2026-04-10", "period": "morning"}  # D001895 陆振春 sees patients that Friday morning
    _by_name("appointment_book", "doctor_id", DOC_REF, base, "D001895", ["陆振春", "陆振春医生"])
    code, _ = _refused("appointment_book", {**base, "doctor_id": "欧阳不存在"}, DOC_REF)
    assert code == "DOCTOR_NOT_FOUND"
    # a name two doctors on duty that half-day share: refused, every one of them named
    db = Store.open(["health"]).readonly_connection()
    row = db.execute(
        """SELECT d.name, group_concat(d.doctor_id) AS ids FROM health_doctor_sessions s
           JOIN health_doctors d ON d.doctor_id = s.doctor_id WHERE s.weekday = 4 AND s.period = 'morning'
           GROUP BY d.name HAVING COUNT(*) > 1 ORDER BY d.name LIMIT 1"""
    ).fetchone()
    assert row is not None
    code, msg = _refused("appointment_book", {**base, "doctor_id": row["name"]}, DOC_REF)
    assert code == "AMBIGUOUS_NAME"
    assert all(i in msg for i in row["ids"].split(",")), msg


def test_pharmacy_by_name() -> None:
    ref, base = "2024-12-24T16:00:00+08:00", {"city": "成都", "drug": "布洛芬"}
    # PH21000 is 成都 一心堂（人民路店）; the same chain's branch name is in other cities too
    _by_name(
        "pharmacy_stock_check", "pharmacy_id", ref, base, "PH21000", ["一心堂人民路店", "一心堂（人民路店）"]
    )
    code, msg = _refused("pharmacy_stock_check", {**base, "pharmacy_id": "一心堂火星路店"}, ref)
    assert code == "PHARMACY_NOT_FOUND" and "一心堂火星路店" in msg


def test_family_member_by_nickname() -> None:
    ref = "2026-01-05T08:30:00+08:00"
    base = {"start_date": "2025-12-01", "end_date": "2025-12-31", "granularity": "week"}
    db = Store.open(["health"]).readonly_connection()
    nick = db.execute("SELECT nickname FROM health_fit_users WHERE user_id = 'U100002'").fetchone()[0]
    _by_name("step_stats", "user_id", ref, base, "U100002", [nick, "我妈", "老妈", "我的妈妈", "母亲"])
    code, _ = _refused("step_stats", {**base, "user_id": "查无此人"}, ref)
    assert code == "USER_NOT_FOUND"


def test_a_music_search_with_words_apart_matches_each_of_them() -> None:
    """五月天 倔强 finds 五月天's 倔强 (each word matches the title or the singer), as 倔强 alone does; a
    singer with a song not theirs finds nothing."""
    ref = "2025-11-18T11:56:00+08:00"
    one, both, wrong = _run(
        [
            ("music_search", {"keyword": "倔强"}, ref),
            ("music_search", {"keyword": "五月天 倔强"}, ref),
            ("music_search", {"keyword": "周杰伦 倔强"}, ref),
        ]
    )
    assert (
        [r["title"] for r in both.result["results"]]
        == [r["title"] for r in one.result["results"]]
        == ["倔强"]
    )
    assert wrong.result["total"] == 0
