"""Submission bundles (docs/submit.md): the predictions file(s) of one model, their sidecars, and a
manifest with the model card line. A bundle is a folder or a ``.zip`` of one; it carries no score —
whoever receives it (the Space) scores it with its own judge.

``validate(bundle, records)`` checks a bundle offline against a release and returns every problem,
each naming the file and the field (or line). ``load_bundle`` reads one without the records.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import zipfile
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from . import names
from .predictions import (
    MAX_BYTES,
    BoundError,
    PredictionFileError,
    loads_bounded,
    parse_predictions,
    split_lines,
)
from .schema import Prediction, Record

BUNDLE_FORMAT = "plugineval-submission/1"
MANIFEST = "submission.json"
MAX_MEMBERS = 64
MAX_TOTAL_BYTES = 4 * MAX_BYTES
META_SUFFIX = ".meta.json"
SIDECAR_FORMAT = "plugineval-predict-meta/1"
ENDPOINT_KINDS = ("vllm", "sglang", "openai-compatible", "hosted-api", "baseline", "other")
MAX_COST_USD = 1000.0
"""A line's self-reported ``cost_usd``: a finite number from 0 to this (one request)."""
MAX_LATENCY_MS = 3_600_000.0
"""A line's self-reported ``latency_ms``: a finite number from 0 to this (an hour)."""
SELF_REPORTED = {"cost_usd": MAX_COST_USD, "latency_ms": MAX_LATENCY_MS}
# the compression methods zipfile reads (stored, deflate, bzip2, lzma)
_ZIP_METHODS = {zipfile.ZIP_STORED: "stored", zipfile.ZIP_DEFLATED: "deflate", 12: "bzip2", 14: "lzma"}


def _field(check: Callable[[], str]) -> str:
    """Run a ``plugineval.names`` check inside a field validator: its message without the field's
    name (pydantic puts the field in the problem's location)."""
    try:
        return check()
    except names.InvalidName as e:
        raise ValueError(str(e).split(": ", 1)[-1]) from None


def _not_reserved(model: str, organisation: str) -> str:
    names.refuse_reserved(model, organisation)
    return model or organisation


class Manifest(BaseModel):
    """``submission.json``: who and what; never a score."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["plugineval-submission/1"]
    model: str
    organisation: str = ""
    link: str = ""
    model_card: str
    endpoint_kind: Literal["vllm", "sglang", "openai-compatible", "hosted-api", "baseline", "other"]
    trained_on_plugineval: bool
    split: Literal["test", "validation", "train"] = "test"
    predictions: list[str] = Field(min_length=1, max_length=16)

    @field_validator("model")
    @classmethod
    def _model(cls, v: str) -> str:
        return _field(lambda: _not_reserved(names.clean_name(v, "model"), ""))

    @field_validator("organisation")
    @classmethod
    def _organisation(cls, v: str) -> str:
        return _field(lambda: _not_reserved("", names.clean_name(v, "organisation", required=False)))

    @field_validator("model_card")
    @classmethod
    def _one_line(cls, v: str) -> str:
        return _field(lambda: names.clean_card(v, "model_card"))

    @field_validator("link")
    @classmethod
    def _https(cls, v: str) -> str:
        return _field(lambda: names.clean_link(v, "link"))

    @field_validator("predictions")
    @classmethod
    def _names(cls, v: list[str]) -> list[str]:
        for name in v:
            if not name.endswith(".jsonl") or "/" in name or "\\" in name or name.startswith("."):
                raise ValueError(f"{name!r}: a file name in the bundle's top folder ending in .jsonl")
        if len(set(v)) != len(v):
            raise ValueError("a predictions file is listed twice")
        return v


@dataclass(frozen=True)
class Problem:
    file: str
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.field}: {self.message}" if self.field else f"{self.file}: {self.message}"


class BundleError(ValueError):
    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: {len(problems)} problem(s)\n" + "\n".join(f"  - {p}" for p in problems))


@dataclass
class Bundle:
    source: str
    manifest: Manifest
    files: dict[str, bytes]
    warnings: list[str] = field(default_factory=list)

    @property
    def digest(self) -> str:
        """SHA-256 over the member names and bytes (a folder and its zip have the same digest)."""
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(name.encode("utf-8") + b"\x00" + hashlib.sha256(self.files[name]).digest())
        return h.hexdigest()

    def to_zip(self) -> bytes:
        """The bundle as a canonical zip (sorted members, fixed timestamps)."""
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name in sorted(self.files):
                info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, self.files[name])
        return buf.getvalue()

    def sidecar(self, name: str) -> dict[str, Any] | None:
        data = self.files.get(name + META_SUFFIX)
        if data is None:
            return None
        obj = loads_bounded(data.decode("utf-8"))
        return obj if isinstance(obj, dict) else None


@dataclass
class _Members:
    """A bundle's member names, read on demand (members the bundle does not use are never read)."""

    label: str
    names: list[str]
    read: Callable[[str], bytes]


def _refuse(label: str, message: str, member: str = "") -> BundleError:
    return BundleError(label, [Problem(label, member, message)])


def _zip_members(src: Path | bytes, label: str) -> _Members:
    """The members of a zip, after its limits and its readability are checked; a single top folder
    is dropped. Every zip failure is one message (never the zip library's own text)."""
    try:
        z = zipfile.ZipFile(io.BytesIO(src) if isinstance(src, bytes) else src)
        infos = [i for i in z.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError):
        raise _refuse(
            label, "not a readable zip: it is truncated or damaged, or not a zip at all; make it again"
        ) from None
    if len(infos) > MAX_MEMBERS:
        raise _refuse(label, f"{len(infos)} files; the limit is {MAX_MEMBERS}")
    total = sum(i.file_size for i in infos)
    big = next((i for i in infos if i.file_size > MAX_BYTES), None)
    if big is not None:
        raise _refuse(
            label,
            f"unpacks to {big.file_size:,} bytes; the limit per file is {MAX_BYTES:,} bytes",
            big.filename,
        )
    if total > MAX_TOTAL_BYTES:
        raise _refuse(label, f"unpacks to {total:,} bytes in all; the limit is {MAX_TOTAL_BYTES:,} bytes")
    parts = [PurePosixPath(i.filename).parts for i in infos]
    if any(q[0] == "/" or ".." in q or any("\\" in x for x in q) for q in parts if q):
        raise _refuse(label, "a member path is absolute or climbs out (..)")
    for i in infos:
        if i.flag_bits & 0x1:
            raise _refuse(
                label, "encrypted (password-protected): a bundle's files are not encrypted", i.filename
            )
        if i.compress_type not in _ZIP_METHODS:
            raise _refuse(
                label,
                f"compressed with method {i.compress_type}, which cannot be read here: use deflate "
                "(zip's default) or no compression",
                i.filename,
            )
    tops = {q[0] for q in parts if len(q) > 1}
    strip = 1 if len(tops) == 1 and all(len(q) > 1 for q in parts) else 0
    by_name: dict[str, zipfile.ZipInfo] = {}
    for info, q in zip(infos, parts, strict=True):
        name = "/".join(q[strip:])
        if name in by_name:
            raise _refuse(label, "in the zip twice", name)
        by_name[name] = info

    def read(name: str) -> bytes:
        info = by_name[name]
        try:
            with z.open(info) as f:
                data = f.read(MAX_BYTES + 1)
        except zipfile.BadZipFile as e:
            why = (
                "its data does not match its CRC-32 checksum"
                if "CRC" in str(e)
                else "its entry in the zip is damaged"
            )
            raise _refuse(label, f"{why}: the zip is damaged; make it again", name) from None
        except (EOFError, zlib.error, OSError, ValueError):
            raise _refuse(
                label, "its compressed data is truncated or damaged: the zip is damaged; make it again", name
            ) from None
        except NotImplementedError:
            raise _refuse(
                label, "compressed with a method that cannot be read here: use deflate", name
            ) from None
        except RuntimeError:
            raise _refuse(
                label, "encrypted (password-protected): a bundle's files are not encrypted", name
            ) from None
        if len(data) > MAX_BYTES or len(data) != info.file_size:
            raise _refuse(label, "larger or smaller than the zip says: refused", name)
        return data

    return _Members(label, list(by_name), read)


def _members(src: str | Path | bytes, label: str | None = None) -> _Members:
    """The members of a folder or a zip (bytes, or a file); ``label`` names it in messages (by default
    the file's name: never a server path)."""
    if isinstance(src, bytes):
        return _zip_members(src, label or "<bundle.zip>")
    p = Path(src)
    if p.is_file() and (zipfile.is_zipfile(p) or p.suffix.lower() == ".zip"):
        return _zip_members(p, label or p.name)
    label = label or str(p)
    if not p.exists():
        raise _refuse(label, "no such folder or zip")
    if not p.is_dir():
        raise _refuse(label, "neither a folder nor a zip")
    files = [f for f in sorted(p.rglob("*")) if f.is_file()]
    if len(files) > MAX_MEMBERS:
        raise _refuse(label, f"{len(files)} files; the limit is {MAX_MEMBERS}")
    big = [f for f in files if f.stat().st_size > MAX_BYTES]
    if big:
        raise BundleError(label, [Problem(big[0].name, "", f"larger than {MAX_BYTES:,} bytes")])
    by_name = {f.relative_to(p).as_posix(): f for f in files}
    return _Members(label, list(by_name), lambda name: by_name[name].read_bytes())


def load_bundle(src: str | Path | bytes, label: str | None = None) -> Bundle:
    """The bundle's manifest and the members it uses (``BundleError`` naming the file and fields).
    Other members are not read, and not kept: each is named in a warning. ``label``: the bundle's
    name in messages (an upload's own file name, say)."""
    m = _members(src, label)
    if MANIFEST not in m.names:
        raise BundleError(
            m.label, [Problem(MANIFEST, "", "missing: every bundle has a submission.json manifest")]
        )
    raw = m.read(MANIFEST)
    try:
        obj = loads_bounded(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, BoundError) as e:
        raise BundleError(m.label, [Problem(MANIFEST, "", f"not JSON the reader accepts ({e})")]) from None
    try:
        manifest = Manifest.model_validate(obj)
    except ValidationError as e:
        probs = [
            Problem(
                MANIFEST, ".".join(map(str, err["loc"])) or "<root>", err["msg"].removeprefix("Value error, ")
            )
            for err in e.errors()
        ]
        raise BundleError(m.label, probs) from None
    known = {MANIFEST, *manifest.predictions, *(n + META_SUFFIX for n in manifest.predictions)}
    files = {MANIFEST: raw, **{n: m.read(n) for n in m.names if n in known and n != MANIFEST}}
    warnings = [
        f"{n}: not part of the bundle format; ignored (not kept)" for n in sorted(set(m.names) - known)
    ]
    return Bundle(m.label, manifest, files, warnings)


def self_reported_problems(name: str, preds: Iterable[Prediction]) -> list[Problem]:
    """A file's self-reported figures that cannot be shown: ``cost_usd`` / ``latency_ms`` that are not
    finite numbers from 0 to their limit (``MAX_COST_USD``, ``MAX_LATENCY_MS``). One problem per field,
    with the exact count of lines and the first one."""
    out = []
    plist = list(preds)
    for key, limit in SELF_REPORTED.items():
        bad = [
            (p.id, v)
            for p in plist
            if (v := getattr(p, key)) is not None and not (math.isfinite(v) and 0 <= v <= limit)
        ]
        if bad:
            rid, v = bad[0]
            out.append(
                Problem(
                    name,
                    key,
                    f"{len(bad)} line(s) with a self-reported value that is not a number from 0 to {limit:,g} "
                    f"(first: id {rid!r}, {v!r}); fix or drop the field",
                )
            )
    return out


_TOTAL = re.compile(r": (\d+) problem\(s\); nothing was scored")


def listed_and_total(e: PredictionFileError) -> tuple[list[tuple[int, str]], int]:
    """The problems a ``PredictionFileError`` lists, and how many the file has in all (it lists at most
    ``MAX_REPORTED``)."""
    total = getattr(e, "total", None)
    if not isinstance(total, int):
        m = _TOTAL.search(str(e).split("\n", 1)[0])
        total = int(m.group(1)) if m else len(e.errors)
    return e.errors, max(total, len(e.errors))


def _sidecar_problems(name: str, meta: Any, release_versions: set[str]) -> list[Problem]:
    sc = name + META_SUFFIX
    if not isinstance(meta, dict):
        return [Problem(sc, "", "not a JSON object")]
    out = []
    if meta.get("format") != SIDECAR_FORMAT:
        out.append(Problem(sc, "format", f"must be {SIDECAR_FORMAT!r} (got {meta.get('format')!r})"))
    if not isinstance(meta.get("model"), str) or not meta.get("model"):
        out.append(Problem(sc, "model", "missing: the model name sent to the endpoint"))
    if meta.get("mode") not in ("native", "prompted", "baseline"):
        out.append(Problem(sc, "mode", f"must be native, prompted or baseline (got {meta.get('mode')!r})"))
    if "prompt_version" not in meta or (meta.get("mode") != "baseline" and not meta.get("prompt_version")):
        out.append(Problem(sc, "prompt_version", "missing: the prompt the predictions were made with"))
    if not isinstance(meta.get("settings"), dict) or not meta.get("settings"):
        out.append(Problem(sc, "settings", "missing: the settings that decide the predictions"))
    if meta.get("status", "complete") != "complete":
        out.append(Problem(sc, "status", f"{meta.get('status')!r}: the run did not finish; resume it first"))
    versions = (
        (meta.get("records") or {}).get("dataset_versions") if isinstance(meta.get("records"), dict) else None
    )
    if versions and release_versions and set(versions) != release_versions:
        out.append(
            Problem(
                sc, "records.dataset_versions", f"{versions} but the release is {sorted(release_versions)}"
            )
        )
    return out


@dataclass
class Validation:
    bundle: Bundle | None
    problems: list[Problem]
    predictions: dict[str, dict[str, Prediction]] = field(default_factory=dict)
    unlisted: int = 0
    """Problems found but not listed (a predictions file lists at most ``MAX_REPORTED`` of its own)."""

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def total(self) -> int:
        """Every problem found, listed or not."""
        return len(self.problems) + self.unlisted


def validate(
    src: str | Path | bytes | Bundle, records: Sequence[Record], split: str | None = None
) -> Validation:
    """Every problem of a bundle against the records of its split: the manifest (its ``split`` must be
    the split scored: ``split``, else the records'), each listed predictions file (present, parses
    under the reader's bounds, every id known, every record answered, self-reported cost and latency
    finite and in range), each sidecar (present and complete), and that the files are trials of one
    run (never byte-identical copies)."""
    try:
        b = src if isinstance(src, Bundle) else load_bundle(src)
    except BundleError as e:
        return Validation(None, e.problems)
    known = {r.id for r in records}
    release_versions = {r.version for r in records}
    problems: list[Problem] = []
    unlisted = 0
    scored = sorted({split} if split else {r.split for r in records})
    if scored and b.manifest.split not in scored:
        problems.append(
            Problem(
                MANIFEST,
                "split",
                f"the bundle answers the {b.manifest.split!r} split, but the split scored here is "
                f"{' / '.join(map(repr, scored))}: make the predictions for that split and declare it",
            )
        )
    parsed: dict[str, dict[str, Prediction]] = {}
    metas: list[dict[str, Any] | None] = []
    for name in b.manifest.predictions:
        data = b.files.get(name)
        if data is None:
            problems.append(Problem(name, "", "listed in submission.json but not in the bundle"))
        else:
            try:
                preds = parse_predictions(split_lines(data.decode("utf-8")), name, known)
            except UnicodeDecodeError as e:
                problems.append(Problem(name, "", f"not UTF-8 text ({e.reason} at byte {e.start})"))
            except PredictionFileError as e:
                listed, total = listed_and_total(e)
                problems += [Problem(name, f"line {ln}" if ln else "", msg) for ln, msg in listed]
                unlisted += total - len(listed)
            else:
                parsed[name] = preds
                problems += self_reported_problems(name, preds.values())
                missing = sorted(known - set(preds))
                if missing:
                    problems.append(
                        Problem(
                            name,
                            "",
                            f"{len(missing)} of {len(known)} records of the {b.manifest.split} split have no "
                            f"line (first {missing[0]!r}): a bundle answers every record",
                        )
                    )
        if name + META_SUFFIX not in b.files:
            problems.append(Problem(name + META_SUFFIX, "", "missing: the sidecar plugineval predict writes"))
            metas.append(None)
            continue
        try:
            meta = b.sidecar(name)
        except (UnicodeDecodeError, json.JSONDecodeError, BoundError) as e:
            problems.append(Problem(name + META_SUFFIX, "", f"not JSON the reader accepts ({e})"))
            metas.append(None)
            continue
        problems += _sidecar_problems(name, meta, release_versions)
        metas.append(meta)
    models = {m.get("model") for m in metas if m}
    if len(models) > 1:
        problems.append(
            Problem(MANIFEST, "predictions", f"the files are of several models {sorted(map(str, models))}")
        )
    if len(metas) > 1:
        from .trials import TrialsError, check_same_run, identical_trials

        try:
            check_same_run(metas, [n + META_SUFFIX for n in b.manifest.predictions])
        except TrialsError as e:
            problems.append(Problem(str(e).split(":", 1)[0], "settings", str(e).split(": ", 1)[1]))
        present = [n for n in b.manifest.predictions if n in b.files]
        for copy, first in identical_trials(present, [b.files[n] for n in present]):
            problems.append(
                Problem(
                    copy,
                    "",
                    f"byte-identical to {first}: a copy is not another trial (each trial is its own run, "
                    "with its own seed)",
                )
            )
    return Validation(b, problems, parsed, unlisted)
