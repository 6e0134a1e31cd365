"""The compiled judge (``PLUGINEVAL_COMPILE=1``, mypyc; see setup.py), built and run beside the pure one.

``ensure_compiled()`` builds a wheel of the package with the judge's hot modules compiled, from a copy
of the tracked sources (a working tree's ``build/`` and ``*.egg-info`` stay out of it, and no ``.so``
lands next to a ``.py`` of the source tree), and installs it with ``pip install --no-deps --target``
under ``.cache/bench/compiled-<key>/site``. The key hashes every tracked file of the core
(``loaders/`` without the builder), ``setup.py``, ``pyproject.toml`` and the mypy and Python versions:
the compiled modules are type-checked against the rest of the package, and a stale copy of it would be
timed.

The compiled package cannot share a process with the pure one (both are ``plugineval``), so it runs in
a worker process (``Worker``) that loads the same BFCL oracle pairs and, on request, gives its
verdicts on every pair or times one pass over them (its own clock: the pipe is not timed).
benchmarks/judge_throughput.py --compiled alternates it with BFCL's checker and the pure judge.

    python benchmarks/_compiled_judge.py --build     # build (or find) it and say where
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "bench"
# the core without the builder (loaders/plugineval/builder is not needed to judge)
SOURCES = ("setup.py", "pyproject.toml", "README.md", "loaders", ":(exclude)loaders/plugineval/builder")


def tracked(*paths: str) -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z", *paths], cwd=ROOT, check=True, capture_output=True, text=True
    )
    return [f for f in out.stdout.split("\0") if f and (ROOT / f).is_file()]


def copy_sources(dest: Path) -> None:
    """The tracked files a wheel of the core is built from (``SOURCES``: no builder)."""
    for rel in tracked(*SOURCES):
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, dest / rel)


def source_key() -> str:
    import mypy.version

    h = hashlib.sha256(f"{sys.version}\0mypy {mypy.version.__version__}\0".encode())
    for rel in tracked(*SOURCES):
        h.update(rel.encode() + b"\0" + (ROOT / rel).read_bytes() + b"\0")
    return h.hexdigest()[:12]


def build_wheel(src: Path, out: Path, env: dict[str, str] | None = None, timeout: float = 1200) -> Path:
    """``pip wheel`` of ``src`` with PLUGINEVAL_COMPILE=1 (no build isolation: mypyc comes from this
    environment). A failure raises with the build's last lines."""
    env = os.environ | {"PLUGINEVAL_COMPILE": "1"} | (env or {})
    cmd = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out)]
    r = subprocess.run([*cmd, str(src)], capture_output=True, text=True, env=env, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"compiled build failed:\n{(r.stdout + r.stderr)[-3000:]}")
    (whl,) = out.glob("plugineval-*.whl")
    return whl


def install(wheel: Path, site: Path) -> None:
    cmd = [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)]
    subprocess.run(cmd, check=True, capture_output=True, timeout=300)


def ensure_compiled(cache: Path = CACHE) -> tuple[Path, dict[str, Any]]:
    """The install folder of the compiled package for the current sources, built if it is not there;
    and its build facts (build seconds, key, whether it was reused)."""
    key = source_key()
    home = cache / f"compiled-{key}"
    site, facts_file = home / "site", home / "build.json"
    if facts_file.exists() and site.is_dir():
        return site, json.loads(facts_file.read_text()) | {"reused": True}
    if home.exists():
        shutil.rmtree(home)
    home.mkdir(parents=True)
    print(
        f"  building the compiled judge (PLUGINEVAL_COMPILE=1, key {key}); this takes minutes ...", flush=True
    )
    with tempfile.TemporaryDirectory(prefix="plugineval-compiled-") as tmp:
        src = Path(tmp) / "src"
        copy_sources(src)
        t0 = time.perf_counter()
        whl = build_wheel(src, home)
        seconds = time.perf_counter() - t0
    install(whl, site)
    facts = {"key": key, "build_seconds": round(seconds, 1), "wheel": whl.name, "cpus": os.cpu_count()}
    facts_file.write_text(json.dumps(facts))
    return site, facts | {"reused": False}


def verdict_row(v: Any) -> str:
    """Every field of a RecordVerdict and its ArgVerdicts, as one JSON line (values with their JSON
    types: 1, 1.0 and true differ)."""
    args = [[a.call, a.arg, str(a.reason), a.temporal, a.pred, a.gold, a.detail, a.ok] for a in v.arguments]
    row = [
        v.id,
        str(v.outcome),
        None if v.category is None else str(v.category),
        None if v.subtype is None else str(v.subtype),
        args,
        v.unmatched_gold,
        v.unmatched_pred,
        v.called_target,
        v.asks_for_missing,
        v.detail,
        v.correct,
    ]
    return json.dumps(row, ensure_ascii=False, default=repr)


def bfcl_dir() -> Path:
    return Path(os.environ.get("PLUGINEVAL_BFCL_DIR", ROOT / "tests" / "data" / "bfcl"))


class Worker:
    """The compiled package in a process of its own, driven over a pipe, one JSON line each way."""

    def __init__(self, site: Path) -> None:
        site = site.resolve()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(site)}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=str(site),
        )
        self.info: dict[str, Any] = self._read()
        if not str(self.info["package"]).startswith(str(site)):
            self.close()
            raise SystemExit(f"the worker imported plugineval from {self.info['package']}, not from {site}")

    def _read(self) -> Any:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the compiled judge's worker stopped (exit code {self.proc.wait()})")
        return json.loads(line)

    def ask(self, op: str, **kw: Any) -> Any:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **kw}) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _worker() -> None:
    """Load the BFCL oracle pairs as judge_throughput.side_by_side does, then answer requests."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _bfcl_checker import decode_or_raw, fc_encode
    from judge_throughput import judge_runner

    import plugineval
    import plugineval.judge as J
    from plugineval.adapters.bfcl import bfcl_prediction, load_bfcl, read_oracle

    def send(x: Any) -> None:
        sys.stdout.write(json.dumps(x) + "\n")
        sys.stdout.flush()

    send({"package": plugineval.__file__, "core": J._core.__file__, "compiled": J.COMPILED})
    d = bfcl_dir()
    records = {r.id: r for r in load_bfcl(d)}
    pairs = [p for p in read_oracle(d / "oracle" / "verdicts.jsonl") if p.id in records]
    judge = J.Judge("rules")
    judge.prepare(list(records.values()))
    j1 = judge.judge_one
    work = [(records[p.id], fc_encode(p.prediction)) for p in pairs]
    by: dict[str, list[Any]] = {}
    for p, w in zip(pairs, work, strict=True):
        by.setdefault(p.variant, []).append(w)

    def verdicts(items: list[Any]) -> list[Any]:
        return [j1(r, bfcl_prediction(r, decode_or_raw(raw))) for r, raw in items]

    # the loop judge_throughput times for the pure judge, here over the compiled one's judge_one
    runs = {None: judge_runner(j1, work)} | {v: judge_runner(j1, items) for v, items in by.items()}

    for line in sys.stdin:
        req = json.loads(line)
        op = req["op"]
        if op == "ids":
            send(hashlib.sha256("\n".join(p.id for p in pairs).encode()).hexdigest())
        elif op == "verdicts":
            send([verdict_row(v) for v in verdicts(work)])
        elif op == "gc":
            if req["on"]:
                gc.enable()
                gc.collect()
            else:
                gc.disable()
            send(gc.isenabled())
        elif op == "time":  # one pass over all pairs or one variant's
            run = runs[req.get("variant")]
            if req.get("warm"):
                run()
            t0 = time.perf_counter()
            run()
            send(time.perf_counter() - t0)
        else:
            send({"error": f"unknown op {op}"})


if __name__ == "__main__":
    if "--worker" in sys.argv:
        _worker()
    elif "--build" in sys.argv:
        print(*ensure_compiled(), sep="\n")
    else:
        print(__doc__)
