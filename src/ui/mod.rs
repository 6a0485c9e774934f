//! Building blocks every view shares and that know nothing of the page's state: number and
//! time formatting, the share colours, the problem box, the panic banner and the menu button.
//! Everything else may use this layer; it uses nothing of the crate above it.

pub mod format;
pub mod menu;
pub mod palette;
pub mod panic;
pub mod problems;
