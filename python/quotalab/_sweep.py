"""Sweeps (SPEC 15 and 17): every value of ``vary`` times every seed, one run per task, on
this machine's cores or on any executor (``concurrent.futures``, Dask, Ray).

The plan (the scenario text, the values, the seeds) is built and every variant validated on
the driver, exactly as ``quotasim sweep`` does, before anything runs. Each task is one run
index; a worker turns the plan into the engine's ``Sweep`` once (cached by the plan's
digest) and returns the run's JSON line, the CLI's bytes. Lines are put back in run order
(value index, then seed), so the rows are the same whatever runs them.

How the scenario reaches the workers, once per worker:

- ``executor=None``: no copy; runs on every core with rayon (``threads`` to limit them).
- Dask ``distributed.Client``: ``client.scatter(plan, broadcast=True)``, then tasks that
  take the scattered future (each worker holds one copy).
- ``"ray"``: ``ray.put(text)`` once (one copy per node, in the object store); each task
  carries only the reference, and each worker process fetches the text on its first task.
- ``concurrent.futures.ThreadPoolExecutor``: the one plan object, shared (runs release the
  GIL).
- ``concurrent.futures.ProcessPoolExecutor``: the scenario is written once to a temporary
  file; each task carries only its path and digest, and each worker process reads it once.
- Any other ``concurrent.futures.Executor`` (one that may run elsewhere): the plan is
  pickled with each task (its text), and each worker parses it once.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
import threading
import time
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
)
from concurrent.futures import wait as futures_wait
from typing import Any, Callable, Optional, Union

import pandas as pd

from . import _quotalab
from ._errors import ScenarioError
from ._input import Source, _engine, text_of, warn

__all__ = ["sweep", "sweep_lines"]

Values = Union[str, Iterable[Any]]
"""The values of one path: ``"FROM..TO:STEP"`` (as ``--vary PATH=FROM..TO:STEP``) or any
iterable of JSON values (a list, a ``range``, a NumPy array)."""


def _values_spec(path: str, values: Values) -> str:
    if isinstance(values, str):
        return values
    if hasattr(values, "tolist"):
        values = values.tolist()
    try:
        items = list(values)
    except TypeError:
        raise TypeError(
            f"vary[{path!r}] must be 'FROM..TO:STEP' or a list of values, "
            f"not {type(values).__name__}"
        ) from None

    def plain(o: Any) -> Any:
        if hasattr(o, "item"):
            return o.item()
        raise TypeError(f"vary[{path!r}]: {o!r} is not a JSON value")

    try:
        return json.dumps(items, default=plain, allow_nan=False)
    except ValueError as e:
        msg = f"vary[{path!r}]: {e}"
        raise ScenarioError([(path, msg, f"{path}: {msg}")]) from None


# --- the plan, as shipped to workers ---------------------------------------------------

_CACHE: OrderedDict[str, Any] = OrderedDict()
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 4


def _native(key: str, make: Callable[[], Any]) -> Any:
    """The engine's plan for ``key``, built at most once per process (a few kept)."""
    with _CACHE_LOCK:
        plan = _CACHE.get(key)
        if plan is not None:
            _CACHE.move_to_end(key)
            return plan
    plan = _engine(make)
    with _CACHE_LOCK:
        _CACHE[key] = plan
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return plan


class Plan:
    """A sweep's plan: the scenario text, the varies and the seeds, and its digest. Pickles
    as its text (parsed once per process on the other side)."""

    def __init__(
        self, text: str, varies: Sequence[tuple[str, str]], seeds: int, key: Optional[str] = None
    ) -> None:
        self.text = text
        self.varies = [tuple(v) for v in varies]
        self.seeds = seeds
        if key is None:
            h = hashlib.sha256(text.encode("utf-8"))
            h.update(json.dumps([self.varies, seeds]).encode("utf-8"))
            key = h.hexdigest()
        self.key = key

    def native(self) -> Any:
        return _native(self.key, lambda: _quotalab.Plan(self.text, self.varies, self.seeds))

    def __reduce__(self):
        return (Plan, (self.text, self.varies, self.seeds, self.key))


class FilePlan:
    """A plan whose text waits in a file on this machine (process pools): a task carries
    only the path and the digest."""

    def __init__(self, path: str, varies: Sequence[tuple[str, str]], seeds: int, key: str) -> None:
        self.path, self.varies, self.seeds, self.key = path, list(varies), seeds, key

    def native(self) -> Any:
        def make() -> Any:
            with open(self.path, encoding="utf-8") as f:
                text = f.read()
            return _quotalab.Plan(text, self.varies, self.seeds)

        return _native(self.key, make)


class RefPlan:
    """Ray: the text waits in the object store (``ray.put``, once per node); a task carries
    only its reference, and a worker process fetches it on its first task."""

    def __init__(self, ref: Any, varies: Sequence[tuple[str, str]], seeds: int, key: str) -> None:
        self.ref, self.varies, self.seeds, self.key = ref, list(varies), seeds, key

    def native(self) -> Any:
        def make() -> Any:
            import ray

            return _quotalab.Plan(ray.get(self.ref), self.varies, self.seeds)

        return _native(self.key, make)


def _run_one(plan: Union[Plan, FilePlan, RefPlan], r: int) -> tuple[int, str]:
    """One task: run ``r`` of the plan; ``(r, line)``."""
    native = plan.native()
    return r, _engine(native.run, r)


# --- progress ----------------------------------------------------------------------------


class _Progress:
    """tqdm.auto (a widget in notebooks, a bar in terminals) when installed, else one
    updating line on stderr; nothing when off."""

    def __init__(self, total: int, show: Optional[bool]) -> None:
        self.total, self.done, self.bar, self.line = total, 0, None, False
        if show is None:
            show = total > 1 and (_in_notebook() or _isatty(sys.stderr))
        if not show:
            return
        try:
            with warnings.catch_warnings():
                # Without ipywidgets, tqdm.auto warns and draws a text bar: that is enough.
                warnings.simplefilter("ignore")
                from tqdm.auto import tqdm
        except ImportError:
            self.line, self.start, self.last = True, time.monotonic(), 0.0
            return
        self.bar = tqdm(total=total, desc="sweep", unit="run")

    def update(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.line:
            now = time.monotonic()
            if now - self.last >= 0.2 or self.done == self.total:
                self.last = now
                sys.stderr.write(f"\rsweep {self.done}/{self.total} runs, {now - self.start:.0f}s")
                sys.stderr.flush()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
        elif self.line:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _isatty(f: Any) -> bool:
    try:
        return bool(f.isatty())
    except (AttributeError, ValueError):
        return False


def _in_notebook() -> bool:
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except AttributeError:
        return False
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


# --- executors ---------------------------------------------------------------------------


def _is_dask(executor: Any) -> bool:
    return type(executor).__module__.split(".")[0] == "distributed" and hasattr(executor, "scatter")


def _stream(
    runs: int,
    submit: Callable[[int], Any],
    wait_some: Callable[[list[Any]], tuple[list[Any], list[Any]]],
    result: Callable[[Any], tuple[int, str]],
    cancel: Callable[[list[Any]], None],
    progress: _Progress,
    max_pending: int,
) -> list[str]:
    """Keeps at most ``max_pending`` tasks in flight; collects each line as it finishes."""
    lines: list[Optional[str]] = [None] * runs
    pending: list[Any] = []
    nxt = 0
    try:
        while nxt < runs or pending:
            while nxt < runs and len(pending) < max_pending:
                pending.append(submit(nxt))
                nxt += 1
            done, pending = wait_some(pending)
            for d in done:
                r, line = result(d)
                lines[r] = line
            progress.update(len(done))
    except BaseException:
        cancel(pending)
        raise
    return lines  # type: ignore[return-value]


def _futures(
    executor: Executor, plan: Plan, runs: int, progress: _Progress, max_pending: int
) -> list[str]:
    tmp = None
    shipped: Union[Plan, FilePlan] = plan
    if isinstance(executor, ProcessPoolExecutor):
        fd, tmp = tempfile.mkstemp(prefix="quotalab-sweep-", suffix=".json")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(plan.text)
        shipped = FilePlan(tmp, plan.varies, plan.seeds, plan.key)
    elif isinstance(executor, ThreadPoolExecutor):
        plan.native()  # built here once; the threads share it

    def wait_some(pending: list[Any]) -> tuple[list[Any], list[Any]]:
        done, rest = futures_wait(pending, return_when=FIRST_COMPLETED)
        return list(done), list(rest)

    def cancel(pending: list[Any]) -> None:
        for f in pending:
            f.cancel()

    try:
        return _stream(
            runs,
            lambda r: executor.submit(_run_one, shipped, r),
            wait_some,
            lambda f: f.result(),
            cancel,
            progress,
            max_pending,
        )
    finally:
        if tmp is not None:
            os.unlink(tmp)


def _dask(client: Any, plan: Plan, runs: int, progress: _Progress, max_pending: int) -> list[str]:
    from distributed import wait as dask_wait

    scattered = client.scatter(plan, broadcast=True, hash=False)

    def submit(r: int) -> Any:
        return client.submit(
            _run_one, scattered, r, pure=False, key=f"quotalab-run-{plan.key[:16]}-{r}"
        )

    def wait_some(pending: list[Any]) -> tuple[list[Any], list[Any]]:
        done, rest = dask_wait(pending, return_when="FIRST_COMPLETED")
        return list(done), list(rest)

    def result(f: Any) -> tuple[int, str]:
        out = f.result()
        f.release()
        return out

    def cancel(pending: list[Any]) -> None:
        if pending:
            client.cancel(pending)

    try:
        return _stream(runs, submit, wait_some, result, cancel, progress, max_pending)
    finally:
        client.cancel([scattered])


def _ray(plan: Plan, runs: int, progress: _Progress, max_pending: int) -> list[str]:
    import ray

    if not ray.is_initialized():
        ray.init()
    shipped = RefPlan(ray.put(plan.text), plan.varies, plan.seeds, plan.key)
    remote = ray.remote(num_cpus=1)(_run_one)

    def wait_some(pending: list[Any]) -> tuple[list[Any], list[Any]]:
        done, rest = ray.wait(pending, num_returns=1)
        if rest:
            more, rest = ray.wait(rest, num_returns=len(rest), timeout=0)
            done += more
        return done, rest

    def cancel(pending: list[Any]) -> None:
        for p in pending:
            ray.cancel(p)

    return _stream(
        runs, lambda r: remote.remote(shipped, r), wait_some, ray.get, cancel, progress, max_pending
    )


def _local(plan: Plan, runs: int, progress: _Progress, threads: int) -> list[str]:
    native = plan.native()
    chunk = _quotalab.Plan.chunk_len(threads)
    lines: list[str] = []
    for start in range(0, runs, chunk):
        lines += _engine(native.run_range, start, min(start + chunk, runs), threads)
        progress.update(min(chunk, runs - start))
    return lines


# --- the public functions ----------------------------------------------------------------


def sweep_lines(
    scenario: Source,
    vary: Optional[Mapping[str, Values]] = None,
    seeds: int = 1,
    executor: Union[str, Executor, Any, None] = None,
    *,
    progress: Optional[bool] = None,
    threads: int = 0,
    max_pending: int = 10_000,
    check: str = "all",
) -> list[str]:
    """The JSON lines of ``quotasim sweep FILE --vary PATH=... --seeds N``, byte for byte
    (without newlines), in the CLI's order. Arguments as for `sweep`."""
    if isinstance(seeds, bool) or not isinstance(seeds, int):
        raise TypeError(f"seeds must be an int, not {type(seeds).__name__}")
    if not 1 <= seeds <= 1_000_000:
        msg = f"--seeds must be from 1 to 1000000 (got {seeds})"
        raise ScenarioError([("", msg, msg)])
    if vary is None:
        vary = {}
    if not isinstance(vary, Mapping):
        raise TypeError(f"vary must be a dict {{PATH: values}}, not {type(vary).__name__}")
    varies = []
    for path, values in vary.items():
        if not isinstance(path, str):
            raise TypeError(f"a vary path must be a str, not {type(path).__name__}")
        varies.append((path, _values_spec(path, values)))
    if max_pending < 1:
        raise ValueError("max_pending must be at least 1")
    plan = Plan(text_of(scenario), varies, seeds)
    native = plan.native()
    if check == "all":
        warn(_engine(native.check, threads))
    elif check == "first":
        warn(_engine(native.check_run, 0))
    else:
        raise ValueError(f'check must be "all" or "first", not {check!r}')
    runs = native.runs()
    bar = _Progress(runs, progress)
    try:
        if executor is None:
            return _local(plan, runs, bar, threads)
        if isinstance(executor, str):
            if executor != "ray":
                raise ValueError(
                    f'executor must be None, "ray", a concurrent.futures '
                    f"Executor or a Dask Client, not {executor!r}"
                )
            return _ray(plan, runs, bar, max_pending)
        if _is_dask(executor):
            return _dask(executor, plan, runs, bar, max_pending)
        if isinstance(executor, Executor):
            return _futures(executor, plan, runs, bar, max_pending)
        raise TypeError(
            f'executor must be None, "ray", a concurrent.futures Executor or a '
            f"Dask Client, not {type(executor).__name__}"
        )
    finally:
        bar.close()


def sweep(
    scenario: Source,
    vary: Optional[Mapping[str, Values]] = None,
    seeds: int = 1,
    executor: Union[str, Executor, Any, None] = None,
    *,
    progress: Optional[bool] = None,
    threads: int = 0,
    max_pending: int = 10_000,
    check: str = "all",
) -> pd.DataFrame:
    """Runs a scenario for every combination of values and every seed (SPEC 15).

    ``vary``: ``{PATH: values}``, PATH a validation path (``shares[0].borrow_limit``,
    ``shares[1].limits.ml.g5.xlarge``), values ``"FROM..TO:STEP"`` or a list; the first
    path varies slowest. ``seeds``: runs per combination, with the scenario's seed,
    seed+1, ... Every variant is validated first (`ScenarioError` naming the path and the
    values); nothing runs unless all are valid.

    ``executor``: ``None`` (this process, every core, or ``threads``), any
    ``concurrent.futures.Executor``, a Dask ``distributed.Client``, or ``"ray"`` (the
    connected Ray cluster; ``ray.init()`` when there is none). One task per run; the
    scenario is shipped once per worker; lines stream back as runs finish, with a progress
    bar (``progress``: ``None`` shows it in notebooks and terminals). At most
    ``max_pending`` tasks are in flight.

    ``check``: ``"all"`` (the CLI's: every variant validated on this machine before
    anything runs) or ``"first"`` (only the first run here; each run is validated anyway
    by the task that simulates it, and the first invalid one raises its `ScenarioError`
    and cancels the rest). A valid sweep gives the same rows either way; ``"first"`` saves
    the driver a validation per run (a third of a Philly run), which matters on a cluster.

    Returns one row per run, in the CLI's order whatever the executor: the columns are
    ``pandas.json_normalize`` of the CLI's lines (``values.PATH``, ``seed``,
    ``shares.NAME.METRIC``, ``totals.METRIC``).
    """
    lines = sweep_lines(
        scenario,
        vary,
        seeds,
        executor,
        progress=progress,
        threads=threads,
        max_pending=max_pending,
        check=check,
    )
    frame = pd.json_normalize([json.loads(line) for line in lines])
    # The lines' own order: values, seed, shares, totals (json_normalize puts scalars first).
    first = [c for c in frame.columns if c.startswith("values.")]
    return frame[first + [c for c in frame.columns if c not in first]]
