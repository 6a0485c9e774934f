//! Trace shares (SPEC 11): top shares, priorities, limits by demand or equal, strategy.

use super::*;

#[test]
fn top_shares_folds_the_rest_into_other_last() {
    // Counts: a 4, b 3, c 2 (ties with d by name), d 2, e 1.
    let rows = ["a", "a", "a", "a", "b", "b", "b", "c", "c", "d", "d", "e"];
    let mut csv = String::from("submit,duration,team\n");
    for (i, team) in rows.iter().enumerate() {
        csv.push_str(&format!("{i},10,{team}\n"));
    }
    let o = ImportOptions {
        share: Some("team".into()),
        top_shares: Some(3),
        ..opts()
    };
    let (v, _) = run(&csv, &o);
    assert_eq!(share_names(&v), ["a", "b", "c", "other"]);
    let other_ids: Vec<&str> = ids(&v)
        .into_iter()
        .filter(|id| id.starts_with("other-"))
        .collect();
    assert_eq!(other_ids, ["other-1", "other-2", "other-3"]);
    // Enough room: nothing is folded.
    let (v, _) = run(
        &csv,
        &ImportOptions {
            top_shares: Some(5),
            ..o.clone()
        },
    );
    assert_eq!(share_names(&v), ["a", "b", "c", "d", "e"]);
    // A trace share named `other` sorts last, and joins the fold when there is one.
    let csv = "submit,duration,team\n0,1,other\n0,1,other\n0,1,x\n0,1,y\n0,1,y\n";
    let (v, _) = run(
        csv,
        &ImportOptions {
            top_shares: None,
            ..o.clone()
        },
    );
    assert_eq!(share_names(&v), ["y", "x", "other"]);
    let (v, _) = run(
        csv,
        &ImportOptions {
            top_shares: Some(1),
            ..o.clone()
        },
    );
    assert_eq!(share_names(&v), ["y", "other"]);
    assert_eq!(ids(&v), ["other-1", "other-2", "other-3", "y-1", "y-2"]);
}

#[test]
fn more_than_20_shares_needs_top_shares() {
    let mut csv = String::from("submit,duration,team\n");
    for i in 0..25 {
        csv.push_str(&format!("{i},10,t{i:02}\n"));
    }
    let o = ImportOptions {
        share: Some("team".into()),
        ..opts()
    };
    let p = error(csv.as_bytes(), &o);
    assert_eq!(p.path, "--share");
    assert!(p.message.contains("25 shares"), "{p}");
    assert!(p.message.contains("--top-shares"), "{p}");
    let (v, _) = run(
        &csv,
        &ImportOptions {
            top_shares: Some(19),
            ..o
        },
    );
    assert_eq!(share_names(&v).len(), 20);
    assert_eq!(share_names(&v)[19], "other");
    // A large N folds nothing; the result must still fit in 20 shares.
    let p = error(
        csv.as_bytes(),
        &ImportOptions {
            top_shares: Some(20),
            share: Some("team".into()),
            ..opts()
        },
    );
    assert!(p.message.contains("21 shares"), "{p}");
    let (v, _) = run(
        &csv.lines().take(16).collect::<Vec<_>>().join("\n"),
        &ImportOptions {
            top_shares: Some(50),
            share: Some("team".into()),
            ..opts()
        },
    );
    assert_eq!(share_names(&v).len(), 15);
}

#[test]
fn priorities_are_mapped_or_read_as_numbers() {
    let csv = "submit,duration,class\n0,1,LS\n1,1,BE\n2,1,XX\n3,1,LS\n";
    let o = ImportOptions {
        priority: Some("class".into()),
        priority_map: parse_priority_map("LS=2, BE=0").unwrap(),
        ..opts()
    };
    let (v, report) = run(csv, &o);
    let priorities: Vec<u64> = jobs(&v)
        .iter()
        .map(|j| j["priority"].as_u64().unwrap())
        .collect();
    assert_eq!(priorities, [2, 0, 2]);
    assert_eq!(
        report.first_problems,
        ["row 3: class: \"XX\" is not in --priority-map"]
    );
    // Without a map, the column holds priorities.
    let o = ImportOptions {
        priority: Some("class".into()),
        ..opts()
    };
    let (v, report) = run(
        "submit,duration,class\n0,1,7\n0,1,9999\n0,1,10000\n0,1,LS\n",
        &o,
    );
    assert_eq!(jobs(&v)[1]["priority"], 9999);
    assert_eq!(report.skipped, 2);
    assert_eq!(
        report.first_problems[0],
        "row 3: class: not a priority 0..=9999 (and no --priority-map): \"10000\""
    );
}

#[test]
fn priority_maps_parse() {
    assert_eq!(
        parse_priority_map("LS=2,BE=0").unwrap(),
        [("LS".to_string(), 2), ("BE".to_string(), 0)]
    );
    assert_eq!(
        parse_priority_map(" a=b = 9999 ,").unwrap(),
        [("a=b".to_string(), 9999)]
    );
    for bad in [
        "",
        ",",
        "LS",
        "=2",
        "LS=x",
        "LS=10000",
        "LS=-1",
        "LS=1,LS=2",
    ] {
        let p = parse_priority_map(bad).unwrap_err();
        assert_eq!(p.path, "--priority-map", "{bad}");
    }
}

fn limits_for(mode: LimitsMode, capacity: u64) -> Vec<u64> {
    let o = ImportOptions {
        gpus: Some("gpus".into()),
        share: Some("team".into()),
        limits: mode,
        capacity: Some(capacity),
        ..opts()
    };
    let (v, _) = run(&three_shares(), &o);
    // Listed by job count: c, b, a.
    assert_eq!(share_names(&v), ["c", "b", "a"]);
    assert_eq!(v["capacity"]["ml.g5.xlarge"], capacity);
    limits(&v, "ml.g5.xlarge")
}

#[test]
fn proportional_limits_follow_demand_and_sum_to_capacity() {
    assert_eq!(limits_for(LimitsMode::Proportional, 10), [1, 3, 6]);
    assert_eq!(limits_for(LimitsMode::Proportional, 1), [0, 0, 1]);
    // 7: exact 0.7, 2.1, 4.2 -> floors 0, 2, 4, the one left to c (0.7).
    assert_eq!(limits_for(LimitsMode::Proportional, 7), [1, 2, 4]);
    // 5: exact 0.5, 1.5, 3.0 -> floors 0, 1, 3; ties on .5 go to the earlier share.
    assert_eq!(limits_for(LimitsMode::Proportional, 5), [1, 1, 3]);
    for capacity in 1..200 {
        let l = limits_for(LimitsMode::Proportional, capacity);
        assert_eq!(l.iter().sum::<u64>(), capacity);
    }
}

#[test]
fn equal_limits_give_the_remainder_in_name_order() {
    assert_eq!(limits_for(LimitsMode::Equal, 9), [3, 3, 3]);
    // Listed c, b, a; the remainder goes to a, then b.
    assert_eq!(limits_for(LimitsMode::Equal, 10), [3, 3, 4]);
    assert_eq!(limits_for(LimitsMode::Equal, 11), [3, 4, 4]);
    assert_eq!(limits_for(LimitsMode::Equal, 2), [0, 1, 1]);
    for capacity in 1..100 {
        assert_eq!(
            limits_for(LimitsMode::Equal, capacity).iter().sum::<u64>(),
            capacity
        );
    }
}

#[test]
fn the_default_capacity_is_the_average_load() {
    // Demand 60 + 30 + 10 = 100 instance-seconds over a 60 s makespan: ceil(1.67) = 2.
    let o = ImportOptions {
        share: Some("team".into()),
        ..opts()
    };
    let (v, _) = run(&three_shares(), &o);
    assert_eq!(v["capacity"]["ml.g5.xlarge"], 2);
    assert_eq!(limits(&v, "ml.g5.xlarge").iter().sum::<u64>(), 2);
}

#[test]
fn strategy_and_borrow_limit_apply_to_every_share() {
    let csv = three_shares();
    let o = ImportOptions {
        share: Some("team".into()),
        borrow_limit: Some(200),
        ..opts()
    };
    let (v, _) = run(&csv, &o);
    for s in v["shares"].as_array().unwrap() {
        assert_eq!(s["strategy"], "LEND_AND_BORROW");
        assert_eq!(s["borrow_limit"], 200);
    }
    let o = ImportOptions {
        strategy: "RESERVE".into(),
        borrow_limit: None,
        ..o
    };
    let (v, _) = run(&csv, &o);
    for s in v["shares"].as_array().unwrap() {
        assert_eq!(s["strategy"], "RESERVE");
        assert!(s.get("borrow_limit").is_none());
    }
    let p = error(
        csv.as_bytes(),
        &ImportOptions {
            strategy: "LEND".into(),
            borrow_limit: Some(10),
            ..opts()
        },
    );
    assert_eq!(p.path, "--borrow-limit");
    let p = error(
        csv.as_bytes(),
        &ImportOptions {
            strategy: "lend".into(),
            ..opts()
        },
    );
    assert_eq!(
        p.to_string(),
        "--strategy: unknown strategy \"lend\": expected RESERVE, LEND or LEND_AND_BORROW"
    );
    let p = error(
        csv.as_bytes(),
        &ImportOptions {
            borrow_limit: Some(-2),
            ..opts()
        },
    );
    assert_eq!(p.path, "--borrow-limit");
}
