"""``plugineval space``: serve the Space (leaderboard, dataset browser, live judge) locally.

The app lives in ``space/`` of a checkout (``space/app.py`` and the ``plugineval_space`` package),
shipped in the installed package as ``plugineval.space_app``; this command puts that folder on ``sys.path``, configures the app through its environment variables
and launches it. gradio is imported only here, inside ``run``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from plugineval._resources import package_folder

from . import CliError
from ._args import add_records_arguments

# space/ of the checkout, shipped as package data (setup.py)
SPACE_DIR = package_folder("plugineval.space_app")


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "space",
        help="serve the Space locally: leaderboard, dataset browser, live judge",
        description=(
            "Serve the PluginEval Space on HOST:PORT (default 127.0.0.1:7860) from the installed Space app.\n"
            "Records come from a local release folder, a Hub dataset repo id or a JSONL of rows; the\n"
            "leaderboard is a SQLite file (seeded with the baselines on first use)."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_records_arguments(p)
    p.add_argument("--port", type=int, default=7860, help="port (default 7860; 0 picks a free one)")
    p.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    p.add_argument(
        "--db",
        metavar="PATH",
        help="leaderboard SQLite file (default $PLUGINEVAL_SPACE_DB or space_data/leaderboard.sqlite)",
    )
    p.add_argument(
        "--hub-leaderboard", metavar="REPO", help="keep the leaderboard in this Hub dataset repo instead"
    )
    p.add_argument("--judge", choices=["rules", "hybrid"], help="judge mode for uploads (default hybrid)")
    p.add_argument(
        "--ttl", type=float, metavar="SECONDS", help="reload the release after this long (default 3600)"
    )
    p.add_argument("--max-upload-mb", type=float, help="upload limit in MiB (default 32)")
    p.add_argument("--no-seed", action="store_true", help="do not add the baseline rows")
    p.add_argument("--space-dir", metavar="DIR", help=f"the Space folder (default {SPACE_DIR})")


def _free_port(host: str) -> int:
    import socket

    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def run(args: argparse.Namespace) -> int:
    space = Path(args.space_dir) if args.space_dir else SPACE_DIR
    if not (space / "app.py").exists() or not (space / "plugineval_space").is_dir():
        raise CliError(
            f"no Space app at {space} (expected app.py and plugineval_space/): reinstall plugineval "
            "or pass --space-dir"
        )
    if args.records and "/" not in args.records and not Path(args.records).exists():
        raise CliError(f"records source not found: {args.records}")
    env = {
        "PLUGINEVAL_RECORDS": args.records,
        "PLUGINEVAL_REVISION": args.revision,
        "PLUGINEVAL_SPACE_DB": args.db,
        "PLUGINEVAL_SPACE_HUB_REPO": args.hub_leaderboard,
        "PLUGINEVAL_SPACE_JUDGE": args.judge,
        "PLUGINEVAL_SPACE_TTL": None if args.ttl is None else str(args.ttl),
        "PLUGINEVAL_SPACE_MAX_UPLOAD_MB": None if args.max_upload_mb is None else str(args.max_upload_mb),
        "PLUGINEVAL_SPACE_SEED": "0" if args.no_seed else None,
    }
    for k, v in env.items():
        if v is not None:
            os.environ[k] = v
    os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")
    sys.path.insert(0, str(space))
    import importlib

    app = importlib.import_module("app")
    svc = app.service
    try:
        svc.release.records(svc.split)  # fail early, with a clear message, on a bad source
    except (FileNotFoundError, ValueError) as e:
        raise CliError(f"cannot load the records: {e}") from None
    if svc.seed:
        print("seeding the leaderboard with the baselines …", file=sys.stderr, flush=True)
        svc.ensure_seeded()
    port = args.port or _free_port(args.host)
    print(
        f"PluginEval Space on http://{args.host}:{port}/  (records: {svc.release.describe()['source']}; "
        f"leaderboard: {svc.board.description})",
        flush=True,
    )
    importlib.import_module("plugineval_space.livejudge").drop_reports_on_sigterm()
    app.demo.queue(default_concurrency_limit=4).launch(
        server_name=args.host, server_port=port, show_error=True, quiet=True, **app.launch_kwargs()
    )
    return 0
