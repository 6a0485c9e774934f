"""The functions against `quotasim` itself: the same bytes, the same problems."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pandas as pd
import pytest
from conftest import KUEUE_FIXTURES, PRESETS, ROOT

import quotalab

WALK = ROOT / "www" / "presets" / "aws-walkthrough.json"


def errors_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


@pytest.mark.parametrize("preset", PRESETS, ids=lambda p: p.stem)
def test_run_is_the_clis_bytes(cli, preset):
    code, out, _ = cli("run", preset)
    assert code == 0
    r = quotalab.run(preset)
    assert r.json == out
    # The same from a str path, the text and a dict.
    assert quotalab.run(str(preset)).json == out
    text = preset.read_text()
    assert quotalab.run(text).json == out
    assert quotalab.run(json.loads(text)).json == out


def test_result_tables_hold_the_results_numbers(cli):
    r = quotalab.run(WALK)
    data = json.loads(cli("run", WALK)[1])
    assert list(r.shares.index) == list(data["shares"])
    assert r.shares.loc["background", "jobs.succeeded"] == 3
    assert r.shares.loc["background", "preemptions.reclaim"] == 1
    assert r.totals.loc["totals", "jobs.submitted"] == data["totals"]["jobs"]["submitted"]
    assert list(r.jobs["id"]) == [j["id"] for j in data["jobs"]]
    assert list(r.events["kind"]) == [e["kind"] for e in data["events"]]
    s = r.series
    bg = s[(s.share == "background") & (s.instance_type == "ml.g5.xlarge")]
    series = data["series"]["shares"]["background"]["ml.g5.xlarge"]
    assert list(bg["t_s"]) == data["series"]["t_s"]
    assert list(bg["borrowed"]) == series["borrowed"]
    assert list(bg["queued"]) == series["queued"]


def test_summary_is_the_clis_table(cli):
    assert quotalab.summary(WALK) == cli("run", WALK, "--summary")[1]
    assert quotalab.summary(WALK, compare=True) == cli("compare", WALK, "--summary")[1]


@pytest.mark.parametrize(
    "preset",
    [p for p in PRESETS if p.stem in ("aws-walkthrough", "kueue-three-queues", "research-org")],
    ids=lambda p: p.stem,
)
def test_compare_is_the_clis_bytes(cli, preset):
    code, out, _ = cli("compare", preset)
    assert code == 0
    c = quotalab.compare(preset)
    assert c.json == out
    assert c.as_given.json == cli("run", preset)[1]
    doc = json.loads(out)
    assert c.partitioned.data == doc["partitioned"]
    assert c.pooled.data == doc["pooled"]
    assert set(c.matched.index) == set(doc["as_given"]["shares"])
    assert list(c.shares.index.get_level_values("policy").unique()) == [
        "as_given",
        "partitioned",
        "pooled",
    ]


def test_validate_is_the_clis_line(cli):
    for preset in PRESETS:
        v = quotalab.validate(preset)
        assert v.text == cli("validate", preset)[1]
    v = quotalab.validate(WALK)
    assert (v.shares, v.jobs, v.events) == (3, 4, 1)


def test_validation_errors_are_the_clis(cli, tmp_path):
    doc = json.loads(WALK.read_text())
    doc["shares"][0]["borrow_limit"] = -5
    doc["shares"][1]["strategy"] = "SHARE"
    del doc["shares"][2]["limits"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    code, _, err = cli("run", bad)
    assert code == 2
    for fn in (quotalab.run, quotalab.validate, quotalab.compare, quotalab.report):
        with pytest.raises(quotalab.ScenarioError) as e:
            fn(bad)
        assert str(e.value).splitlines() == errors_of(err)
        assert isinstance(e.value, ValueError)
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.run(doc)
    paths = [p for p, _ in e.value.problems]
    assert "shares[0].borrow_limit" in paths
    assert "shares[1].strategy" in paths
    assert "shares[2].limits" in paths
    for (path, message), line in zip(e.value.problems, e.value.lines):
        assert line == f"error: {path}: {message}"


def test_warnings_are_the_clis(cli, tmp_path):
    doc = json.loads(WALK.read_text())
    doc["colour"] = "blue"
    doc["shares"][0]["flavour"] = 1
    f = tmp_path / "w.json"
    f.write_text(json.dumps(doc))
    code, out, err = cli("run", f)
    assert code == 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = quotalab.run(f)
    assert r.json == out
    want = [line.removeprefix("warning: ") for line in err.splitlines()]
    assert [str(w.message) for w in caught] == want
    assert all(issubclass(w.category, quotalab.ScenarioWarning) for w in caught)
    assert [f"{p}: {m}" if p else m for p, m in r.warnings] == want


def test_a_missing_file_is_the_clis_message(cli):
    code, _, err = cli("run", "no-such-file.json")
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.run(ROOT / "no-such-file.json")
    assert str(e.value) == err.strip().replace("no-such-file.json", str(ROOT / "no-such-file.json"))


@pytest.mark.parametrize("fixture", KUEUE_FIXTURES, ids=lambda p: p.stem)
def test_import_kueue_is_the_clis(cli, fixture):
    code, out, err = cli("import", "kueue", fixture)
    if code != 0:
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.import_config(fixture, "kueue")
        assert str(e.value).splitlines() == errors_of(err)
        return
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        imported = quotalab.import_config(fixture, "kueue")
        guessed = quotalab.import_config(fixture)
    assert imported.json == out
    assert guessed.json == out
    assert [f"warning: {w.message}" for w in caught][: len(err.splitlines())] == err.splitlines()
    assert quotalab.import_config(fixture.read_text(), "kueue").json == out
    # The imported scenario runs as any other.
    assert quotalab.run(imported.scenario).json == cli("run", "-", stdin=out)[1]


@pytest.mark.parametrize("into", [None, WALK])
def test_import_several_files_and_into_is_the_clis(cli, into):
    a, b = KUEUE_FIXTURES[0], KUEUE_FIXTURES[-1]
    extra = ["--into", into] if into else []
    code, out, err = cli("import", "kueue", a, b, *extra)
    if code == 2:
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.import_config([a, b], "kueue", into=into)
        assert str(e.value).splitlines() == errors_of(err)
    else:
        assert code == 0
        assert quotalab.import_config([a, b], "kueue", into=into).json == out


@pytest.mark.parametrize(
    ("fmt", "args"),
    [("kueue", ["kueue"]), ("aws", ["aws"]), ("aws-script", ["aws", "--script"])],
)
def test_export_is_the_clis(cli, fmt, args):
    for preset in PRESETS[:4]:
        code, out, err = cli("export", *args, preset)
        if code == 0:
            assert quotalab.export_config(preset, fmt).text == out
        else:
            with pytest.raises(quotalab.ScenarioError) as e:
                quotalab.export_config(preset, fmt)
            assert str(e.value).splitlines() == errors_of(err)
    code, out, _ = cli("export", "aws", "--queue", "research", WALK)
    assert quotalab.export_config(WALK, "aws", queue="research").text == out


def test_aws_round_trip_is_the_clis(cli, tmp_path):
    exported = quotalab.export_config(WALK, "aws")
    f = tmp_path / "aws.json"
    exported.write(f)
    code, out, _ = cli("import", "aws", f)
    assert code == 0
    assert quotalab.import_config(f, "aws").json == out
    assert quotalab.import_config(json.loads(f.read_text())).json == out


@pytest.mark.parametrize("compare", [False, True])
def test_report_is_the_clis_file(cli, tmp_path, compare):
    out = tmp_path / "r.html"
    args = ["report", WALK, "-o", out] + (["--compare"] if compare else [])
    assert cli(*args)[0] == 0
    r = quotalab.report(WALK, compare=compare)
    assert r.html.encode() == out.read_bytes()
    written = tmp_path / "p.html"
    r.write(written)
    assert written.read_bytes() == out.read_bytes()


def test_import_history_says_what_is_missing():
    with pytest.raises(NotImplementedError, match="config::history"):
        quotalab.import_history("workloads.yaml")


def test_the_package_is_typed():
    pkg = Path(quotalab.__file__).parent
    assert (pkg / "py.typed").exists()
    assert (pkg / "_quotalab.pyi").exists()
    assert isinstance(quotalab.run(WALK).shares, pd.DataFrame)
