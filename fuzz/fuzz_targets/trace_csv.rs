//! CSV trace import (SPEC 11) with its options: the input's first bytes choose the options
//! (columns, time unit, share folding, priority map, limits mode, capacity, strategy, borrow
//! limit, job limit); the rest is the CSV.
//!
//! Properties: no panic; a refusal is a problem with a message; `check` (the page's dry run)
//! and `import` agree on success and on the problem; an imported scenario validates (SPEC 7:
//! an import never produces a scenario the engine refuses); CPU time within the budget.
#![no_main]

use arbitrary::{Arbitrary, Unstructured};
use libfuzzer_sys::fuzz_target;
use quotalab_engine::trace::{self, ImportOptions};
use quotalab_engine::{load, Problem};
use quotalab_fuzz::{check_problem, check_refusal, Budget};

/// Column names the seeds and fixtures use, so the options often name a real column.
const COLUMNS: [&str; 12] = [
    "submit",
    "timestamp",
    "duration",
    "end",
    "gpus",
    "num_gpus",
    "team",
    "cluster",
    "priority",
    "qos",
    "vc",
    "gpu_time",
];

#[derive(Arbitrary, Debug)]
struct Opts {
    submit: u8,
    ms: bool,
    end_not_duration: bool,
    duration: u8,
    gpus: Option<u8>,
    share: Option<u8>,
    top_shares: Option<u8>,
    priority: Option<u8>,
    priority_map: Option<u8>,
    gpus_per_instance: u8,
    equal: bool,
    capacity: Option<u32>,
    strategy: u8,
    borrow_limit: Option<i16>,
    limit_jobs: Option<u16>,
}

fn column(i: u8) -> String {
    COLUMNS[usize::from(i) % COLUMNS.len()].to_string()
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(o) = Opts::arbitrary(&mut u) else {
        return;
    };
    let csv = u.take_rest();
    let budget = Budget::for_bytes(data.len());
    let mut opts = ImportOptions {
        submit: column(o.submit),
        time_unit: if o.ms {
            trace::TimeUnit::Millis
        } else {
            trace::TimeUnit::Seconds
        },
        ..ImportOptions::default()
    };
    if o.end_not_duration {
        opts.end = Some(column(o.duration));
    } else {
        opts.duration = Some(column(o.duration));
    }
    opts.gpus = o.gpus.map(column);
    opts.share = o.share.map(column);
    opts.top_shares = o.top_shares.map(usize::from);
    opts.priority = o.priority.map(column);
    if let Some(m) = o.priority_map {
        let map = ["LS=2,BE=0", "a=1", "x=9999,y=0,z=5", "=1", "a=b", "a=1,a=2"];
        match trace::parse_priority_map(map[usize::from(m) % map.len()]) {
            Ok(m) => opts.priority_map = m,
            Err(p) => check_problem("--priority-map", &p),
        }
    }
    opts.gpus_per_instance = u32::from(o.gpus_per_instance);
    if o.equal {
        opts.limits = trace::LimitsMode::Equal;
    }
    opts.capacity = o.capacity.map(u64::from);
    opts.strategy =
        ["LEND_AND_BORROW", "LEND", "RESERVE", "nonsense"][usize::from(o.strategy) % 4].to_string();
    opts.borrow_limit = o.borrow_limit.map(i64::from);
    opts.limit_jobs = o.limit_jobs.map(usize::from);

    let imported = trace::import(csv, &opts);
    let checked = trace::check(csv, &opts);
    match (&imported, &checked) {
        (Ok((scenario, _)), Ok(_)) => {
            let text = scenario.to_string();
            if let Err(problems) = load(&text) {
                check_refusal("imported scenario", &problems);
                panic!(
                    "an imported trace does not validate: {}",
                    problems
                        .iter()
                        .map(Problem::to_string)
                        .collect::<Vec<_>>()
                        .join("; ")
                );
            }
        }
        (Err(a), Err(b)) => {
            check_problem("import", a);
            assert_eq!(a, b, "import and check refuse differently");
        }
        (a, b) => panic!(
            "import {} but check {}",
            if a.is_ok() { "accepts" } else { "refuses" },
            if b.is_ok() { "accepts" } else { "refuses" }
        ),
    }
    budget.check("trace import");
});
