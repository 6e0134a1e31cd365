"""``plugineval predict``: being built (see the issue tracker); registered so the command list is stable."""

from __future__ import annotations

import argparse
from typing import Any

from . import CliError


def add_parsers(sub: Any) -> None:
    sub.add_parser("predict", help="(in progress) see 'plugineval predict --help' once it lands")


def run(args: argparse.Namespace) -> int:
    raise CliError("'plugineval predict' is not available in this version yet")
