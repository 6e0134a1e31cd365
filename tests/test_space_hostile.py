"""Hostile input to the leaderboard's submission paths (issue 23, classes 7–14): names are text
everywhere, columns are honest, storage is bounded, every refusal is one clear message.

Every hostile input is generated here (names, zips damaged byte by byte, files past a limit by one
byte); none is stored in the repository."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import sys
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "space"))

from plugineval_space import bundles, livejudge, table  # noqa: E402
from plugineval_space.store import SqliteBoard  # noqa: E402
from space_helpers import gold_lines  # noqa: E402

from plugineval import names  # noqa: E402
from plugineval.names import InvalidName, clean_link, clean_name, is_reserved, markdown_text, skeleton  # noqa: E402
from plugineval.submission import BundleError, load_bundle, validate  # noqa: E402

# a name that is Markdown for an image the browser would fetch and a live external link
PAYLOAD = "![p](http://127.0.0.1:9/pixel.png)[text](https://example.org/x) <img src=x onerror=alert(1)>"
CYRILLIC_O = "\u043e"


@pytest.fixture(scope="module")
def records(mini_release: Path) -> list:  # type: ignore[type-arg]
    from plugineval.sources import load_records

    return load_records(mini_release, "test")


@pytest.fixture()
def uploads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Gradio's upload folder for this test (where the Space may delete what it handled)."""
    d = tmp_path / "gradio"
    d.mkdir()
    monkeypatch.setenv("GRADIO_TEMP_DIR", str(d))
    return d


def _upload(uploads: Path, name: str, data: bytes) -> Path:
    """A file as Gradio stores an upload: ``<upload folder>/<hash>/<name>``."""
    p = uploads / f"h{len(list(uploads.iterdir()))}" / name
    p.parent.mkdir()
    p.write_bytes(data)
    return p


def _bundle(tmp_path: Path, mini_release: Path, trials: int = 2, **manifest: object) -> Path:
    from test_submit import make_bundle

    return make_bundle(tmp_path / "b", mini_release, trials=trials, **manifest)


def _zip(folder: Path, out: Path) -> Path:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(folder.iterdir()):
            z.write(f, f.name)
    return out


def _rendered(md: str) -> str:
    """The HTML a CommonMark renderer with GFM tables and bare-URL links makes of ``md``."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"linkify": True}).enable(["table", "linkify"]).render(md)


def _plain(md: str) -> str:
    """The text a reader sees of ``md`` (the rendered HTML without its tags)."""
    import html

    return html.unescape(re.sub(r"<[^>]+>", "", _rendered(md)))


def _shows_literally(md: str, text: str) -> None:
    """``text`` shows as written; nothing is fetched (no image, no HTML), and a link is only a bare
    http(s) URL shown as itself."""
    out = _rendered(md)
    assert text in _plain(md), out
    assert (
        "<img" not in out and "<script" not in out and "onerror=" not in out.replace("onerror=alert", "")
    ), out
    for href, label in re.findall(r'<a href="([^"]*)">([^<]*)</a>', out):
        assert href.startswith(("http://", "https://")) and label.startswith(("http://", "https://")), out


# --- 7: look-alike and invisible names ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("\u200b", "U+200B"),  # a zero-width space as the whole name
        ("model\u202eevil", "U+202E"),  # a right-to-left override
        ("a\u2066b\u2069", "U+2066"),
        ("a\u200fb", "U+200F"),
        ("a\u061cb", "U+061C"),
        ("soft\u00adhyphen", "U+00AD"),
        ("word\u2060joiner", "U+2060"),
        ("\ufeffbom", "U+FEFF"),
        ("zw\u200djoiner", "U+200D"),
        ("line\nbreak", "U+000A"),
        ("bell\x07", "U+0007"),
        ("hangul\u3164filler", "U+3164"),  # named as typed (NFKC would make it U+1160)
        ("vs\ufe0f", "U+FE0F"),
    ],
)
def test_invisible_bidi_and_control_characters_are_refused_by_code_point(text: str, code: str) -> None:
    with pytest.raises(InvalidName, match=rf"^model: .*{re.escape(code)}") as e:
        clean_name(text, "model")
    assert isinstance(e.value, ValueError)


def test_names_are_nfkc_stripped_bounded_and_not_empty() -> None:
    assert clean_name("  ＧＰＴ－４ｏ  ", "model") == "GPT-4o"  # full-width forms: NFKC
    for blank in ("", "   ", "\u3000"):
        with pytest.raises(InvalidName, match="model: empty"):
            clean_name(blank, "model")
    assert clean_name("x" * 100, "model") == "x" * 100
    with pytest.raises(InvalidName, match="model: 101 characters; the limit is 100"):
        clean_name("x" * 101, "model")
    assert clean_name("", "organisation", required=False) == ""


def test_look_alike_names_share_a_skeleton_and_baseline_names_are_reserved() -> None:
    real = "baseline:router"
    fakes = [
        f"baseline:r{CYRILLIC_O}uter",
        "BASELINE:ROUTER",
        "baseIine:router",  # capital I for l
        "ｂａｓｅｌｉｎｅ：ｒｏｕｔｅｒ",
        "b\u0430seline - router",  # Cyrillic а, other separators
        "basel\u0131ne:r0uter",  # dotless i, zero for o
        "bas\u00e9line:router",  # an accent
    ]
    for f in fakes:
        assert skeleton(f) == skeleton(real), f
        assert is_reserved(f, "")
    assert skeleton("gpt-4o") != skeleton("gpt-4")
    assert not is_reserved("gpt-4o-mini", "OpenAI")
    for org in (names.MAINTAINERS, "PluginEval maintainers".replace("o", CYRILLIC_O), "PLUGINEVAL"):
        assert is_reserved("my-model", org)


def test_a_bundle_with_a_hidden_reserved_or_invisible_name_is_refused(
    tmp_path: Path,
    mini_release: Path,
    records: list,  # type: ignore[type-arg]
) -> None:
    folder = _bundle(tmp_path, mini_release)
    cases = {
        "\u200b": "submission.json: model: a zero-width character, U+200B",
        f"baseline:r{CYRILLIC_O}uter": "submission.json: model: reads as a baseline:… name",
        "m\u202egpt": "submission.json: model: a bidirectional control, U+202E",
    }
    for model, want in cases.items():
        m = json.loads((folder / "submission.json").read_text(encoding="utf-8"))
        m["model"] = model
        (folder / "submission.json").write_text(json.dumps(m), encoding="utf-8")
        got = [str(p) for p in validate(folder, records).problems]
        assert any(g.startswith(want) for g in got), (model, got)
    m.update(model="fine-model", organisation="PluginEval maintainers")
    (folder / "submission.json").write_text(json.dumps(m), encoding="utf-8")
    got = [str(p) for p in validate(folder, records).problems]
    assert any(g.startswith("submission.json: organisation: ") and "maintainers" in g for g in got), got


def test_the_live_submission_refuses_the_same_names_and_links_that_are_not_http(tmp_path: Path) -> None:
    board = SqliteBoard(tmp_path / "lb.sqlite")
    for model, org, link, want in [
        ("\u200b", "", "", "U+200B"),
        (f"baseline:r{CYRILLIC_O}uter", names.MAINTAINERS, "", "baseline"),
        ("ok", names.MAINTAINERS, "", "organisation"),
        ("ok", "", "javascript:alert(1)", "Link: must start with https://"),
        ("ok", "", "https://a b", "U+0020"),
    ]:
        with pytest.raises(livejudge.UploadError) as e:
            livejudge.submit(None, model, org, link, [], board)
        assert want in str(e.value) and want in _plain(str(e.value))  # Markdown that reads as written
    assert board.count() == 0
    assert clean_link("https://example.org/m?x=1") == "https://example.org/m?x=1"


# --- 8: Markdown in a name is text ------------------------------------------------------------------


def test_markdown_text_renders_literally_and_fetches_nothing() -> None:
    texts = (
        PAYLOAD,
        "$$x^$$",
        "a|b",
        "**bold** _it_ `code` ~~s~~",
        "<http://x.org>",
        "&amp; &#60;",
        "__init__",
        "see https://example.org/a_(b)\\[c] or WWW.example.org",
    )
    for text in texts:
        _shows_literally(f"**B = {markdown_text(text)}** minus", text)
        _shows_literally(f"| a | b |\n|---|---|\n| {markdown_text(text)} | x |", text)
    assert ">text</a>" not in _rendered(markdown_text(PAYLOAD))
    assert markdown_text("a\nb\r\nc") == "a b c"
    assert markdown_text("model_card") == "model_card"  # an underscore inside a word makes no emphasis


def test_compare_panel_and_submission_messages_show_names_as_text(
    tmp_path: Path,
    records: list,  # type: ignore[type-arg]
) -> None:
    from plugineval_space.seed import seed_baselines
    from plugineval_space.service import Service

    board = SqliteBoard(tmp_path / "lb.sqlite")
    seed_baselines(records, board)
    base = board.entries()[0]
    hostile = replace(base, model=PAYLOAD, organisation=PAYLOAD, kind="submission", content_hash="h" * 64)
    assert board.add(hostile)
    svc = Service(board=board, seed=False, rescore_on_start=False)
    labels = list(svc.labelled())
    md, _ = svc.compare(next(x for x in labels if x.startswith("![p]")), base.model)
    _shows_literally(md, f"A = {PAYLOAD}")
    assert ">text</a>" not in _rendered(md)


def test_bundle_messages_show_names_and_file_names_as_text(
    tmp_path: Path,
    mini_release: Path,
    records: list,
    uploads: Path,  # type: ignore[type-arg]
) -> None:
    folder = _bundle(tmp_path, mini_release, model=PAYLOAD, organisation=PAYLOAD)
    (folder / "![x](http:__127.0.0.1:9_y.png)").write_bytes(b"junk")
    z = _zip(folder, tmp_path / "b.zip")
    board = SqliteBoard(tmp_path / "lb.sqlite")
    msg = bundles.submit_bundle(_upload(uploads, "b.zip", z.read_bytes()), records, board, "rules")
    assert msg.startswith("Submitted **")
    _shows_literally(msg, f"Submitted {PAYLOAD} ({PAYLOAD})")
    _shows_literally(msg, "![x](http:__127.0.0.1:9_y.png): not part of the bundle format")
    assert board.entries()[0].model == PAYLOAD  # stored as given: escaped only where it is shown


# --- 9, 10, 11: honest columns ------------------------------------------------------------------------


def _rewrite(path: Path, **fields: object) -> None:
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    path.write_text("".join(json.dumps({**o, **fields}) + "\n" for o in lines), encoding="utf-8")


def test_self_reported_cost_and_latency_are_checked_and_labelled(
    tmp_path: Path,
    mini_release: Path,
    records: list,  # type: ignore[type-arg]
) -> None:
    folder = _bundle(tmp_path, mini_release)
    _rewrite(folder / "preds.t1.jsonl", cost_usd=-1e300, latency_ms=3.3e296)
    got = [str(p) for p in validate(folder, records).problems]
    n = len(records)
    assert any(
        g.startswith(f"preds.t1.jsonl: cost_usd: {n} line(s) with a self-reported value") and "-1e+300" in g
        for g in got
    ), got
    assert any(g.startswith("preds.t1.jsonl: latency_ms: ") and "3.3e+296" in g for g in got), got
    cols = [c for c in table.COLUMN_NAMES if "Cost" in c or "Latency" in c]
    assert cols and all("self-reported" in c for c in cols)


def test_the_live_submission_refuses_a_negative_cost(
    tmp_path: Path,
    records: list,
    uploads: Path,  # type: ignore[type-arg]
) -> None:
    lines = [json.dumps({**json.loads(x), "cost_usd": -1.0}) for x in gold_lines(records)]
    up = _upload(uploads, "neg.jsonl", ("\n".join(lines) + "\n").encode())
    board = SqliteBoard(tmp_path / "lb.sqlite")
    with pytest.raises(livejudge.UploadError) as e:
        livejudge.submit(up, "m", "", "", records, board, "rules")
    assert f"cost_usd: {len(records)} line(s) with a self-reported value" in _plain(str(e.value))
    assert board.count() == 0 and not up.exists()


def test_byte_identical_trials_are_refused(
    tmp_path: Path,
    mini_release: Path,
    records: list,  # type: ignore[type-arg]
) -> None:
    from plugineval.scoring import evaluate
    from plugineval.trials import TrialsError

    folder = _bundle(tmp_path, mini_release, trials=3)
    shutil.copyfile(folder / "preds.t1.jsonl", folder / "preds.t3.jsonl")
    got = [str(p) for p in validate(folder, records).problems]
    assert got == [
        "preds.t3.jsonl: byte-identical to preds.t1.jsonl: a copy is not another trial (each trial is its "
        "own run, with its own seed)"
    ]
    copy = tmp_path / "copy.jsonl"
    shutil.copyfile(folder / "preds.t1.jsonl", copy)
    with pytest.raises(TrialsError, match=r"copy\.jsonl: byte-identical to"):
        evaluate([folder / "preds.t1.jsonl", copy], records, judge="rules")


def test_a_manifest_split_other_than_the_scored_one_is_refused(
    tmp_path: Path,
    mini_release: Path,
    records: list,  # type: ignore[type-arg]
) -> None:
    folder = _bundle(tmp_path, mini_release, split="validation")
    got = [str(p) for p in validate(folder, records).problems]
    assert any(
        g.startswith("submission.json: split: the bundle answers the 'validation' split")
        and "the split scored here is 'test'" in g
        for g in got
    ), got


def test_mixture_weights_must_be_finite() -> None:
    for bad in ((math.nan, 0.4, 0.2), (math.inf, 0.4, 0.2), (-0.1, 0.4, 0.2), (0.0, 0.0, 0.0)):
        with pytest.raises(ValueError, match="finite, non-negative and not all zero"):
            table.weights_for(table.CUSTOM, *bad)
    assert table.weights_for(table.CUSTOM, 1, 1, 2) == (0.25, 0.25, 0.5)


# --- 12: storage bounds -----------------------------------------------------------------------------


def test_a_bundle_keeps_only_the_members_it_uses(
    tmp_path: Path,
    mini_release: Path,
    records: list,  # type: ignore[type-arg]
) -> None:
    folder = _bundle(tmp_path, mini_release)
    clean = load_bundle(_zip(folder, tmp_path / "clean.zip"))
    (folder / "junk.bin").write_bytes(os.urandom(4 * 2**20))
    b = load_bundle(_zip(folder, tmp_path / "junk.zip"))
    assert "junk.bin" not in b.files and any(w.startswith("junk.bin: ") for w in b.warnings)
    assert b.digest == clean.digest and len(b.to_zip()) == len(clean.to_zip())


def test_uploads_are_deleted_once_handled_and_report_folders_are_bounded(
    tmp_path: Path,
    records: list,
    uploads: Path,
    monkeypatch: pytest.MonkeyPatch,  # type: ignore[type-arg]
) -> None:
    empty = _upload(uploads, "empty.jsonl", b"\n")
    with pytest.raises(livejudge.UploadError):
        livejudge.judge_upload(empty, records, "rules")
    assert not empty.exists() and not empty.parent.exists()  # refused: deleted at once
    bad = _upload(uploads, "b.zip", b"PK not a zip")
    with pytest.raises(livejudge.UploadError):
        bundles.submit_bundle(bad, records, SqliteBoard(tmp_path / "lb.sqlite"), "rules")
    assert not bad.exists()
    outside = tmp_path / "mine.jsonl"  # a path outside Gradio's upload folder is never touched
    outside.write_bytes(b"\n")
    with pytest.raises(livejudge.UploadError):
        livejudge.judge_upload(outside, records, "rules")
    assert outside.exists()

    monkeypatch.setattr(livejudge, "REPORTS_KEPT", 2)
    good = _upload(uploads, "gold.jsonl", ("\n".join(gold_lines(records)) + "\n").encode())
    made = [livejudge.judge_upload(good, records, "rules").report_path.parent for _ in range(4)]
    assert good.exists()  # a scored upload stays for its submission
    assert [d.exists() for d in made] == [False, False, True, True]
    board = SqliteBoard(tmp_path / "lb2.sqlite")
    with pytest.raises(livejudge.UploadError, match="U\\+200B"):  # refused for its name: kept
        livejudge.submit(good, "\u200b", "", "", records, board, "rules")
    # Gradio keeps uploads by content: the same file may be two requests' upload at once, so a stored
    # one is left to the app's cache clean-up, never deleted under another request
    assert livejudge.submit(good, "gold", "", "", records, board, "rules").startswith("Submitted")
    assert good.exists()
    livejudge.submit(good, "gold-again", "", "", records, board, "rules")  # readable: no UploadError


def test_a_submission_keeps_no_report_folder(
    tmp_path: Path,
    records: list,  # type: ignore[type-arg]
    uploads: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The Space submits in a forked child, whose exit runs no handler: each submission left its report
    folder in the temp folder (50 per run of the concurrency test). A submission offers no report to
    download, so it keeps none; the live judge's report is kept for its download."""
    import tempfile

    reports = tmp_path / "reports"
    reports.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(reports))
    good = _upload(uploads, "gold.jsonl", ("\n".join(gold_lines(records)) + "\n").encode())
    msg = livejudge.submit(good, "gold", "", "", records, SqliteBoard(tmp_path / "lb.sqlite"), "rules")
    assert msg.startswith("Submitted") and not list(reports.iterdir())
    kept = livejudge.judge_upload(good, records, "rules").report_path
    assert kept.is_file() and kept.parent.parent == reports


def test_a_forked_scoring_child_owns_no_report_folder_and_no_held_lock(tmp_path: Path) -> None:
    """The Space scores in forked children. A child forked while a server thread held the report lock
    hung on it until its time ran out, and a child's copy of the kept folders let its own bound delete
    the server's. Now a child starts with a lock and a list of its own."""
    import subprocess

    code = (
        f"import os, signal, tempfile, threading, time; tempfile.tempdir = {str(tmp_path)!r}\n"
        "from plugineval_space import livejudge\n"
        "livejudge.REPORTS_KEPT = 1\n"
        "kept = livejudge.new_report_dir()\n"
        "held = threading.Event()\n"
        "def hold():\n    with livejudge._REPORTS_LOCK:\n        held.set(); time.sleep(3)\n"
        "threading.Thread(target=hold).start(); held.wait()\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    signal.alarm(2)\n"  # a child stuck on the lock dies here
        "    mine = livejudge.new_report_dir()\n"
        "    os._exit(0 if kept.exists() and mine.exists() else 3)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "print(os.waitstatus_to_exitcode(status), kept.exists())\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["0", "True"], out.stdout + out.stderr


def test_report_folders_are_deleted_when_the_process_exits(tmp_path: Path) -> None:
    import subprocess

    code = (
        f"import tempfile, pathlib; tempfile.tempdir = {str(tmp_path)!r}\n"
        "from plugineval_space import livejudge\n"
        "d = livejudge.new_report_dir(); (d / 'report.json').write_text('{}'); print(d)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    made = Path(out.stdout.strip())
    assert made.parent == tmp_path and made.name.startswith("plugineval-report-")
    assert not made.exists() and not list(tmp_path.glob("plugineval-report-*"))


def test_report_folders_are_deleted_when_the_server_is_stopped_by_sigterm(tmp_path: Path) -> None:
    """A Space (and the tests' server) is stopped by SIGTERM, where no exit handler runs: each suite
    run left 55 report folders behind until the Space's launch set ``drop_reports_on_sigterm``. The
    process still ends by the signal."""
    import signal
    import subprocess

    code = (
        f"import tempfile, time; tempfile.tempdir = {str(tmp_path)!r}\n"
        "from plugineval_space import livejudge\n"
        "livejudge.drop_reports_on_sigterm()\n"
        "d = livejudge.new_report_dir(); (d / 'report.json').write_text('{}')\n"
        "import os, signal\n"
        "pid = os.fork()\n"  # a scoring child stopped by SIGTERM leaves the server's folders alone
        "if pid == 0:\n    os.kill(os.getpid(), signal.SIGTERM); time.sleep(60)\n"
        "os.waitpid(pid, 0); assert d.exists()\n"
        "print(d, flush=True)\n"
        "time.sleep(60)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    made = Path(proc.stdout.readline().strip())
    assert made.exists()
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == -signal.SIGTERM
    assert not made.exists() and not list(tmp_path.glob("plugineval-report-*"))


# --- 13: zip errors -----------------------------------------------------------------------------------

MANIFEST_BYTES = b'{"format": "plugineval-submission/1"}'


def _one_member_zip(method: int = zipfile.ZIP_STORED) -> bytes:
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        z.writestr("submission.json", MANIFEST_BYTES)
    return buf.getvalue()


def _patch_headers(data: bytes, local_at: int, central_at: int, value: int) -> bytes:
    """Set a 2-byte field of the local and the central header of the only member."""
    b = bytearray(data)
    lo, ce = b.find(b"PK\x03\x04"), b.find(b"PK\x01\x02")
    b[lo + local_at : lo + local_at + 2] = value.to_bytes(2, "little")
    b[ce + central_at : ce + central_at + 2] = value.to_bytes(2, "little")
    return bytes(b)


@pytest.mark.parametrize(
    ("make", "want"),
    [
        (lambda: _one_member_zip().replace(MANIFEST_BYTES, MANIFEST_BYTES.replace(b"1", b"2")), "CRC-32"),
        (lambda: _patch_headers(_one_member_zip(), 6, 8, 0x1), "encrypted (password-protected)"),
        (lambda: _patch_headers(_one_member_zip(), 8, 10, 99), "compressed with method 99"),
        (lambda: _one_member_zip(zipfile.ZIP_DEFLATED)[:40], "not a readable zip"),
        (lambda: b"PK\x03\x04" + os.urandom(64), "not a readable zip"),
    ],
    ids=["bad-crc", "encrypted", "unsupported-method", "truncated", "garbage"],
)
def test_each_zip_failure_is_one_clear_message(
    make, want: str, tmp_path: Path, records: list, uploads: Path
) -> None:  # type: ignore[no-untyped-def,type-arg]
    data = make()
    with pytest.raises(BundleError) as e:
        load_bundle(data)
    assert len(e.value.problems) == 1 and want in str(e.value.problems[0]), e.value.problems
    up = _upload(uploads, "b.zip", data)
    with pytest.raises(livejudge.UploadError) as u:
        bundles.submit_bundle(up, records, SqliteBoard(tmp_path / "lb.sqlite"), "rules")
    msg = str(u.value)
    assert want in msg and "1 problem;" in msg
    for raw in ("Bad CRC-32 for file", "password required", "That compression method", "Traceback", "Error:"):
        assert raw not in msg
    assert str(uploads) not in msg and "b.zip" in msg  # the upload's own name, never the server's path


# --- 14: messages: exact, and naming no server path ---------------------------------------------------


def test_sizes_are_stated_exactly(tmp_path: Path) -> None:
    limit = 32 * 2**20
    p = tmp_path / "big.jsonl"
    with open(p, "wb") as f:
        f.truncate(limit + 1)  # sparse: nothing is written
    with pytest.raises(livejudge.UploadError) as e:
        livejudge.read_upload(p, limit)
    assert "The upload is 33,554,433 bytes; the limit is 33,554,432 bytes (32 MiB)." in str(e.value)


def test_counts_are_exact_and_no_message_names_a_server_path(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    mini_release: Path,
    records: list,
    uploads: Path,  # type: ignore[type-arg]
) -> None:
    bad = ("\n".join("{not json" for _ in range(300)) + "\n").encode()
    up = _upload(uploads, "bad.jsonl", bad)
    with pytest.raises(livejudge.UploadError) as e:
        livejudge.judge_upload(up, records, "rules")
    msg = str(e.value)
    assert "bad.jsonl: 300 problems, the first 50 shown; nothing was scored." in msg, msg[:300]
    assert msg.count("| not valid JSON") == 50 and str(uploads) not in msg

    folder = _bundle(tmp_path, mini_release, trials=1, predictions=["preds.jsonl"])
    (folder / "preds.jsonl").write_bytes(bad)
    v = validate(folder, records)
    assert v.total == 300 and len(v.problems) == 50
    from plugineval.cli import main

    capsys.readouterr()
    assert main(["submit", "--validate", str(folder), "--records", str(mini_release)]) == 1
    assert "not a valid bundle, 300 problem(s), the first 50 listed:" in capsys.readouterr().err
    up = _upload(uploads, "bundle.zip", _zip(folder, tmp_path / "b.zip").read_bytes())
    with pytest.raises(livejudge.UploadError) as e:
        bundles.submit_bundle(up, records, SqliteBoard(tmp_path / "lb.sqlite"), "rules")
    msg = str(e.value)
    assert "The bundle is not valid: 300 problems, the first 50 shown; nothing was scored." in msg, msg[:300]
    assert str(tmp_path) not in msg and str(uploads) not in msg
    gone = uploads / "gone" / "x.jsonl"
    with pytest.raises(livejudge.UploadError, match=r"x\.jsonl is no longer on the server") as e:
        livejudge.read_upload(gone)
    assert str(uploads) not in str(e.value)


def test_the_report_title_shows_a_model_name_from_the_upload_as_text(
    records: list,  # type: ignore[type-arg]
    uploads: Path,
) -> None:
    lines = [json.dumps({**json.loads(x), "model": PAYLOAD}) for x in gold_lines(records)]
    j = livejudge.judge_upload(
        _upload(uploads, "![t](x).jsonl", ("\n".join(lines) + "\n").encode()), records, "rules"
    )
    assert j.report.meta["model"] == PAYLOAD  # the name the upload's lines give
    md = livejudge.metrics_markdown(j)
    _shows_literally(md, f"PluginEval report — {PAYLOAD}")
    assert ">text</a>" not in _rendered(md)
