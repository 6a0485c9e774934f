//! The engine worker's protocol (crates/engine-worker/src/protocol.rs): the page and its
//! workers exchange postcard bytes, decoded by `Request::decode`, `Response::decode` and
//! `decode_result`.
//!
//! Properties: no panic; a refusal is an error message; what decodes encodes again, and that
//! encoding decodes and encodes to the same bytes (a fixed point after one round); a large
//! text or result taken out to travel beside the bytes comes back in its place; CPU time
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
            let (header, beside) = again.clone().split_text();
            let header_bytes = header.encode().expect("a request without its text encodes");
            let back = Request::decode(&header_bytes).expect("decodes");
            let back = match beside.as_deref() {
                Some(text) => back.with_text(text).expect("its text goes back in its place"),
                None => back,
            };
            // Compared as bytes: a NaN is not equal to itself.
            assert_eq!(back.encode().expect("encodes"), bytes, "request with its text beside");
        }
    }
    match Response::decode(data) {
        Err(e) => assert!(!e.is_empty()),
        Ok(resp) => {
            let bytes = resp.encode().expect("a decoded reply encodes");
            let again = Response::decode(&bytes).expect("an encoded reply decodes");
            assert_eq!(again.encode().expect("encodes"), bytes, "reply round trip");
            let mut header = again.clone();
            let text = header.take_text();
            let result = header.take_result();
            let header_bytes = header.encode().expect("a reply without its text encodes");
            let mut back = Response::decode(&header_bytes).expect("decodes");
            if let Some(text) = text {
                back.put_text(text).expect("its text goes back in its place");
            }
            if let (Some(result), Response::Done { result: slot, .. }) = (result, &mut back) {
                slot.0 = result;
            }
            assert_eq!(back.encode().expect("encodes"), bytes, "reply with its text beside");
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
