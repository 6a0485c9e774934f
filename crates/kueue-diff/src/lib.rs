//! The differential test of the Kueue model (SPEC 12.1): the engine's decisions against
//! those of Kueue's own scheduler, replayed by the Go harness in `oracle/kueue`.
//!
//! - [`expand`]: a Kueue-model scenario as the harness reads it (generated `workloads`
//!   become explicit jobs, by the engine's own generator);
//! - [`decisions`]: who is admitted, preempted (by whom) and completed when, from the
//!   engine's result and from the harness's answer, and the first difference;
//! - [`generate`]: random Kueue-model scenarios (cohorts up to three levels, every policy);
//! - [`oracle`]: the harness as a long-lived process (`kueue-oracle --lines`);
//! - [`minimize`]: the smallest scenario that still shows a difference.
//!
//! A test instrument, not product code: nothing in the engine depends on it.

pub mod decisions;
pub mod expand;
pub mod generate;
pub mod minimize;
pub mod oracle;
pub mod regressions;
