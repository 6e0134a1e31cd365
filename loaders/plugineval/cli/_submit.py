"""``plugineval submit --validate BUNDLE``: check a submission bundle offline against a release."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from . import CliError
from ._args import add_records_arguments


def add_parsers(sub: Any) -> None:
    p = sub.add_parser(
        "submit",
        help="check a submission bundle (predictions, sidecars, submission.json) offline against a release",
        description=(
            "Check a submission bundle (a folder or a .zip; docs/submit.md) against the records of its\n"
            "split: the manifest's fields, every listed predictions file (parses under the reader's bounds,\n"
            "every id known, every record answered), every sidecar (model, mode, prompt version, settings,\n"
            "complete), and that several files are trials of one run. Prints each problem with its file\n"
            "and field; exit 0 when the bundle is valid, 1 when not. Nothing is scored here: the Space\n"
            "scores every bundle with its own judge."
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("bundle", metavar="BUNDLE", help="the bundle folder or .zip")
    p.add_argument("--validate", action="store_true", required=True, help="validate the bundle (required)")
    add_records_arguments(p)
    p.add_argument("--zip", metavar="OUT.zip", help="when valid, also write the bundle as a zip to upload")


def run(args: argparse.Namespace) -> int:
    from ..sources import load_records
    from ..submission import BundleError, load_bundle, validate

    try:
        bundle = load_bundle(args.bundle)
    except BundleError as e:
        _print_problems(args.bundle, [str(p) for p in e.problems])
        return 1
    try:
        records = load_records(args.records, bundle.manifest.split, args.revision)
    except (FileNotFoundError, ValueError) as e:
        raise CliError(f"cannot load the records to validate against: {e}") from None
    v = validate(bundle, records)
    for w in bundle.warnings:
        print(f"warning: {w}", file=sys.stderr)
    if not v.ok:
        _print_problems(args.bundle, [str(p) for p in v.problems], v.total)
        return 1
    m = bundle.manifest
    print(
        f"{args.bundle}: valid — {m.model} ({m.endpoint_kind}), {len(m.predictions)} predictions file(s) × "
        f"{len(records)} records of {m.split} (dataset {','.join(sorted({r.version for r in records}))}); "
        f"digest {bundle.digest[:12]}. The Space re-scores it with its own judge."
    )
    if args.zip:
        Path(args.zip).write_bytes(bundle.to_zip())
        print(f"wrote {args.zip}")
    return 0


def _print_problems(source: str, problems: list[str], total: int | None = None) -> None:
    n = max(total or 0, len(problems))
    shown = f", the first {len(problems)} listed" if n > len(problems) else ""
    print(f"{source}: not a valid bundle, {n} problem(s){shown}:", file=sys.stderr)
    for p in problems:
        print(f"  - {p}", file=sys.stderr)
