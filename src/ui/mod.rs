//! Building blocks every view shares and that know nothing of the page's state: number and
//! time formatting, the share colours, the problem box and the panic banner.
//! Everything else may use this layer; it uses nothing of the crate above it.

pub mod format;
pub mod palette;
pub mod panic;
pub mod problems;
