#!/usr/bin/env bash
# Fetch BFCL's own checker (the bfcl-eval 2026.3.23 wheel, pure Python, Apache-2.0) for
# benchmarks/judge_throughput.py to time beside the judge. Downloads one wheel from PyPI and unpacks
# it under .cache/bench/; installs nothing (its declared dependencies are not needed by the checker).
set -euo pipefail
cd "$(dirname "$0")/.."
version=2026.3.23
dest=.cache/bench/bfcl_eval-$version
if [ -d "$dest/bfcl_eval" ]; then
  echo "already there: $dest"
  exit 0
fi
mkdir -p .cache/bench/wheels
.venv/bin/python -m pip download --quiet --no-deps --only-binary=:all: -d .cache/bench/wheels "bfcl-eval==$version"
rm -rf "$dest.tmp"
.venv/bin/python -m zipfile -e ".cache/bench/wheels/bfcl_eval-$version-py3-none-any.whl" "$dest.tmp"
mv "$dest.tmp" "$dest"
echo "unpacked: $dest"
