"""``plugineval release``: render the dataset card of a release folder, publish it to the Hub."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from . import CliError


def add_parsers(sub: Any) -> None:
    r = sub.add_parser(
        "release",
        help="render the dataset card; push a release (and the Space) to the Hub",
        description="Publish PluginEval: the card of a release folder, versioned pushes to the Hub.",
    )
    rs = r.add_subparsers(dest="release_command", required=True, metavar="ACTION")
    c = rs.add_parser("card", help="render README.md, figures/ and changelog.json of a release folder")
    c.add_argument("release", metavar="DIR", help="release folder written by 'plugineval build'")
    c.add_argument("--previous", metavar="DIR", help="the previous release folder (for the changelog)")
    c.add_argument("--repo", metavar="OWNER/NAME", help="the Hub repo the card's code loads from")
    p = rs.add_parser(
        "push",
        help="upload a release folder to a Hub dataset repo and tag it vX.Y.Z",
        description=(
            "Create the dataset repo if missing, commit the release folder (stale files deleted) and\n"
            "tag it v<version> (the version of the folder). An existing tag is never moved. The token\n"
            "comes from HF_TOKEN; HF_ENDPOINT selects another Hub."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--repo", required=True, metavar="OWNER/NAME", help="dataset repo")
    p.add_argument(
        "--release", metavar="DIR", default="dist/plugineval-zh", help="release folder (default: %(default)s)"
    )
    p.add_argument(
        "--dry-run", action="store_true", help="print the plan (files to add / update / delete, the tag)"
    )
    p.add_argument("--space", metavar="OWNER/NAME", help="also push the Space with a wheel of plugineval")
    p.add_argument("--space-dir", metavar="DIR", default="space", help="Space folder (default: %(default)s)")


def _repo_id(value: str, flag: str) -> str:
    parts = value.split("/")
    if len(parts) != 2 or not all(parts):
        raise CliError(f"{flag} must be OWNER/NAME, got {value!r}")
    return value


def run(args: argparse.Namespace) -> int:
    if args.release_command == "card":
        try:
            from plugineval.builder.pccf.card import CardError, render_card
        except ImportError as e:
            raise CliError(
                f"rendering the card needs the builder extra: pip install 'plugineval[builder]' ({e})"
            ) from None
        from ..sources import HUB_REPO

        try:
            render_card(
                Path(args.release),
                Path(args.previous) if args.previous else None,
                repo=_repo_id(args.repo, "--repo") if args.repo else HUB_REPO,
            )
        except CardError as e:
            raise CliError(str(e)) from None
        print(f"rendered {Path(args.release) / 'README.md'}")
        return 0
    from ..release import ReleaseError, push_release

    repo = _repo_id(args.repo, "--repo")
    space = _repo_id(args.space, "--space") if args.space else None
    folder = Path(args.release)
    if not folder.is_dir():
        raise CliError(
            f"release folder {folder} does not exist (build it with 'plugineval build --out {folder}')"
        )
    if space and not Path(args.space_dir).is_dir():
        raise CliError(f"Space folder {args.space_dir} does not exist")
    try:
        res = push_release(folder, repo, dry_run=args.dry_run)
        if space:
            from ..release.space import push_space

            push_space(
                Path(args.space_dir),
                space,
                res["tag"],
                dry_run=args.dry_run,
                token=os.environ.get("HF_TOKEN"),
            )
    except ReleaseError as e:
        raise CliError(str(e)) from None
    return 0
