//! What a digest costs to carry to the page: runs a scenario file natively, then encodes and
//! decodes its digest as the engine worker and the page do, with the job rows' and events'
//! shares apart (docs/PERFORMANCE.md, "Result transfer").
//!
//! `cargo run --release -p quotalab-engine-worker --example digest_cost -- SCENARIO.json`
use quotalab_engine::digest::DigestLimits;
use quotalab_engine_worker::protocol::{decode_result, encode_result};
use std::time::Instant;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let t = Instant::now();
    let d = quotalab_engine::run_digest(&text, DigestLimits::default()).unwrap();
    eprintln!(
        "run+digest {:?}; jobs {} events {}",
        t.elapsed(),
        d.jobs.len(),
        d.events.len()
    );
    let t = Instant::now();
    let bytes = encode_result(&[], &d).unwrap();
    eprintln!("encode {:?}, {} bytes", t.elapsed(), bytes.len());
    for _ in 0..3 {
        let t = Instant::now();
        let (_, d2) = decode_result(&bytes).unwrap();
        eprintln!("decode {:?}", t.elapsed());
        drop(d2);
    }
    let jobs = postcard::to_allocvec(&d.jobs).unwrap();
    let events = postcard::to_allocvec(&d.events).unwrap();
    eprintln!("jobs {} bytes, events {} bytes", jobs.len(), events.len());
    let t = Instant::now();
    let j: Vec<quotalab_engine::digest::JobRow> = postcard::from_bytes(&jobs).unwrap();
    eprintln!("jobs decode {:?} ({})", t.elapsed(), j.len());
    let t = Instant::now();
    let e: Vec<quotalab_engine::digest::EventRow> = postcard::from_bytes(&events).unwrap();
    eprintln!("events decode {:?} ({})", t.elapsed(), e.len());
}
