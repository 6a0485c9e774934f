//! `quotasim sweep` (SPEC 15) end to end: one JSON line per run in value-then-seed order,
//! each with the metrics of a plain `quotasim run` of its variant; `--summary`; the same
//! bytes whatever `--jobs`; bad paths and refused values exit 2 before anything runs.

mod common;

use common::{golden, quotasim, Out};
use serde_json::Value;

fn walkthrough() -> String {
    golden("aws-walkthrough.json").to_str().unwrap().to_string()
}

fn lines(out: &Out) -> Vec<Value> {
    assert_eq!(out.code, 0, "{out:?}");
    out.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l:.300}")))
        .collect()
}

fn assert_clean_failure(out: &Out, what: &str, names: &str) {
    assert_eq!(out.code, 2, "{what}: {out:?}");
    assert!(out.stdout.is_empty(), "{what}: nothing runs: {out:?}");
    assert!(out.stderr.contains(names), "{what}: names {names}: {out:?}");
    for word in ["panicked", "backtrace"] {
        assert!(!out.stderr.contains(word), "{what}: {word}: {out:?}");
    }
}

#[test]
fn one_line_per_value_and_seed_with_the_metrics_of_a_plain_run() {
    let path = "shares[0].borrow_limit";
    let out = quotasim(
        &[
            "sweep",
            &walkthrough(),
            "--vary",
            &format!("{path}=0..200:100"),
            "--seeds",
            "2",
        ],
        None,
    );
    let got = lines(&out);
    assert_eq!(got.len(), 6, "3 values x 2 seeds");
    assert_eq!(
        out.stderr, "",
        "no progress bar when stderr is not a terminal"
    );
    let text = std::fs::read_to_string(golden("aws-walkthrough.json")).unwrap();
    let base: Value = serde_json::from_str(&text).unwrap();
    for (i, line) in got.iter().enumerate() {
        let (value, seed) = ((i / 2) as i64 * 100, 7 + (i % 2) as u64);
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["values", "seed", "shares", "totals"]);
        assert_eq!(line["values"][path], value);
        assert_eq!(line["seed"], seed);
        // The same metrics as `quotasim run` of the variant.
        let mut variant = base.clone();
        variant["shares"][0]["borrow_limit"] = value.into();
        variant["seed"] = seed.into();
        let run = quotasim(&["run", "-"], Some(variant.to_string().as_bytes()));
        assert_eq!(run.code, 0, "{run:?}");
        let result: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(line["shares"], result["shares"], "line {i}");
        assert_eq!(line["totals"], result["totals"], "line {i}");
    }
}

#[test]
fn summary_gives_a_band_per_value_and_share() {
    let out = quotasim(
        &[
            "sweep",
            &walkthrough(),
            "--vary",
            "shares[0].borrow_limit=0..100:100",
            "--seeds",
            "3",
            "--summary",
        ],
        None,
    );
    let got = lines(&out);
    assert_eq!(got.len(), 2, "one line per value");
    for line in &got {
        assert_eq!(line["seeds"], 3);
        for share in ["background", "medium", "protected"] {
            for metric in ["completion_p90_s", "goodput", "lost_h", "deadline_misses"] {
                let b = &line["shares"][share][metric];
                let (lo, mid, hi) = (
                    b["p10"].as_f64().unwrap(),
                    b["median"].as_f64().unwrap(),
                    b["p90"].as_f64().unwrap(),
                );
                assert!(lo <= mid && mid <= hi, "{share} {metric}: {b}");
            }
        }
        assert!(line["totals"]["goodput"]["median"].is_number());
    }
}

#[test]
fn the_output_is_the_same_bytes_whatever_the_thread_count() {
    let args = |jobs: &'static str| {
        quotasim(
            &[
                "sweep",
                &walkthrough(),
                "--vary",
                "shares[0].borrow_limit=0..200:50",
                "--vary",
                "shares[1].limits.ml.g5.xlarge=0..2:1",
                "--seeds",
                "2",
                "--jobs",
                jobs,
            ],
            None,
        )
    };
    let (one, two) = (args("1"), args("2"));
    assert_eq!(lines(&one).len(), 5 * 3 * 2);
    assert_eq!(one.stdout, two.stdout);
    // Value index first (the last --vary fastest), then seed.
    let got = lines(&one);
    assert_eq!(got[1]["seed"], 8);
    assert_eq!(got[2]["values"]["shares[1].limits.ml.g5.xlarge"], 1);
    assert_eq!(got[6]["values"]["shares[0].borrow_limit"], 50);
}

#[test]
fn a_bad_path_exits_2_naming_it_before_anything_runs() {
    let out = quotasim(
        &[
            "sweep",
            &walkthrough(),
            "--vary",
            "shares[0].borow_limit=0..2:1",
        ],
        None,
    );
    assert_clean_failure(&out, "misspelt field", "shares[0].borow_limit");
    let out = quotasim(
        &[
            "sweep",
            &walkthrough(),
            "--vary",
            "shares[9].borrow_limit=0..2:1",
        ],
        None,
    );
    assert_clean_failure(&out, "no such share", "shares[9].borrow_limit");
    let out = quotasim(
        &[
            "sweep",
            &walkthrough(),
            "--vary",
            "shares[0].borrow_limit=2..0:1",
        ],
        None,
    );
    assert_clean_failure(&out, "empty range", "shares[0].borrow_limit");
    let out = quotasim(&["sweep", &walkthrough(), "--vary", "nonsense"], None);
    assert_clean_failure(&out, "no '='", "PATH=FROM..TO:STEP");
}

#[test]
fn a_refused_value_exits_2_naming_its_path_before_anything_runs() {
    // -1 means unlimited; -2 is refused by the validator, so even the valid values do not run.
    let out = quotasim(
        &[
            "sweep",
            &walkthrough(),
            "--vary",
            "shares[0].borrow_limit=-2..100:1",
        ],
        None,
    );
    assert_clean_failure(&out, "refused value", "shares[0].borrow_limit=-2");
    assert!(
        out.stderr.starts_with("error: shares[0].borrow_limit:"),
        "{out:?}"
    );
}
