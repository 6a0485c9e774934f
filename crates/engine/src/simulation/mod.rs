//! Simulation: runs a validated scenario instant by instant (SPEC 3-6). The simulator's
//! state and its books, the event loop that applies an instant's events and moves jobs
//! between states, the change-point series, the scheduling pass and waiting reasons,
//! preemption's victim selection, the closed-form arithmetic of a job's life and the
//! admission (fit) rules. Everything is deterministic: the same scenario gives the same
//! state after every step.

pub mod admission;
mod agenda;
pub mod aside;
mod circle;
mod cycle;
mod drained;
mod epochs;
pub mod events;
pub mod fair_sharing;
mod finished;
pub mod job;
pub mod kueue;
pub mod lifecycle;
mod memo;
mod offers;
pub mod pass;
pub mod preemption;
pub mod queues;
pub mod quota_tree;
mod ranked;
pub mod record;
pub mod recovery;
pub mod series;
pub mod share_value;
pub mod state;

pub use finished::Finished;
pub use record::{Integrals, PairValues, Series};
pub use state::*;
