"""PluginEval Space: layout only. The logic lives in ``plugineval_space`` (service.py and friends).

Configuration (environment): PLUGINEVAL_RECORDS (a release folder, Hub dataset repo id or JSONL;
default ``plugineval.sources.default_source()``), PLUGINEVAL_REVISION, PLUGINEVAL_SPACE_TTL (seconds),
PLUGINEVAL_SPACE_DB (SQLite path), PLUGINEVAL_SPACE_HUB_REPO (store the leaderboard in a Hub dataset
repo instead; HF_TOKEN), PLUGINEVAL_SPACE_JUDGE (rules | hybrid), PLUGINEVAL_SPACE_MAX_UPLOAD_MB,
PLUGINEVAL_SPACE_SEED=0 (do not seed the baselines); the scoring pool (docs/space.md, "Heavy work off
the server"): PLUGINEVAL_SPACE_WORKERS, PLUGINEVAL_SPACE_BUNDLE_WORKERS, PLUGINEVAL_SPACE_QUEUE,
PLUGINEVAL_SPACE_TIME_BUDGET, PLUGINEVAL_SPACE_WORKER_MEMORY_MB; the storage budget:
PLUGINEVAL_SPACE_MAX_BOARD_MB, PLUGINEVAL_SPACE_MAX_BUNDLES_MB.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gradio as gr
from plugineval_space import browser, livejudge, table
from plugineval_space.release import TEST_FIRST
from plugineval_space.service import Service

CSS = "#leaderboard-table table { font-size: 0.85em } .pe-note { font-size: 0.9em }"
NUMERIC = [c for c, t in table.COLUMNS if t == "number"]
NO_MATH: list[dict[str, str | bool]] = []  # Markdown that shows user text: "$$…$$" stays text, not KaTeX


def build_demo(service: Service | None = None) -> gr.Blocks:
    svc = service or Service()
    first = next(iter(table.PRESETS))
    w0 = table.PRESETS[first]
    # uploads and the files the app hands out are deleted an hour after they were made (checked every
    # 10 minutes); the handlers delete refused and submitted uploads at once
    with gr.Blocks(title="PluginEval", delete_cache=(600, 3600)) as demo:
        gr.Markdown(
            "# PluginEval\nA diagnostic benchmark for LLM function calling over Chinese plugins: "
            "does the query need a tool, does the target plugin support it, can the call be grounded "
            "from the query alone? Scores from the gold-anchored judge, with error attribution."
        )
        with gr.Tabs(elem_id="tabs") as tabs:
            # --- leaderboard -----------------------------------------------------------------
            with gr.Tab("Leaderboard", id="leaderboard", elem_id="tab-leaderboard"):
                with gr.Row():
                    search = gr.Textbox(label="Search model / organisation", elem_id="lb-search", scale=2)
                    preset = gr.Radio(
                        [*table.PRESETS, table.CUSTOM], value=first, label="Difficulty mixture", scale=3
                    )
                with gr.Row():
                    w_e = gr.Slider(0, 1, w0[0], step=0.05, label="easy weight")
                    w_m = gr.Slider(0, 1, w0[1], step=0.05, label="medium weight")
                    w_h = gr.Slider(0, 1, w0[2], step=0.05, label="hard weight")
                with gr.Row():
                    status = gr.CheckboxGroup(
                        ["verified", "self-reported"], value=["verified", "self-reported"], label="Status"
                    )
                    types = gr.CheckboxGroup(
                        ["baseline", "submission"], value=["baseline", "submission"], label="Type"
                    )
                    sort_by = gr.Dropdown([*NUMERIC, "Model", "Date"], value="Recall", label="Sort by")
                    desc = gr.Checkbox(True, label="Descending")
                with gr.Accordion("Columns", open=False):
                    columns = gr.CheckboxGroup(table.COLUMN_NAMES, value=table.DEFAULT_COLUMNS, label="Show")
                note = gr.Markdown(elem_classes="pe-note")
                lb = gr.Dataframe(
                    interactive=False, elem_id="leaderboard-table", wrap=True, max_height=600, datatype="auto"
                )
                with gr.Row():
                    p_diff = gr.Plot(label="Recall per difficulty")
                    p_err = gr.Plot(label="Error profile")
                with gr.Accordion("Compare two models (paired by record id)", open=False):
                    with gr.Row():
                        cmp_a = gr.Dropdown([], label="A", allow_custom_value=True)
                        cmp_b = gr.Dropdown([], label="B", allow_custom_value=True)
                        cmp_btn = gr.Button("Compare")
                    cmp_md = gr.Markdown(latex_delimiters=NO_MATH)
                    cmp_plot = gr.Plot(label="Side by side")
            # --- dataset browser -------------------------------------------------------------
            with gr.Tab("Dataset browser", id="browser", elem_id="tab-browser"):
                with gr.Row():
                    split = gr.Radio(list(TEST_FIRST), value="test", label="Split")
                    text = gr.Textbox(label="Text (query, id, gold values)", elem_id="br-text", scale=2)
                with gr.Row():
                    dd = {
                        f: gr.Dropdown(
                            [browser.ALL],
                            value=browser.ALL,
                            label=label,
                            elem_id=f"br-{f}",
                            allow_custom_value=True,
                        )
                        for f, label in zip(
                            browser.FILTERS,
                            ["Domain", "Plugin", "Kind", "Difficulty", "Scenario"],
                            strict=True,
                        )
                    }
                br_summary = gr.Markdown()
                br_table = gr.Dataframe(interactive=False, elem_id="browser-table", wrap=True, max_height=400)
                with gr.Row():
                    rec_id = gr.Textbox(label="Record id", elem_id="record-id", scale=3)
                    rec_btn = gr.Button("Show record", scale=1)
                rec_md = gr.Markdown(latex_delimiters=NO_MATH, elem_id="record-view")
            # --- live judge --------------------------------------------------------------------
            with gr.Tab("Live judge", id="judge", elem_id="tab-judge"):
                gr.Markdown(
                    "Upload predictions for the **test** split: JSONL, one line per record id, "
                    '`{"id": ..., "calls": [{"name": ..., "arguments": {...}}]}` (OpenAI `tool_calls` '
                    "accepted). A record without a line scores as invalid_output. "
                    f"Limit: {livejudge.human_size(livejudge.max_upload_bytes())}."
                )
                upload = gr.File(
                    label="predictions.jsonl", file_types=[".jsonl", ".json", ".txt"], elem_id="upload"
                )
                judge_btn = gr.Button("Score", variant="primary", elem_id="judge-btn")
                j_status = gr.Markdown(latex_delimiters=NO_MATH, elem_id="judge-status")
                j_metrics = gr.Markdown(latex_delimiters=NO_MATH, elem_id="judge-metrics")
                with gr.Row():
                    j_diff = gr.Plot(label="Recall per difficulty")
                    j_err = gr.Plot(label="Error profile")
                fail_only = gr.Checkbox(False, label="Failures only", elem_id="failures-only")
                j_table = gr.Dataframe(interactive=False, elem_id="judge-table", wrap=True, max_height=400)
                j_report = gr.File(label="report.json", interactive=False)
                j_state = gr.State()
                with gr.Accordion("Submit to the leaderboard (optional)", open=False):
                    with gr.Row():
                        s_model = gr.Textbox(label="Model name", elem_id="sub-model")
                        s_org = gr.Textbox(label="Organisation", elem_id="sub-org")
                        s_link = gr.Textbox(label="Link (https://…)", elem_id="sub-link")
                    s_btn = gr.Button("Submit", elem_id="sub-btn")
                    s_msg = gr.Markdown(latex_delimiters=NO_MATH, elem_id="sub-msg")
                with gr.Accordion(
                    "Submit a bundle (predictions of K trials, sidecars, model card)", open=False
                ):
                    gr.Markdown(
                        "A `.zip` of the predictions file(s), their `.meta.json` sidecars and `submission.json` "
                        "(docs/submit.md; check it first with `plugineval submit --validate BUNDLE`). The Space "
                        "scores it with its own judge, keeps the bundle, and re-scores it when the judge changes."
                    )
                    b_file = gr.File(label="bundle.zip", file_types=[".zip"], elem_id="bundle")
                    b_btn = gr.Button("Submit bundle", elem_id="bundle-btn")
                    b_msg = gr.Markdown(latex_delimiters=NO_MATH, elem_id="bundle-msg")
            with gr.Tab("About", id="about"):
                about = gr.Markdown()
                contamination = gr.Markdown(elem_id="contamination")
                with gr.Accordion("Maintainers: re-score every kept bundle", open=False):
                    r_token = gr.Textbox(label="Maintainer token", type="password")
                    r_btn = gr.Button("Re-score")
                    r_msg = gr.Markdown()

        # --- events ---------------------------------------------------------------------------
        lb_inputs = [search, preset, w_e, w_m, w_h, columns, status, types, sort_by, desc]

        def leaderboard(*args: Any) -> tuple[Any, ...]:
            return svc.leaderboard(*args)

        def model_choices() -> tuple[Any, Any]:
            names = list(svc.labelled())
            return gr.Dropdown(choices=names), gr.Dropdown(choices=names)

        lb_event = gr.on(
            [
                search.submit,
                columns.change,
                status.change,
                types.change,
                sort_by.change,
                desc.change,
                preset.change,
            ],
            leaderboard,
            lb_inputs,
            [lb, note, p_diff, p_err],
            api_name="leaderboard",
            concurrency_limit=8,
        )
        lb_event.then(model_choices, None, [cmp_a, cmp_b], api_name=False)

        def preset_weights(p: str) -> tuple[Any, Any, Any]:
            if p not in table.PRESETS:
                return gr.update(), gr.update(), gr.update()
            return tuple(gr.update(value=w) for w in table.PRESETS[p])  # type: ignore[return-value]

        preset.change(preset_weights, preset, [w_e, w_m, w_h], api_name=False)
        for s in (w_e, w_m, w_h):  # moving a slider switches to the custom mixture (and refreshes)
            s.release(lambda: table.CUSTOM, None, preset, api_name=False).then(
                leaderboard, lb_inputs, [lb, note, p_diff, p_err], api_name=False
            )
        cmp_btn.click(
            svc.compare, [cmp_a, cmp_b], [cmp_md, cmp_plot], api_name="compare", concurrency_limit=8
        )

        br_inputs = [split, *dd.values(), text]

        def filter_choices(sp: str) -> tuple[Any, ...]:
            ch = svc.browse_choices(sp)
            return tuple(gr.Dropdown(choices=ch[f], value=browser.ALL) for f in browser.FILTERS)

        gr.on(
            [text.submit, *(d.input for d in dd.values())],
            svc.browse,
            br_inputs,
            [br_table, br_summary],
            api_name="browse",
            concurrency_limit=8,
        )
        split.change(filter_choices, split, list(dd.values()), api_name="browse_choices").then(
            svc.browse, br_inputs, [br_table, br_summary], api_name=False
        )

        def pick(evt: gr.SelectData) -> tuple[str, str]:
            rid = str(evt.row_value[0]) if evt.row_value else ""
            return rid, svc.record(rid)

        br_table.select(pick, None, [rec_id, rec_md], api_name=False)
        gr.on([rec_btn.click, rec_id.submit], svc.record, rec_id, rec_md, api_name="record")

        judge_out = [j_status, j_metrics, j_diff, j_err, j_table, j_report, j_state]
        judge_btn.click(svc.judge, [upload, fail_only], judge_out, api_name="judge", concurrency_limit=4)
        fail_only.change(svc.failures, [fail_only, j_state], j_table, api_name=False)
        s_btn.click(
            svc.submit, [upload, s_model, s_org, s_link], s_msg, api_name="submit", concurrency_limit=8
        ).then(leaderboard, lb_inputs, [lb, note, p_diff, p_err], api_name=False).then(
            model_choices, None, [cmp_a, cmp_b], api_name=False
        )

        b_btn.click(svc.submit_bundle, b_file, b_msg, api_name="submit_bundle", concurrency_limit=4).then(
            leaderboard, lb_inputs, [lb, note, p_diff, p_err], api_name=False
        )
        r_btn.click(svc.rescore, r_token, r_msg, api_name="rescore", concurrency_limit=1)

        # --- page load: leaderboard, browser filters, and the ?id= permalink -----------------
        def permalink(request: gr.Request) -> tuple[Any, Any, Any]:
            rid = (request.query_params.get("id") or "").strip() if request else ""
            if not rid:
                return gr.update(), gr.update(), gr.update()
            return gr.Tabs(selected="browser"), rid, svc.record(rid)

        demo.load(permalink, None, [tabs, rec_id, rec_md], api_name=False)
        demo.load(leaderboard, lb_inputs, [lb, note, p_diff, p_err], api_name=False).then(
            model_choices, None, [cmp_a, cmp_b], api_name=False
        )
        demo.load(filter_choices, split, list(dd.values()), api_name=False).then(
            svc.browse, br_inputs, [br_table, br_summary], api_name=False
        )
        demo.load(svc.about, None, about, api_name="status")
        demo.load(svc.contamination, None, contamination, api_name="contamination")
    return demo


def launch_kwargs() -> dict[str, Any]:
    return {"css": CSS, "max_file_size": 4 * livejudge.max_upload_bytes(), "theme": gr.themes.Soft()}


service = Service()  # lazy: reads nothing until a request (or the CLI's warm-up) needs it
demo = build_demo(service)

if __name__ == "__main__":
    livejudge.drop_reports_on_sigterm()
    demo.queue(default_concurrency_limit=4).launch(**launch_kwargs())
