"""The gold-anchored judge (docs/format.md §5): rules first, an LLM only for the residue."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from ..schema import Prediction, Record
from ..schema.prediction import PredictionLike
from . import _core
from ._core import RulesJudge, Work, decide
from ._types import ArgVerdict, Category, Outcome, Reason, RecordVerdict, Subtype

if TYPE_CHECKING:
    from ._llm import LLMConfig, LLMJudge

JudgeMode = Literal["rules", "llm", "hybrid"]
MODES: tuple[str, ...] = ("rules", "llm", "hybrid")
# True when the rules judge runs compiled (a wheel built with PLUGINEVAL_COMPILE=1, mypyc; setup.py):
# its core is then an extension module. The verdicts are the same either way (tests/test_compiled.py).
COMPILED: bool = not _core.__file__.endswith(".py")
_LLM_REVIEWS = frozenset({Reason.NORMALIZED, Reason.PLACE_ALIAS, Reason.MONEY_EQUAL, Reason.QUANTITY_EQUAL})

__all__ = [
    "COMPILED",
    "MODES",
    "ArgVerdict",
    "Category",
    "Judge",
    "JudgeMode",
    "LLMConfig",
    "Outcome",
    "Reason",
    "RecordVerdict",
    "Subtype",
]


class Judge:
    """``rules``: deterministic only, undecided pairs count wrong and are flagged. ``hybrid`` (default):
    the LLM settles undecided pairs. ``llm``: the LLM also reviews pairs the rules accepted after
    normalization (it may reject them; it can never accept what the rules decided is different).
    Without a configured endpoint, ``hybrid`` and ``llm`` run as ``rules`` and say so in the report."""

    def __init__(self, mode: JudgeMode = "hybrid", llm: LLMConfig | LLMJudge | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"judge mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.requested_mode = mode
        self.llm: LLMJudge | None = None
        if mode != "rules":  # the LLM client side (asyncio, sqlite cache) loads only when asked for
            from ._llm import LLMConfig, LLMJudge

            if llm is None:
                llm = LLMConfig.from_env()
            if llm is not None:
                self.llm = llm if isinstance(llm, LLMJudge) else LLMJudge(llm)
        self.mode: str = mode if self.llm is not None else "rules"
        self.rules = RulesJudge()

    @property
    def model(self) -> str | None:
        return self.llm.name if self.llm is not None else None

    def prepare(self, records: Sequence[Record]) -> None:
        """Compile the records' tool specs before judging (optional: judging compiles on first use)."""
        self.rules.prepare(records)

    def judge_one(self, record: Record, pred: PredictionLike | None) -> RecordVerdict:
        """Rules only (no network): the verdict for one record."""
        return self.rules.verdict(record, pred)

    def run(
        self,
        records: Sequence[Record],
        predictions: Mapping[str, Prediction],
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, RecordVerdict]:
        from ..sources import no_gc

        if self.llm is None:  # rules only: nothing will revise the Work, so each record is decided at once
            verdict = self.rules.verdict
            out: dict[str, RecordVerdict] = {}
            with no_gc():
                for r in records:
                    out[r.id] = verdict(r, predictions.get(r.id))
                    if progress is not None:
                        progress(1)
            return out
        works = []
        with no_gc():
            for r in records:
                works.append(self.rules.judge(r, predictions.get(r.id)))
                if progress is not None:
                    progress(1)
        if self.llm is not None:
            self._settle(works)
        return {w.record.id: decide(w, self.rules) for w in works}

    def _settle(self, works: list[Work]) -> None:
        from ._llm import Question, run_sync

        assert self.llm is not None
        todo: list[tuple[ArgVerdict, Question]] = []
        for w in [x for top in works for x in (top, *top.others)]:  # with each alternative list's work
            r = w.record
            for idx, a in enumerate(w.args):
                wanted = a.reason is Reason.UNDECIDED or (self.mode == "llm" and a.reason in _LLM_REVIEWS)
                if not wanted:
                    continue
                tool = r.gold_calls[a.call].name
                info = self.rules.tool_info(r, tool)
                spec = info.args.get(a.arg) if info is not None else None
                accepted = w.accepted.get(idx) or [a.gold, *r.alternatives()[a.call].values.get(a.arg, [])]
                q = Question(r.query, tool, a.arg, spec.description if spec else "", a.pred, accepted)
                todo.append((a, q))
        if not todo:
            return
        answers = run_sync(self.llm.answer_all([q for _, q in todo]))
        for (a, _), ans in zip(todo, answers, strict=True):
            if a.reason is Reason.UNDECIDED or ans.reason in (Reason.LLM_DIFFERENT, Reason.JUDGE_FAILURE):
                a.reason, a.detail = ans.reason, ans.detail


def prompt_version() -> str:
    from ._llm import PROMPT_VERSION

    return PROMPT_VERSION


def __getattr__(name: str) -> Any:
    if name in ("LLMConfig", "LLMJudge"):
        from . import _llm

        return getattr(_llm, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
