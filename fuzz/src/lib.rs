//! What every fuzz target shares (issue #35, docs/RELIABILITY.md): the per-input CPU-time
//! budget, the check that a refusal is a problem worth showing, and the SPEC 2/3 invariants
//! the structured target checks at every change point of a run.
//!
//! A target panics (libFuzzer reports a crash and keeps the input) when a property fails:
//! a panic inside the engine, a refusal without a message, an accepted input that does not
//! round-trip, an invariant broken, or an input that costs more CPU time than its budget.

pub mod config;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use quotalab_engine::admission::limit_of;
use quotalab_engine::model::{BorrowLimit, Strategy};
use quotalab_engine::sim::State;
use quotalab_engine::{Finished, Problem, Sim};

/// The allocator of every target: the system's, counting the bytes live now and their peak,
/// so that a target can bound the memory one input costs (libFuzzer's `-malloc_limit_mb`
/// needs a sanitizer's hooks; this does not).
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let live = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One mebibyte.
pub const MIB: usize = 1024 * 1024;

/// CPU time this process has used (not wall time: the fuzzer runs under `nice -n 19` on a
/// shared machine, where wall time says more about the neighbours than about the input).
pub fn cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the clock id is a constant libc knows.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A per-input budget (issue #35: "a fuzz input of 1 KB never costs a second or 100 MB"):
/// one second of CPU time and 100 MiB of memory allocated at once for anything up to 1 KiB,
/// as much again per further KiB, plus what the input asks for explicitly (generated jobs,
/// an inflated link), given with [`Budget::allow`].
pub struct Budget {
    start: Duration,
    limit: Duration,
    live: usize,
    memory: usize,
}

impl Budget {
    /// The budget of an input of `bytes` bytes.
    pub fn for_bytes(bytes: usize) -> Budget {
        let kib = (bytes as u64).div_ceil(1024).max(1);
        let live = LIVE.load(Ordering::Relaxed);
        PEAK.store(live, Ordering::Relaxed);
        Budget {
            start: cpu_time(),
            limit: Duration::from_secs(kib),
            live,
            memory: 100 * MIB * kib as usize,
        }
    }

    /// Allows `time` more CPU time and `memory` more bytes.
    pub fn allow(&mut self, time: Duration, memory: usize) {
        self.limit += time;
        self.memory = self.memory.saturating_add(memory);
    }

    /// Panics if the input has used more than its budget so far.
    pub fn check(&self, what: &str) {
        let used = cpu_time().saturating_sub(self.start);
        assert!(
            used <= self.limit,
            "{what}: {used:?} of CPU time, over the budget of {:?}",
            self.limit
        );
        let peak = PEAK.load(Ordering::Relaxed).saturating_sub(self.live);
        assert!(
            peak <= self.memory,
            "{what}: {} MiB allocated at once, over the budget of {} MiB",
            peak / MIB,
            self.memory / MIB
        );
    }
}

/// A refusal must be at least one problem, each with a message a user can read (SPEC 7: a
/// path and a message; the path is the root for the document as a whole).
pub fn check_refusal(what: &str, problems: &[Problem]) {
    assert!(!problems.is_empty(), "{what}: refused with no problem");
    for p in problems {
        check_problem(what, p);
    }
}

/// One problem: a non-empty message that is not a panic's (Rust's `panicked at `: a bare
/// "panicked" may be the input's own text, quoted back by the message).
pub fn check_problem(what: &str, p: &Problem) {
    assert!(
        !p.message.trim().is_empty(),
        "{what}: a problem without a message at {}",
        p.path
    );
    assert!(
        !p.message.contains("panicked at "),
        "{what}: a problem that reports a panic: {p}"
    );
}

/// SPEC 2/3 invariants at one change point of a run (the checks of
/// crates/engine/tests/properties.rs): instances held never exceed the capacity, RESERVE
/// shares' limits are never used by others, RESERVE and LEND shares never borrow, borrow caps
/// hold, the lendable pool is never over its size; and, when the scenario is not
/// overcommitted, quota used never exceeds capacity.
pub fn check_instant(sim: &Sim, overcommitted: bool) {
    let sc = sim.scenario();
    let shares = sim.config();
    let kueue = sc.is_kueue();
    for t in 0..sc.instance_types.len() {
        let u = sim.usage(t);
        let cap = sc.capacity[t];
        let held: u64 = (0..shares.len()).map(|s| sim.held(s, t)).sum();
        assert!(
            held <= cap,
            "t={} type {t}: held {held} > capacity {cap}",
            sim.now()
        );
        if kueue {
            continue;
        }
        if !overcommitted {
            assert!(
                u.sum_used <= cap,
                "t={} type {t}: used {} > capacity {cap}",
                sim.now(),
                u.sum_used
            );
            let reserved: u64 = shares
                .iter()
                .filter(|s| s.strategy == Strategy::Reserve)
                .map(|s| limit_of(s, t))
                .sum();
            let others: u64 = (0..shares.len())
                .filter(|&s| shares[s].strategy != Strategy::Reserve)
                .map(|s| sim.held(s, t))
                .sum();
            assert!(
                others + reserved <= cap,
                "t={} type {t}: non-RESERVE shares hold {others}, RESERVE owns {reserved}",
                sim.now()
            );
            assert!(
                u.pool_used <= u.pool_size,
                "t={} type {t}: lendable pool {} > {}",
                sim.now(),
                u.pool_used,
                u.pool_size
            );
        }
        for (s, share) in shares.iter().enumerate() {
            let used = u.used[s];
            let limit = limit_of(share, t);
            match share.strategy {
                Strategy::Reserve | Strategy::Lend => assert!(
                    used <= limit,
                    "t={} {} ({:?}) borrows: used {used} > limit {limit}",
                    sim.now(),
                    share.name,
                    share.strategy
                ),
                Strategy::LendAndBorrow => {
                    if let BorrowLimit::Percent(p) = share.borrow_limit {
                        let cap = limit.saturating_mul(p) / 100;
                        assert!(
                            used <= limit.saturating_add(cap),
                            "t={} {}: used {used} > limit {limit} + cap {cap}",
                            sim.now(),
                            share.name
                        );
                    }
                }
            }
        }
    }
}

/// At the end of a run: every job is in exactly one state that fits how it ended (a job
/// still waiting has a reason; one that succeeded did all its work; without a horizon no
/// job is left running or waiting to start), and instance time adds up exactly.
pub fn check_end(sim: &Finished, horizon: bool) {
    let sc = sim.scenario();
    for (i, (spec, r)) in sc.jobs.iter().zip(sim.jobs()).enumerate() {
        let id = sc.id_of(spec);
        let a = &sim.acc()[i];
        assert_eq!(
            a.useful() + a.lost + a.startup + a.checkpoint + a.grace,
            r.held,
            "{id}: useful+lost+startup+checkpoint+grace != held: {a:?}"
        );
        assert!(a.useful() >= 0 && a.lost >= 0, "{id}: negative time {a:?}");
        match r.state {
            State::Succeeded => assert_eq!(a.useful(), spec.work, "{id}: succeeded short"),
            State::Runnable => assert!(r.reason.is_some(), "{id}: RUNNABLE without a reason"),
            State::Rejected | State::Failed | State::Scheduled => {}
            _ if horizon => {}
            s => panic!("{id}: ended the run {s:?} without a horizon"),
        }
    }
}
