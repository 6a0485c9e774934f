//! Share links (SPEC 10), the door strangers use: `link::decode` of any text, and the
//! encode/decode round trip.
//!
//! Properties: no panic; a refusal is a problem with a message; a decoded link is a JSON
//! object that encodes again and decodes to the same text (decode . encode . decode ==
//! decode); any JSON object text encodes and decodes back to the same value; CPU time within
//! the budget (one second per KiB of input, plus one per MiB the payload inflates to: a link
//! may carry up to 8 MiB).
#![no_main]

use std::time::Duration;

use libfuzzer_sys::fuzz_target;
use quotalab_engine::link;
use quotalab_fuzz::{check_problem, Budget, MIB};
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut budget = Budget::for_bytes(text.len());
    match link::decode(text) {
        Err(p) => check_problem("decode", &p),
        Ok(json) => {
            budget.allow(
                Duration::from_secs(1 + json.len() as u64 / MIB as u64),
                16 * json.len(),
            );
            let value: Value = serde_json::from_str(&json).expect("a decoded link is JSON");
            assert!(value.is_object(), "a decoded link is a JSON object");
            let again = link::encode(&json).expect("a decoded link encodes again");
            let back = link::decode(&again).expect("a re-encoded link decodes");
            assert_eq!(back, json, "decode(encode(decode(x))) != decode(x)");
            // The payload is the same wherever it is written (SPEC 10's forms).
            let url = format!("https://example.org/quotalab/#s={again}&x=1");
            assert_eq!(link::decode(&url).expect("the URL form decodes"), json);
        }
    }
    // The other direction: a JSON object encodes, and decodes to the same value.
    if let Ok(value) = serde_json::from_str::<Value>(text) {
        match link::encode(text) {
            Ok(payload) => {
                assert!(value.is_object(), "encode accepted a non-object");
                let back = link::decode(&payload).expect("an encoded scenario decodes");
                let back: Value = serde_json::from_str(&back).expect("decodes to JSON");
                assert_eq!(back, value, "decode(encode(x)) != x");
            }
            Err(p) => {
                check_problem("encode", &p);
                assert!(!value.is_object(), "encode refused a JSON object: {p}");
            }
        }
    }
    budget.check("link");
});
