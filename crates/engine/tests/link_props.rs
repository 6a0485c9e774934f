//! Share links (SPEC 10), as the page uses them: a generated scenario survives the round trip
//! exactly (same text, same simulation bytes), a mutated link is refused or yields a JSON
//! object but never panics, and every bundled preset's link length is printed (the AWS
//! walkthrough stays under 600 characters as a whole URL).
//!
//! `cargo test -p quotalab-engine --test link_props -- --nocapture` shows the preset lengths.
//! A failing case is kept by proptest in `tests/proptest-regressions/link_props.txt` and
//! replayed first on every later run (commit that file with the fix).

use std::path::PathBuf;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use quotalab_engine::link::{decode, encode};
use quotalab_engine::{load, run_json};
use serde_json::{json, Value};

const T: &str = "ml.g5.xlarge";
const T2: &str = "ml.g6.xlarge";

/// Where proptest keeps failing cases (relative to the crate's root).
const REGRESSIONS: &str = "tests/proptest-regressions/link_props.txt";

/// A typical deployed page address: the link is this plus `#s=PAYLOAD`.
const PAGE: &str = "https://quotalab.example.org/";

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap()
}

/// Share names: plain, with spaces, quotes, backslashes and non-ASCII text (links carry
/// UTF-8 JSON; nothing may be lost or escaped differently on the way back).
fn share_name() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9-]{0,12}",
        "[a-zA-Z \"\\\\/#&=?%+]{1,16}",
        "\\PC{1,10}",
    ]
}

/// Numbers as scenarios write them: integers, and decimals the validator accepts.
fn seconds() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0u64..100_000).prop_map(|n| json!(n)),
        (0.0f64..1e6).prop_map(|x| json!(x)),
    ]
}

fn positive_seconds() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1u64..100_000).prop_map(|n| json!(n)),
        (0.001f64..1e6).prop_map(|x| json!(x)),
    ]
}

fn distribution() -> impl Strategy<Value = Value> {
    prop_oneof![
        (1u64..5000).prop_map(|x| json!({ "fixed": x })),
        (1u64..100, 100u64..5000).prop_map(|(a, b)| json!({ "uniform": [a, b] })),
        (1u64..5000).prop_map(|m| json!({ "exponential": { "mean": m } })),
        (1u64..5000, 0.1f64..2.0)
            .prop_map(|(m, s)| json!({ "lognormal": { "median": m, "sigma": s } })),
        proptest::collection::vec((1u64..5000, 1u64..10), 1..4)
            .prop_map(|pairs| json!({ "choice": pairs })),
    ]
}

fn arrival() -> impl Strategy<Value = Value> {
    prop_oneof![
        (0.5f64..60.0).prop_map(|r| json!({ "poisson_per_hour": r })),
        (0u64..1000, 1000u64..5000).prop_map(|(a, b)| json!({ "uniform": [a, b] })),
        proptest::collection::vec(0u64..5000, 1..5).prop_map(|at| json!({ "at_s": at })),
    ]
}

/// A scenario in the shapes of SPEC 7 (and of `tests/properties.rs`): shares with every
/// strategy, explicit jobs with optional fields, workloads with every distribution, events,
/// and optional free text. Most are valid; some are not (the codec does not validate, and an
/// invalid scenario must come back just as invalid).
fn scenario() -> impl Strategy<Value = Value> {
    (
        proptest::collection::vec(
            (share_name(), 0u8..3, 0u64..4, proptest::option::of(0u64..3), -1i64..300, any::<bool>()),
            1..5,
        ),
        proptest::option::of("\\PC{0,40}"),
        any::<u64>(),
        proptest::option::of(60u64..100_000),
        0u64..3,
    )
        .prop_flat_map(|(shares, description, seed, horizon, spare)| {
            let n = shares.len();
            let job = (
                0..n,
                any::<bool>(),
                1u64..4,
                0u64..10,
                seconds(),
                positive_seconds(),
                proptest::option::of((1u64..100, 0u64..20, 0u64..20)),
                proptest::option::of(0u64..3),
            );
            let workload = (0..n, 1u64..20, arrival(), distribution(), proptest::option::of(distribution()));
            (
                Just((shares, description, seed, horizon, spare)),
                proptest::collection::vec(job, 0..25),
                proptest::collection::vec(workload, 0..3),
                proptest::collection::vec((0u64..500, 0usize..25, 0u64..6), 0..4),
            )
        })
        .prop_map(|((shares, description, seed, horizon, spare), jobs, workloads, events)| {
            let strategies = ["RESERVE", "LEND", "LEND_AND_BORROW"];
            let names: Vec<String> = shares
                .iter()
                .enumerate()
                .map(|(i, s)| format!("{}{i}", s.0))
                .collect();
            let sum: u64 = shares.iter().map(|s| s.2).sum();
            let sum2: u64 = shares.iter().map(|s| s.3.unwrap_or(0)).sum();
            let share_json: Vec<Value> = shares
                .iter()
                .zip(&names)
                .map(|((_, strategy, limit, limit2, borrow, in_share), name)| {
                    let mut limits = serde_json::Map::new();
                    limits.insert(T.into(), json!(limit));
                    if let Some(l2) = limit2 {
                        limits.insert(T2.into(), json!(l2));
                    }
                    let mut v = json!({"name": name, "limits": limits,
                        "strategy": strategies[*strategy as usize], "in_share_preemption": in_share});
                    if *strategy == 2 {
                        v["borrow_limit"] = json!(borrow);
                    }
                    v
                })
                .collect();
            let job_json: Vec<Value> = jobs
                .iter()
                .enumerate()
                .map(|(i, (share, second, instances, priority, submit, work, checkpoint, retries))| {
                    let mut v = json!({"id": format!("j{i}"), "share": names[*share],
                        "instance_type": if *second { T2 } else { T }, "instances": instances,
                        "priority": priority, "submit_s": submit, "work_s": work});
                    if let Some((interval, cost, restore)) = checkpoint {
                        v["checkpoint"] = json!({"interval_s": interval, "cost_s": cost, "restore_s": restore});
                    }
                    if let Some(r) = retries {
                        v["preemption_retries"] = json!(r);
                    }
                    v
                })
                .collect();
            let workload_json: Vec<Value> = workloads
                .iter()
                .map(|(share, count, arrival, work, priority)| {
                    let mut v = json!({"share": names[*share], "count": count, "arrival": arrival,
                        "instance_type": T, "instances": 1, "work_s": work});
                    if let Some(p) = priority {
                        v["priority"] = p.clone();
                    }
                    v
                })
                .collect();
            let event_json: Vec<Value> = events
                .iter()
                .filter(|(_, j, _)| *j < jobs.len())
                .map(|(at, j, p)| json!({"at_s": at, "set_priority": {"job": format!("j{j}"), "priority": p}}))
                .collect();
            let mut sc = json!({"format": "quotalab/v1", "name": "generated", "seed": seed});
            if let Some(d) = description {
                sc["description"] = json!(d);
            }
            if let Some(h) = horizon {
                sc["horizon_s"] = json!(h);
            }
            sc["capacity"] = json!({T: sum + spare, T2: sum2 + spare});
            sc["shares"] = json!(share_json);
            sc["jobs"] = json!(job_json);
            if !workload_json.is_empty() {
                sc["workloads"] = json!(workload_json);
            }
            if !event_json.is_empty() {
                sc["events"] = json!(event_json);
            }
            sc
        })
}

/// One edit of a link's text, as a chat app or a careless copy might make it.
#[derive(Clone, Debug)]
enum Mutation {
    Replace(prop::sample::Index, char),
    Insert(prop::sample::Index, char),
    Delete(prop::sample::Index),
    Truncate(prop::sample::Index),
    Duplicate(prop::sample::Index, prop::sample::Index),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    // Mostly base64url characters (they get past the first stage), some anything at all.
    let ch = prop_oneof![
        4 => proptest::sample::select(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".chars().collect::<Vec<_>>()
        ),
        1 => any::<char>(),
    ];
    prop_oneof![
        (any::<prop::sample::Index>(), ch.clone()).prop_map(|(i, c)| Mutation::Replace(i, c)),
        (any::<prop::sample::Index>(), ch).prop_map(|(i, c)| Mutation::Insert(i, c)),
        any::<prop::sample::Index>().prop_map(Mutation::Delete),
        any::<prop::sample::Index>().prop_map(Mutation::Truncate),
        (any::<prop::sample::Index>(), any::<prop::sample::Index>())
            .prop_map(|(a, b)| Mutation::Duplicate(a, b)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for m in mutations {
        if chars.is_empty() {
            break;
        }
        match m {
            Mutation::Replace(i, c) => {
                let i = i.index(chars.len());
                chars[i] = *c;
            }
            Mutation::Insert(i, c) => {
                let i = i.index(chars.len() + 1);
                chars.insert(i, *c);
            }
            Mutation::Delete(i) => {
                let i = i.index(chars.len());
                chars.remove(i);
            }
            Mutation::Truncate(i) => {
                let i = i.index(chars.len());
                chars.truncate(i);
            }
            Mutation::Duplicate(a, b) => {
                let (a, b) = (a.index(chars.len()), b.index(chars.len()));
                let (from, to) = (a.min(b), a.max(b) + 1);
                let piece: Vec<char> = chars[from..to].to_vec();
                chars.splice(to..to, piece);
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 200,
        // Integration tests have no lib.rs for proptest to find: name the corpus file (the
        // working directory of `cargo test` is the crate's root).
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(REGRESSIONS))),
        ..ProptestConfig::default()
    })]

    /// Encode then decode gives the same scenario (pretty-printed, key order kept), encoding
    /// the decoded text gives the same payload, and the decoded scenario validates and
    /// simulates to the same bytes: a link reproduces the exact simulation.
    #[test]
    fn generated_scenarios_round_trip(sc in scenario()) {
        let text = pretty(&sc);
        let payload = encode(&text).unwrap();
        prop_assert!(payload.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
        let back = decode(&format!("{PAGE}#s={payload}")).unwrap();
        prop_assert_eq!(&back, &text);
        // Exact, floats included (serde_json's `float_roundtrip`: without it a printed float
        // may be read back one ULP off, and a link would not give back its scenario's text).
        prop_assert_eq!(serde_json::from_str::<Value>(&back).unwrap(), sc);
        prop_assert_eq!(encode(&back).unwrap(), payload);
        match (run_json(&text), run_json(&back)) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "validation differs: {:?} vs {:?}", a.is_ok(), b.is_ok()),
        }
    }

    /// A mutated valid link never panics: it is refused with a message, or it decodes to a
    /// JSON object (a lucky edit), which then validates or is refused like any scenario.
    #[test]
    fn mutated_links_are_refused_or_yield_json(
        sc in scenario(),
        mutations in proptest::collection::vec(mutation(), 1..6),
        whole_url in any::<bool>(),
    ) {
        let payload = encode(&pretty(&sc)).unwrap();
        let text = if whole_url { format!("{PAGE}#s={payload}") } else { payload };
        let mutated = mutate(&text, &mutations);
        match decode(&mutated) {
            Err(p) => prop_assert!(p.message.starts_with("link payload"), "{}", p.message),
            Ok(json) => {
                let v: Value = serde_json::from_str(&json).unwrap();
                prop_assert!(v.is_object());
                let _ = load(&json);
            }
        }
    }

    /// Bytes flipped inside the compressed stream (past base64): refused or JSON, no panic.
    #[test]
    fn corrupted_streams_are_refused_or_yield_json(
        sc in scenario(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
    ) {
        let mut bytes = URL_SAFE_NO_PAD.decode(encode(&pretty(&sc)).unwrap()).unwrap();
        for (at, value) in flips {
            let i = at.index(bytes.len());
            bytes[i] = value;
        }
        if let Ok(json) = decode(&URL_SAFE_NO_PAD.encode(&bytes)) {
            prop_assert!(serde_json::from_str::<Value>(&json).unwrap().is_object());
        }
    }
}

fn presets_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../www/presets")
}

/// Every bundled preset: its link length (printed), and it round-trips to the same run.
#[test]
fn preset_link_lengths() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(presets_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no preset in www/presets/");
    println!(
        "{:<48} {:>9} {:>9} {:>9}",
        "preset", "JSON", "payload", "link"
    );
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let payload = encode(&text).unwrap_or_else(|p| panic!("{}: {p}", path.display()));
        let link = format!("{PAGE}#s={payload}");
        println!(
            "{:<48} {:>9} {:>9} {:>9}",
            path.file_name().unwrap().to_string_lossy(),
            text.len(),
            payload.len(),
            link.len()
        );
        let back = decode(&link).unwrap();
        let original: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&back).unwrap(), original);
    }
}

/// The walkthrough's whole link (a typical page address, `#s=`, the payload) is short
/// enough for any chat or document: under 600 characters.
#[test]
fn aws_walkthrough_link_is_under_600_characters() {
    let text = std::fs::read_to_string(presets_dir().join("aws-walkthrough.json")).unwrap();
    let link = format!("{PAGE}#s={}", encode(&text).unwrap());
    assert!(link.len() < 600, "{} characters: {link}", link.len());
    // And it opens to the same simulation.
    assert_eq!(
        run_json(&decode(&link).unwrap()).unwrap(),
        run_json(&text).unwrap()
    );
}

/// A small link that inflates far beyond 8 MiB (a bomb made of valid JSON) is refused
/// before it is inflated whole.
#[test]
fn json_bomb_link_is_refused() {
    use std::io::Write as _;
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(b"{\"format\":\"quotalab/v1\",\"name\":\"")
        .unwrap();
    let chunk = vec![b'a'; 1 << 20];
    for _ in 0..12 {
        e.write_all(&chunk).unwrap();
    }
    e.write_all(b"\"}").unwrap();
    let payload = URL_SAFE_NO_PAD.encode(e.finish().unwrap());
    assert!(payload.len() < 100_000, "{}", payload.len());
    assert_eq!(
        decode(&payload).unwrap_err().message,
        "link payload inflates past 8 MiB"
    );
}

/// The case proptest found (kept in `tests/proptest-regressions/link_props.txt`): without
/// serde_json's `float_roundtrip`, this submit time came back as `156602.51223882005`.
#[test]
fn float_survives_a_link_exactly() {
    let text = r#"{"format":"quotalab/v1","jobs":[{"submit_s":156602.51223882003,"work_s":172931.19840295607}]}"#;
    let back = decode(&encode(text).unwrap()).unwrap();
    assert!(back.contains("156602.51223882003"), "{back}");
    assert!(back.contains("172931.19840295607"), "{back}");
}
