"""The ``plugineval`` command. Subcommands import what they need when they run, never at start-up."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .._version import JUDGE_VERSION, SCORER_VERSION, __version__

Command = Callable[[argparse.Namespace], int]


class CliError(Exception):
    """A problem the user can fix; printed without a traceback, exit code 2."""


# Each command module defines ``add_parsers(sub)`` (argparse only: cheap to import) and
# ``run(args) -> int`` (which imports what the command needs).
COMMAND_MODULES: dict[str, str] = {
    "catalog": "._catalog_cmd",
    "tools": "._catalog_cmd",
    "build": "._build",
    "evaluate": "._evaluate",
    "compare": "._evaluate",
    "predict": "._predict",
    "release": "._release",
    "space": "._space",
    "submit": "._submit",
}


def _module(name: str) -> Any:
    import importlib

    return importlib.import_module(COMMAND_MODULES[name], __name__)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="plugineval",
        description=(
            "PluginEval: a diagnostic benchmark for LLM function calling over Chinese plugins.\n"
            "Build it (PCCF), run models on it, score predictions with the gold-anchored judge,\n"
            "publish it, browse it; inspect the catalog and serve its tools over MCP."
        ),
        epilog="Run 'plugineval COMMAND --help' for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"plugineval {__version__} (judge {JUDGE_VERSION}, scorer {SCORER_VERSION})",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    import importlib

    for mod in dict.fromkeys(COMMAND_MODULES.values()):  # each module once, in order
        importlib.import_module(mod, __name__).add_parsers(sub)
    return parser


def _dispatch(args: argparse.Namespace) -> int:
    rc: int = _module(args.command).run(args)
    return rc


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return _dispatch(args)
    except CliError as e:
        print(f"plugineval: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into head: not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print("plugineval: interrupted", file=sys.stderr)
        return 130
    except Exception as e:
        from ..schema import SchemaError

        if isinstance(e, SchemaError | FileNotFoundError | ValueError):
            print(f"plugineval: error: {e}", file=sys.stderr)
            return 2
        raise
