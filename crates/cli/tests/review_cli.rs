//! `quotasim review` (SPEC 16, "Reviewing a change") end to end: the table and the JSON of
//! a Kueue pair and an AWS pair as goldens (`tests/review/*.txt`, `*.json`), `--fail-on`
//! exit codes 0 / 1 / 2, identical configurations, and errors that name their files and
//! paths. Fixtures and what they change: `tests/review/README.md`.
//!
//! After an intended change of the engine, `UPDATE_GOLDENS=1 cargo test -p quotalab-cli
//! --test review_cli` rewrites the goldens; review their diff like code.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{quotasim_in, Out, BIN};
use serde_json::Value;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/review")
}

/// `quotasim review ARGS` run in `tests/review/`, so that file names print as the fixtures'
/// names.
fn review(args: &[&str], stdin: Option<&str>) -> Out {
    let args: Vec<&str> = std::iter::once("review")
        .chain(args.iter().copied())
        .collect();
    let out = quotasim_in(Some(&dir()), &args, stdin.map(str::as_bytes));
    assert!(!out.stderr.contains("panicked"), "{out:?}");
    out
}

/// Compares `got` with the golden `name` (or writes it with `UPDATE_GOLDENS`).
fn golden(name: &str, got: &str) {
    let file = dir().join(name);
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        std::fs::write(&file, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&file)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDENS=1 writes it)", file.display()));
    assert!(
        want == got,
        "{name} differs\n--- want\n{want}\n--- got\n{got}"
    );
}

const KUEUE: [&str; 4] = [
    "kueue-current.yaml",
    "kueue-proposed.yaml",
    "--jobs",
    "jobs.json",
];
const AWS: [&str; 4] = [
    "aws-current.json",
    "aws-proposed.json",
    "--jobs",
    "aws-jobs.json",
];

fn with<'a>(base: &[&'a str], more: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(more).copied().collect()
}

fn json(out: &Out) -> Value {
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{e}: {out:?}"))
}

#[test]
fn kueue_pair_table_and_json_goldens_and_the_rules_it_crosses() {
    let rules = [
        "--fail-on",
        "deadline_misses>0",
        "--fail-on",
        "completion_p90>+10%",
        "--fail-on",
        "preemptions>0",
    ];
    let table = review(&with(&KUEUE, &rules), None);
    assert_eq!(table.code, 1, "{table:?}");
    golden("kueue.table.txt", &table.stdout);
    // One line per share and rule crossed, worst share first, rules in the order given.
    let crossed: Vec<&str> = table
        .stderr
        .lines()
        .filter(|l| l.starts_with("crossed: "))
        .collect();
    assert_eq!(
        crossed,
        [
            "crossed: team-b: deadline_misses>0 crossed: from 0 (+1 jobs: 0 jobs -> 1 jobs)",
            "crossed: team-b: completion_p90>+10% crossed: +20.8% (+600 s: 2880 s -> 3480 s)",
            "crossed: team-a: deadline_misses>0 crossed: from 0 (+1 jobs: 0 jobs -> 1 jobs)",
        ]
    );
    // The ignored Kueue fields are warned about once per file, naming it.
    assert!(
        table
            .stderr
            .contains("warning: kueue-proposed.yaml: [2].spec.namespaceSelector: ignored"),
        "{table:?}"
    );

    let out = review(&with(&KUEUE, &with(&rules, &["--json"])), None);
    assert_eq!(out.code, 1, "{out:?}");
    golden("kueue.json", &out.stdout);
    let v = json(&out);
    assert_eq!(v["format"], "quotalab-review/v1");
    assert_eq!(
        v["seeds"],
        serde_json::json!([11]),
        "explicit jobs: one seed"
    );
    let names: Vec<&str> = v["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["team-b", "team-a", "team-c"], "worst first");
    let b = &v["shares"][0]["metrics"]["completion_p90"];
    assert_eq!(
        (&b["current"], &b["proposed"], &b["change"]),
        (&2880.into(), &3480.into(), &600.into())
    );
    assert_eq!(
        v["rules"][0]["crossed"],
        serde_json::json!(["team-b", "team-a"])
    );
    assert_eq!(v["rules"][2]["crossed"], serde_json::json!([]));
    assert_eq!(v["crossed"].as_array().unwrap().len(), 3);
    // team-c's quota is untouched and nobody borrows from it: no change at all.
    for (m, c) in v["shares"][2]["metrics"].as_object().unwrap() {
        assert_eq!(c["change"], 0, "team-c {m}");
    }
}

#[test]
fn the_same_review_prints_the_same_bytes_on_any_number_of_threads() {
    let a = review(&with(&AWS, &["--json"]), None);
    let b = review(&with(&AWS, &["--json"]), None);
    assert_eq!(a.code, 0, "{a:?}");
    assert_eq!(a.stdout, b.stdout);
    let one = Command::new(BIN)
        .arg("review")
        .args(with(&AWS, &["--json"]))
        .current_dir(dir())
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&one.stdout), a.stdout);
}

#[test]
fn aws_pair_over_ten_seeds_with_bands() {
    let table = review(&AWS, None);
    assert_eq!(table.code, 0, "no rule, no failure: {table:?}");
    golden("aws.table.txt", &table.stdout);
    let out = review(&with(&AWS, &["--json"]), None);
    golden("aws.json", &out.stdout);
    let v = json(&out);
    // Generated workloads are random: ten seeds from the jobs' seed.
    assert_eq!(
        v["seeds"],
        serde_json::json!((100..110).collect::<Vec<u64>>())
    );
    for s in v["shares"].as_array().unwrap() {
        for (m, c) in s["metrics"].as_object().unwrap() {
            let (lo, mid, hi) = (
                c["band"]["p10"].as_f64().unwrap(),
                c["band"]["median"].as_f64().unwrap(),
                c["band"]["p90"].as_f64().unwrap(),
            );
            assert!(lo <= mid && mid <= hi, "{} {m}: {c}", s["name"]);
            assert_eq!(c["change"], c["band"]["median"], "{} {m}", s["name"]);
        }
    }
    // production stops lending: research, which borrowed, is the worst off.
    assert_eq!(v["shares"][0]["name"], "research");
    let research = &v["shares"][0]["metrics"]["completion_p90"];
    assert!(research["relative"].as_f64().unwrap() > 0.10, "{research}");

    // The same rule, two thresholds: crossed at +10%, not at +50%.
    let crossed = review(&with(&AWS, &["--fail-on", "completion_p90>+10%"]), None);
    assert_eq!(crossed.code, 1, "{crossed:?}");
    assert!(
        crossed
            .stderr
            .contains("crossed: research: completion_p90>+10% crossed: +17.1%"),
        "{crossed:?}"
    );
    let ok = review(&with(&AWS, &["--fail-on", "completion_p90>+50%"]), None);
    assert_eq!(ok.code, 0, "{ok:?}");
    assert!(ok.stdout.contains("  completion_p90>+50%: ok"), "{ok:?}");

    // Seeds of jobs with nothing random are the same runs: a warning says so.
    let same = review(&with(&KUEUE, &["--seeds", "2", "--json"]), None);
    assert_eq!(same.code, 0, "{same:?}");
    assert!(
        same.stderr
            .contains("warning: --seeds: nothing in the jobs of jobs.json is random"),
        "{same:?}"
    );
    assert_eq!(json(&same)["seeds"], serde_json::json!([11, 12]));

    // --seeds overrides the default.
    let three = review(&with(&AWS, &["--seeds", "3", "--json"]), None);
    assert_eq!(json(&three)["seeds"], serde_json::json!([100, 101, 102]));
}

#[test]
fn identical_configurations_change_nothing_and_never_fail() {
    let rules = [
        "--fail-on",
        "deadline_misses>0",
        "--fail-on",
        "completion_p90>=0",
        "--fail-on",
        "wait_p90<=0%",
        "--fail-on",
        "borrowed_fraction<+1%",
    ];
    for (current, jobs) in [
        ("kueue-current.yaml", "jobs.json"),
        ("aws-current.json", "aws-jobs.json"),
    ] {
        let out = review(
            &with(&[current, current, "--jobs", jobs, "--json"], &rules),
            None,
        );
        assert_eq!(out.code, 0, "{current}: {out:?}");
        let v = json(&out);
        for s in v["shares"].as_array().unwrap() {
            for (m, c) in s["metrics"].as_object().unwrap() {
                assert_eq!(c["change"], 0, "{current} {} {m}", s["name"]);
                assert_eq!(c["band"]["p10"], 0);
                assert_eq!(c["band"]["p90"], 0);
                assert_eq!(c["current"], c["proposed"]);
            }
        }
        assert_eq!(v["crossed"], serde_json::json!([]));
    }
}

#[test]
fn current_as_a_scenario_lends_its_jobs_from_standard_input() {
    // `import kueue --into` makes CURRENT a scenario with the jobs; PROPOSED stays YAML.
    let import = common::quotasim(
        &[
            "import",
            "kueue",
            dir().join("kueue-current.yaml").to_str().unwrap(),
            "--into",
            dir().join("jobs.json").to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(import.code, 0, "{import:?}");
    let out = review(
        &["-", "kueue-proposed.yaml", "--json"],
        Some(&import.stdout),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v = json(&out);
    assert_eq!(v["jobs"], "-");
    // The same review as with --jobs: the same shares, the same changes.
    let with_jobs = json(&review(&with(&KUEUE, &["--json"]), None));
    assert_eq!(v["shares"], with_jobs["shares"]);
}

#[test]
fn bad_rules_are_usage_errors_that_list_the_metrics() {
    let out = review(&with(&KUEUE, &["--fail-on", "completion_p99>+10%"]), None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.starts_with(
            "error: --fail-on: \"completion_p99>+10%\": unknown metric \"completion_p99\""
        ),
        "{out:?}"
    );
    assert!(
        out.stderr.contains(
            "metrics: completion_p50, completion_p90, wait_mean, wait_p90, deadline_misses, preemptions, borrowed_h, borrowed_fraction"
        ),
        "{out:?}"
    );
    assert!(out.stdout.is_empty(), "nothing runs: {out:?}");
    for rule in [
        "deadline_misses",
        "deadline_misses>lots",
        "deadline_misses=1",
    ] {
        let out = review(&with(&KUEUE, &["--fail-on", rule]), None);
        assert_eq!(out.code, 2, "{rule}: {out:?}");
        assert!(out.stderr.starts_with("error: --fail-on: "), "{out:?}");
    }
    let out = review(&with(&KUEUE, &["--seeds", "0"]), None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("--seeds: must be at least 1"),
        "{out:?}"
    );
}

#[test]
fn errors_name_the_file_and_the_path() {
    let tmp = std::env::temp_dir().join(format!("quotasim-review-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let write = |name: &str, text: &str| {
        let p = tmp.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    let current = std::fs::read_to_string(dir().join("kueue-current.yaml")).unwrap();

    // A quantity that does not parse: the file, the document and the path.
    let bad = write(
        "bad-quota.yaml",
        &current.replace("nominalQuota: 2\n", "nominalQuota: two\n"),
    );
    let out = review(&["kueue-current.yaml", &bad, "--jobs", "jobs.json"], None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.starts_with(&format!(
            "error: {bad}: [4].spec.resourceGroups[0].flavors[0].resources[1].nominalQuota: "
        )),
        "{out:?}"
    );

    // The same for AWS JSON: the array index and the path.
    let aws = std::fs::read_to_string(dir().join("aws-proposed.json")).unwrap();
    let bad_aws = write(
        "bad-aws.json",
        &aws.replacen("\"maxCapacity\": 2,", "\"maxCapacity\": \"two\",", 2),
    );
    let out = review(
        &["aws-current.json", &bad_aws, "--jobs", "aws-jobs.json"],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stderr.lines().next().unwrap(),
        format!("error: {bad_aws}: [1].capacityLimits[0].maxCapacity: must be a whole number of instances, not \"two\"")
    );

    // A proposal without team-c: its jobs are named, with the files.
    let cut = current.find("---\napiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: team-c").unwrap();
    let no_c = write("no-team-c.yaml", &current[..cut]);
    let out = review(&["kueue-current.yaml", &no_c, "--jobs", "jobs.json"], None);
    assert_eq!(out.code, 2, "{out:?}");
    let lines: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(lines.len(), 2, "{out:?}");
    assert_eq!(
        lines[0],
        format!("error: {no_c} (PROPOSED) with the jobs of jobs.json: jobs[8].share: job c-infer-1 is of share \"team-c\", which the imported configuration does not have (shares: team-a, team-b)")
    );
    assert!(lines[1].contains("jobs[9].share: job c-infer-2"), "{out:?}");

    // A configuration and no jobs: which jobs to give.
    let out = review(&["kueue-current.yaml", "kueue-proposed.yaml"], None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.starts_with(
            "error: kueue-current.yaml: CURRENT has no jobs or workloads: give the jobs to run with --jobs FILE"
        ),
        "{out:?}"
    );

    // A missing file, a jobs file that is not JSON, a YAML alias bomb.
    let out = review(
        &["kueue-current.yaml", "nowhere.yaml", "--jobs", "jobs.json"],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.starts_with("error: cannot read nowhere.yaml: "),
        "{out:?}"
    );
    // A jobs file that is not a scenario is read as a job history: none found.
    let out = review(&with(&KUEUE[..3], &["kueue-proposed.yaml"]), None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("no job found in the history (expected Kueue Workloads or AWS Batch jobs)"),
        "{out:?}"
    );
    let described = write(
        "describe-jobs.json",
        r#"{"jobs": [{"jobId": "1", "jobName": "train"}]}"#,
    );
    let out = review(
        &[
            "kueue-current.yaml",
            "kueue-proposed.yaml",
            "--jobs",
            &described,
        ],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("describe-jobs.json"), "{out:?}");
    let broken = write("broken.json", r#"{"format": "quotalab/v1", "jobs": ["#);
    let out = review(
        &[
            "kueue-current.yaml",
            "kueue-proposed.yaml",
            "--jobs",
            &broken,
        ],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .starts_with(&format!("error: {broken}: JSON syntax error at line 1")),
        "{out:?}"
    );
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let prev = if i == 0 {
            "a".to_string()
        } else {
            format!("b{}", i - 1)
        };
        bomb.push_str(&format!("b{i}: &b{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"));
    }
    let bomb = write("bomb.yaml", &bomb);
    let out = review(&["kueue-current.yaml", &bomb, "--jobs", "jobs.json"], None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.starts_with(&format!("error: {bomb}")), "{out:?}");

    // SPEC 13's bound holds for a configuration file.
    let huge = write(
        "huge.yaml",
        &format!("{current}# {}\n", "x".repeat(8 * 1024 * 1024)),
    );
    let out = review(&["kueue-current.yaml", &huge, "--jobs", "jobs.json"], None);
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.starts_with(&format!("error: {huge}: is "))
            && out.stderr.contains("bytes, over the 8 MiB limit"),
        "{out:?}"
    );

    // Two inputs from standard input.
    let out = review(&["-", "-", "--jobs", "jobs.json"], Some(""));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr
            .contains("only one of CURRENT, PROPOSED and --jobs"),
        "{out:?}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}

/// SPEC 16: "runs two configurations on the same jobs (the history, ...)": `--jobs` takes a
/// cluster's job history, replayed on CURRENT's shares.
#[test]
fn a_job_history_is_the_jobs_both_configurations_run() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("review-history");
    std::fs::create_dir_all(&tmp).unwrap();
    let config = std::fs::read_to_string(dir().join("../history/kueue-config.yaml")).unwrap();
    // The proposal halves team-c's L4 quota (8 GPUs to 4).
    let marker = "  name: team-c-cq\n";
    let at = config.find(marker).unwrap();
    let (head, tail) = config.split_at(at);
    let tail = tail.replacen(
        "      - name: nvidia.com/gpu\n        nominalQuota: 8\n",
        "      - name: nvidia.com/gpu\n        nominalQuota: 4\n",
        1,
    );
    assert_ne!(tail, config[at..], "the proposal changes team-c");
    let proposed = tmp.join("proposed.yaml");
    std::fs::write(&proposed, format!("{head}{tail}")).unwrap();
    let out = review(
        &[
            "../history/kueue-config.yaml",
            proposed.to_str().unwrap(),
            "--jobs",
            "../history/kueue-workloads.yaml",
            "--flavor-map",
            "a100=ml.p4d.24xlarge",
            "--json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v = json(&out);
    let text = v.to_string();
    for team in ["team-a-cq", "team-b-cq", "team-c-cq"] {
        assert!(text.contains(team), "{team} missing: {text}");
    }
}

/// SPEC 16: a proposal under which some jobs can never start (team-b's quota cut to 1 GPU
/// with no borrowing, its jobs needing 2) says so, naming the side, the share, how many
/// jobs and what they need against what the share can ever hold; the jobs show as
/// unfinished. The current configuration, under which they all run, says nothing of it.
#[test]
fn jobs_a_proposal_can_never_start_are_named() {
    let current = std::fs::read_to_string(dir().join("kueue-current.yaml")).unwrap();
    let i = current.find("name: team-b").unwrap();
    let j = i + current[i..].find("nominalQuota: 4").unwrap();
    let cut = format!(
        "{}nominalQuota: 1\n        borrowingLimit: 0{}",
        &current[..j],
        &current[j + "nominalQuota: 4".len()..]
    );
    let path = std::env::temp_dir().join(format!("quotalab-cut-{}.yaml", std::process::id()));
    std::fs::write(&path, cut).unwrap();
    let proposed = path.to_str().unwrap();
    let out = review(
        &["kueue-current.yaml", proposed, "--jobs", "jobs.json"],
        None,
    );
    std::fs::remove_file(&path).ok();
    assert_eq!(out.code, 0, "{out:?}");
    let never: Vec<&str> = out
        .stderr
        .lines()
        .filter(|l| l.contains("can never start"))
        .collect();
    assert_eq!(
        never,
        [format!(
            "warning: {proposed} (PROPOSED) with the jobs of jobs.json: share \"team-b\": 5 jobs can never start in this configuration: they need up to 2 instances of a10g, and the share can hold at most 1 (its quota and all it may borrow, with every other share idle)"
        )],
        "{}",
        out.stderr
    );
    assert!(
        out.stdout
            .contains("  proposed: 0 succeeded, 0 failed, 5 unfinished\n"),
        "{}",
        out.stdout
    );
}
