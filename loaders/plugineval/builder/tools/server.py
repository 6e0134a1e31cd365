"""One MCP server per catalog domain, built on ``mcp``'s ``MCPServer``.

The server lists the catalog's tools with their JSON Schemas (input and output) and answers
``tools/call`` through ``runtime.execute``. The caller's reference time travels in the request's
``_meta`` (key ``reference_time``), never from the machine's clock. Failures reach the client as
``is_error`` results whose text is JSON: ``{"error": {"code", "message", "tool", ...}}``.

``ToolExecutor`` is the client side the builder uses: an in-process ``mcp.Client`` session per
domain (every call goes through the protocol), with a per-call time-out and fresh state for
stateful tools.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import anyio
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from mcp.types import Tool as MCPTool

from plugineval.catalog import Catalog, load_catalog

from .runtime import CompiledTool, ToolFailure, compile_tools, execute
from .store import DEFAULT_SEED, Store

META_KEY = "reference_time"
logging.getLogger("mcp.server.mcpserver.server").setLevel(logging.WARNING)


class DomainServer(MCPServer[Any]):
    """The tools of one catalog domain over MCP."""

    def __init__(
        self,
        catalog: Catalog,
        domain_id: str,
        store: Store,
        default_reference_time: datetime | None = None,
        timeout_s: float = 5.0,
    ) -> None:
        dom = catalog.domain(domain_id)
        super().__init__(name=f"plugineval-{domain_id}", instructions=f"{dom.name}：{dom.description}")
        self.domain_id = domain_id
        self.store = store
        self.tools_by_name: dict[str, CompiledTool] = compile_tools(catalog, domain_id)
        self.default_reference_time = default_reference_time
        self.timeout_s = timeout_s
        self._ro = store.readonly_connection()
        self._state: Any = None  # fresh in-memory copy for stateful tools, made on demand
        self._listing = [
            MCPTool(
                name=t.spec.name,
                description=t.spec.shown_description,
                input_schema=t.spec.parameters,
                output_schema=t.spec.output,
            )
            for t in self.tools_by_name.values()
        ]

    def reset_state(self) -> None:
        """Discard what stateful tools wrote: the next call sees a fresh copy of the store.

        The in-memory copy is made once; a stateful tool's writes stay in one open transaction
        (handlers never commit), and rolling it back restores the pristine copy cheaply."""
        if self._state is not None:
            self._state.rollback()

    async def list_tools(self) -> list[MCPTool]:
        return list(self._listing)

    def _tool_input_schema(self, name: str) -> dict[str, Any] | None:
        t = self.tools_by_name.get(name)
        return None if t is None else t.spec.parameters

    def _reference_time(self, context: Any) -> datetime | None:
        meta = None
        rc = getattr(context, "request_context", None) if context is not None else None
        if rc is not None:
            meta = getattr(rc, "meta", None)
        raw = meta.get(META_KEY) if isinstance(meta, dict) else None
        if raw is None:
            return self.default_reference_time
        try:
            dt = datetime.fromisoformat(str(raw))
        except ValueError:
            raise ToolFailure("BAD_REFERENCE_TIME", f"_meta.reference_time {raw!r} is not ISO 8601") from None
        if dt.tzinfo is None:
            raise ToolFailure(
                "BAD_REFERENCE_TIME", "_meta.reference_time must carry a UTC offset, e.g. +08:00"
            )
        return dt

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self.tools_by_name.get(name)
        if tool is None:
            err = ToolFailure(
                "UNKNOWN_TOOL", f"no tool {name!r} here; tools: {', '.join(self.tools_by_name)}"
            )
            raise ToolError(json.dumps(err.to_dict(name), ensure_ascii=False))
        try:
            if tool.spec.stateful and self._state is None:
                self._state = self.store.fresh_connection()
            db = self._state if tool.spec.stateful else self._ro
            result = execute(tool, arguments, db, self._reference_time(context), self.timeout_s)
        except ToolFailure as f:
            raise ToolError(json.dumps(f.to_dict(name), ensure_ascii=False)) from None
        text = json.dumps(result, ensure_ascii=False)
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def build_server(
    domain_id: str,
    catalog: Catalog | None = None,
    seed: int = DEFAULT_SEED,
    default_reference_time: datetime | None = None,
) -> DomainServer:
    cat = catalog or load_catalog()
    store = Store.open([domain_id], seed)
    return DomainServer(cat, domain_id, store, default_reference_time)


async def _trusted(name: str, result: CallToolResult) -> None:
    return None


@dataclass(frozen=True)
class CallOutcome:
    """What one execution through MCP observed."""

    ok: bool
    result: dict[str, Any] | None
    error_code: str | None
    error_message: str | None
    elapsed_ms: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "result": self.result,
            "error_code": self.error_code,
            "error_message": self.error_message,
        }


def parse_result(res: CallToolResult) -> tuple[bool, dict[str, Any] | None, str | None, str | None]:
    text = "".join(c.text for c in res.content if isinstance(c, TextContent))
    if res.is_error:
        try:
            err = json.loads(text)["error"]
            return False, None, str(err["code"]), str(err["message"])
        except (ValueError, KeyError, TypeError):
            return False, None, "TOOL_ERROR", text
    data = res.structured_content
    if data is None:
        try:
            data = json.loads(text)
        except ValueError:
            return False, None, "UNSTRUCTURED_OUTPUT", text[:200]
    return True, data, None, None


class ToolExecutor:
    """Executes catalog calls through in-process MCP client sessions, one per domain."""

    def __init__(self, catalog: Catalog, seed: int = DEFAULT_SEED, timeout_s: float = 10.0) -> None:
        self.catalog = catalog
        self.seed = seed
        self.timeout_s = timeout_s
        self._servers: dict[str, DomainServer] = {}
        self._clients: dict[str, Client] = {}
        self._stack: AsyncExitStack | None = None
        self.calls = 0

    async def __aenter__(self) -> ToolExecutor:
        self._stack = AsyncExitStack()
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._stack is not None:
            await self._stack.aclose()
        self._clients.clear()

    async def _client(self, domain_id: str) -> Client:
        c = self._clients.get(domain_id)
        if c is None:
            assert self._stack is not None, "use ToolExecutor inside 'async with'"
            server = DomainServer(self.catalog, domain_id, Store.open([domain_id], self.seed))
            self._servers[domain_id] = server
            c = await self._stack.enter_async_context(Client(server))
            # Our servers validate every output against its schema with the compiled validator before
            # sending it (runtime.execute); the client's second, jsonschema-based check of our own
            # servers' results is the bulk of a call's cost, so the builder's executor trusts them.
            c.session.validate_tool_result = _trusted  # type: ignore[method-assign]
            self._clients[domain_id] = c
        return c

    def reset_state(self) -> None:
        for s in self._servers.values():
            s.reset_state()

    async def call(self, name: str, arguments: dict[str, Any], reference_time: str) -> CallOutcome:
        try:
            plugin = self.catalog.plugin_of_tool(name)
        except KeyError:
            return CallOutcome(False, None, "UNKNOWN_TOOL", f"no catalog tool {name!r}", 0.0)
        client = await self._client(self.catalog.domain_of_plugin(plugin.id))
        t0 = anyio.current_time()
        self.calls += 1
        try:
            with anyio.fail_after(self.timeout_s):
                meta: Any = {META_KEY: reference_time}
                res = await client.call_tool(name, arguments, meta=meta)
        except TimeoutError:
            return CallOutcome(
                False, None, "TIMEOUT", f"no answer within {self.timeout_s:g} s", 1000 * self.timeout_s
            )
        ok, data, code, msg = parse_result(res)
        return CallOutcome(ok, data, code, msg, 1000 * (anyio.current_time() - t0))


@asynccontextmanager
async def executor(catalog: Catalog | None = None, seed: int = DEFAULT_SEED) -> AsyncIterator[ToolExecutor]:
    async with ToolExecutor(catalog or load_catalog(), seed) as ex:
        yield ex


def serve_stdio(domain_id: str, seed: int = DEFAULT_SEED, reference_time: str | None = None) -> None:
    """Run one domain's server over stdio (``plugineval tools serve DOMAIN``)."""
    ref = datetime.fromisoformat(reference_time) if reference_time else None
    build_server(domain_id, seed=seed, default_reference_time=ref).run("stdio")
