//! `quotasim import hyperpod` and `quotasim export hyperpod` (SPEC 16) end to end, on AWS's
//! own task governance example (tests/hyperpod/README.md gives its source).

mod common;

use common::{golden, quotasim};
use std::path::PathBuf;

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hyperpod")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

/// Compares `got` with the golden file `name`, or rewrites it under `UPDATE_GOLDENS`.
fn check_golden(name: &str, got: &str) {
    let path = fixture(name);
    if std::env::var_os("UPDATE_GOLDENS").is_some() {
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(got, want, "{name} differs (UPDATE_GOLDENS=1 rewrites it)");
}

fn tmp(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hyperpod");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

#[test]
fn import_of_aws_sample_commands_matches_the_golden() {
    let out = quotasim(
        &["import", "hyperpod", &fixture("awsome-task-governance.sh")],
        None,
    );
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(out.stderr, "", "{out:?}");
    check_golden("awsome-task-governance.scenario.json", &out.stdout);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // The mapping, spelled out: 2 instances each, 50 % borrowing is 1 instance, in-team
    // preemption by priority, reclaim of lent capacity, fair sharing, priority classes.
    for (i, team) in ["team-a", "team-b"].iter().enumerate() {
        let s = &v["shares"][i];
        assert_eq!(s["name"], *team);
        assert_eq!(s["limits"]["ml.g5.8xlarge"], 2);
        assert_eq!(s["borrowing_limit"]["ml.g5.8xlarge"], 1);
        assert_eq!(s["cohort"], "shared-pool");
        assert_eq!(s["preemption"]["within_share"], "lower_priority");
        assert_eq!(s["preemption"]["reclaim"], "any");
        assert_eq!(s["weight"], 0);
    }
    assert_eq!(v["priority_classes"]["inference"], 90);
    assert_eq!(v["priority_classes"]["fine-tuning"], 50);
    assert!(v["fair_sharing"].is_object());
}

#[test]
fn imported_configuration_runs_the_readme_jobs_as_the_readme_says() {
    let imp = quotasim(
        &[
            "import",
            "hyperpod",
            &fixture("awsome-task-governance.sh"),
            "--into",
            &fixture("readme-jobs.json"),
        ],
        None,
    );
    assert_eq!(imp.code, 0, "{imp:?}");
    let val = quotasim(&["validate", "-"], Some(imp.stdout.as_bytes()));
    assert_eq!(val.code, 0, "{val:?}");
    assert!(val.stdout.starts_with("valid: 2 shares, 2 jobs"), "{val:?}");
    let run = quotasim(&["run", "-"], Some(imp.stdout.as_bytes()));
    assert_eq!(run.code, 0, "{run:?}");
    let r: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let events = r["events"].as_array().unwrap();
    let find = |kind: &str, job: &str| {
        events
            .iter()
            .find(|e| e["kind"] == kind && e["job"] == job)
            .unwrap_or_else(|| panic!("no {kind} of {job}: {events:#?}"))
    };
    // Job 1: team A runs 3 instances on its 2, borrowing one of team B's idle ones.
    let d1 = find("dispatch", "job1-team-a");
    assert_eq!(
        (d1["t_s"].as_f64(), d1["borrowing"].as_bool()),
        (Some(0.0), Some(true))
    );
    // Job 2: team B takes its quota back; job 1 is preempted (reclaimed) for it.
    let p1 = find("preempt", "job1-team-a");
    assert_eq!(p1["t_s"].as_f64(), Some(600.0));
    assert_eq!(p1["cause"], "reclaim");
    assert_eq!(p1["by"], "job2-team-b");
    assert_eq!(find("dispatch", "job2-team-b")["borrowing"], false);
    let sum = quotasim(&["run", "-", "--summary"], Some(imp.stdout.as_bytes()));
    assert!(
        sum.stdout.contains("team-a") && sum.stdout.contains("team-b"),
        "{sum:?}"
    );
}

#[test]
fn export_matches_the_goldens_and_imports_back_the_same() {
    let scenario = fixture("awsome-task-governance.scenario.json");
    let json = quotasim(&["export", "hyperpod", &scenario], None);
    assert_eq!(json.code, 0, "{json:?}");
    assert_eq!(json.stderr, "", "{json:?}");
    check_golden("awsome-task-governance.export.json", &json.stdout);
    let script = quotasim(&["export", "hyperpod", "--script", &scenario], None);
    assert_eq!(script.code, 0, "{script:?}");
    check_golden("awsome-task-governance.export.sh", &script.stdout);
    let want = std::fs::read_to_string(&scenario).unwrap();
    for text in [&json.stdout, &script.stdout] {
        let back = quotasim(&["import", "hyperpod", "-"], Some(text.as_bytes()));
        assert_eq!(back.code, 0, "{back:?}");
        assert_eq!(back.stdout, want);
    }
    // A cluster ARN given: in every body, and it names the imported scenario.
    let arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456";
    let with = quotasim(
        &["export", "hyperpod", &scenario, "--cluster-arn", arn],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(&with.stdout).unwrap();
    assert!(v.as_array().unwrap().iter().all(|b| b["ClusterArn"] == arn));
    let back = quotasim(&["import", "hyperpod", "-"], Some(with.stdout.as_bytes()));
    assert!(
        back.stdout
            .contains("\"name\": \"HyperPod task governance of cluster abcdef123456\""),
        "{back:?}"
    );
}

#[test]
fn errors_name_the_file_the_command_and_the_path() {
    let bad = tmp(
        "bad.sh",
        "# a team's quota\naws sagemaker create-compute-quota --name x \\\n  --compute-quota-config \"ComputeQuotaResources=[{InstanceType=ml.g5.8xlarge,Count=two}]\" \\\n  --compute-quota-target TeamName=a\naws sagemaker create-compute-quota --compute-quota-config file://q.json --compute-quota-target \"TeamName=b,FairShareWeight=$W\"\n",
    );
    let out = quotasim(
        &[
            "import",
            "hyperpod",
            &fixture("awsome-task-governance.sh"),
            &bad,
        ],
        None,
    );
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(
        out.stderr,
        format!(
            "error: {bad}: [0].ComputeQuotaConfig.ComputeQuotaResources[0].Count: must be a whole number of instances from 0 to 1000000000, not \"two\"\n\
             error: {bad}: [1].ComputeQuotaConfig: (line 5) file://q.json: file:// arguments are not read (quotasim reads only the files it is given): paste the JSON into the command, or import the JSON file itself\n"
        )
    );
    // Quota carried by a variable: refused by name.
    let var = tmp(
        "var.sh",
        "aws sagemaker create-compute-quota --compute-quota-config \"ComputeQuotaResources=[{InstanceType=ml.g5.8xlarge,Count=$N}]\" --compute-quota-target TeamName=b\n",
    );
    let out = quotasim(&["import", "hyperpod", &var], None);
    assert_eq!(out.code, 2);
    assert_eq!(
        out.stderr,
        "error: [0].ComputeQuotaConfig.ComputeQuotaResources[0].Count: is the unexpanded shell variable $N: Count carries quota, so give its value\n"
    );
}

#[test]
fn several_clusters_and_cluster() {
    let body = |team: &str, id: &str| {
        format!(
            "{{\"ClusterArn\": \"arn:aws:sagemaker:us-west-2:123456789012:cluster/{id}\", \"ComputeQuotaConfig\": {{\"ComputeQuotaResources\": [{{\"InstanceType\": \"ml.p5.48xlarge\", \"Count\": 1}}]}}, \"ComputeQuotaTarget\": {{\"TeamName\": \"{team}\"}}}}"
        )
    };
    let text = format!(
        "{{\"ComputeQuotaSummaries\": [{}, {}]}}",
        body("a", "aaaaaaaaaaaa"),
        body("b", "bbbbbbbbbbbb")
    );
    let out = quotasim(&["import", "hyperpod", "-"], Some(text.as_bytes()));
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr, "error: compute quotas of several clusters: arn:aws:sagemaker:us-west-2:123456789012:cluster/aaaaaaaaaaaa, arn:aws:sagemaker:us-west-2:123456789012:cluster/bbbbbbbbbbbb (--cluster ARN picks one)\n");
    let out = quotasim(
        &["import", "hyperpod", "-", "--cluster", "bbbbbbbbbbbb"],
        Some(text.as_bytes()),
    );
    assert_eq!(out.code, 0, "{out:?}");
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["shares"].as_array().unwrap().len(), 1);
    assert_eq!(v["shares"][0]["name"], "b");
}

#[test]
fn export_refuses_what_hyperpod_cannot_say() {
    // A hierarchical Kueue configuration: nested cohorts, a cohort's own quota, ...
    let kueue = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../engine/tests/config/kueue-hierarchical.yaml");
    let imp = quotasim(
        &[
            "import",
            "kueue",
            kueue.to_str().unwrap(),
            "--flavor-map",
            "a100=ml.p4d.24xlarge",
        ],
        None,
    );
    assert_eq!(imp.code, 0, "{imp:?}");
    let out = quotasim(&["export", "hyperpod", "-"], Some(imp.stdout.as_bytes()));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stdout.is_empty());
    assert!(
        out.stderr
            .contains("HyperPod task governance has no nested cohorts (cohort"),
        "{out:?}"
    );
    for line in out.stderr.lines() {
        assert!(
            line.starts_with("error: ") && line.contains(": HyperPod task governance has no "),
            "{line}"
        );
    }
}

#[test]
fn an_aws_batch_scenario_exports_by_the_translation_table() {
    let g = golden("aws-walkthrough.json");
    let out = quotasim(&["export", "hyperpod", g.to_str().unwrap()], None);
    assert_eq!(out.code, 0, "{out:?}");
    assert!(
        out.stderr
            .starts_with("warning: an AWS Batch scenario, written by SPEC 12's translation"),
        "{out:?}"
    );
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // background LEND_AND_BORROW 200, medium LEND, protected RESERVE.
    let cfg = |i: usize| &v[i]["ComputeQuotaConfig"];
    assert_eq!(cfg(1)["ResourceSharingConfig"]["Strategy"], "LendAndBorrow");
    assert_eq!(cfg(1)["ResourceSharingConfig"]["BorrowLimit"], 200);
    assert_eq!(cfg(1)["PreemptTeamTasks"], "LowerPriority");
    assert_eq!(cfg(2)["ResourceSharingConfig"]["Strategy"], "Lend");
    assert_eq!(cfg(2)["PreemptTeamTasks"], "Never");
    assert_eq!(cfg(3)["ResourceSharingConfig"]["Strategy"], "DontLend");
    let back = quotasim(&["import", "hyperpod", "-"], Some(out.stdout.as_bytes()));
    assert_eq!(back.code, 0, "{back:?}");
}

#[test]
fn hostile_input_is_refused_without_a_panic() {
    let deep = format!(
        "aws sagemaker create-compute-quota --compute-quota-target TeamName=a --compute-quota-config 'ComputeQuotaResources={}{}'\n",
        "[".repeat(10_000),
        "]".repeat(10_000)
    );
    let out = quotasim(&["import", "hyperpod", "-"], Some(deep.as_bytes()));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(
        out.stderr.contains("nested deeper than 32 levels"),
        "{out:?}"
    );
    let unbalanced = "aws sagemaker create-compute-quota --compute-quota-config \"ComputeQuotaResources=[{InstanceType=ml.g5.8xlarge,Count=2}\" --compute-quota-target TeamName=a\n";
    let out = quotasim(&["import", "hyperpod", "-"], Some(unbalanced.as_bytes()));
    assert_eq!(out.code, 2, "{out:?}");
    assert_eq!(out.stderr, "error: [0].ComputeQuotaConfig: (line 1) shorthand syntax: unclosed '[': expected ',' or ']', found the end (at character 60)\n");
    let big = vec![b'#'; 8 * 1024 * 1024 + 10];
    let out = quotasim(&["import", "hyperpod", "-"], Some(&big));
    assert_eq!(out.code, 2, "{out:?}");
    assert!(out.stderr.contains("over the 8 MiB limit"), "{out:?}");
    assert!(!out.stderr.contains("panicked"));
}
