//! SPEC 16 history import: each rule on small inputs.

use super::*;

const KUEUE_CONFIG: &str = r#"
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team-a-cq}
spec:
  cohort: org
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: a100
      resources: [{name: nvidia.com/gpu, nominalQuota: 16}]
    - name: l4
      resources: [{name: nvidia.com/gpu, nominalQuota: 4}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: ClusterQueue
metadata: {name: team-b-cq}
spec:
  cohort: org
  resourceGroups:
  - coveredResources: [nvidia.com/gpu]
    flavors:
    - name: l4
      resources: [{name: nvidia.com/gpu, nominalQuota: 8}]
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: LocalQueue
metadata: {namespace: team-b, name: queue-b}
spec: {clusterQueue: team-b-cq}
---
apiVersion: kueue.x-k8s.io/v1beta1
kind: WorkloadPriorityClass
metadata: {name: high}
value: 1000
"#;

const AWS_CONFIG: &str = r#"{"quotaShares": [
  {"quotaShareName": "nlp", "jobQueue": "q", "capacityLimits": [{"maxCapacity": 2, "capacityUnit": "ml.p4d.24xlarge"}],
   "resourceSharingConfiguration": {"strategy": "LEND_AND_BORROW"}},
  {"quotaShareName": "vision", "jobQueue": "q", "capacityLimits": [{"maxCapacity": 4, "capacityUnit": "ml.g5.12xlarge"}],
   "resourceSharingConfiguration": {"strategy": "LEND"}}
]}"#;

fn opts() -> HistoryOptions {
    HistoryOptions {
        flavor_map: vec![("a100".into(), "ml.p4d.24xlarge".into())],
        ..HistoryOptions::default()
    }
}

fn kueue(history: &str, o: &HistoryOptions) -> Result<Imported, Vec<Problem>> {
    import(
        &[("", history)],
        Shares::Config {
            files: &[("", KUEUE_CONFIG)],
            into: None,
        },
        o,
    )
}

fn aws(history: &str, o: &HistoryOptions) -> Result<Imported, Vec<Problem>> {
    import(
        &[("", history)],
        Shares::Config {
            files: &[("", AWS_CONFIG)],
            into: None,
        },
        o,
    )
}

fn jobs(i: &Imported) -> Vec<Value> {
    i.scenario["jobs"].as_array().cloned().unwrap_or_default()
}

fn texts(ps: &[Problem]) -> Vec<String> {
    ps.iter().map(ToString::to_string).collect()
}

fn has(ps: &[Problem], needle: &str) -> bool {
    ps.iter().any(|p| p.to_string().contains(needle))
}

/// A Workload in YAML: `status` is indented YAML placed under `status:`.
fn wl(ns: &str, name: &str, created: &str, spec_extra: &str, status: &str) -> String {
    format!(
        r#"- apiVersion: kueue.x-k8s.io/v1beta1
  kind: Workload
  metadata:
    name: {name}
    namespace: {ns}
    creationTimestamp: "{created}"
  spec:
    podSets:
    - count: 2
      name: main
      template:
        spec:
          containers:
          - name: c
            resources:
              limits: {{nvidia.com/gpu: "4"}}
{spec_extra}
  status:
{status}
"#
    )
}

fn list(items: &[String]) -> String {
    format!("apiVersion: v1\nkind: List\nitems:\n{}", items.concat())
}

const ADMITTED_A: &str = r#"    admission:
      clusterQueue: team-a-cq
      podSetAssignments:
      - name: main
        count: 2
        flavors: {nvidia.com/gpu: a100}
        resourceUsage: {nvidia.com/gpu: "16"}
    conditions:
    - {type: Admitted, status: "True", reason: Admitted, lastTransitionTime: "2026-03-02T08:00:10Z"}
    - {type: Finished, status: "True", reason: Succeeded, lastTransitionTime: "2026-03-02T09:00:10Z"}"#;

#[test]
fn finished_workload_from_its_admission() {
    let h = list(&[wl(
        "team-a",
        "train",
        "2026-03-02T08:00:00Z",
        "",
        ADMITTED_A,
    )]);
    let imp = kueue(&h, &opts()).unwrap();
    let j = jobs(&imp);
    assert_eq!(
        j[0],
        json!({"id": "team-a/train", "share": "team-a-cq", "instance_type": "ml.p4d.24xlarge",
               "instances": 2, "submit_s": 0, "work_s": 3600})
    );
    assert_eq!(imp.scenario["model"], "kueue");
}

#[test]
fn pending_workload_goes_through_its_local_queue_to_the_first_flavor() {
    // 2 pods x 4 GPUs (limits stand in for requests), not admitted: team-b-cq's first
    // flavor, l4, a custom type of 1 GPU.
    let h = list(&[wl(
        "team-b",
        "render",
        "2026-03-02T08:00:00Z",
        "    queueName: queue-b",
        "    conditions: []",
    )]);
    let imp = kueue(&h, &opts()).unwrap();
    let j = &jobs(&imp)[0];
    assert_eq!(j["share"], "team-b-cq");
    assert_eq!(j["instance_type"], "l4");
    assert_eq!(j["instances"], 8);
    assert_eq!(j["work_s"], 1);
    assert!(has(&imp.warnings, "team-b/render was still pending"));
    assert_eq!(
        imp.warnings
            .iter()
            .find_map(|w| w.object.as_ref().and_then(|o| o.unfinished)),
        Some(crate::Unfinished::Pending)
    );
    // A LocalQueue in the history file itself works too, and an unknown one is an error.
    let lq = "apiVersion: kueue.x-k8s.io/v1beta1\nkind: LocalQueue\nmetadata: {namespace: team-x, name: qx}\nspec: {clusterQueue: team-a-cq}\n---\n";
    let h2 = format!(
        "{lq}{}",
        list(&[wl(
            "team-x",
            "r",
            "2026-03-02T08:00:00Z",
            "    queueName: qx",
            "    conditions: []"
        )])
    );
    let imp = kueue(&h2, &opts()).unwrap();
    assert_eq!(jobs(&imp)[0]["share"], "team-a-cq");
    assert_eq!(jobs(&imp)[0]["instance_type"], "ml.p4d.24xlarge");
    // 8 GPUs on an 8-GPU type: 1 instance.
    assert_eq!(jobs(&imp)[0]["instances"], 1);
    let h3 = list(&[wl(
        "team-y",
        "r",
        "2026-03-02T08:00:00Z",
        "    queueName: nope",
        "    conditions: []",
    )]);
    let e = kueue(&h3, &opts()).unwrap_err();
    assert!(
        has(&e, "[0].items[0].spec.queueName: job team-y/r: LocalQueue team-y/nope is not among the LocalQueue documents"),
        "{:?}",
        texts(&e)
    );
}

#[test]
fn unknown_share_names_the_shares() {
    let status = ADMITTED_A.replace("team-a-cq", "team-z-cq");
    let h = list(&[wl("ns", "j", "2026-03-02T08:00:00Z", "", &status)]);
    let e = kueue(&h, &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        ["[0].items[0].status.admission.clusterQueue: job ns/j is of share \"team-z-cq\", which the configuration does not have (shares: team-a-cq, team-b-cq)"]
    );
}

#[test]
fn running_job_runs_until_the_end_of_the_history() {
    let running = r#"    admission: {clusterQueue: team-a-cq}
    conditions:
    - {type: Admitted, status: "True", reason: Admitted, lastTransitionTime: "2026-03-02T08:30:00Z"}"#;
    let h = list(&[
        wl("team-a", "train", "2026-03-02T08:00:00Z", "", ADMITTED_A),
        wl("team-a", "long", "2026-03-02T08:20:00Z", "", running),
    ]);
    let imp = kueue(&h, &opts()).unwrap();
    let j = jobs(&imp);
    // The end is the latest time seen: 09:00:10.
    assert_eq!(j[1]["id"], "team-a/long");
    assert_eq!(j[1]["submit_s"], 1200);
    assert_eq!(j[1]["work_s"], 1810);
    assert!(has(
        &imp.warnings,
        "was still running at the end of the history: work_s is its time run so far (1810 s)"
    ));
    // Issue #34: the warning is typed (the page counts these) and names the Workload, not
    // its place in the file; the CLI's text keeps the path.
    let w = imp
        .warnings
        .iter()
        .find(|w| w.message.contains("still running"))
        .unwrap();
    assert!(w.to_string().starts_with("[0].items[1]: job team-a/long"));
    let o = w.object.as_ref().expect("names its Workload");
    assert_eq!(o.unfinished, Some(crate::Unfinished::Running));
    assert_eq!(
        w.words(),
        "Workload team-a/long was still running at the history's end: replayed with only the 30 min it had run, a lower bound"
    );
    for w in &imp.warnings {
        assert!(!w.words().contains("work_s"), "{}", w.words());
    }
    let finished = imp.warnings.iter().filter_map(|w| w.object.as_ref());
    assert_eq!(finished.filter(|o| o.unfinished.is_some()).count(), 1);
    // --to ends the history earlier: the finished job is then still running at 08:45.
    let o = HistoryOptions {
        to: Some("2026-03-02T08:45:00Z".into()),
        ..opts()
    };
    let imp = kueue(&h, &o).unwrap();
    let j = jobs(&imp);
    assert_eq!(j[0]["work_s"], 2690);
    assert_eq!(j[1]["work_s"], 900);
}

/// SPEC 16 / issue #34: the import lists the jobs that had not finished by the history's
/// end, typed (id, share, running or pending, the time run), sorted by id: what the page
/// marks their rows and its summary with; a finished job is not among them.
#[test]
fn the_import_lists_its_unfinished_jobs() {
    let running = r#"    admission: {clusterQueue: team-a-cq}
    conditions:
    - {type: Admitted, status: "True", reason: Admitted, lastTransitionTime: "2026-03-02T08:30:00Z"}"#;
    let h = list(&[
        wl(
            "team-b",
            "render",
            "2026-03-02T08:05:00Z",
            "    queueName: queue-b",
            "    conditions: []",
        ),
        wl("team-a", "train", "2026-03-02T08:00:00Z", "", ADMITTED_A),
        wl("team-a", "long", "2026-03-02T08:20:00Z", "", running),
    ]);
    let imp = kueue(&h, &opts()).unwrap();
    assert_eq!(jobs(&imp).len(), 3);
    let job = |id: &str, share: &str, kind, ran_s| crate::UnfinishedJob {
        id: id.into(),
        share: share.into(),
        kind,
        ran_s,
    };
    assert_eq!(
        imp.unfinished,
        [
            job(
                "team-a/long",
                "team-a-cq",
                crate::Unfinished::Running,
                1810.0
            ),
            job(
                "team-b/render",
                "team-b-cq",
                crate::Unfinished::Pending,
                0.0
            ),
        ]
    );
    // A configuration import has none.
    let config = crate::config::import(KUEUE_CONFIG, Format::Kueue, &ImportOptions::default());
    assert!(config.unwrap().unfinished.is_empty());
}

#[test]
fn window_cuts_and_times_are_relative_to_the_earliest_kept() {
    let h = list(&[
        wl("team-a", "b", "2026-03-02T08:10:00Z", "", ADMITTED_A),
        wl("team-a", "a", "2026-03-02T08:10:00Z", "", ADMITTED_A),
        wl("team-a", "early", "2026-03-02T07:00:00Z", "", ADMITTED_A),
    ]);
    let o = HistoryOptions {
        from: Some("2026-03-02T08:00:00Z".into()),
        ..opts()
    };
    let imp = kueue(&h, &o).unwrap();
    let ids: Vec<&str> = imp.scenario["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    // Same submit time: by id.
    assert_eq!(ids, ["team-a/a", "team-a/b"]);
    assert_eq!(jobs(&imp)[0]["submit_s"], 0);
    let o = HistoryOptions {
        from: Some("2027-01-01".into()),
        ..opts()
    };
    let e = kueue(&h, &o).unwrap_err();
    assert!(has(
        &e,
        "none of the history's 3 jobs was submitted in the --from/--to window"
    ));
    let o = HistoryOptions {
        from: Some("soon".into()),
        to: Some("1".into()),
        ..opts()
    };
    let e = kueue(&h, &o).unwrap_err();
    assert!(
        has(&e, "--from: \"soon\" is neither an ISO 8601 time"),
        "{:?}",
        texts(&e)
    );
}

#[test]
fn priorities_values_classes_and_model_range() {
    let h = list(&[
        wl("team-a", "p", "2026-03-02T08:00:00Z", "    priority: 7", ADMITTED_A),
        wl("team-a", "c", "2026-03-02T08:00:01Z", "    priorityClassName: high", ADMITTED_A),
        wl(
            "team-a",
            "r",
            "2026-03-02T08:00:02Z",
            "    priorityClassRef: {group: kueue.x-k8s.io, kind: WorkloadPriorityClass, name: gold}",
            ADMITTED_A,
        ),
        wl("team-a", "n", "2026-03-02T08:00:03Z", "    priority: -5", ADMITTED_A),
    ]);
    let imp = kueue(&h, &opts()).unwrap();
    let j = jobs(&imp);
    assert_eq!(j[0]["priority"], 7);
    assert_eq!(j[1]["priority_class"], "high");
    assert!(j[2].get("priority").is_none() && j[2].get("priority_class").is_none());
    assert!(has(&imp.warnings, "[0].items[2].spec.priorityClassRef.name: job team-a/r: priority class gold is not in the configuration"));
    // Kueue priorities may be negative; AWS ones are 0..=9999.
    assert_eq!(j[3]["priority"], -5);
    let a = r#"{"jobs": [{"jobName": "x", "jobId": "1", "shareIdentifier": "nlp", "status": "SUCCEEDED",
        "createdAt": 1000, "startedAt": 2000, "stoppedAt": 62000, "schedulingPriority": 10000,
        "container": {"resourceRequirements": [{"type": "GPU", "value": "8"}]}}]}"#;
    let e = aws(a, &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        ["jobs[0].schedulingPriority: job x: priority 10000 is outside 0..=9999, the AWS model's range"]
    );
}

#[test]
fn evictions_are_counted_not_replayed() {
    let status = format!(
        "{ADMITTED_A}\n    - {{type: Evicted, status: \"False\", reason: QuotaReserved, lastTransitionTime: \"2026-03-02T08:00:10Z\"}}\n    schedulingStats:\n      evictions:\n      - {{reason: Preempted, underlyingCause: InCohortReclamation, count: 2}}\n      - {{reason: PodsReadyTimeout, underlyingCause: \"\", count: 1}}"
    );
    let h = list(&[wl("team-a", "e", "2026-03-02T08:00:00Z", "", &status)]);
    let imp = kueue(&h, &opts()).unwrap();
    assert_eq!(jobs(&imp)[0]["work_s"], 3600);
    assert!(
        has(&imp.warnings, "[0].items[0]: job team-a/e was evicted 3 time(s) (2 by preemption): evictions are counted, not replayed"),
        "{:?}",
        texts(&imp.warnings)
    );
    // The page's words: the Workload named, no field names (issue #34).
    let said: Vec<String> = imp.warnings.iter().map(|w| w.words()).collect();
    assert!(
        said.contains(&"Workload team-a/e was evicted 3 times (2 by preemption): evictions are counted, not replayed, and its work is its last run's".to_string()),
        "{said:?}"
    );
    // Without scheduling stats: requeueState.count and the Evicted condition.
    let status = "    conditions:\n    - {type: Evicted, status: \"True\", reason: Preempted, lastTransitionTime: \"2026-03-02T08:30:00Z\"}\n    requeueState: {count: 2}";
    let h = list(&[wl(
        "team-b",
        "p",
        "2026-03-02T08:00:00Z",
        "    queueName: queue-b",
        status,
    )]);
    let imp = kueue(&h, &opts()).unwrap();
    assert!(has(
        &imp.warnings,
        "was evicted 2 time(s) (1 by preemption)"
    ));
    // A Requeued condition alone (evicted, waiting for its backoff): one eviction.
    let status = "    conditions:\n    - {type: Requeued, status: \"False\", reason: Preempted, lastTransitionTime: \"2026-03-02T08:30:00Z\"}";
    let h = list(&[wl(
        "team-b",
        "q",
        "2026-03-02T08:00:00Z",
        "    queueName: queue-b",
        status,
    )]);
    let imp = kueue(&h, &opts()).unwrap();
    assert!(
        has(
            &imp.warnings,
            "job team-b/q was evicted 1 time(s) (1 by preemption)"
        ),
        "{:?}",
        texts(&imp.warnings)
    );
    // No eviction seen: no warning.
    let h = list(&[wl(
        "team-a",
        "train",
        "2026-03-02T08:00:00Z",
        "",
        ADMITTED_A,
    )]);
    assert!(!has(&kueue(&h, &opts()).unwrap().warnings, "evicted"));
}

#[test]
fn skipped_workloads_warn_once_per_reason() {
    let cpu = |name: &str| {
        format!(
            r#"- apiVersion: kueue.x-k8s.io/v1beta1
  kind: Workload
  metadata: {{name: {name}, namespace: team-b, creationTimestamp: "2026-03-02T08:00:00Z"}}
  spec:
    queueName: queue-b
    podSets:
    - count: 3
      name: main
      template: {{spec: {{containers: [{{name: c, resources: {{requests: {{cpu: "2"}}}}}}]}}}}
"#
        )
    };
    let never = r#"    conditions:
    - {type: Finished, status: "True", reason: Failed, lastTransitionTime: "2026-03-02T08:00:05Z"}"#;
    let h = list(&[
        cpu("c1"),
        cpu("c2"),
        wl(
            "team-b",
            "n",
            "2026-03-02T08:00:00Z",
            "    queueName: queue-b",
            never,
        ),
        wl("team-a", "train", "2026-03-02T08:00:00Z", "", ADMITTED_A),
    ]);
    let imp = kueue(&h, &opts()).unwrap();
    assert_eq!(jobs(&imp).len(), 1);
    let w = texts(&imp.warnings);
    assert!(
        w.contains(
            &"[0].items[0].spec.podSets: ignored: workloads asking for no nvidia.com/gpu (2 times)"
                .to_string()
        ),
        "{w:?}"
    );
    assert!(
        w.contains(&"[0].items[2]: ignored: jobs that finished without running".to_string()),
        "{w:?}"
    );
}

#[test]
fn pod_requests_init_containers_and_whole_numbers() {
    let h = r#"apiVersion: kueue.x-k8s.io/v1beta2
kind: Workload
metadata: {name: w, namespace: team-b, creationTimestamp: "2026-03-02T08:00:00Z"}
spec:
  queueName: queue-b
  podSets:
  - name: main
    count: 3
    template:
      spec:
        initContainers: [{name: i, resources: {requests: {nvidia.com/gpu: 5}}}]
        containers:
        - {name: a, resources: {requests: {nvidia.com/gpu: 1}, limits: {nvidia.com/gpu: 2}}}
        - {name: b, resources: {limits: {nvidia.com/gpu: 2}}}
  - name: aux
    template:
      spec:
        containers: [{name: c, resources: {requests: {nvidia.com/gpu: "1"}}}]
"#;
    // Pod: max(1 + 2, 5) = 5, x 3 = 15, + 1 x 1 (count defaults to 1) = 16 GPUs on l4.
    let imp = kueue(h, &opts()).unwrap();
    assert_eq!(jobs(&imp)[0]["instances"], 16);
    assert_eq!(jobs(&imp)[0]["id"], "team-b/w");
    for (bad, msg) in [
        ("count: 3", "count: -1"),
        ("nvidia.com/gpu: 5", "nvidia.com/gpu: 500m"),
        ("nvidia.com/gpu: 5", "nvidia.com/gpu: lots"),
    ] {
        let t = h.replacen(bad, msg, 1);
        let e = kueue(&t, &opts()).unwrap_err();
        assert!(!e.is_empty(), "{msg}");
        assert!(
            e[0].to_string().starts_with("[0].spec.podSets[0]"),
            "{:?}",
            texts(&e)
        );
    }
    // Huge counts overflow no arithmetic: too many instances is an error.
    let huge = h.replacen("count: 3", "count: 2147483647", 1).replacen(
        "nvidia.com/gpu: 5",
        "nvidia.com/gpu: 9e15",
        1,
    );
    let e = kueue(&huge, &opts()).unwrap_err();
    assert!(has(&e, "[0].spec.podSets[0]"), "{:?}", texts(&e));
    let big = h.replacen("count: 3", "count: 2147483647", 1);
    let e = kueue(&big, &opts()).unwrap_err();
    assert!(
        has(&e, "instances, over the limit of 1000000000"),
        "{:?}",
        texts(&e)
    );
}

#[test]
fn kubectl_json_single_object_and_list() {
    let w = json!({"apiVersion": "kueue.x-k8s.io/v1beta2", "kind": "Workload",
        "metadata": {"name": "j", "namespace": "team-a", "creationTimestamp": "2026-03-02T08:00:00Z"},
        "spec": {"podSets": [{"name": "main", "count": 1, "template": {"spec": {"containers": []}}}], "queueName": "q"},
        "status": {"admission": {"clusterQueue": "team-a-cq", "podSetAssignments": [
            {"name": "main", "count": 1, "flavors": {"nvidia.com/gpu": "a100"}, "resourceUsage": {"nvidia.com/gpu": "8"}}]},
            "conditions": [{"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved", "lastTransitionTime": "2026-03-02T08:00:00Z"},
                           {"type": "Finished", "status": "True", "reason": "Succeeded", "lastTransitionTime": "2026-03-02T08:10:00Z"}]}});
    let text = serde_json::to_string_pretty(&w).unwrap();
    let imp = kueue(&text, &opts()).unwrap();
    assert_eq!(jobs(&imp)[0]["work_s"], 600);
    // Without a creation time: an error with the path, no document index for one object.
    let mut bad = w.clone();
    bad["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("creationTimestamp");
    let e = kueue(&bad.to_string(), &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        ["metadata.creationTimestamp: is required (the submission time)"]
    );
    bad["metadata"]["creationTimestamp"] = json!("yesterday");
    let e = kueue(&bad.to_string(), &opts()).unwrap_err();
    assert!(has(
        &e,
        "metadata.creationTimestamp: \"yesterday\" is not an RFC 3339 time"
    ));
    let l = json!({"apiVersion": "v1", "kind": "List", "items": [w]});
    let imp = kueue(&l.to_string(), &opts()).unwrap();
    assert_eq!(jobs(&imp).len(), 1);
}

#[test]
fn hostile_kueue_input_is_refused_cleanly() {
    let e = kueue("kind: [unclosed", &opts()).unwrap_err();
    assert!(e[0].to_string().starts_with("YAML:"), "{:?}", texts(&e));
    let e = kueue("{\"kind\": ", &opts()).unwrap_err();
    assert!(!e.is_empty());
    let e = kueue("- 1\n- 2\n", &opts()).unwrap_err();
    assert!(has(&e, "must be a Kubernetes object"), "{:?}", texts(&e));
    let e = kueue("kind: List\nitems: 3\n", &opts()).unwrap_err();
    assert!(has(&e, "[0].items: must be a list of objects"));
    // Wrong kinds are ignored with a warning; nothing else: no job.
    let e = kueue(
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
        &opts(),
    )
    .unwrap_err();
    assert!(has(&e, "no job found in the history"));
    let bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nkind: Workload\n";
    let e = kueue(bomb, &opts()).unwrap_err();
    assert!(e[0].to_string().starts_with("YAML:"), "{:?}", texts(&e));
    let deep = format!("{}1{}", "[".repeat(500), "]".repeat(500));
    assert!(kueue(&deep, &opts()).is_err());
    let big = format!("# {}\n", "x".repeat(MAX_FILE_BYTES));
    let e = kueue(&big, &opts()).unwrap_err();
    assert!(has(&e, "over the 8 MiB limit"));
}

#[test]
fn aws_describe_jobs_and_service_jobs() {
    let a = r#"{"jobs": [
      {"jobName": "pre", "jobId": "id-1", "shareIdentifier": "nlp", "status": "SUCCEEDED", "createdAt": 1772438400000,
       "schedulingPriority": 5,
       "attempts": [{"startedAt": 1772438460000, "stoppedAt": 1772438520000},
                    {"startedAt": 1772438600000, "stoppedAt": 1772442200000}],
       "nodeProperties": {"numNodes": 2, "nodeRangeProperties": [{"targetNodes": "0:1",
          "container": {"resourceRequirements": [{"type": "VCPU", "value": "96"}, {"type": "GPU", "value": "8"}]}}]}},
      {"jobName": "eval", "jobId": "id-2", "shareIdentifier": "vision", "status": "FAILED", "createdAt": 1772438400500,
       "startedAt": 1772438401000, "stoppedAt": 1772438461000,
       "container": {"resourceRequirements": [{"type": "GPU", "value": "6"}]}}
    ], "nextToken": "abc"}"#;
    let imp = aws(a, &opts()).unwrap();
    let j = jobs(&imp);
    assert_eq!(
        j[0],
        json!({"id": "pre", "share": "nlp", "instance_type": "ml.p4d.24xlarge", "instances": 2,
               "priority": 5, "submit_s": 0, "work_s": 3600})
    );
    // 6 GPUs on 4-GPU instances: 2, with a warning; times keep their milliseconds.
    assert_eq!(j[1]["instances"], 2);
    assert_eq!(j[1]["submit_s"], 0.5);
    assert_eq!(j[1]["work_s"], 60);
    assert!(has(
        &imp.warnings,
        "jobs[1].container.resourceRequirements[0]: job eval asks for 6 GPUs"
    ));
    assert!(has(&imp.warnings, "nextToken: the response has more pages"));
    assert_eq!(
        imp.scenario["name"],
        "AWS Batch quota shares of job queue q, job history (2 jobs)"
    );

    // describe-service-job: one object; the SageMaker request gives type and count.
    let s = json!({"jobName": "detr", "jobId": "s-1", "quotaShareName": "vision", "shareIdentifier": "ignored",
        "status": "RUNNING", "createdAt": 1772438400000_i64, "startedAt": 1772438410000_i64,
        "serviceJobType": "SAGEMAKER_TRAINING",
        "serviceRequestPayload": "{\"TrainingJobName\": \"detr\", \"ResourceConfig\": {\"InstanceType\": \"ml.g5.12xlarge\", \"InstanceCount\": 3, \"VolumeSizeInGB\": 100}}",
        "preemptionSummary": {"preemptedAttemptCount": 2}});
    let imp = aws(&s.to_string(), &opts()).unwrap();
    let j = &jobs(&imp)[0];
    assert_eq!(j["share"], "vision");
    assert_eq!(j["instances"], 3);
    assert_eq!(j["work_s"], 1);
    assert!(has(
        &imp.warnings,
        "job detr was evicted 2 time(s) (2 by preemption)"
    ));
    // list-service-jobs: capacityUsage in instances of the share's type.
    let l = r#"{"jobSummaryList": [{"jobName": "d", "jobId": "s-2", "quotaShareName": "nlp", "status": "SUCCEEDED",
        "createdAt": 0, "startedAt": 1000, "stoppedAt": 7201000,
        "capacityUsage": [{"capacityUnit": "NUM_INSTANCES", "quantity": 2}]}]}"#;
    let imp = aws(l, &opts()).unwrap();
    assert_eq!(jobs(&imp)[0]["instances"], 2);
    assert_eq!(jobs(&imp)[0]["work_s"], 7200);
}

#[test]
fn aws_names_ids_and_errors() {
    let job = |name: &str, id: &str, share: &str| {
        json!({"jobName": name, "jobId": id, "shareIdentifier": share, "status": "SUCCEEDED",
               "createdAt": 1000, "startedAt": 2000, "stoppedAt": 3000,
               "container": {"resourceRequirements": [{"type": "GPU", "value": "8"}]}})
    };
    let a = json!([{"jobs": [job("x", "1", "nlp"), job("x", "2", "nlp"), job("y", "3", "nlp")]}]);
    let imp = aws(&a.to_string(), &opts()).unwrap();
    let ids: Vec<&str> = imp.scenario["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| j["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["x/1", "x/2", "y"]);
    // The same job twice (two overlapping exports): the first is kept.
    let a = json!([{"jobs": [job("x", "1", "nlp")]}, {"jobs": [job("x", "1", "nlp")]}]);
    let imp = aws(&a.to_string(), &opts()).unwrap();
    assert_eq!(jobs(&imp).len(), 1);
    assert!(has(
        &imp.warnings,
        "[1].jobs[0]: job x appears more than once"
    ));
    let mut bad = job("z", "4", "nlp");
    bad.as_object_mut().unwrap().remove("shareIdentifier");
    bad["status"] = json!("DONE");
    bad["createdAt"] = json!(-5);
    let e = aws(&json!({"jobs": [bad]}).to_string(), &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        ["jobs[0].shareIdentifier: job z names no share (shareIdentifier or quotaShareName; a list-jobs summary may lack it: describe-jobs gives it)"]
    );
    let mut bad = job("z", "4", "nlp");
    bad["status"] = json!("DONE");
    bad["createdAt"] = json!(-5);
    bad["container"]["resourceRequirements"][0]["value"] = json!("-8");
    let e = aws(&json!({"jobs": [bad]}).to_string(), &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        [
            "jobs[0].createdAt: must be epoch milliseconds (a whole number >= 0), not -5",
            "jobs[0].status: \"DONE\" is not an AWS Batch job status",
            "jobs[0].container.resourceRequirements[0].value: must be a whole number >= 0, not \"-8\"",
        ]
    );
    let e = aws(
        &json!({"jobs": [job("z", "4", "robotics")]}).to_string(),
        &opts(),
    )
    .unwrap_err();
    assert!(has(&e, "job z is of share \"robotics\", which the configuration does not have (shares: nlp, vision)"));
    let e = aws("[1, {\"other\": true}]", &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        [
            "[0]: must be an object (a DescribeJobs or ListJobs response, or a job), not a number",
            "[1]: is neither a job (no jobId) nor a response listing jobs (no jobs or jobSummaryList)",
        ]
    );
}

#[test]
fn shares_from_a_scenario_and_into() {
    let scenario = json!({"format": "quotalab/v1", "name": "ours",
        "shares": [{"name": "nlp", "limits": {"ml.p4d.24xlarge": 2}, "strategy": "LEND_AND_BORROW"}],
        "jobs": [{"id": "old", "share": "nlp", "instance_type": "ml.p4d.24xlarge", "submit_s": 0, "work_s": 5}],
        "events": [{"at_s": 1, "set_priority": {"job": "old", "priority": 3}},
                   {"at_s": 2, "update_share": {"share": "nlp", "limits": {"ml.p4d.24xlarge": 1}}}]})
    .to_string();
    let h = r#"{"jobs": [{"jobName": "n", "jobId": "1", "shareIdentifier": "nlp", "status": "SUCCEEDED",
        "createdAt": 0, "startedAt": 0, "stoppedAt": 500,
        "container": {"resourceRequirements": [{"type": "GPU", "value": "16"}]}}]}"#;
    let imp = import(
        &[("h.json", h)],
        Shares::Scenario("s.json", &scenario),
        &HistoryOptions::default(),
    )
    .unwrap();
    let j = jobs(&imp);
    assert_eq!(j.len(), 1);
    assert_eq!(j[0]["instances"], 2);
    assert_eq!(j[0]["work_s"], 1);
    assert_eq!(imp.scenario["events"].as_array().unwrap().len(), 1);
    assert_eq!(imp.scenario["name"], "ours, job history (1 job)");
    // A horizon before the last submission is said.
    let short = scenario.replace("\"name\":\"ours\"", "\"name\":\"ours\",\"horizon_s\":0.1");
    let h2 = h.replace("\"createdAt\": 0", "\"createdAt\": 1000");
    let two = format!(
        "[{h}, {}]",
        h2.replace("\"jobId\": \"1\"", "\"jobId\": \"2\"")
    );
    let imp2 = import(
        &[("h.json", &two)],
        Shares::Scenario("s.json", &short),
        &HistoryOptions::default(),
    )
    .unwrap();
    assert!(
        has(
            &imp2.warnings,
            "horizon_s: is 0.1 s, before the history's last submission (1 s)"
        ),
        "{:?}",
        texts(&imp2.warnings)
    );
    let w = texts(&imp.warnings);
    assert!(
        w.contains(&"s.json: jobs: its 1 jobs are replaced by the history".to_string()),
        "{w:?}"
    );
    assert!(
        w.iter()
            .any(|x| x.starts_with("s.json: events: its 1 set_priority")),
        "{w:?}"
    );
    // --config and --into: the configuration's shares in the scenario.
    let imp = import(
        &[("h.json", h)],
        Shares::Config {
            files: &[("c.json", AWS_CONFIG)],
            into: Some(("s.json", &scenario)),
        },
        &HistoryOptions::default(),
    );
    // The into scenario's update_share names nlp, which the configuration has.
    let imp = imp.unwrap();
    assert_eq!(imp.scenario["shares"].as_array().unwrap().len(), 2);
    // Neither: the configuration is needed.
    let e = import(
        &[("h.json", h)],
        Shares::Config {
            files: &[],
            into: None,
        },
        &HistoryOptions::default(),
    )
    .unwrap_err();
    assert!(has(&e, "a configuration is needed for the shares"));
}

#[test]
fn several_files_name_the_file() {
    let h = r#"{"jobs": [{"jobName": "n", "jobId": "1", "shareIdentifier": "nope", "status": "SUCCEEDED",
        "createdAt": 0, "startedAt": 0, "stoppedAt": 500,
        "container": {"resourceRequirements": [{"type": "GPU", "value": "16"}]}}]}"#;
    let e = import(
        &[("h.json", h)],
        Shares::Config {
            files: &[("c.json", AWS_CONFIG)],
            into: None,
        },
        &HistoryOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        texts(&e),
        ["h.json: jobs[0].shareIdentifier: job n is of share \"nope\", which the configuration does not have (shares: nlp, vision)"]
    );
}

#[test]
fn output_is_deterministic() {
    let h = list(&[
        wl("team-a", "b", "2026-03-02T08:10:00Z", "", ADMITTED_A),
        wl("team-a", "a", "2026-03-02T08:10:00Z", "", ADMITTED_A),
    ]);
    let one = kueue(&h, &opts()).unwrap();
    let two = kueue(&h, &opts()).unwrap();
    assert_eq!(one.scenario_json, two.scenario_json);
    assert_eq!(texts(&one.warnings), texts(&two.warnings));
}

#[test]
fn detects_formats() {
    assert_eq!(detect("apiVersion: v1\nkind: List\n"), HistoryFormat::Kueue);
    assert_eq!(
        detect("{\"kind\": \"List\", \"items\": []}"),
        HistoryFormat::Kueue
    );
    assert_eq!(detect("{\"jobs\": []}"), HistoryFormat::Aws);
    assert_eq!(detect("[{\"jobSummaryList\": []}]"), HistoryFormat::Aws);
}

#[test]
fn admitted_after_the_end_was_pending_then() {
    // Submitted 08:00, admitted 08:00:10: with --to 08:00:05 it was still waiting.
    let h = list(&[wl(
        "team-a",
        "train",
        "2026-03-02T08:00:00Z",
        "",
        ADMITTED_A,
    )]);
    let o = HistoryOptions {
        to: Some("2026-03-02T08:00:05Z".into()),
        ..opts()
    };
    let imp = kueue(&h, &o).unwrap();
    assert_eq!(jobs(&imp)[0]["work_s"], 1);
    assert!(has(
        &imp.warnings,
        "job team-a/train was still pending at the end of the history"
    ));
}

#[test]
fn resource_names_the_counted_resource() {
    let h = list(&[wl(
        "team-a",
        "train",
        "2026-03-02T08:00:00Z",
        "",
        ADMITTED_A,
    )]);
    let o = HistoryOptions {
        resource: "amd.com/gpu".into(),
        ..opts()
    };
    // The configuration has no quota of amd.com/gpu: the import says so.
    let e = kueue(&h, &o).unwrap_err();
    assert!(
        has(&e, "no ClusterQueue has a quota of amd.com/gpu"),
        "{:?}",
        texts(&e)
    );
    let cfg = KUEUE_CONFIG.replace("nvidia.com/gpu", "amd.com/gpu");
    let e = import(
        &[("", &h)],
        Shares::Config {
            files: &[("", &cfg)],
            into: None,
        },
        &o,
    )
    .unwrap_err();
    // The workload asks for none of it: skipped, so no job at all.
    assert_eq!(
        texts(&e),
        ["no job left to replay: each of the 1 jobs in the window asks for no amd.com/gpu (--resource names the counted resource) or finished without running"]
    );
}

// ------------------------------------------------------------ record by record (stream)

const FIXTURE_CONFIG: &str = include_str!("../../../../cli/tests/history/kueue-config.yaml");
const FIXTURE_YAML: &str = include_str!("../../../../cli/tests/history/kueue-workloads.yaml");
const FIXTURE_JSON: &str =
    include_str!("../../../../cli/tests/history/kueue-workloads-v1beta2.json");
const FIXTURE_AWS_JOBS: &str = include_str!("../../../../cli/tests/history/aws-describe-jobs.json");
const FIXTURE_AWS_SERVICE: &str =
    include_str!("../../../../cli/tests/history/aws-list-service-jobs.json");
const FIXTURE_AWS_CONFIG: &str =
    include_str!("../../../../cli/tests/history/aws-quota-shares.json");

/// The history fed to a [`HistoryReader`] in pieces of `piece` bytes.
fn in_pieces(history: &str, cfg: &str, piece: usize) -> Result<Imported, Vec<Problem>> {
    in_pieces_with(history, cfg, piece, true)
}

/// [`in_pieces`], records read by serde_json from the buffer (natively) or cut out by the
/// scanner and read from text (as in wasm).
fn in_pieces_with(
    history: &str,
    cfg: &str,
    piece: usize,
    serde_records: bool,
) -> Result<Imported, Vec<Problem>> {
    let files = [("config", cfg)];
    let shares = Shares::Config {
        files: &files,
        into: None,
    };
    let o = opts();
    let mut r = HistoryReader::new("history", 0, names_files(1, shares), &o.resource);
    r.serde_records = serde_records;
    for c in history.as_bytes().chunks(piece) {
        r.push(c);
    }
    import_read(vec![r], shares, &o)
}

fn whole(history: &str, cfg: &str) -> Result<Imported, Vec<Problem>> {
    let files = [("config", cfg)];
    let shares = Shares::Config {
        files: &files,
        into: None,
    };
    import(&[("history", history)], shares, &opts())
}

/// What an import gives, as text: the scenario and the warnings, or the errors.
fn outcome(r: Result<Imported, Vec<Problem>>) -> (String, Vec<String>) {
    match r {
        Ok(i) => (i.scenario_json, texts(&i.warnings)),
        Err(e) => (String::new(), texts(&e)),
    }
}

#[test]
fn any_split_of_the_file_gives_the_same_import() {
    let cases = [
        (FIXTURE_YAML, FIXTURE_CONFIG),
        (FIXTURE_JSON, FIXTURE_CONFIG),
        (FIXTURE_AWS_JOBS, FIXTURE_AWS_CONFIG),
        (FIXTURE_AWS_SERVICE, FIXTURE_AWS_CONFIG),
    ];
    for (history, cfg) in cases {
        let expected = outcome(whole(history, cfg));
        assert!(!expected.0.is_empty(), "{:?}", expected.1);
        for piece in [1, 2, 3, 7, 64, 1000, usize::MAX] {
            for serde_records in [true, false] {
                let got = outcome(in_pieces_with(history, cfg, piece, serde_records));
                assert_eq!(got, expected, "pieces of {piece} bytes, {serde_records}");
            }
        }
    }
    // A byte order mark split over pieces, and CRLF line ends.
    let bom = format!("\u{feff}{}", FIXTURE_YAML.replace('\n', "\r\n"));
    let expected = outcome(whole(FIXTURE_YAML, FIXTURE_CONFIG));
    for piece in [1, 2, 5] {
        assert_eq!(outcome(in_pieces(&bom, FIXTURE_CONFIG, piece)), expected);
    }
}

#[test]
fn a_list_in_json_and_in_yaml_and_as_documents_reads_the_same() {
    // The YAML List, its items as a `---` stream, and the same List as JSON.
    let docs: Vec<Value> = crate::config::kueue::parse_documents(FIXTURE_YAML).unwrap();
    let list = &docs[0];
    let json = serde_json::to_string_pretty(list).unwrap();
    let yaml = outcome(whole(FIXTURE_YAML, FIXTURE_CONFIG));
    let from_json = outcome(in_pieces(&json, FIXTURE_CONFIG, 4096));
    assert_eq!(from_json.0, yaml.0, "{:?}", from_json.1);
    // The items as a JSON array: paths [i] instead of items[i], same jobs.
    let array = serde_json::to_string(&list["items"]).unwrap();
    assert_eq!(outcome(in_pieces(&array, FIXTURE_CONFIG, 4096)).0, yaml.0);
    // An indented sequence of items (read whole, the same).
    let indented = FIXTURE_YAML
        .lines()
        .map(|l| {
            if l.starts_with("- ") || l.starts_with("  ") {
                format!("  {l}")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let got = outcome(whole(&indented, FIXTURE_CONFIG));
    assert_eq!(got.0, yaml.0, "{:?}", got.1);
    // `kind: List` before the items.
    let kind_first = FIXTURE_YAML
        .replace(
            "apiVersion: v1\nitems:\n",
            "apiVersion: v1\nkind: List\nitems:\n",
        )
        .replace("\nkind: List\nmetadata:", "\nmetadata:");
    let got = outcome(in_pieces(&kind_first, FIXTURE_CONFIG, 10));
    assert_eq!(got.0, yaml.0, "{:?}", got.1);
}

#[test]
fn a_byte_that_is_not_utf8_in_a_yaml_item_is_said_on_its_line() {
    // The 21st line of the fourth item, past lines an item takes at once.
    let item = FIXTURE_YAML
        .match_indices("\n- apiVersion")
        .nth(3)
        .unwrap()
        .0
        + 1;
    let start = item + FIXTURE_YAML[item..].match_indices('\n').nth(20).unwrap().0 + 1;
    let line = FIXTURE_YAML[..start].matches('\n').count() + 1;
    let mut bytes = FIXTURE_YAML.as_bytes().to_vec();
    bytes.insert(start + 4, 0xff);
    for piece in [7, 4096, usize::MAX] {
        let mut r = HistoryReader::new("history", 0, true, "nvidia.com/gpu");
        for c in bytes.chunks(piece) {
            r.push(c);
        }
        r.finish();
        let errors = texts(&r.sink.errors);
        let want = format!("is not UTF-8 text (line {line})");
        assert!(
            errors.iter().any(|e| e.contains(&want)),
            "{piece}: {errors:?}"
        );
        assert_eq!(r.records(), 3, "{piece}");
    }
}

#[test]
fn a_list_cut_short_is_said_to_be() {
    // JSON: cut inside the third item.
    let docs: Vec<Value> = crate::config::kueue::parse_documents(FIXTURE_YAML).unwrap();
    let json = serde_json::to_string_pretty(&docs[0]).unwrap();
    let third = json
        .match_indices("\"apiVersion\": \"kueue")
        .nth(2)
        .unwrap()
        .0;
    let e = in_pieces(&json[..third + 200], FIXTURE_CONFIG, 100).unwrap_err();
    assert!(
        has(&e, "history: JSON syntax error at line ")
            && has(&e, ": the file ends inside items[2], which starts at line")
            && has(&e, "cut short (truncated?)"),
        "{:?}",
        texts(&e)
    );
    // Cut between items.
    let e = whole(&json[..third - 10], FIXTURE_CONFIG).unwrap_err();
    assert!(
        has(&e, "the file ends inside items after 2 records"),
        "{:?}",
        texts(&e)
    );
    // YAML: cut inside an item, so `kind: List` (after the items) is missing.
    let cut = &FIXTURE_YAML[..FIXTURE_YAML
        .find("  kind: Workload\n  metadata:\n    creationTimestamp: \"2026-03-02T09")
        .unwrap()];
    let e = whole(cut, FIXTURE_CONFIG).unwrap_err();
    assert!(
        has(&e, "history: [0].kind: is required (kubectl prints `kind: List` after the items: is the file cut short?)"),
        "{:?}",
        texts(&e)
    );
    // A syntax error inside an item names its line in the file.
    let bad = json.replacen("\"count\": 1,", "\"count\": 1,,", 1);
    let line = bad[..bad.find(",,").unwrap()].lines().count();
    let e = whole(&bad, FIXTURE_CONFIG).unwrap_err();
    assert!(
        has(&e, &format!("JSON syntax error at line {line}, column ")),
        "{:?}",
        texts(&e)
    );
}

#[test]
fn a_record_over_8_mib_is_refused_with_its_path() {
    let docs: Vec<Value> = crate::config::kueue::parse_documents(FIXTURE_YAML).unwrap();
    let mut list = docs[0].clone();
    list["items"][1]["metadata"]["annotations"] = json!({"x": "y".repeat(MAX_FILE_BYTES)});
    let json = serde_json::to_string(&list).unwrap();
    assert!(json.len() > MAX_FILE_BYTES);
    let e = in_pieces(&json, FIXTURE_CONFIG, 1 << 20).unwrap_err();
    assert_eq!(
        texts(&e),
        ["history: items[1]: is over the 8 MiB limit (each record of a history is read alone and may hold at most 8 MiB)"]
    );
    // A whole file of 8 MiB + 1 byte is fine when its records are small.
    let mut list = docs[0].clone();
    let small: Vec<Value> = (0..4000)
        .map(|i| {
            let mut w = list["items"][0].clone();
            w["metadata"]["name"] = json!(format!("w{i}"));
            w["metadata"]["annotations"] = json!({"pad": "p".repeat(2200)});
            w
        })
        .collect();
    list["items"] = Value::Array(small);
    let json = serde_json::to_string(&list).unwrap();
    assert!(json.len() > MAX_FILE_BYTES);
    let imp = in_pieces(&json, FIXTURE_CONFIG, 1 << 20).unwrap();
    assert_eq!(jobs(&imp).len(), 4000);
}

#[test]
fn a_million_records_are_refused_within_bounds() {
    // 1,000,001 tiny records of an ignored kind: refused at the bound, naming the file.
    let mut r = HistoryReader::new("hostile.json", 0, true, "nvidia.com/gpu");
    r.push(b"{\"items\": [");
    let piece = "{\"kind\":\"X\"},".repeat(10_000);
    for _ in 0..101 {
        r.push(piece.as_bytes());
        if r.stopped() {
            break;
        }
    }
    assert!(r.stopped());
    assert_eq!(r.records(), MAX_HISTORY_RECORDS + 1);
    let files = [("config", FIXTURE_CONFIG)];
    let shares = Shares::Config {
        files: &files,
        into: None,
    };
    let e = import_read(vec![r], shares, &opts()).unwrap_err();
    assert_eq!(
        texts(&e),
        ["hostile.json: holds more than 1000000 records, the limit of a history file"]
    );
    // Records that are all wrong: the first thousand problems, then the reading stops.
    let bad = format!("{{\"items\": [{}{{}}]}}", "{},".repeat(5000));
    let e = whole(&bad, FIXTURE_CONFIG).unwrap_err();
    assert_eq!(e.len(), 1001, "{:?}", &texts(&e)[..3]);
    assert!(has(
        &e,
        "more than 1000 problems: the rest of the file is not read"
    ));
}

#[test]
fn aws_responses_keep_their_warnings_in_place() {
    // nextToken after the jobs: warned first, as when the response was read whole.
    let v: Value = serde_json::from_str(FIXTURE_AWS_JOBS).unwrap();
    let mut m = v.as_object().unwrap().clone();
    m.insert("nextToken".into(), json!("abc"));
    m.insert("other".into(), json!(1));
    let text = serde_json::to_string_pretty(&Value::Object(m)).unwrap();
    let got = outcome(in_pieces(&text, FIXTURE_AWS_CONFIG, 100));
    let at = |needle: &str| got.1.iter().position(|w| w.contains(needle));
    assert!(
        at("nextToken: the response has more pages") < at("history: jobs["),
        "{:?}",
        got.1
    );
    assert!(
        got.1.iter().any(|w| w.contains("ignored: other")),
        "{:?}",
        got.1
    );
    // An array of responses: each element is read alone.
    let arr = format!("[{FIXTURE_AWS_JOBS}, {FIXTURE_AWS_SERVICE}]");
    let got = outcome(in_pieces(&arr, FIXTURE_AWS_CONFIG, 333));
    assert!(!got.0.is_empty(), "{:?}", got.1);
    assert_eq!(got, outcome(whole(&arr, FIXTURE_AWS_CONFIG)));
}

/// A kubectl List's items are read keeping only what the Kueue reader reads
/// (`kept::RECORD`); a single object is read whole. Both give the same import, the same
/// warnings and the same errors, for well-formed Workloads and for fields of every wrong
/// shape the reader reports.
#[test]
fn kept_list_items_import_as_whole_objects_do() {
    let w = json!({"apiVersion": "kueue.x-k8s.io/v1beta1", "kind": "Workload",
        "metadata": {"name": "j", "namespace": "team-a", "creationTimestamp": "2026-03-02T08:00:00Z",
            "labels": {"x": "y"}, "uid": "u", "generation": 3},
        "spec": {"active": true, "queueName": "q", "priority": 10, "priorityClassName": "high",
            "podSets": [{"name": "main", "count": 2, "minCount": 1, "template": {"metadata": {},
                "spec": {"restartPolicy": "Never", "containers": [{"name": "c", "image": "i",
                    "resources": {"requests": {"cpu": "4", "nvidia.com/gpu": "4"}}}]}}}]},
        "status": {"admission": {"clusterQueue": "team-a-cq", "podSetAssignments": [
                {"name": "main", "count": 2, "flavors": {"nvidia.com/gpu": "a100"}}]},
            "conditions": [
                {"type": "QuotaReserved", "status": "True", "reason": "QuotaReserved",
                 "message": "m", "observedGeneration": 1, "lastTransitionTime": "2026-03-02T08:00:00Z"},
                {"type": "Evicted", "status": "False", "reason": "Preempted", "message": "m",
                 "lastTransitionTime": "2026-03-02T08:01:00Z"},
                {"type": "Finished", "status": "True", "reason": "Succeeded",
                 "lastTransitionTime": "2026-03-02T08:10:00Z"}],
            "requeueState": {"count": 2, "requeueAt": "2026-03-02T08:02:00Z"},
            "resourceRequests": [{"name": "main"}]}});
    let mutations: Vec<(&str, Value)> = vec![
        ("", Value::Null),
        ("/status", json!("x")),
        ("/status/conditions", json!("x")),
        ("/status/conditions/0", json!(5)),
        ("/status/conditions/0/type", json!(7)),
        ("/status/conditions/2/lastTransitionTime", json!("soon")),
        (
            "/status/schedulingStats",
            json!({"evictions": [{"reason": "Preempted", "count": "two"}]}),
        ),
        (
            "/status/schedulingStats",
            json!({"evictions": [{"reason": "Preempted", "count": 3}]}),
        ),
        ("/status/requeueState", json!([1])),
        ("/status/admission", json!(4)),
        ("/status/admission/podSetAssignments/0/count", json!("many")),
        ("/spec", json!([])),
        ("/spec/podSets", json!({"a": 1})),
        ("/spec/podSets/0/count", json!("two")),
        (
            "/spec/podSets/0/template/spec/containers/0/resources",
            json!("big"),
        ),
        ("/spec/priority", json!("high")),
        ("/spec/priority", Value::Null),
        ("/spec/priorityClassName", json!(3)),
        ("/spec/queueName", json!(false)),
        ("/metadata", json!("m")),
        ("/metadata/name", json!(1)),
    ];
    for (at, v) in mutations {
        let mut one = w.clone();
        if let Some((parent, key)) = at.rsplit_once('/') {
            match one.pointer_mut(parent).unwrap() {
                Value::Object(m) => {
                    m.insert(key.to_string(), v.clone());
                }
                a => a[key.parse::<usize>().unwrap()] = v.clone(),
            }
        }
        let whole = kueue(&one.to_string(), &opts());
        let listed = kueue(
            &json!({"apiVersion": "v1", "kind": "List", "items": [one]}).to_string(),
            &opts(),
        );
        let strip = |ps: &[Problem]| -> Vec<String> {
            texts(ps)
                .iter()
                .map(|t| {
                    t.replace("items[0]: ", "")
                        .replace("items[0].", "")
                        .replace("items[0]", "")
                })
                .collect()
        };
        match (whole, listed) {
            (Ok(a), Ok(b)) => {
                assert_eq!(jobs(&a), jobs(&b), "{at} = {v}");
                assert_eq!(strip(&a.warnings), strip(&b.warnings), "{at} = {v}");
            }
            (Err(a), Err(b)) => assert_eq!(strip(&a), strip(&b), "{at} = {v}"),
            (a, b) => panic!("{at} = {v}: whole {:?}, listed {:?}", a.is_ok(), b.is_ok()),
        }
    }
}
