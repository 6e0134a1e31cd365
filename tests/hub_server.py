"""A local Hub for the tests: the write path that ``huggingface_hub`` uses (repo creation, repo info,
YAML validation, preupload, LFS batch + upload, NDJSON commits, tree listing, refs, tags, file
resolution), backed by one real git repository per Hub repo so that every commit is a git commit and
every tag a git tag. The layout (``ROOT/<type>s/<org>/<name>`` with LFS objects under
``.git/lfs/objects``) is the one ``olah`` serves offline, so the read path goes through olah.

Failures can be injected: ``hub.fail["tag"] = 1`` makes the next tag creation answer 500."""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import re
import shutil
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import yaml

LFS_PATTERNS = ("*.parquet", "*.png", "*.whl", "*.arrow", "*.bin", "*.zip", "*.gz")
PREFIX = {"datasets": "datasets/", "spaces": "spaces/", "models": ""}
TYPES = {"dataset": "datasets", "space": "spaces", "model": "models"}
POINTER = re.compile(
    r"^version https://git-lfs\.github\.com/spec/v1\noid sha256:([0-9a-f]{64})\nsize (\d+)\n$"
)
GIT_ENV = {
    "GIT_AUTHOR_NAME": "hub",
    "GIT_AUTHOR_EMAIL": "hub@localhost",
    "GIT_COMMITTER_NAME": "hub",
    "GIT_COMMITTER_EMAIL": "hub@localhost",
    "HOME": "/nonexistent",
    "GIT_CONFIG_NOSYSTEM": "1",
}


class HubError(Exception):
    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.status, self.code = status, code


def pointer(oid: str, size: int) -> bytes:
    return f"version https://git-lfs.github.com/spec/v1\noid sha256:{oid}\nsize {size}\n".encode()


class Repo:
    def __init__(self, path: Path) -> None:
        self.path = path

    def git(self, *args: str, data: bytes | None = None) -> bytes:
        import os

        res = subprocess.run(
            ["git", *args],
            cwd=self.path,
            input=data,
            capture_output=True,
            env={**os.environ, **GIT_ENV},
            check=False,
        )
        if res.returncode != 0:
            raise HubError(500, f"git {' '.join(args)}: {res.stderr.decode(errors='replace')}")
        return res.stdout

    def resolve(self, rev: str) -> str:
        res = subprocess.run(
            ["git", "rev-parse", "--verify", "-q", f"{rev}^{{commit}}"],
            cwd=self.path,
            capture_output=True,
            text=True,
            check=False,
        )
        if res.returncode != 0:
            raise HubError(404, f"Invalid rev id: {rev}", "RevisionNotFound")
        return res.stdout.strip()

    def lfs_object(self, oid: str) -> Path:
        return self.path / ".git" / "lfs" / "objects" / oid[:2] / oid[2:4] / oid

    def entries(self, commit: str, path: str = "", recursive: bool = True) -> list[dict[str, Any]]:
        args = ["ls-tree", "-l", "-z", "-t"] + (["-r"] if recursive else []) + [commit]
        if path:
            args.append(path.rstrip("/") + "/")
        out = []
        for item in self.git(*args).decode().split("\0"):
            if not item:
                continue
            meta, p = item.split("\t", 1)
            _mode, kind, sha, size = meta.split()
            if kind == "tree":
                out.append({"type": "directory", "oid": sha, "size": 0, "path": p})
                continue
            entry: dict[str, Any] = {"type": "file", "oid": sha, "size": int(size), "path": p}
            lfs = self.pointer_of(sha, int(size))
            if lfs:
                entry["size"] = lfs[1]
                entry["lfs"] = {"oid": lfs[0], "size": lfs[1], "pointerSize": int(size)}
            out.append(entry)
        return out

    def pointer_of(self, sha: str, size: int) -> tuple[str, int] | None:
        if size > 200:
            return None
        m = POINTER.match(self.git("cat-file", "blob", sha).decode(errors="replace"))
        return (m.group(1), int(m.group(2))) if m else None


class HubServer:
    def __init__(self, root: Path, token: str = "hf_local_test") -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.token = token
        self.fail: dict[str, int] = {}
        self.calls: list[str] = []
        self.lock = threading.Lock()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.hub = self  # type: ignore[attr-defined]
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def start(self) -> HubServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def repo(self, rtype: str, org: str, name: str, must_exist: bool = True) -> Repo:
        path = self.root / rtype / org / name
        if must_exist and not (path / ".git").is_dir():
            raise HubError(404, f"Repository {org}/{name} not found", "RepoNotFound")
        return Repo(path)

    def injected(self, op: str) -> None:
        if self.fail.get(op, 0) > 0:
            self.fail[op] -= 1
            raise HubError(500, f"injected failure of {op}")

    # --- operations -------------------------------------------------------------------------------
    def create_repo(self, body: dict[str, Any]) -> dict[str, Any]:
        rtype = TYPES[body.get("type") or "model"]
        org, name = body.get("organization") or "user", body["name"]
        repo = self.repo(rtype, org, name, must_exist=False)
        if (repo.path / ".git").exists():
            raise HubError(409, "You already created this repo")
        repo.path.mkdir(parents=True)
        repo.git("init", "-q", "-b", "main")
        attrs = "".join(f"{p} filter=lfs diff=lfs merge=lfs -text\n" for p in LFS_PATTERNS)
        (repo.path / ".gitattributes").write_text(attrs)
        repo.git("add", "-A")
        repo.git("commit", "-q", "-m", "initial commit")
        return {"url": f"{self.url}/{PREFIX[rtype]}{org}/{name}", "name": f"{org}/{name}"}

    def info(self, rtype: str, org: str, name: str, rev: str) -> dict[str, Any]:
        repo = self.repo(rtype, org, name)
        sha = repo.resolve(rev)
        files = [e["path"] for e in repo.entries(sha) if e["type"] == "file"]
        card = None
        if "README.md" in files:
            text = repo.git("show", f"{sha}:README.md").decode()
            if text.startswith("---\n") and "\n---\n" in text[3:]:
                card = yaml.safe_load(text[4 : text.index("\n---\n", 3)])
        out = {
            "id": f"{org}/{name}",
            "author": org,
            "sha": sha,
            "private": False,
            "gated": False,
            "disabled": False,
            "downloads": 0,
            "likes": 0,
            "tags": [],
            "cardData": card,
            "siblings": [{"rfilename": f} for f in files],
        }
        if rtype == "spaces":
            out["sdk"] = "gradio"
        return out

    def preupload(self, repo: Repo, rev: str, body: dict[str, Any]) -> dict[str, Any]:
        sha = repo.resolve(rev)
        remote = {e["path"]: e for e in repo.entries(sha) if e["type"] == "file"}
        files = []
        for f in body["files"]:
            sample = base64.b64decode(f["sample"])
            lfs = any(fnmatch.fnmatch(f["path"].rsplit("/", 1)[-1], p) for p in LFS_PATTERNS)
            lfs = lfs or b"\0" in sample or f["size"] > 10 * 2**20
            e = remote.get(f["path"])
            oid = (e["lfs"]["oid"] if "lfs" in e else e["oid"]) if e else None
            files.append(
                {
                    "path": f["path"],
                    "uploadMode": "lfs" if lfs else "regular",
                    "shouldIgnore": False,
                    "oid": oid,
                }
            )
        return {"files": files, "commitOid": sha}

    def lfs_batch(self, rtype: str, org: str, name: str, body: dict[str, Any]) -> dict[str, Any]:
        repo = self.repo(rtype, org, name)
        objects = []
        for o in body["objects"]:
            obj: dict[str, Any] = {"oid": o["oid"], "size": o["size"]}
            if not repo.lfs_object(o["oid"]).exists():
                href = f"{self.url}/_lfs/{rtype}/{org}/{name}/{o['oid']}?sig={self.signature(o['oid'])}"
                obj["actions"] = {"upload": {"href": href}}
            objects.append(obj)
        return {"transfer": "basic", "objects": objects}

    def signature(self, oid: str) -> str:
        """The upload URL is pre-signed (as S3's are): no Authorization header comes with the PUT."""
        return hashlib.sha256(f"{self.token}:{oid}".encode()).hexdigest()[:24]

    def lfs_put(self, rtype: str, org: str, name: str, oid: str, data: bytes) -> None:
        repo = self.repo(rtype, org, name)
        if hashlib.sha256(data).hexdigest() != oid:
            raise HubError(400, f"LFS object {oid}: content does not match its sha256")
        dest = repo.lfs_object(oid)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(data)

    def commit(
        self, rtype: str, org: str, name: str, rev: str, lines: list[dict[str, Any]]
    ) -> dict[str, Any]:
        repo = self.repo(rtype, org, name)
        if rev != "main":
            raise HubError(400, f"this local Hub commits to main only, not {rev!r}")
        head = repo.resolve("main")
        header = next((ln["value"] for ln in lines if ln["key"] == "header"), {})
        if header.get("parentCommit") and header["parentCommit"] != head:
            raise HubError(
                412, f"A commit has happened since {header['parentCommit']}. Please refresh and try again."
            )
        self.injected("commit")
        work = repo.path
        for ln in lines:
            key, v = ln["key"], ln["value"]
            target = work / v.get("path", "")
            if key in ("file", "lfsFile"):
                target.parent.mkdir(parents=True, exist_ok=True)
                if key == "file":
                    target.write_bytes(base64.b64decode(v["content"]))
                else:
                    if not repo.lfs_object(v["oid"]).exists():
                        raise HubError(422, f"{v['path']}: LFS object {v['oid']} was never uploaded")
                    target.write_bytes(pointer(v["oid"], v["size"]))
            elif key == "deletedFile":
                if not target.is_file():
                    raise HubError(404, f"{v['path']}: no such file to delete", "EntryNotFound")
                target.unlink()
            elif key == "deletedFolder":
                shutil.rmtree(target, ignore_errors=True)
        repo.git("add", "-A")
        repo.git("commit", "-q", "--allow-empty", "-m", header.get("summary") or "commit")
        oid = repo.resolve("main")
        return {
            "commitUrl": f"{self.url}/{PREFIX[rtype]}{org}/{name}/commit/{oid}",
            "commitOid": oid,
            "pullRequestUrl": None,
        }

    def tag(self, rtype: str, org: str, name: str, rev: str, body: dict[str, Any]) -> dict[str, Any]:
        repo = self.repo(rtype, org, name)
        sha = repo.resolve(rev)
        tag = body["tag"]
        if (
            subprocess.run(
                ["git", "rev-parse", "-q", "--verify", f"refs/tags/{tag}"],
                cwd=repo.path,
                capture_output=True,
                check=False,
            ).returncode
            == 0
        ):
            raise HubError(409, f"Tag {tag} already exists")
        self.injected("tag")
        repo.git("tag", "-a", tag, "-m", body.get("message") or tag, sha)
        return {}

    def refs(self, repo: Repo) -> dict[str, Any]:
        out: dict[str, Any] = {"branches": [], "tags": [], "converts": []}
        fmt = "%(refname)%00%(objectname)%00%(*objectname)"
        for line in (
            repo.git("for-each-ref", f"--format={fmt}", "refs/heads", "refs/tags").decode().splitlines()
        ):
            ref, obj, peeled = line.split("\0")
            group, name = ("branches", ref[11:]) if ref.startswith("refs/heads/") else ("tags", ref[10:])
            out[group].append({"name": name, "ref": ref, "targetCommit": peeled or obj})
        return out

    def resolve_file(self, repo: Repo, rev: str, path: str) -> tuple[dict[str, str], bytes]:
        sha = repo.resolve(rev)
        entry = next((e for e in repo.entries(sha) if e["path"] == path and e["type"] == "file"), None)
        if entry is None:
            raise HubError(404, f"{path} not found at {rev}", "EntryNotFound")
        headers = {"X-Repo-Commit": sha, "ETag": f'"{entry["oid"]}"'}
        if "lfs" in entry:
            data = repo.lfs_object(entry["lfs"]["oid"]).read_bytes()
            headers |= {"X-Linked-Etag": f'"{entry["lfs"]["oid"]}"', "X-Linked-Size": str(len(data))}
        else:
            data = repo.git("cat-file", "blob", entry["oid"])
        return headers, data


API = re.compile(
    r"^/api/(datasets|spaces|models)/([^/]+)/([^/]+)(?:/(revision|refs|tree|preupload|commit|tag|paths-info)(?:/([^/]+)(?:/(.*))?)?)?$"
)
LFS = re.compile(r"^/(?:(datasets|spaces)/)?([^/]+)/([^/]+?)\.git/info/lfs/objects/batch$")
PUT = re.compile(r"^/_lfs/(datasets|spaces|models)/([^/]+)/([^/]+)/([0-9a-f]{64})$")
RESOLVE = re.compile(r"^/(?:(datasets|spaces)/)?([^/]+)/([^/]+)/resolve/([^/]+)/(.+)$")


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    @property
    def hub(self) -> HubServer:
        return self.server.hub  # type: ignore[attr-defined, no-any-return]

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            out = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    return out
                out += self.rfile.read(size)
                self.rfile.readline()
        return self.rfile.read(int(self.headers.get("Content-Length") or 0))

    def _send(
        self,
        status: int,
        payload: Any = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> None:
        data = raw if raw is not None else json.dumps(payload if payload is not None else {}).encode()
        self.send_response(status)
        self.send_header(
            "Content-Type", "application/octet-stream" if raw is not None else "application/json"
        )
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def _auth(self) -> None:
        if self.headers.get("Authorization") != f"Bearer {self.hub.token}":
            raise HubError(401, "Invalid credentials in Authorization header")

    def _handle(self) -> None:
        url = urlsplit(self.path)
        path, query = unquote(url.path), parse_qs(url.query)
        body = self._body() if self.command in ("POST", "PUT") else b""
        hub = self.hub
        hub.calls.append(f"{self.command} {path}")
        try:
            with hub.lock:
                self._route(path, query, body)
        except HubError as e:
            self._send(
                e.status,
                {"error": str(e)},
                {"X-Error-Code": e.code} if e.code else {"X-Error-Message": str(e)},
            )

    def _route(self, path: str, query: dict[str, list[str]], body: bytes) -> None:
        hub, cmd = self.hub, self.command
        if cmd == "POST" and path == "/api/repos/create":
            self._auth()
            return self._send(200, hub.create_repo(json.loads(body)))
        if cmd == "POST" and path == "/api/validate-yaml":
            content = json.loads(body)["content"]
            if content.startswith("---\n"):
                try:
                    meta = yaml.safe_load(content[4 : content.index("\n---\n", 3)])
                except (ValueError, yaml.YAMLError) as e:
                    return self._send(400, {"errors": [{"message": f"invalid YAML front matter: {e}"}]})
                if not isinstance(meta, dict):
                    return self._send(400, {"errors": [{"message": "front matter is not a mapping"}]})
            return self._send(200, {"errors": [], "warnings": []})
        if m := LFS.match(path):
            self._auth()
            return self._send(
                200, hub.lfs_batch(m.group(1) or "models", m.group(2), m.group(3), json.loads(body))
            )
        if cmd == "PUT" and (m := PUT.match(path)):
            if query.get("sig", [""])[0] != hub.signature(m.group(4)):
                raise HubError(403, "bad or missing upload signature")
            hub.lfs_put(m.group(1), m.group(2), m.group(3), m.group(4), body)
            return self._send(200, {})
        if cmd in ("GET", "HEAD") and (m := RESOLVE.match(path)):
            rtype = m.group(1) or "models"
            headers, data = hub.resolve_file(hub.repo(rtype, m.group(2), m.group(3)), m.group(4), m.group(5))
            return self._send(200, headers=headers, raw=data)
        m = API.match(path)
        if m is None:
            raise HubError(404, f"no route {cmd} {path}")
        rtype, org, name, action, rev, rest = m.groups()
        rev = unquote(rev or "main")
        if action in (None, "revision") and cmd == "GET":
            return self._send(200, hub.info(rtype, org, name, rev))
        repo = hub.repo(rtype, org, name)
        if action == "refs":
            return self._send(200, hub.refs(repo))
        if action == "tree" and cmd == "GET":
            sha = repo.resolve(rev)
            recursive = query.get("recursive", ["false"])[0].lower() in ("1", "true")
            entries = repo.entries(sha, rest or "", recursive)
            return self._send(200, entries)
        self._auth()
        if action == "preupload":
            return self._send(200, hub.preupload(repo, rev, json.loads(body)))
        if action == "commit":
            lines = [json.loads(ln) for ln in body.decode().splitlines() if ln.strip()]
            return self._send(200, hub.commit(rtype, org, name, rev, lines))
        if action == "tag" and cmd == "POST":
            return self._send(200, hub.tag(rtype, org, name, rev, json.loads(body)))
        raise HubError(404, f"no route {cmd} {path}")

    do_GET = do_POST = do_PUT = do_HEAD = do_DELETE = _handle
