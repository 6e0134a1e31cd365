"""The Space push: ``space/`` as it is, plus a wheel of ``plugineval`` built from the project's current
commit (``git archive HEAD``, so uncommitted edits never ship), placed at the Space repo's root and
installed by its requirements.txt (the line naming plugineval is rewritten to the wheel's file)."""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .push import KEEP_REMOTE, LocalFile, ReleaseError, git_blob_sha1, hf_api, local_files, plan_push

REQ_LINE = re.compile(r"^\s*plugineval\s*(\[[^\]]*\])?[^#]*?(\s*#.*)?$", re.IGNORECASE)
WHEEL_NAME = re.compile(r"^plugineval-[^-]+-.+\.whl$")


def project_root() -> Path:
    here = Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "pyproject.toml").exists() and (parent / "setup.py").exists():
            return parent
    raise ReleaseError(
        f"no project checkout (pyproject.toml) above {here}: build the Space from a source checkout"
    )


def head_commit(root: Path) -> str:
    try:
        res = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        )
    except (OSError, subprocess.CalledProcessError) as e:
        raise ReleaseError(
            f"{root}: not a git checkout, cannot tell which commit the wheel comes from ({e})"
        ) from None
    return res.stdout.strip()


def build_wheel(root: Path, out: Path) -> tuple[Path, str]:
    """A wheel of the package at ``root``'s HEAD commit (a clean export, never the working tree)."""
    commit = head_commit(root)
    src = out / "src"
    src.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "-C", str(root), "archive", "--format=tar", commit], capture_output=True, check=False
    )
    if archive.returncode != 0:
        raise ReleaseError(f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive.stdout, check=True)
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--no-deps",
        "--no-build-isolation",
        "-q",
        str(src),
        "-w",
        str(out / "wheels"),
    ]
    import importlib.util

    if importlib.util.find_spec("setuptools") is None:  # else build without fetching build requirements
        cmd.remove("--no-build-isolation")
    res = subprocess.run(cmd, capture_output=True, text=True, check=False)
    wheels = sorted((out / "wheels").glob("plugineval-*.whl"))
    if res.returncode != 0 or len(wheels) != 1:
        raise ReleaseError(
            f"building the plugineval wheel from {commit} failed: {res.stderr.strip()[-2000:]}"
        )
    return wheels[0], commit


def rewrite_requirements(text: str, wheel: str) -> str:
    """Point the line that names plugineval (keeping its extras) at ``./<wheel>``; add one if none does."""
    out, done = [], False
    for line in text.splitlines():
        m = REQ_LINE.match(line)
        if m and not done:
            out.append(f"./{wheel}{m.group(1) or ''}")
            done = True
        elif m:
            continue
        else:
            out.append(line)
    if not done:
        out.append(f"./{wheel}")
    return "\n".join(out) + "\n"


def push_space(
    space_dir: Path,
    repo: str,
    dataset_tag: str | None,
    dry_run: bool = False,
    token: str | None = None,
    root: Path | None = None,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    space_dir = Path(space_dir)
    if not space_dir.is_dir() or not any(space_dir.iterdir()):
        raise ReleaseError(f"{space_dir}: no Space folder to push (expected app.py, requirements.txt, …)")
    root = root or project_root()
    api = hf_api(token)
    files = local_files(space_dir, skip=lambda rel: rel == "requirements.txt" or bool(WHEEL_NAME.match(rel)))
    req_path = space_dir / "requirements.txt"
    req_text = req_path.read_text(encoding="utf-8") if req_path.exists() else ""
    if dry_run:
        commit = head_commit(root)
        plan = plan_push(api, space_dir, repo, None, "space", files=files, keep=(*KEEP_REMOTE, "README.md"))
        out(plan.describe())
        out(f"  + a plugineval wheel built from commit {commit}, referenced from requirements.txt")
        out("dry run: nothing was sent")
        return {"repo": repo, "commit": None, "wheel_commit": commit, "dry_run": True}
    with tempfile.TemporaryDirectory(prefix="plugineval-wheel-") as tmp:
        wheel, commit = build_wheel(root, Path(tmp))
        contents = {
            wheel.name: wheel.read_bytes(),
            "requirements.txt": rewrite_requirements(req_text, wheel.name).encode(),
        }
        for name, data in contents.items():
            import hashlib

            src = wheel if name == wheel.name else req_path
            files[name] = LocalFile(
                name, src, hashlib.sha256(data).hexdigest(), git_blob_sha1(data), len(data)
            )
        plan = plan_push(api, space_dir, repo, None, "space", files=files, keep=(*KEEP_REMOTE, "README.md"))
        out(plan.describe())
        from .push import commit_plan

        msg = f"Space: plugineval wheel {wheel.name} from commit {commit[:12]}" + (
            f" (dataset {dataset_tag})" if dataset_tag else ""
        )
        sha = commit_plan(api, plan, msg, contents=contents, space_sdk="gradio")
    out(
        f"space {repo}: {'committed' if plan.changes else 'unchanged at'} {sha} (wheel {wheel.name} from {commit[:12]})"
    )
    return {"repo": repo, "commit": sha, "wheel": wheel.name, "wheel_commit": commit, "dry_run": False}
