//! Share links (SPEC 10): a scenario travels in a URL fragment as `#s=PAYLOAD`, where
//! PAYLOAD is the compact scenario JSON, zlib-compressed (RFC 1950), in unpadded base64url.
//!
//! Pure: no I/O. Decoding is hostile-input parsing: it never panics, and refuses garbage,
//! truncation, and any payload that inflates past [`MAX_INFLATED`] bytes. Inflation stops
//! reading at the limit (the payload is never inflated whole first). The web page and the
//! CLI share this one codec.

use std::io::{Read, Write};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use flate2::Compression;

use crate::Problem;

/// The largest scenario a link may carry, inflated (SPEC 10): 8 MiB.
pub const MAX_INFLATED: usize = 8 * 1024 * 1024;

/// The longest payload text considered at all. A valid payload of at most [`MAX_INFLATED`]
/// bytes of JSON is far shorter (zlib never grows data by more than a few bytes per 16 KiB,
/// base64 by a third), so anything longer is refused before decoding it.
const MAX_PAYLOAD_CHARS: usize = 2 * MAX_INFLATED;

fn problem(message: impl Into<String>) -> Problem {
    Problem::whole(message)
}

/// Encodes a scenario as a share-link payload (SPEC 10): the scenario JSON re-serialized
/// compactly (key order kept), zlib-compressed at the best level, in unpadded base64url.
///
/// The output is deterministic: the same JSON value always gives the same payload. The
/// scenario must be a JSON object; it is not validated against SPEC 7 here.
pub fn encode(scenario_json: &str) -> Result<String, Problem> {
    let value: serde_json::Value = serde_json::from_str(scenario_json)
        .map_err(|e| problem(format!("scenario is not valid JSON: {e}")))?;
    if !value.is_object() {
        return Err(problem("scenario is not a JSON object"));
    }
    let compact = serde_json::to_vec(&value)
        .map_err(|e| problem(format!("cannot serialize the scenario: {e}")))?;
    if compact.len() > MAX_INFLATED {
        return Err(problem(format!(
            "scenario is too large for a link: {} bytes of compact JSON, at most {} (8 MiB)",
            compact.len(),
            MAX_INFLATED
        )));
    }
    let mut encoder = ZlibEncoder::new(Vec::new(), Compression::best());
    encoder
        .write_all(&compact)
        .map_err(|e| problem(format!("cannot compress the scenario: {e}")))?;
    let compressed = encoder
        .finish()
        .map_err(|e| problem(format!("cannot compress the scenario: {e}")))?;
    Ok(URL_SAFE_NO_PAD.encode(compressed))
}

/// Decodes a share link back to scenario JSON (SPEC 10), pretty-printed with 2-space indents.
///
/// Accepts the bare payload, `s=PAYLOAD`, `#s=PAYLOAD`, or a whole URL containing
/// `#s=PAYLOAD` (a later `&`-separated fragment parameter is ignored), with surrounding
/// whitespace. Trailing `=` padding is tolerated. Refuses, with a message saying why:
/// invalid base64url, corrupt or truncated zlib data, bytes after the zlib stream, a payload
/// inflating past [`MAX_INFLATED`] (detected while inflating, reading at most one byte past
/// the limit), non-UTF-8 text, and text that is not a JSON object.
pub fn decode(text: &str) -> Result<String, Problem> {
    let payload = extract_payload(text);
    if payload.is_empty() {
        return Err(problem("link payload is empty"));
    }
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(problem(format!(
            "link payload is too long: {} characters (a link carries at most 8 MiB of JSON)",
            payload.len()
        )));
    }
    let compressed = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|e| problem(format!("link payload is not valid base64url: {e}")))?;

    let mut decoder = ZlibDecoder::new(compressed.as_slice());
    let mut inflated = Vec::new();
    let limit = u64::try_from(MAX_INFLATED)
        .unwrap_or(u64::MAX)
        .saturating_add(1);
    (&mut decoder)
        .take(limit)
        .read_to_end(&mut inflated)
        .map_err(|e| problem(format!("link payload is not valid zlib data: {e}")))?;
    if inflated.len() > MAX_INFLATED {
        return Err(problem("link payload inflates past 8 MiB"));
    }
    let consumed = usize::try_from(decoder.total_in()).unwrap_or(usize::MAX);
    if consumed < compressed.len() {
        return Err(problem(format!(
            "link payload is not valid zlib data: {} unexpected bytes after the end of the stream",
            compressed.len() - consumed
        )));
    }

    let json = String::from_utf8(inflated)
        .map_err(|e| problem(format!("link payload is not UTF-8 text: {e}")))?;
    let value: serde_json::Value = serde_json::from_str(&json)
        .map_err(|e| problem(format!("link payload is not JSON: {e}")))?;
    if !value.is_object() {
        return Err(problem(
            "link payload is JSON but not a scenario (not a JSON object)",
        ));
    }
    serde_json::to_string_pretty(&value)
        .map_err(|e| problem(format!("cannot print the decoded scenario: {e}")))
}

/// The payload inside `text`: after the last `#s=` if any, else after a leading `s=`,
/// else the whole trimmed text; cut at a following `&` (another fragment parameter).
fn extract_payload(text: &str) -> &str {
    let text = text.trim();
    let rest = if let Some(i) = text.rfind("#s=") {
        &text[i + 3..]
    } else if let Some(stripped) = text.strip_prefix("s=") {
        stripped
    } else {
        text
    };
    let rest = match rest.find('&') {
        Some(i) => &rest[..i],
        None => rest,
    };
    rest.trim()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SCENARIO: &str = r#"{
        "format": "quotalab/v1",
        "name": "AWS walkthrough",
        "seed": 7,
        "capacity": {"ml.g5.xlarge": 3},
        "shares": [
            {"name": "medium", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND"},
            {"name": "background", "limits": {"ml.g5.xlarge": 1}, "strategy": "LEND_AND_BORROW"}
        ],
        "jobs": [{"id": "bg-p3", "share": "background", "instance_type": "ml.g5.xlarge",
                  "submit_s": 0, "work_s": 300.5}]
    }"#;

    fn compress(bytes: &[u8]) -> String {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::best());
        e.write_all(bytes).unwrap();
        URL_SAFE_NO_PAD.encode(e.finish().unwrap())
    }

    fn pretty(json: &str) -> String {
        let v: serde_json::Value = serde_json::from_str(json).unwrap();
        serde_json::to_string_pretty(&v).unwrap()
    }

    fn refused(text: &str) -> String {
        match decode(text) {
            Ok(json) => panic!("decoded {text:?} to {json}"),
            Err(p) => p.message,
        }
    }

    #[test]
    fn round_trip_keeps_content_and_key_order() {
        let payload = encode(SCENARIO).unwrap();
        let back = decode(&payload).unwrap();
        assert_eq!(back, pretty(SCENARIO));
        // Key order is kept: "format" first, "jobs" last, "name" before "limits".
        assert!(back.find("\"format\"").unwrap() < back.find("\"jobs\"").unwrap());
        assert!(back.find("\"medium\"").unwrap() < back.find("\"background\"").unwrap());
        // Encoding the decoded text gives the same payload.
        assert_eq!(encode(&back).unwrap(), payload);
    }

    #[test]
    fn payload_is_unpadded_base64url() {
        let payload = encode(SCENARIO).unwrap();
        assert!(payload
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    }

    #[test]
    fn encoding_is_deterministic_and_compact() {
        let a = encode(SCENARIO).unwrap();
        let b = encode(SCENARIO).unwrap();
        assert_eq!(a, b);
        // Whitespace in the input does not matter: the compact form is what is compressed.
        let compact =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(SCENARIO).unwrap())
                .unwrap();
        assert_eq!(encode(&compact).unwrap(), a);
    }

    #[test]
    fn url_forms_are_accepted() {
        let payload = encode(SCENARIO).unwrap();
        let want = pretty(SCENARIO);
        for text in [
            payload.clone(),
            format!("#s={payload}"),
            format!("s={payload}"),
            format!("https://example.org/quotalab/#s={payload}"),
            format!("http://127.0.0.1:8080/index.html?x=1#s={payload}"),
            format!("https://example.org/#s={payload}&view=compare"),
            format!("  \n\t{payload}\n"),
            format!("  https://example.org/#s={payload}  "),
        ] {
            assert_eq!(decode(&text).unwrap(), want, "form {text:?}");
        }
    }

    #[test]
    fn padding_characters_are_tolerated_at_the_end_only() {
        let payload = encode(SCENARIO).unwrap();
        let want = pretty(SCENARIO);
        assert_eq!(decode(&format!("{payload}=")).unwrap(), want);
        assert_eq!(decode(&format!("{payload}==")).unwrap(), want);
        let mid = payload.len() / 2;
        let broken = format!("{}={}", &payload[..mid], &payload[mid..]);
        assert!(refused(&broken).starts_with("link payload is not valid base64url"));
    }

    #[test]
    fn garbage_is_refused_with_a_reason() {
        assert_eq!(refused(""), "link payload is empty");
        assert_eq!(refused("   "), "link payload is empty");
        assert_eq!(refused("#s="), "link payload is empty");
        assert!(refused("not a link!").starts_with("link payload is not valid base64url"));
        assert!(refused("a+b/").starts_with("link payload is not valid base64url"));
        assert!(refused("é").starts_with("link payload is not valid base64url"));
        // Valid base64url, not zlib.
        assert!(refused(&URL_SAFE_NO_PAD.encode(b"hello world"))
            .starts_with("link payload is not valid zlib data"));
        // Valid zlib, not UTF-8.
        assert!(
            refused(&compress(&[0xff, 0xfe, 0x00])).starts_with("link payload is not UTF-8 text")
        );
        // Valid UTF-8, not JSON.
        assert!(refused(&compress(b"{\"format\": ")).starts_with("link payload is not JSON"));
        // JSON, not an object.
        assert!(refused(&compress(b"[1, 2, 3]")).contains("not a scenario"));
        // Deep nesting is refused by the JSON parser, not by a stack overflow.
        let deep = "[".repeat(100_000);
        assert!(refused(&compress(deep.as_bytes())).starts_with("link payload is not JSON"));
    }

    #[test]
    fn trailing_bytes_after_the_stream_are_refused() {
        let payload = encode(SCENARIO).unwrap();
        let mut bytes = URL_SAFE_NO_PAD.decode(&payload).unwrap();
        bytes.extend_from_slice(b"junk");
        let msg = refused(&URL_SAFE_NO_PAD.encode(&bytes));
        assert!(msg.contains("after the end of the stream"), "{msg}");
    }

    #[test]
    fn truncation_at_every_length_is_refused() {
        let payload = encode(SCENARIO).unwrap();
        for len in 0..payload.len() {
            let cut = &payload[..len];
            assert!(
                decode(cut).is_err(),
                "payload truncated to {len} chars was accepted"
            );
            assert!(decode(&format!("#s={cut}")).is_err());
        }
        // Truncating the compressed bytes (rather than the text) is refused too.
        let bytes = URL_SAFE_NO_PAD.decode(&payload).unwrap();
        for len in 0..bytes.len() {
            let msg = refused(&URL_SAFE_NO_PAD.encode(&bytes[..len]));
            assert!(
                msg.starts_with("link payload is not valid zlib data")
                    || msg == "link payload is empty",
                "{msg}"
            );
        }
    }

    #[test]
    fn zlib_bomb_is_refused() {
        // 20 MiB of spaces compresses to about 20 KiB.
        let bomb = compress(&vec![b' '; 20 * 1024 * 1024]);
        assert!(bomb.len() < 100_000);
        assert_eq!(refused(&bomb), "link payload inflates past 8 MiB");
        // Exactly at the limit is not a bomb (the JSON then fails for another reason).
        let at_limit = compress(&vec![b' '; MAX_INFLATED]);
        assert!(refused(&at_limit).starts_with("link payload is not JSON"));
        let over = compress(&vec![b' '; MAX_INFLATED + 1]);
        assert_eq!(refused(&over), "link payload inflates past 8 MiB");
    }

    #[test]
    fn a_large_valid_scenario_round_trips() {
        let jobs: Vec<String> = (0..20_000)
            .map(|i| format!(r#"{{"id":"j-{i}","share":"a","instance_type":"ml.g5.xlarge","submit_s":{i},"work_s":60}}"#))
            .collect();
        let json = format!(
            r#"{{"format":"quotalab/v1","name":"big","jobs":[{}]}}"#,
            jobs.join(",")
        );
        let payload = encode(&json).unwrap();
        assert_eq!(decode(&payload).unwrap(), pretty(&json));
    }

    #[test]
    fn encode_refuses_non_scenarios() {
        assert!(encode("{")
            .unwrap_err()
            .message
            .starts_with("scenario is not valid JSON"));
        assert_eq!(
            encode("42").unwrap_err().message,
            "scenario is not a JSON object"
        );
    }

    proptest! {
        #[test]
        fn decode_never_panics_on_arbitrary_text(text in any::<String>()) {
            let _ = decode(&text);
        }

        #[test]
        fn decode_never_panics_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
            // Base64url-encoded bytes get past the base64 stage into zlib.
            let _ = decode(&URL_SAFE_NO_PAD.encode(&bytes));
            let _ = decode(&String::from_utf8_lossy(&bytes));
        }

        #[test]
        fn decode_never_panics_on_corrupted_payloads(
            flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8)
        ) {
            let mut bytes = URL_SAFE_NO_PAD.decode(encode(SCENARIO).unwrap()).unwrap();
            for (at, value) in flips {
                let i = at.index(bytes.len());
                bytes[i] = value;
            }
            let _ = decode(&URL_SAFE_NO_PAD.encode(&bytes));
        }
    }
}
