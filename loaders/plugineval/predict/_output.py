"""The resumable predictions file and its sidecar ``<out>.meta.json``.

Every line is appended, flushed and fsync'ed as soon as its record is done, so a killed run loses
nothing it wrote; a rerun reads what is there and skips those ids. A last line cut short by a kill
(no newline, not JSON) is dropped and its record run again. Any other damage (a bad line in the
middle, a duplicate, an id that is not a record of this split) stops the run with the line named,
before anything is appended. At the end the file is rewritten ordered by id, atomically.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

from ..predictions import (
    BoundError,
    PredictionFileError,
    check_line_text,
    loads_bounded,
    parse_predictions,
    split_lines,
)

META_SUFFIX = ".meta.json"
META_FORMAT = "plugineval-predict-meta/1"
TRANSPORT_ERROR = "request_failed"
"""Prefix of the ``error`` of a line whose request failed (``--retry-errors`` runs those again)."""
UNPARSABLE = "unparsable_output"
"""Prefix of the ``error`` of a line whose reply could not be read as calls or as an answer."""
KEPT_OF_UNFIT = 65536
"""Characters of a line that breaks a bound of the reader kept in its replacement's ``raw``."""


class SidecarError(ValueError):
    """The sidecar ``<out>.meta.json`` is damaged or foreign; the message names it."""


def meta_path(out: str | Path) -> Path:
    p = Path(out)
    return p.with_name(p.name + META_SUFFIX)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and ``os.replace``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def read_meta(out: str | Path) -> dict[str, Any] | None:
    """The sidecar of a predictions file, or None when it has none. A damaged sidecar is an error."""
    mp = meta_path(out)
    if not mp.exists():
        return None
    try:
        obj = loads_bounded(mp.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, BoundError) as e:
        raise SidecarError(f"{mp}: not a JSON file the reader accepts ({e})") from None
    if not isinstance(obj, dict) or obj.get("format") != META_FORMAT:
        raise SidecarError(f"{mp}: not a plugineval predict sidecar (expected format {META_FORMAT!r})")
    return obj


def fit_line(line: dict[str, Any]) -> dict[str, Any]:
    """``line`` if the predictions reader accepts it, else an ``unparsable_output`` line in its place
    (a reply past a bound of the reader, e.g. a runaway string) keeping the line's first
    ``KEPT_OF_UNFIT`` characters in ``raw``, so a run never writes a file ``evaluate`` refuses."""
    text = ""
    try:
        text = dumps(line)
        check_line_text(text)
        return line
    except PredictionFileError as e:
        why = e.errors[0][1] if e.errors else str(e)
    except ValueError as e:  # json.dumps: a value JSON cannot hold
        why = str(e)
    out: dict[str, Any] = {
        k: line[k] for k in ("id", "model", "usage", "latency_ms", "cost_usd") if k in line
    }
    out["calls"] = []
    out["error"] = f"{UNPARSABLE}: the reply does not fit the predictions reader: {why}"[:1000]
    out["raw"] = text[:KEPT_OF_UNFIT]
    return out


def write_meta(out: str | Path, meta: dict[str, Any]) -> None:
    atomic_write(meta_path(out), json.dumps(meta, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def _count(v: Any) -> int:
    """A token count from an endpoint's usage (anything else, e.g. a string, counts 0)."""
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) else 0


class PredictionsWriter:
    """Append-only while running; ``finalize`` rewrites it ordered by id."""

    def __init__(self, path: str | Path, known_ids: set[str], retry_errors: bool = False) -> None:
        self.path = Path(path)
        self.known_ids = known_ids
        self.lines: dict[str, dict[str, Any]] = {}
        self.dropped_tail = False
        self.dropped_errors = 0
        self._lock = threading.Lock()
        self._read_existing(retry_errors)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._f = self.path.open("a", encoding="utf-8")

    def _read_existing(self, retry_errors: bool) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        cut = data.rfind(b"\n") + 1  # bytes after the last newline: the tail
        tail = data[cut:]
        needs_newline = False
        if tail.strip():
            try:
                json.loads(tail.decode("utf-8"))
                complete = True
            except (json.JSONDecodeError, UnicodeDecodeError):
                complete = False
            needs_newline = complete
            if not complete:  # a write cut short by a kill: that record runs again
                with self.path.open("r+b") as f:
                    f.truncate(cut)
                    f.flush()
                    os.fsync(f.fileno())
                self.dropped_tail = True
                data = data[:cut]
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise PredictionFileError(
                str(self.path), [(0, f"not UTF-8 text ({e.reason} at byte {e.start}); refusing to append")]
            ) from None
        lines = split_lines(text)
        body = [ln for ln in lines if ln.strip()]
        try:
            parse_predictions(lines, str(self.path), self.known_ids)
        except PredictionFileError as e:
            raise PredictionFileError(
                str(self.path),
                [*e.errors, (0, "refusing to append to it: fix or move the file, or choose another --out")],
            ) from None
        objs = [json.loads(ln) for ln in body]
        if retry_errors:
            kept = [o for o in objs if not str(o.get("error") or "").startswith(TRANSPORT_ERROR)]
            self.dropped_errors = len(objs) - len(kept)
            if self.dropped_errors:
                objs = kept
                atomic_write(self.path, "".join(dumps(o) + "\n" for o in objs))
        self.lines = {o["id"]: o for o in objs}
        if needs_newline and not self.dropped_errors:
            # a complete last line without its newline: add it before appending
            with self.path.open("a", encoding="utf-8") as f:
                f.write("\n")

    @property
    def done(self) -> set[str]:
        return set(self.lines)

    def append(self, obj: dict[str, Any]) -> None:
        self.append_many([obj])

    def append_many(self, objs: list[dict[str, Any]]) -> None:
        """Write, flush and fsync each line (thread-safe); it is on disk when this returns."""
        with self._lock:
            for obj in objs:
                text = dumps(obj)
                check_line_text(text)  # never write a line the reader would refuse
                if obj["id"] in self.lines:
                    raise ValueError(f"internal error: record {obj['id']!r} written twice")
                self._f.write(text + "\n")
                self._f.flush()
                os.fsync(self._f.fileno())
                self.lines[obj["id"]] = obj

    def close(self) -> None:
        if not self._f.closed:
            self._f.close()

    def finalize(self) -> None:
        """Rewrite the file ordered by id (atomically: a kill leaves the old or the new file)."""
        self.close()
        atomic_write(self.path, "".join(dumps(self.lines[k]) + "\n" for k in sorted(self.lines)))

    def totals(self) -> dict[str, Any]:
        """Figures over every line of the file (this run and earlier ones)."""
        inp = out = 0
        cost = 0.0
        unpriced = errors = unparsable = from_content = 0
        for o in self.lines.values():
            raw = o.get("raw")
            from_content += isinstance(raw, dict) and raw.get("calls_from") == "content"
            u = o.get("usage") or {}
            inp += _count(u.get("prompt_tokens"))
            out += _count(u.get("completion_tokens"))
            if o.get("cost_usd") is None:
                unpriced += 1
            else:
                cost += float(o["cost_usd"])
            err = str(o.get("error") or "")
            errors += err.startswith(TRANSPORT_ERROR)
            unparsable += err.startswith(UNPARSABLE)
        return {
            "lines": len(self.lines),
            "request_failed": errors,
            "unparsable_output": unparsable,
            "calls_from_content": from_content,
            "input_tokens": inp,
            "output_tokens": out,
            "cost_usd": round(cost, 6) if self.lines and not unpriced else None,
            "cost_usd_priced_lines": round(cost, 6),
            "unpriced_lines": unpriced,
        }
