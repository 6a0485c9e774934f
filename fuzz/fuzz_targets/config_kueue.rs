//! Kueue YAML import (SPEC 13) and its round trip through the Kueue export (SPEC 16).
//! Properties: no panic; a refusal is problems with messages; what imports exports, imports
//! again, and is stable from there (the same shares, cohorts, capacity and model); CPU time
//! within the budget (YAML alias bombs and deep nesting are refused by `parse_documents`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use quotalab_engine::config::{ExportFormat, Format};

fuzz_target!(|data: &[u8]| {
    quotalab_fuzz::config::round_trip(data, Format::Kueue, ExportFormat::Kueue);
});
