//! Building blocks every view shares and that know nothing of the page's state: number and
//! time formatting, the share colours, DOM helpers, the problem box and the panic banner.
//! Everything else may use this layer; it uses nothing of the crate above it.

pub mod dom;
pub mod format;
pub mod palette;
pub mod panic;
pub mod problems;
