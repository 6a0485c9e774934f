//! Native and wasm give byte-identical results (SPEC 8): this runs the engine's
//! determinism mix in headless Chromium and checks the length and FNV-1a hash that the
//! native test `crates/engine/tests/determinism.rs` pins in `mix.expected`.

use wasm_bindgen_test::*;

const MIX: &str = include_str!("../../crates/engine/tests/determinism/mix.json");
const EXPECTED: &str = include_str!("../../crates/engine/tests/determinism/mix.expected");

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[wasm_bindgen_test]
fn wasm_result_bytes_match_native() {
    let out = quotalab_engine::run_json(MIX).expect("valid");
    let got = format!(
        "bytes={} fnv1a64={:016x}\n",
        out.len(),
        fnv1a64(out.as_bytes())
    );
    assert_eq!(
        got, EXPECTED,
        "the wasm engine's result differs from the native one"
    );
}
