"""Heavy work off the server: scoring runs in a child process, a bounded number at once, each within
a time and a memory budget.

A Gradio event runs a sync function in a worker thread of the server process, but a long scoring
holds the interpreter lock (a regular expression that backtracks does so without a break), so every
other request, ``GET /`` included, waits for it. ``Pool.run`` forks a child for each task (it shares
the loaded records and modules copy-on-write), waits for its answer without holding the lock, and
kills it when the time budget is spent. At most ``workers`` children run at once (and at most
``lanes[lane]`` of one lane, e.g. one bundle at a time); up to ``queue`` more requests wait; past
that a request is answered at once with ``Busy``. Each child's address space is capped at what it
inherited plus ``memory_mb`` (``RLIMIT_AS``), so a task that needs more fails with ``OverMemory``
instead of growing the server.

Settings (environment): ``PLUGINEVAL_SPACE_WORKERS`` (2), ``PLUGINEVAL_SPACE_BUNDLE_WORKERS`` (1),
``PLUGINEVAL_SPACE_QUEUE`` (32), ``PLUGINEVAL_SPACE_TIME_BUDGET`` (seconds, 300),
``PLUGINEVAL_SPACE_WORKER_MEMORY_MB`` (1024). A task that exits, or whose answer cannot be sent back,
is raised as ``Failed`` with a plain message (``FAILED``); its details go to the log only. Where ``fork`` is not available the task runs in the
calling thread (no time or memory budget).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")


class Refused(RuntimeError):
    """The task was not run or not finished; ``str(e)`` is the message for the user."""


class Busy(Refused):
    pass


class OverBudget(Refused):
    pass


class OverMemory(Refused):
    pass


class Failed(Refused):
    """The task stopped in a way its own code does not report (the details are in the server's log)."""


FAILED = (
    "This request could not be completed: the Space ran into an internal error (logged for its "
    "maintainers). Nothing was stored. Try again, or score the file locally with `plugineval evaluate`."
)
log = logging.getLogger(__name__)


def _env(name: str, default: float) -> float:
    try:
        return float(os.environ.get(name, default))
    except ValueError:
        return default


def _vm_size() -> int:
    """This process's virtual size in bytes (0 when unknown)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _child(conn: Any, memory: int, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
    if memory > 0:
        import resource

        here = _vm_size()
        if here:
            resource.setrlimit(resource.RLIMIT_AS, (here + memory, here + memory))
    try:
        out: tuple[str, Any] = ("ok", fn(*args))
    except MemoryError:
        out = ("memory", None)
    except Exception as e:  # sent back and raised in the server's thread
        out = ("err", e)
    except BaseException:  # (SystemExit and the like must not stop the server's thread)
        log.exception("a task in the pool stopped (%s)", getattr(fn, "__name__", "task"))
        out = ("err", Failed(FAILED))
    try:
        conn.send(out)
    except MemoryError:
        conn.send(("memory", None))
    except Exception:  # an answer that cannot be pickled
        log.exception("a task's answer could not be sent back (%s)", getattr(fn, "__name__", "task"))
        conn.send(("err", Failed(FAILED)))
    finally:
        conn.close()


@dataclass
class Pool:
    workers: int = field(default_factory=lambda: max(1, int(_env("PLUGINEVAL_SPACE_WORKERS", 2))))
    queue: int = field(default_factory=lambda: max(0, int(_env("PLUGINEVAL_SPACE_QUEUE", 32))))
    budget: float = field(default_factory=lambda: _env("PLUGINEVAL_SPACE_TIME_BUDGET", 300.0))
    memory_mb: float = field(default_factory=lambda: _env("PLUGINEVAL_SPACE_WORKER_MEMORY_MB", 1024.0))
    lanes: dict[str, int] = field(
        default_factory=lambda: {"bundle": max(1, int(_env("PLUGINEVAL_SPACE_BUNDLE_WORKERS", 1)))}
    )
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _pending: int = field(default=0, repr=False)
    _slots: threading.Semaphore | None = field(default=None, repr=False)
    _lane_slots: dict[str, threading.Semaphore] = field(default_factory=dict, repr=False)
    runs: int = 0
    refused: int = 0

    def _sem(self, lane: str | None) -> list[threading.Semaphore]:
        with self._lock:
            if self._slots is None:
                self._slots = threading.BoundedSemaphore(self.workers)
            out = []
            if lane in self.lanes:
                if lane not in self._lane_slots:
                    self._lane_slots[lane] = threading.BoundedSemaphore(self.lanes[lane])
                out.append(self._lane_slots[lane])
            return [*out, self._slots]

    @property
    def pending(self) -> int:
        return self._pending

    def run(
        self,
        fn: Callable[..., T],
        *args: Any,
        lane: str | None = None,
        budget: float | None = None,
        what: str = "This request",
    ) -> T:
        """``fn(*args)`` in a child process; its result, or its exception raised here. ``Busy`` when
        ``workers + queue`` requests are already in, ``OverBudget`` when it runs (or waits for a slot)
        longer than the budget, ``OverMemory`` when it needs more than the memory budget."""
        budget = self.budget if budget is None else budget
        with self._lock:
            if self._pending >= self.workers + self.queue:
                self.refused += 1
                raise Busy(
                    f"The Space is busy: {self._pending} requests are being scored or waiting (the limit is "
                    f"{self.workers + self.queue}). Try again in a minute."
                )
            self._pending += 1
        held: list[threading.Semaphore] = []
        try:
            deadline = time.monotonic() + budget
            for s in self._sem(lane):
                if not s.acquire(timeout=max(0.0, deadline - time.monotonic())):
                    raise Busy(
                        f"The Space is busy: no scoring slot freed within {budget:.0f} s. Try again later."
                    )
                held.append(s)
            self.runs += 1
            return self._fork(fn, args, budget, what)
        finally:
            for s in reversed(held):
                s.release()
            with self._lock:
                self._pending -= 1

    def _fork(self, fn: Callable[..., T], args: tuple[Any, ...], budget: float, what: str) -> T:
        if "fork" not in multiprocessing.get_all_start_methods():
            return fn(*args)
        ctx = multiprocessing.get_context("fork")
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_child, args=(send, int(self.memory_mb * 2**20), fn, args), daemon=True)
        proc.start()
        send.close()
        try:
            if not recv.poll(budget):
                raise OverBudget(
                    f"{what} took longer than the Space's time budget of {budget:.0f} s and was stopped. "
                    "Score it locally with `plugineval evaluate`."
                )
            try:
                status, payload = recv.recv()
            except EOFError:  # the child died without answering (killed by the system: out of memory)
                status, payload = "memory", None
        finally:
            if proc.is_alive():
                proc.kill()
            proc.join(5)
            recv.close()
        if status == "ok":
            return payload  # type: ignore[no-any-return]
        if status == "memory":
            raise OverMemory(
                f"{what} needs more memory than the Space's budget of {self.memory_mb:.0f} MiB per request "
                "and was stopped. Score it locally with `plugineval evaluate`."
            )
        raise payload
