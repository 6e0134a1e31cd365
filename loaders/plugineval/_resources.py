"""Folders shipped as package data, found through the installed package (``importlib.resources``), never
through the source layout: the same path resolution for a wheel and for a checkout's editable install.

setup.py ships three folders of the checkout from where they are: ``configs/`` as
``plugineval.builder.configs``, ``dataset_card/`` as ``plugineval.builder.dataset_card`` and ``space/`` as
``plugineval.space_app``."""

from __future__ import annotations

import importlib.resources
from pathlib import Path
from typing import Any


def package_folder(package: str) -> Path:
    """The folder on disk of ``package`` (a package of plugineval installed as files, not in a zip)."""
    folder = importlib.resources.files(package)
    if not isinstance(folder, Path) or not folder.is_dir():
        raise FileNotFoundError(f"{package}: not a folder on disk ({folder!r}); install plugineval as files")
    return folder


# the files a wheel carries for a package folder: its modules and pyproject.toml's package-data patterns
SHIPPED = ("*.py", "*.yaml", "*.json", "*.jsonl", "*.txt", "*.md", "*.toml", "*.tmpl", "LICENSE")


def shipped_files(folder: Path) -> list[tuple[str, Path]]:
    """The files under ``folder`` that a wheel carries, each with its path relative to ``folder``, sorted
    by that path: the same list for a checkout and for the installed package (no ``__pycache__``)."""
    found = {
        f.relative_to(folder).as_posix(): f
        for pattern in SHIPPED
        for f in folder.rglob(pattern)
        if f.is_file() and "__pycache__" not in f.relative_to(folder).parts
    }
    return sorted(found.items())


def hash_folder(h: Any, folder: Path) -> None:
    """Feed ``h`` (a hashlib object) each shipped file's relative path and bytes: a rename, an edit, an
    added or a removed file changes the digest; where the folder lies (checkout, site-packages) does not."""
    for rel, f in shipped_files(folder):
        data = f.read_bytes()
        h.update(f"{rel}\0{len(data)}\0".encode())
        h.update(data)
