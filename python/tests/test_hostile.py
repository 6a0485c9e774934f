"""Hostile input, as for the CLI: refused with the CLI's words, never a crash or a hang."""

from __future__ import annotations

import json
import threading
import time
import warnings

import pytest
from conftest import ROOT

import quotalab

WALK = ROOT / "www" / "presets" / "aws-walkthrough.json"
PHILLY = ROOT / "www" / "presets" / "philly-sample.json"


def errors_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


@pytest.mark.parametrize(
    "text",
    [
        "{",
        "{}",
        "[]",
        "[1, 2]",
        '{"format": "quotalab/v1"}',
        '{"format": "quotalab/v1", "shares": "many"}',
        '{"format": "quotalab/v1", "shares": [{"name": []}], "jobs": {}}',
        '{"a": 1}\n{"b": 2}',
        "[" * 100_000,
        '{"x":' * 10_000 + "1" + "}" * 10_000,
        '{"format": "quotalab/v1", "shares": [], "seed": 1e999}',
        '{"name": "\\ud800"}',
    ],
    ids=range(12),
)
def test_bad_scenarios_are_the_clis_errors(cli, text):
    code, _, err = cli("run", "-", stdin=text)
    assert code == 2
    for fn in (quotalab.run, quotalab.validate, quotalab.compare):
        with pytest.raises(quotalab.ScenarioError) as e:
            fn(text)
        assert str(e.value).splitlines() == errors_of(err)


def test_nine_mebibytes_are_refused_as_by_the_cli(cli, tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text("# padding\n" * (900 * 1024))
    assert big.stat().st_size > quotalab.MAX_FILE_BYTES
    code, _, err = cli("import", "kueue", big)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_config(big, "kueue")
    assert str(e.value).splitlines() == errors_of(err)
    # As text, the engine's own bound.
    with pytest.raises(quotalab.ScenarioError, match="8 MiB"):
        quotalab.import_config(big.read_text(), "kueue")
    code, _, err = cli("export", "kueue", big)
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.export_config(big, "kueue")
    assert str(e.value).splitlines() == errors_of(err)


def test_an_8_mib_scenario_is_refused_as_by_the_cli(cli):
    pad = "x" * (8 * 1024 * 1024)
    junk = '{"format": "quotalab/v1", "description": "' + pad + '", "shares": 1}'
    code, _, err = cli("run", "-", stdin=junk)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.run(junk)
    assert str(e.value).splitlines() == errors_of(err)


def test_not_utf8_is_refused_as_by_the_cli(cli, tmp_path):
    f = tmp_path / "latin1.yaml"
    f.write_bytes(b"kind: ClusterQueue\nname: caf\xe9\n")
    code, _, err = cli("import", "kueue", f)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_config(f, "kueue")
    assert str(e.value).splitlines() == errors_of(err)
    with pytest.raises(quotalab.ScenarioError, match="UTF-8"):
        quotalab.run(b"\xff\xfe{}")


def test_bad_yaml_is_the_clis_errors(cli):
    for text in ["a: &a [*a, *a]\nb: *a\n", "- " * 5000 + "x\n", "kind: ClusterQueue\n\tbad"]:
        code, _, err = cli("import", "kueue", "-", stdin=text)
        assert code == 2
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.import_config(text + "\n", "kueue")
        assert str(e.value).splitlines() == errors_of(err)


def test_wrong_types_are_type_errors():
    for bad in (42, 4.2, None, ["a.json"], object()):
        with pytest.raises(TypeError):
            quotalab.run(bad)
    with pytest.raises(ValueError, match="format"):
        quotalab.export_config(WALK, "yaml")
    with pytest.raises(ValueError, match="format"):
        quotalab.import_config(WALK, "json")


def test_dicts_that_are_not_json_are_refused():
    deep: dict = {}
    d = deep
    for _ in range(100_000):
        d["x"] = {}
        d = d["x"]
    with pytest.raises(quotalab.ScenarioError, match="nested too deeply"):
        quotalab.run(deep)
    with pytest.raises(quotalab.ScenarioError, match="not JSON"):
        quotalab.run({"format": "quotalab/v1", "seed": float("nan")})
    with pytest.raises(quotalab.ScenarioError, match="not JSON"):
        quotalab.run({"format": "quotalab/v1", "shares": {1, 2}})


def test_a_deep_dict_within_limits_is_the_engines_refusal(cli):
    doc = json.loads(WALK.read_text())
    d = doc
    for _ in range(200):
        d["extra"] = {}
        d = d["extra"]
    code, _, err = cli("run", "-", stdin=json.dumps(doc))
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.run(doc)
    assert code == 2
    assert str(e.value).splitlines() == errors_of(err)


def test_errors_pickle_with_their_problems():
    import pickle

    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.run("{}")
    again = pickle.loads(pickle.dumps(e.value))
    assert again.problems == e.value.problems
    assert str(again) == str(e.value)


def test_a_run_releases_the_gil():
    # While another thread simulates, this one keeps running Python.
    done = threading.Event()
    ticks = 0

    def work():
        # Runs until at least 0.2 s of simulating have passed, however fast the machine:
        # the comparison below needs several switch intervals to mean anything.
        begun = time.monotonic()
        while time.monotonic() - begun < 0.2:
            quotalab.run(PHILLY)
        done.set()

    t = threading.Thread(target=work)
    start = time.monotonic()
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    elapsed = time.monotonic() - start
    assert elapsed >= 0.2
    # Holding the GIL would leave this loop a few switch intervals (5 ms each) at most.
    assert ticks > 10 * (elapsed / 0.005)


def test_a_review_releases_the_gil():
    # Each seed's two runs go to the cores without the GIL: this thread keeps running.
    done = threading.Event()
    ticks = 0

    def work():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", quotalab.ScenarioWarning)
            begun = time.monotonic()
            while time.monotonic() - begun < 0.2:
                quotalab.review(PHILLY, PHILLY, seeds=4)
        done.set()

    t = threading.Thread(target=work)
    start = time.monotonic()
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    elapsed = time.monotonic() - start
    assert elapsed >= 0.2
    assert ticks > 10 * (elapsed / 0.005)
