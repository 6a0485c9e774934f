//! Job-history import (SPEC 16): Kueue Workloads (`kubectl get workloads -o yaml|json`) and
//! AWS Batch jobs (`describe-jobs`, `list-jobs`, service jobs) into a scenario's `jobs`, the
//! shares from a Kueue configuration, an AWS configuration, a small fixed scenario, or the
//! Kueue configuration merged into that scenario (`--config` with `--into`).
//!
//! The first byte picks the options: bits 0-1 where the shares come from, bit 2 a
//! `--flavor-map`, bit 3 `--resource cpu`, bit 4 a fixed `--from`, bit 5 a fixed `--to`, bit 6
//! the rest's first line as `--from` (the time parser), bit 7 the rest split at its first NUL
//! into two history files. Properties: no panic; a refusal is problems with messages; an
//! accepted history is a scenario that loads, whose jobs are at most the history's
//! records, and (at most `MAX_SIMULATED_JOBS` jobs) simulates twice to the same bytes; CPU
//! time and memory within the budget.
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use quotalab_engine::config::history::{self, HistoryOptions, Shares};
use quotalab_engine::config::parse_flavor_map;
use quotalab_engine::{load, pipeline};
use quotalab_fuzz::{check_problem, check_refusal, Budget};

const KUEUE_CONFIG: &str = include_str!("../../crates/cli/tests/history/kueue-config.yaml");
const AWS_CONFIG: &str = include_str!("../../crates/cli/tests/history/aws-quota-shares.json");
const SCENARIO: &str = include_str!("../fixtures/history-shares.json");

/// Accepted histories with more jobs are only loaded, not run.
const MAX_SIMULATED_JOBS: usize = 400;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(mut text) = std::str::from_utf8(rest) else {
        return;
    };
    let mut budget = Budget::for_bytes(data.len());
    let mut opts = HistoryOptions::default();
    if pick & 4 != 0 {
        opts.flavor_map =
            parse_flavor_map("a100=ml.p4d.24xlarge,l4=ml.g6.xlarge").expect("a valid flavor map");
    }
    if pick & 8 != 0 {
        opts.resource = "cpu".into();
    }
    if pick & 16 != 0 {
        opts.from = Some("2026-03-02T08:04:00Z".into());
    }
    if pick & 32 != 0 {
        opts.to = Some("1772445600".into());
    }
    if pick & 64 != 0 {
        let (first, others) = text.split_once('\n').unwrap_or((text, ""));
        opts.from = Some(first.to_string());
        text = others;
    }
    let split;
    let files: &[(&str, &str)] = if pick & 128 != 0 {
        let (a, b) = text.split_once('\0').unwrap_or((text, ""));
        split = [("a.yaml", a), ("b.json", b)];
        &split
    } else {
        split = [("history.yaml", text), ("", "")];
        &split[..1]
    };
    let kueue = [("kueue-config.yaml", KUEUE_CONFIG)];
    let aws = [("aws-quota-shares.json", AWS_CONFIG)];
    let shares = match pick & 3 {
        0 => Shares::Config {
            files: &kueue,
            into: None,
        },
        1 => Shares::Config {
            files: &aws,
            into: None,
        },
        2 => Shares::Scenario("shares.json", SCENARIO),
        _ => Shares::Config {
            files: &kueue,
            into: Some(("shares.json", SCENARIO)),
        },
    };
    let result = history::import(files, shares, &opts);
    if std::env::var_os("FUZZ_PRINT").is_some() {
        match &result {
            Ok(i) => eprintln!("imported: {}", i.scenario_json),
            Err(p) => eprintln!("refused: {p:?}"),
        }
    }
    let imported = match result {
        Err(problems) => {
            check_refusal("history import", &problems);
            budget.check("history import");
            return;
        }
        Ok(i) => i,
    };
    for w in &imported.warnings {
        check_problem("history warning", w);
    }
    budget.check("history import");
    let loaded = load(&imported.scenario_json)
        .unwrap_or_else(|p| panic!("an imported history does not load: {p:?}"));
    let jobs = loaded.scenario.jobs.len();
    // Each job is one record (a Workload or a Batch job; a YAML alias repeats one in a few
    // bytes).
    assert!(
        jobs <= text.len() / 2 + 1,
        "{jobs} jobs out of {} bytes of history",
        text.len()
    );
    if jobs > MAX_SIMULATED_JOBS {
        return;
    }
    budget.allow(Duration::from_millis(2 * jobs as u64), 0);
    let run = pipeline::RunOptions::default();
    let first = pipeline::run(&imported.scenario_json, &run).expect("an imported history runs");
    let second = pipeline::run(&imported.scenario_json, &run).expect("it runs twice");
    assert_eq!(first, second, "two runs of one imported history differ");
    budget.check("two runs");
});
