"""The scored report: versions, metrics with intervals, mixtures, breakdowns, per-record verdicts."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import metrics as M
from ._constants import SEED
from .entries import ARG_REASON, UNDERSPECIFIED, VerdictEntry, to_json_map, typed_map
from .judge._types import Reason

if TYPE_CHECKING:
    from .trials import TrialsSummary

BREAKDOWN_KEYS = ("difficulty", "domain", "target_plugin", "tools", "scenario", "kind", "steps")


def build_metrics(
    per_record: Mapping[str, VerdictEntry | Mapping[str, Any]], seed: int = SEED
) -> dict[str, Any]:
    entries = list(typed_map(per_record).values())
    m = M.summarize(entries)
    m["intervals"] = M.bootstrap(entries, seed=seed)
    m["by"] = {k: M.breakdown(entries, k) for k in BREAKDOWN_KEYS}
    m["mixtures"] = {name: M.mixture(entries, w) for name, w in M.MIXTURES.items()}
    unders = [e for e in entries if e.kind == UNDERSPECIFIED and e.asks_for_missing is not None]
    arg_reasons: dict[str, int] = {}
    for e in entries:
        for a in e.arguments:
            arg_reasons[a[ARG_REASON]] = arg_reasons.get(a[ARG_REASON], 0) + 1
    m["diagnostics"] = {
        "underspecified_asks_for_missing": M._div(sum(bool(e.asks_for_missing) for e in unders), len(unders)),
        "underspecified_judged": len(unders),
        "argument_reasons": dict(sorted(arg_reasons.items())),
        "format_variants": arg_reasons.get(Reason.FORMAT_VARIANT, 0),
        "undecided": arg_reasons.get(Reason.UNDECIDED, 0),
    }
    return m


@dataclass
class Report:
    versions: dict[str, Any]
    metrics: dict[str, Any]
    per_record: dict[str, VerdictEntry]
    """Per record id, its entry; ``to_dict`` / ``save`` write their JSON form, ``from_dict`` reads it."""
    meta: dict[str, Any] = field(default_factory=dict)
    trials: TrialsSummary | None = None
    """K > 1 trials (``plugineval.trials``): each metric's mean and spread, pass^k; None for one file."""

    def __post_init__(self) -> None:
        self.per_record = typed_map(self.per_record)  # entries given in their JSON form are converted

    @property
    def recall(self) -> float | None:
        r: float | None = self.metrics["recall"]
        return r

    @property
    def accuracy(self) -> float | None:
        a: float | None = self.metrics["accuracy"]
        return a

    def mixture(self, weights: tuple[float, float, float]) -> dict[str, Any]:
        return M.mixture(list(self.per_record.values()), weights)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"versions": self.versions, "meta": self.meta, "metrics": self.metrics}
        if self.trials is not None:  # only then: a one-file report keeps its exact bytes
            d["trials"] = self.trials.model_dump(mode="json")
        d["per_record"] = to_json_map(self.per_record)
        return d

    def save(self, path: str | Path) -> None:
        """Versions, meta and metrics indented for a reader; one line per record (the C encoder:
        an indented dump of thousands of verdicts takes seconds)."""
        d = self.to_dict()
        head = {k: v for k, v in d.items() if k != "per_record"}
        text = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
        rows = ",\n  ".join(
            f"{json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
            for k, v in d["per_record"].items()
        )
        text += ',\n "per_record": {' + (f"\n  {rows}\n }}" if rows else "}") + "\n}"
        Path(path).write_text(text, encoding="utf-8")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Report:
        for k in ("versions", "metrics", "per_record"):
            if k not in d:
                raise ValueError(f"not a PluginEval report: missing {k!r}")
        trials = None
        if d.get("trials") is not None:
            from .trials import TrialsSummary

            trials = TrialsSummary.model_validate(d["trials"])
        return cls(d["versions"], d["metrics"], d["per_record"], d.get("meta", {}), trials)

    @classmethod
    def load(cls, path: str | Path) -> Report:
        try:
            return cls.from_dict(json.loads(Path(path).read_text(encoding="utf-8")))
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not valid JSON ({e.msg})") from None

    def to_markdown(self) -> str:
        m = self.metrics
        v = self.versions
        ci = m.get("intervals", {})

        def pct(x: float | None) -> str:
            return "—" if x is None else f"{100 * x:.2f}%"

        def with_ci(x: float | None, c: list[float] | None) -> str:
            return pct(x) + (f" [{100 * c[0]:.1f}, {100 * c[1]:.1f}]" if c else "")

        r = m["rates"]
        lines = [
            f"# PluginEval report — {self.meta.get('model') or 'predictions'}",
            "",
            f"dataset {v.get('dataset')} · judge {v.get('judge')} ({v.get('judge_mode')}"
            f"{', ' + v['judge_model'] if v.get('judge_model') else ''}) · scorer {v.get('scorer')}",
            "",
            "| metric | value |",
            "|---|---|",
            f"| Recall | {with_ci(m['recall'], ci.get('recall'))} |",
            f"| Accuracy | {with_ci(m['accuracy'], ci.get('accuracy'))} |",
            f"| Miss recall | {pct(r['miss_recall'])} |",
            f"| Parameter error | {pct(r['parameter_error'])} (temporal {pct(r['temporal'])}, missing "
            f"{pct(r['missing_argument'])}, value {pct(r['incorrect_value'])}) |",
            f"| Spurious call | {pct(r['spurious_call'])} |",
            f"| Invalid output (pos / neg) | {pct(r['invalid_output_pos'])} / {pct(r['invalid_output_neg'])} |",
            f"| Judge failure | {pct(r['judge_failure'])} |",
            f"| Over recall | {pct(r['over_recall'])} |",
            "",
            f"TP {m['confusion']['TP']} · FN {m['confusion']['FN']} · FP {m['confusion']['FP']} · "
            f"TN {m['confusion']['TN']} · excluded (both_empty) {m['excluded_both_empty']}",
            "",
            "| mixture (easy/medium/hard) | Recall | Accuracy |",
            "|---|---|---|",
        ]
        for name, mx in m.get("mixtures", {}).items():
            w = "/".join(f"{x:.2f}" for x in mx["weights"])
            lines.append(f"| {name} ({w}) | {pct(mx['recall'])} | {pct(mx['accuracy'])} |")
        by = m.get("by", {})
        for key in ("difficulty", "steps", "kind", "domain"):
            if by.get(key):
                lines += ["", f"| {key} | n | Recall | Accuracy |", "|---|---|---|---|"]
                for k, s in by[key].items():
                    lines.append(f"| {k} | {s['n']} | {pct(s['recall'])} | {pct(s['accuracy'])} |")
        d = m.get("diagnostics", {})
        lines += [
            "",
            f"Format variants accepted: {d.get('format_variants', 0)} · undecided argument verdicts: "
            f"{d.get('undecided', 0)} · underspecified replies asking for the missing information: "
            f"{pct(d.get('underspecified_asks_for_missing'))}",
        ]
        if self.trials is not None:
            from .trials import markdown

            lines += markdown(self.trials)
        return "\n".join(lines) + "\n"

    def to_table(self) -> str:
        """A compact plain-text table for terminals."""
        m = self.metrics
        r = m["rates"]
        ci = m.get("intervals", {})

        def pct(x: float | None) -> str:
            return "   —  " if x is None else f"{100 * x:6.2f}%"

        def cis(c: list[float] | None) -> str:
            return f"  [{100 * c[0]:.1f}, {100 * c[1]:.1f}]" if c else ""

        v = self.versions
        rows = [
            f"dataset {v.get('dataset')}  judge {v.get('judge')} ({v.get('judge_mode')})  scorer {v.get('scorer')}",
            f"records {m['n']} (positives {m['positives']}, negatives {m['negatives']}, "
            f"excluded {m['excluded_both_empty']})",
            f"Recall          {pct(m['recall'])}{cis(ci.get('recall'))}",
            f"Accuracy        {pct(m['accuracy'])}{cis(ci.get('accuracy'))}",
            f"Miss recall     {pct(r['miss_recall'])}",
            f"Param error     {pct(r['parameter_error'])}   temporal {pct(r['temporal'])}  missing "
            f"{pct(r['missing_argument'])}  value {pct(r['incorrect_value'])}",
            f"Spurious call   {pct(r['spurious_call'])}",
            f"Over recall     {pct(r['over_recall'])}",
            f"Invalid output  {pct(r['invalid_output_pos'])} (pos)  {pct(r['invalid_output_neg'])} (neg)",
        ]
        for name, mx in m.get("mixtures", {}).items():
            rows.append(f"mixture {name:<14} Recall {pct(mx['recall'])}  Accuracy {pct(mx['accuracy'])}")
        by = m.get("by", {})
        for key in ("difficulty", "steps"):  # where the positives are lost: how hard, which inference
            groups = by.get(key) or {}
            order = (
                [d for d in ("easy", "medium", "hard") if d in groups]
                if key == "difficulty"
                else list(groups)
            )
            for k in order:
                s = groups[k]
                if s["positives"]:
                    rows.append(
                        f"{key[:-1] if key == 'steps' else key} {k:<20} Recall {pct(s['recall'])}  (n={s['positives']})"
                    )
        if self.trials is not None:
            from .trials import table_rows

            rows += table_rows(self.trials)
        return "\n".join(rows)
