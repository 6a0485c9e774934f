//! SPEC 16 at scale: a history of 100,000 Kueue Workloads (about 220 MB as `kubectl -o json`
//! prints it, far over the 8 MiB a single record may hold) imports, read record by record in
//! 1 MiB pieces, the same from JSON and from YAML. Release only (a debug build takes
//! minutes): `cargo test --release -p quotalab-engine --test history_scale`.

#[allow(dead_code)]
#[path = "../examples/history_gen.rs"]
mod history_gen;

use quotalab_engine::config::history::{self, HistoryOptions, HistoryReader, Shares};
use quotalab_engine::config::{Imported, MAX_FILE_BYTES};
use quotalab_engine::Problem;

const CONFIG: &str = include_str!("../../cli/tests/history/kueue-config.yaml");

/// The import, and how many YAML records were left to the general YAML parser.
fn import_in_pieces(
    text: &str,
    progress: &mut Vec<usize>,
) -> (Result<Imported, Vec<Problem>>, usize) {
    let files = [("kueue-config.yaml", CONFIG)];
    let shares = Shares::Config {
        files: &files,
        into: None,
    };
    let opts = HistoryOptions {
        flavor_map: vec![("a100".into(), "ml.p4d.24xlarge".into())],
        ..HistoryOptions::default()
    };
    let named = history::names_files(1, shares);
    let mut r = HistoryReader::new("wl100k", 0, named, &opts.resource);
    for piece in text.as_bytes().chunks(1 << 20) {
        r.push(piece);
        progress.push(r.records());
    }
    r.finish();
    let fallbacks = r.yaml_fallbacks();
    (history::import_read(vec![r], shares, &opts), fallbacks)
}

#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "release only: cargo test --release -p quotalab-engine --test history_scale"
)]
fn a_history_of_100k_workloads_imports_from_json_and_yaml() {
    let n = 100_000;
    let json = history_gen::generate(n, false);
    assert!(json.len() > 25 * MAX_FILE_BYTES, "{} bytes", json.len());
    let t = std::time::Instant::now();
    let mut progress = Vec::new();
    let (from_json, _) = import_in_pieces(&json, &mut progress);
    let from_json = from_json.unwrap_or_else(|e| panic!("{e:?}"));
    eprintln!("JSON: {} bytes in {:?}", json.len(), t.elapsed());
    drop(json);
    // Progress grows record by record, to every record.
    assert!(progress.windows(2).all(|w| w[0] <= w[1]));
    assert!(progress.len() > 100 && progress[progress.len() / 2] > 0);
    assert_eq!(progress.last(), Some(&n));
    let jobs = from_json.scenario["jobs"].as_array().unwrap();
    // Every workload but the CPU-only ones (one of the fixture's seven) is a job.
    assert_eq!(jobs.len(), n - n.div_ceil(7), "{}", jobs.len());

    let yaml = history_gen::generate(n, true);
    let t = std::time::Instant::now();
    let (from_yaml, fallbacks) = import_in_pieces(&yaml, &mut Vec::new());
    let from_yaml = from_yaml.unwrap_or_else(|e| panic!("{e:?}"));
    eprintln!("YAML: {} bytes in {:?}", yaml.len(), t.elapsed());
    // Every record is read by the reader of kubectl's own YAML, none by the general parser.
    assert_eq!(fallbacks, 0);
    assert_eq!(from_yaml.scenario_json, from_json.scenario_json);
    let w = |i: &Imported| {
        i.warnings
            .iter()
            .map(|p| p.message.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(w(&from_yaml), w(&from_json));
}
