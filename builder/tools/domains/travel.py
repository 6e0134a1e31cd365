"""出行 travel: rail tickets (search, booking), flights, hotels, ride hailing …

Timetables are daily schedules stored once; a date's prices and remaining seats are derived
deterministically from (train, date, seat class), so the store answers for any date 2020–2030.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any

from ..runtime import ToolCtx, handler, stable_unit
from ._common import CITIES, canonical_city, distance_km, hhmm, parse_hhmm

STORE_VERSION = "1"
SCHEMA_SQL = """
CREATE TABLE rail_trains (
    train_no TEXT PRIMARY KEY, train_type TEXT NOT NULL, from_city TEXT NOT NULL, to_city TEXT NOT NULL,
    depart_min INTEGER NOT NULL, duration_min INTEGER NOT NULL, distance_km REAL NOT NULL
);
CREATE INDEX rail_route ON rail_trains(from_city, to_city);
CREATE TABLE rail_orders (
    order_id TEXT PRIMARY KEY, train_no TEXT, date TEXT, seat_class TEXT, passenger TEXT, count INTEGER,
    total_cny REAL
);
"""

# km/h and CNY per km by train type; which seat classes each type sells.
_SPEED = {"G": 280.0, "D": 200.0, "Z": 120.0, "T": 100.0, "K": 80.0}
_SEATS = {
    "G": {"business": 1.45, "first_class": 0.75, "second_class": 0.46},
    "D": {"first_class": 0.50, "second_class": 0.31},
    "Z": {"soft_sleeper": 0.33, "hard_sleeper": 0.21, "hard_seat": 0.11},
    "T": {"soft_sleeper": 0.31, "hard_sleeper": 0.20, "hard_seat": 0.10},
    "K": {"soft_sleeper": 0.29, "hard_sleeper": 0.19, "hard_seat": 0.09},
}


def populate(conn: sqlite3.Connection, rng: random.Random) -> None:
    cities = sorted(CITIES)
    rows: list[tuple[Any, ...]] = []
    counters = dict.fromkeys(_SPEED, 0)
    for a in cities:
        for b in cities:
            if a == b:
                continue
            km = distance_km(a, b) * 1.2  # rail is longer than the great circle
            if km > 2600 and rng.random() < 0.6:
                continue
            kinds = ["G", "D"] if km < 1200 else ["G", "Z", "K"]
            if rng.random() < 0.3:
                kinds.append("T")
            for k in kinds:
                for _ in range(rng.randint(1, 2)):
                    counters[k] += 1
                    dep = rng.randrange(6 * 60, 22 * 60, 5)
                    dur = int(km / _SPEED[k] * 60) + rng.randint(10, 40)
                    rows.append((f"{k}{counters[k]}", k, a, b, dep, dur, round(km, 1)))
    conn.executemany("INSERT INTO rail_trains VALUES (?,?,?,?,?,?,?)", rows)


def _remaining(train_no: str, date: str, seat: str) -> int:
    u = stable_unit("rail-remaining", train_no, date, seat)
    return 0 if u < 0.12 else int(u * 300)


def _price(km: float, train_type: str, seat: str) -> float:
    return round(km * _SEATS[train_type][seat] / 0.5) * 0.5


@handler("train_search_tickets")
def train_search_tickets(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    a, b = canonical_city(args["from_city"]), canonical_city(args["to_city"])
    for arg, c in (("from_city", a), ("to_city", b)):
        if c is None or c not in CITIES:
            ctx.fail("UNKNOWN_CITY", f"{arg}={args[arg]!r} is not a city with rail service in the store")
    sql = "SELECT * FROM rail_trains WHERE from_city=? AND to_city=?"
    params: list[Any] = [a, b]
    if "train_type" in args:
        sql += " AND train_type=?"
        params.append(args["train_type"])
    if "depart_after" in args:
        sql += " AND depart_min>=?"
        params.append(parse_hhmm(args["depart_after"]))
    trains = []
    for r in ctx.query(sql + " ORDER BY depart_min, train_no", tuple(params)):
        seats = _SEATS[r["train_type"]]
        wanted = [args["seat_class"]] if "seat_class" in args else list(seats)
        for s in wanted:
            if s not in seats:
                continue
            trains.append(
                {
                    "train_no": r["train_no"],
                    "depart_time": hhmm(r["depart_min"]),
                    "arrive_time": hhmm(r["depart_min"] + r["duration_min"]),
                    "duration_min": r["duration_min"],
                    "seat_class": s,
                    "price_cny": _price(r["distance_km"], r["train_type"], s),
                    "remaining": _remaining(r["train_no"], args["date"], s),
                }
            )
    return {"date": args["date"], "from_city": a, "to_city": b, "trains": trains}


@handler("train_book_ticket")
def train_book_ticket(ctx: ToolCtx, args: dict[str, Any]) -> dict[str, Any]:
    r = ctx.one("SELECT * FROM rail_trains WHERE train_no=?", (args["train_no"],))
    if r is None:
        ctx.fail("UNKNOWN_TRAIN", f"train {args['train_no']} does not exist; search first with train_search_tickets")
    seat = args["seat_class"]
    if seat not in _SEATS[r["train_type"]]:
        ctx.fail("SEAT_NOT_SOLD", f"{args['train_no']} sells {', '.join(_SEATS[r['train_type']])}, not {seat}")
    count = int(args["count"])
    if _remaining(r["train_no"], args["date"], seat) < count:
        ctx.fail("SOLD_OUT", f"{args['train_no']} on {args['date']} has fewer than {count} {seat} seats left")
    n = ctx.one("SELECT COUNT(*) AS n FROM rail_orders")
    order_id = f"R{args['date'].replace('-', '')}{(n['n'] if n else 0) + 1:04d}"
    total = _price(r["distance_km"], r["train_type"], seat) * count
    ctx.db.execute(
        "INSERT INTO rail_orders VALUES (?,?,?,?,?,?,?)",
        (order_id, args["train_no"], args["date"], seat, args["passenger_name"], count, total),
    )
    return {
        "order_id": order_id,
        "train_no": args["train_no"],
        "date": args["date"],
        "seat_class": seat,
        "count": count,
        "total_cny": total,
        "status": "booked",
    }
