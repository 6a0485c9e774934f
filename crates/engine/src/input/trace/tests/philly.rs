//! The whole Philly trace imports (skipped when the file is not there).

use super::*;

const PHILLY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/traces/philly-adaptdl.csv"
);

fn philly(top_shares: Option<usize>) -> Option<(Value, ImportReport)> {
    let file = match std::fs::File::open(PHILLY) {
        Ok(f) => f,
        Err(e) => {
            println!("skipped: the Philly trace is not at {PHILLY}: {e}");
            return None;
        }
    };
    let o = ImportOptions {
        submit: "timestamp".into(),
        duration: Some("duration".into()),
        gpus: Some("num_gpus".into()),
        share: Some("cluster".into()),
        top_shares,
        instance_type: "ml.p4d.24xlarge".into(),
        gpus_per_instance: 8,
        ..ImportOptions::default()
    };
    Some(import(std::io::BufReader::new(file), &o).unwrap())
}

#[test]
fn the_whole_philly_trace_imports() {
    let Some((v, report)) = philly(None) else {
        return;
    };
    assert_eq!(
        ImportReport {
            warnings: vec![],
            ..report.clone()
        },
        ImportReport {
            rows: 82_247,
            imported: 82_247,
            skipped: 0,
            first_problems: vec![],
            reasons: vec![],
            warnings: vec![],
        }
    );
    // The default capacity (the average load, 119 instances) leaves 4 small teams at a
    // limit of 0 and is far under the peak of 865 instances held at once.
    let zero: Vec<&str> = report
        .warnings
        .iter()
        .filter_map(|w| match w {
            ImportWarning::ZeroLimit { share, .. } => Some(share.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(zero, ["23dbec", "51b7ef", "795a4c", "925e2b"]);
    assert_eq!(
        report.warnings.last(),
        Some(&ImportWarning::CapacityUnderPeak {
            capacity: 119,
            default: true,
            peak_instances: 865,
            peak_gpus: 1_243,
            at_ms: 4_105_977_000,
        })
    );
    assert_eq!(jobs(&v).len(), 82_247);
    let names = share_names(&v);
    assert_eq!(names.len(), 15);
    assert_eq!(&names[..4], ["6214e9", "11cb48", "6c71a0", "b436b2"]);
    assert_eq!(
        ids(&v)[0],
        format!("{}-1", jobs(&v)[0]["share"].as_str().unwrap())
    );
    assert_eq!(jobs(&v)[0]["submit_s"], 0);
    let capacity = v["capacity"]["ml.p4d.24xlarge"].as_u64().unwrap();
    assert!(capacity >= 16);
    assert_eq!(limits(&v, "ml.p4d.24xlarge").iter().sum::<u64>(), capacity);
    let max_instances = jobs(&v)
        .iter()
        .map(|j| j["instances"].as_u64().unwrap())
        .max();
    assert_eq!(max_instances, Some(16));
    // Every id is unique.
    let mut all = ids(&v);
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), 82_247);

    let Some((v, report)) = philly(Some(5)) else {
        return;
    };
    assert_eq!(report.imported, 82_247);
    assert_eq!(
        share_names(&v),
        ["6214e9", "11cb48", "6c71a0", "b436b2", "103959", "other"]
    );
    let count = |share: &str| jobs(&v).iter().filter(|j| j["share"] == share).count();
    assert_eq!(count("6214e9"), 41_226);
    assert_eq!(count("11cb48"), 16_091);
    assert_eq!(count("103959"), 1_934);
    assert_eq!(
        count("other"),
        82_247 - 41_226 - 16_091 - 9_953 - 7_423 - 1_934
    );
}
