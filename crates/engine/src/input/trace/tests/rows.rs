//! Trace rows (SPEC 11): GPUs to instances, skipped rows, CSV quoting, what is not CSV, caps.

use super::*;

#[test]
fn gpus_become_instances_rounded_up() {
    let csv = "submit,duration,gpus\n0,1,1\n0,1,8\n0,1,9\n0,1,0\n0,1,2.5\n0,1,128\n";
    let o = ImportOptions {
        gpus: Some("gpus".into()),
        gpus_per_instance: 8,
        ..opts()
    };
    let (v, _) = run(csv, &o);
    let instances: Vec<u64> = jobs(&v)
        .iter()
        .map(|j| j["instances"].as_u64().unwrap())
        .collect();
    assert_eq!(instances, [1, 1, 2, 1, 1, 16]);
    // The default capacity is at least the largest job.
    assert_eq!(v["capacity"]["ml.g5.xlarge"], 22);
    let one = ImportOptions {
        gpus_per_instance: 1,
        ..o
    };
    let (v, _) = run(csv, &one);
    let instances: Vec<u64> = jobs(&v)
        .iter()
        .map(|j| j["instances"].as_u64().unwrap())
        .collect();
    assert_eq!(instances, [1, 8, 9, 1, 3, 128]);
}

#[test]
fn malformed_rows_are_skipped_counted_and_explained() {
    let csv = "submit,duration,gpus,team\n\
               0,abc,1,a\n\
               0,10\n\
               -5,10,1,a\n\
               2017-02-30 00:00:00,10,1,a\n\
               0,10,-1,a\n\
               0,10,1,\n\
               0,inf,1,a\n\
               NaN,10,1,a\n\
               1e400,10,1,a\n\
               3,10,1,a\n\
               0,10,x,a\n";
    let o = ImportOptions {
        gpus: Some("gpus".into()),
        share: Some("team".into()),
        ..opts()
    };
    let (v, report) = run(csv, &o);
    assert_eq!(ids(&v), ["a-1"]);
    assert_eq!(report.rows, 11);
    assert_eq!(report.imported, 1);
    assert_eq!(report.skipped, 10);
    assert_eq!(
        report.first_problems,
        [
            "row 1: duration: not a number: \"abc\"",
            "row 2: gpus: missing value (the row has 2 columns)",
            "row 3: submit: negative: \"-5\"",
            "row 4: submit: not a YYYY-MM-DD HH:MM:SS timestamp: \"2017-02-30 00:00:00\"",
            "row 5: gpus: negative: \"-1\"",
        ]
    );
    // The reasons not quoted in the report.
    let reason = |csv: &str| {
        let (_, r) = run(&format!("submit,duration,gpus,team\n{csv}\n1,1,1,a\n"), &o);
        r.first_problems[0].clone()
    };
    assert_eq!(reason("0,10,1,"), "row 1: team: empty");
    assert_eq!(
        reason("0,inf,1,a"),
        "row 1: duration: not a finite number: \"inf\""
    );
    assert_eq!(
        reason("NaN,10,1,a"),
        "row 1: submit: not a finite number: \"NaN\""
    );
    assert_eq!(
        reason("1e400,10,1,a"),
        "row 1: submit: not a finite number: \"1e400\""
    );
    assert_eq!(
        reason("1e12,10,1,a"),
        "row 1: submit: out of range: \"1e12\""
    );
    assert_eq!(reason("0,10,1e7,a"), "row 1: gpus: out of range: \"1e7\"");
    assert_eq!(
        reason("soon,10,1,a"),
        "row 1: submit: not a number or a YYYY-MM-DD HH:MM:SS timestamp: \"soon\""
    );
    assert_eq!(
        reason(&format!("0,10,1,{}", "n".repeat(129))),
        format!(
            "row 1: team: a share name is at most 128 characters: \"{}...\"",
            "n".repeat(40)
        )
    );
    // Non-UTF-8 bytes in a used column skip the row; in an unused column they do not matter.
    let bytes = b"submit,duration,note\n0,\xff\xfe,x\n1,10,\xff\n".to_vec();
    let (v, r) = import(bytes.as_slice(), &opts()).unwrap();
    assert_eq!(jobs(&v).len(), 1);
    assert_eq!(r.first_problems, ["row 1: duration: not UTF-8 text"]);
}

#[test]
fn csv_quoting_crlf_and_bom_are_read() {
    let csv = "\u{feff}\"submit\",duration,\"team\"\r\n\
               0,10,\"a, b\"\r\n\
               \r\n\
               1,10,\"say \"\"hi\"\"\nthere\"\r\n";
    let o = ImportOptions {
        share: Some("team".into()),
        ..opts()
    };
    let (v, report) = run(csv, &o);
    assert_eq!(report.rows, 2);
    assert_eq!(share_names(&v), ["a, b", "say \"hi\"\nthere"]);
}

#[test]
fn an_empty_file_a_header_only_and_all_bad_rows_are_errors() {
    assert_eq!(
        error(b"", &opts()).message,
        "the trace is empty: no header row"
    );
    assert_eq!(
        error(b"\n\n", &opts()).message,
        "the trace is empty: no header row"
    );
    assert_eq!(
        error(b"submit,duration\n", &opts()).message,
        "the trace has a header row but no data row"
    );
    assert_eq!(
        error(b"submit,duration", &opts()).message,
        "the trace has a header row but no data row"
    );
    assert_eq!(
        error(b"submit,duration\nx,1\n0,0\n", &opts()).message,
        "the trace has no readable row: all 2 rows were skipped \
         (first: row 1: submit: not a number or a YYYY-MM-DD HH:MM:SS timestamp: \"x\")"
    );
}

#[test]
fn a_file_that_is_not_csv_text_says_so() {
    let not_csv = |bytes: &[u8]| {
        let p = error(bytes, &opts());
        assert!(
            p.message.starts_with("this is not a CSV file: "),
            "{:?}: {p}",
            &bytes[..bytes.len().min(16)]
        );
        assert_eq!(p.path, "");
        p.message
    };
    // Random bytes (a fixed pseudo-random stream), even with a CSV-like header first.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let noise: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    not_csv(&noise);
    not_csv(&[b"submit,duration\n".as_slice(), &noise].concat());
    // Known binary formats are named.
    assert!(not_csv(b"PK\x03\x04\x14\x00\x06\x00").contains("ZIP archive"));
    assert!(not_csv(b"\x1f\x8b\x08\x00\x00\x00").contains("gzip"));
    assert!(not_csv(b"\x89PNG\r\n\x1a\n\x00\x00").contains("PNG image"));
    // UTF-16 text, with or without its byte order mark.
    let utf16: Vec<u8> = "submit,duration\n0,1\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    assert!(not_csv(&[b"\xff\xfe".as_slice(), &utf16].concat()).contains("UTF-16"));
    assert!(not_csv(&utf16).contains("NUL bytes (the first at byte 1)"));
    // Control characters, and mostly non-UTF-8 bytes.
    assert!(not_csv(b"submit,duration\n0,\x01\x02\n").contains("0x01 at byte 18"));
    assert!(
        not_csv(&[0xC3u8, 0x28, 0xA0, 0xA1, 0xFF, 0xFE, b'a'].repeat(50))
            .contains("are not UTF-8 text")
    );
    // Only the first KB is looked at: a NUL further on is a row's problem, not the file's.
    let mut late = format!("submit,duration\n{}", "0,1\n".repeat(SNIFF_BYTES / 4));
    late.push_str("5,\0\n");
    let (v, report) = run(&late, &opts());
    assert_eq!(report.skipped, 1, "{report:?}");
    assert_eq!(jobs(&v).len() as u64, report.imported);
}

#[test]
fn csv_text_is_not_mistaken_for_garbage() {
    for text in [
        "submit,duration\n0,1\n".as_bytes(),
        b"\xEF\xBB\xBFsubmit,duration\r\n0,1\r\n",
        b"submit\tduration,note\n0,1,\x0c\n",
        "submit,duration,team\n0,1,équipe \u{1F680}\n".as_bytes(),
        // A Latin-1 name: that row's own problem if its column is used.
        b"submit,duration,team\n0,1,caf\xe9\n1,1,bar\n",
    ] {
        assert_eq!(
            check_text(text),
            Ok(()),
            "{}",
            String::from_utf8_lossy(text)
        );
    }
    // A UTF-8 character cut by the sample's end is not an invalid byte.
    let cut = format!("submit,duration,note\n0,1,{}\n", "é".repeat(SNIFF_BYTES));
    assert_eq!(check_text(&cut.as_bytes()[..SNIFF_BYTES]), Ok(()));
    let (_, report) = run(&cut, &opts());
    assert_eq!((report.rows, report.imported), (1, 1));
}

#[test]
fn a_missing_column_is_an_error_naming_it_and_listing_the_header() {
    let o = ImportOptions {
        share: Some("team".into()),
        ..opts()
    };
    let p = error(b"submit,duration,cluster\n0,1,a\n", &o);
    assert_eq!(p.path, "--share");
    assert_eq!(
        p.to_string(),
        "--share: no column \"team\" in the trace's header; its columns are: submit, duration, cluster"
    );
    let p = error(b"start,duration\n0,1\n", &opts());
    assert_eq!(p.path, "--submit");
    assert!(p.message.contains("\"submit\""));
    // Columns are matched after trimming spaces.
    let (v, _) = run(" submit , duration \n0,1\n", &opts());
    assert_eq!(jobs(&v).len(), 1);
}

#[test]
fn a_huge_field_is_a_skipped_row() {
    let huge = "9".repeat(10 * 1024 * 1024);
    let csv = format!("submit,duration\n0,10\n1,{huge}\n2,10\n");
    let (v, report) = run(&csv, &opts());
    assert_eq!(report.rows, 3);
    assert_eq!(report.skipped, 1);
    assert_eq!(report.first_problems, ["row 2: longer than 1 MiB"]);
    assert_eq!(jobs(&v).len(), 2);
    // A huge quoted field with line breaks and quotes inside.
    let quoted = "x\n\"\",".repeat(3 * 1024 * 1024);
    let csv = format!("submit,duration,note\n0,10,\"{quoted}\"\n2,10,ok\n");
    let (v, report) = run(&csv, &opts());
    assert_eq!((report.rows, report.skipped), (2, 1));
    assert_eq!(report.first_problems, ["row 1: longer than 1 MiB"]);
    assert_eq!(jobs(&v).len(), 1);
    // A huge header is not a trace.
    let csv = format!("submit,duration,{huge}\n0,10,a\n");
    assert!(error(csv.as_bytes(), &opts())
        .message
        .contains("header row is longer than 1 MiB"));
}

#[test]
fn the_record_cap_bounds_what_the_parser_sees() {
    let input = format!("a,b\n1,{}\n2,3\n", "z".repeat(5 * 1024 * 1024));
    let mut out = Vec::new();
    BoundedRecords::new(input.as_bytes())
        .read_to_end(&mut out)
        .unwrap();
    assert!(out.len() < MAX_RECORD_BYTES + 100);
    assert!(out.ends_with(b"\x00\n2,3\n"));
    // Below the cap, the bytes pass through unchanged, whatever the read sizes.
    let normal = "h1,\"h,2\"\r\n1,\"a\"\"b\nc\"\n\n2,x\"y\n".repeat(1000);
    let mut out = Vec::new();
    let mut reader = BoundedRecords::new(normal.as_bytes());
    let mut chunk = [0u8; 7];
    loop {
        let n = reader.read(&mut chunk).unwrap();
        if n == 0 {
            break;
        }
        out.extend_from_slice(&chunk[..n]);
    }
    assert_eq!(out, normal.as_bytes());
}
