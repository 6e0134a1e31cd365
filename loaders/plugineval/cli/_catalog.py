"""``plugineval catalog …`` and ``plugineval tools …``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from . import CliError


def _catalog(args: argparse.Namespace) -> Any:
    from ..catalog import load_catalog

    return load_catalog(getattr(args, "catalog", None))


def _pad(s: str, width: int) -> str:
    """Left-align for a terminal: wide (CJK) characters take two columns."""
    import unicodedata

    w = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
    return s + " " * max(0, width - w)


def run_catalog(args: argparse.Namespace) -> int:
    cat = _catalog(args)
    if args.action == "validate":
        s = cat.stats()
        print(f"catalog OK: {s['domains']} domains, {s['plugins']} plugins, {s['tools']} tools")
        return 0
    if args.action == "stats":
        s = cat.stats()
        if args.json:
            print(json.dumps(s, ensure_ascii=False, indent=2))
            return 0
        print(
            f"domains: {s['domains']}   plugins: {s['plugins']}   tools: {s['tools']}   boundaries: {s['boundaries']}"
        )
        kinds = "  ".join(f"{k} {n}" for k, n in s["scenarios"].items())
        print(f"scenarios: {s['scenarios_total']}  ({kinds})")
        print()
        print(f"{'domain':<16}{_pad('name', 14)}{'plugins':>8}{'tools':>7}")
        for d, v in s["per_domain"].items():
            print(f"{d:<16}{_pad(v['name'], 14)}{v['plugins']:>8}{v['tools']:>7}")
        return 0
    if args.action == "show":
        try:
            p = cat.plugin(args.plugin)
        except KeyError as e:
            raise CliError(f"{e.args[0]}; list them with 'plugineval catalog stats --json'") from None
        print(f"{p.id} — {p.name}\n  {p.description}\n")
        for t in p.tools:
            req = set(t.required)
            print(f"  tool {t.name}{'  (stateful)' if t.stateful else ''}: {t.description}")
            if getattr(args, "shown", False):
                print(f"    shown to the model: {t.shown_description}")
            for a, sch in t.properties.items():
                print(f"    {'*' if a in req else ' '} {a} ({sch.get('type')}): {sch.get('description', '')}")
        print("\n  boundaries:")
        for b in p.boundaries:
            print(f"    {b.id} [{b.kind}] {b.code}: {b.description}")
        print("\n  scenarios:")
        for s in p.scenarios:
            print(f"    {s.kind:<15}{s.id:<24}{s.example}")
        return 0
    raise CliError(f"unknown action {args.action!r}")


def run_tools(args: argparse.Namespace) -> int:
    try:
        from plugineval.builder.tools.server import serve_stdio
        from plugineval.builder.tools.store import DEFAULT_SEED
    except ImportError as e:
        raise CliError(f"the tools need the builder extra: pip install 'plugineval[builder]' ({e})") from None
    seed = args.seed if args.seed is not None else DEFAULT_SEED
    cat = _catalog(args)
    if args.action == "serve":
        try:
            cat.domain(args.domain)
        except KeyError as e:
            raise CliError(str(e.args[0])) from None
        serve_stdio(args.domain, seed=seed, reference_time=args.reference_time)
        return 0
    if args.action == "call":
        import anyio

        from plugineval.builder.tools.server import ToolExecutor

        try:
            arguments = json.loads(args.arguments)
        except json.JSONDecodeError as e:
            raise CliError(f"arguments are not valid JSON: {e}") from None
        if not isinstance(arguments, dict):
            raise CliError("arguments must be a JSON object")

        async def go() -> Any:
            async with ToolExecutor(cat, seed) as ex:
                return await ex.call(args.tool, arguments, args.reference_time)

        out = anyio.run(go)
        print(json.dumps(out.to_dict(), ensure_ascii=False, indent=2))
        return 0 if out.ok else 1
    raise CliError(f"unknown action {args.action!r}")
