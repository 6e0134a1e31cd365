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
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

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


class Manifest(BaseModel):
    """``submission.json``: who and what; never a score."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["plugineval-submission/1"]
    model: str = Field(min_length=1, max_length=100)
    organisation: str = Field("", max_length=100)
    link: str = ""
    model_card: str = Field(min_length=1, max_length=300)
    endpoint_kind: Literal["vllm", "sglang", "openai-compatible", "hosted-api", "baseline", "other"]
    trained_on_plugineval: bool
    split: Literal["test", "validation", "train"] = "test"
    predictions: list[str] = Field(min_length=1, max_length=16)

    @field_validator("model_card")
    @classmethod
    def _one_line(cls, v: str) -> str:
        if "\n" in v or "\r" in v:
            raise ValueError("the model card is one line (no line breaks)")
        return v.strip()

    @field_validator("link")
    @classmethod
    def _https(cls, v: str) -> str:
        if v and not v.startswith(("https://", "http://")):
            raise ValueError("must start with https://")
        return v

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


def _members(src: str | Path | bytes) -> tuple[str, dict[str, bytes]]:
    """(label, {name: bytes}) of a folder or a zip (a single top folder inside the zip is dropped)."""
    if isinstance(src, bytes) or (Path(src).is_file() and zipfile.is_zipfile(src)):
        label = "<bundle.zip>" if isinstance(src, bytes) else Path(src).name
        try:
            z = zipfile.ZipFile(io.BytesIO(src) if isinstance(src, bytes) else Path(src))
        except zipfile.BadZipFile as e:
            raise BundleError(label, [Problem(label, "", f"not a readable zip ({e})")]) from None
        infos = [i for i in z.infolist() if not i.is_dir()]
        if len(infos) > MAX_MEMBERS:
            raise BundleError(label, [Problem(label, "", f"{len(infos)} files; the limit is {MAX_MEMBERS}")])
        total = sum(i.file_size for i in infos)
        if total > MAX_TOTAL_BYTES or any(i.file_size > MAX_BYTES for i in infos):
            raise BundleError(label, [Problem(label, "", f"unpacks to {total:,} bytes: past the limits")])
        parts = [PurePosixPath(i.filename).parts for i in infos]
        if any(q[0] == "/" or ".." in q or any("\\" in x for x in q) for q in parts if q):
            raise BundleError(label, [Problem(label, "", "a member path is absolute or climbs out (..)")])
        tops = {q[0] for q in parts if len(q) > 1}
        strip = 1 if len(tops) == 1 and all(len(q) > 1 for q in parts) else 0
        out: dict[str, bytes] = {}
        for info, q in zip(infos, parts, strict=True):
            with z.open(info) as f:
                data = f.read(MAX_BYTES + 1)
            if len(data) > MAX_BYTES:
                raise BundleError(label, [Problem(label, info.filename, "larger than it says: refused")])
            out["/".join(q[strip:])] = data
        return label, out
    p = Path(src)
    if not p.exists():
        raise BundleError(str(p), [Problem(str(p), "", "no such folder or zip")])
    if not p.is_dir():
        raise BundleError(str(p), [Problem(str(p), "", "neither a folder nor a zip")])
    files = [f for f in sorted(p.rglob("*")) if f.is_file()]
    if len(files) > MAX_MEMBERS:
        raise BundleError(str(p), [Problem(str(p), "", f"{len(files)} files; the limit is {MAX_MEMBERS}")])
    big = [f for f in files if f.stat().st_size > MAX_BYTES]
    if big:
        raise BundleError(str(p), [Problem(big[0].name, "", f"larger than {MAX_BYTES:,} bytes")])
    return str(p), {f.relative_to(p).as_posix(): f.read_bytes() for f in files}


def load_bundle(src: str | Path | bytes) -> Bundle:
    """The bundle's members and its manifest (``BundleError`` naming the file and fields)."""
    label, files = _members(src)
    raw = files.get(MANIFEST)
    if raw is None:
        raise BundleError(
            label, [Problem(MANIFEST, "", "missing: every bundle has a submission.json manifest")]
        )
    try:
        obj = loads_bounded(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, BoundError) as e:
        raise BundleError(label, [Problem(MANIFEST, "", f"not JSON the reader accepts ({e})")]) from None
    try:
        manifest = Manifest.model_validate(obj)
    except ValidationError as e:
        probs = [
            Problem(
                MANIFEST, ".".join(map(str, err["loc"])) or "<root>", err["msg"].removeprefix("Value error, ")
            )
            for err in e.errors()
        ]
        raise BundleError(label, probs) from None
    known = {MANIFEST, *manifest.predictions, *(n + META_SUFFIX for n in manifest.predictions)}
    warnings = [f"{n}: not part of the bundle format; ignored" for n in sorted(set(files) - known)]
    return Bundle(label, manifest, files, warnings)


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

    @property
    def ok(self) -> bool:
        return not self.problems


def validate(src: str | Path | bytes | Bundle, records: Sequence[Record]) -> Validation:
    """Every problem of a bundle against the records of its split: the manifest, each listed
    predictions file (present, parses under the reader's bounds, every id known, every record
    answered), each sidecar (present and complete), and that the files are trials of one run."""
    try:
        b = src if isinstance(src, Bundle) else load_bundle(src)
    except BundleError as e:
        return Validation(None, e.problems)
    known = {r.id for r in records}
    release_versions = {r.version for r in records}
    problems: list[Problem] = []
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
                problems += [Problem(name, f"line {ln}" if ln else "", msg) for ln, msg in e.errors]
            else:
                parsed[name] = preds
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
        from .trials import TrialsError, check_same_run

        try:
            check_same_run(metas, [n + META_SUFFIX for n in b.manifest.predictions])
        except TrialsError as e:
            problems.append(Problem(str(e).split(":", 1)[0], "settings", str(e).split(": ", 1)[1]))
    return Validation(b, problems, parsed)
