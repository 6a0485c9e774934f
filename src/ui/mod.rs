//! Building blocks every view shares and that know nothing of the page's state: number and
//! time formatting, the share colours, the problem box, the panic banner, the menu button,
//! the cards and controls bound to a signal, signals that wait for work to last.
//! Everything else may use this layer; it uses nothing of the crate above it.

pub mod card;
pub mod controls;
pub mod format;
pub mod lasting;
pub mod menu;
pub mod palette;
pub mod panic;
pub mod problems;
pub mod words;
