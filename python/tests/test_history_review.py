"""SPEC 16 from Python: `import_history`, `review`, `report(review=)` and HyperPod against
`quotasim` itself (the same bytes, the same warnings, the same problems) and the CLI's
goldens."""

from __future__ import annotations

import datetime as dt
import json
import warnings

import pandas as pd
import pytest
from conftest import ROOT

import quotalab

TESTS = ROOT / "crates" / "cli" / "tests"
HISTORY = TESTS / "history"
REVIEW = TESTS / "review"
HYPERPOD = TESTS / "hyperpod"
WALK = ROOT / "www" / "presets" / "aws-walkthrough.json"
KUEUE_HISTORY = [HISTORY / "kueue-workloads.yaml", HISTORY / "kueue-workloads-v1beta2.json"]
KUEUE_CONFIG = HISTORY / "kueue-config.yaml"
FLAVORS = "a100=ml.p4d.24xlarge"
AWS_HISTORY = [HISTORY / "aws-describe-jobs.json", HISTORY / "aws-list-service-jobs.json"]
AWS_CONFIG = HISTORY / "aws-quota-shares.json"


def errors_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("error: ")]


def warnings_of(stderr: str) -> list[str]:
    return [line.removeprefix("warning: ") for line in stderr.splitlines()]


def recorded(fn, *args, **kwargs):
    """`fn(...)` and the messages of the warnings it issued."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = fn(*args, **kwargs)
    assert all(issubclass(w.category, quotalab.ScenarioWarning) for w in caught)
    return out, [str(w.message) for w in caught]


# ---- import_history ------------------------------------------------------------------


def test_kueue_history_is_the_golden(monkeypatch):
    # Run where the CLI's test runs it, so the files are named as in the goldens.
    monkeypatch.chdir(HISTORY)
    imported, caught = recorded(
        quotalab.import_history,
        ["kueue-workloads.yaml", "kueue-workloads-v1beta2.json"],
        config="kueue-config.yaml",
        flavor_map=FLAVORS,
    )
    assert imported.json == (HISTORY / "kueue.golden.json").read_text()
    assert caught == warnings_of((HISTORY / "kueue.golden.stderr").read_text())
    assert [f"{p}: {m}" if p else m for p, m in imported.warnings] == caught
    assert len(imported.scenario["jobs"]) == 7


def test_aws_history_is_the_golden(monkeypatch):
    monkeypatch.chdir(HISTORY)
    imported, caught = recorded(
        quotalab.import_history,
        ["aws-describe-jobs.json", "aws-list-service-jobs.json"],
        config=["aws-quota-shares.json"],
    )
    assert imported.json == (HISTORY / "aws.golden.json").read_text()
    assert caught == warnings_of((HISTORY / "aws.golden.stderr").read_text())


@pytest.mark.parametrize(
    ("files", "config", "options", "kwargs"),
    [
        (KUEUE_HISTORY, [KUEUE_CONFIG], ["--flavor-map", FLAVORS], {"flavor_map": FLAVORS}),
        (
            KUEUE_HISTORY[:1],
            [KUEUE_CONFIG],
            ["--flavor-map", FLAVORS],
            {"flavor_map": {"a100": "ml.p4d.24xlarge"}},
        ),
        (KUEUE_HISTORY, [KUEUE_CONFIG], [], {}),
        (AWS_HISTORY, [AWS_CONFIG], [], {}),
        (AWS_HISTORY[:1], [AWS_CONFIG], ["--queue", "gpu-queue"], {"queue": "gpu-queue"}),
        (
            KUEUE_HISTORY,
            [KUEUE_CONFIG],
            ["--resource", "example.com/gpu", "--flavor-map", FLAVORS],
            {"resource": "example.com/gpu", "flavor_map": FLAVORS},
        ),
    ],
    ids=["kueue", "one-file-map-as-dict", "no-flavor-map", "aws", "aws-queue", "resource"],
)
def test_import_history_is_the_clis(cli, files, config, options, kwargs):
    args = ["import", "history", *files]
    for c in config:
        args += ["--config", c]
    code, out, err = cli(*args, *options)
    if code != 0:
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.import_history(files, config=config, **kwargs)
        assert str(e.value).splitlines() == errors_of(err)
        return
    imported, caught = recorded(quotalab.import_history, files, config=config, **kwargs)
    assert imported.json == out
    assert caught == warnings_of(err)
    # The scenario runs as the CLI runs it.
    assert quotalab.run(imported.scenario).json == cli("run", "-", stdin=out)[1]


def test_one_history_as_text_or_a_path_gives_the_same_jobs(cli):
    code, out, _ = cli(
        "import", "history", "-", "--config", AWS_CONFIG, stdin=AWS_HISTORY[0].read_text()
    )
    assert code == 0
    from_text = quotalab.import_history(AWS_HISTORY[0].read_text(), config=AWS_CONFIG)
    from_dict = quotalab.import_history(json.loads(AWS_HISTORY[0].read_text()), config=AWS_CONFIG)
    assert from_text.scenario == json.loads(out)
    assert from_dict.scenario["jobs"] == json.loads(out)["jobs"]


def test_a_history_over_8_mib_is_read_record_by_record_as_the_cli_reads_it(cli, tmp_path):
    # SPEC 16 at scale: a kubectl List of 5,000 workloads (over 8 MiB) imports from its
    # path, byte for byte as `quotasim import history` does; no record is over 8 MiB.
    source = json.loads(HISTORY.joinpath("kueue-workloads-v1beta2.json").read_text())
    item = source["items"][0]
    items = []
    for i in range(5000):
        w = json.loads(json.dumps(item))
        w["metadata"]["name"] = f"w-{i}"
        w["metadata"]["uid"] = f"uid-{i}"
        items.append(w)
    big = tmp_path / "workloads.json"
    big.write_text(json.dumps({**source, "items": items}, indent=2))
    assert big.stat().st_size > 8 * 1024 * 1024
    code, out, err = cli(
        "import", "history", big, "--config", KUEUE_CONFIG, "--flavor-map", FLAVORS
    )
    assert code == 0, err
    imported, caught = recorded(
        quotalab.import_history, big, config=KUEUE_CONFIG, flavor_map=FLAVORS
    )
    assert imported.json == out
    assert caught == warnings_of(err)
    assert len(imported.scenario["jobs"]) == 5000


WINDOW = ("2026-03-02T08:04:00Z", "2026-03-02T10:00:00Z")


@pytest.mark.parametrize(
    ("from_", "to"),
    [
        WINDOW,
        (
            dt.datetime(2026, 3, 2, 8, 4, tzinfo=dt.timezone.utc),
            dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        ),
        (
            int(dt.datetime(2026, 3, 2, 8, 4, tzinfo=dt.timezone.utc).timestamp()),
            float(dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.timezone.utc).timestamp()),
        ),
        (pd.Timestamp(WINDOW[0]), "2026-03-02T11:00:00+01:00"),
    ],
    ids=["iso", "datetime", "epoch", "pandas"],
)
def test_the_window_is_the_clis(cli, from_, to):
    code, out, err = cli(
        "import",
        "history",
        *KUEUE_HISTORY,
        "--config",
        KUEUE_CONFIG,
        "--flavor-map",
        FLAVORS,
        "--from",
        WINDOW[0],
        "--to",
        WINDOW[1],
    )
    assert code == 0
    imported, caught = recorded(
        quotalab.import_history,
        KUEUE_HISTORY,
        config=KUEUE_CONFIG,
        flavor_map=FLAVORS,
        from_=from_,
        to=to,
    )
    assert imported.json == out
    assert caught == warnings_of(err)
    jobs = imported.scenario["jobs"]
    assert [j["id"] for j in jobs][:2] == [
        "team-b/job-finetune-bert-8c1e4",
        "team-b/job-eval-sweep-2b9a1",
    ]
    assert jobs[0]["submit_s"] == 0


def test_a_bad_window_is_the_clis_errors(cli):
    for args, kwargs in [
        (["--from", "tuesday"], {"from_": "tuesday"}),
        (["--from", WINDOW[1], "--to", WINDOW[0]], {"from_": WINDOW[1], "to": WINDOW[0]}),
        (["--to", "2026-13-45"], {"to": "2026-13-45"}),
    ]:
        code, _, err = cli("import", "history", *KUEUE_HISTORY, "--config", KUEUE_CONFIG, *args)
        assert code == 2
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.import_history(KUEUE_HISTORY, config=KUEUE_CONFIG, **kwargs)
        assert str(e.value).splitlines() == errors_of(err)
        assert e.value.problems[0][0] in ("--from", "--to")
    with pytest.raises(ValueError, match="no time zone"):
        quotalab.import_history(KUEUE_HISTORY, config=KUEUE_CONFIG, from_=dt.datetime(2026, 3, 2))
    with pytest.raises(TypeError):
        quotalab.import_history(KUEUE_HISTORY, config=KUEUE_CONFIG, to=True)
    with pytest.raises(TypeError):
        quotalab.import_history(KUEUE_HISTORY, config=KUEUE_CONFIG, to=[1])


def test_the_shares_come_from_a_configuration_or_a_scenario(cli, tmp_path):
    code, _, err = cli("import", "history", AWS_HISTORY[0])
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_history(AWS_HISTORY[0])
    assert str(e.value) == err.strip()
    # Shares only from --into: the walkthrough does not have these jobs' shares.
    code, _, err = cli("import", "history", AWS_HISTORY[0], "--into", WALK)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_history(AWS_HISTORY[0], into=WALK)
    assert str(e.value).splitlines() == errors_of(err)
    assert any("which the configuration does not have" in m for _, m in e.value.problems)
    assert e.value.problems[0][0] == f"{AWS_HISTORY[0]}: jobs[0].shareIdentifier"
    # --config and --into: the walkthrough's settings, these shares, the history's jobs.
    code, out, err = cli(
        "import", "history", AWS_HISTORY[0], "--config", AWS_CONFIG, "--into", WALK
    )
    assert code == 0
    imported, caught = recorded(
        quotalab.import_history, AWS_HISTORY[0], config=AWS_CONFIG, into=WALK
    )
    assert imported.json == out
    assert caught == warnings_of(err)
    assert any("are replaced by the history" in w for w in caught)
    # A scenario imported from Kueue keeps its LocalQueues: --into alone places workloads.
    scenario = tmp_path / "imported.json"
    quotalab.import_config(KUEUE_CONFIG, "kueue").write(scenario)
    code, out, err = cli(
        "import", "history", KUEUE_HISTORY[0], "--into", scenario, "--flavor-map", FLAVORS
    )
    assert code == 0
    imported, caught = recorded(
        quotalab.import_history, KUEUE_HISTORY[0], into=scenario, flavor_map=FLAVORS
    )
    assert imported.json == out
    assert caught == warnings_of(err)
    # The same scenario as a dict: the same jobs.
    as_dict = quotalab.import_history(
        KUEUE_HISTORY[0], into=json.loads(scenario.read_text()), flavor_map=FLAVORS
    )
    assert as_dict.scenario["jobs"] == imported.scenario["jobs"]


def hostile_histories() -> list[tuple[str, str]]:
    yaml = KUEUE_HISTORY[0].read_text()
    return [
        ("not-yaml.yaml", "items: [unclosed\n  - {"),
        ("scalars.yaml", "- 1\n- 2\n"),
        (
            "kinds.yaml",
            "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n---\n"
            "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n",
        ),
        ("no-created.yaml", yaml.replace('    creationTimestamp: "2026-03-02T08:05:00Z"\n', "", 1)),
        (
            "bad-time.yaml",
            yaml.replace(
                '    - lastTransitionTime: "2026-03-02T10:30:01Z"\n',
                "    - lastTransitionTime: soon\n",
                1,
            ),
        ),
        ("negative.yaml", yaml.replace("    - count: 8\n", "    - count: -8\n", 1)),
        (
            "huge.yaml",
            yaml.replace(
                '          nvidia.com/gpu: "16"\n',
                '          nvidia.com/gpu: "9223372036854775807000"\n',
                1,
            ),
        ),
        (
            "too-many.yaml",
            yaml.replace(
                '          nvidia.com/gpu: "16"\n', '          nvidia.com/gpu: "80000000000"\n', 1
            ),
        ),
        ("aliases.yaml", "a: &a [*a, *a]\nb: *a\n"),
        ("deep.json", "[" * 100_000),
        ("empty.json", ""),
        ("aws-empty.json", '{"jobs": []}'),
        ("aws-junk.json", '{"jobs": [{"jobName": 7, "createdAt": -1, "shareIdentifier": []}]}'),
        ("big.yaml", "# " + "x" * (8 * 1024 * 1024) + "\n" + yaml),
    ]


@pytest.mark.parametrize(
    ("name", "text"), hostile_histories(), ids=[n for n, _ in hostile_histories()]
)
def test_hostile_histories_are_the_clis_errors(cli, tmp_path, name, text):
    f = tmp_path / name
    f.write_text(text)
    code, out, err = cli("import", "history", f, "--config", KUEUE_CONFIG)
    assert code == 2, err
    assert out == ""
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_history(f, config=KUEUE_CONFIG)
    assert str(e.value).splitlines() == errors_of(err)
    for (path, message), line in zip(e.value.problems, e.value.lines):
        assert line == (f"error: {path}: {message}" if path else f"error: {message}")


def test_a_history_that_is_not_utf8_is_refused_as_by_the_cli(cli, tmp_path):
    f = tmp_path / "binary.yaml"
    f.write_bytes(b"\xff\xfe\x00\x01")
    code, _, err = cli("import", "history", f, "--config", KUEUE_CONFIG)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_history(f, config=KUEUE_CONFIG)
    assert str(e.value).splitlines() == errors_of(err)
    with pytest.raises(quotalab.ScenarioError, match="UTF-8"):
        quotalab.import_history(b"\xff\xfe", config=KUEUE_CONFIG)
    missing = tmp_path / "nowhere.yaml"
    code, _, err = cli("import", "history", missing, "--config", KUEUE_CONFIG)
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_history(missing, config=KUEUE_CONFIG)
    assert str(e.value).splitlines() == errors_of(err)


def test_a_bad_flavor_map_is_the_clis_error(cli):
    code, _, err = cli(
        "import", "history", *KUEUE_HISTORY, "--config", KUEUE_CONFIG, "--flavor-map", "a100"
    )
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.import_history(KUEUE_HISTORY, config=KUEUE_CONFIG, flavor_map="a100")
    assert str(e.value).splitlines() == errors_of(err)


# ---- review ----------------------------------------------------------------------------

KUEUE_PAIR = [REVIEW / "kueue-current.yaml", REVIEW / "kueue-proposed.yaml"]
AWS_PAIR = [REVIEW / "aws-current.json", REVIEW / "aws-proposed.json"]
RULES = ["deadline_misses>0", "completion_p90>+10%", "preemptions>0"]


def test_review_is_the_golden(monkeypatch):
    monkeypatch.chdir(REVIEW)
    r = quotalab.review(
        "kueue-current.yaml", "kueue-proposed.yaml", jobs="jobs.json", fail_on=RULES
    )
    assert r.json == (REVIEW / "kueue.json").read_text()
    assert r.text == (REVIEW / "kueue.table.txt").read_text()
    assert r.failed
    a = quotalab.review("aws-current.json", "aws-proposed.json", jobs="aws-jobs.json")
    assert a.json == (REVIEW / "aws.json").read_text()
    assert a.text == (REVIEW / "aws.table.txt").read_text()
    assert not a.failed
    assert a.crossed == []
    assert len(a.seeds) == 10


def test_review_is_the_clis_bytes_and_exit(cli):
    rules = [x for r in RULES for x in ("--fail-on", r)]
    args = ["review", *KUEUE_PAIR, "--jobs", REVIEW / "jobs.json", *rules]
    code, table, err = cli(*args)
    assert code == 1
    code_json, out, _ = cli(*args, "--json")
    assert code_json == 1
    r, caught = recorded(quotalab.review, *KUEUE_PAIR, jobs=REVIEW / "jobs.json", fail_on=RULES)
    assert r.json == out
    assert r.text == table
    assert str(r) == table
    assert r.failed
    assert [f"crossed: {c}" for c in r.crossed] == [
        line for line in err.splitlines() if line.startswith("crossed: ")
    ]
    assert caught == [
        line.removeprefix("warning: ") for line in err.splitlines() if line.startswith("warning: ")
    ]
    # One rule as a str.
    one = quotalab.review(*KUEUE_PAIR, jobs=REVIEW / "jobs.json", fail_on="deadline_misses>0")
    assert one.json == cli(*args[:5], "--fail-on", "deadline_misses>0", "--json")[1]


def test_the_share_table_is_the_reviews_numbers():
    r = quotalab.review(*AWS_PAIR, jobs=REVIEW / "aws-jobs.json", seeds=3)
    d = r.data
    assert r.seeds == d["seeds"]
    assert len(r.seeds) == 3
    frame = r.shares
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.index.names) == ["share", "metric"]
    # Worst first, as the JSON lists the shares; every metric in the CLI's order.
    assert list(frame.index.get_level_values("share").unique()) == [s["name"] for s in d["shares"]]
    for s in d["shares"]:
        rows = frame.loc[s["name"]]
        assert list(rows.index) == list(s["metrics"])
        for metric, m in s["metrics"].items():
            row = rows.loc[metric]
            assert row["unit"] == m["unit"]
            assert row["current"] == m["current"]
            assert row["proposed"] == m["proposed"]
            assert row["change"] == m["change"]
            assert row["band.p10"] == m["band"]["p10"]
            assert row["band.p90"] == m["band"]["p90"]
            if m["relative"] is None:
                assert pd.isna(row["relative"])
            else:
                assert row["relative"] == m["relative"]
            assert row["matched"] == s["matched"]
    jobs = r.jobs
    assert list(jobs.index) == [s["name"] for s in d["shares"]]
    first = d["shares"][0]
    assert jobs.loc[first["name"], "current.succeeded"] == first["jobs"]["current"]["succeeded"]
    assert jobs.loc[first["name"], "proposed.unfinished"] == first["jobs"]["proposed"]["unfinished"]


def test_a_job_history_is_the_jobs_of_a_review(cli, tmp_path):
    config = KUEUE_CONFIG.read_text()
    at = config.index("  name: team-c-cq\n")
    tail = config[at:].replace(
        "      - name: nvidia.com/gpu\n        nominalQuota: 8\n",
        "      - name: nvidia.com/gpu\n        nominalQuota: 4\n",
        1,
    )
    assert tail != config[at:]
    proposed = tmp_path / "proposed.yaml"
    proposed.write_text(config[:at] + tail)
    args = [KUEUE_CONFIG, proposed, "--jobs", KUEUE_HISTORY[0], "--flavor-map", FLAVORS]
    code, out, err = cli("review", *args, "--json")
    assert code == 0
    r, caught = recorded(
        quotalab.review,
        KUEUE_CONFIG,
        proposed,
        jobs=KUEUE_HISTORY[0],
        flavor_map={"a100": "ml.p4d.24xlarge"},
    )
    assert r.json == out
    assert caught == warnings_of(err)
    assert {"team-a-cq", "team-b-cq", "team-c-cq"} <= set(r.jobs.index)


def test_current_as_a_scenario_lends_its_jobs(cli, tmp_path):
    doc = json.loads(WALK.read_text())
    doc["shares"][1]["strategy"] = "RESERVE"
    proposed = tmp_path / "proposed.json"
    proposed.write_text(json.dumps(doc))
    code, out, _err = cli("review", WALK, proposed, "--json")
    assert code == 0
    r = quotalab.review(WALK, proposed)
    assert r.json == out
    # A dict is the same review but for its name.
    d = quotalab.review(WALK, doc)
    assert d.data["proposed"] == "<dict>"
    assert d.data["shares"] == r.data["shares"]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (["--fail-on", "completion_p99>+10%"], {"fail_on": ["completion_p99>+10%"]}),
        (["--fail-on", "deadline_misses"], {"fail_on": "deadline_misses"}),
        (
            ["--fail-on", "wait_p90>+ten%", "--fail-on", "x<1"],
            {"fail_on": ["wait_p90>+ten%", "x<1"]},
        ),
        (["--seeds", "0"], {"seeds": 0}),
        (["--seeds", "1001"], {"seeds": 1001}),
        (["--flavor-map", "=x"], {"flavor_map": "=x"}),
    ],
    ids=["metric", "no-op", "two", "seeds-0", "seeds-over", "flavor-map"],
)
def test_bad_review_options_are_the_clis_errors(cli, args, kwargs):
    code, _, err = cli("review", *KUEUE_PAIR, "--jobs", REVIEW / "jobs.json", *args)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.review(*KUEUE_PAIR, jobs=REVIEW / "jobs.json", **kwargs)
    assert str(e.value).splitlines() == errors_of(err)


def test_seeds_that_are_no_whole_number_are_refused():
    with pytest.raises(quotalab.ScenarioError, match="--seeds: must be at least 1"):
        quotalab.review(*KUEUE_PAIR, jobs=REVIEW / "jobs.json", seeds=-1)
    with pytest.raises(quotalab.ScenarioError, match="over the limit of 1000"):
        quotalab.review(*KUEUE_PAIR, jobs=REVIEW / "jobs.json", seeds=2**70)
    for bad in (2.5, "3", True):
        with pytest.raises(TypeError):
            quotalab.review(*KUEUE_PAIR, jobs=REVIEW / "jobs.json", seeds=bad)


def test_review_errors_name_the_file_and_the_path(cli, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(KUEUE_PAIR[1].read_text().replace("nominalQuota: 2", "nominalQuota: lots", 1))
    no_team = tmp_path / "no-team.yaml"
    text = KUEUE_PAIR[1].read_text()
    no_team.write_text(text[: text.rindex("---")])
    no_jobs = tmp_path / "no-jobs.json"
    no_jobs.write_text(json.dumps({**json.loads(WALK.read_text()), "jobs": []}))
    bomb = tmp_path / "bomb.yaml"
    lines = ["b0: &b0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 12):
        lines.append(f"b{i}: &b{i} [" + ", ".join([f"*b{i - 1}"] * 10) + "]")
    bomb.write_text("\n".join(lines) + "\n")
    empty_object = tmp_path / "empty-object.json"
    empty_object.write_text("{}")
    huge = tmp_path / "huge.yaml"
    huge.write_text("# " + "x" * (8 * 1024 * 1024) + "\n")
    cases = [
        [KUEUE_PAIR[0], bad, "--jobs", REVIEW / "jobs.json"],
        [KUEUE_PAIR[0], no_team, "--jobs", REVIEW / "jobs.json"],
        [KUEUE_PAIR[0], huge, "--jobs", REVIEW / "jobs.json"],
        [KUEUE_PAIR[0], tmp_path / "nowhere.yaml", "--jobs", REVIEW / "jobs.json"],
        [*KUEUE_PAIR],
        [*KUEUE_PAIR, "--jobs", tmp_path / "nowhere.json"],
        [*KUEUE_PAIR, "--jobs", no_jobs],
        [no_jobs, KUEUE_PAIR[1]],
        [KUEUE_PAIR[0], empty_object, "--jobs", REVIEW / "jobs.json"],
        [KUEUE_PAIR[0], bomb, "--jobs", REVIEW / "jobs.json"],
        [bomb, KUEUE_PAIR[1], "--jobs", REVIEW / "jobs.json"],
    ]
    for case in cases:
        code, _, err = cli("review", *case)
        assert code == 2, (case, err)
        jobs = case[3] if len(case) > 2 else None
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.review(case[0], case[1], jobs=jobs)
        assert str(e.value).splitlines() == errors_of(err), case
    # The errors of a proposal that does not read name its file and path.
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.review(KUEUE_PAIR[0], bad, jobs=REVIEW / "jobs.json")
    assert all(p.startswith(str(bad)) for p, _ in e.value.problems)


# ---- report(review=) --------------------------------------------------------------------


def test_report_with_a_review_is_the_clis_file(cli, tmp_path):
    doc = json.loads(WALK.read_text())
    doc["shares"][1]["strategy"] = "RESERVE"
    proposed = tmp_path / "proposed.json"
    proposed.write_text(json.dumps(doc))
    for compare in (False, True):
        out = tmp_path / "r.html"
        args = ["report", WALK, "--review", proposed, "-o", out] + (
            ["--compare"] if compare else []
        )
        assert cli(*args)[0] == 0
        r = quotalab.report(WALK, compare=compare, review=proposed)
        assert r.html.encode() == out.read_bytes()
        assert '<section id="review">' in r.html
    assert '<section id="review">' not in quotalab.report(WALK).html
    code, _, err = cli("report", WALK, "--review", tmp_path / "nowhere.yaml")
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.report(WALK, review=tmp_path / "nowhere.yaml")
    assert str(e.value).splitlines() == errors_of(err)
    # A proposal without the scenario's shares: the engine's errors, as the CLI's.
    bad = tmp_path / "bad.json"
    del doc["shares"][0]
    bad.write_text(json.dumps(doc))
    code, _, err = cli("report", WALK, "--review", bad)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.report(WALK, review=bad)
    assert str(e.value).splitlines() == errors_of(err)


# ---- HyperPod and kueue-patch -------------------------------------------------------------

SAMPLE = HYPERPOD / "awsome-task-governance.sh"
HP_SCENARIO = HYPERPOD / "awsome-task-governance.scenario.json"


def test_import_hyperpod_is_the_clis(cli):
    code, out, err = cli("import", "hyperpod", SAMPLE)
    assert code == 0
    assert err == ""
    imported = quotalab.import_config(SAMPLE, "hyperpod")
    assert imported.json == out == HP_SCENARIO.read_text()
    assert quotalab.import_config(SAMPLE.read_text(), "hyperpod").json == out
    code, out, err = cli("import", "hyperpod", SAMPLE, "--into", HYPERPOD / "readme-jobs.json")
    assert code == 0
    into, caught = recorded(
        quotalab.import_config, SAMPLE, "hyperpod", into=HYPERPOD / "readme-jobs.json"
    )
    assert into.json == out
    assert caught == warnings_of(err)
    # The request bodies back in, with a cluster chosen.
    arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456"
    exported = quotalab.export_config(HP_SCENARIO, "hyperpod", cluster_arn=arn)
    code, out, _ = cli("import", "hyperpod", "-", "--cluster", "abcdef123456", stdin=exported.text)
    assert code == 0
    back = quotalab.import_config(json.loads(exported.text), "hyperpod", cluster="abcdef123456")
    assert back.json == out


def test_export_hyperpod_is_the_clis():
    assert (
        quotalab.export_config(HP_SCENARIO, "hyperpod").text
        == (HYPERPOD / "awsome-task-governance.export.json").read_text()
    )
    assert (
        quotalab.export_config(HP_SCENARIO, "hyperpod-script").text
        == (HYPERPOD / "awsome-task-governance.export.sh").read_text()
    )


def test_export_hyperpod_with_a_cluster_and_its_refusals_are_the_clis(cli):
    arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456"
    code, out, _ = cli("export", "hyperpod", HP_SCENARIO, "--cluster-arn", arn)
    assert code == 0
    assert quotalab.export_config(HP_SCENARIO, "hyperpod", cluster_arn=arn).text == out
    code, out, _ = cli("export", "hyperpod", "--script", HP_SCENARIO, "--cluster-arn", arn)
    assert quotalab.export_config(HP_SCENARIO, "hyperpod-script", cluster_arn=arn).text == out
    # What HyperPod cannot express (the AWS walkthrough's model) is refused as by the CLI.
    code, out, err = cli("export", "hyperpod", WALK)
    if code == 0:
        assert quotalab.export_config(WALK, "hyperpod").text == out
    else:
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.export_config(WALK, "hyperpod")
        assert str(e.value).splitlines() == errors_of(err)


def test_hostile_hyperpod_input_is_the_clis_errors(cli, tmp_path):
    for name, text in [
        ("empty.json", ""),
        ("junk.json", '{"ComputeQuotaConfig": 7}'),
        ("deep.json", "[" * 100_000),
        ("quote.sh", "aws sagemaker create-compute-quota --name 'unclosed\n"),
        ("shorthand.sh", "aws sagemaker create-compute-quota --compute-quota-config {{{{\n"),
    ]:
        f = tmp_path / name
        f.write_text(text)
        code, _, err = cli("import", "hyperpod", f)
        assert code == 2, name
        with pytest.raises(quotalab.ScenarioError) as e:
            quotalab.import_config(f, "hyperpod")
        assert str(e.value).splitlines() == errors_of(err), name


def test_kueue_patch_is_the_clis(cli, tmp_path):
    live = ROOT / "crates" / "engine" / "tests" / "config" / "kueue-live-cluster.yaml"
    doc = quotalab.import_config(live, "kueue").scenario
    share = next(s for s in doc["shares"] if s["name"] == "research-cq")
    flavor = next(iter(share["limits"]))
    share["limits"][flavor] = 3
    changed = tmp_path / "changed.json"
    changed.write_text(json.dumps(doc))
    code, out, err = cli("export", "kueue", "--patch", changed)
    assert code == 0, err
    patch = quotalab.export_config(changed, "kueue-patch")
    assert patch.text == out
    assert "kubectl patch clusterqueue research-cq --type merge" in patch.text
    assert quotalab.export_config(doc, "kueue-patch").text == out
    # A scenario that was not imported from Kueue has nothing to patch: the CLI's refusal.
    code, _, err = cli("export", "kueue", "--patch", WALK)
    assert code == 2
    with pytest.raises(quotalab.ScenarioError) as e:
        quotalab.export_config(WALK, "kueue-patch")
    assert str(e.value).splitlines() == errors_of(err)


def test_options_of_another_format_are_type_errors():
    with pytest.raises(TypeError, match="cluster"):
        quotalab.import_config(KUEUE_CONFIG, "kueue", cluster="x")
    with pytest.raises(TypeError, match="queue"):
        quotalab.import_config(SAMPLE, "hyperpod", queue="q")
    with pytest.raises(TypeError, match="cluster_arn"):
        quotalab.export_config(WALK, "aws", cluster_arn="arn")
    with pytest.raises(TypeError, match="resource"):
        quotalab.export_config(WALK, "hyperpod-script", resource="x")
    with pytest.raises(ValueError, match="hyperpod-script"):
        quotalab.export_config(WALK, "hyperpod-json")
