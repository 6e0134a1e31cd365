"""The repository stands on its own: every "docs/format.md §n" cited in code and docs names a section
of docs/format.md, and no README, doc or shipped file points outside the repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FORMAT = ROOT / "docs" / "format.md"
CITE = re.compile(
    r"(?:docs/format\.md|\[format\]\(format\.md\)|\[docs/format\.md\]\(format\.md\))\s+((?:§[\d.]+[-–/, ]*)+)"
)


def _tracked(*paths: str) -> list[Path]:
    out = subprocess.run(["git", "ls-files", *paths], cwd=ROOT, capture_output=True, text=True, check=True)
    return [ROOT / p for p in out.stdout.split()]


def _sections() -> set[str]:
    heads = re.findall(r"^#{2,3} §([\d.]+) ", FORMAT.read_text(encoding="utf-8"), re.M)
    return set(heads)


def test_every_citation_names_a_section() -> None:
    sections = _sections()
    assert {"1", "2", "2.1", "2.2", "2.3", "5", "6", "7", "8", "9"} <= sections
    bad = []
    for path in _tracked("README.md", "docs", "loaders", "space", "dataset_card", "tests", "benchmarks"):
        if path.suffix not in (".py", ".md", ".tmpl") or not path.is_file():
            continue
        for m in CITE.finditer(path.read_text(encoding="utf-8")):
            for n in re.findall(r"§([\d.]*\d)", m.group(1)):
                if n not in sections:
                    bad.append(f"{path.relative_to(ROOT)}: §{n}")
    assert bad == []


def test_readme_docs_and_shipped_code_do_not_point_outside_the_repository() -> None:
    hits = []
    # the shipped code: the core, the builder, the Space, the build config and the card template (the
    # published card must not cite a file its readers cannot see)
    for path in _tracked("README.md", "docs", "loaders", "space", "configs", "dataset_card"):
        if path.is_file() and path.suffix in (".py", ".md", ".txt", ".toml", ".yaml", ".tmpl"):
            text = path.read_text(encoding="utf-8")
            if "../shared" in text or re.search(r"\bSPEC §", text):
                hits.append(str(path.relative_to(ROOT)))
    assert hits == []
