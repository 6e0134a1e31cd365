"""Package layout: the package lives in loaders/plugineval, the builder in loaders/plugineval/builder.

``PLUGINEVAL_COMPILE=1`` (opt-in) compiles the rules judge's hot modules with mypyc: the same verdicts,
faster (docs/bfcl_conformance.md, Speed). It needs mypyc (``pip install mypy``) and a C compiler with
the Python headers, and fails naming what is missing rather than falling back to pure Python. Without
it, and always for an editable install (an extension module next to its ``.py`` would shadow edits to
it), the package is pure Python."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import find_namespace_packages, setup

# namespace packages: the data folders (catalog/data, judge/prompts, builder/grammars, ...) are shipped
# as packages of their own, so that a wheel carries them (tests/test_packaging.py)
skip = ["__pycache__", "*.__pycache__"]
# every package under loaders/: the core and the builder (plugineval.builder, loaders/plugineval/builder)
core = find_namespace_packages("loaders", include=["plugineval", "plugineval.*"], exclude=skip)
# folders of the checkout that the installed package reads, shipped from where they are (one copy, the
# documented one): the build's default config, the dataset card template and the Space app, found
# through importlib.resources (plugineval/_resources.py), never through the source layout
# (a source tree without them — the core alone, as the compiled judge's build copies it — builds too)
DATA_FOLDERS = {
    pkg: folder
    for pkg, folder in {
        "plugineval.builder.configs": "configs",
        "plugineval.builder.dataset_card": "dataset_card",
        "plugineval.space_app": "space",
    }.items()
    if os.path.isdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), folder))
}
shipped = [
    *DATA_FOLDERS,
    *(
        "plugineval.space_app." + p
        for p in (
            find_namespace_packages("space", exclude=skip) if "plugineval.space_app" in DATA_FOLDERS else []
        )
    ),
]

# the modules compiled by PLUGINEVAL_COMPILE=1: the rules judge's per-pair path
COMPILED_MODULES = [
    "loaders/plugineval/judge/_core.py",
    "loaders/plugineval/judge/_values.py",
    "loaders/plugineval/judge/_types.py",
    "loaders/plugineval/judge/_align.py",
]
EDITABLE_COMMANDS = {"develop", "editable_wheel"}
# commands that build code: the toolchain is checked and mypyc runs only for them, not for the metadata
# steps (egg_info, dist_info) that pip runs first, for an editable install too
BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "bdist", "bdist_egg", "install"}


def _missing_toolchain() -> list[str]:
    """What a mypyc build lacks here, each said so that a person can act on it."""
    missing = []
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        missing.append(
            "mypyc (it comes with mypy: pip install mypy, then build with pip's --no-build-isolation)"
        )
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    exe = shlex.split(cc)[0] if cc.strip() else ""
    if not exe or shutil.which(exe) is None:
        missing.append(f"a C compiler ({exe or cc!r} not found; set CC or install gcc/clang)")
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").is_file():
        missing.append(f"the Python headers ({include}/Python.h not found; e.g. apt-get install python3-dev)")
    return missing


def _ext_modules() -> list[Any]:
    if os.environ.get("PLUGINEVAL_COMPILE", "").strip() not in ("1", "true", "yes"):
        return []
    if EDITABLE_COMMANDS & set(sys.argv[1:]):
        print("PLUGINEVAL_COMPILE: ignored for an editable install (it stays pure Python)", file=sys.stderr)
        return []
    if not BUILD_COMMANDS & set(sys.argv[1:]):  # metadata only (also an editable install's first step)
        return []
    missing = _missing_toolchain()
    if missing:
        raise SystemExit(
            "PLUGINEVAL_COMPILE=1 asks for the compiled judge, but this machine lacks: "
            + "; ".join(missing)
            + ". Install it, or build without PLUGINEVAL_COMPILE for the pure-Python package."
        )
    from mypyc.build import mypycify

    here = Path(__file__).resolve().parent
    os.chdir(here)  # mypy reads its configuration (pyproject.toml: mypy_path = loaders) from here
    # mypy analyses only the compiled modules (and the standard library's stubs), not what they import
    # from the rest of the package and pydantic: that whole-program analysis was most of a build's time
    # (docs/bfcl_conformance.md, Speed), and names imported from there (pydantic models, normalizers)
    # are ordinary Python objects to the compiled code either way. Without those modules' types,
    # "returning Any" is no longer a strict-mode error to stop at.
    flags = ["--follow-imports=skip", "--no-warn-return-any"]
    return mypycify([*flags, *COMPILED_MODULES], opt_level="3")


setup(
    packages=core + shipped,
    package_dir={"plugineval": "loaders/plugineval", **DATA_FOLDERS},
    ext_modules=_ext_modules(),
)
