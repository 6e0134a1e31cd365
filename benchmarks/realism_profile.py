"""The realism profile (``plugineval.realism``) of a release's splits beside the reference profile of
real requests, or — with ``--write-reference`` — the reference profile measured from a local file of
real requests (one ``{"text": ...}`` per line).

The reference corpus itself never enters the project (its license does not allow redistribution,
docs/authoring.md): only its aggregate profile does, with its provenance, in
``loaders/plugineval/builder/real/realism_reference.json``.

    .venv/bin/python benchmarks/realism_profile.py dist/plugineval-zh
    .venv/bin/python benchmarks/realism_profile.py --write-reference /path/to/real.jsonl \\
        --origin "SMP-ECDT 2017/2019 task 1 (…)"
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from plugineval.builder.pccf.realism_section import REFERENCE, realism_by_split, realism_markdown
from plugineval.realism import profile


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("source", help="a release folder, or with --write-reference a JSONL of real requests")
    ap.add_argument("--write-reference", action="store_true")
    ap.add_argument("--origin", default="", help="the reference corpus, its license and how it was used")
    a = ap.parse_args(argv)
    src = Path(a.source)
    if a.write_reference:
        rows = [json.loads(x) for x in src.read_text(encoding="utf-8").splitlines() if x.strip()]
        ref = {"origin": a.origin, "profile": profile(rows)}
        REFERENCE.write_text(json.dumps(ref, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {REFERENCE} ({len(rows)} requests)")
        return 0
    if not (src / "data").is_dir():
        print(f"{src}: not a release folder (no data/)", file=sys.stderr)
        return 2
    print(realism_markdown(realism_by_split(src)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
