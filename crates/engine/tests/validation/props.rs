//! Property tests: `load` never panics, whatever the text.

use super::*;

fn aws_walkthrough() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/aws-walkthrough.json"
    ))
    .expect("the AWS walkthrough golden scenario")
}

/// Field names and values that steer random documents deep into the validator.
const KEYS: &[&str] = &[
    "format",
    "name",
    "seed",
    "horizon_s",
    "instance_types",
    "capacity",
    "queue",
    "queueing",
    "preemption_grace_s",
    "shares",
    "limits",
    "strategy",
    "borrow_limit",
    "in_share_preemption",
    "state",
    "jobs",
    "id",
    "share",
    "instance_type",
    "instances",
    "priority",
    "submit_s",
    "work_s",
    "startup_s",
    "checkpoint",
    "interval_s",
    "cost_s",
    "restore_s",
    "checkpoint_on_preempt",
    "preemption_retries",
    "deadline_s",
    "workloads",
    "count",
    "arrival",
    "poisson_per_hour",
    "uniform",
    "at_s",
    "fixed",
    "exponential",
    "mean",
    "lognormal",
    "median",
    "sigma",
    "choice",
    "events",
    "set_priority",
    "update_share",
    "job",
    "gpus",
    "usd_per_hour",
    "ml.g5.xlarge",
];

const STRINGS: &[&str] = &[
    "quotalab/v1",
    "ml.g5.xlarge",
    "ml.p4d.24xlarge",
    "RESERVE",
    "LEND",
    "LEND_AND_BORROW",
    "ENABLED",
    "DISABLED",
    "best_effort_fifo",
    "strict_fifo",
    "background",
    "medium",
    "protected",
    "bg-p1",
    "medium-1",
    "",
];

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-3i64..30).prop_map(|n| json!(n)),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        any::<f64>()
            .prop_filter("JSON numbers are finite", |x| x.is_finite())
            .prop_map(|x| json!(x)),
        prop::sample::select(vec![
            0.5, -0.5, 1e12, 1e13, 9.0e15, 1.8e19, -1e300, 1e300, 5e-324, 0.0004
        ])
        .prop_map(|x| json!(x)),
        prop::sample::select(STRINGS).prop_map(|s| json!(s)),
        ".{0,12}".prop_map(Value::String),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(KEYS).prop_map(str::to_string),
        1 => "[a-z_.]{0,8}",
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..10)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    })
}

/// JSON pointers of every leaf (and empty container) of a document.
fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Array(a) if !a.is_empty() => {
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{at}/{i}"), out);
            }
        }
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                let k = k.replace('~', "~0").replace('/', "~1");
                leaves(x, format!("{at}/{k}"), out);
            }
        }
        _ => out.push(at),
    }
}

fn mutate(doc: &Value, pick: prop::sample::Index, replacement: Value) -> Value {
    let mut doc = doc.clone();
    let mut all = Vec::new();
    leaves(&doc, String::new(), &mut all);
    let at = &all[pick.index(all.len())];
    *doc.pointer_mut(at).expect("a leaf pointer") = replacement;
    doc
}

fn check_no_panic(text: &str) {
    // Any outcome is fine; a panic fails the property. Problems always have a message.
    match load(text) {
        Ok(_) => {}
        Err(problems) => {
            assert!(!problems.is_empty());
            assert!(problems.iter().all(|p| !p.message.is_empty()));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn load_never_panics_on_arbitrary_strings(text in any::<String>()) {
        check_no_panic(&text);
    }

    #[test]
    fn load_never_panics_on_json_like_text(text in "[{}\\[\\]\",:0-9a-z_. \n-]{0,64}") {
        check_no_panic(&text);
    }

    #[test]
    fn load_never_panics_on_random_json(v in json_value()) {
        check_no_panic(&v.to_string());
    }

    #[test]
    fn load_never_panics_on_random_scenario_shapes(
        shares in prop::collection::vec(json_value(), 0..4),
        jobs in prop::collection::vec(json_value(), 0..4),
        events in prop::collection::vec(json_value(), 0..3),
        workloads in prop::collection::vec(json_value(), 0..2),
        capacity in json_value(),
    ) {
        let v = json!({"format": "quotalab/v1", "shares": shares, "jobs": jobs,
                       "events": events, "workloads": workloads, "capacity": capacity});
        check_no_panic(&v.to_string());
    }

    #[test]
    fn load_never_panics_on_mutated_walkthrough(
        pick in any::<prop::sample::Index>(),
        replacement in prop_oneof![4 => leaf(), 1 => json_value()],
    ) {
        let doc: Value = serde_json::from_str(&aws_walkthrough()).unwrap();
        let text = mutate(&doc, pick, replacement).to_string();
        check_no_panic(&text);
    }

    /// Every mutant that validates also simulates without a panic, and deterministically.
    #[test]
    fn valid_mutants_of_the_walkthrough_simulate(
        pick in any::<prop::sample::Index>(),
        replacement in leaf(),
    ) {
        let doc: Value = serde_json::from_str(&aws_walkthrough()).unwrap();
        let text = mutate(&doc, pick, replacement).to_string();
        if let Ok(first) = quotalab_engine::run_json(&text) {
            prop_assert_eq!(first, quotalab_engine::run_json(&text).unwrap());
        }
    }
}

#[test]
fn the_walkthrough_is_valid() {
    let loaded = load(&aws_walkthrough()).unwrap();
    assert_eq!(loaded.scenario.shares.len(), 3);
    assert_eq!(loaded.warnings, vec![]);
}
