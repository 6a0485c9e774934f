//! Same scenario, same bytes (SPEC 8): the result of `tests/determinism/mix.json` is pinned
//! by its length and FNV-1a hash in `mix.expected`. The app's wasm test
//! (`tests/determinism.rs` at the repository root) checks the same pin in headless
//! Chromium, so together they prove native and wasm runs give byte-identical output.
//! After a deliberate change: `UPDATE_EXPECT=1 cargo test -p quotalab-engine --test determinism`.

const MIX: &str = include_str!("determinism/mix.json");

/// FNV-1a, 64-bit: small, portable, enough to pin bytes.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn result_bytes_are_pinned() {
    let out = quotalab_engine::run_json(MIX).expect("valid");
    let got = format!(
        "bytes={} fnv1a64={:016x}\n",
        out.len(),
        fnv1a64(out.as_bytes())
    );
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/determinism/mix.expected"
    );
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, &got).unwrap();
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        got, expected,
        "result bytes changed (UPDATE_EXPECT=1 to re-pin after review)"
    );
    // And it is a meaningful run: preemptions of both kinds happened.
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["totals"]["preemptions"]["reclaim"].as_u64().unwrap() > 0);
    assert!(v["totals"]["preemptions"]["in_share"].as_u64().unwrap() > 0);
}
