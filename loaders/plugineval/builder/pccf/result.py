"""What Stage I and II make of one candidate: the typed contract between ``candidate.process`` and
the closed loop (``build._apply``), and the value the build journal stores per candidate key."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any, Literal

Status = Literal["ok", "rejected"]


@dataclass
class CandidateResult:
    status: Status
    reason: str | None = None
    """why a rejected candidate was rejected (a rejection counter's name)"""
    pattern: str | None = None
    rounds: int | None = None
    origin: str | None = None
    """real queries: where the query comes from"""
    observed: str | None = None
    """the measured difficulty (easy / medium / hard)"""
    target: str | None = None
    """negatives: the unit's difficulty the candidate was drafted for"""
    p_K: float | None = None
    strengthened: bool = False
    record: dict[str, Any] | None = None
    """the record as a parquet row (``Record.to_row``)"""
    masked: str | None = None
    slot_key: list[str] = field(default_factory=list)
    declared_steps: list[str] = field(default_factory=list)
    measured_steps: list[str] = field(default_factory=list)
    relabeled: bool | None = None
    intended_differs: bool | None = None
    proposals: int = 0
    mcp_calls: int = 0

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CandidateResult:
        """From ``process``'s fields (or a journal row); an unknown field is an error, not dropped."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(d) - known)
        if unknown:
            raise ValueError(f"candidate result: unknown fields {unknown}")
        if d.get("status") not in ("ok", "rejected"):
            raise ValueError(f"candidate result: status {d.get('status')!r} is neither ok nor rejected")
        if d["status"] == "ok" and (d.get("record") is None or d.get("observed") is None):
            raise ValueError("candidate result: an ok result carries its record and observed difficulty")
        if d["status"] == "rejected" and not d.get("reason"):
            raise ValueError("candidate result: a rejection names its reason")
        return cls(**d)
