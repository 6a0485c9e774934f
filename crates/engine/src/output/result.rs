//! The SPEC 8 result under one name, as callers knew it before the output was split by
//! concern: statistics ([`super::stats`]), explanations ([`super::explain`]), the result JSON
//! ([`super::json`]) and the summary table ([`super::summary`]).

pub use super::explain::{explain_preempt, explain_reason, explain_recovery, explain_waiting};
pub use super::json::{secs, to_json};
pub use super::stats::{job_ends, stats, InstanceTime, JobCounts, JobEnd, Percentiles, Stats};
pub use super::summary::summary_table;
