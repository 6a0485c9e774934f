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

/// Found by `scenario_json` (timeout-5129cc36, reduced): a Kueue scenario whose quotas (18)
/// exceed its capacity (16), with borrowers that run for 10^12 s. A 4-instance job preempted
/// two borrowers and waited for them; the instances free besides theirs went to two other
/// borrowers in the same pass, which it preempted in the next; the first two, requeued, took
/// what those freed; and so on for ever (a run of 1.5 million events per 200,000 steps that
/// never ended, and out of memory). The capacity condition now counts a waiting preemptor in
/// as the quota trees do: the instances it needs besides its victims' are kept for it.
#[test]
fn a_waiting_preemptor_keeps_the_capacity_it_needs() {
    let text = json!({
        "format": "quotalab/v1", "model": "kueue", "seed": 22,
        "capacity": {"ml.g5.xlarge": 16},
        "cohorts": [{"name": "org", "limits": {"ml.g5.xlarge": 4}},
                    {"name": "research", "parent": "org"}, {"name": "product", "parent": "org"}],
        "shares": [
            {"name": "nlp", "limits": {"ml.g5.xlarge": 8}, "cohort": "research",
             "preemption": {"within_share": "lower_priority", "reclaim": "any"}},
            {"name": "search", "limits": {"ml.g5.xlarge": 6}, "cohort": "product"}
        ],
        "workloads": [
            {"share": "nlp", "count": 60, "arrival": {"uniform": [0, 7200]}, "instance_type": "ml.g5.xlarge",
             "instances": {"choice": [[1, 2], [2, 2], [4, 1]]},
             "work_s": {"lognormal": {"median": 3000, "sigma": 0.5}}},
            {"share": "search", "count": 40, "arrival": {"uniform": [1800, 9000]}, "instance_type": "ml.g5.xlarge",
             "instances": 1, "work_s": {"fixed": 1e12}}
        ]
    })
    .to_string();
    let loaded = load(&text).unwrap();
    let opts = quotalab_engine::pipeline::Product::ResultJson.options();
    let mut sim = quotalab_engine::Sim::new(&loaded.scenario, opts);
    let mut steps = 0;
    while sim.step() {
        steps += 1;
        assert!(
            steps < 5_000,
            "the run has not ended after {steps} steps (t = {} ms)",
            sim.now()
        );
    }
    let done = sim.finish();
    let preempts = done
        .events()
        .iter()
        .filter(|e| matches!(e.kind, quotalab_engine::sim::EventKind::Preempt { .. }))
        .count();
    assert!(preempts < 100, "{preempts} preemptions");
    // Every nlp job ran to the end; the borrowers run until 10^12 s.
    let nlp = done
        .jobs()
        .iter()
        .zip(&done.scenario().jobs)
        .filter(|(_, spec)| spec.share() == 0);
    for (r, spec) in nlp {
        assert_eq!(
            r.state,
            quotalab_engine::sim::State::Succeeded,
            "{}",
            done.scenario().id_of(spec)
        );
    }
    // The same scenario with the capacity of its quotas never needed it.
    let roomy = text.replace(
        "\"capacity\":{\"ml.g5.xlarge\":16}",
        "\"capacity\":{\"ml.g5.xlarge\":18}",
    );
    assert_ne!(roomy, text);
    run_json(&roomy).unwrap();
}

/// Found by `sweep_vary` (crash-f571f7c4): `--vary e=1..10888888888888888888:188888888888888`
/// has whole FROM and STEP, so its values were written as integers, and those past `i64`
/// (10^19) all became 9223372036854775807: values that repeat. Whole values now need TO
/// within 10^15 too (else they are floats), and a STEP too small for the values' size (past
/// 2^53 neighbouring floats are more than 1 apart) is refused instead of repeating values,
/// however the values are written.
#[test]
fn vary_values_never_repeat() {
    use quotalab_engine::analysis::sweep::parse_vary;
    let v = parse_vary("e=1..10888888888888888888:188888888888888").unwrap();
    let xs: Vec<f64> = v.values.iter().map(|x| x.as_f64().unwrap()).collect();
    assert_eq!(xs.len(), 57_648);
    assert!(xs.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(xs[1], 188_888_888_888_889.0);
    assert!(*xs.last().unwrap() <= 10_888_888_888_888_888_888.0);
    // Small whole ranges stay integers.
    assert_eq!(
        parse_vary("seed=1..3:1").unwrap().values,
        [json!(1), json!(2), json!(3)]
    );
    let e = parse_vary("x=1e16..1.00000000000001e16:1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "x: --vary x=1e16..1.00000000000001e16:1: STEP 1 is too small for values as large as 1.00000000000001e16: they would repeat (numbers keep about 15 significant digits)"
    );
    // Found by `sweep_vary` (crash-4e602763): written in decimal, so computed exactly in
    // hundredths and then turned into floats, which past 2^53 are 8 apart while STEP is 1.
    let e = parse_vary("x=55555555555555555..55555555555575555.10:1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "x: --vary x=55555555555555555..55555555555575555.10:1: STEP 1 is too small for values as large as 55555555555575555.10: they would repeat (numbers keep about 15 significant digits)"
    );
    // Found by `sweep_vary` (crash-de79a3df): TO below FROM, equal to it as floats.
    let e = parse_vary("x=55555555555555555..55555555555555553.10:1").unwrap_err();
    assert_eq!(
        e.to_string(),
        "x: --vary x=55555555555555555..55555555555555553.10:1: TO must be >= FROM (got 55555555555555555..55555555555555553.10)"
    );
}

/// Defect 5 of docs/RELIABILITY.md (found by `scenario_json`, timeout-2b65ae33): a Kueue
/// scenario with fair sharing (the hierarchical preset, mutated) in which search-10
/// reclaimed from nlp and ads; each group of victims, requeued when its grace ended, was
/// admitted again in the same instant ahead of search-10 and preempted again: 364,000
/// preemptions and 1.6 million events. Kueue's own scheduler (`./run kueue-oracle`, on the
/// same jobs without checkpoints) preempts 21 times; since the Kueue model runs Kueue's
/// scheduling cycles (SPEC 12.1), so does the engine, decision by decision (fixture
/// `oracle/kueue/testdata/regressions/cycle-fuzz-preemption-ping-pong.json`).
#[test]
fn kueue_victims_are_not_preempted_again_and_again() {
    let text = include_str!("fuzz_open/kueue-preemption-ping-pong.json");
    let loaded = load(text).unwrap();
    let opts = quotalab_engine::pipeline::Product::ResultJson.options();
    let mut sim = quotalab_engine::Sim::new(&loaded.scenario, opts);
    let mut steps = 0;
    while sim.step() {
        steps += 1;
        assert!(steps < 20_000, "{steps} steps (t = {} ms)", sim.now());
    }
}

/// Runs `text` to its end (no horizon), failing past `max_steps` instants; the events.
fn events_of_run(text: &str, max_steps: usize) -> Vec<quotalab_engine::sim::Event> {
    let loaded = load(text).unwrap();
    let opts = quotalab_engine::pipeline::Product::ResultJson.options();
    let mut sim = quotalab_engine::Sim::new(&loaded.scenario, opts);
    let mut steps = 0;
    while sim.step() {
        steps += 1;
        assert!(steps < max_steps, "{steps} steps (t = {} ms)", sim.now());
    }
    let done = sim.finish();
    assert_eq!(done.circle(), None, "the run ends, not in a circle");
    done.events().to_vec()
}

/// Defect 9 of docs/RELIABILITY.md (found by `simulate`, crash-28a28703): a Kueue scenario
/// whose quotas exceed the physical capacity (ml.g5.xlarge: s0's nominal quota is all of
/// it, s4 has 2 more). A job of s0 needing every instance preempts s4's borrowers (grace 0:
/// they are gone at once); in the next scheduling cycle s4's heads, ordered first, are
/// admitted again into instances the quota still left the preemptor, which preempts again:
/// hundreds of cycles of preemptions at every instant, as long as anything was pending (the
/// fuzz input had a submission at 10^12 s: a run of minutes and over 4 GB). Kueue has no
/// physical capacity, so the engine decides: a preemptor whose victims are gone keeps the
/// instances it needs until it is walked again (`Sim::capacity_kept`). Reduced from the
/// fuzz input (35 jobs, kept beside this file), which this runs too: 1.6 million events
/// before, 70 and 390 now.
#[test]
fn a_preemptor_keeps_the_instances_its_victims_freed() {
    let text = json!({
        "format": "quotalab/v1", "model": "kueue",
        "capacity": {"ml.g5.xlarge": 10},
        "queue": {"preemption_grace_s": 0},
        "cohorts": [{"name": "c"}],
        "shares": [
            {"name": "s0", "limits": {"ml.g5.xlarge": 10}, "cohort": "c",
             "preemption": {"within_share": "lower_priority", "reclaim": "any"}},
            {"name": "s3", "limits": {"ml.p4d.24xlarge": 1}, "cohort": "c"},
            {"name": "s4", "limits": {"ml.g5.xlarge": 2}, "cohort": "c"}
        ],
        "jobs": [
            {"id": "j0", "share": "s3", "instance_type": "ml.g6.xlarge", "instances": 8, "submit_s": 86400, "work_s": 10},
            {"id": "j2", "share": "s0", "instance_type": "ml.g5.xlarge", "instances": 10, "submit_s": 60, "work_s": 60},
            {"id": "j3", "share": "s0", "instance_type": "ml.g5.xlarge", "instances": 10, "submit_s": 60, "work_s": 60},
            {"id": "j4", "share": "s0", "instance_type": "ml.g5.xlarge", "instances": 10, "submit_s": 60, "work_s": 60},
            {"id": "j5", "share": "s0", "instance_type": "ml.g5.xlarge", "instances": 10, "submit_s": 60, "work_s": 60},
            {"id": "j9", "share": "s0", "instance_type": "ml.g5.xlarge", "instances": 10, "submit_s": 60, "work_s": 60},
            {"id": "j23", "share": "s4", "instance_type": "ml.g5.xlarge", "instances": 3, "priority": 1,
             "submit_s": 60, "work_s": 60, "preemption_retries": 3},
            {"id": "j24", "share": "s4", "instance_type": "ml.g5.xlarge", "instances": 1, "priority": 1,
             "submit_s": 60, "work_s": 60, "startup_s": 60},
            {"id": "j34", "share": "s4", "instance_type": "ml.g5.xlarge", "instances": 3, "priority": 1,
             "submit_s": 60, "work_s": 60, "startup_s": 60}
        ]
    })
    .to_string();
    let events = events_of_run(&text, 100);
    assert!(events.len() < 200, "{} events", events.len());
    let preempts = events
        .iter()
        .filter(|e| matches!(e.kind, quotalab_engine::sim::EventKind::Preempt { .. }))
        .count();
    assert!(preempts < 10, "{preempts} preemptions");
    // The fuzz input itself.
    let text = include_str!("fuzz_regressions/checkpoints-of-a-billion-seconds.json");
    let events = events_of_run(text, 1_000);
    assert!(events.len() < 1_000, "{} events", events.len());
}

/// Found by `config_aws` (crash-a8a74587, the 20 s smoke run of `./run test`): a
/// ListQuotaShares response whose first share names no job queue (its `jobQueueArn` key
/// mangled, kept as an unknown field) and whose second names `ml-queue`. The export kept
/// the second body's queue and gave the first the default `quotalab`, so the export named
/// two job queues and did not import again. A share without a kept queue now joins the
/// kept shares' queue.
#[test]
fn an_aws_export_over_kept_bodies_names_one_job_queue() {
    let text = r#"{"quotaShares": [
      {"quotaShareName": "research", "quotaShQueueArn": "arn:aws:batch:us-east-1:123456789012:job-queue/ml-queue",
       "capacityLimits": [{"maxCapacity": 4, "capacityUnit": "ml.p4d.24xlarge"}],
       "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW"}, "state": "ENABLED"},
      {"quotaShareName": "prod", "jobQueueArn": "arn:aws:batch:us-east-1:123456789012:job-queue/ml-queue",
       "capacityLimits": [{"maxCapacity": 2, "capacityUnit": "ml.p4d.24xlarge"}],
       "resourceSharingConfiguration": {"strategy": "RESERVE"}, "state": "ENABLED"}]}"#;
    let out = aws_export_round_trip(text);
    let bodies: Value = serde_json::from_str(&out).unwrap();
    let queues: Vec<&Value> = bodies
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b.get("jobQueue"))
        .collect();
    assert_eq!(queues.len(), 2, "{out}");
    assert!(queues.iter().all(|q| *q == queues[0]), "{out}");
}

/// Imports AWS `text`, exports it as `--cli-input-json` bodies and imports those again:
/// the shares must come back the same. The exported text.
fn aws_export_round_trip(text: &str) -> String {
    use quotalab_engine::config::{self, ExportFormat, ExportOptions, Format, ImportOptions};
    let first = config::import(text, Format::Aws, &ImportOptions::default()).unwrap();
    let out = config::export(
        &first.scenario_json,
        ExportFormat::AwsJson,
        &ExportOptions::default(),
    )
    .unwrap();
    let back = config::import(&out.text, Format::Aws, &ImportOptions::default())
        .unwrap_or_else(|p| panic!("the export does not import: {p:?}\n{}", out.text));
    assert_eq!(
        first.scenario["shares"], back.scenario["shares"],
        "{}",
        out.text
    );
    out.text
}

/// Found by `config_aws` (crash-5f2b2e9d, the 20 s smoke run of `./run test`, 2026-12-05):
/// a share of a ListQuotaShares response with an unknown key `quotaShares` of its own. The
/// import kept it in the share's body, the export wrote the body with it, and the reader
/// took that exported body for a ListQuotaShares response, so the export did not import
/// again. The export now leaves out the keys that make a body read as a list.
#[test]
fn an_aws_export_never_writes_a_share_that_reads_as_a_list() {
    let text = r#"{"quotaShares": [
      {"quotaShareName": "research", "jobQueue": "ml-queue",
       "capacityLimits": [{"maxCapacity": 4, "capacityUnit": "ml.p4d.24xlarge"}],
       "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW"}, "state": "ENABLED"},
      {"quotaShareName": "prod", "jobQueue": "ml-queue",
       "quotaShares": [{"maxCapacity": 4, "capacityUnit": "ml.p3d.24xlarge"}],
       "serviceEnvironments": [],
       "capacityLimits": [{"maxCapacity": 4, "capacityUnit": "ml.p4d.24xlarge"}],
       "resourceSharingConfiguration": {"strategy": "RESERVE"}, "state": "ENABLED"}]}"#;
    let out = aws_export_round_trip(text);
    assert!(
        !out.contains("\"quotaShares\"") && !out.contains("\"serviceEnvironments\""),
        "{out}"
    );
}

/// Found by `config_kueue` (crash-a8bc32c7): a ClusterQueue with a key of 615 backslashes
/// (ignored by the import) imported, but its export failed: the export read the kept
/// documents again as JSON text, where the key is 1,230 characters escaped, past YAML's
/// 1,024 for a key, and the refusal was then taken for a template's. The export reads the
/// kept documents as they are, and writes a key that long as an explicit one (`? key`).
#[test]
fn a_kueue_key_longer_than_yaml_allows_once_escaped_exports_and_imports_again() {
    use quotalab_engine::config::{self, ExportFormat, ExportOptions, Format, ImportOptions};
    let long = format!("x{}", "\\".repeat(614));
    let text = format!(
        "apiVersion: kueue.x-k8s.io/v1beta2\nkind: ClusterQueue\nmetadata:\n  name: team-a\nspec:\n  {long}: 1\n  resourceGroups:\n  - coveredResources: [\"nvidia.com/gpu\"]\n    flavors:\n    - name: a100\n      resources:\n      - name: \"nvidia.com/gpu\"\n        nominalQuota: 16\n"
    );
    let opts = ImportOptions::default();
    let first = config::import(&text, Format::Kueue, &opts).expect("the file imports");
    let exported = config::export(
        &first.scenario_json,
        ExportFormat::Kueue,
        &ExportOptions::default(),
    )
    .unwrap_or_else(|p| panic!("the import does not export: {p:?}"));
    assert!(exported.text.contains("? \"x\\\\"), "{}", exported.text);
    let back = config::import(&exported.text, Format::Kueue, &opts)
        .unwrap_or_else(|p| panic!("the export does not import: {p:?}\n{}", exported.text));
    assert!(back
        .warnings
        .iter()
        .any(|w| w.to_string().contains("ignored: x\\")));
}
