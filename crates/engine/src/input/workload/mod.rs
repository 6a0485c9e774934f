//! Workload generators (SPEC 7 `workloads`): a compact way to describe many jobs.
//!
//! A workload names a share, an instance type, an arrival process and a distribution for
//! each numeric job field; [`generate`] turns the scenario's workloads and `seed` into
//! [`JobSpec`](crate::input::model::JobSpec)s. Generation is pure and deterministic: the same scenario gives the same jobs,
//! bit for bit, natively and in the browser (wasm). The recipe below is part of that
//! reproducibility contract: changing any step changes every generated scenario, and the
//! golden test at the bottom of `generate.rs` exists to catch it.
//!
//! # Random numbers
//!
//! - Generator: ChaCha8 (`rand_chacha::ChaCha8Rng`), seeded with
//!   `ChaCha8Rng::seed_from_u64(seed)` where `seed` is the scenario's `seed`, then switched to
//!   stream `i` with `set_stream(i)`, where `i` is the workload's 0-based index in
//!   `workloads`. Each workload has its own stream, so editing, adding or removing one
//!   workload never changes the jobs of an earlier one (a removed workload shifts the indices,
//!   hence the streams, of the later ones).
//! - Uniform draw: `u = (x >> 11) as f64 * 2^-53` from the next raw `u64` `x` (`next_u64`),
//!   so `u` is a multiple of 2^-53 in `[0, 1)` and `1 - u` is exact and in `(0, 1]`.
//! - Transcendentals come from the `libm` crate (never `std`), whose `log`, `exp` and `cos`
//!   are portable software implementations, so native and wasm agree bit for bit.
//!
//! # Sampling (per draw `u`, or pair of draws `u1`, `u2`)
//!
//! | distribution | value |
//! |---|---|
//! | `{"fixed": x}` (or a bare number) | `x` (uses no draw) |
//! | `{"uniform": [a, b]}` | `a + (b - a) * u1`, kept within `[a, b]` |
//! | `{"exponential": {"mean": m}}` | `-m * ln(1 - u1)` (inversion) |
//! | `{"lognormal": {"median": m, "sigma": s}}` | `m * exp(s * z)`, `z = sqrt(-2 ln(1 - u1)) * cos(2 pi u2)` (Box-Muller, cosine branch) |
//! | `{"choice": [[v, w], ..]}` | the first entry with `w > 0` whose running weight sum exceeds `u1 * sum(w)` |
//!
//! # Draw layout
//!
//! Job `j` (0-based, in draw order) of a workload reads exactly 9 consecutive draws of the
//! workload's stream, `u[0..9]`, whether or not it uses them, so that changing one field's
//! distribution never shifts the values of another field:
//!
//! | draws | field |
//! |---|---|
//! | `u[0]` | arrival (`poisson_per_hour`: the gap since the previous job; `uniform`: the time; `at_s`: unused) |
//! | `u[1]`, `u[2]` | `instances` |
//! | `u[3]`, `u[4]` | `work_s` |
//! | `u[5]`, `u[6]` | `priority` |
//! | `u[7]`, `u[8]` | `startup_s` |
//!
//! Arrival times:
//! - `{"poisson_per_hour": r}`: exponential gaps of mean `3600 / r` seconds, summed in `f64`
//!   from `t = 0` (the first job arrives at the first gap); `count` jobs.
//! - `{"uniform": [from_s, to_s]}`: `count` times uniform in `[from_s, to_s]`.
//! - `{"at_s": [t, ..]}`: job `j` arrives at the list's `j`-th time; one job per entry.
//!
//! Every time is rounded to integer milliseconds (`ms_from_s`); the jobs are then sorted by
//! submit time with a stable sort (a no-op for Poisson arrivals), so each job keeps the field
//! values drawn with its arrival. Jobs get ids `<share>-<n>`, `n` counting from 1 per share
//! across all of that share's workloads in workload order, and within a workload in arrival
//! order. The jobs of all workloads are returned in workload order.
//!
//! # From sampled values to job fields
//!
//! - `instances`: rounded to the nearest integer (halves away from zero), clamped to
//!   `1..=`[`MAX_INSTANCES`].
//! - `priority`: rounded, clamped to `0..=9999` (the Kueue model: to the 32-bit range).
//! - `work_s`: rounded to milliseconds, clamped to at least 1 ms (SPEC 2: work > 0).
//! - `startup_s`: rounded to milliseconds, clamped to at least 0.
//! - `deadline_factor` `f`: the job's deadline (relative to its submit time) is
//!   `round(f * work)` milliseconds, `work` being the job's final work in milliseconds.
//! - Every time (submit, work, startup, deadline) is also clamped to at most
//!   [`MAX_TIME_S`] seconds, so that no sum of times can overflow; real scenarios never
//!   come near it.

use crate::input::model::Checkpoint;

/// Largest number of instances a generated job can ask for (sampled values are clamped).
pub use crate::input::model::limits::MAX_INSTANCES;
/// Largest generated time, in seconds (sampled values are clamped).
pub use crate::input::model::limits::MAX_TIME_S;
/// Largest `count` (or `at_s` list) of one workload (see [`crate::input::model::limits`]).
pub use crate::input::model::limits::MAX_WORKLOAD_COUNT as MAX_COUNT;

use crate::input::model::limits::MAX_TIME_MS;

/// Highest job priority of the AWS model, as sampled values are clamped to it.
const MAX_PRIORITY: f64 = crate::input::model::limits::MAX_PRIORITY as f64;

/// Draws read per job (see the module doc, "Draw layout").
const DRAWS_PER_JOB: usize = 9;

/// A numeric field: a number or a distribution (SPEC 7). Values are in the field's unit
/// (seconds for `work_s` and `startup_s`).
#[derive(Clone, Debug, PartialEq)]
pub enum Dist {
    Fixed(f64),
    Uniform(f64, f64),
    Exponential {
        mean: f64,
    },
    Lognormal {
        median: f64,
        sigma: f64,
    },
    /// `(value, weight)` pairs; weights >= 0 with a positive sum.
    Choice(Vec<(f64, f64)>),
}

/// When a workload's jobs are submitted (SPEC 7 `arrival`), in seconds.
#[derive(Clone, Debug, PartialEq)]
pub enum Arrival {
    /// `{"poisson_per_hour": r}`: a Poisson process of `r` jobs per hour from t = 0.
    PoissonPerHour(f64),
    /// `{"uniform": [from_s, to_s]}`: independent uniform times in `[from_s, to_s]`.
    Uniform(f64, f64),
    /// `{"at_s": [..]}`: one job at each listed time (the list's length is the job count;
    /// [`Workload::count`] is not used).
    At(Vec<f64>),
}

/// A validated workload (SPEC 7): `count` jobs of one share and instance type.
#[derive(Clone, Debug, PartialEq)]
pub struct Workload {
    /// Index into the scenario's shares.
    pub share: usize,
    /// The share's name, for the generated ids `<share>-<n>`.
    pub share_name: String,
    pub count: u64,
    pub arrival: Arrival,
    /// Index into the scenario's instance types.
    pub instance_type: usize,
    pub instances: Dist,
    pub work_s: Dist,
    pub priority: Dist,
    pub startup_s: Dist,
    pub checkpoint: Option<Checkpoint>,
    pub checkpoint_on_preempt: bool,
    /// `None` = unlimited retries.
    pub preemption_retries: Option<u64>,
    /// Deadline = factor x the job's work, relative to its submit time.
    pub deadline_factor: Option<f64>,
    /// SPEC 14 fields, copied to every generated job.
    pub recovery: Option<crate::input::model::Recovery>,
    pub on_retries_exhausted: crate::input::model::OnExhausted,
    pub escalate: Option<crate::input::model::Escalate>,
    /// SPEC 12: the scenario follows the Kueue model, so sampled priorities are clamped to
    /// the 32-bit range instead of SPEC 2's `0..=9999`.
    pub kueue: bool,
}

mod dist;
mod generate;
mod parse;
mod readers;

pub use generate::{generate, generate_into, id_bytes, job_count};
pub use parse::{parse, CHECKPOINT_FIELDS, FIELDS};
