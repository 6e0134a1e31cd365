"""Tool runtime: argument validation, capability boundaries, handler dispatch, output validation.

Every execution reaches this module through an MCP server (``server.py``); nothing calls a handler
directly. A handler is a plain function ``(ctx, args) -> dict`` registered with ``@handler(name)``
in a domain module under ``domains/``; the catalog YAML holds the tool's contract.
"""

from __future__ import annotations

import hashlib
import importlib
import random
import sqlite3
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any, NoReturn

from plugineval.catalog import Catalog
from plugineval.jsonschema_lite import Validator
from plugineval.schema import Boundary, ToolSpec

Handler = Callable[["ToolCtx", dict[str, Any]], dict[str, Any]]
HANDLERS: dict[str, Handler] = {}


class ToolFailure(Exception):
    """An anticipated failure with a reason code and a message a person can act on."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.details = details

    def to_dict(self, tool: str) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, "tool": tool, **self.details}}


def handler(name: str) -> Callable[[Handler], Handler]:
    """Register ``fn`` as the implementation of catalog tool ``name``."""

    def deco(fn: Handler) -> Handler:
        if name in HANDLERS and HANDLERS[name] is not fn:
            raise RuntimeError(f"tool {name!r} has two handlers")
        HANDLERS[name] = fn
        return fn

    return deco


def load_domain_module(domain_id: str) -> Any:
    return importlib.import_module(f"plugineval.builder.tools.domains.{domain_id}")


def stable_rng(*keys: object) -> random.Random:
    """A random generator seeded from ``keys`` the same way on every machine and run."""
    h = hashlib.blake2b("|".join(map(str, keys)).encode(), digest_size=8).digest()
    return random.Random(int.from_bytes(h, "big"))


def stable_unit(*keys: object) -> float:
    """A number in [0, 1) derived from ``keys``: for prices, delays, quotes that must not drift."""
    h = hashlib.blake2b("|".join(map(str, keys)).encode(), digest_size=8).digest()
    return int.from_bytes(h, "big") / 2**64


@dataclass
class ToolCtx:
    db: sqlite3.Connection
    tool: str
    reference_time: datetime | None

    @property
    def now(self) -> datetime:
        if self.reference_time is None:
            self.fail(
                "MISSING_REFERENCE_TIME",
                "this tool depends on the current time: send the caller's reference time in the request's "
                "_meta as 'reference_time' (ISO 8601 with offset), or start the server with --reference-time",
            )
        return self.reference_time

    @property
    def today(self) -> date:
        return self.now.date()

    def fail(self, code: str, message: str, **details: Any) -> NoReturn:
        raise ToolFailure(code, message, **details)

    def query(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        return self.db.execute(sql, params).fetchall()

    def one(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.db.execute(sql, params).fetchone()
        return row


def _canonical(v: Any) -> Any:
    """A place name's canonical form ("北京市" -> "北京"), so place lists accept the usual variants."""
    if not isinstance(v, str):
        return v
    from plugineval.normalize import canonical_place

    return canonical_place(v) or v


def _as_date(v: Any) -> date | None:
    if not isinstance(v, str) or len(v) < 10:
        return None
    try:
        return date.fromisoformat(v[:10])
    except ValueError:
        return None


def boundary_violation(b: Boundary, args: dict[str, Any], today: date | None) -> str | None:
    """Why ``args`` cross boundary ``b`` (a sentence), or None when they do not."""
    if b.argument not in args:
        return None
    v = args[b.argument]
    k = b.kind
    if k in ("max_days_ahead", "no_past", "max_days_back", "max_span_days"):
        d = _as_date(v)
        if d is None:
            return None  # format problems are the schema's business
        if k == "max_span_days":
            end = _as_date(args.get(b.end_argument or ""))
            if end is not None and b.days is not None and (end - d).days > b.days:
                return f"{b.argument} 到 {b.end_argument} 相隔 {(end - d).days} 天，超过 {b.days} 天"
            return None
        if today is None:
            raise ToolFailure("MISSING_REFERENCE_TIME", "the date boundary needs the caller's reference time")
        if k == "max_days_ahead" and b.days is not None and d > today + timedelta(days=b.days):
            return f"{b.argument}={v} 晚于今天（{today.isoformat()}）起 {b.days} 天"
        if k in ("max_days_ahead", "no_past") and d < today:
            return f"{b.argument}={v} 早于今天（{today.isoformat()}）" if k == "no_past" else None
        if k == "max_days_back" and b.days is not None and d < today - timedelta(days=b.days):
            return f"{b.argument}={v} 早于今天（{today.isoformat()}）前 {b.days} 天"
        return None
    if k == "allowed_values":
        values = b.values or []
        items = v if isinstance(v, list) else [v]
        bad = [x for x in items if x not in values and _canonical(x) not in values]
        return f"{b.argument}={bad[0]!r} 不在支持范围内" if bad else None
    if k == "place_scope":
        from plugineval.normalize import is_domestic

        dom = is_domestic(str(v))
        if dom is None:
            return None  # unknown places are the handler's NOT_FOUND
        if (b.scope == "domestic") != dom:
            return f"{b.argument}={v!r} {'是中国大陆地点' if dom else '不是中国大陆地点'}"
        return None
    if k in ("max_value", "min_value") and isinstance(v, int | float) and b.limit is not None:
        if (k == "max_value" and v > b.limit) or (k == "min_value" and v < b.limit):
            return f"{b.argument}={v} {'高于上限' if k == 'max_value' else '低于下限'} {b.limit:g}"
        return None
    if k == "max_items" and isinstance(v, list) and b.limit is not None and len(v) > b.limit:
        return f"{b.argument} 有 {len(v)} 项，超过上限 {b.limit:g}"
    return None


@dataclass
class CompiledTool:
    spec: ToolSpec
    handler: Handler
    inputs: Validator
    outputs: Validator
    boundaries: list[Boundary]
    defaults: dict[str, Any] = field(default_factory=dict)


def compile_tools(catalog: Catalog, domain_id: str) -> dict[str, CompiledTool]:
    """The domain's tools with their handlers; a tool without a handler is an error, never skipped."""
    load_domain_module(domain_id)
    out: dict[str, CompiledTool] = {}
    for p in catalog.domain(domain_id).plugins:
        for t in p.tools:
            if t.name not in HANDLERS:
                raise RuntimeError(
                    f"tool {t.name!r} (plugin {p.id}) has no handler in domains/{domain_id}.py"
                )
            out[t.name] = CompiledTool(
                spec=t,
                handler=HANDLERS[t.name],
                inputs=Validator(t.parameters),
                outputs=Validator(t.output),
                boundaries=[b for b in p.boundaries if t.name in b.tools],
                defaults={k: s["default"] for k, s in t.properties.items() if "default" in s},
            )
    return out


def execute(
    tool: CompiledTool,
    arguments: dict[str, Any],
    db: sqlite3.Connection,
    reference_time: datetime | None,
    timeout_s: float = 5.0,
) -> dict[str, Any]:
    """Validate, check boundaries, run the handler under a deadline, validate the output."""
    name = tool.spec.name
    errors = tool.inputs.errors(arguments)
    if errors:
        raise ToolFailure("SCHEMA_VIOLATION", "; ".join(errors), errors=errors)
    args = {**tool.defaults, **arguments}
    today = reference_time.date() if reference_time is not None else None
    for b in tool.boundaries:
        why = boundary_violation(b, args, today)
        if why is not None:
            raise ToolFailure(b.code, f"{b.description}（{why}）", boundary=b.id, argument=b.argument)
    deadline = _time.monotonic() + timeout_s
    db.set_progress_handler(lambda: int(_time.monotonic() > deadline), 10_000)
    try:
        result = tool.handler(ToolCtx(db, name, reference_time), args)
    except sqlite3.OperationalError as e:
        if "interrupted" in str(e):
            raise ToolFailure("TIMEOUT", f"{name} took longer than {timeout_s:g} s") from None
        raise
    finally:
        db.set_progress_handler(None, 0)
    if not result:
        raise ToolFailure("EMPTY_RESULT", f"{name} returned nothing")
    out_errors = tool.outputs.errors(result)
    if out_errors:
        raise ToolFailure(
            "INTERNAL_OUTPUT_INVALID", f"{name} produced output that breaks its schema: {out_errors}"
        )
    return result
