//! SPEC 11's import warnings on the command line: a share that has jobs but a limit of 0
//! instances, and a capacity under the trace's peak concurrent demand, each a `warning: ...`
//! line on stderr; the import still succeeds (exit 0, the scenario on stdout).

mod common;

use common::{philly_import, quotasim, Out};

/// The import of the Philly trace, with `extra` options.
fn philly(extra: &[&str]) -> Option<Out> {
    let mut args = vec![
        "--top-shares",
        "5",
        "--instance-type",
        "ml.p4d.24xlarge",
        "--gpus-per-instance",
        "8",
        "--limits",
        "proportional",
    ];
    args.extend_from_slice(extra);
    let out = philly_import(&args)?;
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("\"quotalab/v1\""), "{out:?}");
    Some(out)
}

fn warnings(out: &Out) -> Vec<&str> {
    out.stderr
        .lines()
        .filter(|l| l.starts_with("warning: "))
        .collect()
}

#[test]
fn a_capacity_under_the_philly_peak_is_warned_with_both_figures() {
    let Some(out) = philly(&["--capacity", "64"]) else {
        return;
    };
    // Every share keeps a limit of 1 or more at 64 instances; only the capacity is warned.
    assert_eq!(
        warnings(&out),
        [
            "warning: the capacity, 64 instances, is under the trace's peak concurrent demand of \
          865 instances (1,243 GPUs, 1140.5 h into the trace, if every job started on submit): \
          jobs will queue at peaks; a capacity of 865 instances would cover the peak"
        ],
        "{out:?}"
    );
}

#[test]
fn a_philly_team_left_at_limit_0_is_warned_with_its_jobs_and_demand() {
    // The page's import of a large trace: its first 5,000 rows, the default capacity.
    let Some(out) = philly(&["--limit-jobs", "5000"]) else {
        return;
    };
    let scenario: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let team = scenario["shares"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "11cb48")
        .expect("team 11cb48");
    assert_eq!(team["limits"]["ml.p4d.24xlarge"], 0);
    assert_eq!(
        warnings(&out),
        [
            "warning: share \"11cb48\" has 591 jobs (up to 21 GPUs at once, 315 GPU-hours in \
             all) but its limit comes out as 0 instances: its jobs can only run on capacity \
             that other shares lend; raise --capacity or use --limits equal",
            "warning: the default capacity, 22 instances (the trace's average load), is under \
             the trace's peak concurrent demand of 381 instances (614 GPUs, 742.4 h into the \
             trace, if every job started on submit): jobs will queue at peaks, as the default \
             intends; a capacity of 381 instances would cover the peak",
        ],
        "{out:?}"
    );
}

const ARGS: &[&str] = &[
    "trace",
    "import",
    "-",
    "--submit",
    "submit",
    "--duration",
    "dur",
    "--gpus",
    "gpus",
    "--share",
    "team",
];

#[test]
fn nothing_is_warned_when_every_share_has_a_limit_and_the_peak_fits() {
    let csv = "submit,dur,gpus,team\n0,100,1,a\n50,100,1,b\n100,100,1,a\n";
    let out = quotasim(&[ARGS, &["--capacity", "2"]].concat(), Some(csv.as_bytes()));
    assert_eq!(out.code, 0, "{out:?}");
    assert_eq!(
        out.stderr.trim_end(),
        "imported 3 jobs from 3 rows into 2 shares; skipped 0",
        "{out:?}"
    );
}

#[test]
fn a_small_trace_warns_on_stderr_and_still_succeeds() {
    // Demand a 100, b 1 instance-seconds: on 2 instances b's limit is 0.
    let csv = "submit,dur,gpus,team\n0,100,1,a\n0,1,1,b\n50,1,1,b\n";
    let out = quotasim(&[ARGS, &["--capacity", "2"]].concat(), Some(csv.as_bytes()));
    assert_eq!(out.code, 0, "{out:?}");
    assert!(out.stdout.contains("\"quotalab/v1\""), "{out:?}");
    assert_eq!(
        warnings(&out),
        [
            "warning: share \"b\" has 2 jobs (up to 1 GPU at once, 0 GPU-hours in all) but its \
          limit comes out as 0 instances: its jobs can only run on capacity that other shares \
          lend; raise --capacity or use --limits equal"
        ],
        "{out:?}"
    );
}
