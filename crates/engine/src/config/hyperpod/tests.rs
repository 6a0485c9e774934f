//! HyperPod task governance import and export (SPEC 16): one test per mapping rule, the
//! problems with their paths, hostile input, and round trips.

use serde_json::{json, Value};

use super::*;

fn imp(text: &str) -> Imported {
    import(text, &ImportOptions::default()).unwrap_or_else(|p| panic!("{p:?}"))
}

fn errs(text: &str) -> Vec<String> {
    import(text, &ImportOptions::default())
        .map(|i| panic!("imported: {}", i.scenario_json))
        .unwrap_err()
        .into_iter()
        .map(|p| p.to_string())
        .collect()
}

fn warnings(i: &Imported) -> Vec<String> {
    i.warnings.iter().map(|p| p.to_string()).collect()
}

/// A CreateComputeQuota body for `team` with the given config.
fn quota(team: &str, config: Value) -> Value {
    json!({"Name": format!("{team}-quota"), "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456",
           "ComputeQuotaConfig": config, "ComputeQuotaTarget": {"TeamName": team}})
}

fn g5(n: u64) -> Value {
    json!([{"InstanceType": "ml.g5.8xlarge", "Count": n}])
}

#[test]
fn strategies_become_lending_and_borrowing_limits() {
    let text = json!([
        quota("dont", json!({"ComputeQuotaResources": g5(4), "ResourceSharingConfig": {"Strategy": "DontLend"}})),
        quota("lend", json!({"ComputeQuotaResources": g5(4), "ResourceSharingConfig": {"Strategy": "Lend"}})),
        quota("both", json!({"ComputeQuotaResources": g5(5), "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 150}})),
        // No ResourceSharingConfig: AWS's defaults, LendAndBorrow with 50 %.
        quota("default", json!({"ComputeQuotaResources": g5(3)})),
    ])
    .to_string();
    let s = imp(&text).scenario;
    let sh = &s["shares"];
    assert_eq!(sh[0]["lending_limit"], json!({"ml.g5.8xlarge": 0}));
    assert_eq!(sh[0]["borrowing_limit"], json!({"ml.g5.8xlarge": 0}));
    assert_eq!(sh[1].get("lending_limit"), None);
    assert_eq!(sh[1]["borrowing_limit"], json!({"ml.g5.8xlarge": 0}));
    assert_eq!(sh[2].get("lending_limit"), None);
    // floor(5 x 150 / 100) = 7.
    assert_eq!(sh[2]["borrowing_limit"], json!({"ml.g5.8xlarge": 7}));
    // floor(3 x 50 / 100) = 1.
    assert_eq!(sh[3]["borrowing_limit"], json!({"ml.g5.8xlarge": 1}));
    for (i, n) in [4, 4, 5, 3].into_iter().enumerate() {
        assert_eq!(sh[i]["cohort"], COHORT);
        assert_eq!(sh[i]["limits"], json!({"ml.g5.8xlarge": n}));
    }
    assert_eq!(s["cohorts"], json!([{"name": COHORT}]));
    assert_eq!(s["model"], "kueue");
}

#[test]
fn absolute_limits_and_types_without_quota() {
    let text = json!([
        quota("a", json!({"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": 4},
                                                      {"InstanceType": "ml.p5.48xlarge", "Count": 2}],
                          "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 50,
                              "AbsoluteBorrowLimits": [{"InstanceType": "ml.p5.48xlarge", "Count": 3},
                                                       {"InstanceType": "ml.g6.48xlarge", "Accelerators": 16}]}})),
        quota("b", json!({"ComputeQuotaResources": g5(2), "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 100}})),
    ])
    .to_string();
    let s = imp(&text).scenario;
    // Percent where no absolute limit is given; the absolute limit wins; 16 GPUs of an
    // 8-GPU type are 2 instances, and a type named only there gets a limit of 0.
    assert_eq!(
        s["shares"][0]["limits"],
        json!({"ml.g5.8xlarge": 4, "ml.p5.48xlarge": 2, "ml.g6.48xlarge": 0})
    );
    assert_eq!(
        s["shares"][0]["borrowing_limit"],
        json!({"ml.g5.8xlarge": 2, "ml.p5.48xlarge": 3, "ml.g6.48xlarge": 2})
    );
    // A share uses only the types its limits name (as a ClusterQueue its flavors).
    assert_eq!(s["shares"][1]["limits"], json!({"ml.g5.8xlarge": 2}));
    assert_eq!(
        s["shares"][1]["borrowing_limit"],
        json!({"ml.g5.8xlarge": 2})
    );
    // A team with no type at all is an error naming the field.
    let e = errs(&quota("a", json!({"ComputeQuotaResources": []})).to_string());
    assert_eq!(e, ["ComputeQuotaConfig.ComputeQuotaResources: names no instance type: a team needs a quota (or an absolute borrow limit) of at least one instance type"]);
}

#[test]
fn borrow_limits_of_other_strategies_are_ignored_with_a_warning() {
    let text = quota(
        "a",
        json!({"ComputeQuotaResources": g5(2), "ResourceSharingConfig": {"Strategy": "Lend", "BorrowLimit": 80,
               "AbsoluteBorrowLimits": [{"InstanceType": "ml.g5.8xlarge", "Count": 1}]}}),
    )
    .to_string();
    let i = imp(&text);
    assert_eq!(
        i.scenario["shares"][0]["borrowing_limit"],
        json!({"ml.g5.8xlarge": 0})
    );
    assert_eq!(
        warnings(&i),
        [
            "ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit: ignored: a borrow limit applies only to LendAndBorrow (Strategy is Lend)",
            "ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits: ignored: borrow limits apply only to LendAndBorrow (Strategy is Lend)",
        ]
    );
}

#[test]
fn preemption_weight_state_and_defaults() {
    let text = json!([
        {"ClusterArn": "x", "ComputeQuotaConfig": {"ComputeQuotaResources": g5(1), "PreemptTeamTasks": "Never"},
         "ComputeQuotaTarget": {"TeamName": "a", "FairShareWeight": 75}, "ActivationState": "Disabled"},
        {"ClusterArn": "x", "ComputeQuotaConfig": {"ComputeQuotaResources": g5(1)},
         "ComputeQuotaTarget": {"TeamName": "b"}},
    ])
    .to_string();
    let s = imp(&text).scenario;
    assert_eq!(
        s["shares"][0]["preemption"],
        json!({"within_share": "never", "reclaim": "any"})
    );
    assert_eq!(s["shares"][0]["weight"], 75);
    assert_eq!(s["shares"][0]["state"], "DISABLED");
    // Defaults: LowerPriority, weight 0, Enabled.
    assert_eq!(
        s["shares"][1]["preemption"],
        json!({"within_share": "lower_priority", "reclaim": "any"})
    );
    assert_eq!(s["shares"][1]["weight"], 0);
    assert_eq!(s["shares"][1].get("state"), None);
    // No cluster policy: no fair sharing, no priority classes.
    assert_eq!(s.get("fair_sharing"), None);
    assert_eq!(s.get("priority_classes"), None);
}

#[test]
fn cluster_policy_gives_fair_sharing_and_priority_classes() {
    let describe = json!({
        "ClusterSchedulerConfigArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster-scheduler-config/abc",
        "ClusterSchedulerConfigId": "abc", "Name": "policy", "ClusterSchedulerConfigVersion": 2,
        "Status": "Created", "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456",
        "SchedulerConfig": {"PriorityClasses": [{"Name": "inference", "Weight": 90}, {"Name": "training", "Weight": 70}],
                            "FairShare": "Enabled", "IdleResourceSharing": "Enabled"},
        "CreationTime": 1733000000.0
    });
    let text = json!([
        describe,
        quota("a", json!({"ComputeQuotaResources": g5(2)}))
    ])
    .to_string();
    let i = imp(&text);
    assert_eq!(
        i.scenario["fair_sharing"],
        json!({"strategies": ["less_than_or_equal_to_final_share", "less_than_initial_share"]})
    );
    assert_eq!(
        i.scenario["priority_classes"],
        json!({"inference": 90, "training": 70})
    );
    assert_eq!(
        i.scenario["name"],
        "HyperPod task governance of cluster abcdef123456"
    );
    let w = warnings(&i);
    assert!(w.contains(&"[0].SchedulerConfig.IdleResourceSharing: not modelled: the cluster's unallocated instances are not in these files, so teams borrow only what other teams lend".to_string()), "{w:?}");
    for name in [
        "ClusterSchedulerConfigArn",
        "ClusterSchedulerConfigId",
        "ClusterSchedulerConfigVersion",
        "Status",
        "CreationTime",
    ] {
        assert!(
            w.contains(&format!("[0].{name}: ignored: {name}")),
            "{name}: {w:?}"
        );
    }
    let disabled = json!([{"SchedulerConfig": {"FairShare": "Disabled"}}, quota("a", json!({"ComputeQuotaResources": g5(2)}))]);
    assert_eq!(
        imp(&disabled.to_string()).scenario.get("fair_sharing"),
        None
    );
}

#[test]
fn list_response_pages_statuses_and_ignored_names_once_each() {
    let mut q1 = quota("a", json!({"ComputeQuotaResources": g5(2)}));
    let mut q2 = quota("b", json!({"ComputeQuotaResources": g5(2)}));
    let mut q3 = quota("c", json!({"ComputeQuotaResources": g5(2)}));
    for (q, s) in [
        (&mut q1, "Created"),
        (&mut q2, "Updated"),
        (&mut q3, "Deleted"),
    ] {
        q["ComputeQuotaArn"] = json!("arn:...");
        q["ComputeQuotaId"] = json!("id");
        q["Status"] = json!(s);
    }
    let text = json!({"ComputeQuotaSummaries": [q1, q2, q3], "NextToken": "tok"}).to_string();
    let i = imp(&text);
    assert_eq!(i.scenario["shares"].as_array().unwrap().len(), 2);
    assert_eq!(
        warnings(&i),
        [
            "ComputeQuotaSummaries[0].ComputeQuotaArn: ignored: ComputeQuotaArn (3 times)",
            "ComputeQuotaSummaries[0].ComputeQuotaId: ignored: ComputeQuotaId (3 times)",
            "NextToken: the ListComputeQuotas response has more pages (NextToken is set): only this page is imported",
            "ComputeQuotaSummaries[2].Status: not imported: the compute quota's Status is Deleted",
        ]
    );
}

#[test]
fn accelerators_vcpu_and_partitions() {
    let text = json!([
        quota("a", json!({"ComputeQuotaResources": [{"InstanceType": "ml.p4d.24xlarge", "Accelerators": 12}]})),
        quota("b", json!({"ComputeQuotaResources": [{"InstanceType": "ml.p5.48xlarge", "Count": 1, "Accelerators": 4,
                                                      "VCpu": 96, "AcceleratorPartition": {"Count": 4, "Type": "mig-1g.5gb"}}]})),
    ])
    .to_string();
    let i = imp(&text);
    assert_eq!(
        i.scenario["shares"][0]["limits"],
        json!({"ml.p4d.24xlarge": 1})
    );
    assert_eq!(
        i.scenario["shares"][1]["limits"],
        json!({"ml.p5.48xlarge": 1})
    );
    let w = warnings(&i);
    assert!(w.contains(&"[0].ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators: 12 accelerators are not a whole number of ml.p4d.24xlarge (8 per instance): floored to 1".to_string()), "{w:?}");
    assert!(w.contains(&"[1].ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators: ignored: Count gives the instances (1); 4 accelerators are not 1 whole ml.p5.48xlarge".to_string()), "{w:?}");
    assert!(w.contains(&"[1].ComputeQuotaConfig.ComputeQuotaResources[0].VCpu: ignored: VCpu (the simulator counts whole instances)".to_string()), "{w:?}");
    assert!(w.contains(&"[1].ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition: ignored: AcceleratorPartition (the simulator counts whole instances)".to_string()), "{w:?}");
    // Only vCPU and memory: nothing to count.
    let e = errs(&quota("a", json!({"ComputeQuotaResources": [{"InstanceType": "ml.g5.2xlarge", "VCpu": 4.0, "MemoryInGiB": 16.0}]})).to_string());
    assert_eq!(e, ["ComputeQuotaConfig.ComputeQuotaResources[0]: gives neither Count nor Accelerators: the simulator counts whole instances (VCpu, MemoryInGiB and GPU partitions alone cannot be converted)"]);
}

#[test]
fn every_error_names_its_document_and_path() {
    let text = json!([
        quota("a", json!({"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": -1}],
                          "ResourceSharingConfig": {"Strategy": "Borrow", "BorrowLimit": 20000},
                          "PreemptTeamTasks": "Always"})),
        {"ComputeQuotaConfig": {"ComputeQuotaResources": "ml.g5.8xlarge"}, "ComputeQuotaTarget": {"FairShareWeight": 101}},
        {"SchedulerConfig": {"PriorityClasses": [{"Name": "x", "Weight": 1}, {"Name": "x", "Weight": 2}, {"Weight": 3}], "FairShare": "On"}},
        "team-c",
        {"Foo": 1},
    ])
    .to_string();
    assert_eq!(
        errs(&text),
        [
            "[0].ComputeQuotaConfig.ComputeQuotaResources[0].Count: must be a whole number of instances from 0 to 1000000000, not -1",
            "[0].ComputeQuotaConfig.PreemptTeamTasks: must be Never or LowerPriority (got \"Always\")",
            "[0].ComputeQuotaConfig.ResourceSharingConfig.Strategy: must be Lend or DontLend or LendAndBorrow (got \"Borrow\")",
            "[0].ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit: must be a whole number (percent) from 0 to 10000, not 20000",
            "[1].ComputeQuotaTarget.TeamName: is required",
            "[1].ComputeQuotaTarget.FairShareWeight: must be a whole number (fair-share weight) from 0 to 100, not 101",
            "[1].ComputeQuotaConfig.ComputeQuotaResources: must be an array, not a string",
            "[2].SchedulerConfig.FairShare: must be Enabled or Disabled (got \"On\")",
            "[2].SchedulerConfig.PriorityClasses[1].Name: priority class x is listed twice",
            "[2].SchedulerConfig.PriorityClasses[2].Name: is required",
            "[3]: must be an object (a CreateComputeQuota or CreateClusterSchedulerConfig body, or a ListComputeQuotas / Describe response), not a string",
            "[4]: is neither a compute quota (no ComputeQuotaConfig / ComputeQuotaTarget) nor a cluster scheduler config (no SchedulerConfig), nor a ListComputeQuotas response",
        ]
    );
}

#[test]
fn duplicate_teams_and_several_policies() {
    let text = json!([
        quota("a", json!({"ComputeQuotaResources": g5(1)})),
        quota("a", json!({"ComputeQuotaResources": g5(2)})),
        {"SchedulerConfig": {}}, {"SchedulerConfig": {}},
    ])
    .to_string();
    assert_eq!(
        errs(&text),
        [
            "[1].ComputeQuotaTarget.TeamName: team a has two compute quotas (also [0])",
            "[3]: several cluster scheduler configs ([2] and [3]): a cluster has one cluster policy",
        ]
    );
}

#[test]
fn several_clusters_need_cluster() {
    let mut a = quota("a", json!({"ComputeQuotaResources": g5(1)}));
    let mut b = quota("b", json!({"ComputeQuotaResources": g5(1)}));
    a["ClusterArn"] = json!("arn:aws:sagemaker:us-west-2:123456789012:cluster/aaaaaaaaaaaa");
    b["ClusterArn"] = json!("arn:aws:sagemaker:us-west-2:123456789012:cluster/bbbbbbbbbbbb");
    let text = json!([a, b, quota("c", json!({"ComputeQuotaResources": g5(1)}))]).to_string();
    let e = errs(&text);
    assert_eq!(e.len(), 1);
    assert!(e[0].starts_with("compute quotas of several clusters: arn:aws:sagemaker:us-west-2:123456789012:cluster/aaaaaaaaaaaa, arn:aws:sagemaker:us-west-2:123456789012:cluster/bbbbbbbbbbbb, arn:"), "{e:?}");
    assert!(e[0].ends_with("(--cluster ARN picks one)"));
    let pick = |c: &str| {
        import(
            &text,
            &ImportOptions {
                cluster: Some(c.into()),
            },
        )
    };
    let i = pick("bbbbbbbbbbbb").unwrap();
    let names: Vec<&str> = i.scenario["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["b"]);
    assert!(pick("arn:aws:sagemaker:us-west-2:123456789012:cluster/aaaaaaaaaaaa").is_ok());
    let e = pick("zzz").unwrap_err();
    assert!(e[0].to_string().starts_with(
        "--cluster: no compute quota or cluster policy is of cluster zzz (clusters: "
    ));
}

#[test]
fn unexpanded_variables_are_fine_only_where_they_carry_no_quota() {
    let cmds = "aws sagemaker create-compute-quota --name \"team-x\" --cluster-arn $CLUSTER_ARN \\\n  --compute-quota-config \"ComputeQuotaResources=[{InstanceType=ml.g5.8xlarge,Count=2}]\" \\\n  --compute-quota-target \"TeamName=${TEAM},FairShareWeight=$W\"\n";
    assert_eq!(
        errs(cmds),
        ["[0].ComputeQuotaTarget.FairShareWeight: is the unexpanded shell variable $W: FairShareWeight carries quota, so give its value"]
    );
    let cmds = cmds.replace(",FairShareWeight=$W", "");
    let i = imp(&cmds);
    assert_eq!(i.scenario["shares"][0]["name"], "team-x");
    assert_eq!(
        warnings(&i),
        ["[0].ComputeQuotaTarget.TeamName: is the unexpanded shell variable ${TEAM}: the team is named by the quota's Name, team-x"]
    );
    let no_name = cmds.replace("--name \"team-x\" ", "");
    assert_eq!(
        errs(&no_name),
        ["[0].ComputeQuotaTarget.TeamName: is the unexpanded shell variable ${TEAM} and Name does not name the team either: give its value"]
    );
    let e = errs("aws sagemaker create-compute-quota --compute-quota-config \"ComputeQuotaResources=[{InstanceType=$TYPE,Count=$N}]\" --compute-quota-target TeamName=a");
    assert_eq!(
        e,
        [
            "[0].ComputeQuotaConfig.ComputeQuotaResources[0].InstanceType: is the unexpanded shell variable $TYPE: InstanceType carries quota, so give its value",
            "[0].ComputeQuotaConfig.ComputeQuotaResources[0].Count: is the unexpanded shell variable $N: Count carries quota, so give its value",
        ]
    );
    let e = errs("aws sagemaker create-compute-quota --compute-quota-config \"${TEAM_A_CONFIG},ResourceSharingConfig={Strategy=Lend}\" --compute-quota-target TeamName=a");
    assert_eq!(
        e,
        ["[0].ComputeQuotaConfig: (line 1) shorthand syntax: ${TEAM_A_CONFIG} is an unexpanded shell variable where Key=Value is expected: give its value (at character 1)"]
    );
}

#[test]
fn command_files_errors_and_other_commands() {
    let text = "export CLUSTER_ARN=arn:x\naws eks create-addon --cluster-name c --addon-name amazon-sagemaker-hyperpod-taskgovernance\n\naws sagemaker create-compute-quota --compute-quota-config file://quota.json --compute-quota-target TeamName=a\n";
    assert_eq!(
        errs(text),
        ["[0].ComputeQuotaConfig: (line 4) file://quota.json: file:// arguments are not read (quotasim reads only the files it is given): paste the JSON into the command, or import the JSON file itself"]
    );
    let ok = text.replace(
        "file://quota.json",
        "'{\"ComputeQuotaResources\": [{\"InstanceType\": \"ml.g5.8xlarge\", \"Count\": 1}]}'",
    );
    let i = imp(&ok);
    assert_eq!(warnings(&i), ["line 2: ignored: aws eks create-addon"]);
    assert_eq!(errs("echo hello\n"), ["has no `aws sagemaker create-compute-quota` or `create-cluster-scheduler-config` command (and is not JSON)"]);
    assert_eq!(
        errs("aws sagemaker create-compute-quota --name 'x\n"),
        ["line 1: unclosed single quote"]
    );
}

#[test]
fn several_files_are_named() {
    let a = quota("a", json!({"ComputeQuotaResources": g5(1)})).to_string();
    let b = json!([{"SchedulerConfig": {"FairShare": "Maybe"}}]).to_string();
    let e: Vec<String> = import_files(&[("a.json", &a), ("b.json", &b)], &ImportOptions::default())
        .unwrap_err()
        .into_iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        e,
        ["b.json: [0].SchedulerConfig.FairShare: must be Enabled or Disabled (got \"Maybe\")"]
    );
    let big = "x".repeat(crate::config::MAX_FILE_BYTES + 1);
    let e = import_files(
        &[("a.json", &a), ("big.sh", &big)],
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e[0].to_string(),
        "big.sh: is 8388609 bytes, over the 8 MiB limit"
    );
}

#[test]
fn custom_instance_types_and_hostile_json() {
    let i = imp(&quota(
        "a",
        json!({"ComputeQuotaResources": [{"InstanceType": "ml.c5.2xlarge", "Count": 2}]}),
    )
    .to_string());
    assert_eq!(
        i.scenario["instance_types"],
        json!([{"name": "ml.c5.2xlarge", "gpus": 1, "usd_per_hour": 0}])
    );
    assert!(warnings(&i).contains(&"ComputeQuotaConfig: ml.c5.2xlarge is not in the catalogue: a custom instance type with 1 GPU and price 0".to_string()));
    // Deep nesting, huge numbers: refused, never a panic.
    let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(errs(&deep)[0].starts_with("JSON syntax error"));
    let huge = quota(
        "a",
        json!({"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": 1e300}]}),
    )
    .to_string();
    assert_eq!(errs(&huge), ["ComputeQuotaConfig.ComputeQuotaResources[0].Count: must be a whole number of instances from 0 to 1000000000, not 1e+300"]);
    let huge = huge.replace("1e300", "123456789012345678901234567890");
    assert!(errs(&huge)[0].contains("must be a whole number of instances"));
    assert!(import("", &ImportOptions::default()).is_err());
    assert!(import("{", &ImportOptions::default()).is_err());
}

fn export_json(sc: &Value) -> Result<String, Vec<String>> {
    export(&sc.to_string(), &ExportOptions::default())
        .map(|e| e.text)
        .map_err(|p| p.into_iter().map(|p| p.to_string()).collect())
}

#[test]
fn export_refuses_each_feature_hyperpod_lacks() {
    let sc = json!({
        "format": "quotalab/v1", "name": "x", "model": "kueue",
        "shares": [
            {"name": "Team_A", "limits": {"ml.g5.xlarge": 4}, "cohort": "c", "lending_limit": {"ml.g5.xlarge": 2}},
            {"name": "b", "limits": {"ml.g5.xlarge": 4}, "cohort": "c",
             "preemption": {"within_share": "lower_or_newer_equal_priority", "reclaim": "lower_priority",
                            "borrow_within_cohort": {"policy": "lower_priority"}},
             "queueing": "strict_fifo", "weight": 0.5},
            {"name": "c", "limits": {"ml.g5.xlarge": 4}, "cohort": "c", "preemption": {"reclaim": "any"}},
            {"name": "d", "limits": {"ml.g5.xlarge": 4}},
            {"name": "e", "limits": {"ml.g5.xlarge": 4}, "cohort": "other", "lending_limit": {"ml.g5.xlarge": 0},
             "borrowing_limit": {"ml.g5.xlarge": 1}, "preemption": {"reclaim": "any"}}
        ],
        "cohorts": [{"name": "c", "limits": {"ml.g5.xlarge": 2}}, {"name": "other", "parent": "c"}],
        "fair_sharing": {"strategies": ["less_than_initial_share"]},
        "priority_classes": {"urgent": 1000}
    });
    let e = export_json(&sc).unwrap_err();
    let expect = [
        "cohorts[0].limits: HyperPod task governance has no quota of a cohort itself (cohort c): every instance is some team's compute quota",
        "cohorts[1].parent: HyperPod task governance has no nested cohorts (cohort other has parent c)",
        "shares: HyperPod task governance has no way to hold several cohorts in one cluster (cohorts c, other)",
        "fair_sharing.strategies: HyperPod task governance has no fair-sharing strategies other than Kueue's default (less_than_or_equal_to_final_share, then less_than_initial_share)",
        "shares[0].lending_limit: HyperPod task governance has no lending limit other than 0 for every type or none (share Team_A): a team lends all its idle quota (Lend) or none (DontLend)",
        "shares[1].borrowing_limit: HyperPod task governance has no unlimited borrowing (share b has no borrowing limit for ml.g5.xlarge): BorrowLimit is a percent of the team's quota, or AbsoluteBorrowLimits a number",
        "shares[2].borrowing_limit: HyperPod task governance has no unlimited borrowing (share c has no borrowing limit for ml.g5.xlarge): BorrowLimit is a percent of the team's quota, or AbsoluteBorrowLimits a number",
        "shares[3].cohort: HyperPod task governance has no team outside the cluster's cohort (share d): to keep its quota to itself, put it in the cohort with lending_limit and borrowing_limit 0 (DontLend)",
        "shares[4].borrowing_limit: HyperPod task governance has no team that borrows but lends nothing (share e): DontLend borrows nothing",
        "priority_classes.urgent: HyperPod task governance has no priority class weight 1000 (weights are 0 to 100)",
    ];
    assert_eq!(e, expect);
    // With borrowing limits, the per-share policies are what is left to refuse.
    let mut sc2 = sc.clone();
    sc2["shares"][1]["borrowing_limit"] = json!({"ml.g5.xlarge": 2});
    let e = export_json(&sc2).unwrap_err();
    for want in [
        "shares[1].preemption.within_share: HyperPod task governance has no PreemptTeamTasks other than Never or LowerPriority (within_share lower_or_newer_equal_priority)",
        "shares[1].preemption.reclaim: HyperPod task governance has no reclaim policy other than any (share b): a team always gets back what it lent",
        "shares[1].preemption.borrow_within_cohort: HyperPod task governance has no preemption while borrowing (borrow_within_cohort)",
        "shares[1].queueing: HyperPod task governance has no strict_fifo queueing (task governance queues best-effort FIFO)",
        "shares[1].weight: HyperPod task governance has no fair-share weight 0.5 (FairShareWeight is a whole number from 0 to 100)",
    ] {
        assert!(e.contains(&want.to_string()), "{want}\n{e:#?}");
    }
    let mut sc3 = json!({"format": "quotalab/v1", "name": "x", "model": "kueue",
        "shares": [{"name": "Team_A", "limits": {"ml.g5.xlarge": 1}, "cohort": "c", "borrowing_limit": {"ml.g5.xlarge": 0},
                    "preemption": {"reclaim": "any"}}]});
    let e = export_json(&sc3).unwrap_err();
    assert_eq!(e, ["shares[0].name: HyperPod task governance has no team named \"Team_A\" (a TeamName is lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters)"]);
    sc3["shares"][0]["name"] = json!("team-a");
    let out = export(&sc3.to_string(), &ExportOptions::default()).unwrap();
    let w: Vec<String> = out.warnings.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        w,
        ["shares[0].cohort: HyperPod names no cohort: cohort c is the cluster's, which an import names shared-pool"]
    );
}

#[test]
fn round_trips_give_the_same_shares_back() {
    let text = json!([
        {"SchedulerConfig": {"PriorityClasses": [{"Name": "high", "Weight": 100}, {"Name": "low", "Weight": 0}], "FairShare": "Enabled"}},
        quota("dont", json!({"ComputeQuotaResources": g5(4), "ResourceSharingConfig": {"Strategy": "DontLend"}, "PreemptTeamTasks": "Never"})),
        quota("lend", json!({"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": 3}, {"InstanceType": "ml.p5.48xlarge", "Count": 0}],
                             "ResourceSharingConfig": {"Strategy": "Lend"}})),
        quota("both", json!({"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Count": 5}, {"InstanceType": "ml.p5.48xlarge", "Count": 3}],
                             "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 60,
                                 "AbsoluteBorrowLimits": [{"InstanceType": "ml.p5.48xlarge", "Count": 7}]}})),
        {"ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "ml.c5.2xlarge", "Count": 2}]},
         "ComputeQuotaTarget": {"TeamName": "cpu", "FairShareWeight": 40}, "ActivationState": "Disabled"},
        {"ComputeQuotaConfig": {"ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 10,
             "AbsoluteBorrowLimits": [{"InstanceType": "ml.g5.8xlarge", "Count": 2}]}},
         "ComputeQuotaTarget": {"TeamName": "borrower"}},
    ])
    .to_string();
    let first = imp(&text);
    for script in [false, true] {
        let opts = ExportOptions {
            script,
            ..ExportOptions::default()
        };
        let out = export(&first.scenario_json, &opts).unwrap();
        let back = imp(&out.text);
        for key in [
            "shares",
            "cohorts",
            "fair_sharing",
            "priority_classes",
            "instance_types",
            "model",
        ] {
            assert_eq!(
                first.scenario[key], back.scenario[key],
                "{key} (script: {script})\n{}",
                out.text
            );
        }
    }
    // The imported scenario runs.
    crate::input::validate::load(&first.scenario_json).unwrap();
}

#[test]
fn aws_scenarios_export_by_the_translation_table() {
    let sc = json!({
        "format": "quotalab/v1", "name": "aws", "capacity": {"ml.g5.xlarge": 5},
        "shares": [
            {"name": "background", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND_AND_BORROW", "borrow_limit": 200, "in_share_preemption": true},
            {"name": "medium", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND", "in_share_preemption": false},
            {"name": "protected", "limits": {"ml.g5.xlarge": 1}, "strategy": "RESERVE", "in_share_preemption": false, "state": "DISABLED"}
        ]
    });
    let out = export(&sc.to_string(), &ExportOptions::default()).unwrap();
    let w: Vec<String> = out.warnings.iter().map(|p| p.to_string()).collect();
    assert!(
        w[0].starts_with("an AWS Batch scenario, written by SPEC 12's translation"),
        "{w:?}"
    );
    assert!(w.contains(&"capacity.ml.g5.xlarge: 2 instances are nobody's quota: the cluster's instances are not written here (the cluster's instance groups give them), and teams borrow only what other teams lend".to_string()), "{w:?}");
    let s = imp(&out.text).scenario;
    assert_eq!(
        s["shares"][0]["borrowing_limit"],
        json!({"ml.g5.xlarge": 2})
    );
    assert_eq!(
        s["shares"][0]["preemption"]["within_share"],
        "lower_priority"
    );
    assert_eq!(
        s["shares"][1]["borrowing_limit"],
        json!({"ml.g5.xlarge": 0})
    );
    assert_eq!(s["shares"][2]["lending_limit"], json!({"ml.g5.xlarge": 0}));
    assert_eq!(s["shares"][2]["state"], "DISABLED");
    let mut unlimited = sc.clone();
    unlimited["shares"][0]["borrow_limit"] = json!(-1);
    let e = export_json(&unlimited).unwrap_err();
    assert_eq!(e, ["shares[0].borrow_limit: HyperPod task governance has no unlimited borrow limit (-1) (BorrowLimit is a percent of the team's quota, at most 10000)"]);
}

#[test]
fn script_cluster_arn_quoting() {
    let sc = imp(&quota("a", json!({"ComputeQuotaResources": g5(1)})).to_string()).scenario_json;
    let s = export(
        &sc,
        &ExportOptions {
            script: true,
            ..ExportOptions::default()
        },
    )
    .unwrap()
    .text;
    assert!(
        s.contains(": \"${CLUSTER_ARN:?set CLUSTER_ARN to the HyperPod cluster's ARN}\"\n"),
        "{s}"
    );
    assert!(s.contains("--cluster-arn \"$CLUSTER_ARN\""), "{s}");
    let arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456";
    let s = export(
        &sc,
        &ExportOptions {
            script: true,
            cluster_arn: arn.into(),
        },
    )
    .unwrap()
    .text;
    assert!(s.contains(&format!("--cluster-arn '{arn}'")), "{s}");
    assert!(!s.contains(":?set"));
    // Imported back, the cluster names the scenario.
    assert_eq!(
        imp(&s).scenario["name"],
        "HyperPod task governance of cluster abcdef123456"
    );
}

/// A property over generated configurations: import, export (JSON and script), import again
/// gives the same shares, and a second export is the first one byte for byte.
#[test]
fn round_trip_property_over_generated_configurations() {
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let types = [
        "ml.g5.8xlarge",
        "ml.p5.48xlarge",
        "ml.trn1.32xlarge",
        "ml.c5.2xlarge",
    ];
    for case in 0..200 {
        let mut docs = Vec::new();
        if next(2) == 0 {
            let classes: Vec<Value> = (0..next(4))
                .map(|i| json!({"Name": format!("class-{i}"), "Weight": next(101)}))
                .collect();
            docs.push(json!({"SchedulerConfig": {"PriorityClasses": classes,
                "FairShare": if next(2) == 0 { "Enabled" } else { "Disabled" }}}));
        }
        for team in 0..1 + next(5) {
            let mut res = Vec::new();
            let mut abs = Vec::new();
            for t in types {
                match next(4) {
                    0 => res.push(json!({"InstanceType": t, "Count": next(20)})),
                    1 => abs.push(json!({"InstanceType": t, "Count": next(20)})),
                    _ => {}
                }
            }
            if res.is_empty() && abs.is_empty() {
                res.push(json!({"InstanceType": types[0], "Count": 1 + next(8)}));
            }
            let strategy = ["Lend", "DontLend", "LendAndBorrow"][next(3) as usize];
            let mut rs = json!({"Strategy": strategy});
            if strategy == "LendAndBorrow" {
                rs["BorrowLimit"] = json!(next(600));
                rs["AbsoluteBorrowLimits"] = Value::Array(abs.clone());
            } else if !abs.is_empty() {
                // Absolute limits of other strategies are ignored: keep the types in use.
                res.extend(
                    abs.iter()
                        .map(|a| json!({"InstanceType": a["InstanceType"], "Count": 0})),
                );
            }
            docs.push(json!({
                "ComputeQuotaConfig": {"ComputeQuotaResources": res, "ResourceSharingConfig": rs,
                    "PreemptTeamTasks": if next(2) == 0 { "Never" } else { "LowerPriority" }},
                "ComputeQuotaTarget": {"TeamName": format!("team-{team}"), "FairShareWeight": next(101)},
                "ActivationState": if next(3) == 0 { "Disabled" } else { "Enabled" },
            }));
        }
        let text = Value::Array(docs).to_string();
        let first = import(&text, &ImportOptions::default())
            .unwrap_or_else(|p| panic!("case {case}: {p:?}\n{text}"));
        for script in [false, true] {
            let opts = ExportOptions {
                script,
                ..ExportOptions::default()
            };
            let out = export(&first.scenario_json, &opts)
                .unwrap_or_else(|p| panic!("case {case}: {p:?}"));
            let back = imp(&out.text);
            for key in [
                "shares",
                "cohorts",
                "fair_sharing",
                "priority_classes",
                "instance_types",
            ] {
                assert_eq!(
                    first.scenario[key], back.scenario[key],
                    "case {case} {key} (script: {script})\n{text}\n{}",
                    out.text
                );
            }
            let again = export(&back.scenario_json, &opts).unwrap();
            assert_eq!(out.text, again.text, "case {case}: a second export differs");
        }
    }
}
