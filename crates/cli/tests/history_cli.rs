//! `quotasim import history` (SPEC 16) end to end: a Kueue cluster's Workloads and an AWS
//! Batch queue's jobs, each with its configuration, into scenarios that validate and run;
//! goldens of the scenario and of the warnings (`tests/history/*.golden.*`); errors with
//! their paths, exit 2; hostile input refused without a panic.
//!
//! After an intended change, `UPDATE_GOLDENS=1 cargo test -p quotalab-cli --test
//! history_cli` rewrites the goldens; review their diff like code.

mod common;

use std::path::{Path, PathBuf};

use common::{golden, quotasim_in, Out};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/history")
}

/// Runs `quotasim ARGS` in the fixtures' directory (so that file names in problems are
/// the short ones), with `stdin`; never a panic.
fn run(args: &[&str], stdin: Option<&[u8]>) -> Out {
    let out = quotasim_in(Some(&dir()), args, stdin);
    assert!(!out.stderr.contains("panicked"), "{out:?}");
    out
}

/// Compares `got` with the golden file `name` (or rewrites it with UPDATE_GOLDENS=1).
fn check_golden(name: &str, got: &str) {
    let path = dir().join(name);
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDENS=1 writes it)", path.display()));
    assert_eq!(got, want, "{name} differs from its golden");
}

/// The scenario validates and runs.
fn validates_and_runs(scenario: &str) {
    let v = run(&["validate", "-"], Some(scenario.as_bytes()));
    assert_eq!(v.code, 0, "{v:?}");
    let r = run(&["run", "-", "--summary"], Some(scenario.as_bytes()));
    assert_eq!(r.code, 0, "{r:?}");
    let j = run(&["run", "-"], Some(scenario.as_bytes()));
    assert_eq!(j.code, 0, "{j:?}");
    let result: serde_json::Value = serde_json::from_str(&j.stdout).unwrap();
    assert!(!result["jobs"].as_array().unwrap().is_empty());
}

const KUEUE: [&str; 6] = [
    "import",
    "history",
    "kueue-workloads.yaml",
    "kueue-workloads-v1beta2.json",
    "--config",
    "kueue-config.yaml",
];

#[test]
fn kueue_workloads_become_the_jobs() {
    let mut args = KUEUE.to_vec();
    args.extend(["--flavor-map", "a100=ml.p4d.24xlarge"]);
    let out = run(&args, None);
    assert_eq!(out.code, 0, "{out:?}");
    check_golden("kueue.golden.json", &out.stdout);
    check_golden("kueue.golden.stderr", &out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let jobs = v["jobs"].as_array().unwrap();
    // 8 Workloads: the CPU-only one is skipped; finished, preempted then finished,
    // running and pending (one of them preempted) ones are kept, in submit order.
    assert_eq!(jobs.len(), 7);
    let submits: Vec<f64> = jobs
        .iter()
        .map(|j| j["submit_s"].as_f64().unwrap())
        .collect();
    assert!(submits.windows(2).all(|w| w[0] <= w[1]), "{submits:?}");
    assert!(out
        .stderr
        .contains("kueue-workloads.yaml: [0].items[2]: job team-b/job-eval-sweep-2b9a1 was evicted 1 time(s) (1 by preemption)"));
    validates_and_runs(&out.stdout);
    // The same history through standard input, as JSON: the same jobs.
    let yaml = std::fs::read_to_string(dir().join("kueue-workloads.yaml")).unwrap();
    let stdin = run(
        &[
            "import",
            "history",
            "-",
            "--config",
            "kueue-config.yaml",
            "--flavor-map",
            "a100=ml.p4d.24xlarge",
        ],
        Some(yaml.as_bytes()),
    );
    assert_eq!(stdin.code, 0, "{stdin:?}");
    let w: serde_json::Value = serde_json::from_str(&stdin.stdout).unwrap();
    assert_eq!(w["jobs"].as_array().unwrap().len(), 6);
}

#[test]
fn aws_batch_jobs_become_the_jobs() {
    let out = run(
        &[
            "import",
            "history",
            "aws-describe-jobs.json",
            "aws-list-service-jobs.json",
            "--config",
            "aws-quota-shares.json",
        ],
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    check_golden("aws.golden.json", &out.stdout);
    check_golden("aws.golden.stderr", &out.stderr);
    validates_and_runs(&out.stdout);
}

#[test]
fn window_cuts_the_history() {
    let mut args = KUEUE.to_vec();
    args.extend([
        "--flavor-map",
        "a100=ml.p4d.24xlarge",
        "--from",
        "2026-03-02T08:04:00Z",
        "--to",
        "2026-03-02T10:00:00Z",
    ]);
    let out = run(&args, None);
    assert_eq!(out.code, 0, "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let ids: Vec<&str> = v["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "team-b/job-finetune-bert-8c1e4",
            "team-b/job-eval-sweep-2b9a1",
            "team-b/job-ablation-3d4e5",
            "team-a/jobset-tokenize-corpus-6e7f8",
            "team-c/job-render-7f3c9",
        ]
    );
    // Relative to the earliest kept submission (08:05); the history ends at --to (10:00),
    // when the eval sweep (finished 10:00:00) was just done and the render still running.
    assert_eq!(v["jobs"][0]["submit_s"], 0);
    assert_eq!(v["jobs"][1]["work_s"], 3600);
    assert_eq!(v["jobs"][4]["work_s"], 1795);
    let bad = run(
        &[
            "import",
            "history",
            "kueue-workloads.yaml",
            "--config",
            "kueue-config.yaml",
            "--from",
            "tuesday",
        ],
        None,
    );
    assert_eq!(bad.code, 2, "{bad:?}");
    assert!(bad
        .stderr
        .contains("error: --from: \"tuesday\" is neither an ISO 8601 time"));
}

#[test]
fn shares_come_from_a_configuration_or_a_scenario() {
    let none = run(&["import", "history", "aws-describe-jobs.json"], None);
    assert_eq!(none.code, 2, "{none:?}");
    assert_eq!(
        none.stderr,
        "error: a configuration is needed for the shares: give --config FILE (AWS JSON or Kueue YAML) or --into SCENARIO\n"
    );
    // An AWS scenario's shares (the walkthrough: background, medium, protected) do not
    // have these jobs' shares: an error per job, naming the shares that exist.
    let walkthrough = golden("aws-walkthrough.json");
    let into = run(
        &[
            "import",
            "history",
            "aws-describe-jobs.json",
            "--into",
            walkthrough.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(into.code, 2, "{into:?}");
    assert!(into.stderr.contains(
        "error: aws-describe-jobs.json: jobs[0].shareIdentifier: job nlp-pretrain-7b is of share \"nlp-team\", which the configuration does not have (shares: background, medium, protected)"
    ), "{into:?}");
    // With --config: the walkthrough's settings, these shares, the history's jobs.
    let both = run(
        &[
            "import",
            "history",
            "aws-describe-jobs.json",
            "--config",
            "aws-quota-shares.json",
            "--into",
            walkthrough.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(both.code, 0, "{both:?}");
    assert!(
        both.stderr
            .contains("jobs: its 4 jobs are replaced by the history"),
        "{both:?}"
    );
    let v: serde_json::Value = serde_json::from_str(&both.stdout).unwrap();
    assert_eq!(v["queue"]["preemption_grace_s"], 0);
    assert_eq!(v["jobs"].as_array().unwrap().len(), 5);
    validates_and_runs(&both.stdout);
}

/// Writes `text` to a temporary file in the target directory and returns its path.
fn temp(name: &str, text: &str) -> String {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("history_cli");
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn refused(history: &str, name: &str) -> Out {
    let f = temp(name, history);
    let out = run(
        &["import", "history", &f, "--config", "kueue-config.yaml"],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
    assert!(
        out.stderr.lines().all(|l| l.starts_with("error: ")),
        "{out:?}"
    );
    out
}

#[test]
fn hostile_input_is_refused_with_paths() {
    let yaml = std::fs::read_to_string(dir().join("kueue-workloads.yaml")).unwrap();
    // Not YAML.
    let out = refused("items: [unclosed\n  - {", "not-yaml.yaml");
    assert!(out.stderr.contains("not-yaml.yaml: YAML:"), "{out:?}");
    // Not a Kubernetes object; a List whose items are not a list.
    let out = refused("- 1\n- 2\n", "scalars.yaml");
    assert!(
        out.stderr
            .contains("scalars.yaml: [0]: must be a Kubernetes object"),
        "{out:?}"
    );
    // Wrong kinds only: ignored with a warning, then no job.
    let out = refused(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\n",
        "kinds.yaml",
    );
    assert!(
        out.stderr.contains("no job found in the history"),
        "{out:?}"
    );
    // A missing creation time and a missing condition time.
    let t = yaml.replacen("    creationTimestamp: \"2026-03-02T08:05:00Z\"\n", "", 1);
    let out = refused(&t, "no-created.yaml");
    assert!(
        out.stderr.contains("no-created.yaml: [0].items[1].metadata.creationTimestamp: is required (the submission time)"),
        "{out:?}"
    );
    let t = yaml.replacen(
        "    - lastTransitionTime: \"2026-03-02T10:30:01Z\"\n",
        "    - lastTransitionTime: soon\n",
        1,
    );
    let out = refused(&t, "bad-time.yaml");
    assert!(
        out.stderr.contains("bad-time.yaml: [0].items[0].status.conditions[2].lastTransitionTime: \"soon\" is not an RFC 3339 time"),
        "{out:?}"
    );
    // Negative and huge counts.
    let t = yaml.replacen("    - count: 8\n", "    - count: -8\n", 1);
    let out = refused(&t, "negative.yaml");
    assert!(
        out.stderr.contains("negative.yaml: [0].items[5].spec.podSets[0].count: must be a whole number >= 0 (int32), not -8"),
        "{out:?}"
    );
    let t = yaml.replacen(
        "          nvidia.com/gpu: \"16\"\n",
        "          nvidia.com/gpu: \"9223372036854775807000\"\n",
        1,
    );
    let out = refused(&t, "huge.yaml");
    assert!(
        out.stderr.contains("huge.yaml: [0].items[0].status.admission.podSetAssignments[0].resourceUsage[nvidia.com/gpu]: must be a whole number >= 0 of nvidia.com/gpu"),
        "{out:?}"
    );
    let t = yaml.replacen(
        "          nvidia.com/gpu: \"16\"\n",
        "          nvidia.com/gpu: \"80000000000\"\n",
        1,
    );
    let out = refused(&t, "too-many.yaml");
    assert!(
        out.stderr.contains("job team-a/job-pretrain-llm-5d7f2 asks for 80000000000 instances, over the limit of 1000000000"),
        "{out:?}"
    );
    // A document or record over 8 MiB (here a comment in the List's first document), from
    // a file and from standard input: refused, naming it (a history is read record by
    // record, SPEC 16 as docs/MODEL-CHOICES.md reads it).
    let big = format!("# {}\n{yaml}", "x".repeat(8 * 1024 * 1024));
    let out = refused(&big, "big.yaml");
    assert!(
        out.stderr
            .contains("big.yaml: [0]: is over the 8 MiB limit"),
        "{out:?}"
    );
    let out = run(
        &["import", "history", "-", "--config", "kueue-config.yaml"],
        Some(big.as_bytes()),
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("-: [0]: is over the 8 MiB limit"),
        "{out:?}"
    );
    // One workload over 8 MiB inside a List: refused with its path.
    let fat = yaml.replacen(
        "    name: job-pretrain-llm-5d7f2\n",
        &format!(
            "    name: job-pretrain-llm-5d7f2\n    annotations:\n      note: \"{}\"\n",
            "y".repeat(8 * 1024 * 1024)
        ),
        1,
    );
    let out = refused(&fat, "fat.yaml");
    assert!(
        out.stderr
            .contains("fat.yaml: [0].items[0]: is over the 8 MiB limit"),
        "{out:?}"
    );
    // Not UTF-8.
    let f = temp("binary.yaml", "");
    std::fs::write(&f, [0xff, 0xfe, 0x00, 0x01]).unwrap();
    let out = run(
        &["import", "history", &f, "--config", "kueue-config.yaml"],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("is not UTF-8 text"), "{out:?}");
}

/// A scenario imported from Kueue files keeps its LocalQueues (SPEC 16 `source`), so a
/// history replayed `--into` it places workloads not yet admitted without the files again.
#[test]
fn a_scenario_imported_from_kueue_places_workloads_by_its_local_queues() {
    let imported = run(&["import", "kueue", "kueue-config.yaml"], None);
    assert_eq!(imported.code, 0, "{imported:?}");
    let scenario = temp("imported-kueue.json", &imported.stdout);
    let out = run(
        &[
            "import",
            "history",
            "kueue-workloads.yaml",
            "--into",
            &scenario,
        ],
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // The same jobs as with the configuration's files given again.
    let with_config = run(
        &[
            "import",
            "history",
            "kueue-workloads.yaml",
            "--config",
            "kueue-config.yaml",
        ],
        None,
    );
    assert_eq!(with_config.code, 0, "{with_config:?}");
    let w: serde_json::Value = serde_json::from_str(&with_config.stdout).unwrap();
    assert!(v["jobs"].as_array().unwrap().len() >= 6);
    assert_eq!(v["jobs"], w["jobs"]);
    // Without the LocalQueues (the source stripped), the same history names what is missing.
    let mut bare: serde_json::Value = serde_json::from_str(&imported.stdout).unwrap();
    bare.as_object_mut().unwrap().remove("source");
    let bare = temp("imported-bare.json", &bare.to_string());
    let out = run(
        &["import", "history", "kueue-workloads.yaml", "--into", &bare],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("is not among the LocalQueue documents"),
        "{out:?}"
    );
}

/// A month of history has thousands of jobs still pending at its end: past the first 100
/// of a kind, their warnings are counted in one line; `--all-warnings` prints each.
#[test]
fn many_job_warnings_of_a_kind_are_counted_past_the_first_hundred() {
    let item = |i: usize| {
        format!(
            r#"{{"apiVersion":"kueue.x-k8s.io/v1beta1","kind":"Workload",
            "metadata":{{"name":"p{i}","namespace":"team-a","creationTimestamp":"2026-03-02T08:{:02}:{:02}Z"}},
            "spec":{{"queueName":"team-a-queue","podSets":[{{"name":"main","count":1,
              "template":{{"spec":{{"containers":[{{"name":"c","resources":{{"requests":{{"nvidia.com/gpu":"8"}}}}}}]}}}}}}]}},
            "status":{{}}}}"#,
            i / 60,
            i % 60
        )
    };
    let items: Vec<String> = (0..250).map(item).collect();
    let list = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#,
        items.join(",")
    );
    let args = ["import", "history", "-", "--config", "kueue-config.yaml"];
    let out = run(&args, Some(list.as_bytes()));
    assert_eq!(out.code, 0, "{out:?}");
    let pending = |s: &str| {
        s.lines()
            .filter(|l| l.contains("was still pending at the end of the history: work_s 1"))
            .count()
    };
    assert_eq!(pending(&out.stderr), 100, "{}", out.stderr);
    assert!(
        out.stderr.contains(
            "warning: -: and 150 more jobs with a warning like the first 100 above (was still pending at the end of the history); --all-warnings prints each"
        ),
        "{}",
        out.stderr
    );
    let all = run(
        &[&args[..], &["--all-warnings"]].concat(),
        Some(list.as_bytes()),
    );
    assert_eq!(pending(&all.stderr), 250);
    assert!(!all.stderr.contains("more jobs with a warning like"));
    assert_eq!(all.stdout, out.stdout, "the same scenario");
}
