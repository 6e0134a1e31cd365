"""Helpers of the Space's tests (tests/test_space.py): the Space under test in a background process,
and the predictions files its uploads are made of."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def running_space(
    mini_release: Path, db: Path, upload_limit_mb: float, admin_token: str
) -> Iterator[dict[str, Any]]:
    """`plugineval space` over ``mini_release`` with the SQLite file ``db``, on a free port: yields
    its url, db and process once it answers, and stops it afterwards."""
    import os
    import time
    import urllib.request

    port = free_port()
    env = dict(
        os.environ,
        GRADIO_ANALYTICS_ENABLED="False",
        HF_HUB_OFFLINE="1",
        PLUGINEVAL_SPACE_ADMIN_TOKEN=admin_token,
    )
    cmd = [
        sys.executable,
        "-m",
        "plugineval.cli",
        "space",
        "--records",
        str(mini_release),
        "--port",
        str(port),
        "--db",
        str(db),
        "--judge",
        "rules",
        "--max-upload-mb",
        str(upload_limit_mb),
    ]
    log = open(db.parent / "server.log", "w+")  # noqa: SIM115
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            pytest.fail(f"the Space exited with {proc.returncode}:\n{log.read()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    break
        except OSError:
            time.sleep(0.5)
    else:
        proc.kill()
        pytest.fail("the Space did not answer within 120 s")
    yield {"url": url, "db": db, "proc": proc}
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def frame(value: dict) -> list[dict]:  # type: ignore[type-arg]
    return [dict(zip(value["headers"], row, strict=True)) for row in value["data"]]


def gold_lines(records: list, break_one: str | None = None) -> list[str]:  # type: ignore[type-arg]
    lines = []
    for r in records:
        calls = [c.model_dump() for c in r.gold_calls]
        if r.id == break_one:
            calls = [{"name": calls[0]["name"], "arguments": {**calls[0]["arguments"], "date": "明天"}}]
        lines.append(json.dumps({"id": r.id, "calls": calls}, ensure_ascii=False))
    return lines


def write_lines(tmp_path: Path, name: str, lines: list[str]) -> Path:
    p = tmp_path / name
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return p
