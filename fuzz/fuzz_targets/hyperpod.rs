//! SageMaker HyperPod task governance import and export (SPEC 16): CreateComputeQuota and
//! CreateClusterSchedulerConfig bodies, Describe/List responses, and the `aws sagemaker`
//! command lines that write them (a shell word splitter and the CLI's shorthand syntax).
//!
//! The first byte picks the options: bit 0 the export is a script (`--script`) rather than
//! JSON, bit 1 a `--cluster` to import, bit 2 a cluster ARN for the export, bit 3 the rest
//! split at its first NUL into two files. Properties: no panic; a refusal is problems with
//! messages; what imports loads and exports, the export imports to the same shares, cohorts,
//! fair sharing, priority classes, instance types and model, and from there on
//! export -> import -> export is a fixed point; CPU time and memory within the budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quotalab_engine::config::hyperpod::{self, ExportOptions, ImportOptions};
use quotalab_engine::load;
use quotalab_fuzz::{check_problem, check_refusal, Budget};

const ARN: &str = "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdef123456";

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let budget = Budget::for_bytes(data.len());
    let opts = ImportOptions {
        cluster: (pick & 2 != 0).then(|| "abcdef123456".to_string()),
    };
    let first = if pick & 8 != 0 {
        let (a, b) = text.split_once('\0').unwrap_or((text, ""));
        hyperpod::import_files(&[("a.json", a), ("b.sh", b)], &opts)
    } else {
        hyperpod::import(text, &opts)
    };
    let first = match first {
        Err(problems) => {
            check_refusal("hyperpod import", &problems);
            budget.check("hyperpod import");
            return;
        }
        Ok(i) => i,
    };
    for w in &first.warnings {
        check_problem("hyperpod import warning", w);
    }
    load(&first.scenario_json)
        .unwrap_or_else(|p| panic!("an imported configuration does not load: {p:?}"));
    let out_opts = ExportOptions {
        script: pick & 1 != 0,
        cluster_arn: if pick & 4 != 0 {
            ARN.to_string()
        } else {
            hyperpod::DEFAULT_CLUSTER_ARN.to_string()
        },
    };
    let out = hyperpod::export(&first.scenario_json, &out_opts).unwrap_or_else(|p| {
        panic!(
            "an imported configuration does not export: {p:?}\n{}",
            first.scenario_json
        )
    });
    for w in &out.warnings {
        check_problem("hyperpod export warning", w);
    }
    let back = hyperpod::import(&out.text, &ImportOptions::default()).unwrap_or_else(|p| {
        panic!(
            "an export does not import: {p:?}\n--- export:\n{}\n--- from:\n{}",
            out.text, first.scenario_json
        )
    });
    for key in [
        "shares",
        "cohorts",
        "fair_sharing",
        "priority_classes",
        "instance_types",
        "model",
    ] {
        assert_eq!(
            first.scenario.get(key),
            back.scenario.get(key),
            "import -> export -> import changed {key}\n--- export:\n{}\n--- from:\n{}",
            out.text,
            first.scenario_json
        );
    }
    // From the re-import on, export -> import -> export is a fixed point (the first export
    // may differ from the second in the scenario's name: an import names it after the
    // cluster the files give, and the export writes its own ARN).
    let again = hyperpod::export(&back.scenario_json, &out_opts)
        .unwrap_or_else(|p| panic!("a re-imported configuration does not export: {p:?}"));
    let third = hyperpod::import(&again.text, &ImportOptions::default())
        .unwrap_or_else(|p| panic!("a second export does not import: {p:?}\n{}", again.text));
    let fixed = hyperpod::export(&third.scenario_json, &out_opts)
        .unwrap_or_else(|p| panic!("a third import does not export: {p:?}"));
    assert_eq!(
        again.text, fixed.text,
        "export -> import -> export is not stable"
    );
    budget.check("import, export, import");
});
