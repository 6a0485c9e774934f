//! What a digest costs to carry to the page: runs a scenario file natively, then encodes and
//! decodes its digest as the engine worker and the page do, with the job rows' and events'
//! shares apart (docs/PERFORMANCE.md, "Result transfer"), and what the timeline of the whole
//! run costs the engine worker that lays it out (`jobs::whole_timeline`).
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
    for _ in 0..2 {
        parts(&text);
        let t = Instant::now();
        let w = quotalab_engine_worker::jobs::whole_timeline(&text).unwrap();
        let bytes = postcard::to_allocvec(&w).unwrap();
        eprintln!(
            "whole-run timeline {:?} (simulated again), {} bars, {} markers, {} bytes",
            t.elapsed(),
            w.layout.bars.len(),
            w.layout.marks.len(),
            bytes.len()
        );
    }
}

/// The whole-run timeline's parts, timed apart.
fn parts(text: &str) {
    use quotalab_engine::pipeline::{produce, Product};
    use quotalab_report::timeline::{gantt, layout, WHOLE_RUN_LIMITS};
    let t = Instant::now();
    let loaded = quotalab_engine::load(text).unwrap();
    let v = t.elapsed();
    let t = Instant::now();
    let d = produce(&loaded.scenario, Product::Digest(WHOLE_RUN_LIMITS))
        .into_digest()
        .unwrap();
    let r = t.elapsed();
    let t = Instant::now();
    let s = d.segments();
    let sg = t.elapsed();
    let t = Instant::now();
    let g = gantt(&d, &s);
    let ga = t.elapsed();
    let t = Instant::now();
    let l = layout(&d, &g);
    eprintln!(
        "validate {v:?}, simulate + digest {r:?}, segments {sg:?}, gantt {ga:?}, layout {:?} ({} bars)",
        t.elapsed(),
        l.bars.len()
    );
}
