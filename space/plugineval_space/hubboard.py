"""The leaderboard in a Hub dataset repo (``HubBoard``), and ``open_board``: the board the Space is
configured with."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from .store import Board, Entry, SqliteBoard


class HubBoard(Board):
    """Rows in a Hub dataset repo (``leaderboard.jsonl``), mirrored in a local SQLite cache.

    On first use the snapshot is downloaded and imported; each new row is written locally in one
    transaction, then the whole snapshot is uploaded (serialised by a lock; a failed upload is
    retried with the next row and reported, and the local row is never lost).
    """

    FILENAME = "leaderboard.jsonl"

    def __init__(self, repo_id: str, cache: str | Path, token: str | None = None) -> None:
        self.repo_id = repo_id
        self.token = token
        self.local = SqliteBoard(cache)
        self._pulled = False
        self._lock = threading.Lock()
        self.last_error: str | None = None

    @property
    def description(self) -> str:
        return f"Hub dataset {self.repo_id} (cache {self.local.path})"

    @property
    def public_name(self) -> str:
        return f"Hub dataset `{self.repo_id}`"

    def _pull(self) -> None:
        if self._pulled:
            return
        with self._lock:
            if self._pulled:
                return
            from huggingface_hub import hf_hub_download
            from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

            try:
                path = hf_hub_download(self.repo_id, self.FILENAME, repo_type="dataset", token=self.token)
            except (EntryNotFoundError, RepositoryNotFoundError):
                path = None
            if path is not None:
                for line in Path(path).read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        self.local.add(Entry.from_json(json.loads(line)), imported=True)
            self._pulled = True

    def _push(self) -> None:
        from huggingface_hub import HfApi

        rows = "".join(json.dumps(e.to_json(), ensure_ascii=False) + "\n" for e in self.local.entries())
        HfApi(token=self.token).upload_file(
            path_or_fileobj=rows.encode("utf-8"),
            path_in_repo=self.FILENAME,
            repo_id=self.repo_id,
            repo_type="dataset",
            commit_message=f"leaderboard: {self.local.count()} rows",
        )

    def add(self, entry: Entry, *, imported: bool = False) -> bool:
        self._pull()
        added = self.local.add(entry, imported=imported)
        if added or self.last_error:
            with self._lock:
                for attempt in range(3):
                    try:
                        self._push()
                        self.last_error = None
                        break
                    except Exception as e:  # network trouble: the row stays in the cache
                        self.last_error = f"upload to {self.repo_id} failed: {e}"
                        time.sleep(0.5 * (attempt + 1))
        return added

    def entries(self) -> list[Entry]:
        self._pull()
        return self.local.entries()

    def admissible(self, entry: Entry) -> None:
        self._pull()
        self.local.admissible(entry)

    def rows(self) -> list[Entry]:
        self._pull()
        return self.local.rows()

    def entry(self, row_id: int) -> Entry | None:
        self._pull()
        return self.local.entry(row_id)

    def count(self) -> int:
        self._pull()
        return self.local.count()

    def has(self, digest: str) -> bool:
        self._pull()
        return self.local.has(digest)

    def add_bundle(self, digest: str, model: str, data: bytes) -> bool:
        """Kept in the local cache and uploaded as ``bundles/<digest>.zip`` to the repo."""
        self._pull()
        added = self.local.add_bundle(digest, model, data)
        if added:
            from huggingface_hub import HfApi

            try:
                HfApi(token=self.token).upload_file(
                    path_or_fileobj=data,
                    path_in_repo=f"bundles/{digest}.zip",
                    repo_id=self.repo_id,
                    repo_type="dataset",
                    commit_message=f"bundle {digest[:12]} ({model})",
                )
            except Exception as e:  # the bundle stays in the cache; the row says where it came from
                self.last_error = f"upload of bundle {digest[:12]} to {self.repo_id} failed: {e}"
        return added

    def bundle(self, digest: str) -> bytes | None:
        self._pull()
        data = self.local.bundle(digest)
        if data is not None:
            return data
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError

        try:
            path = hf_hub_download(
                self.repo_id, f"bundles/{digest}.zip", repo_type="dataset", token=self.token
            )
        except (EntryNotFoundError, RepositoryNotFoundError):
            return None
        return Path(path).read_bytes()

    def bundle_digests(self) -> list[str]:
        """The bundles the rows were scored from (the repo's rows name them), oldest first."""
        self._pull()
        seen = dict.fromkeys(e.bundle_hash for e in self.local.entries() if e.bundle_hash)
        return [*seen, *(d for d in self.local.bundle_digests() if d not in seen)]


def open_board(db: str | Path | None = None, hub_repo: str | None = None) -> Board:
    """The configured board: a Hub repo when ``hub_repo`` (or $PLUGINEVAL_SPACE_HUB_REPO) is set, else SQLite."""
    import os

    db = db or os.environ.get("PLUGINEVAL_SPACE_DB") or "space_data/leaderboard.sqlite"
    hub_repo = hub_repo or os.environ.get("PLUGINEVAL_SPACE_HUB_REPO")
    if hub_repo:
        return HubBoard(hub_repo, Path(db).with_suffix(".hubcache.sqlite"), token=os.environ.get("HF_TOKEN"))
    return SqliteBoard(db)
