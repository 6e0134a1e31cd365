"""金融 finance: stock quotes and history, FX conversion, loan repayment, income tax, fund NAV, card bills.

Listed companies and funds are invented (names from word lists); their daily prices and NAVs are
random walks seeded per instrument over the 2020–2030 exchange calendar, computed on demand from the
parameters the store keeps. FX keeps a stored daily mid-rate series per currency. Loan and tax figures
are real computations (equal-installment / equal-principal schedules on LPR or provident-fund rates;
China's comprehensive-income brackets and special additional deductions).
"""

from __future__ import annotations

import math
import random
import re
import sqlite3
from datetime import date, timedelta, timezone
from typing import Any

from ..runtime import ToolCtx, handler, stable_unit
from .finance_data import (
    BANKS,
    BASIC_DEDUCTION,
    CURRENCY_ZH,
    DEDUCTION_STANDARDS,
    FIRST_DAY,
    FUND_COMPANIES,
    FUND_RISK,
    FUND_THEMES,
    FUND_TYPE_ZH,
    INCOME_SHARE,
    INDUSTRY_ZH,
    LAST_DAY,
    LOAN_RATES,
    MERCHANT_BRANDS,
    MERCHANT_KINDS,
    TAX_BRACKETS,
    bar,
    fx_rows,
    is_trading_day,
    last_trading_day,
    price_path,
    stock_rows,
    trading_days,
    trading_index,
)

STORE_VERSION = "2"
SCHEMA_SQL = """
CREATE TABLE fin_stocks (
    symbol TEXT PRIMARY KEY, market TEXT NOT NULL, name TEXT NOT NULL UNIQUE, industry TEXT NOT NULL,
    list_index INTEGER NOT NULL, start_price REAL NOT NULL, drift REAL NOT NULL, vol REAL NOT NULL,
    limit_pct REAL NOT NULL, shares_m REAL NOT NULL, eps REAL NOT NULL
);
CREATE TABLE fin_funds (
    code TEXT PRIMARY KEY, name TEXT NOT NULL UNIQUE, fund_type TEXT NOT NULL, company TEXT NOT NULL,
    inception_index INTEGER NOT NULL, drift REAL NOT NULL, vol REAL NOT NULL, dividend REAL NOT NULL
);
CREATE TABLE fin_fx_rates (
    currency TEXT NOT NULL, date TEXT NOT NULL, cny_per_unit REAL NOT NULL, PRIMARY KEY (currency, date)
);
CREATE TABLE fin_loan_rates (
    effective_date TEXT PRIMARY KEY, lpr_1y REAL, lpr_5y REAL, pf_short REAL, pf_long REAL
);
CREATE TABLE fin_tax_brackets (upper REAL, rate REAL, quick_deduction REAL);
CREATE TABLE fin_tax_deductions (item TEXT, first_year INTEGER, amount REAL);
CREATE TABLE fin_card_banks (
    code TEXT PRIMARY KEY, name TEXT, grace_days INTEGER, min_ratio REAL, points_per_cny REAL
);
CREATE TABLE fin_merchants (id INTEGER PRIMARY KEY, name TEXT, category TEXT, min_cny REAL, max_cny REAL);
"""

_CN = timezone(timedelta(hours=8))
_BOARDS = [  # market, code range, count, daily price limit
    ("sh", (600000, 603999), 90, 0.10), ("sh", (688001, 688799), 25, 0.20), ("sz", (1, 1999), 45, 0.10),
    ("sz", (2001, 2999), 40, 0.10), ("sz", (300001, 301599), 40, 0.20), ("hk", (1, 9999), 60, 0.35),
]  # fmt: skip


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    n_days = len(trading_days())
    conn.executemany(
        "INSERT INTO fin_stocks VALUES (?,?,?,?,?,?,?,?,?,?,?)", stock_rows(rng, _BOARDS, n_days)
    )
    fund_names: set[str] = set()
    for i, code in enumerate(sorted(rng.sample(range(1, 20000), 120))):
        ftype = sorted(FUND_THEMES)[i % 4]
        while True:
            comp = rng.choice(FUND_COMPANIES)
            base = comp + rng.choice(FUND_THEMES[ftype]) + {"stock": "股票", "hybrid": "混合"}.get(ftype, "")
            if base not in fund_names:
                break
        fund_names.add(base)
        drift, vol = FUND_RISK[ftype]
        start = 0 if rng.random() < 0.8 else rng.randrange(0, int(n_days * 0.6))
        dividend = (
            round(rng.uniform(0.01, 0.05), 3) if ftype in ("bond", "hybrid") and rng.random() < 0.5 else 0.0
        )
        drift += rng.gauss(0, 0.03)
        vol *= rng.uniform(0.8, 1.2)
        for cls, fee in (("A", 0.0), ("C", 0.004)):
            conn.execute(
                "INSERT INTO fin_funds VALUES (?,?,?,?,?,?,?,?)",
                (f"{code + (0 if cls == 'A' else 20000):06d}", base + cls, ftype, comp + "基金", start,
                 round(drift - fee, 4), round(vol, 4), dividend),
            )  # fmt: skip
    conn.executemany("INSERT INTO fin_fx_rates VALUES (?,?,?)", fx_rows(rng))
    conn.executemany("INSERT INTO fin_loan_rates VALUES (?,?,?,?,?)", LOAN_RATES)
    conn.executemany(
        "INSERT INTO fin_tax_brackets VALUES (?,?,?)",
        [(u if u != math.inf else 1e18, r, q) for u, r, q in TAX_BRACKETS],
    )
    conn.executemany(
        "INSERT INTO fin_tax_deductions VALUES (?,?,?)",
        [(k, y, a) for k in sorted(DEDUCTION_STANDARDS) for y, a in DEDUCTION_STANDARDS[k]],
    )
    conn.executemany(
        "INSERT INTO fin_card_banks VALUES (?,?,?,?,?)", [(k, *v) for k, v in sorted(BANKS.items())]
    )
    rows, mid = [], 0
    for cat in sorted(MERCHANT_KINDS):
        _zh, words, (lo_amt, hi_amt) = MERCHANT_KINDS[cat]
        for brand in MERCHANT_BRANDS:
            for w in words:
                if rng.random() < 0.45:
                    mid += 1
                    rows.append((mid, brand + w, cat, lo_amt, hi_amt))
    conn.executemany("INSERT INTO fin_merchants VALUES (?,?,?,?,?)", rows)


# --- stocks -----------------------------------------------------------------------------------------


def _stock(ctx: ToolCtx, args: dict[str, Any]) -> Any:
    raw = str(args["symbol"]).strip()
    m = re.fullmatch(r"(?i)(sh|sz|hk)?\.?(\d{4,6})(?:\.(sh|sz|hk|ss))?", raw)
    if m is None and re.fullmatch(r"[A-Za-z.\-]{1,6}", raw):
        ctx.fail("MARKET_NOT_SUPPORTED", f"“{raw}”看起来是美股代码，本插件仅支持沪深 A 股和港股")
    if m is not None:
        digits = m.group(2)
        code = digits.zfill(5) if len(digits) < 6 else digits
        rows = ctx.query("SELECT * FROM fin_stocks WHERE symbol=?", (code,))
    else:
        rows = ctx.query("SELECT * FROM fin_stocks WHERE name=?", (raw,)) or ctx.query(
            "SELECT * FROM fin_stocks WHERE name LIKE ? ORDER BY symbol", (f"%{raw}%",)
        )
    if "market" in args:
        rows = [r for r in rows if r["market"] == args["market"]]
    if not rows:
        ctx.fail(
            "SYMBOL_NOT_FOUND", f"没有找到股票“{raw}”，请提供 6 位 A 股代码、5 位港股代码或准确的股票简称"
        )
    if len(rows) > 1:
        ctx.fail(
            "AMBIGUOUS_SYMBOL",
            "匹配到多只股票：" + "、".join(f"{r['name']}({r['symbol']})" for r in rows[:8]),
        )
    return rows[0]


def _closes(s: Any) -> tuple[float, ...]:
    return price_path(s["symbol"], s["start_price"], s["drift"], s["vol"], s["limit_pct"], s["list_index"])


def _tick(s: Any, price: float) -> float:
    if s["market"] != "hk":
        return 0.01
    return next(
        (t for lim, t in ((10, 0.01), (20, 0.02), (100, 0.05), (200, 0.1), (500, 0.2)) if price < lim), 0.5
    )


def _volume(s: Any, i: int) -> int:
    turnover_rate = 0.003 + 0.025 * stable_unit("vol", s["symbol"], i) ** 2
    return int(s["shares_m"] * 1e6 * turnover_rate / 100) * 100


@handler("stock_quote")
def stock_quote(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    s = _stock(ctx, args)
    closes = _closes(s)
    now = ctx.now.astimezone(_CN)
    d, minute = now.date(), now.hour * 60 + now.minute
    close_min = 960 if s["market"] == "hk" else 900
    am_end = 720 if s["market"] == "hk" else 690
    if not FIRST_DAY <= d <= LAST_DAY:
        ctx.fail("DATE_OUT_OF_RANGE", "行情数据覆盖 2020–2030 年")
    if is_trading_day(d) and minute >= 570:
        i = trading_index()[d]
        status = "closed" if minute >= close_min else "lunch_break" if am_end <= minute < 780 else "trading"
    else:
        j = last_trading_day(d - timedelta(days=1))
        if j is None:
            ctx.fail("NO_DATA", "暂无该时间之前的行情")
        i, status = j, "pre_market" if is_trading_day(d) else "market_closed"
    if closes[i] <= 0:
        ctx.fail("NOT_LISTED", f"{s['name']}({s['symbol']}) 在 {trading_days()[i].isoformat()} 尚未上市")
    tick = _tick(s, closes[i])
    b = bar(s["symbol"], closes, i, tick)
    price, high, low, vol = b["close"], b["high"], b["low"], _volume(s, i)
    if status in ("trading", "lunch_break"):
        elapsed = min(minute, am_end) - 570 + max(0, minute - 780)
        f = elapsed / (am_end - 570 + close_min - 780)
        wig = (b["high"] - b["low"]) * 0.3 * (2 * stable_unit("wig", s["symbol"], i) - 1)
        path = [
            b["open"] + (b["close"] - b["open"]) * g + wig * math.sin(math.pi * g)
            for g in (k / 20 * f for k in range(21))
        ]
        price = round(round(path[-1] / tick) * tick, 3)
        high = round(round(max(*path, b["open"]) / tick) * tick, 3)
        low = round(round(min(*path, b["open"]) / tick) * tick, 3)
        vol = int(vol * f / 100) * 100
    change = round(price - b["prev_close"], 3)
    cap = price * s["shares_m"] / 100
    return {
        "symbol": s["symbol"], "name": s["name"], "market": s["market"], "currency": "HKD" if s["market"] == "hk" else "CNY",
        "industry": INDUSTRY_ZH[s["industry"]], "trade_date": trading_days()[i].isoformat(), "status": status,
        "quote_time": now.isoformat(timespec="minutes"), "price": price, "change": change,
        "change_pct": round(change / b["prev_close"] * 100, 2) if b["prev_close"] else 0.0, "open": b["open"],
        "high": high, "low": low, "prev_close": b["prev_close"], "volume": vol,
        "turnover": round(vol * (high + low) / 2, 0), "market_cap_100m": round(cap, 2),
        "pe_ttm": round(price / s["eps"], 2) if s["eps"] > 0 else None,
    }  # fmt: skip


@handler("stock_history")
def stock_history(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    s = _stock(ctx, args)
    start, end = date.fromisoformat(args["start_date"]), date.fromisoformat(args["end_date"])
    if end < start:
        ctx.fail("BAD_DATE_RANGE", "结束日期不能早于开始日期")
    now = ctx.now.astimezone(_CN)
    closes = _closes(s)
    done_today = now.hour * 60 + now.minute >= (960 if s["market"] == "hk" else 900)
    bars: list[dict[str, Any]] = []
    for d, i in trading_index().items():
        if start <= d <= end and closes[i] > 0 and (d < now.date() or (d == now.date() and done_today)):
            b = bar(s["symbol"], closes, i, _tick(s, closes[i]))
            pct = round((b["close"] / b["prev_close"] - 1) * 100, 2) if b["prev_close"] else 0.0
            bars.append({"date": d.isoformat(), **{k: b[k] for k in ("open", "high", "low", "close")},
                         "change_pct": pct, "volume": _volume(s, i)})  # fmt: skip
    if not bars:
        ctx.fail("NO_TRADING_DATA", f"{s['name']} 在 {start} 至 {end} 之间没有交易数据（非交易日或尚未上市）")
    hi = max(bars, key=lambda x: x["high"])
    lo = min(bars, key=lambda x: x["low"])
    i0 = trading_index()[date.fromisoformat(bars[0]["date"])]
    first_prev = bar(s["symbol"], closes, i0, _tick(s, closes[i0]))["prev_close"]
    return {
        "symbol": s["symbol"], "name": s["name"], "market": s["market"],
        "currency": "HKD" if s["market"] == "hk" else "CNY", "bars": bars,
        "summary": {
            "trading_days": len(bars), "period_return_pct": round((bars[-1]["close"] / first_prev - 1) * 100, 2),
            "highest": hi["high"], "highest_date": hi["date"], "lowest": lo["low"], "lowest_date": lo["date"],
            "avg_volume": int(sum(x["volume"] for x in bars) / len(bars)),
        },
    }  # fmt: skip


# --- FX --------------------------------------------------------------------------------------------


def _cny_per(ctx: ToolCtx, cur: str, d: str) -> tuple[float, str]:
    """CNY per unit and the fixing date in force on ``d`` (weekends keep Friday's fixing)."""
    if cur == "CNY":
        return 1.0, d
    r = ctx.one(
        "SELECT cny_per_unit, date FROM fin_fx_rates WHERE currency=? AND date<=? ORDER BY date DESC LIMIT 1",
        (cur, d),
    )
    if r is None:
        ctx.fail("RATE_NOT_FOUND", f"暂无 {cur} 在 {d} 的汇率")
    return float(r["cny_per_unit"]), str(r["date"])


@handler("fx_convert")
def fx_convert(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    src, dst = args["from_currency"], args["to_currency"]
    d = args.get("date") or ctx.today.isoformat()
    (a, fix_a), (b, fix_b) = _cny_per(ctx, src, d), _cny_per(ctx, dst, d)
    rate = a / b
    out: dict[str, Any] = {
        "date": d, "rate_date": min(fix_a, fix_b), "from_currency": src, "from_name": CURRENCY_ZH[src], "to_currency": dst,
        "to_name": CURRENCY_ZH[dst], "amount": args["amount"], "rate": float(f"{rate:.6g}"),
        "inverse_rate": float(f"{1 / rate:.6g}"), "converted_amount": round(args["amount"] * rate, 2),
        "bank_quote_per_100": None,
    }  # fmt: skip
    foreign = dst if src == "CNY" else src if dst == "CNY" else None
    if foreign is not None and foreign != "CNY":
        mid = (a if foreign == src else b) * 100
        out["bank_quote_per_100"] = {
            "foreign": foreign, "middle": round(mid, 4), "spot_buy": round(mid * 0.9975, 4),
            "cash_buy": round(mid * 0.9880, 4), "spot_sell": round(mid * 1.0025, 4), "cash_sell": round(mid * 1.0025, 4),
        }  # fmt: skip
    return out


# --- loans ------------------------------------------------------------------------------------------


@handler("loan_repayment")
def loan_repayment(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    p, n, method = float(args["principal"]), int(args["term_months"]), args["method"]
    loan_type = args["loan_type"]
    if "annual_rate" in args:
        rate, basis = float(args["annual_rate"]), "用户指定利率"
    else:
        r = ctx.one("SELECT * FROM fin_loan_rates WHERE effective_date<=? ORDER BY effective_date DESC LIMIT 1",
                    (ctx.today.isoformat(),))  # fmt: skip
        if r is None:
            ctx.fail("NO_RATE", "暂无该日期适用的贷款基准利率，请直接提供年利率")
        col = (
            ("pf_long" if n > 60 else "pf_short")
            if loan_type == "provident_fund"
            else ("lpr_5y" if n > 60 else "lpr_1y")
        )
        since = ctx.one(f"SELECT MIN(effective_date) AS d FROM fin_loan_rates WHERE {col}=? AND effective_date<=?",
                        (r[col], ctx.today.isoformat()))  # fmt: skip
        since_d = since["d"] if since is not None else r["effective_date"]
        if loan_type == "provident_fund":
            rate = r[col]
            basis = f"公积金贷款利率（{'5年以上' if n > 60 else '5年及以下'}，{since_d} 起执行）"
        else:
            spread = int(args.get("rate_spread_bp", 0))
            base = r[col]
            rate = base + spread / 100
            basis = f"LPR {'5年期以上' if n > 60 else '1年期'} {base}%（{since_d} 起）" + (
                f"{'+' if spread >= 0 else ''}{spread}BP" if spread else ""
            )
        if rate <= 0:
            ctx.fail("BAD_RATE", "加减点后的利率必须大于 0")
    i = rate / 100 / 12
    schedule, balance, total_interest = [], p, 0.0
    pay_fixed = p * i * (1 + i) ** n / ((1 + i) ** n - 1) if method == "equal_installment" else 0.0
    for k in range(1, n + 1):
        interest = balance * i
        principal_k = pay_fixed - interest if method == "equal_installment" else p / n
        if k == n:
            principal_k = balance
        balance -= principal_k
        total_interest += interest
        if k <= 12 or k == n:
            schedule.append({"period": k, "payment": round(principal_k + interest, 2), "principal": round(principal_k, 2),
                             "interest": round(interest, 2), "remaining": round(max(balance, 0.0), 2)})  # fmt: skip
    first, last = schedule[0]["payment"], schedule[-1]["payment"]
    return {
        "principal": p, "term_months": n, "method": method, "loan_type": loan_type, "annual_rate_pct": round(rate, 4),
        "rate_basis": basis, "monthly_payment_first": first, "monthly_payment_last": last,
        "monthly_decrease": round(p / n * i, 2) if method == "equal_principal" else 0.0,
        "total_interest": round(total_interest, 2), "total_payment": round(p + total_interest, 2),
        "schedule_preview": schedule,
    }  # fmt: skip


# --- income tax -------------------------------------------------------------------------------------


def _tax(brackets: list[Any], taxable: float) -> tuple[float, float, float]:
    for r in brackets:
        if taxable <= r["upper"]:
            return max(taxable * r["rate"] - r["quick_deduction"], 0.0), r["rate"], r["quick_deduction"]
    return 0.0, 0.0, 0.0  # pragma: no cover - the last bracket is unbounded


@handler("income_tax_calc")
def income_tax_calc(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    year = int(args.get("tax_year") or ctx.today.year)
    if year > 2030:
        ctx.fail("TAX_YEAR_NOT_SUPPORTED", "暂不支持 2030 年以后的税年")
    std: dict[str, float] = {}
    for r in ctx.query("SELECT * FROM fin_tax_deductions WHERE first_year<=? ORDER BY first_year", (year,)):
        std[r["item"]] = r["amount"]
    brackets = ctx.query("SELECT * FROM fin_tax_brackets ORDER BY upper")
    gross, itype = float(args["annual_income"]), args["income_type"]
    counted = gross * INCOME_SHARE[itype]
    housing = args["housing"]
    edu = args["continuing_education"]
    extra = {
        "children_education": 12 * std.get("children_education", 0) * args["children"],
        "infant_care": 12 * std.get("infant_care", 0) * args["infants"],
        "continuing_education": (12 * std["continuing_education_degree"] if edu in ("degree", "both") else 0)
        + (std["continuing_education_certificate"] if edu in ("certificate", "both") else 0),
        "serious_illness": min(max(float(args["serious_illness_expense"]) - 15000, 0.0), 80000.0),
        "housing": 12 * std.get("housing_loan_interest" if housing == "mortgage_interest" else housing, 0),
        "elderly_support": 12 * min(float(args["elderly_support_monthly"]), std["elderly_support"]),
    }
    pension = min(float(args["personal_pension"]), std.get("personal_pension", 0.0))
    other = float(args["social_insurance"]) + pension + float(args["other_deductions"])
    total_extra = sum(extra.values())
    taxable = max(counted - BASIC_DEDUCTION - other - total_extra, 0.0)
    tax, rate, quick = _tax(brackets, taxable)
    monthly: list[dict[str, Any]] | None = None
    if itype == "salary":  # cumulative withholding: income and deductions spread evenly over 12 months
        monthly, paid = [], 0.0
        for m in range(1, 13):
            cum_taxable = max(m / 12 * (counted - other - total_extra) - 5000 * m, 0.0)
            due = _tax(brackets, cum_taxable)[0]
            monthly.append(
                {"month": m, "withheld": round(due - paid, 2), "cumulative_withheld": round(due, 2)}
            )
            paid = due
    return {
        "tax_year": year, "income_type": itype, "gross_income": gross, "income_counted": round(counted, 2),
        "basic_deduction": BASIC_DEDUCTION, "special_deductions": round(float(args["social_insurance"]), 2),
        "special_additional_deductions": {**{k: round(v, 2) for k, v in extra.items()}, "total": round(total_extra, 2)},
        "other_deductions": round(pension + float(args["other_deductions"]), 2), "taxable_income": round(taxable, 2),
        "tax_rate_pct": round(rate * 100), "quick_deduction": quick, "annual_tax": round(tax, 2),
        "effective_rate_pct": round(tax / gross * 100, 2) if gross else 0.0,
        "after_tax_income": round(gross - tax - float(args["social_insurance"]), 2), "monthly_withholding": monthly,
    }  # fmt: skip


# --- funds ------------------------------------------------------------------------------------------


def _fund(ctx: ToolCtx, raw: str) -> Any:
    key = raw.strip()
    rows = ctx.query("SELECT * FROM fin_funds WHERE code=? OR name=?", (key, key))
    if not rows:
        rows = ctx.query("SELECT * FROM fin_funds WHERE name LIKE ? ORDER BY code", (f"%{key}%",))
    if not rows:
        ctx.fail("FUND_NOT_FOUND", f"没有找到基金“{raw}”，请提供 6 位基金代码或准确的基金简称")
    if len(rows) > 1:
        ctx.fail(
            "AMBIGUOUS_FUND", "匹配到多只基金：" + "、".join(f"{r['name']}({r['code']})" for r in rows[:8])
        )
    return rows[0]


@handler("fund_nav_query")
def fund_nav_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    f = _fund(ctx, args["fund"])
    now = ctx.now.astimezone(_CN)
    want = date.fromisoformat(args["date"]) if "date" in args else now.date()
    if want == now.date() and now.hour < 20:  # today's NAV is published in the evening
        want -= timedelta(days=1)
    i = last_trading_day(want)
    navs = price_path("fund" + f["code"], 1.0, f["drift"], f["vol"], 0.11, f["inception_index"])
    if i is None or navs[i] <= 0:
        ctx.fail("NAV_NOT_AVAILABLE", f"{f['name']} 在 {want.isoformat()} 之前尚未成立或没有净值")
    days = trading_days()

    def ret(k: int) -> float | None:  # on the accumulated NAV (dividends added back)
        j = i - k
        return round((navs[i] / navs[j] - 1) * 100, 2) if j >= f["inception_index"] and navs[j] > 0 else None

    # the unit NAV drops by each yearly dividend paid since inception
    unit = navs[i] - f["dividend"] * ((days[i] - days[f["inception_index"]]).days // 365)
    ytd_j = last_trading_day(date(days[i].year - 1, 12, 31))
    return {
        "fund_code": f["code"], "name": f["name"], "fund_type": FUND_TYPE_ZH[f["fund_type"]], "company": f["company"],
        "nav_date": days[i].isoformat(), "unit_nav": round(max(unit, 0.05), 4), "accumulated_nav": round(navs[i], 4),
        "daily_change_pct": ret(1) if ret(1) is not None else 0.0,
        "returns_pct": {"1w": ret(5), "1m": ret(21), "3m": ret(63), "6m": ret(126), "1y": ret(250),
                        "ytd": ret(i - ytd_j) if ytd_j is not None else None,
                        "since_inception": round((navs[i] - 1) * 100, 2)},
        "inception_date": days[f["inception_index"]].isoformat(),
    }  # fmt: skip


# --- credit-card bills ------------------------------------------------------------------------------


def _statement(year: int, month: int, day: int) -> date:
    return date(year, month, min(day, 28))


@handler("card_bill_query")
def card_bill_query(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    bank = ctx.one("SELECT * FROM fin_card_banks WHERE code=?", (args["bank"],))
    if bank is None:
        ctx.fail("BANK_NOT_SUPPORTED", f"暂不支持 {args['bank']} 的信用卡")
    # the account's own card of that bank when no tail is given (a phone banking app's card)
    last4 = args.get("card_last4") or f"{int(stable_unit('own-card', bank['code']) * 9000) + 1000}"
    key = (bank["code"], last4)
    stmt_day = 1 + int(stable_unit("card-day", *key) * 28)
    today = ctx.today
    latest = _statement(today.year, today.month, stmt_day)
    if latest > today:
        latest = _statement(
            today.year - (today.month == 1), 12 if today.month == 1 else today.month - 1, stmt_day
        )
    if "bill_month" in args:
        y, m = map(int, args["bill_month"].split("-"))
        stmt = _statement(y, m, stmt_day)
        if stmt > today:
            ctx.fail(
                "BILL_NOT_GENERATED", f"{args['bill_month']} 的账单将于 {stmt.isoformat()} 出账，目前尚未生成"
            )
        if (latest.year - y) * 12 + latest.month - m >= 12:
            ctx.fail("BILL_MONTH_OUT_OF_RANGE", "仅可查询最近 12 期账单")
    else:
        stmt = latest
    prev_m = (stmt.year - (stmt.month == 1), 12 if stmt.month == 1 else stmt.month - 1)
    start = _statement(*prev_m, stmt_day) + timedelta(days=1)
    merchants = ctx.query("SELECT * FROM fin_merchants ORDER BY id")
    limit = [10000, 20000, 30000, 50000, 80000, 100000][int(stable_unit("card-limit", *key) * 6)]
    ym = stmt.strftime("%Y-%m")
    txs, span = [], (stmt - start).days + 1
    for t in range(8 + int(stable_unit("card-n", *key, ym) * 22)):
        mr = merchants[int(stable_unit("card-m", *key, ym, t) * len(merchants))]
        amt = mr["min_cny"] + (mr["max_cny"] - mr["min_cny"]) * stable_unit("card-a", *key, ym, t) ** 3
        day = start + timedelta(days=int(stable_unit("card-d", *key, ym, t) * span))
        refund = stable_unit("card-r", *key, ym, t) < 0.04
        txs.append({"date": day.isoformat(), "merchant": mr["name"], "category": MERCHANT_KINDS[mr["category"]][0],
                    "amount": round(-amt if refund else amt, 2)})  # fmt: skip
    txs.sort(key=lambda x: (x["date"], x["merchant"]))
    balance = round(min(sum(x["amount"] for x in txs), limit * 0.95), 2)
    due = stmt + timedelta(days=bank["grace_days"])
    by_cat: dict[str, float] = {}
    for x in txs:
        by_cat[x["category"]] = round(by_cat.get(x["category"], 0.0) + x["amount"], 2)
    u = stable_unit("card-paid", *key, ym)
    status = (
        "unpaid"
        if today <= due
        else "paid_in_full"
        if u < 0.85
        else "minimum_paid"
        if u < 0.97
        else "overdue"
    )
    return {
        "bank": bank["code"], "bank_name": bank["name"], "card_last4": last4, "bill_month": ym,
        "statement_date": stmt.isoformat(), "due_date": due.isoformat(), "period_start": start.isoformat(),
        "credit_limit": limit, "new_balance": balance, "min_payment": round(balance * bank["min_ratio"], 2) if balance > 100 else balance,
        "status": status, "points_earned": int(max(balance, 0) * bank["points_per_cny"]), "transactions": txs,
        "category_summary": [{"category": k, "amount": v} for k, v in sorted(by_cat.items(), key=lambda kv: -kv[1])],
    }  # fmt: skip
