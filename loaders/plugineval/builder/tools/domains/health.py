"""健康 health: hospital appointments, drug information, step statistics, BMI, vaccines, pharmacies.

Doctors keep weekly clinic sessions; a date's remaining registration slots are derived from
(doctor, date, period) with stable_unit, so the store answers for any date. Vaccine sessions and
pharmacy stock work the same way. Step counts are a per-user daily series derived from the user's
profile and the date. Drug facts live in ``health_data`` and are loaded into the store.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
from datetime import date, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ..runtime import ToolCtx, handler, stable_unit
from . import health_data as hd
from ._common import ACCOUNT_HOLDER, CITIES, CityArgument, hhmm, parse_hhmm
from ._names import ambiguous, resolve_id
from .health_data import name_key
from .health_data import populate as populate  # the store builder calls health.populate

STORE_VERSION = "1"
SCHEMA_SQL = """
CREATE TABLE health_hospitals (
    hospital_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, level TEXT, address TEXT, phone TEXT
);
CREATE INDEX health_hospital_city ON health_hospitals(city);
CREATE TABLE health_doctors (
    doctor_id TEXT PRIMARY KEY, hospital_id TEXT NOT NULL, department TEXT NOT NULL, name TEXT NOT NULL,
    title TEXT NOT NULL
);
CREATE INDEX health_doctor_dept ON health_doctors(department, hospital_id);
CREATE TABLE health_doctor_sessions (
    doctor_id TEXT NOT NULL, weekday INTEGER NOT NULL, period TEXT NOT NULL, PRIMARY KEY (doctor_id, weekday, period)
);
CREATE TABLE health_appointments (
    appointment_id TEXT PRIMARY KEY, doctor_id TEXT, date TEXT, period TEXT, patient TEXT, phone TEXT,
    queue_no INTEGER
);
CREATE TABLE health_drugs (drug_id TEXT PRIMARY KEY, name TEXT NOT NULL, en TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE health_drug_names (name_key TEXT PRIMARY KEY, drug_id TEXT NOT NULL);
CREATE TABLE health_drug_products (
    product_id TEXT PRIMARY KEY, drug_id TEXT NOT NULL, brand TEXT NOT NULL, manufacturer TEXT NOT NULL,
    spec TEXT NOT NULL, price_cny REAL NOT NULL
);
CREATE TABLE health_drug_interactions (
    drug_a TEXT, drug_b TEXT, severity TEXT, effect TEXT, advice TEXT, PRIMARY KEY (drug_a, drug_b)
);
CREATE TABLE health_fit_users (
    user_id TEXT PRIMARY KEY, nickname TEXT, height_cm REAL, weight_kg REAL, daily_goal INTEGER,
    base_steps INTEGER, weekend_factor REAL, joined TEXT
);
CREATE TABLE health_vaccine_centres (
    centre_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, address TEXT, phone TEXT
);
CREATE INDEX health_centre_city ON health_vaccine_centres(city);
CREATE TABLE health_vaccine_offers (
    centre_id TEXT, vaccine TEXT, weekdays TEXT, price_cny REAL, quota INTEGER, PRIMARY KEY (centre_id, vaccine)
);
CREATE TABLE health_vaccine_bookings (
    booking_id TEXT PRIMARY KEY, centre_id TEXT, vaccine TEXT, date TEXT, period TEXT, person TEXT, dose_no INTEGER
);
CREATE TABLE health_pharmacies (
    pharmacy_id TEXT PRIMARY KEY, city TEXT NOT NULL, name TEXT NOT NULL, address TEXT, phone TEXT,
    open_min INTEGER, close_min INTEGER, is_24h INTEGER, insurance INTEGER, rating REAL
);
CREATE INDEX health_pharmacy_city ON health_pharmacies(city);
"""

TZ = ZoneInfo("Asia/Shanghai")
SEVERITY_RANK = {"none": 0, "minor": 1, "moderate": 2, "major": 3, "contraindicated": 4}
FORM_WORDS = ("缓释胶囊", "缓释片", "肠溶胶囊", "肠溶片", "咀嚼片", "混悬液", "口服溶液", "干混悬剂", "颗粒",
              "胶囊", "片剂", "糖浆", "气雾剂", "散剂", "舌下片", "片", "散")  # fmt: skip
CURRENT_USER = "U100001"


# --- shared helpers ------------------------------------------------------------------------------
_city = CityArgument(f"city={{value!r}} 不在服务范围内；支持的城市如：{'、'.join(sorted(CITIES)[:8])} 等")


def _local_now(ctx: ToolCtx) -> tuple[date, int]:
    now = ctx.now.astimezone(TZ)
    return now.date(), now.hour * 60 + now.minute


def _drug(ctx: ToolCtx, name: str) -> dict[str, Any]:
    key = name_key(name)
    row = ctx.one("SELECT drug_id FROM health_drug_names WHERE name_key=?", (key,))
    for form in FORM_WORDS:
        if row is None and key.endswith(form) and len(key) > len(form) + 1:
            row = ctx.one("SELECT drug_id FROM health_drug_names WHERE name_key=?", (key[: -len(form)],))
    if row is None:
        ctx.fail("DRUG_NOT_FOUND", f"药品库中没有找到“{name}”，请提供药品的通用名（如 布洛芬、阿莫西林）")
    r = ctx.one("SELECT data FROM health_drugs WHERE drug_id=?", (row["drug_id"],))
    data: dict[str, Any] = json.loads(r["data"]) if r else {}
    return data


# --- hospital appointments ------------------------------------------------------------------------
def _slots_left(ctx: ToolCtx, doctor_id: str, title: str, day: str, period: str) -> tuple[int, int]:
    """(remaining, quota) for one half-day session, after this store's bookings."""
    quota = hd.TITLE_RULES[title][1]
    u = stable_unit("health-slots", doctor_id, day, period)
    base = 0 if u < 0.15 else 1 + int((u - 0.15) / 0.85 * (quota - 1))
    n = ctx.one("SELECT COUNT(*) AS n FROM health_appointments WHERE doctor_id=? AND date=? AND period=?",
                (doctor_id, day, period))  # fmt: skip
    return max(0, base - (n["n"] if n else 0)), quota


def _session_ended(ctx: ToolCtx, day: date, period: str) -> bool:
    today, minute = _local_now(ctx)
    return day == today and minute >= parse_hhmm(hd.PERIODS[period][2])


@handler("doctor_schedule")
def doctor_schedule(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    day = date.fromisoformat(args["date"])
    sql = """SELECT d.*, s.period, h.name AS hospital, h.level FROM health_doctor_sessions s
             JOIN health_doctors d ON d.doctor_id = s.doctor_id JOIN health_hospitals h ON h.hospital_id = d.hospital_id
             WHERE h.city=? AND d.department=? AND s.weekday=?"""
    params: list[Any] = [city, args["department"], day.weekday()]
    if args.get("hospital"):
        hs = ctx.query(
            "SELECT name FROM health_hospitals WHERE city=? AND name LIKE ?", (city, f"%{args['hospital']}%")
        )
        if not hs:
            known = [
                r["name"]
                for r in ctx.query(
                    "SELECT name FROM health_hospitals WHERE city=? ORDER BY hospital_id", (city,)
                )
            ]
            ctx.fail(
                "HOSPITAL_NOT_FOUND",
                f"{city}没有名为“{args['hospital']}”的合作医院；可选：{'、'.join(known)}",
            )
        sql += " AND h.name LIKE ?"
        params.append(f"%{args['hospital']}%")
    if args.get("title"):
        sql += " AND d.title=?"
        params.append(args["title"])
    if args.get("period"):
        sql += " AND s.period=?"
        params.append(args["period"])
    rank = {t: i for i, t in enumerate(hd.TITLE_RULES)}
    rows = ctx.query(sql, tuple(params))
    rows.sort(key=lambda r: (r["hospital_id"], rank[r["title"]], r["doctor_id"], r["period"] != "morning"))
    doctors = []
    for r in rows:
        p = r["period"]
        left, quota = _slots_left(ctx, r["doctor_id"], r["title"], args["date"], p)
        status = "ended" if _session_ended(ctx, day, p) else ("available" if left > 0 else "full")
        doctors.append({
            "doctor_id": r["doctor_id"], "name": r["name"], "title": r["title"], "title_cn": hd.TITLES[r["title"]],
            "hospital": r["hospital"], "hospital_level": r["level"], "period": p,
            "clinic_time": f"{hd.PERIODS[p][1]}-{hd.PERIODS[p][2]}", "fee_cny": hd.TITLE_RULES[r["title"]][0],
            "remaining": 0 if status == "ended" else left, "quota": quota, "status": status,
        })  # fmt: skip
    return {
        "city": city, "date": args["date"], "weekday": hd.WEEKDAYS_CN[day.weekday()], "department": args["department"],
        "department_cn": hd.DEPARTMENTS[args["department"]], "doctor_count": len({d["doctor_id"] for d in doctors}),
        "doctors": doctors,
    }  # fmt: skip


def _doctor_id(ctx: ToolCtx, value: str, day: date, period: str) -> str:
    """An id as given; a name (张伟, 张伟医生) when it is one doctor on duty that half-day, or one doctor."""
    if re.fullmatch(r"D[0-9]{6}", value):
        return value
    rows = ctx.query("""SELECT d.*, h.name AS hospital, EXISTS(SELECT 1 FROM health_doctor_sessions s
                        WHERE s.doctor_id = d.doctor_id AND s.weekday=? AND s.period=?) AS on_duty FROM health_doctors d
                        JOIN health_hospitals h ON h.hospital_id = d.hospital_id WHERE d.name=? ORDER BY d.doctor_id""",
                     (day.weekday(), period, re.sub(r"(医生|大夫)$", "", value.strip())))  # fmt: skip
    pick = [r for r in rows if r["on_duty"]] or rows
    if not pick:
        ctx.fail("DOCTOR_NOT_FOUND", f"医生 {value} 不存在，请先用 doctor_schedule 查询出诊医生")
    if len(pick) > 1:
        ambiguous(ctx, value, "医生", [f"{r['hospital']}{hd.DEPARTMENTS[r['department']]}{r['name']}（{r['doctor_id']}）" for r in pick])  # fmt: skip
    return str(pick[0]["doctor_id"])


@handler("appointment_book")
def appointment_book(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    day, period = date.fromisoformat(args["date"]), args["period"]
    doctor_id = _doctor_id(ctx, args["doctor_id"], day, period)
    r = ctx.one(
        """SELECT d.*, h.name AS hospital, h.address FROM health_doctors d
                   JOIN health_hospitals h ON h.hospital_id = d.hospital_id WHERE d.doctor_id=?""",
        (doctor_id,),
    )
    if r is None:
        ctx.fail("DOCTOR_NOT_FOUND", f"医生 {doctor_id} 不存在，请先用 doctor_schedule 查询出诊医生")
    duty = ctx.query(
        "SELECT weekday, period FROM health_doctor_sessions WHERE doctor_id=?", (r["doctor_id"],)
    )
    duty.sort(key=lambda s: (s["weekday"], list(hd.PERIODS).index(s["period"])))
    if not any(s["weekday"] == day.weekday() and s["period"] == period for s in duty):
        when = "、".join(hd.WEEKDAYS_CN[s["weekday"]] + hd.PERIODS[s["period"]][0] for s in duty)
        ctx.fail(
            "DOCTOR_NOT_ON_DUTY",
            f"{r['name']}医生{args['date']}（{hd.WEEKDAYS_CN[day.weekday()]}）{hd.PERIODS[period][0]}不出诊；出诊时间：{when}",
        )
    if _session_ended(ctx, day, period):
        ctx.fail("SESSION_ENDED", f"{args['date']}{hd.PERIODS[period][0]}的门诊已结束，请选择其他时段")
    args = {**args, "patient_name": args.get("patient_name", ACCOUNT_HOLDER)}  # left out: the account holder
    dup = ctx.one("SELECT appointment_id FROM health_appointments WHERE doctor_id=? AND date=? AND patient=?",
                  (r["doctor_id"], args["date"], args["patient_name"]))  # fmt: skip
    if dup is not None:
        ctx.fail(
            "DUPLICATE_APPOINTMENT",
            f"{args['patient_name']}已预约该医生当天的号（{dup['appointment_id']}），同一就诊人同一医生每天限挂一个号",
        )
    left, quota = _slots_left(ctx, r["doctor_id"], r["title"], args["date"], period)
    if left <= 0:
        ctx.fail(
            "NO_SLOTS_LEFT",
            f"{r['name']}医生{args['date']}{hd.PERIODS[period][0]}的号已约满，请选择其他日期或医生",
        )
    queue_no = quota - left + 1
    minutes = parse_hhmm(hd.PERIODS[period][1]) + (queue_no - 1) * hd.TITLE_RULES[r["title"]][2]
    n = ctx.one("SELECT COUNT(*) AS n FROM health_appointments")
    appointment_id = f"GH{args['date'].replace('-', '')}{(n['n'] if n else 0) + 1:05d}"
    ctx.db.execute("INSERT INTO health_appointments VALUES (?,?,?,?,?,?,?)",
                   (appointment_id, r["doctor_id"], args["date"], period, args["patient_name"],
                    args.get("patient_phone", ""), queue_no))  # fmt: skip
    return {
        "appointment_id": appointment_id, "status": "booked", "patient_name": args["patient_name"],
        "hospital": r["hospital"], "hospital_address": r["address"], "department": r["department"],
        "department_cn": hd.DEPARTMENTS[r["department"]], "doctor_id": r["doctor_id"], "doctor_name": r["name"],
        "title_cn": hd.TITLES[r["title"]], "date": args["date"], "period": period, "queue_no": queue_no,
        "estimated_visit_time": hhmm(min(minutes, parse_hhmm(hd.PERIODS[period][2]) - 5)),
        "fee_cny": hd.TITLE_RULES[r["title"]][0], "notice": "请于就诊当日提前 30 分钟到院签到取号，携带身份证或医保卡；如需取消请至少提前一天。",
    }  # fmt: skip


# --- drugs ---------------------------------------------------------------------------------------
@handler("drug_lookup")
def drug_lookup(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    d = _drug(ctx, args["name"])
    products = ctx.query("SELECT brand, manufacturer, spec, price_cny FROM health_drug_products WHERE drug_id=? "
                         "ORDER BY price_cny, product_id LIMIT 8", (d["id"],))  # fmt: skip
    child = d["child_dose"] or d.get("child_note") or "儿童用药须遵医嘱。"
    out: dict[str, Any] = {
        "generic_name": d["name"], "english_name": d["en"], "other_names": d["aliases"], "category": d["category"],
        "prescription": d["rx"], "prescription_type": "处方药（Rx）" if d["rx"] else "非处方药（OTC）",
        "indications": d["indications"], "dosage": {"adult": d["adult_dose"], "child": child},
        "contraindications": d["contraindications"], "adverse_reactions": d["adverse"], "cautions": d["cautions"],
        "pregnancy_lactation": d["pregnancy"], "products": [dict(p) for p in products], "disclaimer": hd.DISCLAIMER,
    }  # fmt: skip
    if "age_years" in args:
        age = int(args["age_years"])
        out["dosage_for_age"] = {
            "age_years": age,
            "text": d["adult_dose"] if age >= d["adult_age"] else child,
        }
    return out


@handler("drug_interaction_check")
def drug_interaction_check(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    resolved = [(name, _drug(ctx, name)) for name in args["drugs"]]
    ids = sorted({d["id"] for _, d in resolved})
    by_id = {d["id"]: d for _, d in resolved}
    interactions: list[dict[str, Any]] = []
    duplicates: list[dict[str, Any]] = []
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            r = ctx.one("SELECT * FROM health_drug_interactions WHERE (drug_a=? AND drug_b=?) OR (drug_a=? AND drug_b=?)",
                        (a, b, b, a))  # fmt: skip
            if r is not None:
                interactions.append({"drug_a": by_id[r["drug_a"]]["name"], "drug_b": by_id[r["drug_b"]]["name"],
                                     "severity": r["severity"], "effect": r["effect"], "advice": r["advice"]})  # fmt: skip
                continue
            da, db = by_id[a], by_id[b]
            same = sorted(set(da["ingredients"]) & set(db["ingredients"]))
            group = sorted(set(da["groups"]) & set(db["groups"]))
            if same:
                duplicates.append({"drugs": [da["name"], db["name"]], "severity": "major",
                                   "reason": f"含有相同成分（{'、'.join(_ingredient(x) for x in same)}），同服可能导致过量"})  # fmt: skip
            elif group:
                duplicates.append({"drugs": [da["name"], db["name"]], "severity": "moderate",
                                   "reason": "属于同类药物，一般不宜同时使用"})  # fmt: skip
    names = [n for n, _ in resolved]
    for gid in ids:
        same_inputs = [n for n, d in resolved if d["id"] == gid]
        if len(same_inputs) > 1:
            duplicates.append({"drugs": same_inputs, "severity": "major",
                               "reason": f"均为{by_id[gid]['name']}（同一药物的不同名称），请勿重复服用"})  # fmt: skip
    worst = max([SEVERITY_RANK[x["severity"]] for x in interactions + duplicates] or [0])
    overall = next(k for k, v in SEVERITY_RANK.items() if v == worst)
    return {
        "checked": [{"input": n, "generic_name": d["name"], "prescription": d["rx"]} for n, d in resolved],
        "interactions": interactions, "duplicates": duplicates, "overall_risk": overall,
        "summary": f"共检查 {len(names)} 种药物，发现 {len(interactions)} 条相互作用、{len(duplicates)} 条重复用药提示。"
        + ("未收录的组合不代表绝对安全。" if worst == 0 else "请在医生或药师指导下调整用药。"),
        "disclaimer": hd.DISCLAIMER,
    }  # fmt: skip


def _ingredient(ingredient_id: str) -> str:
    d = next((d for d in hd.DRUGS if d["id"] == ingredient_id), None)
    return str(d["name"]) if d else hd.INGREDIENT_NAMES.get(ingredient_id, ingredient_id)


# --- fitness ---------------------------------------------------------------------------------------
def _steps(u: sqlite3.Row, d: date) -> int:
    if stable_unit("health-steps-off", u["user_id"], d.isoformat()) < 0.04:
        return 0  # the band was not worn that day
    season = 1.0 + 0.12 * math.cos(2 * math.pi * (d.timetuple().tm_yday - 200) / 365)
    noise = 0.55 + 0.9 * stable_unit("health-steps", u["user_id"], d.isoformat())
    week = u["weekend_factor"] if d.weekday() >= 5 else 1.0
    return int(u["base_steps"] * season * noise * week)


@handler("step_stats")
def step_stats(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    uid = resolve_id(ctx, hd.family_name(args.get("user_id") or CURRENT_USER), r"U[0-9]{6}",
                     "SELECT user_id, nickname AS name FROM health_fit_users", (), "user_id",
                     what="已授权共享数据的用户", not_found="USER_NOT_FOUND", hint="请确认家人已授权共享运动数据")  # fmt: skip
    u = ctx.one("SELECT * FROM health_fit_users WHERE user_id=?", (uid,))
    if u is None:
        ctx.fail("USER_NOT_FOUND", f"用户 {uid} 不存在或未授权共享运动数据")
    start, end = date.fromisoformat(args["start_date"]), date.fromisoformat(args["end_date"])
    if end < start:
        ctx.fail("BAD_DATE_RANGE", f"end_date {args['end_date']} 早于 start_date {args['start_date']}")
    first = max(start, date.fromisoformat(u["joined"]))
    if first > end:
        ctx.fail("NO_DATA_IN_RANGE", f"该用户从 {u['joined']} 开始记录步数，所选时间段没有数据")
    stride_km = u["height_cm"] * 0.415 / 100_000
    kcal_per_step = u["weight_kg"] * 0.0005
    daily = [(first + timedelta(days=i)) for i in range((end - first).days + 1)]
    series: dict[str, dict[str, Any]] = {}
    gran = args["granularity"]
    for d in daily:
        s = _steps(u, d)
        if gran == "day":
            key, p_start, p_end = d.isoformat(), d, d
        elif gran == "week":
            p_start = d - timedelta(days=d.weekday())
            key, p_end = p_start.isoformat(), p_start + timedelta(days=6)
        else:
            p_start = d.replace(day=1)
            key = d.strftime("%Y-%m")
            p_end = (p_start + timedelta(days=32)).replace(day=1) - timedelta(days=1)
        e = series.setdefault(key, {"period": key, "start": max(p_start, first).isoformat(),
                                    "end": min(p_end, end).isoformat(), "steps": 0, "days": 0})  # fmt: skip
        e["steps"] += s
        e["days"] += 1
    rows = []
    for e in series.values():
        e["distance_km"] = round(e["steps"] * stride_km, 2)
        e["calories_kcal"] = round(e["steps"] * kcal_per_step, 1)
        e["avg_daily_steps"] = round(e["steps"] / e["days"])
        rows.append(e)
    counts = [(_steps(u, d), d) for d in daily]
    total = sum(s for s, _ in counts)
    best = max(counts, key=lambda x: (x[0], x[1]))
    return {
        "user_id": uid, "start_date": first.isoformat(), "end_date": end.isoformat(), "days": len(daily),
        "total_steps": total, "avg_daily_steps": round(total / len(daily)),
        "total_distance_km": round(total * stride_km, 2), "total_calories_kcal": round(total * kcal_per_step, 1),
        "daily_goal": u["daily_goal"], "goal_met_days": sum(1 for s, _ in counts if s >= u["daily_goal"]),
        "best_day": {"date": best[1].isoformat(), "steps": best[0]}, "granularity": gran, "series": rows,
    }  # fmt: skip


# --- BMI -----------------------------------------------------------------------------------------
BMI_CATEGORIES = [(18.5, "underweight", "偏瘦（体重过低）"), (24.0, "normal", "正常"), (28.0, "overweight", "超重"),
                  (math.inf, "obese", "肥胖")]  # fmt: skip


@handler("bmi_calc")
def bmi_calc(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    h_m, w = float(args["height_cm"]) / 100, float(args["weight_kg"])
    bmi = round(w / h_m**2, 1)
    cat, cat_cn = next((c, cn) for lim, c, cn in BMI_CATEGORIES if bmi < lim)
    # the healthy range in 0.1 kg steps whose BMI (to one decimal) stays within 18.5–23.9
    lo, hi = math.ceil(18.5 * h_m**2 * 10) / 10, math.floor(23.9 * h_m**2 * 10) / 10
    change = 0.0 if lo <= w <= hi else round((lo - w) if w < lo else (hi - w), 1)
    out: dict[str, Any] = {
        "bmi": bmi, "category": cat, "category_cn": cat_cn, "standard": "中国成人 BMI 标准（WS/T 428—2013）",
        "thresholds": "BMI<18.5 偏瘦；18.5≤BMI<24 正常；24≤BMI<28 超重；BMI≥28 肥胖",
        "normal_weight_range_kg": {"min": lo, "max": hi}, "weight_change_to_normal_kg": change,
    }  # fmt: skip
    if "waist_cm" in args:
        if "sex" not in args:
            ctx.fail("SEX_REQUIRED", "判断中心型肥胖需要性别（sex），男女腰围标准不同")
        pre, ob = (85, 90) if args["sex"] == "male" else (80, 85)
        waist = float(args["waist_cm"])
        out["central_obesity"] = "中心型肥胖" if waist >= ob else ("中心型肥胖前期" if waist >= pre else "无")
    out["advice"] = {
        "underweight": "体重偏低，建议均衡饮食、适当增加优质蛋白摄入，必要时就医排查原因。",
        "normal": "体重在正常范围，请保持均衡饮食和规律运动。",
        "overweight": "体重超重，建议控制总热量、增加身体活动，关注血压、血糖和血脂。",
        "obese": "已达肥胖标准，建议在医生或营养师指导下减重，并检查相关代谢指标。",
    }[cat]
    return out


# --- vaccines ------------------------------------------------------------------------------------
def _vaccine_left(ctx: ToolCtx, centre_id: str, vaccine: str, day: str, period: str, quota: int) -> int:
    u = stable_unit("health-vaccine", centre_id, vaccine, day, period)
    base = 0 if u < 0.2 else int((u - 0.2) / 0.8 * quota) + 1
    n = ctx.one("SELECT COUNT(*) AS n FROM health_vaccine_bookings WHERE centre_id=? AND vaccine=? AND date=? AND period=?",
                (centre_id, vaccine, day, period))  # fmt: skip
    return max(0, base - (n["n"] if n else 0))


@handler("vaccine_slots")
def vaccine_slots(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city, v = _city(ctx, args["city"]), args["vaccine"]
    day = date.fromisoformat(args["date"])
    rows = ctx.query("""SELECT c.*, o.weekdays, o.price_cny, o.quota FROM health_vaccine_offers o
                        JOIN health_vaccine_centres c ON c.centre_id = o.centre_id
                        WHERE c.city=? AND o.vaccine=? ORDER BY c.centre_id""", (city, v))  # fmt: skip
    centres = []
    for r in rows:
        if str(day.weekday()) not in r["weekdays"]:
            continue
        sessions: list[dict[str, Any]] = [{"period": p, "time": f"{hd.VACCINE_SESSIONS[p][1]}-{hd.VACCINE_SESSIONS[p][2]}",
                     "remaining": _vaccine_left(ctx, r["centre_id"], v, args["date"], p, r["quota"])}
                    for p in hd.VACCINE_SESSIONS]  # fmt: skip
        centres.append({"centre_id": r["centre_id"], "name": r["name"], "address": r["address"], "phone": r["phone"],
                        "price_cny": r["price_cny"], "sessions": sessions,
                        "total_remaining": sum(s["remaining"] for s in sessions)})  # fmt: skip
    name, doses, people, _ = hd.VACCINES[v]
    return {
        "city": city, "vaccine": v, "vaccine_name": name, "doses_in_course": doses, "eligible": people,
        "date": args["date"], "weekday": hd.WEEKDAYS_CN[day.weekday()], "centres": centres,
        "centres_offering_vaccine": len(rows),
    }  # fmt: skip


@handler("vaccine_book")
def vaccine_book(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    v, day_s, period = args["vaccine"], args["date"], args["period"]
    args = {**args, "person_name": args.get("person_name", ACCOUNT_HOLDER)}  # left out: the account holder
    cid = resolve_id(ctx, args["centre_id"], r"VC[0-9]{4}", "SELECT centre_id, city, name FROM health_vaccine_centres",
                     (), "centre_id", what="接种点", not_found="CENTRE_NOT_FOUND", hint="请先用 vaccine_slots 查询")  # fmt: skip
    r = ctx.one("""SELECT c.*, o.weekdays, o.price_cny, o.quota FROM health_vaccine_centres c
                   LEFT JOIN health_vaccine_offers o ON o.centre_id = c.centre_id AND o.vaccine=? WHERE c.centre_id=?""",
                (v, cid))  # fmt: skip
    if r is None:
        ctx.fail("CENTRE_NOT_FOUND", f"接种点 {cid} 不存在，请先用 vaccine_slots 查询")
    name, doses, _, _ = hd.VACCINES[v]
    if r["weekdays"] is None:
        ctx.fail("VACCINE_NOT_OFFERED", f"{r['name']}不提供{name}接种")
    day = date.fromisoformat(day_s)
    if str(day.weekday()) not in r["weekdays"]:
        open_days = "、".join(hd.WEEKDAYS_CN[int(c)] for c in r["weekdays"])
        ctx.fail(
            "CENTRE_CLOSED",
            f"{r['name']}{day_s}（{hd.WEEKDAYS_CN[day.weekday()]}）不开放{name}接种；开放日：{open_days}",
        )
    if args["dose_no"] > doses:
        ctx.fail("DOSE_OUT_OF_RANGE", f"{name}全程共 {doses} 剂，dose_no 不能为 {args['dose_no']}")
    today, minute = _local_now(ctx)
    if day == today and minute >= parse_hhmm(hd.VACCINE_SESSIONS[period][2]):
        ctx.fail("SESSION_ENDED", f"{day_s}{hd.VACCINE_SESSIONS[period][0]}的接种时段已结束")
    if _vaccine_left(ctx, r["centre_id"], v, day_s, period, r["quota"]) <= 0:
        ctx.fail("NO_SLOTS_LEFT", f"{r['name']}{day_s}{hd.VACCINE_SESSIONS[period][0]}的{name}已约满")
    n = ctx.one("SELECT COUNT(*) AS n FROM health_vaccine_bookings")
    bid = f"YM{day_s.replace('-', '')}{(n['n'] if n else 0) + 1:05d}"
    ctx.db.execute("INSERT INTO health_vaccine_bookings VALUES (?,?,?,?,?,?,?)",
                   (bid, r["centre_id"], v, day_s, period, args["person_name"], args["dose_no"]))  # fmt: skip
    return {
        "booking_id": bid, "status": "booked", "person_name": args["person_name"], "centre": r["name"],
        "address": r["address"], "vaccine_name": name, "dose_no": args["dose_no"], "doses_in_course": doses,
        "date": day_s, "period": period, "time": f"{hd.VACCINE_SESSIONS[period][1]}-{hd.VACCINE_SESSIONS[period][2]}",
        "price_cny": r["price_cny"], "notice": "请携带身份证件按时到达接种点，接种后留观 30 分钟；如有发热等不适请改期。",
    }  # fmt: skip


# --- pharmacies ----------------------------------------------------------------------------------
def _pharmacy_view(r: sqlite3.Row, minute: int) -> dict[str, Any]:
    is24 = bool(r["is_24h"])
    return {
        "pharmacy_id": r["pharmacy_id"], "name": r["name"], "address": r["address"], "phone": r["phone"],
        "hours": "24 小时营业" if is24 else f"{hhmm(r['open_min'])}-{hhmm(r['close_min'])}", "is_24h": is24,
        "open_now": is24 or r["open_min"] <= minute < r["close_min"], "medical_insurance": bool(r["insurance"]),
        "rating": r["rating"],
    }  # fmt: skip


@handler("pharmacy_search")
def pharmacy_search(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    _, minute = _local_now(ctx)
    sql, params = "SELECT * FROM health_pharmacies WHERE city=?", [city]
    if args.get("keyword"):
        sql += " AND (name LIKE ? OR address LIKE ?)"
        params += [f"%{args['keyword']}%"] * 2
    if args.get("is_24h"):
        sql += " AND is_24h=1"
    if args.get("medical_insurance"):
        sql += " AND insurance=1"
    found = [
        _pharmacy_view(r, minute)
        for r in ctx.query(sql + " ORDER BY rating DESC, pharmacy_id", tuple(params))
    ]
    if args.get("open_now"):
        found = [p for p in found if p["open_now"]]
    return {"city": city, "as_of": hhmm(minute), "total": len(found), "pharmacies": found[: args["limit"]]}


@handler("pharmacy_stock_check")
def pharmacy_stock_check(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    city = _city(ctx, args["city"])
    d = _drug(ctx, args["drug"])
    today, minute = _local_now(ctx)
    sql, params = "SELECT * FROM health_pharmacies WHERE city=?", [city]
    if args.get("pharmacy_id"):  # an id, or the name in this city (一心堂黄河路店)
        args = {**args, "pharmacy_id": resolve_id(ctx, args["pharmacy_id"], r"PH[0-9]{5}",
                "SELECT pharmacy_id, city, name FROM health_pharmacies WHERE city=?", (city,), "pharmacy_id",
                what=f"{city}药店", not_found="PHARMACY_NOT_FOUND", hint="请先用 pharmacy_search 查询")}  # fmt: skip
        sql += " AND pharmacy_id=?"
        params.append(args["pharmacy_id"])
    rows = ctx.query(sql + " ORDER BY pharmacy_id", tuple(params))
    if args.get("pharmacy_id") and not rows:
        ctx.fail(
            "PHARMACY_NOT_FOUND",
            f"{city}没有编号为 {args['pharmacy_id']} 的药店，请先用 pharmacy_search 查询",
        )
    products = ctx.query("SELECT * FROM health_drug_products WHERE drug_id=? ORDER BY product_id", (d["id"],))
    out = []
    for r in rows:
        if stable_unit("health-carry", r["pharmacy_id"], d["id"]) >= 0.7 or not products:
            continue
        p = products[int(stable_unit("health-product", r["pharmacy_id"], d["id"]) * len(products))]
        u = stable_unit("health-stock", r["pharmacy_id"], d["id"], today.isoformat())
        qty = 0 if u < 0.2 else int((u - 0.2) * 75) + 1
        view = _pharmacy_view(r, minute)
        out.append({
            "pharmacy_id": r["pharmacy_id"], "name": r["name"], "address": r["address"], "open_now": view["open_now"],
            "hours": view["hours"], "product": f"{p['brand']} {d['name']} {p['spec']}", "manufacturer": p["manufacturer"],
            "price_cny": round(p["price_cny"] * (0.9 + 0.3 * stable_unit("health-markup", r["pharmacy_id"], p["product_id"])), 1),
            "in_stock": qty > 0, "quantity": qty,
        })  # fmt: skip
    out.sort(key=lambda x: (not x["in_stock"], x["pharmacy_id"]))
    return {
        "city": city, "drug": d["name"], "prescription_required": d["rx"], "date": today.isoformat(),
        "pharmacies_in_stock": sum(1 for x in out if x["in_stock"]), "pharmacies": out[:20],
        "notice": ("该药店暂未经营此药品。" if args.get("pharmacy_id") and not out else "")
        + ("处方药须凭医生处方购买。" if d["rx"] else "非处方药可直接购买，请按说明书使用。"),
    }  # fmt: skip
