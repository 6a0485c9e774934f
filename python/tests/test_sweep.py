"""Sweeps: the CLI's lines, and the same rows whatever runs them (SPEC 15, 17)."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor

import pandas as pd
import pytest
from conftest import ROOT

import quotalab

WALK = ROOT / "www" / "presets" / "aws-walkthrough.json"
RECOVERY = ROOT / "www" / "presets" / "recovery-not-free.json"
# Two paths (a grid), integer and decimal values, seeds that change the draws.
VARY = {"shares[0].borrow_limit": "0..2:1", "jobs[0].work_s": "300..600:150"}
CLI_VARY = ["--vary", "shares[0].borrow_limit=0..2:1", "--vary", "jobs[0].work_s=300..600:150"]
SEEDS = 3


@pytest.fixture(scope="module")
def expected(cli):
    code, out, err = cli("sweep", WALK, *CLI_VARY, "--seeds", SEEDS)
    assert code == 0, err
    return out.splitlines()


@pytest.fixture(scope="module")
def expected_frame(expected):
    return quotalab.sweep(WALK, VARY, seeds=SEEDS, progress=False)


def test_lines_are_the_clis(expected):
    assert len(expected) == 3 * 3 * SEEDS
    assert quotalab.sweep_lines(WALK, VARY, seeds=SEEDS, progress=False) == expected


def test_recovery_draws_over_seeds_are_the_clis(cli):
    code, out, err = cli("sweep", RECOVERY, "--vary", "seed=1..3:1", "--seeds", 4)
    if code != 0:
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.sweep_lines(RECOVERY, {"seed": "1..3:1"}, seeds=4)
        assert str(e.value).splitlines() == [
            line for line in err.splitlines() if line.startswith("error:")
        ]
        return
    lines = quotalab.sweep_lines(RECOVERY, {"seed": [1, 2, 3]}, seeds=4, progress=False)
    assert lines == out.splitlines()


def test_list_values_are_the_ranges(expected):
    lists = {"shares[0].borrow_limit": [0, 1, 2], "jobs[0].work_s": range(300, 601, 150)}
    assert quotalab.sweep_lines(WALK, lists, seeds=SEEDS, progress=False) == expected


def test_decimal_values_are_the_clis(cli):
    code, out, _ = cli("sweep", WALK, "--vary", "jobs[0].work_s=0.5..1.5:0.25")
    assert code == 0
    got = quotalab.sweep_lines(WALK, {"jobs[0].work_s": "0.5..1.5:0.25"}, progress=False)
    assert got == out.splitlines()
    assert (
        quotalab.sweep_lines(WALK, {"jobs[0].work_s": [0.5, 0.75, 1.0, 1.25, 1.5]}, progress=False)
        == out.splitlines()
    )


def test_columns_are_json_normalize_of_the_lines(expected, expected_frame):
    want = pd.json_normalize([json.loads(line) for line in expected])
    assert sorted(expected_frame.columns) == sorted(want.columns)
    pd.testing.assert_frame_equal(expected_frame[want.columns], want)
    cols = list(expected_frame.columns)
    assert cols[:3] == ["values.shares[0].borrow_limit", "values.jobs[0].work_s", "seed"]
    assert "shares.background.completion_s.p90" in cols
    assert "totals.goodput" in cols
    # The CLI's order: the first path slowest, then the second, then the seeds.
    assert len(set(expected_frame["seed"][:SEEDS])) == SEEDS
    assert list(expected_frame["values.shares[0].borrow_limit"]) == [
        v for v in (0, 1, 2) for _ in range(3 * SEEDS)
    ]


def test_one_thread_gives_the_same_rows(expected):
    assert quotalab.sweep_lines(WALK, VARY, seeds=SEEDS, threads=1, progress=False) == expected


def test_a_thread_pool_gives_the_same_rows(expected_frame):
    with ThreadPoolExecutor(2) as pool:
        df = quotalab.sweep(WALK, VARY, seeds=SEEDS, executor=pool, progress=False)
    pd.testing.assert_frame_equal(df, expected_frame)


def test_a_process_pool_gives_the_same_rows(expected_frame):
    with ProcessPoolExecutor(2) as pool:
        df = quotalab.sweep(WALK, VARY, seeds=SEEDS, executor=pool, progress=False)
    pd.testing.assert_frame_equal(df, expected_frame)


def test_a_dask_cluster_gives_the_same_rows(expected_frame):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        df = quotalab.sweep(WALK, VARY, seeds=SEEDS, executor=client, progress=False)
    pd.testing.assert_frame_equal(df, expected_frame)


def test_ray_gives_the_same_rows(expected_frame):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        df = quotalab.sweep(WALK, VARY, seeds=SEEDS, executor="ray", progress=False)
    finally:
        ray.shutdown()
    pd.testing.assert_frame_equal(df, expected_frame)


def test_a_small_window_keeps_the_order(expected):
    with ThreadPoolExecutor(2) as pool:
        lines = quotalab.sweep_lines(
            WALK, VARY, seeds=SEEDS, executor=pool, progress=False, max_pending=2
        )
    assert lines == expected


def test_progress_falls_back_to_a_line(capsys, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_tqdm(name, *args, **kwargs):
        if name.startswith("tqdm"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tqdm)
    quotalab.sweep_lines(WALK, {"shares[0].borrow_limit": "0..1:1"}, progress=True)
    err = capsys.readouterr().err
    assert "sweep 2/2 runs" in err


# --- refusals: the CLI's errors ----------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "spec"),
    [
        ("shares[0].borow_limit", "0..2:1"),  # misspelt
        ("shares[9].borrow_limit", "0..2:1"),  # no such share
        ("shares[0].borrow_limit", "2..0:1"),  # TO < FROM
        ("shares[0].borrow_limit", "0..2:0"),  # STEP 0
        ("shares[0].borrow_limit", "a..2:1"),  # not a number
        ("shares[0].borrow_limit", "-5..-1:1"),  # refused by the validator
        ("shares[0].borrow_limit", "0..1e9:1"),  # too many values
        ("shares[0]", "0..1:1"),  # replaces a share with a number
    ],
)
def test_bad_varies_are_the_clis_errors(cli, path, spec):
    code, out, err = cli("sweep", WALK, "--vary", f"{path}={spec}")
    assert code == 2
    assert out == ""
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.sweep(WALK, {path: spec}, progress=False)
    assert str(e.value).splitlines() == [
        line for line in err.splitlines() if line.startswith("error:")
    ]
    assert e.value.problems


def test_a_path_varied_twice_and_empty_values_are_refused():
    with pytest.raises(quotalab.ScenarioError, match="has no values"):
        quotalab.sweep(WALK, {"shares[0].borrow_limit": []})
    with pytest.raises(quotalab.ScenarioError, match=r"not a JSON value|Out of range"):
        quotalab.sweep(WALK, {"shares[0].borrow_limit": [float("nan")]})


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError):
        quotalab.sweep(WALK, vary=[("shares[0].borrow_limit", [1])])
    with pytest.raises(TypeError):
        quotalab.sweep(WALK, vary={"shares[0].borrow_limit": 5})
    with pytest.raises(TypeError):
        quotalab.sweep(WALK, seeds="3")
    with pytest.raises(TypeError):
        quotalab.sweep(WALK, executor=object())
    with pytest.raises(ValueError, match="executor"):
        quotalab.sweep(WALK, executor="spark")
    with pytest.raises(quotalab.ScenarioError, match="--seeds"):
        quotalab.sweep(WALK, seeds=0)


def test_checking_only_the_first_run_gives_the_same_rows(expected_frame):
    with ThreadPoolExecutor(2) as pool:
        df = quotalab.sweep(WALK, VARY, seeds=SEEDS, executor=pool, progress=False, check="first")
    pd.testing.assert_frame_equal(df, expected_frame)


def test_with_check_first_an_invalid_run_still_raises_its_errors(cli):
    # The first value is valid, the third is not: the run that meets it refuses, naming it.
    vary = {"shares[0].borrow_limit": [0, 1, -7]}
    code, _, err = cli("sweep", WALK, "--vary", "shares[0].borrow_limit=-7..-7:1")
    assert code == 2
    with ProcessPoolExecutor(2) as pool, pytest.raises(quotalab.ScenarioError) as e:
        quotalab.sweep(WALK, vary, executor=pool, progress=False, check="first")
    assert str(e.value).splitlines() == [
        line for line in err.splitlines() if line.startswith("error:")
    ]
    with pytest.raises(ValueError, match="check"):
        quotalab.sweep(WALK, check="some")
