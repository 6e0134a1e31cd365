"""Submission bundles: ``plugineval submit --validate`` offline against a release, each problem named
by file and field; a folder and its zip are the same bundle."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from plugineval.cli import main
from plugineval.sources import load_records
from plugineval.submission import load_bundle, validate
from plugineval.trials import trial_paths

MANIFEST = {
    "format": "plugineval-submission/1",
    "model": "always-call-noisy",
    "organisation": "Test Org",
    "link": "https://example.org/m",
    "model_card": "baseline:always-call with seeded noise 0.3, three trials",
    "endpoint_kind": "baseline",
    "trained_on_plugineval": False,
    "predictions": ["preds.t1.jsonl", "preds.t2.jsonl"],
}


def make_bundle(folder: Path, release: Path, trials: int = 2, **manifest: object) -> Path:
    """A valid bundle of ``trials`` noisy always-call trials (``plugineval predict --trials``)."""
    folder.mkdir(parents=True, exist_ok=True)
    argv = ["predict", "--model", "baseline:always-call", "--records", str(release)]
    argv += ["--out", str(folder / "preds.jsonl"), "--trials", str(trials), "--noise", "0.3"]
    assert main(argv) == 0
    names = [p.name for p in trial_paths(folder / "preds.jsonl", trials)]
    m = {**MANIFEST, "predictions": names, **manifest}
    (folder / "submission.json").write_text(json.dumps(m, ensure_ascii=False), encoding="utf-8")
    return folder


def zip_folder(folder: Path, out: Path, top: str = "bundle") -> Path:
    with zipfile.ZipFile(out, "w") as z:
        for f in sorted(folder.iterdir()):
            z.write(f, f"{top}/{f.name}")
    return out


def test_a_valid_bundle_folder_and_its_zip(
    tmp_path: Path, mini_release: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    b = make_bundle(tmp_path / "b", mini_release)
    capsys.readouterr()
    out = tmp_path / "b.zip"
    assert main(["submit", "--validate", str(b), "--records", str(mini_release), "--zip", str(out)]) == 0
    assert "valid — always-call-noisy (baseline), 2 predictions file(s)" in capsys.readouterr().out
    assert load_bundle(out).digest == load_bundle(b).digest == load_bundle(out.read_bytes()).digest
    zipped = zip_folder(b, tmp_path / "hand.zip")  # a zip of the folder, one top folder inside
    assert load_bundle(zipped).digest == load_bundle(b).digest
    assert main(["submit", "--validate", str(zipped), "--records", str(mini_release)]) == 0


def test_problems_name_the_file_and_the_field(
    tmp_path: Path, mini_release: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = load_records(mini_release, "test")
    b = make_bundle(tmp_path / "b", mini_release)
    m = json.loads((b / "submission.json").read_text(encoding="utf-8"))
    del m["model_card"]
    m["recall"] = 1.0  # a score in the bundle: refused, never taken
    m["link"] = "ftp://x"
    (b / "submission.json").write_text(json.dumps(m), encoding="utf-8")
    capsys.readouterr()
    assert main(["submit", "--validate", str(b), "--records", str(mini_release)]) == 1
    err = capsys.readouterr().err
    assert "submission.json: model_card: Field required" in err
    assert "submission.json: recall: Extra inputs are not permitted" in err
    assert "submission.json: link: must start with https://" in err

    b = make_bundle(tmp_path / "c", mini_release)
    t1 = b / "preds.t1.jsonl"
    lines = t1.read_text(encoding="utf-8").splitlines()
    t1.write_text(
        "\n".join([*lines[1:], '{"id": "pe-nope", "calls": []}', "[" * 100]) + "\n", encoding="utf-8"
    )
    meta = json.loads((b / "preds.t2.jsonl.meta.json").read_text(encoding="utf-8"))
    del meta["settings"]
    meta["status"] = "incomplete"
    (b / "preds.t2.jsonl.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    v = validate(b, records)
    got = [str(p) for p in v.problems]
    n = len(lines)
    assert f"preds.t1.jsonl: line {n}: unknown id 'pe-nope'" in got[0]
    assert any(g.startswith(f"preds.t1.jsonl: line {n + 1}: ") and "nested 100 levels" in g for g in got)
    assert "preds.t2.jsonl.meta.json: settings: missing: the settings that decide the predictions" in got
    assert any(g.startswith("preds.t2.jsonl.meta.json: status: 'incomplete'") for g in got)
    t1.write_text("\n".join(lines[1:]) + "\n", encoding="utf-8")
    (b / "preds.t2.jsonl.meta.json").unlink()
    got = [str(p) for p in validate(b, records).problems]
    assert any(g.startswith("preds.t1.jsonl: 1 of") and "have no line" in g for g in got)
    assert "preds.t2.jsonl.meta.json: missing: the sidecar plugineval predict writes" in got
    (b / "submission.json").unlink()
    assert [str(p) for p in validate(b, records).problems] == [
        "submission.json: missing: every bundle has a submission.json manifest"
    ]
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as z:
        z.writestr("../submission.json", "{}")
    assert "climbs out" in str(validate(evil, records).problems[0])
