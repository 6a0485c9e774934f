//! The engine worker's protocol (crates/engine-worker/src/protocol.rs): the page and its
//! workers exchange postcard bytes, decoded by `Request::decode`, `Response::decode` and
//! `decode_result`.
//!
//! Properties: no panic; a refusal is an error message; what decodes encodes again, and that
//! encoding decodes and encodes to the same bytes (a fixed point after one round); CPU time
//! within the budget (no length prefix makes the decoder allocate what the bytes lack).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quotalab_engine_worker::protocol::{decode_result, encode_result, Request, Response};
use quotalab_fuzz::Budget;

fuzz_target!(|data: &[u8]| {
    let budget = Budget::for_bytes(data.len());
    match Request::decode(data) {
        Err(e) => assert!(!e.is_empty()),
        Ok(req) => {
            let bytes = req.encode().expect("a decoded request encodes");
            let again = Request::decode(&bytes).expect("an encoded request decodes");
            assert_eq!(
                again.encode().expect("encodes"),
                bytes,
                "request round trip"
            );
        }
    }
    match Response::decode(data) {
        Err(e) => assert!(!e.is_empty()),
        Ok(resp) => {
            let bytes = resp.encode().expect("a decoded reply encodes");
            let again = Response::decode(&bytes).expect("an encoded reply decodes");
            assert_eq!(again.encode().expect("encodes"), bytes, "reply round trip");
        }
    }
    match decode_result(data) {
        Err(e) => assert!(!e.is_empty()),
        Ok((warnings, digest)) => {
            let bytes = encode_result(&warnings, &digest).expect("a decoded result encodes");
            let (w2, d2) = decode_result(&bytes).expect("an encoded result decodes");
            assert_eq!(
                encode_result(&w2, &d2).expect("encodes"),
                bytes,
                "result round trip"
            );
        }
    }
    budget.check("worker protocol");
});
