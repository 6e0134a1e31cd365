"""The dataset card (README.md of a release folder): the builder's YAML front matter kept as written,
the body rendered from ``dataset_card/`` with the release's own statistics, figures as PNG, and the
changelog against the previous release (record ids added / removed / changed).

Everything is derived from the files, sorted, with no clock and no machine state, so the same build
renders the same bytes (PNGs included: Agg, fixed fonts, DPI and metadata)."""

from __future__ import annotations

import json
import string
from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from plugineval._constants import DIFFICULTIES, KINDS, SPLITS
from plugineval._resources import package_folder
from plugineval.sources import HUB_REPO

from .realism_section import realism_markdown
from .records import CANARY

# dataset_card/ of the checkout, shipped as package data (setup.py)
TEMPLATE_DIR = package_folder("plugineval.builder.dataset_card")
REQUIRED_META = ("license", "language", "task_categories", "size_categories", "configs", "dataset_info")
# Columns left out when deciding whether a record "changed": the version stamp differs by design.
UNCOMPARED = ("version",)
LIST_IDS = 30  # ids listed per category in the card; the full lists are in changelog.json
SCENARIO_ROWS = 40


class CardError(ValueError):
    """The release folder cannot carry a card (missing files, bad front matter, undocumented field)."""


def split_front_matter(text: str, where: str) -> tuple[str, dict[str, Any]]:
    if not text.startswith("---\n"):
        raise CardError(f"{where}: README.md has no YAML front matter (it must start with '---')")
    end = text.find("\n---\n", 4)
    if end < 0:
        raise CardError(f"{where}: README.md front matter is not closed by a '---' line")
    front = text[4 : end + 1]
    meta = yaml.safe_load(front)
    if not isinstance(meta, dict):
        raise CardError(f"{where}: README.md front matter is not a mapping")
    missing = [k for k in REQUIRED_META if k not in meta]
    if missing:
        raise CardError(f"{where}: README.md front matter lacks {', '.join(missing)}")
    return front, meta


def record_rows(release: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    files = sorted(f for f in (release / "data").glob("*/*.parquet") if f.parent.name in SPLITS)
    if not files:
        raise CardError(f"{release}: no record files under data/<split>/")
    rows: list[dict[str, Any]] = []
    for f in files:
        rows += pq.read_table(f).to_pylist()
    return sorted(rows, key=lambda r: (r["split"], r["id"]))


def _table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(out)


def _by(rows: list[dict[str, Any]], key: str, order: tuple[str, ...] | None = None, limit: int = 0) -> str:
    splits = [s for s in SPLITS if any(r["split"] == s for r in rows)]
    counts: Counter[tuple[str, str]] = Counter((str(r[key]), r["split"]) for r in rows)
    totals: Counter[str] = Counter(str(r[key]) for r in rows)
    values = list(order) if order else sorted(totals, key=lambda v: (-totals[v], v))
    values = [v for v in values if totals[v]]
    shown = values[:limit] if limit else values
    body = [[f"`{v}`", *(counts[v, s] for s in splits), totals[v]] for v in shown]
    body.append(["**all**", *(sum(counts[v, s] for v in values) for s in splits), len(rows)])
    text = _table([key, *splits, "all"], body)
    if len(shown) < len(values):
        text += f"\n\n{len(values) - len(shown)} more {key} values with fewer cases are not listed."
    return text


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _construction(report: dict[str, Any]) -> str:
    t = report.get("totals", {})
    lines = [
        "Built with PCCF (docs/format.md §4 of the plugineval repository): Stage II synthesizes "
        "candidates only for coverage units (plugin, scenario, difficulty) below budget; Stage I "
        "verifies each candidate by execution — M generators that read only the query propose calls, "
        "JSON-Schema validation, an argument evaluator, execution through an MCP client session and a "
        "result evaluator score each proposal, with iterative refinement; negatives carry execution "
        "evidence of their kind and are calibrated by a frozen reference router.",
        "",
        f"- candidates {t.get('candidates', 0)}, verified {t.get('verified', 0)} "
        f"(pass rate {_pct(float(t.get('pass_rate', 0.0)))}), accepted {t.get('accepted', 0)}; "
        f"proposals {t.get('proposals', 0)}, MCP calls {t.get('mcp_calls', 0)}",
    ]
    p = report.get("parameters", {})
    if p:
        lines.append("- parameters: " + ", ".join(f"{k} = {p[k]}" for k in sorted(p)))
    rej = report.get("rejections", {})
    if rej:
        lines.append("- rejections: " + ", ".join(f"{k} {rej[k]}" for k in sorted(rej)))
    iva = report.get("intended_vs_accepted", {})
    if iva:
        lines.append(
            f"- accepted gold differs from the synthesizer's intended call: {iva.get('differs', 0)} of "
            f"{iva.get('compared', 0)} ({_pct(float(iva.get('rate', 0.0)))}); {iva.get('what_happened', '')}"
        )
    dd = report.get("difficulty_deviation", {})
    if dd:
        lines.append(
            f"- difficulty deviation of negatives (mean |target − calibrated|, easy/medium/hard = 0/1/2): "
            f"{dd.get('negatives_mean_abs')} over {dd.get('n')}"
        )
    lines.append(
        f"- depth relabels {report.get('depth_relabels', 0)}, strengthened negatives "
        f"{report.get('strengthened_negatives', 0)}"
    )
    cs = report.get("cross_split", {})
    if cs:
        lines.append(
            "- test queries with a train near-duplicate: raw "
            f"{_pct(float(cs.get('test_with_train_near_duplicate_raw', 0.0)))}, masked "
            f"{_pct(float(cs.get('test_with_train_near_duplicate_masked', 0.0)))}"
        )
    splits = report.get("splits", {})
    rows = []
    for s in SPLITS:
        if s in splits:
            st = splits[s]
            unmet = sum(1 for u in st.get("coverage", []) if u.get("verified", 0) < u.get("budget", 0))
            rows.append(
                [
                    s,
                    st.get("budget", ""),
                    len(st.get("coverage", [])),
                    unmet,
                    report.get("stopped", {}).get(s, ""),
                ]
            )
    if rows:
        lines += [
            "",
            _table(["split", "budget", "coverage units", "units below budget", "loop stopped"], rows),
        ]
    roles = report.get("roles", {})
    if roles:
        lines += ["", "Roles (who served each one in this build):", ""]
        lines += [f"- {k}: {roles[k]}" for k in sorted(roles)]
    if report.get("ablation"):
        lines += ["", f"This is an ablation build: `{report['ablation']}`."]
    return "\n".join(lines)


def _snippet(repo: str, version: str) -> str:
    return f'''import json

from datasets import load_dataset

import plugineval

REPO = "{repo}"
REVISION = "v{version}"

# plain datasets: no code from the package
test = load_dataset(REPO, split="test", revision=REVISION)
hard = load_dataset(REPO, "hard", split="test", revision=REVISION)
print(len(test), "test cases,", len(hard), "hard")

# the package: a snapshot at the pinned tag, then typed records
ds = plugineval.load(split="test", revision=REVISION, source=REPO)
records = [plugineval.Record.from_row(row) for row in ds]

# a trivial baseline that never calls a tool (every negative right, every positive missed)
with open("predictions.jsonl", "w", encoding="utf-8") as f:
    for r in records:
        f.write(json.dumps({{"id": r.id, "calls": []}}) + "\\n")
report = plugineval.evaluate("predictions.jsonl", records=records, judge="rules")
print(report.to_markdown())'''


def snippet_of(readme: str) -> str:
    """The 'How to load and evaluate' code of a rendered card (the test runs it)."""
    section = readme.split("## How to load and evaluate", 1)[1]
    return section.split("```python\n", 1)[1].split("\n```", 1)[0]


def _limitations(rows: list[dict[str, Any]], report: dict[str, Any]) -> str:
    kinds = Counter(json.loads(r["source"]).get("type", "?") for r in rows)
    lines = [
        f"- Queries are {', '.join(f'{k} {v}' for k, v in sorted(kinds.items()))}: synthetic queries come "
        "from grammars per scenario and read less varied than real users.",
        "- The tools execute against a local, versioned data store, not live services; answers about "
        "real trains, flights or prices are not implied.",
        "- Single-turn only: multi-call positives are independent calls, none needs another's output.",
        "- Negative difficulty is relative to one frozen reference router; a stronger or weaker router "
        "would calibrate differently.",
        "- Rules-only judging counts free-text pairs the rules cannot decide as wrong (flagged "
        "`undecided`); hybrid judging asks an LLM for those.",
    ]
    missing = report.get("plugins_without_grammar") or []
    if missing:
        lines.append(f"- Plugins of the catalog with no cases in this version: {', '.join(sorted(missing))}.")
    unmet = sum(
        1
        for st in report.get("splits", {}).values()
        for u in st.get("coverage", [])
        if u.get("verified", 0) < u.get("budget", 0)
    )
    if unmet:
        lines.append(f"- {unmet} coverage units (plugin, scenario, difficulty, split) stayed below budget.")
    return "\n".join(lines)


def _license(rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    origins: Counter[tuple[str, str, str]] = Counter()
    for r in rows:
        src = json.loads(r["source"])
        origin = str(src.get("origin", "")).split("/")[0] or "?"
        origins[str(src.get("type", "?")), origin, str(src.get("license", "?"))] += 1
    lines = [
        f"The dataset is released under {str(meta.get('license', 'apache-2.0')).upper()} (the card's "
        "`license`); each record's `source` names its origin and license.",
        "",
        _table(
            ["source type", "origin", "license", "cases"],
            [[t, f"`{o}`", lic, n] for (t, o, lic), n in sorted(origins.items())],
        ),
    ]
    third = sorted({o for (_, o, _), _n in origins.items() if o.lower() not in ("pccf", "?")})
    notes = {
        "hammerbench": "HammerBench (MadeAgents): real Chinese app-assistant queries; reused under the license "
        "recorded in each record's `source.license`, with attribution to its authors.",
        "bfcl": "Berkeley Function Calling Leaderboard (BFCL, Gorilla project, Apache-2.0): imported cases keep "
        "BFCL's attribution; BFCL irrelevance cases are `neg_B` with scope `global`.",
    }
    for o in third:
        key = next((k for k in notes if k in o.lower()), None)
        lines.append("")
        lines.append(
            f"- {notes[key]}"
            if key
            else f"- `{o}`: third-party queries, license as recorded in `source.license`."
        )
    if not third:
        lines += [
            "",
            "All queries in this version were synthesized by the PCCF builder; no third-party queries.",
        ]
    return "\n".join(lines)


CITATION = """@misc{{plugineval{year},
  title        = {{PluginEval: a diagnostic benchmark for LLM function calling over Chinese plugins}},
  author       = {{{{PluginEval contributors}}}},
  year         = {{{year}}},
  note         = {{Dataset version {version}}},
  howpublished = {{\\url{{https://huggingface.co/datasets/{repo}}}}}
}}"""


def _ids(rows: list[dict[str, Any]]) -> dict[str, str]:
    return {
        r["id"]: json.dumps(
            {k: v for k, v in r.items() if k not in UNCOMPARED}, sort_keys=True, ensure_ascii=False
        )
        for r in rows
    }


def changelog(rows: list[dict[str, Any]], version: str, previous: Path | None) -> list[dict[str, Any]]:
    """Entries newest first: this version against ``previous`` (by record id), then the previous history."""
    cur = _ids(rows)
    if previous is None:
        return [{"version": version, "previous": None, "added": sorted(cur), "removed": [], "changed": []}]
    prev_rows = record_rows(previous)
    prev = _ids(prev_rows)
    prev_version = str(prev_rows[0].get("version", "?")) if prev_rows else "?"
    entry = {
        "version": version,
        "previous": prev_version,
        "added": sorted(set(cur) - set(prev)),
        "removed": sorted(set(prev) - set(cur)),
        "changed": sorted(i for i in set(cur) & set(prev) if cur[i] != prev[i]),
    }
    history: list[dict[str, Any]] = []
    old = previous / "changelog.json"
    if old.exists():
        history = [
            e
            for e in json.loads(old.read_text(encoding="utf-8")).get("entries", [])
            if e.get("version") != version
        ]
    return [entry, *history]


def _changelog_md(entries: list[dict[str, Any]]) -> str:
    out = [
        "Record ids added, removed and changed (same id, different row content apart from `version`); "
        "the full lists are in `changelog.json`.",
        "",
    ]
    for e in entries:
        if e["previous"] is None:
            out += [
                f"### v{e['version']}",
                "",
                f"First version of the changelog: {len(e['added'])} records.",
                "",
            ]
            continue
        out += [f"### v{e['version']} (since v{e['previous']})", ""]
        for what in ("added", "removed", "changed"):
            ids = e[what]
            shown = ", ".join(f"`{i}`" for i in ids[:LIST_IDS])
            more = f" … and {len(ids) - LIST_IDS} more" if len(ids) > LIST_IDS else ""
            out.append(f"- {what}: {len(ids)}" + (f" — {shown}{more}" if ids else ""))
        out.append("")
    return "\n".join(out).rstrip()


def _figures(rows: list[dict[str, Any]], out: Path) -> None:
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    out.mkdir(parents=True, exist_ok=True)
    splits = [s for s in SPLITS if any(r["split"] == s for r in rows)]
    rc = {"font.family": "DejaVu Sans", "font.size": 9, "svg.hashsalt": "plugineval"}
    colors = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3")

    def save(fig: Figure, name: str) -> None:
        FigureCanvasAgg(fig)
        fig.tight_layout()
        fig.savefig(out / name, dpi=100, format="png", metadata={"Software": None})

    with matplotlib.rc_context(rc):  # type: ignore[arg-type]
        counts = Counter((r["kind"], r["split"]) for r in rows)
        fig = Figure(figsize=(7, 3.6))
        ax = fig.add_subplot()
        width = 0.8 / max(1, len(splits))
        for i, s in enumerate(splits):
            xs = [k + (i - (len(splits) - 1) / 2) * width for k in range(len(KINDS))]
            ax.bar(xs, [counts[k, s] for k in KINDS], width, label=s, color=colors[i])
        ax.set_xticks(range(len(KINDS)), list(KINDS))
        ax.set_ylabel("cases")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title("Cases by kind and split")
        ax.legend()
        save(fig, "kinds.png")

        groups = [(s, pos) for s in splits for pos in (True, False)]
        dc = Counter((r["split"], r["kind"] == "positive", r["difficulty"]) for r in rows)
        fig = Figure(figsize=(7, 3.6))
        ax = fig.add_subplot()
        bottom = [0] * len(groups)
        for j, d in enumerate(DIFFICULTIES):
            vals = [dc[s, pos, d] for s, pos in groups]
            ax.bar(range(len(groups)), vals, 0.6, bottom=bottom, label=d, color=colors[j + 2])
            bottom = [b + v for b, v in zip(bottom, vals, strict=True)]
        ax.set_xticks(
            range(len(groups)), [f"{s}\n{'positives' if pos else 'negatives'}" for s, pos in groups]
        )
        ax.set_ylabel("cases")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title("Difficulty: inference depth (positives), router p_K (negatives)")
        ax.legend()
        save(fig, "difficulty.png")


def _configs(meta: dict[str, Any]) -> str:
    info = {i["config_name"]: i for i in meta.get("dataset_info", [])}
    rows = []
    for c in meta["configs"]:
        splits = info.get(c["config_name"], {}).get("splits", [])
        rows.append([f"`{c['config_name']}`", ", ".join(f"{s['name']} {s['num_examples']}" for s in splits)])
    return _table(["config", "rows per split"], rows)


def _calendar(meta: dict[str, Any]) -> str:
    info = next((i for i in meta.get("dataset_info", []) if i["config_name"] == "calendar"), None)
    if info is None:
        return "(this build has no calendar config)"
    return ", ".join(f"{s['name']} {s['num_examples']}" for s in info["splits"])


def _field_table(release: Path, rows: list[dict[str, Any]]) -> str:
    import pyarrow.parquet as pq

    desc = yaml.safe_load((TEMPLATE_DIR / "fields.yaml").read_text(encoding="utf-8"))
    first = sorted(f for f in (release / "data").glob("*/*.parquet") if f.parent.name in SPLITS)[0]
    schema = pq.read_schema(first)
    missing = [f.name for f in schema if f.name not in desc]
    if missing:
        raise CardError(f"dataset_card/fields.yaml: no description for column(s) {', '.join(missing)}")
    return _table(["field", "type", "meaning"], [[f"`{f.name}`", str(f.type), desc[f.name]] for f in schema])


def render_card(
    release_dir: Path | str, previous_release_dir: Path | str | None = None, repo: str = HUB_REPO
) -> None:
    """Rewrite ``release_dir/README.md`` (front matter kept), ``figures/`` and ``changelog.json``."""
    release = Path(release_dir)
    previous = Path(previous_release_dir) if previous_release_dir is not None else None
    readme = release / "README.md"
    report_path = release / "build_report.json"
    for p in (readme, report_path):
        if not p.exists():
            raise CardError(
                f"{release}: {p.name} is missing (is this a release folder written by 'plugineval build'?)"
            )
    if previous is not None and not (previous / "data").is_dir():
        raise CardError(f"previous release {previous}: no data/ folder")
    template = TEMPLATE_DIR / "body.md.tmpl"
    if not template.exists():
        raise CardError(f"card template {template} not found (render cards from a source checkout)")
    front, meta = split_front_matter(readme.read_text(encoding="utf-8"), str(release))
    report = json.loads(report_path.read_text(encoding="utf-8"))
    rows = record_rows(release)
    versions = sorted({str(r["version"]) for r in rows})
    if len(versions) != 1:
        raise CardError(f"{release}: records carry several versions {versions}")
    version = versions[0]
    if previous is not None and previous.resolve() == release.resolve():
        raise CardError("the previous release is the release itself")

    import pyarrow.parquet as pq

    plugins = pq.read_table(release / "data" / "plugins" / "catalog.parquet").to_pylist()
    per_split = Counter(r["split"] for r in rows)
    entries = changelog(rows, version, previous)
    year = str(report.get("year", "2026"))
    values = {
        "version": version,
        "n_records": len(rows),
        "split_summary": ", ".join(f"{s} {per_split[s]}" for s in SPLITS if per_split[s]),
        "n_plugins": len({r["target_plugin"] for r in rows}),
        "n_domains": len({r["domain"] for r in rows}),
        "catalog": f"{len({p['plugin'] for p in plugins})} plugins in {len({p['domain'] for p in plugins})} domains",
        "n_tools": len(plugins),
        "config_table": _configs(meta),
        "field_table": _field_table(release, rows),
        "by_kind": _by(rows, "kind", KINDS),
        "by_difficulty": _by(rows, "difficulty", DIFFICULTIES),
        "by_domain": _by(rows, "domain"),
        "by_scenario": _by(rows, "primary_scenario", limit=SCENARIO_ROWS),
        "construction": _construction(report),
        "snippet": _snippet(repo, version),
        "limitations": _limitations(rows, report),
        "license": _license(rows, meta),
        "citation": CITATION.format(year=year, version=version, repo=repo),
        "canary": CANARY,
        "changelog": _changelog_md(entries),
        "calendar": _calendar(meta),
        "realism": realism_markdown(report["realism"]) if "realism" in report else "(not measured)",
    }
    body = string.Template(template.read_text(encoding="utf-8")).substitute(values)
    _figures(rows, release / "figures")
    log = {"canary": CANARY, "entries": entries}
    (release / "changelog.json").write_text(
        json.dumps(log, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    readme.write_text(f"---\n{front}---\n\n{body}", encoding="utf-8")
