//! Every defect the fuzz targets found (fuzz/, docs/RELIABILITY.md), as an ordinary test:
//! the input that failed, reduced, and what the engine does with it now.

use quotalab_engine::{load, run_json};
use serde_json::{json, Value};

fn scenario(jobs: Value, workloads: Value) -> String {
    json!({
        "format": "quotalab/v1",
        "capacity": {"ml.p4d.24xlarge": 4},
        "shares": [{"name": "s0", "limits": {"ml.p4d.24xlarge": 4}, "strategy": "LEND_AND_BORROW"}],
        "jobs": jobs,
        "workloads": workloads,
    })
    .to_string()
}

fn problems(text: &str) -> Vec<String> {
    match load(text) {
        Ok(_) => panic!("accepted: {text}"),
        Err(p) => p.iter().map(ToString::to_string).collect(),
    }
}

/// Found by `simulate` (crash-888b04ae): 10^12 s of work saving a checkpoint of 10^9 s every
/// day spends 1.2 x 10^19 ms saving, past i64: the run length overflowed (a panic in a
/// checked build, a negative end time otherwise). Now refused where the product is named.
#[test]
fn a_run_whose_checkpoints_overflow_time_is_refused() {
    let job = |work: f64| {
        json!([{"id": "j2", "share": "s0", "instance_type": "ml.p4d.24xlarge", "instances": 2, "submit_s": 0,
            "work_s": work,
            "checkpoint": {"interval_s": 86400, "cost_s": 1e9, "restore_s": 1e12}}])
    };
    assert_eq!(
        problems(&scenario(job(1e12), json!([]))),
        ["jobs[0].checkpoint.cost_s: saving a checkpoint of 1000000000 s every 86400 s of 1000000000000 s of work takes more than 1e12 s (SPEC 2's bound on a time)"]
    );
    // The most work that fits (1000 saves of 10^9 s: 1001 days) runs to the end.
    let fits = 1001.0 * 86400.0;
    let out: Value =
        serde_json::from_str(&run_json(&scenario(job(fits), json!([]))).unwrap()).unwrap();
    assert_eq!(out["jobs"][0]["state"], "SUCCEEDED", "{out}");
    assert!(problems(&scenario(job(fits + 0.001), json!([])))[0].contains("checkpoint.cost_s"));
}

/// The same checkpoint block on generated jobs: their sampled work is clamped to what fits
/// (as every sampled time is clamped to SPEC 2's bound), and the run ends.
#[test]
fn generated_work_is_clamped_to_what_its_checkpoints_allow() {
    let workloads = json!([{"share": "s0", "count": 3, "arrival": {"uniform": [0, 10]},
        "instance_type": "ml.p4d.24xlarge", "work_s": {"fixed": 1e12},
        "checkpoint": {"interval_s": 86400, "cost_s": 1e9, "restore_s": 1}}]);
    let text = scenario(json!([]), workloads);
    let out: Value = serde_json::from_str(&run_json(&text).unwrap()).unwrap();
    for job in out["jobs"].as_array().unwrap() {
        assert_eq!(job["state"], "SUCCEEDED", "{job}");
    }
}

/// Found by `hyperpod` (crash-c8e28058): a command line's `TeamName=team-ak\0\0\0rShareWeight=0`
/// was imported as a share that the HyperPod export then refused ("no team named ..."), so an
/// import's scenario did not export. A TeamName HyperPod would reject is now refused where it
/// is read, with HyperPod's rule; a valid one still round-trips.
#[test]
fn a_team_name_hyperpod_rejects_is_refused_at_import() {
    use quotalab_engine::config::hyperpod::{export, import, ExportOptions, ImportOptions};
    let cmd = |team: &str| {
        format!(
            "aws sagemaker create-compute-quota --name q --cluster-arn arn:x \\\n  --compute-quota-config \"ComputeQuotaResources=[{{InstanceType=ml.g5.8xlarge,Count=2}}]\" \\\n  --compute-quota-target \"TeamName={team},FairShareWeight=0\"\n"
        )
    };
    let refused = |text: &str| -> Vec<String> {
        match import(text, &ImportOptions::default()) {
            Ok(i) => panic!("accepted: {}", i.scenario_json),
            Err(p) => p.iter().map(ToString::to_string).collect(),
        }
    };
    assert_eq!(
        refused(&cmd("team-ak\0\0\0rShareWeight=0")),
        ["[0].ComputeQuotaTarget.TeamName: \"team-ak\\0\\0\\0rShareWeight=0\" is not a team name HyperPod accepts (a TeamName is lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)"]
    );
    for bad in ["Team-A", "team_a", "-a", "a-", &"a".repeat(64)] {
        assert_eq!(refused(&cmd(bad)).len(), 1, "{bad}");
    }
    let ok = import(&cmd("team-a"), &ImportOptions::default()).unwrap();
    let out = export(&ok.scenario_json, &ExportOptions::default()).unwrap();
    let back = import(&out.text, &ImportOptions::default()).unwrap();
    assert_eq!(ok.scenario["shares"], back.scenario["shares"]);
}
