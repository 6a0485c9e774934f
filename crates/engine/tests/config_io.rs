//! Real configurations in and out (SPEC 13): public-source fixtures, hostile files and
//! round trips (export then import gives the same shares, cohorts, capacity and order).

use proptest::prelude::*;
use quotalab_engine::config::{self, ExportFormat, ExportOptions, Format, ImportOptions};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

fn fixture(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/config")
        .join(name);
    std::fs::read_to_string(p).unwrap()
}

fn problems(r: Result<config::Imported, Vec<quotalab_engine::Problem>>) -> Vec<String> {
    match r {
        Ok(i) => panic!("expected an error, got {}", i.scenario_json),
        Err(p) => p.iter().map(|p| p.to_string()).collect(),
    }
}

fn kueue(text: &str) -> Result<config::Imported, Vec<quotalab_engine::Problem>> {
    config::import(text, Format::Kueue, &ImportOptions::default())
}

#[test]
fn kueue_cohort_example_imports_and_runs() {
    let imp = kueue(&fixture("kueue-cohort-example.yaml")).unwrap();
    let s = &imp.scenario;
    assert_eq!(s["model"], "kueue");
    let names: Vec<&str> = s["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["team-a-cq", "team-b-cq", "team-c-cq"]);
    assert_eq!(s["shares"][0]["borrowing_limit"]["default-flavor"], 4);
    assert_eq!(s["shares"][1]["lending_limit"]["default-flavor"], 2);
    assert_eq!(s["shares"][2]["queueing"], "strict_fifo");
    assert_eq!(s["cohorts"][0]["name"], "team-ab");
    let w: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|w| w == "[1].spec.namespaceSelector: ignored: namespaceSelector (3 times)"),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|w| w.ends_with("ignored: resource cpu (3 times)")),
        "{w:?}"
    );
    assert!(w.iter().any(|w| w == "[4]: ignored: LocalQueue"), "{w:?}");
    // Issue #34: the page names the objects, not the paths (the CLI's text above stays).
    let words: Vec<String> = imp.warnings.iter().map(|w| w.words()).collect();
    assert!(
        words.iter().any(
            |w| w == "ClusterQueues team-a-cq, team-b-cq, team-c-cq: namespaceSelector ignored"
        ),
        "{words:?}"
    );
    assert!(
        words.iter().all(|w| !w.starts_with('[')),
        "no path left: {words:?}"
    );
    assert!(
        words
            .iter()
            .any(|w| w.starts_with("LocalQueue ") && w.ends_with(" ignored")),
        "{words:?}"
    );
    quotalab_engine::run_json(&imp.scenario_json).unwrap();
}

#[test]
fn kueue_hierarchical_fair_sharing_and_flavor_map() {
    let opts = ImportOptions {
        flavor_map: config::parse_flavor_map("a100=ml.p4d.24xlarge").unwrap(),
        ..ImportOptions::default()
    };
    let imp = config::import(&fixture("kueue-hierarchical.yaml"), Format::Kueue, &opts).unwrap();
    let s = &imp.scenario;
    // 16 GPUs of 8-GPU instances: 2 instances.
    assert_eq!(s["shares"][0]["limits"]["ml.p4d.24xlarge"], 2);
    assert_eq!(s["shares"][0]["weight"], 0.5);
    assert_eq!(s["shares"][1]["state"], "DISABLED");
    assert_eq!(s["cohorts"][1]["parent"], "root-cohort");
    assert_eq!(
        s["fair_sharing"]["strategies"][1],
        "less_than_initial_share"
    );
    assert_eq!(s["priority_classes"]["sample-priority"], 10000);
}

#[test]
fn aws_bodies_and_list_responses() {
    let imp = config::import(
        &fixture("aws-create-quota-shares.json"),
        Format::Aws,
        &ImportOptions::default(),
    )
    .unwrap();
    let s = &imp.scenario;
    assert_eq!(s["capacity"]["ml.g5.xlarge"], 3);
    assert_eq!(s["shares"][0]["borrow_limit"], 200);
    assert_eq!(s["shares"][1]["strategy"], "LEND");
    let imp = config::import(
        &fixture("aws-list-quota-shares.json"),
        Format::Aws,
        &ImportOptions::default(),
    )
    .unwrap();
    assert_eq!(
        imp.scenario["shares"][0]["borrow_limit"], -1,
        "no borrowLimit is unlimited"
    );
    assert_eq!(imp.scenario["shares"][1]["state"], "DISABLED");
    let w: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter()
            .any(|w| w == "quotaShares[0].quotaShareArn: ignored: quotaShareArn (2 times)"),
        "{w:?}"
    );
    assert!(w.iter().any(|w| w.starts_with("nextToken: ")), "{w:?}");
}

#[test]
fn aws_several_queues_need_queue() {
    let text = r#"[{"quotaShareName":"a","jobQueue":"q1","capacityLimits":[{"maxCapacity":1,"capacityUnit":"ml.g5.xlarge"}],"resourceSharingConfiguration":{"strategy":"RESERVE"}},
                   {"quotaShareName":"b","jobQueue":"arn:aws:batch:us-east-1:1:job-queue/q2","capacityLimits":[{"maxCapacity":1,"capacityUnit":"ml.g5.xlarge"}],"resourceSharingConfiguration":{"strategy":"LEND"}}]"#;
    let p = problems(config::import(text, Format::Aws, &ImportOptions::default()));
    assert_eq!(
        p,
        ["quota shares of several job queues: q1, q2 (--queue NAME picks one)"]
    );
    let opts = ImportOptions {
        queue: Some("arn:aws:batch:us-east-1:1:job-queue/q2".into()),
        ..ImportOptions::default()
    };
    let imp = config::import(text, Format::Aws, &opts).unwrap();
    assert_eq!(imp.scenario["shares"].as_array().unwrap().len(), 1);
}

#[test]
fn errors_name_the_document_and_path() {
    let text =
        fixture("kueue-cohort-example.yaml").replace("nominalQuota: 4\n", "nominalQuota: four\n");
    assert_eq!(
        problems(kueue(&text)),
        ["[2].spec.resourceGroups[0].flavors[0].resources[2].nominalQuota: not a quantity (\"four\")"]
    );
    let text =
        fixture("kueue-cohort-example.yaml").replace("nominalQuota: 2\n", "nominalQuota: 1500m\n");
    assert_eq!(
        problems(kueue(&text)),
        ["[3].spec.resourceGroups[0].flavors[0].resources[2].nominalQuota: not a whole number of nvidia.com/gpu (\"1500m\")"]
    );
    // Dropped resources must still parse.
    let text =
        fixture("kueue-cohort-example.yaml").replace("nominalQuota: 36Gi", "nominalQuota: lots");
    assert_eq!(problems(kueue(&text)).len(), 1);
    // Wrong types.
    let p = problems(kueue("apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: a\nspec:\n  resourceGroups: 3\n"));
    assert_eq!(p, ["[0].spec.resourceGroups: must be a list, not a number"]);
    let p = problems(config::import(
        r#"{"quotaShareName": 7}"#,
        Format::Aws,
        &ImportOptions::default(),
    ));
    assert!(
        p.contains(&"quotaShareName: must be a string, not a number".to_string()),
        "{p:?}"
    );
    let p = problems(config::import(
        "[1]",
        Format::Aws,
        &ImportOptions::default(),
    ));
    assert!(p[0].starts_with("[0]: must be an object"), "{p:?}");
}

#[test]
fn several_files_name_the_file() {
    let a = "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata: {name: a}\nspec:\n  stopPolicy: Sometimes\n";
    let p = config::import_files(
        &[("a.yaml", a), ("b.yaml", a)],
        Format::Kueue,
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        p[0].to_string(),
        "a.yaml: [0].spec.stopPolicy: must be None, Hold or HoldAndDrain (got \"Sometimes\")"
    );
    assert!(p[1].to_string().starts_with("b.yaml: [0]"));
}

fn refused_fast(text: &str, want: &str) {
    let t = Instant::now();
    let p = problems(kueue(text));
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t.elapsed()
    );
    assert!(p.iter().any(|p| p.contains(want)), "{want}: {p:?}");
}

#[test]
fn hostile_files_are_refused_fast() {
    // Over 8 MiB.
    let big = format!("# {}\n", "x".repeat(config::MAX_FILE_BYTES));
    refused_fast(&big, "over the 8 MiB limit");
    let p = problems(config::import(&big, Format::Aws, &ImportOptions::default()));
    assert!(p[0].contains("over the 8 MiB limit"));
    // The billion laughs.
    let mut bomb = String::from(
        "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n",
    );
    for i in 1..10 {
        let prev = (b'a' + i - 1) as char;
        let cur = (b'a' + i) as char;
        bomb.push_str(&format!("{cur}: &{cur} [*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev},*{prev}]\n"));
    }
    refused_fast(&bomb, "YAML:");
    // Deep nesting, block and flow.
    refused_fast(&"[".repeat(100_000), "YAML:");
    let mut deep = String::new();
    for i in 0..200 {
        deep.push_str(&" ".repeat(i));
        deep.push_str("a:\n");
    }
    refused_fast(&deep, "YAML:");
    // Deep JSON for the AWS side: serde_json's own recursion limit.
    let p = problems(config::import(
        &"[".repeat(100_000),
        Format::Aws,
        &ImportOptions::default(),
    ));
    assert!(p[0].contains("JSON syntax error"), "{p:?}");
}

#[test]
fn detect_tells_formats_apart() {
    assert_eq!(
        config::detect(&fixture("aws-list-quota-shares.json")),
        Some(Format::Aws)
    );
    assert_eq!(
        config::detect(&fixture("kueue-cohort-example.yaml")),
        Some(Format::Kueue)
    );
    assert_eq!(config::detect("  \n"), None);
}

#[test]
fn kueue_scenario_as_aws_refuses_naming_features() {
    let imp = kueue(&fixture("kueue-hierarchical.yaml")).unwrap();
    let p = config::export(
        &imp.scenario_json,
        ExportFormat::AwsJson,
        &ExportOptions::default(),
    )
    .unwrap_err();
    let p: Vec<String> = p.iter().map(|p| p.to_string()).collect();
    assert!(p.iter().any(|p| p.contains("fair sharing")), "{p:?}");
    assert!(p.iter().any(|p| p.contains("nested cohorts")), "{p:?}");
}

/// Issue #34 (fresh-eyes walk): the page says an AWS export's refusal in Kueue's words,
/// naming the cohort or ClusterQueue and the Kueue setting ([`Problem::words`]); the CLI
/// keeps the paths.
#[test]
fn kueue_scenario_as_aws_refusals_name_cohorts_and_cluster_queues() {
    let preset = include_str!("../../../www/presets/kueue-hierarchical-fair.json");
    let p = config::export(preset, ExportFormat::AwsJson, &ExportOptions::default()).unwrap_err();
    let words: Vec<String> = p.iter().map(|p| p.words()).collect();
    assert_eq!(
        words,
        [
            "Fair sharing (fairSharing in Kueue's Configuration) is on: AWS Batch has no fair sharing between queues",
            "Cohort research has a parent cohort (org): AWS Batch has no nested cohorts",
            "Cohort product has a parent cohort (org): AWS Batch has no nested cohorts",
            "Cohorts research, product each hold ClusterQueues: AWS Batch has no way to hold several cohorts in one queue",
            "ClusterQueue ads: reclaimWithinCohort is LowerPriority: AWS Batch always reclaims lent capacity (Any)",
        ]
    );
    let cli: Vec<String> = p.iter().map(|p| p.to_string()).collect();
    assert_eq!(cli[0], "fair_sharing: AWS Batch has no fair sharing");
    assert_eq!(
        cli[1],
        "cohorts[1].parent: AWS Batch has no nested cohorts (cohort research has parent org)"
    );
    // Each ClusterQueue's refusal, by its Kueue setting.
    let sc = serde_json::json!({
        "format": "quotalab/v1", "name": "x", "model": "kueue",
        "shares": [
            {"name": "a", "limits": {"ml.g5.xlarge": 4}, "cohort": "c", "lending_limit": {"ml.g5.xlarge": 2}},
            {"name": "b", "limits": {"ml.g5.xlarge": 4}, "cohort": "c", "lending_limit": {"ml.g5.xlarge": 0},
             "borrowing_limit": {"ml.g5.xlarge": 1}, "queueing": "strict_fifo"},
            {"name": "d", "limits": {"ml.g5.xlarge": 4, "ml.g5.2xlarge": 3}, "cohort": "c",
             "borrowing_limit": {"ml.g5.xlarge": 1, "ml.g5.2xlarge": 3},
             "preemption": {"reclaim": "any"}},
            {"name": "e", "limits": {"ml.g5.xlarge": 4}, "cohort": "c",
             "preemption": {"within_share": "lower_or_newer_equal_priority", "reclaim": "any",
                            "borrow_within_cohort": {"policy": "lower_priority"}}}
        ],
        "cohorts": [{"name": "c"}]
    });
    let p = config::export(
        &sc.to_string(),
        ExportFormat::AwsJson,
        &ExportOptions::default(),
    )
    .unwrap_err();
    let words: Vec<String> = p.iter().map(|p| p.words()).collect();
    assert_eq!(
        words,
        [
            "ClusterQueues differ in queueingStrategy, BestEffortFIFO (a, d, e), StrictFIFO (b): AWS Batch has one queueing order per queue",
            "ClusterQueue a: lendingLimit is neither 0 nor the whole nominalQuota: an AWS Batch share lends all its idle quota or none",
            "ClusterQueue b lends nothing (lendingLimit 0) but may borrow (borrowingLimit is not 0): AWS Batch has no share that borrows but lends nothing",
            "ClusterQueue d: borrowingLimit is not one percent of every nominalQuota: an AWS Batch borrow limit is a percent of the share's limits",
            "ClusterQueue e: withinClusterQueue is LowerOrNewerEqualPriority: AWS Batch preempts within a share only for a higher priority",
            "ClusterQueue e: borrowWithinCohort is LowerPriority: AWS Batch has no preemption while borrowing",
        ]
    );
    for w in &words {
        assert!(
            !w.contains('[') && !w.contains('_'),
            "a path or field name: {w}"
        );
    }
}

/// The shares, cohorts, capacity and order of a scenario, as the model holds them.
fn essence(json: &str) -> String {
    let s = quotalab_engine::load(json)
        .unwrap_or_else(|p| panic!("{p:?}\n{json}"))
        .scenario;
    let types: Vec<&str> = s.instance_types.iter().map(|t| t.name.as_str()).collect();
    format!(
        "{types:?} {:?} {:?} {:?} {:?} {:?}",
        s.capacity, s.shares, s.cohorts, s.fair_sharing, s.model
    )
}

fn aws_scenario(shares: &[(u8, u8, i64, bool, bool)], pool: u64) -> String {
    let list: Vec<serde_json::Value> = shares
        .iter()
        .enumerate()
        .map(|(i, &(limit, strat, bl, ins, on))| {
            let strategy = ["RESERVE", "LEND", "LEND_AND_BORROW"][strat as usize % 3];
            let mut m = serde_json::json!({"name": format!("s{i}"), "limits": {"ml.g5.xlarge": limit},
                "strategy": strategy, "in_share_preemption": ins});
            if strategy == "LEND_AND_BORROW" {
                m["borrow_limit"] = serde_json::json!(bl);
            }
            if !on {
                m["state"] = serde_json::json!("DISABLED");
            }
            m
        })
        .collect();
    let sum: u64 = shares.iter().map(|s| s.0 as u64).sum();
    serde_json::json!({"format": "quotalab/v1", "capacity": {"ml.g5.xlarge": sum + pool}, "shares": list}).to_string()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn aws_export_then_import_gives_the_same_shares(
        shares in prop::collection::vec((0u8..20, 0u8..3, -1i64..300, any::<bool>(), any::<bool>()), 1..8),
        pool in 0u64..10,
    ) {
        let sc = aws_scenario(&shares, pool);
        let out = config::export(&sc, ExportFormat::AwsJson, &ExportOptions::default()).unwrap();
        let back = config::import(&out.text, Format::Aws, &ImportOptions::default()).unwrap();
        prop_assert_eq!(essence(&sc), essence(&back.scenario_json));
    }

    #[test]
    fn kueue_export_then_import_gives_the_same_shares(
        shares in prop::collection::vec((0u8..20, 0u8..3, -1i64..300, any::<bool>(), any::<bool>()), 1..8),
        pool in 0u64..10,
    ) {
        // An AWS scenario in Kueue terms, imported, is a Kueue scenario; exporting that
        // and importing again gives it back exactly.
        let sc = aws_scenario(&shares, pool);
        let k1 = config::export(&sc, ExportFormat::Kueue, &ExportOptions::default()).unwrap();
        let i1 = config::import(&k1.text, Format::Kueue, &ImportOptions::default()).unwrap();
        let k2 = config::export(&i1.scenario_json, ExportFormat::Kueue, &ExportOptions::default()).unwrap();
        let i2 = config::import(&k2.text, Format::Kueue, &ImportOptions::default()).unwrap();
        prop_assert_eq!(essence(&i1.scenario_json), essence(&i2.scenario_json));
        // And the Kueue form of an AWS scenario goes back to AWS as the same shares.
        let a = config::export(&i1.scenario_json, ExportFormat::AwsJson, &ExportOptions::default()).unwrap();
        let back = config::import(&a.text, Format::Aws, &ImportOptions::default()).unwrap();
        let orig = quotalab_engine::load(&sc).unwrap().scenario;
        let got = quotalab_engine::load(&back.scenario_json).unwrap().scenario;
        prop_assert_eq!(orig.shares.len(), got.shares.len());
        for (o, g) in orig.shares.iter().zip(&got.shares) {
            prop_assert_eq!(&o.name, &g.name);
            prop_assert_eq!(&o.limits, &g.limits);
            prop_assert_eq!(o.in_share_preemption, g.in_share_preemption);
            prop_assert_eq!(o.enabled, g.enabled);
            let eff = |s: &quotalab_engine::model::Share| match (s.strategy, s.borrow_limit) {
                (quotalab_engine::model::Strategy::LendAndBorrow, quotalab_engine::model::BorrowLimit::Percent(p)) =>
                    format!("borrow {:?}", s.limits.iter().map(|l| l.map(|n| n * p / 100)).collect::<Vec<_>>()),
                (st, b) => format!("{st:?} {b:?}"),
            };
            let (eo, eg) = (eff(o), eff(g));
            // LEND_AND_BORROW with a borrowing limit of 0 is LEND in Kueue's terms.
            if !(eo.starts_with("borrow") && eo.contains("Some(0)") && eg.starts_with("Lend ")) {
                prop_assert_eq!(eo, eg);
            }
        }
    }
}

#[test]
fn kueue_single_clusterqueue_admin_example_counts_cpus() {
    let text = fixture("kueue-single-clusterqueue-setup.yaml");
    // It has no GPUs: the default resource finds nothing to count.
    assert!(kueue(&text).is_err());
    let opts = ImportOptions {
        resource: "cpu".into(),
        ..ImportOptions::default()
    };
    let imp = config::import(&text, Format::Kueue, &opts).unwrap();
    let s = &imp.scenario;
    assert_eq!(s["shares"][0]["name"], "cluster-queue");
    assert_eq!(s["shares"][0]["limits"]["default-flavor"], 9);
    let w: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        w.iter().any(|w| w.ends_with("ignored: resource memory")),
        "{w:?}"
    );
    assert!(w.iter().any(|w| w == "[2]: ignored: LocalQueue"), "{w:?}");
    quotalab_engine::run_json(&imp.scenario_json).unwrap();
}

#[test]
fn workload_priority_classes_become_named_priorities() {
    let imp = kueue(&fixture("kueue-workload-priority-classes.yaml")).unwrap();
    let s = &imp.scenario;
    assert_eq!(
        s["priority_classes"],
        serde_json::json!({"high-priority": 1000, "low-priority": 10})
    );
    assert_eq!(s["shares"][0]["limits"]["gpu-a100"], 16);
    // Jobs may name a class instead of a priority; the validator resolves it.
    let mut with_jobs = s.clone();
    with_jobs["jobs"] = serde_json::json!([
        {"id": "train", "share": "gpu-cluster-queue", "instance_type": "gpu-a100", "instances": 8,
         "priority_class": "high-priority", "submit_s": 0, "work_s": 3600},
        {"id": "sweep", "share": "gpu-cluster-queue", "instance_type": "gpu-a100", "instances": 16,
         "priority_class": "low-priority", "submit_s": 0, "work_s": 3600}
    ]);
    let loaded = quotalab_engine::load(&with_jobs.to_string()).unwrap();
    let prios: Vec<i32> = loaded.scenario.jobs.iter().map(|j| j.priority).collect();
    assert_eq!(prios, [1000, 10]);
    // An unknown class is an error naming its path; the export keeps the classes.
    with_jobs["jobs"][1]["priority_class"] = "urgent".into();
    let errors: Vec<String> = quotalab_engine::load(&with_jobs.to_string())
        .unwrap_err()
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        errors,
        ["jobs[1].priority_class: unknown priority class \"urgent\" (priority_classes: high-priority, low-priority)"]
    );
    let yaml = config::export(
        &imp.scenario_json,
        ExportFormat::Kueue,
        &ExportOptions::default(),
    )
    .unwrap()
    .text;
    assert!(yaml.contains("kind: WorkloadPriorityClass"), "{yaml}");
    let again = kueue(&yaml).unwrap();
    assert_eq!(again.scenario["priority_classes"], s["priority_classes"]);
}

#[test]
fn aws_cli_skeleton_filled_in_imports() {
    let imp = config::import(
        &fixture("aws-cli-skeleton.json"),
        Format::Aws,
        &ImportOptions::default(),
    )
    .unwrap();
    let s = &imp.scenario;
    assert_eq!(s["shares"][0]["name"], "research");
    assert_eq!(s["shares"][0]["limits"]["ml.p4d.24xlarge"], 4);
    assert_eq!(s["shares"][0]["strategy"], "LEND_AND_BORROW");
    assert_eq!(s["shares"][0]["borrow_limit"], 100);
    let w: Vec<String> = imp.warnings.iter().map(|w| w.to_string()).collect();
    assert!(w.iter().any(|w| w.ends_with("ignored: tags")), "{w:?}");
    quotalab_engine::run_json(&imp.scenario_json).unwrap();
}

// SPEC 16: exports that are safe to apply.

/// SPEC 16 (issue #32 part 5, AWS half): `export aws` of shares imported from
/// `--cli-input-json` bodies keeps every field it does not model exactly as read, and
/// writes the scenario's edits over the modelled ones.
#[test]
fn aws_export_keeps_the_fields_it_does_not_model() {
    let bodies = json!([
        {
            "serviceEnvironmentName": "ml-env",
            "serviceEnvironmentType": "SAGEMAKER_TRAINING",
            "state": "ENABLED",
            "capacityLimits": [{"maxCapacity": 8, "capacityUnit": "ml.p4d.24xlarge"}],
            "tags": {"cost-center": "ml"}
        },
        {
            "quotaShareName": "research",
            "jobQueue": "arn:aws:batch:us-east-1:123456789012:job-queue/ml-training",
            "capacityLimits": [{"maxCapacity": 4, "capacityUnit": "ml.p4d.24xlarge", "note": "kept"}],
            "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW", "borrowLimit": 100, "futureKnob": 7},
            "preemptionConfiguration": {"inSharePreemption": "ENABLED", "graceSeconds": 30},
            "state": "ENABLED",
            "tags": {"team": "research", "owner": "ana"},
            "clientToken": "abc-123"
        },
        {
            "quotaShareName": "prod",
            "jobQueue": "arn:aws:batch:us-east-1:123456789012:job-queue/ml-training",
            "quotaShareArn": "arn:aws:batch:us-east-1:123456789012:quota-share/prod",
            "status": "VALID",
            "capacityLimits": [{"maxCapacity": 2, "capacityUnit": "ml.p4d.24xlarge"}],
            "resourceSharingConfiguration": {"strategy": "RESERVE"},
            "state": "ENABLED"
        }
    ]);
    let imp = config::import(&bodies.to_string(), Format::Aws, &ImportOptions::default()).unwrap();
    // The scenario's edits: research gets 6 instances and RESERVE, prod is disabled.
    let mut s = imp.scenario.clone();
    s["shares"][0]["limits"]["ml.p4d.24xlarge"] = json!(6);
    s["shares"][0]["strategy"] = json!("RESERVE");
    s["shares"][0]
        .as_object_mut()
        .unwrap()
        .remove("borrow_limit");
    s["shares"][1]["state"] = json!("DISABLED");
    s["capacity"]["ml.p4d.24xlarge"] = json!(10);
    let out = config::export(
        &s.to_string(),
        ExportFormat::AwsJson,
        &ExportOptions::default(),
    )
    .unwrap()
    .text;
    let out: Value = serde_json::from_str(&out).unwrap();
    let env = &out[0];
    assert_eq!(env["serviceEnvironmentName"], "ml-env");
    assert_eq!(env["tags"], json!({"cost-center": "ml"}));
    assert_eq!(
        env["capacityLimits"],
        json!([{"maxCapacity": 10, "capacityUnit": "ml.p4d.24xlarge"}])
    );
    let research = &out[1];
    // Unmodelled fields, exactly as read.
    assert_eq!(research["tags"], bodies[1]["tags"]);
    assert_eq!(research["clientToken"], "abc-123");
    assert_eq!(research["jobQueue"], bodies[1]["jobQueue"]);
    assert_eq!(research["capacityLimits"][0]["note"], "kept");
    assert_eq!(research["resourceSharingConfiguration"]["futureKnob"], 7);
    assert_eq!(research["preemptionConfiguration"]["graceSeconds"], 30);
    // Modelled fields, the scenario's.
    assert_eq!(research["capacityLimits"][0]["maxCapacity"], 6);
    assert_eq!(
        research["resourceSharingConfiguration"]["strategy"],
        "RESERVE"
    );
    assert!(research["resourceSharingConfiguration"]
        .get("borrowLimit")
        .is_none());
    assert_eq!(
        research["preemptionConfiguration"]["inSharePreemption"],
        "ENABLED"
    );
    // A response's read-only fields are not request fields: not written back.
    let prod = &out[2];
    assert_eq!(prod["state"], "DISABLED");
    assert!(prod.get("quotaShareArn").is_none() && prod.get("status").is_none());
    // The export imports back to the edited shares.
    let again = config::import(&out.to_string(), Format::Aws, &ImportOptions::default()).unwrap();
    assert_eq!(again.scenario["shares"], s["shares"]);
    assert_eq!(again.scenario["capacity"], s["capacity"]);
    // --queue names another queue: the bodies move to it.
    let moved = config::export(
        &s.to_string(),
        ExportFormat::AwsJson,
        &ExportOptions {
            queue: "other".into(),
            ..ExportOptions::default()
        },
    )
    .unwrap()
    .text;
    let moved: Value = serde_json::from_str(&moved).unwrap();
    assert_eq!(moved[1]["jobQueue"], "other");
    assert_eq!(moved[1]["tags"], bodies[1]["tags"]);
    // Bodies with only modelled fields keep no source (the scenario is as before).
    let mut skeleton: Value = serde_json::from_str(&fixture("aws-cli-skeleton.json")).unwrap();
    skeleton.as_object_mut().unwrap().remove("tags");
    let plain = config::import(
        &skeleton.to_string(),
        Format::Aws,
        &ImportOptions::default(),
    )
    .unwrap();
    assert!(
        plain.scenario.get("source").is_none(),
        "{}",
        plain.scenario_json
    );
}

/// RFC 7386 JSON merge patch, as `kubectl patch --type merge` applies it.
fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Default::default());
    }
    let t = target.as_object_mut().unwrap();
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

fn docs(yaml: &str) -> Vec<Value> {
    config::kueue::parse_documents(yaml).unwrap()
}

fn live() -> (config::Imported, Vec<Value>) {
    let text = fixture("kueue-live-cluster.yaml");
    let imp = kueue(&text).unwrap();
    (imp, docs(&text))
}

fn export_kueue(scenario: &Value, format: ExportFormat) -> config::Exported {
    config::export(&scenario.to_string(), format, &ExportOptions::default()).unwrap()
}

#[test]
fn an_unchanged_import_exports_every_object_exactly_as_read() {
    let (imp, read) = live();
    assert_eq!(
        imp.scenario["source"]["kueue"]["documents"]
            .as_array()
            .unwrap()
            .len(),
        8
    );
    let out = export_kueue(&imp.scenario, ExportFormat::Kueue);
    assert!(out.text.contains("# Changed: none.\n"), "{}", out.text);
    assert!(
        out.text.contains("# Unchanged: 8 objects. New: none.\n"),
        "{}",
        out.text
    );
    assert_eq!(docs(&out.text), read, "{}", out.text);
    // Nothing to patch, and the export says so (the page downloads no empty file).
    let patch = export_kueue(&imp.scenario, ExportFormat::KueuePatch);
    assert!(docs(&patch.text).is_empty(), "{}", patch.text);
    assert!(patch.empty_patch);
    assert!(!out.empty_patch, "a whole export is never an empty patch");
}

#[test]
fn an_export_changes_only_what_the_scenario_changed() {
    let (imp, read) = live();
    let mut sc = imp.scenario.clone();
    // research-cq: 3 instead of 4 GPUs of default-flavor, lends everything; cluster-queue
    // stops admitting and leaves the cohort.
    let research = &mut sc["shares"][1];
    assert_eq!(research["name"], "research-cq");
    research["limits"]["default-flavor"] = json!(3);
    research.as_object_mut().unwrap().remove("lending_limit");
    let cq = &mut sc["shares"][0];
    cq["state"] = json!("DISABLED");
    cq.as_object_mut().unwrap().remove("cohort");
    let out = export_kueue(&sc, ExportFormat::Kueue);
    assert!(
        out.text.contains("# Changed: ClusterQueue cluster-queue (cohort, stopPolicy); ClusterQueue research-cq (quotas).\n"),
        "{}",
        out.text
    );
    let got = docs(&out.text);
    assert_eq!(got.len(), read.len());
    let mut want = read.clone();
    // What the scenario changed, and nothing else: cpu, memory, spot, selectors, labels,
    // taints, admission checks, LocalQueues are as read.
    let spec = want[1]["spec"].as_object_mut().unwrap();
    spec.remove("cohort");
    spec.insert("stopPolicy".into(), json!("Hold"));
    let gpu = &mut want[6]["spec"]["resourceGroups"][0]["flavors"][0]["resources"][2];
    assert_eq!(gpu["name"], "nvidia.com/gpu");
    *gpu = json!({"name": "nvidia.com/gpu", "nominalQuota": 3});
    assert_eq!(got, want, "{}", out.text);

    // The patch: the changed objects only, and applied as kubectl applies a merge patch
    // it gives the same objects as the whole export.
    let patch = export_kueue(&sc, ExportFormat::KueuePatch);
    let patches = docs(&patch.text);
    assert_eq!(patches.len(), 2, "{}", patch.text);
    assert!(!patch.empty_patch);
    assert_eq!(patches[0]["spec"]["cohort"], Value::Null);
    assert!(patches[0]["spec"].get("namespaceSelector").is_none());
    assert!(patch
        .text
        .contains("# kubectl patch clusterqueue research-cq --type merge"));
    let mut patched = read.clone();
    for p in &patches {
        let name = &p["metadata"]["name"];
        let target = patched
            .iter_mut()
            .find(|d| d["kind"] == p["kind"] && d["metadata"]["name"] == *name)
            .unwrap();
        merge_patch(target, p);
    }
    assert_eq!(patched, want);
}

#[test]
fn new_and_removed_objects_are_named_in_the_header() {
    let (imp, _) = live();
    let mut sc = imp.scenario.clone();
    let shares = sc["shares"].as_array_mut().unwrap();
    shares.remove(0);
    shares.push(json!({"name": "vision-cq", "limits": {"spot": 1}, "cohort": "gpu-pool"}));
    shares.push(json!({"name": "speech-cq", "limits": {"spot": 1}, "cohort": "research"}));
    sc["cohorts"]
        .as_array_mut()
        .unwrap()
        .push(json!({"name": "research", "parent": "gpu-pool", "limits": {"spot": 1}}));
    let out = export_kueue(&sc, ExportFormat::Kueue);
    assert!(
        out.text
            .contains("New: Cohort research; ClusterQueue vision-cq; ClusterQueue speech-cq.\n"),
        "{}",
        out.text
    );
    // The file is v1beta1 (Kueue before v0.15): its new objects are too, with v1beta1's
    // `spec.cohort` and the v1alpha1 Cohort's `spec.parent` that such a cluster serves.
    let got = docs(&out.text);
    let by_name = |n: &str| got.iter().find(|d| d["metadata"]["name"] == n).unwrap();
    let (vision, research) = (by_name("vision-cq"), by_name("research"));
    assert_eq!(vision["apiVersion"], "kueue.x-k8s.io/v1beta1");
    assert_eq!(vision["spec"]["cohort"], "gpu-pool");
    assert!(vision["spec"].get("cohortName").is_none());
    assert_eq!(research["apiVersion"], "kueue.x-k8s.io/v1alpha1");
    assert_eq!(research["spec"]["parent"], "gpu-pool");
    assert!(research["spec"].get("parentName").is_none());
    // Imported again, the new objects read as the scenario has them.
    let again = kueue(&out.text).unwrap().scenario;
    let cohort_of = |sc: &Value, n: &str| {
        let s = sc["shares"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == n)
            .cloned();
        s.unwrap()["cohort"].clone()
    };
    assert_eq!(cohort_of(&again, "speech-cq"), "research");
    let research = again["cohorts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "research");
    assert_eq!(research.unwrap()["parent"], "gpu-pool");
    assert!(
        out.text
            .contains("delete them with kubectl delete): clusterqueue cluster-queue.\n"),
        "{}",
        out.text
    );
    let got = docs(&out.text);
    assert!(!got.iter().any(|d| d["metadata"]["name"] == "cluster-queue"));
    let new = got
        .iter()
        .find(|d| d["metadata"]["name"] == "vision-cq")
        .unwrap();
    assert_eq!(
        new["spec"]["resourceGroups"][0]["flavors"][0]["name"],
        "spot"
    );
    // The LocalQueue that pointed at the removed queue is kept: Quota Lab does not model it.
    assert!(got.iter().any(|d| d["metadata"]["name"] == "user-queue"));
    let patch = export_kueue(&sc, ExportFormat::KueuePatch);
    assert!(
        patch.text.contains("export without --patch to create them"),
        "{}",
        patch.text
    );
}

#[test]
fn a_scenario_that_was_not_imported_says_what_a_live_cluster_also_needs() {
    let imp = kueue(&fixture("kueue-cohort-example.yaml")).unwrap();
    let mut sc = imp.scenario.clone();
    sc.as_object_mut().unwrap().remove("source");
    let out = export_kueue(&sc, ExportFormat::Kueue);
    assert!(
        out.text.contains(
            "give each\n# ClusterQueue a namespaceSelector (without one it admits no workload"
        ),
        "{}",
        out.text
    );
    assert!(!out.text.contains("Apply with"), "{}", out.text);
    let err = config::export(
        &sc.to_string(),
        ExportFormat::KueuePatch,
        &ExportOptions::default(),
    )
    .unwrap_err();
    assert!(
        err[0]
            .to_string()
            .starts_with("--patch: the scenario was not imported from Kueue files"),
        "{}",
        err[0]
    );
    // A source that is not what an import writes is named.
    sc["source"] = json!({"kueue": {"resource": "nvidia.com/gpu", "documents": [1]}});
    let err = config::export(
        &sc.to_string(),
        ExportFormat::Kueue,
        &ExportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        err[0].to_string(),
        "source.kueue.documents[0]: must be a Kubernetes object"
    );
}

#[test]
fn into_takes_the_new_source_and_a_link_keeps_it() {
    let (imp, _) = live();
    let base = kueue(&fixture("kueue-cohort-example.yaml")).unwrap();
    let merged = config::merge_into(&imp, &base.scenario_json).unwrap();
    assert_eq!(merged.scenario["source"], imp.scenario["source"]);
    let payload = quotalab_engine::link::encode(&imp.scenario_json).unwrap();
    let back: Value =
        serde_json::from_str(&quotalab_engine::link::decode(&payload).unwrap()).unwrap();
    assert_eq!(back["source"], imp.scenario["source"]);
}

// SPEC 16: the first import with default options succeeds (the page keeps the current
// jobs, and those of queues the configuration lacks are dropped or moved, not refused).

fn walkthrough() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../www/presets/aws-walkthrough.json"),
    )
    .unwrap()
}

#[test]
fn kept_jobs_of_queues_the_configuration_lacks_are_named_then_dropped_or_moved() {
    let imp = kueue(&fixture("kueue-cohort-example.yaml")).unwrap();
    let base = walkthrough();
    let unknown = config::unknown_shares(&imp, &base);
    let names: Vec<&str> = unknown.iter().map(|u| u.name.as_str()).collect();
    assert_eq!(names, ["background", "medium"]);
    assert!(unknown.iter().map(|u| u.jobs + u.workloads).sum::<usize>() > 0);
    // The CLI refuses (SPEC 13).
    let refused = config::merge_into(&imp, &base).unwrap_err();
    assert!(refused[0]
        .to_string()
        .contains("which the imported configuration does not have"));
    // Dropped: no job of them is left, each share is named in a warning, and it loads.
    let dropped =
        config::merge_into_with(&imp, &base, &config::UnknownShares::Resolve(Vec::new())).unwrap();
    for key in ["jobs", "workloads"] {
        assert!(
            dropped.scenario[key]
                .as_array()
                .is_none_or(|l| l.is_empty()),
            "{key}"
        );
    }
    // The walkthrough's ml.g5.xlarge, named by nothing left, goes with its jobs: the
    // cluster is the imported flavors alone.
    assert!(
        dropped.scenario["capacity"].get("ml.g5.xlarge").is_none(),
        "{}",
        dropped.scenario["capacity"]
    );
    let warnings: Vec<String> = dropped.warnings.iter().map(|w| w.to_string()).collect();
    for n in names {
        assert!(
            warnings
                .iter()
                .any(|w| w.contains(&format!("of \"{n}\"")) && w.ends_with("dropped")),
            "{warnings:?}"
        );
    }
    // Moved: background's jobs run in team-a-cq; the rest are dropped.
    let map = vec![("background".to_string(), "team-a-cq".to_string())];
    let moved = config::merge_into_with(&imp, &base, &config::UnknownShares::Resolve(map)).unwrap();
    let shares: Vec<&str> = moved.scenario["jobs"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(moved.scenario["workloads"].as_array().into_iter().flatten())
        .map(|j| j["share"].as_str().unwrap())
        .collect();
    assert!(
        !shares.is_empty() && shares.iter().all(|s| *s == "team-a-cq"),
        "{shares:?}"
    );
    assert!(moved
        .warnings
        .iter()
        .any(|w| w.to_string().ends_with("moved to \"team-a-cq\"")));
    quotalab_engine::run_json(&moved.scenario_json).unwrap();
}

#[test]
fn a_configuration_without_jobs_gets_a_typical_load_in_one_step() {
    let imp = kueue(&fixture("kueue-workload-priority-classes.yaml")).unwrap();
    let loaded = config::typical_load::add_typical_load(&imp.scenario_json, 60).unwrap();
    let w = loaded.scenario["workloads"].as_array().unwrap();
    assert!(!w.is_empty());
    // Priorities come from the imported WorkloadPriorityClasses.
    let classes: Vec<i64> = imp.scenario["priority_classes"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_i64().unwrap())
        .collect();
    for c in w[0]["priority"]["choice"].as_array().unwrap() {
        assert!(classes.contains(&c[0].as_i64().unwrap()));
    }
    let result = quotalab_engine::run_json(&loaded.scenario_json).unwrap();
    assert!(result.contains("\"kind\":\"dispatch\""), "no job ran");
}

/// SPEC 16 / issue #32.6: shapes real files have are named by their cause, with what to do.
#[test]
fn kueue_messages_name_the_cause_of_shapes_real_files_have() {
    let cq = |quota: &str| {
        format!(
            "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: a\nspec:\n  resourceGroups:\n  - coveredResources: [\"nvidia.com/gpu\"]\n    flavors:\n    - name: on-demand\n      resources:\n      - name: nvidia.com/gpu\n        nominalQuota: {quota}\n"
        )
    };
    let first = |text: &str| kueue(text).unwrap_err()[0].to_string();
    // A Helm template, before rendering.
    let tpl = cq("{{ .Values.gpus }}");
    let m = first(&tpl);
    assert!(
        m.contains("line 12") && m.contains("Go or Helm template") && m.contains("render it first"),
        "{m}"
    );
    // A template in a comment is not one.
    assert!(kueue(&format!("# {{{{ not this }}}}\n{}", cq("4"))).is_ok());
    // Nor is a quoted string that reads like one, in valid YAML (found by fuzzing: the kept
    // documents of an import must import again).
    let quoted = cq("4").replace("name: a\n", "name: a\n  labels:\n    note: \"{{ x }}\"\n");
    assert!(kueue(&quoted).is_ok(), "{:?}", kueue(&quoted).err());
    // A shell heredoc around the YAML.
    let here = format!("cat <<'EOF' | kubectl apply -f -\n{}EOF\n", cq("4"));
    let m = first(&here);
    assert!(
        m.contains("line 1 starts a shell heredoc")
            && m.contains("between that line and its closing marker"),
        "{m}"
    );
    // Kueue's API before v1beta1.
    let old = "apiVersion: kueue.x-k8s.io/v1alpha1\nkind: ClusterQueue\nmetadata:\n  name: a\nspec:\n  requestableResources:\n  - name: nvidia.com/gpu\n    flavors:\n    - name: a100\n      quota:\n        min: 4\n";
    let m = first(old);
    assert!(
        m.starts_with("[0].spec.requestableResources: is Kueue's API before v1beta1"),
        "{m}"
    );
    assert!(m.contains("nominalQuota = quota.min"), "{m}");
    // An on-demand flavor's "no limit" quota: imported, with a warning.
    let ok = kueue(&cq("1000000000")).expect("imports");
    assert!(
        ok.warnings
            .iter()
            .any(|w| w.to_string().contains("reads as \"no limit\"")),
        "{:?}",
        ok.warnings
    );
    // A quantity the model cannot count.
    let m = first(&cq("2Gi"));
    assert!(
        m.contains("is more than the model counts") && m.contains("not a count of nvidia.com/gpu"),
        "{m}"
    );
    let m = first(&cq("500m"));
    assert!(m.contains("not a whole number of nvidia.com/gpu"), "{m}");
}

/// Issue #34: the page names the object an import warning is about (a quota share, a
/// Configuration), never its place in the file (`quotaShares[0].quotaShareArn`,
/// `[6].namespace`); the CLI's text keeps the paths.
#[test]
fn aws_and_configuration_warnings_name_their_objects() {
    let said = |name: &str, format: Format| -> Vec<(String, String)> {
        config::import(&fixture(name), format, &ImportOptions::default())
            .unwrap()
            .warnings
            .iter()
            .map(|w| (w.to_string(), w.words()))
            .collect()
    };
    let aws = said("aws-list-quota-shares.json", Format::Aws);
    let arn = aws
        .iter()
        .find(|(cli, _)| cli.contains("quotaShareArn"))
        .unwrap();
    assert_eq!(
        arn.0,
        "quotaShares[0].quotaShareArn: ignored: quotaShareArn (2 times)"
    );
    assert!(arn.1.starts_with("Quota shares "), "{}", arn.1);
    assert!(arn.1.ends_with(": quotaShareArn ignored"), "{}", arn.1);
    let created = said("aws-create-quota-shares.json", Format::Aws);
    for (_, page) in &created {
        assert!(
            page.starts_with("Quota share") || page.starts_with("Service environment"),
            "{page}"
        );
        assert!(!page.contains("[0]"), "{page}");
    }
    let kueue = said("kueue-hierarchical.yaml", Format::Kueue);
    let ns = kueue
        .iter()
        .find(|(cli, _)| cli.contains("namespace"))
        .unwrap();
    assert_eq!(ns.0, "[6].namespace: ignored: namespace");
    assert_eq!(ns.1, "Configuration: namespace ignored");
}

/// Issue #34 (walk): a problem inside a ClusterQueue's quota says the field in the user's
/// words on the page ("nominalQuota of nvidia.com/gpu in flavor a100 is not a quantity"),
/// not its place in the object; the CLI keeps its path.
#[test]
fn kueue_quota_problems_name_the_resource_and_flavor() {
    let text = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: ClusterQueue\nmetadata:\n  name: medium\nspec:\n  resourceGroups:\n  - coveredResources: [\"nvidia.com/gpu\"]\n    flavors:\n    - name: a100\n      resources:\n      - name: nvidia.com/gpu\n        nominalQuota: lots\n";
    let errors = kueue(text).unwrap_err();
    let e = &errors[0];
    assert_eq!(
        e.words(),
        "ClusterQueue medium: nominalQuota of nvidia.com/gpu in flavor a100 is not a quantity (\"lots\")"
    );
    assert!(
        e.to_string().starts_with(
            "[0].spec.resourceGroups[0].flavors[0].resources[0].nominalQuota: not a quantity"
        ),
        "{e}"
    );
}

/// Workloads given as a configuration (a fresh-eyes walk): the refusal says where they go.
#[test]
fn workloads_as_a_configuration_point_to_the_history_import() {
    let workloads = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../cli/tests/history/kueue-workloads.yaml"),
    )
    .unwrap();
    let p = problems(kueue(&workloads));
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("no ClusterQueue found: these are Workloads, a job history"),
        "{p:?}"
    );
    assert!(p[0].contains("quotasim import history"), "{p:?}");
    // Without Workloads, the plain refusal.
    assert_eq!(
        problems(kueue(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
        )),
        ["no ClusterQueue found"]
    );
}

/// Issue #34: an export's warnings are said on the page in words, naming the instance
/// type, ClusterQueue or setting (`Problem::words`); the CLI keeps the scenario's path.
#[test]
fn export_warnings_name_their_objects_in_words() {
    let words = |e: &config::Exported| -> Vec<(String, String)> {
        e.warnings
            .iter()
            .map(|w| (w.to_string(), w.words()))
            .collect()
    };
    // An AWS scenario with a custom type.
    let aws = json!({"format": "quotalab/v1",
        "instance_types": [{"name": "my-box", "gpus": 2, "usd_per_hour": 3.0}],
        "capacity": {"my-box": 2},
        "shares": [{"name": "a", "limits": {"my-box": 2}, "strategy": "LEND"}]});
    let out = config::export(
        &aws.to_string(),
        ExportFormat::AwsJson,
        &ExportOptions::default(),
    )
    .unwrap();
    assert_eq!(
        words(&out)[0],
        (
            "instance_types.my-box: a custom instance type: AWS names only its capacity unit, so its GPUs and price are not exported".to_string(),
            "Instance type my-box is a custom instance type: AWS names only its capacity unit, so its GPUs and price are not exported".to_string()
        )
    );
    // A Kueue scenario imported from a live cluster: capacity over the quotas, fair sharing
    // changed, a flavor new to a ClusterQueue whose group covers cpu and memory too.
    let (imp, _) = live();
    let mut sc = imp.scenario.clone();
    sc["capacity"]["spot"] = json!(100);
    sc["fair_sharing"] = json!({"strategies": ["less_than_initial_share"]});
    assert_eq!(sc["shares"][0]["name"], "cluster-queue");
    sc["shares"][0]["limits"]["spot"] = json!(1);
    let out = export_kueue(&sc, ExportFormat::Kueue);
    let said = words(&out);
    let paths: Vec<&str> = said.iter().map(|(p, _)| p.as_str()).collect();
    let page: Vec<&str> = said.iter().map(|(_, w)| w.as_str()).collect();
    assert_eq!(said.len(), 3, "{said:#?}");
    assert!(
        paths.iter().any(|p| p.starts_with("capacity: ")),
        "{paths:?}"
    );
    assert!(
        paths.iter().any(|p| p.starts_with("fair_sharing: ")),
        "{paths:?}"
    );
    assert!(
        paths
            .iter()
            .any(|p| p.starts_with("source.kueue.documents[1]")),
        "{paths:?}"
    );
    for w in &page {
        for internal in [
            "fair_sharing",
            "capacity:",
            "shares[",
            "instance_types",
            "[1]",
            "spec.",
        ] {
            assert!(!w.contains(internal), "{w}");
        }
    }
    assert!(
        page.contains(
            &"Kueue has no physical capacity apart from quotas: the capacity is not exported"
        ),
        "{page:?}"
    );
    assert!(
        page.iter().any(|w| w.starts_with(
            "Fair sharing changed, but it is set in Kueue's manager Configuration, which this export does not rewrite: set its fairSharing to "
        )),
        "{page:?}"
    );
    assert!(
        page.contains(&"ClusterQueue cluster-queue: flavor spot is new to it: its other covered resources (cpu, memory) are written with a nominalQuota of 0"),
        "{page:?}"
    );
}
