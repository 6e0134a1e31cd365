"""BFCL v4 single-turn data as PluginEval records (see docs/bfcl_conformance.md).

Input: BFCL's ``question/BFCL_v4_<category>.json`` (JSON Lines despite the suffix) and, for the AST
categories, ``possible_answer/BFCL_v4_<category>.json``. Output: ``Record``s that the PluginEval
judge scores the way BFCL's AST checker does wherever the two designs agree:

- AST categories -> ``positive`` records. Per gold param, BFCL lists the accepted values; the first
  non-"" one is the gold value, the others go to ``gold_alternatives.values``, and "" makes the param
  ``omittable`` (a param whose only accepted value is "" is left out of the gold call and listed
  omittable). Nested gold (a ``dict`` param, or an ``array`` of ``dict``) holds alternatives one level
  down; it is expanded into concrete accepted values (the Cartesian product of the per-key
  alternatives, "" = key left out), first choices first, so the judge accepts exactly the nested
  values BFCL's ``dict_checker`` / ``list_dict_checker`` accept (up to the normalizers).
- ``irrelevance`` / ``live_irrelevance`` -> ``neg_B`` with scope ``global``: any call is wrong.
- ``live_relevance`` is left out: BFCL checks only that some call was made, not its arguments, which
  no PluginEval kind expresses.

Function names: BFCL names may contain dots (``us_history.get_president``), which OpenAI-style function
calling rejects; they are renamed (invalid characters -> "_", collisions and over-long names made unique)
and the mapping is kept in ``verification["bfcl_name_map"]``. ``bfcl_prediction`` applies the same
renaming to a BFCL-format prediction (``[{func_name: {param: value}}]``).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..schema import Call, DifficultyBasis, GoldAlternative, Prediction, Record, Source

VERSION = "bfcl-v4"
REFERENCE_TIME = "2026-01-01T00:00:00+00:00"
LICENSE = "Apache-2.0"
AST_CATEGORIES: tuple[str, ...] = (
    "simple_python",
    "multiple",
    "parallel",
    "parallel_multiple",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
)
IRRELEVANCE_CATEGORIES: tuple[str, ...] = ("irrelevance", "live_irrelevance")
SKIPPED_CATEGORIES: tuple[str, ...] = ("live_relevance",)
CATEGORIES: tuple[str, ...] = AST_CATEGORIES + IRRELEVANCE_CATEGORIES
MAX_EXPANSION = 4096  # nested alternatives beyond this are cut (and the record says so)

_TYPES: dict[str, str | None] = {
    "string": "string",
    "str": "string",
    "integer": "integer",
    "int": "integer",
    "float": "number",
    "number": "number",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "dict": "object",
    "object": "object",
    "null": "null",
    "any": None,
}
# scalar keywords kept verbatim (all understood by plugineval.jsonschema_lite); BFCL's ``optional`` and
# anything else are dropped.
_KEEP = (
    "description",
    "enum",
    "default",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
)
_BAD_CHARS = re.compile(r"[^a-zA-Z0-9_-]")
_OMIT = object()


# --- schemas ------------------------------------------------------------------------------------------
def convert_schema(schema: Any) -> dict[str, Any]:
    """A BFCL parameter schema as JSON Schema (recursively through ``properties`` and ``items``)."""
    if not isinstance(schema, dict):
        return {}
    out: dict[str, Any] = {}
    t = schema.get("type")
    mapped = _TYPES.get(t) if isinstance(t, str) else None
    if mapped is not None:
        out["type"] = mapped
    for k in _KEEP:
        if k in schema:
            out[k] = schema[k]
    props = schema.get("properties")
    if isinstance(props, dict):
        out["properties"] = {str(k): convert_schema(v) for k, v in props.items()}
    req = schema.get("required")
    if isinstance(req, list) and (mapped == "object" or isinstance(props, dict)):
        out["required"] = [str(r) for r in req]
    if isinstance(schema.get("items"), dict):
        out["items"] = convert_schema(schema["items"])
    return out


# --- names --------------------------------------------------------------------------------------------
def sanitize_name(name: str) -> str:
    """An OpenAI-valid name (``^[a-zA-Z0-9_-]{1,64}$``): bad characters -> "_", long names hashed."""
    s = _BAD_CHARS.sub("_", name) or "_"
    if len(s) > 64:
        s = s[:55] + "_" + hashlib.sha1(name.encode()).hexdigest()[:8]
    return s


def name_map(names: Iterable[str]) -> dict[str, str]:
    """BFCL name -> unique OpenAI-valid name, for the functions offered by one question."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for n in names:
        if n in out:
            continue
        base = sanitize_name(n)
        s, i = base, 2
        while s in used:
            suffix = f"_{i}"
            s = base[: 64 - len(suffix)] + suffix
            i += 1
        out[n] = s
        used.add(s)
    return out


def map_call_name(name: str, names: dict[str, str]) -> str:
    """The name a predicted BFCL call gets: the offered function's mapped name, or the sanitized name
    when that cannot be mistaken for an offered function, or else the name unchanged (never aligns)."""
    if name in names:
        return names[name]
    s = sanitize_name(name)
    return name if s in names.values() else s


# --- gold ----------------------------------------------------------------------------------------------
def _is_dict_type(spec: dict[str, Any] | None) -> bool:
    return spec is not None and spec.get("type") == "dict"


def _is_list_of_dict(spec: dict[str, Any] | None) -> bool:
    if spec is None or spec.get("type") not in ("array", "tuple"):
        return False
    items = spec.get("items")
    return isinstance(items, dict) and items.get("type") == "dict"


def _expand_dict(d: dict[str, Any]) -> list[dict[str, Any]]:
    """All concrete dicts a BFCL nested-alternatives dict accepts, first choices first."""
    keys = list(d)
    choices: list[list[Any]] = []
    for k in keys:
        alts = d[k] if isinstance(d[k], list) else [d[k]]
        opts: list[Any] = [v for v in alts if v != ""]
        if "" in alts or not alts:
            opts.append(_OMIT)
        choices.append(opts)
    out = []
    for combo in itertools.islice(itertools.product(*choices), MAX_EXPANSION):
        out.append({k: v for k, v in zip(keys, combo, strict=True) if v is not _OMIT})
    return out


def _expand_value(v: Any, spec: dict[str, Any] | None) -> list[Any]:
    if _is_dict_type(spec) and isinstance(v, dict):
        return list(_expand_dict(v))
    if _is_list_of_dict(spec) and isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        per_item = [_expand_dict(x) for x in v]
        return [list(c) for c in itertools.islice(itertools.product(*per_item), MAX_EXPANSION)]
    return [v]


def _dedupe(values: list[Any]) -> list[Any]:
    seen: set[str] = set()
    out = []
    for v in values:
        key = json.dumps(v, sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def gold_call(
    bfcl_params: dict[str, list[Any]], spec: dict[str, Any] | None
) -> tuple[dict[str, Any], GoldAlternative, bool]:
    """One BFCL ground-truth call -> (gold arguments, alternatives, whether an expansion was cut)."""
    props: dict[str, Any] = (spec or {}).get("properties") or {}
    args: dict[str, Any] = {}
    values: dict[str, list[Any]] = {}
    omittable: list[str] = []
    cut = False
    for p, alts in bfcl_params.items():
        alts = alts if isinstance(alts, list) else [alts]
        concrete: list[Any] = []
        for v in alts:
            if v == "" and isinstance(v, str):
                continue
            ex = _expand_value(v, props.get(p))
            cut = cut or len(ex) >= MAX_EXPANSION
            concrete += ex
        concrete = _dedupe(concrete)
        if "" in alts:
            omittable.append(p)
        if not alts:
            concrete = [[]]  # no accepted value at all (a BFCL data fault): the evident intent
        if concrete:
            args[p] = concrete[0]
            if len(concrete) > 1:
                values[p] = concrete[1:]
    return args, GoldAlternative(values=values, omittable=omittable), cut


# --- records -------------------------------------------------------------------------------------------
def category_of(path: str | Path) -> str:
    stem = Path(path).name.split(".")[0]
    return stem.removeprefix("BFCL_v4_")


def _messages(question: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for turn in question or []:
        if isinstance(turn, list):
            out += [m for m in turn if isinstance(m, dict)]
        elif isinstance(turn, dict):
            out.append(turn)
    return out


def _query(messages: list[dict[str, Any]]) -> str:
    for m in reversed(messages):
        if m.get("role") == "user" and str(m.get("content") or "").strip():
            return str(m["content"])
    return " "  # a question with no user text (never seen in v4): keep the record valid


def record_from_bfcl(question: dict[str, Any], answer: dict[str, Any] | None, category: str) -> Record | None:
    """One BFCL entry as a Record; None for categories PluginEval does not import (live_relevance)."""
    if category in SKIPPED_CATEGORIES:
        return None
    if category not in CATEGORIES:
        raise ValueError(f"unsupported BFCL category {category!r} (supported: {', '.join(CATEGORIES)})")
    qid = str(question["id"])
    functions: list[dict[str, Any]] = [f for f in question.get("function") or [] if isinstance(f, dict)]
    names = name_map(str(f["name"]) for f in functions)
    tools: list[dict[str, Any]] = [
        {
            "type": "function",
            "function": {
                "name": names[str(f["name"])],
                "description": str(f.get("description", "")),
                "parameters": convert_schema(f.get("parameters") or {"type": "dict", "properties": {}}),
            },
        }
        for f in functions
    ]
    messages = _messages(question.get("question"))
    verification: dict[str, Any] = {
        "bfcl_name_map": names,
        "bfcl_category": category,
        "difficulty_calibrated": False,
    }
    if len(messages) != 1:
        verification["bfcl_messages"] = messages
    positive = category in AST_CATEGORIES
    gold: list[Call] = []
    alts: list[GoldAlternative] = []
    if positive:
        if answer is None:
            raise ValueError(f"{qid}: AST category {category!r} needs its possible_answer entry")
        if str(answer.get("id")) != qid:
            raise ValueError(f"possible_answer id {answer.get('id')!r} does not match question {qid!r}")
        specs = {str(f["name"]): f.get("parameters") for f in functions}
        cut_any = False
        for entry in answer.get("ground_truth") or []:
            for fname, params in entry.items():
                args, alt, cut = gold_call(params or {}, specs.get(fname))
                cut_any = cut_any or cut
                gold.append(Call(name=map_call_name(fname, names), arguments=args))
                alts.append(alt)
        if cut_any:
            verification["bfcl_expansion_cut"] = MAX_EXPANSION
    basis = (
        DifficultyBasis(type="inference_depth", depth=1)
        if positive
        else DifficultyBasis(type="behavioral", p_K=0.5, K=5)
    )
    return Record(
        id=qid,
        version=VERSION,
        language="en",
        query=_query(messages),
        reference_time=REFERENCE_TIME,
        domain="bfcl",
        target_plugin=category,
        target_tools=[t["function"]["name"] for t in tools],
        kind="positive" if positive else "neg_B",
        negative_scope="none" if positive else "global",
        needs_tool=True,
        target_relevant=positive,
        tools=tools,
        gold_calls=gold,
        gold_alternatives=alts,
        difficulty="medium",
        difficulty_basis=basis,
        primary_scenario=category,
        source=Source(type="real", origin=f"BFCL v4 {category}", license=LICENSE),
        verification=verification,
        split="test",
    )


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    yield json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"{path}:{n}: not valid JSON ({e.msg})") from None


def load_category(question_file: str | Path, answer_file: str | Path | None = None) -> list[Record]:
    """Records of one BFCL question file; the possible_answer file is found beside it
    (``../possible_answer/<same name>``) unless given."""
    qpath = Path(question_file)
    cat = category_of(qpath)
    if cat in SKIPPED_CATEGORIES:
        return []
    answers: dict[str, dict[str, Any]] = {}
    if cat in AST_CATEGORIES:
        apath = (
            Path(answer_file)
            if answer_file is not None
            else qpath.parent.parent / "possible_answer" / qpath.name
        )
        answers = {str(a["id"]): a for a in read_jsonl(apath)}
    out = []
    for q in read_jsonl(qpath):
        r = record_from_bfcl(q, answers.get(str(q["id"])), cat)
        if r is not None:
            out.append(r)
    return out


def load_bfcl(path: str | Path, categories: Iterable[str] | None = None) -> list[Record]:
    """A question file, or a folder holding ``question/`` and ``possible_answer/``: all its
    supported categories (or the ones named)."""
    p = Path(path)
    if p.is_file():
        return load_category(p)
    wanted = tuple(categories) if categories is not None else CATEGORIES
    out: list[Record] = []
    for cat in wanted:
        qfile = p / "question" / f"BFCL_v4_{cat}.json"
        if qfile.exists():
            out += load_category(qfile)
        elif categories is not None:
            raise FileNotFoundError(qfile)
    return out


# --- predictions ---------------------------------------------------------------------------------------
@dataclass(slots=True)
class BfclCall:
    """One predicted call mapped from BFCL's format: what the judge reads of a ``Call`` (``name``,
    ``arguments``), without a pydantic model built for every call on the per-pair path."""

    name: str
    arguments: dict[str, Any]


@dataclass(slots=True)
class BfclPrediction:
    """A BFCL prediction mapped for the judge: the fields it reads of a ``Prediction`` (FC outputs carry
    no text, so ``content`` stays None). ``to_prediction()`` gives the pydantic ``Prediction``."""

    id: str
    calls: list[BfclCall]
    invalid: bool = False
    invalid_reason: str | None = None
    raw: Any = None
    content: str | None = None

    def to_prediction(self) -> Prediction:
        return Prediction(
            id=self.id,
            calls=[Call(name=c.name, arguments=c.arguments) for c in self.calls],
            invalid=self.invalid,
            invalid_reason=self.invalid_reason,
            raw=self.raw,
        )


_NO_CALLS: list[BfclCall] = []  # shared by invalid predictions and no-call ones: never appended to


def bfcl_prediction(record: Record, decoded: Any, pred_id: str | None = None) -> BfclPrediction:
    """A BFCL decoded prediction (``[{func_name: {param: value}}, ...]``) mapped for the judge, renamed
    like the record's tools: the per-pair path of the conformance run. ``[]`` and ``[{}]`` are no call
    (as in BFCL); anything that is not the call format is ``invalid``."""
    rid = pred_id or record.id
    if not isinstance(decoded, list):
        return BfclPrediction(rid, _NO_CALLS, True, "not a list of calls", decoded)
    if not decoded:
        return BfclPrediction(rid, _NO_CALLS)
    calls: list[BfclCall] = []
    names: dict[str, str] = record.verification.get("bfcl_name_map") or {}
    for item in decoded:
        if not isinstance(item, dict):
            return BfclPrediction(rid, _NO_CALLS, True, "a call is not a {name: arguments} object")
        for fname, args in item.items():
            if not isinstance(args, dict):
                return BfclPrediction(rid, _NO_CALLS, True, f"arguments of {fname!r} are not an object")
            calls.append(BfclCall(names.get(fname) or map_call_name(str(fname), names), args))
    return BfclPrediction(rid, calls)


def prediction_from_bfcl(record: Record, decoded: Any, pred_id: str | None = None) -> Prediction:
    """``bfcl_prediction`` as a (validated) PluginEval ``Prediction``."""
    return bfcl_prediction(record, decoded, pred_id).to_prediction()


# --- the oracle (BFCL's own checker's verdicts) --------------------------------------------------------
@dataclass(slots=True)
class OraclePair:
    id: str
    category: str
    variant: str
    prediction: Any
    bfcl_valid: bool
    bfcl_error_type: str | None
    detail: dict[str, Any] = field(default_factory=dict)


def read_oracle(path: str | Path) -> list[OraclePair]:
    return [
        OraclePair(
            str(d["id"]),
            str(d["category"]),
            str(d["variant"]),
            d["prediction"],
            bool(d["bfcl_valid"]),
            d.get("bfcl_error_type"),
            d.get("detail") or {},
        )
        for d in read_jsonl(path)
    ]
