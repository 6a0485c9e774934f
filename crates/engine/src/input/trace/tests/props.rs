//! Properties: the import never panics, and limits add up to the capacity.

use super::*;

proptest! {
    #[test]
    fn import_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut input = b"submit,duration,gpus,team\n".to_vec();
        input.extend_from_slice(&bytes);
        let o = ImportOptions {
            gpus: Some("gpus".into()),
            share: Some("team".into()),
            ..opts()
        };
        if let Ok((v, report)) = import(input.as_slice(), &o) {
            prop_assert_eq!(report.rows, report.imported + report.skipped);
            prop_assert_eq!(jobs(&v).len() as u64, report.imported);
        }
    }

    #[test]
    fn import_never_panics_on_csv_like_rows(
        rows in proptest::collection::vec(
            (
                prop_oneof![Just("0".to_string()), Just("2017-01-31 23:59:59".to_string()), "[-0-9.e:]{0,12}"],
                "[-0-9.a-z]{0,8}",
                "[0-9.]{0,4}",
                "[a-c\"]{0,3}",
            ),
            0..40,
        ),
        capacity in 1u64..50,
        equal in any::<bool>(),
    ) {
        let mut csv = String::from("submit,duration,gpus,team\n");
        for (s, d, g, t) in &rows {
            csv.push_str(&format!("{s},{d},{g},{t}\n"));
        }
        let o = ImportOptions {
            gpus: Some("gpus".into()),
            share: Some("team".into()),
            capacity: Some(capacity),
            limits: if equal { LimitsMode::Equal } else { LimitsMode::Proportional },
            ..opts()
        };
        if let Ok((v, _)) = import(csv.as_bytes(), &o) {
            prop_assert_eq!(limits(&v, "ml.g5.xlarge").iter().sum::<u64>(), capacity);
        }
    }
}
