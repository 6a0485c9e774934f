//! AWS JSON import (SPEC 13: CreateQuotaShare bodies, ListQuotaShares responses, the CLI
//! skeleton) and its round trip through the AWS JSON export.
//! Properties: no panic; a refusal is problems with messages; what imports exports, imports
//! again, and is stable from there; CPU time within the budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quotalab_engine::config::{ExportFormat, Format};

fuzz_target!(|data: &[u8]| {
    quotalab_fuzz::config::round_trip(data, Format::Aws, ExportFormat::AwsJson);
});
