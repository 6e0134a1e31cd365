"""Shopping tools take the product or coupon by name as people say it, where they take its id: the same
answer as with the id; an unknown name refused as unknown, a name of several refused as ambiguous."""

from __future__ import annotations

from test_tools import CAT
from test_tools_names import _by_name, _refused

PH_REF = "2025-11-20T19:00:00+08:00"
PH = {"start_date": "2025-10-01", "end_date": "2025-11-15"}


def test_price_history_by_product_name() -> None:
    # P100206 is 索尼MaxZ3 降噪耳机: its full name (space optional) and brand + series + model
    names = ["索尼MaxZ3 降噪耳机", "索尼MaxZ3降噪耳机", "索尼MaxZ3", "p100206"]
    _by_name("price_history_query", "product", PH_REF, PH, "P100206", names)
    # an everyday good without a model, by its full name said without the space
    _by_name("price_history_query", "product", PH_REF, PH, "P100001", ["帮宝适青春款纸尿裤"])
    code, msg = _refused("price_history_query", {**PH, "product": "索尼MaxZ99 降噪耳机"}, PH_REF)
    assert code == "UNKNOWN_PRODUCT" and "索尼MaxZ99" in msg
    code, _ = _refused("price_history_query", {**PH, "product": "P999999"}, PH_REF)
    assert code == "UNKNOWN_PRODUCT"
    # brand + series without the noun names two products: refused, both named
    code, msg = _refused("price_history_query", {**PH, "product": "JBLSE"}, PH_REF)
    assert code == "AMBIGUOUS_NAME" and "JBLSE 降噪耳机" in msg and "JBLSE 运动耳机" in msg, msg


COUPON_REF = "2025-10-08T10:00:00+08:00"


def test_coupon_claim_by_title() -> None:
    # C3001 is 全平台满999减150, claimable that day; a trailing 券 / 的券 is optional
    names = ["全平台满999减150", "全平台满999减150券", "全平台满999减150的券", "c3001"]
    _by_name("coupon_claim", "coupon_id", COUPON_REF, {}, "C3001", names)
    code, msg = _refused("coupon_claim", {"coupon_id": "全平台满999减1500"}, COUPON_REF)
    assert code == "UNKNOWN_COUPON" and "全平台满999减1500" in msg
    code, _ = _refused("coupon_claim", {"coupon_id": "C9999"}, COUPON_REF)
    assert code == "UNKNOWN_COUPON"
    # two coupons carry this title (C3046, C3047), with or without its brackets: refused, both listed
    for title in ("平板电脑9.5折券（满99可用）", "平板电脑9.5折券满99可用"):
        code, msg = _refused("coupon_claim", {"coupon_id": title}, COUPON_REF)
        assert code == "AMBIGUOUS_NAME" and "C3046" in msg and "C3047" in msg, msg


def test_catalog_examples_name_no_ids() -> None:
    """The schema takes a name: no id pattern on the coupon argument, descriptions state the rule."""
    tools = {t.name: t for p in CAT.plugins for t in p.tools}
    coupon = tools["coupon_claim"].parameters["properties"]["coupon_id"]
    assert "pattern" not in coupon and "标题" in coupon["description"]
    assert "全名" in tools["price_history_query"].parameters["properties"]["product"]["description"]
