//! The configuration targets' shared body (SPEC 13): import any text, and when the import
//! succeeds, export it and import the export again.

use quotalab_engine::config::{self, ExportFormat, ExportOptions, Format, ImportOptions};

use crate::{check_problem, check_refusal, Budget};

/// The model-level content of a scenario: what an import reads and an export writes.
pub fn essence(json: &str) -> String {
    let s = quotalab_engine::load(json)
        .unwrap_or_else(|p| panic!("an imported scenario does not load: {p:?}\n{json}"))
        .scenario;
    let types: Vec<&str> = s.instance_types.iter().map(|t| t.name.as_str()).collect();
    format!(
        "{types:?} {:?} {:?} {:?} {:?} {:?}",
        s.capacity, s.shares, s.cohorts, s.fair_sharing, s.model
    )
}

/// Imports `data` (the first byte picks the options), and round-trips what imports:
/// import -> export -> import gives the same shares, cohorts, capacity, fair sharing and
/// model, and a second export of that is imported the same again.
pub fn round_trip(data: &[u8], format: Format, export: ExportFormat) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let budget = Budget::for_bytes(data.len());
    let mut opts = ImportOptions::default();
    match pick % 8 {
        1 => opts.queue = Some("q1".into()),
        2 => opts.queue = Some("arn:aws:batch:us-east-1:1:job-queue/q2".into()),
        3 => opts.resource = "cpu".into(),
        4 => {
            opts.flavor_map =
                config::parse_flavor_map("a100=ml.p4d.24xlarge,default-flavor=ml.g5.xlarge")
                    .expect("a valid flavor map")
        }
        5 => match config::parse_flavor_map(text.lines().next().unwrap_or("")) {
            Ok(m) => opts.flavor_map = m,
            Err(p) => check_problem("--flavor-map", &p),
        },
        _ => {}
    }
    let _ = config::detect(text);
    let first = match config::import(text, format, &opts) {
        Err(problems) => {
            check_refusal("import", &problems);
            budget.check("import");
            return;
        }
        Ok(i) => i,
    };
    for w in &first.warnings {
        check_problem("import warning", w);
    }
    let out_opts = ExportOptions::default();
    let exported = config::export(&first.scenario_json, export.clone(), &out_opts)
        .unwrap_or_else(|p| panic!("an imported configuration does not export: {p:?}"));
    let back_opts = ImportOptions {
        flavor_map: opts.flavor_map.clone(),
        resource: opts.resource.clone(),
        ..ImportOptions::default()
    };
    let back = config::import(&exported.text, format, &back_opts).unwrap_or_else(|p| {
        panic!(
            "an export does not import: {p:?}\n--- export:\n{}\n--- from:\n{}",
            exported.text, first.scenario_json
        )
    });
    assert_eq!(
        essence(&first.scenario_json),
        essence(&back.scenario_json),
        "import -> export -> import changed the configuration\n--- export:\n{}",
        exported.text
    );
    let again = config::export(&back.scenario_json, export, &out_opts)
        .unwrap_or_else(|p| panic!("a re-imported configuration does not export: {p:?}"));
    let third = config::import(&again.text, format, &back_opts)
        .unwrap_or_else(|p| panic!("a second export does not import: {p:?}"));
    assert_eq!(
        essence(&back.scenario_json),
        essence(&third.scenario_json),
        "export -> import is not stable\n--- first export:\n{}\n--- second:\n{}",
        exported.text,
        again.text
    );
    budget.check("import, export, import");
}
