//! Output: what a finished simulation reports (SPEC 8). Per-share and total statistics,
//! the sentences that explain preemptions and waiting reasons, the result JSON written field
//! by field, the human summary table of the CLI, and the compact typed digest a UI draws
//! from. Nothing here decides anything: it only reads a finished [`crate::simulation::Sim`].

pub mod describe;
pub mod digest;
pub mod explain;
pub mod json;
pub mod numbers;
pub mod result;
pub mod stats;
pub mod stuck;
pub mod summary;
pub mod tree_view;
