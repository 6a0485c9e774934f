//! Unit tests of the trace import (SPEC 11), by section, and the helpers they share.

use super::*;
use proptest::prelude::*;

mod philly;
mod props;
mod report;
mod rows;
mod scenario;
mod shares;
mod times;

fn opts() -> ImportOptions {
    ImportOptions {
        submit: "submit".into(),
        duration: Some("duration".into()),
        ..ImportOptions::default()
    }
}

fn run(csv: &str, opts: &ImportOptions) -> (Value, ImportReport) {
    match import(csv.as_bytes(), opts) {
        Ok(out) => out,
        Err(p) => panic!("import failed: {p}"),
    }
}

fn error(csv: &[u8], opts: &ImportOptions) -> Problem {
    match import(csv, opts) {
        Ok((v, _)) => panic!("import succeeded: {v}"),
        Err(p) => p,
    }
}

fn jobs(v: &Value) -> &Vec<Value> {
    v["jobs"].as_array().unwrap()
}

fn ids(v: &Value) -> Vec<&str> {
    jobs(v).iter().map(|j| j["id"].as_str().unwrap()).collect()
}

fn share_names(v: &Value) -> Vec<&str> {
    v["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect()
}

fn limits(v: &Value, itype: &str) -> Vec<u64> {
    v["shares"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["limits"][itype].as_u64().unwrap())
        .collect()
}

fn three_shares() -> String {
    // Demand (work x instances): a 60, b 30, c 10; jobs: a 1, b 2, c 3.
    "submit,duration,gpus,team\n\
     0,60,1,a\n0,10,1,b\n0,20,1,b\n0,2,1,c\n0,3,1,c\n0,5,1,c\n"
        .to_string()
}
