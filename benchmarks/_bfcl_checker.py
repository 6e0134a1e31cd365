"""BFCL's own AST checker, run beside the judge so that both are timed in the same minutes.

This VM's speed drifts up to 1.7x between minutes (BFCL's own three repetitions in
tests/data/bfcl/oracle/README.md took 0.28-0.41 s), so a ratio against a figure measured at
another time says little; the oracle README asks for the checker to be timed "in one run beside it".

The checker is the one that produced the oracle: the ``bfcl-eval==2026.3.23`` wheel from PyPI, whose
``ast_checker.py`` and ``eval_runner.py`` are the git blobs the README names (checked here, byte for
byte). Fetch it with ``benchmarks/get_bfcl_checker.sh`` (a download of one pure-Python wheel, unpacked
under ``.cache/bench/``; nothing is installed). Its declared dependencies (every model vendor's SDK,
torch through sentence-transformers) are not needed by the checker itself: only one module on its
import chain, ``bfcl_eval.constants.model_config``, imports them, to build the model table of which
the checker reads one value — ``underscore_to_dot`` of the oracle's model, ``firefunction-v2-FC``,
``False`` in that table. That module is replaced by that one entry; every other line is BFCL's. The
run must reproduce every stored verdict of the oracle, or the comparison stops.
"""

from __future__ import annotations

import hashlib
import json
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VERSION = "2026.3.23"
MODEL = "firefunction-v2-FC"
BLOBS = {  # path in the wheel -> git blob id named in the oracle README
    "bfcl_eval/eval_checker/ast_eval/ast_checker.py": "160fd75c",
    "bfcl_eval/eval_checker/eval_runner.py": "2d5c41aa",
}
DEFAULT_DIR = Path(__file__).resolve().parents[1] / ".cache" / "bench" / f"bfcl_eval-{VERSION}"


def _blob(path: Path) -> str:
    data = path.read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


@dataclass(frozen=True)
class _ModelConfig:
    underscore_to_dot: bool


def fc_decode(raw: list[Any]) -> list[Any]:
    """BFCL's FC-mode ``decode_ast`` (``OpenAICompletionsHandler.decode_ast``, FC branch), verbatim
    in effect: each call ``{name: arguments_json}`` -> ``{name: json.loads(arguments_json)}``.
    Both sides of the comparison decode with this one function."""
    decoded = []
    for invoked_function in raw:
        name = list(invoked_function.keys())[0]  # noqa: RUF015  (BFCL's line)
        params = json.loads(invoked_function[name])
        decoded.append({name: params})
    return decoded


def decode_or_raw(raw: list[Any]) -> Any:
    """``fc_decode``, or the raw output when it does not decode (the judge then calls it invalid).
    The timed loops spell this out inline, as BFCL's checker does: no extra call on either side."""
    try:
        return fc_decode(raw)
    except Exception:
        return raw


def fc_encode(prediction: list[Any]) -> list[Any]:
    """A decoded prediction as an FC model's raw output (the README: ``[{name: json.dumps(args)}]``);
    an item that is not one call is kept as it is (decoding it fails, as BFCL's would)."""
    out: list[Any] = []
    for item in prediction:
        if isinstance(item, dict) and len(item) == 1 and isinstance(next(iter(item.values())), dict):
            ((name, args),) = item.items()
            out.append({name: json.dumps(args)})
        else:
            out.append(item)
    return out


class BfclChecker:
    """BFCL's per-entry path for the oracle's pairs: decode, the output-format check, then
    ``ast_checker`` (AST categories) or ``is_empty_output`` (irrelevance categories)."""

    def __init__(self, root: Path, categories: set[str]) -> None:
        for rel, blob in BLOBS.items():
            got = _blob(root / rel)
            if not got.startswith(blob):
                raise SystemExit(f"{root / rel}: git blob {got[:8]}, the oracle's checker is {blob}")
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
        import bfcl_eval.constants  # noqa: F401  (the package first: the stand-in goes inside it)

        table = types.ModuleType("bfcl_eval.constants.model_config")
        table.MODEL_CONFIG_MAPPING = {MODEL: _ModelConfig(underscore_to_dot=False)}  # type: ignore[attr-defined]
        sys.modules["bfcl_eval.constants.model_config"] = table
        from bfcl_eval.constants.enums import Language
        from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker
        from bfcl_eval.utils import (
            is_empty_output,
            is_function_calling_format_output,
            load_dataset_entry,
            load_ground_truth_entry,
        )

        self._ast_checker, self._python = ast_checker, Language.PYTHON
        self._is_call_format, self._is_empty = is_function_calling_format_output, is_empty_output
        self.entries: dict[str, tuple[str, Any, Any]] = {}  # id -> (category, functions, ground truth)
        for cat in sorted(categories):
            prompts = load_dataset_entry(cat, include_prereq=False, include_language_specific_hint=False)
            if "irrelevance" in cat:
                for p in prompts:
                    self.entries[p["id"]] = (cat, p["function"], None)
                continue
            truths = load_ground_truth_entry(cat)
            for p, t in zip(prompts, truths, strict=True):
                assert p["id"] == t["id"], (p["id"], t["id"])
                self.entries[p["id"]] = (cat, p["function"], t["ground_truth"])

    def check(self, pid: str, raw: list[Any]) -> bool:
        """BFCL's verdict (valid or not) on one raw FC output for question ``pid``."""
        cat, functions, truth = self.entries[pid]
        if truth is None:  # _evaluate_single_relevance_entry, irrelevance: valid iff no call
            try:
                decoded = fc_decode(raw)
                contain_func_call = not self._is_empty(decoded)
            except Exception:
                contain_func_call = False
            return not contain_func_call
        try:  # _evaluate_single_ast_entry
            decoded = fc_decode(raw)
        except Exception:
            return False
        if not self._is_call_format(decoded):
            return False
        return bool(self._ast_checker(functions, decoded, truth, self._python, cat, MODEL)["valid"])

    def runner(self, items: list[tuple[str, list[Any]]]) -> Callable[[], list[bool]]:
        check = self.check
        return lambda: [check(pid, raw) for pid, raw in items]


def load(root: Path | None, categories: set[str]) -> BfclChecker | None:
    """The checker when its wheel was fetched (None, with the way to fetch it printed, otherwise)."""
    root = root or DEFAULT_DIR
    if not (root / "bfcl_eval").is_dir():
        print(
            f"  (BFCL's own checker is not at {root}: `benchmarks/get_bfcl_checker.sh` fetches it, to time it\n"
            "   beside the judge; without it the ratio is against the README's figures)"
        )
        return None
    return BfclChecker(root, categories)
