//! The worker protocol in headless Chromium (wasm-bindgen-test): every request and response
//! survives the trip as postcard bytes exactly, a run's result included (so a future
//! `skip_serializing_if` or untagged enum in the digest, which postcard cannot carry, fails
//! here and not on the page), and garbage is an error.

use quotalab_engine::digest::{digest, DigestLimits};
use quotalab_engine::input::path::Path;
use quotalab_engine::{load, simulate, Options, Problem};
use quotalab_engine_worker::protocol::{
    decode_result, encode_result, Bytes, Phase, Request, Response, ResultDecoder, Timing,
};
use quotalab_engine_worker::web::{incoming, outgoing, JsBytes};
use serde_json::{json, Value};
use wasm_bindgen_test::*;

const AWS: &str = include_str!("../../www/presets/aws-walkthrough.json");

/// Two shares, `jobs` generated jobs, preemptions and checkpoints (every digest field used).
fn generated(jobs: u64) -> Value {
    let t = "ml.g5.xlarge";
    json!({"format": "quotalab/v1", "name": "roundtrip", "seed": 3, "capacity": {t: 8},
    "shares": [
        {"name": "a", "limits": {t: 4}, "strategy": "LEND_AND_BORROW", "borrow_limit": 100, "in_share_preemption": true},
        {"name": "b", "limits": {t: 4}, "strategy": "LEND"}
    ],
    "workloads": [
        {"share": "a", "count": jobs / 2, "arrival": {"poisson_per_hour": 4}, "instance_type": t,
         "instances": {"choice": [[1, 3], [2, 1]]}, "work_s": {"lognormal": {"median": 1800, "sigma": 1}},
         "priority": {"choice": [[0, 1], [5, 1]]}, "checkpoint": {"interval_s": 600, "cost_s": 20, "restore_s": 30},
         "checkpoint_on_preempt": true},
        {"share": "b", "count": jobs - jobs / 2, "arrival": {"poisson_per_hour": 4}, "instance_type": t,
         "work_s": {"exponential": {"mean": 2400}}}
    ]})
}

#[wasm_bindgen_test]
fn a_digest_and_its_warnings_survive_the_trip_exactly() {
    for text in [AWS.to_string(), generated(1_000).to_string()] {
        let loaded = load(&text).expect("valid scenario");
        let sim = simulate(&loaded.scenario, Options::default());
        let d = digest(&sim, DigestLimits::default());
        let warnings = vec![
            // The page keeps a worker's problem path as the text it displays (one step).
            Problem::new(Path::named("shares[0].limits"), "overcommitted"),
            Problem::whole("whole"),
        ];
        let result = encode_result(&warnings, &d).expect("encodes");
        let timing = Timing {
            compute_ms: 12.5,
            phases: [1.0, 2.0, 3.0, 4.0],
            received_at: 1.7e12,
            posted_at: 1.7e12 + 12.5,
            reused: false,
        };
        let message = Response::Done {
            id: 7,
            timing,
            result: Bytes(&result),
        }
        .encode()
        .expect("encodes");
        let Response::Done {
            id,
            timing: t2,
            result: r2,
        } = Response::decode(&message).expect("decodes")
        else {
            panic!("not a Done");
        };
        assert_eq!((id, t2), (7, timing));
        assert_eq!(r2.0, &result[..], "the result is carried as it is");
        let (w2, d2) = decode_result(r2.0).expect("decodes");
        assert_eq!(w2, warnings);
        assert_eq!(d2, d, "the digest of {} changed on the way", d.name);
        // As the page reads it: beside the answer's bytes, from the buffer it came in, a
        // piece at a time.
        let mut beside = Response::Done {
            id: 7,
            timing,
            result: Bytes(&result),
        };
        let taken = beside.take_result().expect("a result to take");
        let (posted, _transfer) = outgoing(&beside.encode().unwrap(), Some(taken), &[]);
        let got = incoming(&posted).expect("a message");
        assert!(
            got.bytes.len() < 64,
            "the answer's bytes without the result"
        );
        let mut decoder =
            ResultDecoder::new(Box::new(JsBytes(got.text.expect("the result beside"))))
                .expect("its head decodes");
        while !decoder.step(&mut || 0.0, 1.0).expect("a piece decodes") {}
        let (w3, d3) = decoder.finish();
        assert_eq!((w3, d3), (warnings.clone(), d.clone()));
        // Compact: well under the JSON text of the same digest, and the message adds only
        // its header to the result.
        let json = serde_json::to_string(&d).unwrap().len();
        assert!(
            message.len() * 2 < json,
            "{} bytes vs {json} as JSON",
            message.len()
        );
        assert!(message.len() < result.len() + 64, "{} bytes", message.len());
    }
}

#[wasm_bindgen_test]
fn every_request_and_response_survives_the_trip() {
    let text = generated(10).to_string();
    let limits = DigestLimits {
        max_points: 2000,
        max_events: 200_000,
        max_jobs: 100_000,
    };
    for request in [
        Request::Warmup,
        Request::Run {
            id: 3,
            scenario: &text,
            limits,
            relabel: None,
            link: true,
        },
    ] {
        let bytes = request.encode().unwrap();
        assert_eq!(Request::decode(&bytes).unwrap(), request);
    }
    // Problems cross whole: the path's steps and the kind the page words them by.
    let problems = quotalab_engine::load(
        r#"{"format":"quotalab/v1","capacity":{"ml.g5.xlarge":2},
            "shares":[{"name":"a","limits":{"ml.g5.xlarge":1},"strategy":"NOPE"}],
            "jobs":[{"id":"j","share":"a","instance_type":"ml.g5.xlarge","submit_s":0,"work_s":-1}]}"#,
    )
    .unwrap_err();
    assert!(problems.len() >= 2, "{problems:?}");
    assert!(problems
        .iter()
        .any(|p| p.kind != quotalab_engine::Kind::Other));
    let problems = [
        problems,
        vec![quotalab_engine::Problem::new(
            Default::default(),
            "JSON syntax error at line 1, column 2: é",
        )],
    ]
    .concat();
    for response in [
        Response::Ready,
        Response::Progress {
            id: u64::MAX,
            fraction: 0.5,
            phase: Phase::Simulating,
        },
        Response::Problems { id: 1, problems },
        Response::Error {
            id: None,
            message: "internal error".into(),
        },
        Response::Error {
            id: Some(2),
            message: String::new(),
        },
        Response::Relabelled {
            id: 4,
            timing: Default::default(),
            label: quotalab_engine::digest::Label::of(&load(&text).unwrap().scenario),
            warnings: Vec::new(),
        },
    ] {
        let bytes = response.encode().unwrap();
        assert_eq!(Response::decode(&bytes).unwrap(), response);
    }
}

#[wasm_bindgen_test]
fn garbage_is_an_error_not_a_panic() {
    let text = AWS.to_string();
    let request = Request::Run {
        id: 1,
        scenario: &text,
        limits: DigestLimits::default(),
        relabel: Some(1),
        link: false,
    }
    .encode()
    .unwrap();
    assert!(
        Request::decode(&request[..request.len() / 2]).is_err(),
        "cut short"
    );
    assert!(Request::decode(&[9]).is_err(), "no such request");
    assert!(Response::decode(&[]).is_err(), "empty");
    assert!(Response::decode(&[200, 1]).is_err(), "no such response");
    let result = encode_result(
        &[],
        &digest(
            &simulate(&load(&text).unwrap().scenario, Options::default()),
            DigestLimits::default(),
        ),
    )
    .unwrap();
    assert!(
        decode_result(&result[..result.len() / 2]).is_err(),
        "a result cut short"
    );
}

/// A large text from a worker comes in pieces, each checked as UTF-8 as it comes: characters
/// cut by a piece's end (2, 3 and 4 bytes long, cut after each of their bytes) come through
/// whole, and a text that is not UTF-8 (a bad byte in a later piece, or a last character cut
/// short) is an error naming the place of the first byte that is not.
#[wasm_bindgen_test]
async fn a_large_text_comes_in_pieces_with_its_characters_whole() {
    use quotalab_app::worker::service::{text_in_pieces, TEXT_PIECE};
    async fn through(bytes: &[u8]) -> Result<String, usize> {
        let got = std::rc::Rc::new(std::cell::RefCell::new(None));
        let slot = got.clone();
        text_in_pieces(js_sys::Uint8Array::from(bytes), move |t| {
            *slot.borrow_mut() = Some(t);
        });
        for _ in 0..200 {
            if let Some(t) = got.borrow_mut().take() {
                return t;
            }
            crate::common::sleep_ms(10).await;
        }
        panic!("no text within 2 s")
    }
    for ch in ["é", "€", "🙂"] {
        for cut in 1..ch.len() {
            // `ch` straddles the first piece's end, `cut` of its bytes before it, and again
            // the second's.
            let mut text = "a".repeat(TEXT_PIECE - cut);
            text.push_str(ch);
            text.push_str(&"b".repeat(TEXT_PIECE - ch.len()));
            text.push_str(ch);
            text.push('c');
            let got = through(text.as_bytes()).await.expect("valid UTF-8");
            assert!(got == text, "{ch} cut after {cut} bytes came back changed");
        }
    }
    let mut bad = "a".repeat(TEXT_PIECE + 10).into_bytes();
    bad[TEXT_PIECE + 5] = 0xff;
    assert_eq!(through(&bad).await, Err(TEXT_PIECE + 5));
    let mut short = "a".repeat(TEXT_PIECE + 10).into_bytes();
    short.extend_from_slice(&"🙂".as_bytes()[..2]);
    assert_eq!(through(&short).await, Err(TEXT_PIECE + 10));
    assert_eq!(through(&[b'a', 0xc3, b'b']).await, Err(1), "a small text");
}
