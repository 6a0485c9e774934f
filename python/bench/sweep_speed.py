"""The same sweep through every executor, timed (docs/PERFORMANCE.md, "Sweeps from Python").

    python python/bench/sweep_speed.py SCENARIO --vary PATH=SPEC --seeds N [--quotasim BIN]
        [--overhead-runs N]

Times the sweep in this process on one core and on every core (rayon), on a
ProcessPoolExecutor, a Dask LocalCluster and Ray with one worker per core, and `quotasim
sweep` itself (--jobs 1 and every core); checks that every executor gives the CLI's lines.
Then the overhead per task: the same executors on a sweep of tiny runs (the AWS
walkthrough), (wall - in-process wall) / runs x workers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import quotalab

ROOT = Path(__file__).resolve().parents[2]


REPEAT = 3


def timed(fn):
    """The fastest of REPEAT calls (this machine's load swings), the slowest, and the output."""
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return (min(times), max(times)), out


def executors(cores: int):
    """(name, setup, teardown): setup returns the executor; its start is not timed."""
    import ray
    from distributed import Client, LocalCluster

    def pool():
        return ProcessPoolExecutor(cores)

    def dask():
        cluster = LocalCluster(
            n_workers=cores, threads_per_worker=1, processes=True, dashboard_address=None
        )
        return Client(cluster)

    def dask_close(c):
        cluster = c.cluster
        c.close()
        cluster.close()

    def ray_start():
        ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
        return "ray"

    return [
        ("ProcessPoolExecutor", pool, lambda p: p.shutdown()),
        ("Dask LocalCluster", dask, dask_close),
        ("Ray", ray_start, lambda _: ray.shutdown()),
    ]


def warm(executor, scenario, vary):
    """One small sweep first: worker processes started, the package imported."""
    quotalab.sweep_lines(scenario, vary, seeds=1, executor=executor, progress=False)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--vary", action="append", default=[])
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--quotasim", default=str(ROOT / "target" / "release" / "quotasim"))
    ap.add_argument("--overhead-runs", type=int, default=2000)
    ap.add_argument("--check", default="all", choices=["all", "first"])
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    vary = dict(v.split("=", 1) for v in args.vary)
    text = Path(args.scenario).read_text()
    rows = []

    cli_args = [args.quotasim, "sweep", args.scenario, "--seeds", str(args.seeds)]
    for v in args.vary:
        cli_args += ["--vary", v]
    for jobs in (1, cores):
        t, p = timed(
            lambda j=jobs: subprocess.run(
                [*cli_args, "--jobs", str(j)], capture_output=True, check=True
            )
        )
        rows.append((f"quotasim sweep --jobs {jobs}", t))
    expected = p.stdout.decode().splitlines()
    runs = len(expected)

    for threads, name in (
        (1, "quotalab, executor=None, threads=1"),
        (0, f"quotalab, executor=None (rayon, {cores} threads)"),
    ):
        t, lines = timed(
            lambda th=threads: quotalab.sweep_lines(
                text, vary, args.seeds, threads=th, progress=False, check=args.check
            )
        )
        assert lines == expected, name
        rows.append((name, t))

    tiny = ROOT / "www" / "presets" / "aws-walkthrough.json"
    tiny_vary = {"jobs[0].work_s": f"1..{args.overhead_runs}:1"}
    (base, _), _ = timed(lambda: quotalab.sweep_lines(tiny, tiny_vary, threads=1, progress=False))
    overhead = [("in process, one core", base / args.overhead_runs, 0.0)]
    for name, start, stop in executors(cores):
        ex = start()
        try:
            warm(ex, text, vary)
            t, lines = timed(
                lambda e=ex: quotalab.sweep_lines(
                    text, vary, args.seeds, executor=e, progress=False, check=args.check
                )
            )
            assert lines == expected, name
            rows.append((f"quotalab, {name} ({cores} workers)", t))
            (tt, _), _ = timed(
                lambda e=ex: quotalab.sweep_lines(tiny, tiny_vary, executor=e, progress=False)
            )
            overhead.append(
                (name, tt / args.overhead_runs, (tt * cores - base) / args.overhead_runs)
            )
        finally:
            stop(ex)

    one = rows[2][1][0]
    print(f"{runs} runs of {args.scenario}, check={args.check!r}, best and worst of {REPEAT}")
    print("| how | wall | per run (best) | speed-up over one core (best) |")
    print("|---|---|---|---|")
    for name, (best, worst) in rows:
        print(
            f"| {name} | {best:.2f}-{worst:.2f} s | {best / runs * 1000:.0f} ms "
            f"| {one / best:.2f}x |"
        )
    print()
    print(f"overhead: {args.overhead_runs} runs of the AWS walkthrough")
    print("| how | wall per run | overhead per task (core-time) |")
    print("|---|---|---|")
    for name, per, over in overhead:
        print(f"| {name} | {per * 1e3:.2f} ms | {over * 1e3:.2f} ms |")


if __name__ == "__main__":
    main()
