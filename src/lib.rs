//! Quota Lab playground (placeholder).
