//! Unit tests of [`super::parse`]: every field and form, and every problem with its path.

use super::*;
use serde_json::json;

const SHARES: &[&str] = &["alpha", "beta", "gamma"];
const TYPES: &[&str] = &["ml.g5.xlarge", "ml.p5.48xlarge"];

fn parse_ok(v: Value) -> Workload {
    let mut problems = Vec::new();
    let w = parse(
        &v,
        &Path::root().key("workloads").idx(0),
        SHARES,
        TYPES,
        false,
        &mut problems,
    );
    assert!(problems.is_empty(), "unexpected problems: {problems:?}");
    w.expect("a workload")
}

/// The problems of parsing `v` as `workloads[3]`, which must refuse it.
fn refusal(v: Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let w = parse(
        &v,
        &Path::root().key("workloads").idx(3),
        SHARES,
        TYPES,
        false,
        &mut problems,
    );
    assert!(w.is_none(), "expected problems for {v}");
    problems
}

/// [`refusal`] as "path: message" strings.
fn problems_of(v: Value) -> Vec<String> {
    let problems = refusal(v);
    assert!(!problems.is_empty());
    problems
        .into_iter()
        .map(|p| format!("{}: {}", p.path, p.message))
        .collect()
}

fn paths_of(v: Value) -> Vec<String> {
    refusal(v).into_iter().map(|p| p.path.to_string()).collect()
}

fn base() -> Value {
    json!({"share": "beta", "count": 5, "arrival": {"poisson_per_hour": 2},
           "instance_type": "ml.g5.xlarge", "work_s": 600})
}

fn with(key: &str, value: Value) -> Value {
    let mut v = base();
    v[key] = value;
    v
}

fn without(key: &str) -> Value {
    let mut v = base();
    v.as_object_mut().expect("object").remove(key);
    v
}

// ---- parsing -------------------------------------------------------------------

#[test]
fn parses_the_spec_example() {
    let w = parse_ok(
        json!({"share": "beta", "count": 50, "arrival": {"poisson_per_hour": 2},
        "instance_type": "ml.p5.48xlarge", "instances": 1,
        "work_s": {"lognormal": {"median": 3600, "sigma": 1.0}},
        "priority": 0, "checkpoint": {"interval_s": 1800, "cost_s": 60, "restore_s": 120}}),
    );
    assert_eq!(
        w,
        Workload {
            share: 1,
            share_name: "beta".into(),
            count: 50,
            arrival: Arrival::PoissonPerHour(2.0),
            instance_type: 1,
            instances: Dist::Fixed(1.0),
            work_s: Dist::Lognormal {
                median: 3600.0,
                sigma: 1.0
            },
            priority: Dist::Fixed(0.0),
            startup_s: Dist::Fixed(0.0),
            checkpoint: Some(Checkpoint {
                interval: 1_800_000,
                cost: 60_000,
                restore: 120_000
            }),
            checkpoint_on_preempt: false,
            preemption_retries: None,
            deadline_factor: None,
            recovery: None,
            on_retries_exhausted: Default::default(),
            escalate: None,
            kueue: false,
        }
    );
}

#[test]
fn parses_every_field_and_form() {
    let w = parse_ok(json!({"share": "gamma", "arrival": {"at_s": [5, 1.5, 3]},
        "instance_type": "ml.g5.xlarge",
        "instances": {"choice": [[1, 3], [2, 1], [8, 0]]},
        "work_s": {"exponential": {"mean": 100}},
        "priority": {"uniform": [0, 9999]},
        "startup_s": {"fixed": 30},
        "checkpoint": {"interval_s": 0.001},
        "checkpoint_on_preempt": true, "preemption_retries": 3.0, "deadline_factor": 2.5}));
    assert_eq!(w.count, 3);
    assert_eq!(w.arrival, Arrival::At(vec![5.0, 1.5, 3.0]));
    assert_eq!(
        w.instances,
        Dist::Choice(vec![(1.0, 3.0), (2.0, 1.0), (8.0, 0.0)])
    );
    assert_eq!(w.work_s, Dist::Exponential { mean: 100.0 });
    assert_eq!(w.priority, Dist::Uniform(0.0, 9999.0));
    assert_eq!(w.startup_s, Dist::Fixed(30.0));
    assert_eq!(
        w.checkpoint,
        Some(Checkpoint {
            interval: 1,
            cost: 0,
            restore: 0
        })
    );
    assert!(w.checkpoint_on_preempt);
    assert_eq!(w.preemption_retries, Some(3));
    assert_eq!(w.deadline_factor, Some(2.5));
    // at_s with a matching count; uniform arrival; explicit nulls are defaults.
    let w = parse_ok(
        json!({"share": "alpha", "count": 2, "arrival": {"at_s": [0, 0]},
        "instance_type": "ml.g5.xlarge", "work_s": 1, "preemption_retries": null,
        "checkpoint": null, "priority": null}),
    );
    assert_eq!(
        (w.count, w.preemption_retries, w.checkpoint),
        (2, None, None)
    );
    assert_eq!(w.priority, Dist::Fixed(0.0));
    let w = parse_ok(with("arrival", json!({"uniform": [10, 10]})));
    assert_eq!(w.arrival, Arrival::Uniform(10.0, 10.0));
    // count 0 is allowed: the workload generates nothing.
    assert_eq!(parse_ok(with("count", json!(0))).count, 0);
}

#[test]
fn reports_missing_and_unknown_fields() {
    let v = json!({"arrival": {"poisson_per_hour": 1}});
    assert_eq!(
        problems_of(v),
        [
            "workloads[3].share: is required",
            "workloads[3].instance_type: is required",
            "workloads[3].count: is required (unless arrival is at_s)",
            "workloads[3].work_s: is required",
        ]
    );
    assert_eq!(
        problems_of(json!(5)),
        ["workloads[3]: must be an object (a workload)"]
    );
    // Unknown keys of the workload and of its checkpoint are left to the caller (it warns).
    let mut v = with("checkpoint", json!({"interval_s": 10, "every": 1}));
    v["comment"] = json!("nightly batch");
    let checkpoint = Checkpoint {
        interval: 10_000,
        cost: 0,
        restore: 0,
    };
    assert_eq!(parse_ok(v).checkpoint, Some(checkpoint));
    assert!(FIELDS.contains(&"deadline_factor") && CHECKPOINT_FIELDS.len() == 3);
    assert_eq!(
        problems_of(without("arrival")),
        ["workloads[3].arrival: is required"]
    );
}

#[test]
fn reports_unknown_names_with_the_known_ones() {
    assert_eq!(
        problems_of(with("share", json!("delta"))),
        ["workloads[3].share: unknown share \"delta\" (known: alpha, beta, gamma)"]
    );
    assert_eq!(
        problems_of(with("instance_type", json!("ml.x"))),
        ["workloads[3].instance_type: unknown instance type \"ml.x\" (known: ml.g5.xlarge, ml.p5.48xlarge)"]
    );
    assert_eq!(
        problems_of(with("share", json!(3))),
        ["workloads[3].share: must be a string, not a number"]
    );
    let mut problems = Vec::new();
    assert!(parse(
        &base(),
        &Path::root().key("workloads").idx(0),
        &[],
        TYPES,
        false,
        &mut problems
    )
    .is_none());
    assert_eq!(
        problems[0].message,
        "unknown share \"beta\" (none is defined)"
    );
}

#[test]
fn reports_arrival_problems() {
    let cases = [
        (json!(3), "workloads[3].arrival"),
        (json!({}), "workloads[3].arrival"),
        (
            json!({"poisson_per_hour": 1, "at_s": []}),
            "workloads[3].arrival",
        ),
        (json!({"poisson": 1}), "workloads[3].arrival"),
        (
            json!({"poisson_per_hour": 0}),
            "workloads[3].arrival.poisson_per_hour",
        ),
        (
            json!({"poisson_per_hour": "2"}),
            "workloads[3].arrival.poisson_per_hour",
        ),
        (json!({"uniform": [5]}), "workloads[3].arrival.uniform"),
        (json!({"uniform": [5, 1]}), "workloads[3].arrival.uniform"),
        (
            json!({"uniform": [-1, 1]}),
            "workloads[3].arrival.uniform[0]",
        ),
        (
            json!({"uniform": [0, "x"]}),
            "workloads[3].arrival.uniform[1]",
        ),
        (
            json!({"uniform": [0, 2e12]}),
            "workloads[3].arrival.uniform[1]",
        ),
        (json!({"at_s": 5}), "workloads[3].arrival.at_s"),
    ];
    for (arrival, path) in cases {
        assert_eq!(
            paths_of(with("arrival", arrival.clone())),
            [path],
            "{arrival}"
        );
    }
    assert_eq!(
        problems_of(with("arrival", json!({"poisson": 1}))),
        ["workloads[3].arrival: unknown arrival process \"poisson\" (accepted: poisson_per_hour, uniform, at_s)"]
    );
    assert_eq!(
        problems_of(with("arrival", json!({}))),
        ["workloads[3].arrival: must have exactly one key, the arrival process: one of poisson_per_hour, uniform, at_s"]
    );
    assert_eq!(
        problems_of(with("arrival", json!({"at_s": [1, -2, 3, "x", 1e13]}))),
        [
            "workloads[3].arrival.at_s[1]: must be >= 0 (got -2)",
            "workloads[3].arrival.at_s[3]: must be a number of seconds, not a string",
            "workloads[3].arrival.at_s[4]: must be at most 1e12 seconds (got 10000000000000)",
        ]
    );
}

#[test]
fn reports_count_problems() {
    assert_eq!(
        problems_of(with("count", json!(-1))),
        ["workloads[3].count: must be >= 0 (got -1)"]
    );
    assert_eq!(paths_of(with("count", json!(2.5))), ["workloads[3].count"]);
    assert_eq!(
        problems_of(with("count", json!(MAX_COUNT + 1))),
        ["workloads[3].count: must be <= 1000000 (got 1000001)"]
    );
    let mut v = with("arrival", json!({"at_s": [1, 2, 3]}));
    v["count"] = json!(2);
    assert_eq!(
        problems_of(v),
        ["workloads[3].count: must equal the number of arrival.at_s times (3) or be omitted"]
    );
    // An invalid at_s list does not also make `count` required.
    let mut v = with("arrival", json!({"at_s": "soon"}));
    v.as_object_mut().expect("object").remove("count");
    assert_eq!(paths_of(v), ["workloads[3].arrival.at_s"]);
}

#[test]
fn reports_distribution_problems_with_exact_paths() {
    let cases = [
        ("work_s", json!("long"), "workloads[3].work_s"),
        ("work_s", json!(0), "workloads[3].work_s"),
        ("work_s", json!({"fixed": -1}), "workloads[3].work_s.fixed"),
        ("work_s", json!({"fixed": "x"}), "workloads[3].work_s.fixed"),
        (
            "work_s",
            json!({"normal": {"mean": 1}}),
            "workloads[3].work_s",
        ),
        (
            "work_s",
            json!({"fixed": 1, "uniform": [1, 2]}),
            "workloads[3].work_s",
        ),
        (
            "work_s",
            json!({"uniform": [3, 2]}),
            "workloads[3].work_s.uniform",
        ),
        (
            "work_s",
            json!({"uniform": [1, 2, 3]}),
            "workloads[3].work_s.uniform",
        ),
        (
            "work_s",
            json!({"uniform": [-1, 2]}),
            "workloads[3].work_s.uniform[0]",
        ),
        (
            "work_s",
            json!({"exponential": 5}),
            "workloads[3].work_s.exponential",
        ),
        (
            "work_s",
            json!({"exponential": {}}),
            "workloads[3].work_s.exponential.mean",
        ),
        (
            "work_s",
            json!({"exponential": {"mean": 0}}),
            "workloads[3].work_s.exponential.mean",
        ),
        (
            "work_s",
            json!({"exponential": {"mean": 1, "rate": 1}}),
            "workloads[3].work_s.exponential",
        ),
        (
            "work_s",
            json!({"lognormal": {"median": 0, "sigma": 1}}),
            "workloads[3].work_s.lognormal.median",
        ),
        (
            "work_s",
            json!({"lognormal": {"median": 10, "sigma": -1}}),
            "workloads[3].work_s.lognormal.sigma",
        ),
        (
            "work_s",
            json!({"lognormal": {"median": 10}}),
            "workloads[3].work_s.lognormal.sigma",
        ),
        (
            "work_s",
            json!({"choice": []}),
            "workloads[3].work_s.choice",
        ),
        (
            "work_s",
            json!({"choice": [[1, 0], [2, 0]]}),
            "workloads[3].work_s.choice",
        ),
        (
            "work_s",
            json!({"choice": [[1, 1], 2]}),
            "workloads[3].work_s.choice[1]",
        ),
        (
            "work_s",
            json!({"choice": [[1, 1], [0, 1]]}),
            "workloads[3].work_s.choice[1][0]",
        ),
        (
            "work_s",
            json!({"choice": [[1, -1]]}),
            "workloads[3].work_s.choice[0][1]",
        ),
        ("instances", json!(0), "workloads[3].instances"),
        (
            "instances",
            json!({"uniform": [0, 4]}),
            "workloads[3].instances.uniform[0]",
        ),
        (
            "instances",
            json!({"choice": [[1, 1], [0.5, 1]]}),
            "workloads[3].instances.choice[1][0]",
        ),
        ("priority", json!(10000), "workloads[3].priority"),
        (
            "priority",
            json!({"fixed": -1}),
            "workloads[3].priority.fixed",
        ),
        (
            "priority",
            json!({"uniform": [1, 10000]}),
            "workloads[3].priority.uniform[1]",
        ),
        (
            "priority",
            json!({"choice": [[-3, 1]]}),
            "workloads[3].priority.choice[0][0]",
        ),
        ("startup_s", json!(-5), "workloads[3].startup_s"),
        (
            "startup_s",
            json!({"uniform": [-5, 5]}),
            "workloads[3].startup_s.uniform[0]",
        ),
    ];
    for (key, value, path) in cases {
        assert_eq!(paths_of(with(key, value.clone())), [path], "{key}: {value}");
    }
    // Both bounds of a uniform are checked.
    assert_eq!(
        paths_of(with("work_s", json!({"uniform": [-2, 0]}))),
        [
            "workloads[3].work_s.uniform[0]",
            "workloads[3].work_s.uniform[1]"
        ]
    );
    assert_eq!(
        paths_of(with("priority", json!({"uniform": [-1, 10000]}))),
        [
            "workloads[3].priority.uniform[0]",
            "workloads[3].priority.uniform[1]"
        ]
    );
    // The messages the brief names.
    assert_eq!(
        problems_of(with(
            "work_s",
            json!({"lognormal": {"median": 10, "sigma": -1}})
        )),
        ["workloads[3].work_s.lognormal.sigma: must be >= 0 (got -1)"]
    );
    assert_eq!(
        problems_of(with("work_s", json!({"normal": {"mean": 1}}))),
        ["workloads[3].work_s: unknown distribution \"normal\" (accepted: fixed, uniform, exponential, lognormal, choice)"]
    );
    assert_eq!(
        problems_of(with(
            "work_s",
            json!({"lognormal": {"median": 1, "sigma": 1, "mu": 0}})
        )),
        ["workloads[3].work_s.lognormal: unknown key \"mu\" (accepted: median, sigma)"]
    );
    assert_eq!(
        problems_of(with("instances", json!({"choice": [[1, 1], [0.5, 1]]}))),
        ["workloads[3].instances.choice[1][0]: must be >= 1 (got 0.5)"]
    );
    assert_eq!(
        problems_of(with("priority", json!(10000))),
        ["workloads[3].priority: must be <= 9999 (got 10000)"]
    );
    // Statically unknowable ranges are fine: they are clamped when sampled.
    parse_ok(with("priority", json!({"exponential": {"mean": 50000}})));
    parse_ok(with("work_s", json!({"uniform": [0, 10]})));
    parse_ok(with(
        "work_s",
        json!({"lognormal": {"median": 10, "sigma": 0}}),
    ));
}

#[test]
fn reports_other_field_problems() {
    let cases = [
        ("checkpoint", json!(5), "workloads[3].checkpoint"),
        (
            "checkpoint",
            json!({"cost_s": 1}),
            "workloads[3].checkpoint.interval_s",
        ),
        (
            "checkpoint",
            json!({"interval_s": 0}),
            "workloads[3].checkpoint.interval_s",
        ),
        (
            "checkpoint",
            json!({"interval_s": 0.0004}),
            "workloads[3].checkpoint.interval_s",
        ),
        (
            "checkpoint",
            json!({"interval_s": 10, "cost_s": -1}),
            "workloads[3].checkpoint.cost_s",
        ),
        (
            "checkpoint",
            json!({"interval_s": 10, "restore_s": "x"}),
            "workloads[3].checkpoint.restore_s",
        ),
        (
            "checkpoint",
            json!({"interval_s": 1e13}),
            "workloads[3].checkpoint.interval_s",
        ),
        (
            "checkpoint_on_preempt",
            json!(1),
            "workloads[3].checkpoint_on_preempt",
        ),
        (
            "preemption_retries",
            json!(-1),
            "workloads[3].preemption_retries",
        ),
        (
            "preemption_retries",
            json!(1.5),
            "workloads[3].preemption_retries",
        ),
        (
            "preemption_retries",
            json!("3"),
            "workloads[3].preemption_retries",
        ),
        ("deadline_factor", json!(0), "workloads[3].deadline_factor"),
        (
            "deadline_factor",
            json!(true),
            "workloads[3].deadline_factor",
        ),
    ];
    for (key, value, path) in cases {
        assert_eq!(paths_of(with(key, value.clone())), [path], "{key}: {value}");
    }
    assert_eq!(
        problems_of(with("checkpoint", json!({"interval_s": 0.0004}))),
        ["workloads[3].checkpoint.interval_s: must be at least 0.001 seconds (1 ms) (got 0.0004)"]
    );
}

#[test]
fn reports_every_problem_at_once() {
    let v = json!({"share": "nope", "count": -2, "arrival": {"uniform": [4, 2]},
        "instance_type": "ml.x", "work_s": {"exponential": {"mean": -1}},
        "instances": 0, "priority": 1e6, "startup_s": -1, "deadline_factor": -1});
    assert_eq!(
        paths_of(v),
        [
            "workloads[3].share",
            "workloads[3].instance_type",
            "workloads[3].arrival.uniform",
            "workloads[3].count",
            "workloads[3].instances",
            "workloads[3].work_s.exponential.mean",
            "workloads[3].priority",
            "workloads[3].startup_s",
            "workloads[3].deadline_factor",
        ]
    );
}
