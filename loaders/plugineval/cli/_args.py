"""Arguments several commands share: where the records come from."""

from __future__ import annotations

import argparse

# the leaf module the schema takes them from too: importing the schema (pydantic) would cost every
# command ~0.2 s at start-up
from .._constants import SPLITS


def add_records_arguments(p: argparse.ArgumentParser, split: bool = False) -> None:
    """``--records SOURCE`` and ``--revision`` (and ``--split`` where the command reads one split)."""
    p.add_argument(
        "--records",
        metavar="SOURCE",
        help="a release folder, a Hub dataset repo id, or a JSONL file of records "
        "(default: dist/plugineval-zh when built, else $PLUGINEVAL_HUB_REPO)",
    )
    if split:
        p.add_argument("--split", default="test", choices=list(SPLITS))
        p.add_argument(
            "--config",
            default="default",
            choices=["default", "calendar"],
            help="the records' config: default, or the opt-in calendar stress set (never in a default score)",
        )
    p.add_argument("--revision", metavar="vX.Y.Z", help="dataset revision when SOURCE is a Hub repo")
