"""Typed build configuration: a TOML file validated with pydantic; an unknown key is an error."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from plugineval._constants import Difficulty, Split
from plugineval._resources import package_folder
from plugineval.schema import SchemaError
from plugineval.schema._base import describe_validation_error

from .llm_roles import ROLES, RoleConfig

# configs/default.toml of the checkout, shipped as package data (setup.py)
DEFAULT_CONFIG = package_folder("plugineval.builder.configs") / "default.toml"
Generator = Literal["slot_parser", "template_retriever", "intended", "llm"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Stage1(_Strict):
    generators: list[Generator] = Field(
        default=["slot_parser", "template_retriever", "intended"], min_length=1
    )
    max_rounds: int = Field(default=3, ge=1, le=10)
    tau: float = Field(default=0.8, ge=0.0, le=1.0)
    lambda_arg: float = Field(default=0.5, ge=0.0, le=1.0)
    lambda_out: float = Field(default=0.5, ge=0.0, le=1.0)
    abstention_score: float = Field(default=0.9, ge=0.0, le=1.0)
    content_validation: bool = True
    alternatives: bool = True  # execute the gold's plausible variants; accept those with the gold's answer

    @model_validator(mode="after")
    def _sum(self) -> Stage1:
        if abs(self.lambda_arg + self.lambda_out - 1.0) > 1e-9:
            raise ValueError(f"lambda_arg + lambda_out must be 1, got {self.lambda_arg} + {self.lambda_out}")
        if not any(g != "intended" for g in self.generators):
            raise ValueError("at least one generator must read only the query text (not just 'intended')")
        return self


class Stage2(_Strict):
    rounds_without_gain: int = Field(default=3, ge=1)
    min_gain: int = Field(default=1, ge=0)
    synthesis_budget: int = Field(default=80000, ge=1)
    oversample: float = Field(default=1.6, ge=1.0)
    max_rounds: int = Field(default=16, ge=1)
    closed_loop: bool = True
    strengthen: bool = True
    reallocate: bool = True
    """move the deficit of exhausted units to live units of the same kind and difficulty"""
    pilot_drafts: int = Field(default=16, ge=0)
    """drafts per negative scenario calibrated before planning a split (0: every scenario gets the
    split's difficulty shares)"""


class RouterCfg(_Strict):
    k: int = Field(default=5, ge=5)


class Records(_Strict):
    distractors_min: int = Field(default=3, ge=0)
    distractors_max: int = Field(default=7, ge=0)
    neg_b_offer_needed: float = Field(default=0.5, ge=0.0, le=1.0)
    ref_start: str = "2025-03-01"
    ref_end: str = "2026-12-31"
    near_duplicate_jaccard: float = Field(default=0.8, gt=0.0, le=1.0)


class SplitBudget(_Strict):
    positives: dict[Difficulty, int]
    negatives: dict[Literal["neg_A", "neg_B", "neg_C", "underspecified"], int]
    negative_difficulty: dict[Difficulty, int]
    multi_call_min_share: float = Field(default=0.1, ge=0.0, le=1.0)

    @property
    def total(self) -> int:
        return sum(self.positives.values()) + sum(self.negatives.values())


class CalendarCfg(_Strict):
    """The opt-in ``calendar`` config: readings with a lunar date, a solar term, a 调休 working-day
    count, a city nickname or a time in another zone (the stress forms and ``deepen``'s readings),
    built beside the default configs from the same catalog and seed, written under
    ``data/calendar/``; no default score includes it (docs/authoring.md)."""

    splits: dict[Split, SplitBudget]


class BuildConfig(_Strict):
    """``[roles.<role>]`` tables point a PCCF role at an OpenAI-compatible endpoint; a role without
    one runs its offline implementation (the build report says which served each role)."""

    version: str = Field(pattern=r"^\d+\.\d+\.\d+$")
    seed: int
    store_seed: int = 20260318
    stage1: Stage1 = Stage1()
    stage2: Stage2 = Stage2()
    router: RouterCfg = RouterCfg()
    records: Records = Records()
    splits: dict[Split, SplitBudget]
    calendar: CalendarCfg | None = None
    roles: dict[str, RoleConfig] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _llm_generator_needs_endpoint(self) -> BuildConfig:
        unknown = sorted(set(self.roles) - set(ROLES))
        if unknown:
            raise ValueError(f"unknown roles {unknown}; roles are {', '.join(ROLES)}")
        if "llm" in self.stage1.generators and "generator" not in self.roles:
            raise ValueError("stage1.generators lists 'llm' but [roles.generator] is not configured")
        return self

    @classmethod
    def load(cls, path: str | Path | None = None) -> BuildConfig:
        p = Path(path) if path else DEFAULT_CONFIG
        try:
            raw = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SchemaError(str(p), ["config file not found"]) from None
        except tomllib.TOMLDecodeError as e:
            raise SchemaError(str(p), [f"not valid TOML: {e}"]) from None
        from pydantic import ValidationError

        try:
            return cls.model_validate(raw)
        except ValidationError as e:
            raise SchemaError(str(p), describe_validation_error(e)) from None

    def with_ablation(self, ablation: str | None) -> BuildConfig:
        """The config of an ablation run (docs/format.md §4, the build report)."""
        if ablation is None:
            return self
        if ablation == "no-content-validation":
            return self.model_copy(
                update={"stage1": self.stage1.model_copy(update={"content_validation": False})}
            )
        if ablation == "no-refinement":
            return self.model_copy(update={"stage1": self.stage1.model_copy(update={"max_rounds": 1})})
        if ablation == "single-shot":
            return self.model_copy(
                update={"stage2": self.stage2.model_copy(update={"closed_loop": False, "strengthen": False})}
            )
        if ablation == "m1":
            return self.model_copy(
                update={"stage1": self.stage1.model_copy(update={"generators": ["slot_parser"]})}
            )
        raise ValueError(
            f"unknown ablation {ablation!r}; choose no-content-validation, no-refinement, single-shot or m1"
        )

    def scaled(self, factor: float) -> BuildConfig:
        """Budgets multiplied by ``factor`` (mini builds in tests)."""

        def sc(d: Any) -> Any:
            return {k: max(1, round(v * factor)) for k, v in d.items()}

        def scale_splits(splits: dict[Split, SplitBudget]) -> dict[Split, SplitBudget]:
            return {
                name: b.model_copy(
                    update={
                        "positives": sc(b.positives),
                        "negatives": sc(b.negatives),
                        "negative_difficulty": sc(b.negative_difficulty),
                    }
                )
                for name, b in splits.items()
            }

        cal = self.calendar
        update: dict[str, Any] = {"splits": scale_splits(self.splits)}
        if cal is not None:
            update["calendar"] = cal.model_copy(update={"splits": scale_splits(cal.splits)})
        return self.model_copy(update=update)

    def calendar_build(self) -> BuildConfig | None:
        """The config of the calendar pass: the calendar budgets in place of the default ones."""
        if self.calendar is None:
            return None
        return self.model_copy(update={"splits": self.calendar.splits, "calendar": None})
