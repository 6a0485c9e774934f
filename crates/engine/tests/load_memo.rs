//! Issue #30: the engine worker validates every edit of a large scenario with
//! [`load_remembering`], which reads the explicit jobs once and reuses them while the edits
//! are outside the `jobs` array. Whatever the edit (valid or not, before, inside or after
//! the jobs, one that changes what the unchanged bytes mean), the answer must be exactly
//! [`load`]'s.

use proptest::prelude::*;
use quotalab_engine::{load, load_remembering, JobsMemo};

const BASES: [&str; 2] = [
    include_str!("../../../www/presets/aws-walkthrough.json"),
    include_str!("../../../www/presets/philly-sample.json"),
];

/// The base texts: as published (the sample is one line) and pretty-printed.
fn bases() -> Vec<String> {
    let mut out: Vec<String> = BASES.iter().map(|s| s.to_string()).collect();
    for b in BASES {
        let v: serde_json::Value = serde_json::from_str(b).unwrap();
        out.push(serde_json::to_string_pretty(&v).unwrap());
    }
    out
}

/// One edit: `len` bytes at `at` (a fraction of the text) replaced by `with`.
#[derive(Clone, Debug)]
struct Edit {
    at: f64,
    len: usize,
    with: String,
}

fn edit() -> impl Strategy<Value = Edit> {
    let with = prop_oneof![
        "[0-9]{1,3}",
        Just(String::new()),
        Just("\"".to_string()),
        Just("]".to_string()),
        Just(",".to_string()),
        Just("{\"jobs\": [], \"x\": ".to_string()),
        Just("\"jobs\": [{\"id\": \"z\"}], ".to_string()),
        "[ a-z:,\"{}\\[\\]]{0,6}",
    ];
    (0.0..1.0f64, 0usize..4, with).prop_map(|(at, len, with)| Edit { at, len, with })
}

/// `text` with `e` applied at a character boundary.
fn apply(text: &str, e: &Edit) -> String {
    let mut at = ((text.len() as f64) * e.at) as usize;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    let mut end = (at + e.len).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    [&text[..at], &e.with, &text[end..]].concat()
}

fn same(text: &str, memo: &mut Option<JobsMemo>) {
    let fresh = format!("{:?}", load(text));
    let remembered = format!("{:?}", load_remembering(text, memo));
    assert!(
        fresh == remembered,
        "load_remembering differs from load on:\n{text}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn an_edited_text_loads_as_if_read_afresh(
        base in 0usize..4,
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let bases = bases();
        let mut text = bases[base].clone();
        let mut memo = None;
        same(&text, &mut memo);
        for e in &edits {
            text = apply(&text, e);
            same(&text, &mut memo);
        }
    }
}

/// The edits a user makes in the form: a share's limit, the name, a job's work. Each is
/// what `load` says, and a number edited before or after the jobs leaves the memo in place.
#[test]
fn form_edits_load_as_if_read_afresh() {
    for text in bases() {
        let mut memo = None;
        same(&text, &mut memo);
        assert!(memo.is_some(), "a plain document is remembered");
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let mut edited = v.clone();
        edited["shares"][0]["borrow_limit"] = serde_json::json!(7);
        edited["name"] = serde_json::json!("renamed");
        for t in [
            text.replacen("\"shares\"", "\"shares\" ", 1),
            text.replacen(&format!("\"name\":{}", v["name"]), "\"name\":\"x\"", 1),
            serde_json::to_string_pretty(&edited).unwrap(),
            text.replacen("\"work_s\"", "\"work_s\":0,\"w\"", 1),
            text.clone(),
        ] {
            same(&t, &mut memo);
        }
    }
}
