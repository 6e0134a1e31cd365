"""Run a model (or an offline baseline) over the records and write a resumable predictions file.

Endpoint runs are async: ``concurrency`` workers share one ``plugineval.models.ModelClient`` (role
``model``; the mock provider for ``mock://`` URLs). Its provider retries 429 / 408 / 409 / 5xx /
connection errors and time-outs itself (``max_retries``, exponential back-off, ``Retry-After`` up to
two minutes). What it gives up on, the seam's retry rounds handle: a transient failure the client
stopped retrying (retries spent, or a ``Retry-After`` longer than the client waits) gets
``retry_rounds`` more rounds with longer back-off (honouring ``Retry-After`` up to
``retry_after_cap_s``); a 200 whose body is not a usable completion is retried the same way. When the
rounds are spent the run stops cleanly — nothing is written for that record, everything done stays —
and the same command resumes it. Authentication / permission / not-found errors stop the run at
once. A 400 / 422 for one record (e.g. a prompt too long) becomes that record's line with
``error: "request_failed: …"`` (scored ``invalid_output``) — unless no record has succeeded yet and
five in a row failed so: then the request itself is wrong (a model without tool support?) and the run
stops without writing them.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from .._version import __version__
from ..models.prices import load_prices
from ..schema import Record
from ._baselines import BASELINES, ROUTER_CAVEAT, baseline_info, make_baseline
from ._native import NATIVE_PROMPT, native_line, native_request, prompt_sha256
from ._output import META_FORMAT, TRANSPORT_ERROR, PredictionsWriter, fit_line, read_meta, write_meta
from ._prompted import PROMPTED_PROMPT, prompted_line, prompted_request
from ._support import progress_bar, public_url

BAD_REQUEST_STREAK = 5


@dataclass
class PredictConfig:
    model: str
    out: Path
    records: str | None = None
    split: str = "test"
    config: Literal["default", "calendar"] = "default"
    revision: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    mode: str = "native"  # native | prompted (ignored for baselines)
    concurrency: int = 8
    temperature: float | None = 0.0
    parallel_tool_calls: str = "auto"  # auto (not sent) | true | false
    max_tokens: int | None = None
    rate_limit: float | None = None  # requests per second (token bucket); None: unlimited
    limit: int | None = None  # the first N records by id
    timeout_s: float = 120.0
    max_retries: int = 4  # the openai client's own retries
    retry_rounds: int = 3  # ours, after the client gives up on a transient failure
    retry_backoff_s: float = 10.0
    retry_after_cap_s: float = 600.0
    retry_errors: bool = False
    prices: Path | None = None
    progress: bool | None = None  # None: when stderr is a TTY
    trials: int = 1  # run_trials: K files <stem>.t1<suffix> … (plugineval.trials.trial_paths)
    seed: int | None = None  # sent as the request's `seed`; trial i of run_trials sends seed + i - 1
    noise: float = 0.0  # baselines only: each record's answer replaced by no call with this probability
    trial: tuple[int, int] | None = None  # (i, K): set by run_trials on each trial's config

    @property
    def is_baseline(self) -> bool:
        return self.model.startswith("baseline:")


@dataclass
class RunSummary:
    out: Path
    meta: dict[str, Any]
    written: int
    skipped: int
    remaining: int
    status: str  # complete | incomplete
    message: str | None = None
    notes: list[str] = field(default_factory=list)


class _Fatal(Exception):
    pass


class _Transient(Exception):
    pass


class _Stopped(Exception):
    pass


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def settings_of(cfg: PredictConfig) -> dict[str, Any]:
    """What decides the predictions: a rerun into the same file must use the same settings."""
    if cfg.is_baseline:
        from ..baselines.router import ROUTER_VERSION

        out: dict[str, Any] = {
            "model": cfg.model,
            "mode": "baseline",
            "router_version": ROUTER_VERSION,
            "split": cfg.split,
        }
        if cfg.noise:
            out.update(noise=cfg.noise, seed=cfg.seed or 0)
        return out
    prompt = NATIVE_PROMPT if cfg.mode == "native" else PROMPTED_PROMPT
    settings: dict[str, Any] = {
        "model": cfg.model,
        "mode": cfg.mode,
        "prompt_version": prompt,
        "prompt_sha256": prompt_sha256(prompt),
        "temperature": cfg.temperature,
        "tool_choice": "auto" if cfg.mode == "native" else None,
        "parallel_tool_calls": cfg.parallel_tool_calls if cfg.mode == "native" else None,
        "max_tokens": cfg.max_tokens,
        "split": cfg.split,
    }
    if cfg.seed is not None:  # only then: the sidecars of runs without a seed stay resumable
        settings["seed"] = cfg.seed
    return settings


def _api_key(cfg: PredictConfig) -> str:
    var = cfg.api_key_env or "OPENAI_API_KEY"
    key = os.environ.get(var)
    if key:
        return key
    if cfg.api_key_env:
        raise ValueError(f"--api-key-env {var}: that environment variable is not set")
    if cfg.base_url is None and not os.environ.get("OPENAI_BASE_URL"):
        raise ValueError("no API key: set OPENAI_API_KEY, or name the variable with --api-key-env")
    return "unused"  # a local endpoint that needs none (the client insists on a key)


def model_config(cfg: PredictConfig) -> Any:
    """The ``model`` role's seam config for this run (``plugineval.models.ModelConfig``)."""
    from ..models import ModelConfig

    if cfg.rate_limit is not None and cfg.rate_limit <= 0:
        raise ValueError("--rate-limit must be > 0 requests per second")
    return ModelConfig(
        model=cfg.model,
        base_url=cfg.base_url,
        api_key_env=cfg.api_key_env,
        concurrency=cfg.concurrency,
        rate_limit=cfg.rate_limit,
        timeout_s=cfg.timeout_s,
        max_retries=cfg.max_retries,
        retry_rounds=cfg.retry_rounds,
        retry_backoff_s=cfg.retry_backoff_s,
        retry_after_cap_s=cfg.retry_after_cap_s,
        temperature=cfg.temperature,
        max_tokens=cfg.max_tokens,
        seed=cfg.seed,
    )


class _EndpointRun:
    def __init__(
        self, cfg: PredictConfig, writer: PredictionsWriter, tick: Callable[[dict[str, Any]], None]
    ) -> None:
        self.cfg = cfg
        self.writer = writer
        self.tick = tick
        self.prices = load_prices(cfg.prices)
        self.stop = asyncio.Event()
        self.abort: str | None = None
        self.successes = 0
        self.held: list[dict[str, Any]] = []
        self.model_cfg = model_config(cfg)
        self.retries = 0
        self.outq: asyncio.Queue[list[dict[str, Any]] | None] = asyncio.Queue()

    def _request(self, rec: Record) -> dict[str, Any]:
        """The body without model and sampling settings: the seam adds them from the config."""
        c = self.cfg
        return native_request(rec, c.parallel_tool_calls) if c.mode == "native" else prompted_request(rec)

    async def _sleep(self, seconds: float) -> None:
        try:
            await asyncio.wait_for(self.stop.wait(), seconds)
        except TimeoutError:
            return
        raise _Stopped

    async def _one(self, client: Any, rec: Record) -> dict[str, Any]:
        from ..models import FatalError, RequestRefused, TransientError, UnusableResponse

        try:
            comp = await client.complete(self._request(rec), sleep=self._sleep)
        except FatalError as e:
            raise _Fatal(str(e)) from None
        except RequestRefused as e:  # 400, 413, 422…: this record's request is refused
            return {
                "id": rec.id,
                "calls": [],
                "error": f"{TRANSPORT_ERROR}: {e}",
                "model": self.cfg.model,
                "_bad_request": True,
            }
        except UnusableResponse as e:
            return {
                "id": rec.id,
                "calls": [],
                "error": f"{TRANSPORT_ERROR}: unusable response: {e}",
                "model": self.cfg.model,
            }
        except TransientError as e:
            raise _Transient(str(e)) from None
        return self._line(rec, comp.data, comp.latency_ms, comp.cost_usd)

    def _line(
        self, rec: Record, completion: dict[str, Any], latency_ms: float, cost: float | None
    ) -> dict[str, Any]:
        choice = completion["choices"][0]
        msg = choice["message"]
        body = native_line(msg) if self.cfg.mode == "native" else prompted_line(msg)
        if isinstance(body.get("raw"), dict) and choice.get("finish_reason"):
            body["raw"]["finish_reason"] = choice["finish_reason"]
        line: dict[str, Any] = {"id": rec.id, **body}
        line["model"] = self.cfg.model
        usage = completion.get("usage") if isinstance(completion.get("usage"), dict) else None
        if usage:
            line["usage"] = {k: v for k, v in usage.items() if v is not None}
        line["latency_ms"] = round(latency_ms, 1)
        if cost is not None:  # the seam's accounting: the price table on --model, then the reported model
            line["cost_usd"] = cost
        return fit_line(line)

    def _write(self, line: dict[str, Any]) -> None:
        bad = line.pop("_bad_request", False)
        if bad and self.successes == 0:
            self.held.append(line)
            if len(self.held) >= BAD_REQUEST_STREAK:
                self._abort(f"the first {len(self.held)} requests were all refused: {line['error']}")
            return
        batch = [line]
        if not bad:
            self.successes += 1
            batch, self.held = [*self.held, line], []
        # the writer task appends + fsyncs each line off the event loop; the worker moves on
        self.outq.put_nowait(batch)

    async def _writer_loop(self) -> None:
        done = False
        while not done:
            batch: list[dict[str, Any]] = []
            item = await self.outq.get()
            while True:
                if item is None:
                    done = True
                else:
                    batch += item
                if done or self.outq.empty():
                    break
                item = self.outq.get_nowait()
            if batch:
                try:
                    await asyncio.to_thread(self.writer.append_many, batch)
                except BaseException:
                    self._abort("could not write the predictions file")
                    raise
                for x in batch:
                    self.tick(x)

    def _abort(self, why: str) -> None:
        if self.abort is None:
            self.abort = why
        self.stop.set()

    async def run(self, pending: Sequence[Record]) -> None:
        from ..models import ModelClient

        queue = deque(pending)

        async def worker(client: Any) -> None:
            while queue and not self.stop.is_set():
                rec = queue.popleft()
                try:
                    line = await self._one(client, rec)
                except _Stopped:
                    return
                except _Fatal as e:
                    self._abort(f"the endpoint refused the run: {e}")
                    return
                except _Transient as e:
                    self._abort(f"the endpoint kept failing after every retry: {e}")
                    return
                if not self.stop.is_set() or not line.get("_bad_request"):
                    self._write(line)

        mc = self.model_cfg
        key = None if mc.resolved_provider() == "mock" else _api_key(self.cfg)
        async with ModelClient(mc, role="model", api_key=key, prices=self.prices) as client:
            n = max(1, min(self.cfg.concurrency, len(pending)))
            writer = asyncio.create_task(self._writer_loop())
            try:
                await asyncio.gather(*(worker(client) for _ in range(n)))
            finally:
                self.outq.put_nowait(None)
                await writer
                self.retries = client.usage.retries
        if self.held and self.successes == 0 and self.abort is None:
            self.abort = f"every request was refused: {self.held[0]['error']}"


CONTENT_CALLS_NOTE = (
    "{n} repl(y/ies) without tool_calls carried the calls as <tool_call> tags in the content: read from "
    'the content (raw.calls_from = "content"). The endpoint runs without the tool-call parser of this '
    "model family (vLLM/sglang --tool-call-parser, see docs/predict.md)."
)


def _note_calls_from_content(meta: dict[str, Any]) -> None:
    """One line in the sidecar's ``notes`` saying how many lines' calls came from the content."""
    marker = CONTENT_CALLS_NOTE.split("{n}", 1)[1][:40]
    notes = [n for n in meta.get("notes", []) if marker not in n]
    n = (meta.get("totals") or {}).get("calls_from_content", 0)
    if n:
        notes.append(CONTENT_CALLS_NOTE.format(n=n))
    if notes or "notes" in meta:
        meta["notes"] = notes


def _records(cfg: PredictConfig, records: Sequence[Record] | None) -> tuple[list[Record], list[Record], str]:
    from ..sources import default_source, load_records

    source = cfg.records if cfg.records is not None else default_source()
    every = (
        list(records) if records is not None else load_records(source, cfg.split, cfg.revision, cfg.config)
    )
    every.sort(key=lambda r: r.id)
    chosen = every[: cfg.limit] if cfg.limit is not None else every
    return every, chosen, "<records given>" if records is not None else source


def check_trials(cfg: PredictConfig) -> None:
    """Refuse K > 1 trials that could not differ (docs/predict.md, "Repeated trials")."""
    if cfg.trials < 1:
        raise ValueError(f"--trials must be ≥ 1, got {cfg.trials}")
    if not 0.0 <= cfg.noise < 1.0:
        raise ValueError(f"--noise must be a probability in [0, 1), got {cfg.noise}")
    if cfg.noise and not cfg.is_baseline:
        raise ValueError("--noise is for baselines only: a model's trials differ by --temperature or --seed")
    if cfg.trials == 1:
        return
    if cfg.is_baseline and not cfg.noise:
        raise ValueError(
            f"--trials {cfg.trials}: {cfg.model} is deterministic, its {cfg.trials} trials would be the same "
            "file; add --noise P (each record's answer replaced by no call with probability P, drawn from "
            "--seed, default 0, plus the trial number)"
        )
    if not cfg.is_baseline and cfg.temperature == 0 and cfg.seed is None:
        raise ValueError(
            f"--trials {cfg.trials} at --temperature 0 without --seed would send the same requests "
            f"{cfg.trials} times: sample (e.g. --temperature 0.7) or give --seed N (trial i sends seed "
            "N+i-1, for endpoints that take a seed)"
        )


def run_trials(cfg: PredictConfig, records: Sequence[Record] | None = None) -> list[RunSummary]:
    """``cfg.trials`` runs, one file each (``plugineval.trials.trial_paths``): trial i sends
    ``seed + i - 1`` when a seed is given, else differs by sampling (temperature > 0); a baseline's
    trials differ by their noise seed. The trials run one after another; a trial that stops ends the
    call (its summary is the last), and the same call resumes it. One trial is ``run_predict``."""
    from ..trials import trial_paths

    check_trials(cfg)
    if cfg.trials == 1:
        return [run_predict(cfg, records)]
    every = None if records is None else list(records)
    out: list[RunSummary] = []
    for i, path in enumerate(trial_paths(cfg.out, cfg.trials), 1):
        seed = None if cfg.seed is None else cfg.seed + i - 1
        if cfg.is_baseline:
            seed = (cfg.seed or 0) + i - 1
        one = replace(cfg, out=path, trials=1, seed=seed, trial=(i, cfg.trials))
        s = run_predict(one, every)
        out.append(s)
        if s.message or s.status != "complete":
            break
    return out


def run_predict(cfg: PredictConfig, records: Sequence[Record] | None = None) -> RunSummary:
    """Predict every record (of ``cfg.limit``) not already in ``cfg.out``; see the module docstring."""
    if cfg.is_baseline and cfg.model not in BASELINES:
        raise ValueError(f"unknown baseline {cfg.model!r} (choose from {', '.join(BASELINES)})")
    if cfg.mode not in ("native", "prompted"):
        raise ValueError(f"--mode must be native or prompted, got {cfg.mode!r}")
    if cfg.concurrency < 1:
        raise ValueError("--concurrency must be ≥ 1")
    if cfg.limit is not None and cfg.limit < 1:
        raise ValueError("--limit must be ≥ 1")
    if cfg.trials != 1:
        raise ValueError("run_predict writes one file: run_trials runs --trials K")
    check_trials(cfg)
    out = Path(cfg.out)
    settings = settings_of(cfg)
    old = read_meta(out)
    if old is None and out.exists() and out.stat().st_size > 0:
        raise ValueError(
            f"{out} exists and has no {out.name}.meta.json: not a plugineval predict run; choose another --out"
        )
    if old is not None and old.get("settings") != settings:
        before_s: dict[str, Any] = old.get("settings") or {}
        diff = sorted(k for k in set(settings) | set(before_s) if settings.get(k) != before_s.get(k))
        changes = ", ".join(f"{k}: {before_s.get(k)!r} → {settings.get(k)!r}" for k in diff)
        raise ValueError(
            f"{out} was written with other settings ({changes}); "
            "resuming would mix two runs in one file: choose another --out"
        )
    every, chosen, source = _records(cfg, records)
    if not cfg.is_baseline:
        load_prices(cfg.prices)  # a bad price table fails before any request
    writer = PredictionsWriter(out, {r.id for r in every}, retry_errors=cfg.retry_errors)
    done = writer.done
    pending = [r for r in chosen if r.id not in done]
    notes = []
    if writer.dropped_tail:
        notes.append("dropped an incomplete last line (an interrupted write); that record runs again")
    if writer.dropped_errors:
        notes.append(f"--retry-errors: {writer.dropped_errors} line(s) whose request had failed run again")
    prompt = None if cfg.is_baseline else settings["prompt_version"]
    meta: dict[str, Any] = dict(old or {})
    meta.update(
        format=META_FORMAT,
        plugineval_version=__version__,
        model=cfg.model,
        mode=settings["mode"],
        prompt_version=prompt,
        settings=settings,
        request=None
        if cfg.is_baseline
        else {
            "endpoint": public_url(cfg.base_url or os.environ.get("OPENAI_BASE_URL")),
            "temperature": cfg.temperature,
            "tool_choice": settings["tool_choice"],
            "parallel_tool_calls": settings["parallel_tool_calls"],
            "max_tokens": cfg.max_tokens,
            "seed": cfg.seed,
            "concurrency": cfg.concurrency,
            "rate_limit_rps": cfg.rate_limit,
            "timeout_s": cfg.timeout_s,
            "max_retries": cfg.max_retries,
            "retry_rounds": cfg.retry_rounds,
        },
        records={
            "source": source,
            "split": cfg.split,
            "revision": cfg.revision,
            "dataset_versions": sorted({r.version for r in every}),
            "n_split": len(every),
            "limit": cfg.limit,
            "n_selected": len(chosen),
        },
        status="running",
        updated=_now(),
    )
    if cfg.is_baseline:
        meta["baseline"] = baseline_info(cfg.model)
        if cfg.model == "baseline:router":
            meta["notes"] = [ROUTER_CAVEAT]
    if cfg.trial is not None:
        meta["trial"] = {"index": cfg.trial[0], "of": cfg.trial[1], "seed": settings.get("seed")}
    meta.setdefault("created", meta["updated"])
    runs = list(meta.get("runs", []))
    this_run: dict[str, Any] = {"started": meta["updated"], "pending": len(pending)}
    meta["runs"] = [*runs, this_run]
    write_meta(out, meta)
    tick, close = progress_bar(
        sys.stderr.isatty() if cfg.progress is None else cfg.progress, cfg.model, len(pending)
    )
    before = len(writer.lines)
    message: str | None = None
    try:
        if cfg.is_baseline:
            predict = make_baseline(cfg.model, cfg.noise, cfg.seed or 0)
            for rec in pending:
                t0 = time.perf_counter()
                body = predict(rec)
                line = {"id": rec.id, **body, "model": cfg.model}
                line["latency_ms"] = round((time.perf_counter() - t0) * 1000, 3)
                line["cost_usd"] = 0.0  # offline: no API spend
                writer.append(line)
                tick(line)
        elif pending:
            run = _EndpointRun(cfg, writer, tick)
            asyncio.run(run.run(pending))
            message = run.abort
            this_run["retries"] = run.retries
    finally:
        close()
        writer.finalize()
        remaining = sum(1 for r in chosen if r.id not in writer.lines)
        this_run.update(finished=_now(), written=len(writer.lines) - before)
        meta.update(
            status="complete" if remaining == 0 else "incomplete",
            updated=_now(),
            totals=writer.totals(),
        )
        _note_calls_from_content(meta)
        if message:
            this_run["stopped"] = message
        write_meta(out, meta)
    return RunSummary(
        out=out,
        meta=meta,
        written=len(writer.lines) - before,
        skipped=len(chosen) - len(pending),
        remaining=remaining,
        status=meta["status"],
        message=message,
        notes=notes,
    )
