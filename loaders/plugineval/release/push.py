"""``plugineval release push``: plan (files to add / update / delete, the tag), then create the repo if
missing, one commit with every change (stale files deleted), and the tag ``vX.Y.Z`` on that commit.

Failure semantics: nothing moves an existing tag; a failed commit leaves ``main`` and every tag as
they were; a commit that landed but whose tag failed is found again by the retry (no file differs),
which then only tags."""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SEMVER = re.compile(r"^\d+\.\d+\.\d+$")
KEEP_REMOTE = (".gitattributes",)


class ReleaseError(Exception):
    """A push that cannot go on; the message says what failed and what state the repo is in."""


@dataclass
class LocalFile:
    path: str
    local: Path
    sha256: str
    git_sha1: str
    size: int


@dataclass
class PushPlan:
    repo: str
    repo_type: str
    tag: str | None
    exists: bool
    head: str | None
    add: list[str] = field(default_factory=list)
    update: list[str] = field(default_factory=list)
    delete: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    tag_commit: str | None = None  # where the tag already points, if it exists
    files: dict[str, LocalFile] = field(default_factory=dict)

    @property
    def changes(self) -> bool:
        return bool(self.add or self.update or self.delete)

    def describe(self) -> str:
        kind = "dataset" if self.repo_type == "dataset" else self.repo_type
        lines = [
            f"{kind} repo {self.repo}: "
            + (f"exists, main at {self.head}" if self.exists else "will be created")
        ]
        for what, paths in (("add", self.add), ("update", self.update), ("delete", self.delete)):
            lines.append(f"  {what} {len(paths)}")
            lines += [f"    {p}" for p in paths]
        lines.append(f"  unchanged {len(self.unchanged)}")
        if self.tag:
            if self.tag_commit:
                lines.append(f"  tag {self.tag}: already at {self.tag_commit}")
            else:
                lines.append(
                    f"  tag {self.tag}: will be created on the "
                    + ("new commit" if self.changes else "current main")
                )
        return "\n".join(lines)


def git_blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\x00" % len(data) + data).hexdigest()


def local_files(folder: Path, skip: Callable[[str], bool] | None = None) -> dict[str, LocalFile]:
    out: dict[str, LocalFile] = {}
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if not p.is_file() or any(part.startswith(".") or part == "__pycache__" for part in rel.split("/")):
            continue
        if skip is not None and skip(rel):
            continue
        data = p.read_bytes()
        out[rel] = LocalFile(rel, p, hashlib.sha256(data).hexdigest(), git_blob_sha1(data), len(data))
    return out


def release_version(folder: Path) -> str:
    """The version of a release folder: build_report.json's and every record file's, which must agree."""
    import pyarrow.parquet as pq

    report = folder / "build_report.json"
    if not report.exists():
        raise ReleaseError(
            f"{folder}: build_report.json is missing (not a release folder written by 'plugineval build')"
        )
    version = str(json.loads(report.read_text(encoding="utf-8")).get("version", ""))
    if not SEMVER.match(version):
        raise ReleaseError(f"{report}: version {version!r} is not X.Y.Z")
    found: set[str] = set()
    for f in sorted((folder / "data").glob("*/*.parquet")):
        if f.parent.name == "plugins":
            continue
        found.update(
            str(v) for v in pq.read_table(f, columns=["version"]).column("version").unique().to_pylist()
        )
    if not found:
        raise ReleaseError(f"{folder}: no record files under data/<split>/")
    if found != {version}:
        raise ReleaseError(
            f"{folder}: records carry version(s) {sorted(found)} but build_report.json says {version}"
        )
    return version


def hf_api(token: str | None) -> Any:
    from huggingface_hub import HfApi

    return HfApi(endpoint=os.environ.get("HF_ENDPOINT") or None, token=token or False)


def remote_tree(api: Any, repo: str, repo_type: str, revision: str) -> dict[str, tuple[str, str | None]]:
    """{path: (git blob sha1, lfs sha256 | None)} at ``revision``."""
    files: dict[str, tuple[str, str | None]] = {}
    for entry in api.list_repo_tree(repo, repo_type=repo_type, recursive=True, revision=revision):
        if hasattr(entry, "blob_id"):
            files[entry.path] = (entry.blob_id, entry.lfs.sha256 if entry.lfs else None)
    return files


def remote_state(
    api: Any, repo: str, repo_type: str
) -> tuple[bool, str | None, dict[str, tuple[str, str | None]], dict[str, str]]:
    """(exists, main's commit, main's tree, {tag: commit})."""
    from huggingface_hub.errors import RepositoryNotFoundError

    try:
        info = api.repo_info(repo, repo_type=repo_type)
    except RepositoryNotFoundError:
        return False, None, {}, {}
    refs = api.list_repo_refs(repo, repo_type=repo_type)
    tags = {t.name: t.target_commit for t in refs.tags}
    return True, str(info.sha), remote_tree(api, repo, repo_type, str(info.sha)), tags


def diff_plan(
    plan: PushPlan, remote: dict[str, tuple[str, str | None]], keep: tuple[str, ...] = KEEP_REMOTE
) -> None:
    for path, lf in plan.files.items():
        if path not in remote:
            plan.add.append(path)
        else:
            blob, lfs = remote[path]
            same = lf.sha256 == lfs if lfs else lf.git_sha1 == blob
            (plan.unchanged if same else plan.update).append(path)
    plan.delete = sorted(p for p in remote if p not in plan.files and p not in keep)


def plan_push(
    api: Any,
    folder: Path,
    repo: str,
    tag: str | None,
    repo_type: str = "dataset",
    files: dict[str, LocalFile] | None = None,
    keep: tuple[str, ...] = KEEP_REMOTE,
) -> PushPlan:
    exists, head, remote, tags = remote_state(api, repo, repo_type)
    plan = PushPlan(
        repo, repo_type, tag, exists, head, files=files if files is not None else local_files(folder)
    )
    diff_plan(plan, remote, keep)
    if tag is not None and tag in tags:
        plan.tag_commit = tags[tag]
        at_tag = PushPlan(repo, repo_type, tag, exists, plan.tag_commit, files=plan.files)
        diff_plan(at_tag, remote_tree(api, repo, repo_type, plan.tag_commit), keep)
        if at_tag.changes:
            raise ReleaseError(
                f"tag {tag} already exists on {repo} at commit {plan.tag_commit}, with other content than "
                f"{folder}; a published version is never moved: bump the version in the build config "
                "and rebuild"
            )
    return plan


def _operations(plan: PushPlan, contents: dict[str, bytes] | None = None) -> list[Any]:
    from huggingface_hub import CommitOperationAdd, CommitOperationDelete

    ops: list[Any] = []
    for p in plan.add + plan.update:
        data = (contents or {}).get(p)
        ops.append(
            CommitOperationAdd(
                path_in_repo=p, path_or_fileobj=data if data is not None else str(plan.files[p].local)
            )
        )
    ops += [CommitOperationDelete(path_in_repo=p) for p in plan.delete]
    return ops


def commit_plan(
    api: Any,
    plan: PushPlan,
    message: str,
    contents: dict[str, bytes] | None = None,
    space_sdk: str | None = None,
) -> str:
    """Create the repo if missing and commit every change; returns the commit that holds the folder."""
    try:
        if not plan.exists:
            api.create_repo(plan.repo, repo_type=plan.repo_type, exist_ok=True, space_sdk=space_sdk)
        if not plan.changes and plan.head:
            return plan.head
        info = api.create_commit(
            plan.repo,
            operations=_operations(plan, contents),
            commit_message=message,
            repo_type=plan.repo_type,
            parent_commit=plan.head,
        )
    except Exception as e:
        state = f"main is still at {plan.head}" if plan.head else "the repo has no release yet"
        raise ReleaseError(
            f"upload to {plan.repo} failed ({type(e).__name__}: {e}); nothing was committed: {state}, "
            "and every tag is unchanged. Run the same command again."
        ) from e
    return str(info.oid)


def push_release(
    folder: Path,
    repo: str,
    dry_run: bool = False,
    token: str | None = None,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Publish ``folder`` to the dataset repo ``repo`` as tag ``v<version>``; returns what was done."""
    folder = Path(folder)
    if not (folder / "README.md").exists():
        raise ReleaseError(f"{folder}: README.md is missing (not a release folder)")
    version = release_version(folder)
    tag = f"v{version}"
    token = token if token is not None else os.environ.get("HF_TOKEN")
    if not token and not dry_run:
        raise ReleaseError(
            "HF_TOKEN is not set: export a Hub token with write access (or use --dry-run to see the plan)"
        )
    api = hf_api(token)
    plan = plan_push(api, folder, repo, tag)
    out(plan.describe())
    result: dict[str, Any] = {
        "repo": repo,
        "version": version,
        "tag": tag,
        "dry_run": dry_run,
        "add": plan.add,
        "update": plan.update,
        "delete": plan.delete,
    }
    if plan.tag_commit:
        out(f"{tag} is already published on {repo} at {plan.tag_commit}: nothing to do")
        return {**result, "commit": plan.tag_commit, "tagged": False}
    if dry_run:
        out("dry run: nothing was sent")
        return {**result, "commit": None, "tagged": False}
    commit = commit_plan(api, plan, f"Release {tag}")
    out(
        f"committed {commit}"
        if plan.changes
        else f"main already holds this release at {commit}: upload skipped"
    )
    try:
        api.create_tag(repo, tag=tag, revision=commit, repo_type="dataset", tag_message=f"PluginEval {tag}")
    except Exception as e:
        raise ReleaseError(
            f"the files of {tag} are on {repo} (commit {commit}) but creating the tag {tag} failed "
            f"({type(e).__name__}: {e}); earlier tags are unchanged. Run the same command again: the upload "
            "will be skipped and only the tag created."
        ) from e
    out(f"tagged {tag} -> {commit}")
    return {**result, "commit": commit, "tagged": True}
