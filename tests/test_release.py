"""Release: the card, versioned pushes to a local Hub, loading each version back.

Offline, real HTTP: the write path goes to tests/hub_server.py (huggingface_hub's own client against a
server backed by one git repo per Hub repo), the read path through olah serving those git repos
offline. Two mini builds (v1.0.0, v1.1.0 with another seed) are made once for the module."""

from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
import yaml
from hub_server import HubServer

ROOT = Path(__file__).resolve().parents[1]
MINI = ROOT / "tests" / "data" / "mini.toml"
REPO = "plugineval/plugineval-zh"  # the repo the rendered card's code loads from
CONFIGS = {"default", "positives", "negatives", "easy", "medium", "hard", "calendar", "plugins"}


def _cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "plugineval.cli", *args],
        capture_output=True,
        text=True,
        timeout=600,
        env=env or dict(os.environ),
        cwd=cwd,
    )


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _ids(folder: Path, split: str | None = None, pattern: str = "*.parquet") -> dict[str, dict[str, Any]]:
    out = {}
    for f in sorted((folder / "data").glob(f"*/{pattern}")):
        if f.parent.name != "plugins" and (split is None or f.parent.name == split):
            out.update({r["id"]: r for r in pq.read_table(f).to_pylist()})
    return out


@pytest.fixture(scope="module")
def releases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    base = tmp_path_factory.mktemp("releases")
    text = MINI.read_text(encoding="utf-8")
    out: dict[str, Path] = {}
    for version, seed in (("1.0.0", None), ("1.1.0", 8)):
        cfg_text = text.replace('version = "0.0.1"', f'version = "{version}"')
        if seed is not None:
            cfg_text = cfg_text.replace("seed = 7", f"seed = {seed}")
        assert f'version = "{version}"' in cfg_text
        cfg = base / f"mini-{version}.toml"
        cfg.write_text(cfg_text, encoding="utf-8")
        folder = base / f"v{version}"
        res = _cli(
            "build", "--config", str(cfg), "--out", str(folder), "--plugins", "rail_tickets", "--quiet"
        )
        assert res.returncode == 0, res.stderr
        prev = ["--previous", str(out["1.0.0"])] if out else []
        res = _cli("release", "card", str(folder), *prev)
        assert res.returncode == 0, res.stderr
        out[version] = folder
    return out


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Any:
    server = HubServer(tmp_path_factory.mktemp("hub")).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def olah(hub: HubServer, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """olah serving the local Hub's git repos offline: the read path."""
    exe = Path(sys.executable).parent / "olah-cli"
    if not exe.exists():
        pytest.fail("olah is not installed in the venv: pip install 'plugineval[dev]'")
    work = tmp_path_factory.mktemp("olah")
    port = _free_port()
    (work / "olah.toml").write_text(
        f'[basic]\nhost = "127.0.0.1"\nport = {port}\nrepos-path = "{work / "cache"}"\n'
        f'mirrors-path = ["{hub.root}"]\nmirror-netloc = "127.0.0.1:{port}"\n'
        f'mirror-lfs-netloc = "127.0.0.1:{port}"\nmetadata-cache-ttl = 0\n[accessibility]\noffline = true\n',
        encoding="utf-8",
    )
    log = (work / "olah.log").open("w")
    proc = subprocess.Popen([str(exe), "-c", "olah.toml"], cwd=work, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(f"olah exited: {(work / 'olah.log').read_text()[-2000:]}")
            time.sleep(0.2)
    else:
        proc.kill()
        pytest.fail("olah did not start within 60 s")
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=20)
    log.close()


def _env(endpoint: str, home: Path, token: str | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HF_", "HUGGINGFACE_"))}
    env |= {
        "HF_ENDPOINT": endpoint,
        "HF_HOME": str(home),
        "HF_HUB_OFFLINE": "0",
        "HF_HUB_DISABLE_XET": "1",
        "HF_HUB_DISABLE_PROGRESS_BARS": "1",
        "HF_DATASETS_CACHE": str(home / "datasets"),
    }
    if token:
        env["HF_TOKEN"] = token
    return env


@pytest.fixture
def in_process_hub(hub: HubServer, monkeypatch: pytest.MonkeyPatch) -> HubServer:
    """Point this process's huggingface_hub at the local Hub (constants are read at its import)."""
    from huggingface_hub import constants

    monkeypatch.setenv("HF_ENDPOINT", hub.url)
    monkeypatch.setenv("HF_HUB_DISABLE_XET", "1")
    monkeypatch.setenv("HF_TOKEN", hub.token)
    monkeypatch.setattr(constants, "HF_HUB_DISABLE_XET", True)
    return hub


def _git(hub: HubServer, repo: str, *args: str) -> str:
    path = hub.root / "datasets" / repo
    return subprocess.run(["git", *args], cwd=path, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture(scope="module")
def published(
    releases: dict[str, Path], hub: HubServer, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, str]:
    env = _env(hub.url, tmp_path_factory.mktemp("hf-push"), hub.token)
    dry = _cli(
        "release",
        "push",
        "--repo",
        REPO,
        "--release",
        str(releases["1.0.0"]),
        "--dry-run",
        env={**env, "HF_TOKEN": ""},
    )
    assert dry.returncode == 0, dry.stderr
    assert "will be created" in dry.stdout and "tag v1.0.0" in dry.stdout and "data/test/" in dry.stdout
    assert not (hub.root / "datasets" / REPO).exists(), "a dry run must send nothing"
    commits = {}
    for version, folder in releases.items():
        res = _cli("release", "push", "--repo", REPO, "--release", str(folder), env=env)
        assert res.returncode == 0, res.stderr
        commits[version] = _git(hub, REPO, "rev-parse", f"v{version}^{{commit}}")
    return commits


# --- the card --------------------------------------------------------------------------------------


def test_card_body_sections_canary_and_figures(releases: dict[str, Path]) -> None:
    from plugineval.builder.pccf.records import CANARY

    folder = releases["1.0.0"]
    text = (folder / "README.md").read_text(encoding="utf-8")
    for heading in (
        "## Task and label space",
        "## Fields",
        "### By domain",
        "### By kind",
        "### By difficulty",
        "### By scenario",
        "## Construction (PCCF)",
        "## How to load and evaluate",
        "## Limitations",
        "## License and attribution",
        "## Citation",
        "## Canary",
        "## Changelog",
    ):
        assert heading in text, heading
    assert CANARY in text
    assert all(json.loads(r["source"])["canary"] == CANARY for r in _ids(folder).values())
    report = json.loads((folder / "build_report.json").read_text(encoding="utf-8"))
    assert f"candidates {report['totals']['candidates']}, verified {report['totals']['verified']}" in text
    for png in ("figures/difficulty.png", "figures/kinds.png"):
        assert (folder / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f"]({png})" in text
    for col in pq.read_schema(next((folder / "data" / "test").glob("*.parquet"))).names:
        assert f"| `{col}` |" in text, col
    n_test = len(_ids(folder, "test"))
    assert f"test {n_test}" in text


def test_same_build_renders_byte_identical_folder(releases: dict[str, Path], tmp_path: Path) -> None:
    copy = tmp_path / "again"
    shutil.copytree(releases["1.1.0"], copy)
    from plugineval.builder.pccf.card import render_card

    render_card(copy, releases["1.0.0"])
    assert _digest(copy) == _digest(releases["1.1.0"])


def test_changelog_by_record_id(releases: dict[str, Path]) -> None:
    old, new = _ids(releases["1.0.0"]), _ids(releases["1.1.0"])
    log = json.loads((releases["1.1.0"] / "changelog.json").read_text(encoding="utf-8"))
    entry, first = log["entries"]
    assert (entry["version"], entry["previous"], first["version"]) == ("1.1.0", "1.0.0", "1.0.0")
    assert entry["added"] == sorted(set(new) - set(old)) and entry["removed"] == sorted(set(old) - set(new))
    strip = lambda r: {k: v for k, v in r.items() if k != "version"}  # noqa: E731
    assert entry["changed"] == sorted(i for i in set(new) & set(old) if strip(new[i]) != strip(old[i]))
    assert entry["added"] or entry["removed"], "another seed must change the record set"
    text = (releases["1.1.0"] / "README.md").read_text(encoding="utf-8")
    assert "### v1.1.0 (since v1.0.0)" in text and f"- added: {len(entry['added'])}" in text


def test_card_configs_name_existing_files_and_counts_match(releases: dict[str, Path]) -> None:
    for folder in releases.values():
        meta = yaml.safe_load((folder / "README.md").read_text(encoding="utf-8").split("---\n")[1])
        assert {c["config_name"] for c in meta["configs"]} == CONFIGS
        for key in ("license", "language", "task_categories", "size_categories"):
            assert meta[key]
        files = {
            str(f.relative_to(folder)): pq.read_metadata(f).num_rows
            for f in (folder / "data").rglob("*.parquet")
        }
        info = {
            i["config_name"]: {s["name"]: s["num_examples"] for s in i["splits"]}
            for i in meta["dataset_info"]
        }
        for cfg in meta["configs"]:
            for df in cfg["data_files"]:
                globs = df["path"] if isinstance(df["path"], list) else [df["path"]]
                assert all(any(fnmatch.fnmatch(f, g) for f in files) for g in globs), (cfg["config_name"], df)
                n = sum(c for f, c in files.items() if any(fnmatch.fnmatch(f, g) for g in globs))
                assert n == info[cfg["config_name"]][df["split"]], (cfg["config_name"], df["split"])


def test_plain_load_dataset_and_plugineval_load_on_a_folder(releases: dict[str, Path]) -> None:
    from datasets import load_dataset

    import plugineval
    from plugineval.hub import LoadError

    folder = releases["1.0.0"]
    hard = load_dataset(str(folder), "hard", split="test")
    assert set(hard["difficulty"]) == {"hard"} and set(hard["id"]) == set(
        _ids(folder, "test", "*-hard.parquet")
    )
    ds = plugineval.load(split="test", config="negatives", source=folder)
    assert {plugineval.Record.from_row(r).kind for r in ds} <= {"neg_A", "neg_B", "neg_C", "underspecified"}
    assert set(ds["id"]) == {i for i, r in _ids(folder, "test").items() if r["kind"] != "positive"}
    with pytest.raises(LoadError, match=r"unknown config 'nope'.*default"):
        plugineval.load(config="nope", source=folder)
    with pytest.raises(LoadError, match="no split 'dev'"):
        plugineval.load(split="dev", source=folder)


def test_load_records_and_plugineval_load_resolve_a_source_the_same_way(
    releases: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    import plugineval
    from plugineval.hub import LoadError
    from plugineval.sources import SourceNotFound, load_records

    folder = releases["1.0.0"]
    monkeypatch.setenv("HOME", str(folder.parent))
    for source in (folder, f"~/{folder.name}"):
        ids = sorted(r.id for r in load_records(source, "test"))
        assert (
            ids == sorted(plugineval.load(split="test", source=source)["id"]) == sorted(_ids(folder, "test"))
        )
    for load in (lambda s: load_records(s, "test"), lambda s: plugineval.load(source=s)):
        with pytest.raises(SourceNotFound, match="neither a release folder, a JSONL file nor a Hub repo id"):
            load(str(folder / "missing" / "x"))
    assert issubclass(SourceNotFound, FileNotFoundError) and issubclass(SourceNotFound, LoadError)


# --- publishing and loading through the Hub ---------------------------------------------------------


def test_push_tags_each_version_and_removes_stale_files(
    releases: dict[str, Path], hub: HubServer, published: dict[str, str]
) -> None:
    for version, folder in releases.items():
        tree = set(_git(hub, REPO, "ls-tree", "-r", "--name-only", f"v{version}").splitlines())
        assert tree == {*_digest(folder), ".gitattributes"}, version
    assert published["1.0.0"] != published["1.1.0"]
    assert _git(hub, REPO, "rev-parse", "main") == published["1.1.0"]


def _load_script(loads: list[tuple[str, str]]) -> str:
    return (
        "import json, plugineval\n"
        "out = {}\n"
        f"for rev, config in {loads!r}:\n"
        f"    ds = plugineval.load(split='test', config=config, revision=rev, source={REPO!r})\n"
        "    out[rev + '/' + config] = sorted(plugineval.Record.from_row(r).id for r in ds)\n"
        "print(json.dumps(out))\n"
    )


def test_each_revision_loads_its_own_rows_through_olah(
    releases: dict[str, Path], published: dict[str, str], olah: str, tmp_path: Path
) -> None:
    env = _env(olah, tmp_path / "hf", None)
    patterns = {"default": "*.parquet", "hard": "*-hard.parquet"}
    loads = [(f"v{v}", c) for v in releases for c in patterns]
    res = subprocess.run(
        [sys.executable, "-c", _load_script(loads)], capture_output=True, text=True, env=env, timeout=300
    )
    assert res.returncode == 0, res.stderr[-3000:]
    got = json.loads(res.stdout.splitlines()[-1])
    for rev, config in loads:
        assert got[f"{rev}/{config}"] == sorted(_ids(releases[rev[1:]], "test", patterns[config])), (
            rev,
            config,
        )
    assert got["v1.0.0/default"] != got["v1.1.0/default"]
    # pinned and offline: the snapshot of each tag is reused, no server needed
    off = {**env, "HF_HUB_OFFLINE": "1", "HF_ENDPOINT": "http://127.0.0.1:9"}
    res = subprocess.run(
        [sys.executable, "-c", _load_script([("v1.0.0", "default")])],
        capture_output=True,
        text=True,
        env=off,
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert json.loads(res.stdout.splitlines()[-1])["v1.0.0/default"] == sorted(
        _ids(releases["1.0.0"], "test")
    )


def test_card_snippet_runs_against_the_hub(
    releases: dict[str, Path], published: dict[str, str], olah: str, tmp_path: Path
) -> None:
    from plugineval.builder.pccf.card import snippet_of

    code = snippet_of((releases["1.0.0"] / "README.md").read_text(encoding="utf-8"))
    assert f'REPO = "{REPO}"' in code and 'REVISION = "v1.0.0"' in code
    res = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_env(olah, tmp_path / "hf", None),
        timeout=300,
    )
    assert res.returncode == 0, res.stderr[-3000:]
    n = len(_ids(releases["1.0.0"], "test"))
    assert f"{n} test cases," in res.stdout
    assert len((tmp_path / "predictions.jsonl").read_text(encoding="utf-8").splitlines()) == n


def test_existing_tag_is_never_moved(
    releases: dict[str, Path],
    in_process_hub: HubServer,
    published: dict[str, str],
    tmp_path: Path,
) -> None:
    from plugineval.release import push_release

    hub = in_process_hub
    lines: list[str] = []
    same = push_release(releases["1.0.0"], REPO, token=hub.token, out=lines.append)
    assert not same["tagged"] and same["commit"] == published["1.0.0"] and "nothing to do" in lines[-1]
    env = _env(hub.url, tmp_path / "hf", hub.token)
    changed = tmp_path / "changed"
    shutil.copytree(releases["1.0.0"], changed)
    (changed / "README.md").write_text(
        (changed / "README.md").read_text(encoding="utf-8") + "\nedited\n", encoding="utf-8"
    )
    main = _git(hub, REPO, "rev-parse", "main")
    res = _cli("release", "push", "--repo", REPO, "--release", str(changed), env=env)
    assert res.returncode == 2
    assert "v1.0.0" in res.stderr and published["1.0.0"] in res.stderr and "Traceback" not in res.stderr
    assert _git(hub, REPO, "rev-parse", "main") == main
    assert _git(hub, REPO, "rev-parse", "v1.0.0^{commit}") == published["1.0.0"]


def test_token_is_required_except_for_a_dry_run(
    releases: dict[str, Path], hub: HubServer, tmp_path: Path
) -> None:
    env = _env(hub.url, tmp_path / "hf", None)
    res = _cli("release", "push", "--repo", "org/no-token", "--release", str(releases["1.0.0"]), env=env)
    assert res.returncode == 2 and "HF_TOKEN" in res.stderr
    assert not (hub.root / "datasets" / "org" / "no-token").exists()


def test_push_dying_between_commit_and_tag_then_retry(
    releases: dict[str, Path], in_process_hub: HubServer
) -> None:
    from plugineval.release import ReleaseError, push_release

    hub = in_process_hub
    repo, lines = "org/crashy", []
    hub.fail["tag"] = 1
    with pytest.raises(ReleaseError, match=r"creating the tag v1\.0\.0 failed") as err:
        push_release(releases["1.0.0"], repo, out=lines.append)
    head = _git(hub, repo, "rev-parse", "main")
    assert head in str(err.value) and _git(hub, repo, "tag") == ""
    n_commits = _git(hub, repo, "rev-list", "--count", "main")
    res = push_release(releases["1.0.0"], repo, out=lines.append)
    assert res["tagged"] and res["commit"] == head and not (res["add"] or res["update"] or res["delete"])
    assert "upload skipped" in lines[-2]
    assert _git(hub, repo, "rev-parse", "v1.0.0^{commit}") == head
    assert _git(hub, repo, "rev-list", "--count", "main") == n_commits
    # a commit that fails leaves main and the tags as they were
    hub.fail["commit"] = 1
    with pytest.raises(ReleaseError, match="nothing was committed"):
        push_release(releases["1.1.0"], repo, out=lines.append)
    assert _git(hub, repo, "rev-parse", "main") == head and _git(hub, repo, "tag") == "v1.0.0"
    res = push_release(releases["1.1.0"], repo, out=lines.append)
    assert res["tagged"] and _git(hub, repo, "tag").split() == ["v1.0.0", "v1.1.0"]


def test_space_push_ships_a_wheel_named_in_requirements(
    releases: dict[str, Path], hub: HubServer, tmp_path: Path
) -> None:
    space = tmp_path / "space"
    space.mkdir()
    (space / "app.py").write_text("import plugineval\n", encoding="utf-8")
    (space / "requirements.txt").write_text(
        "gradio>=6,<7\nplugineval[space]>=0.1\npandas>=2\n", encoding="utf-8"
    )
    env = _env(hub.url, tmp_path / "hf", hub.token)
    res = _cli(
        "release",
        "push",
        "--repo",
        "org/space-data",
        "--release",
        str(releases["1.0.0"]),
        "--space",
        "org/demo",
        "--space-dir",
        str(space),
        env=env,
        cwd=ROOT,
    )
    assert res.returncode == 0, res.stderr
    path = hub.root / "spaces" / "org" / "demo"
    files = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", "main"], cwd=path, capture_output=True, text=True, check=True
    ).stdout.split()
    wheels = [f for f in files if f.endswith(".whl")]
    assert len(wheels) == 1 and "app.py" in files
    req = subprocess.run(
        ["git", "show", "main:requirements.txt"], cwd=path, capture_output=True, text=True, check=True
    ).stdout
    assert req.splitlines() == ["gradio>=6,<7", f"./{wheels[0]}[space]", "pandas>=2"]
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    msg = subprocess.run(
        ["git", "log", "-1", "--format=%s", "main"], cwd=path, capture_output=True, text=True, check=True
    ).stdout
    assert head[:12] in msg
