//! The sweep's `--vary PATH=FROM..TO:STEP` grammar (SPEC 15): each line of the input is one
//! `--vary`, planned against a small scenario (`www/presets/aws-walkthrough.json`).
//!
//! Properties: no panic; a refusal is a problem with a message; a parsed `--vary` has between
//! 1 and `MAX_VALUES` values, in increasing order, each a finite number; a planned sweep has
//! the product of the value counts as points, and its first and last runs validate or are
//! refused with problems (each naming the variant); CPU time within the budget.
#![no_main]

use libfuzzer_sys::fuzz_target;
use quotalab_engine::analysis::sweep::{self, Sweep};
use quotalab_fuzz::{check_problem, check_refusal, Budget};

const BASE: &str = include_str!("../../www/presets/aws-walkthrough.json");

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let budget = Budget::for_bytes(data.len());
    let mut varies = Vec::new();
    for line in text.lines().take(4) {
        match sweep::parse_vary(line) {
            Err(p) => check_problem("--vary", &p),
            Ok(v) => {
                assert!(
                    !v.values.is_empty() && v.values.len() <= sweep::MAX_VALUES,
                    "{line}: {} values",
                    v.values.len()
                );
                let xs: Vec<f64> = v
                    .values
                    .iter()
                    .map(|x| x.as_f64().expect("a --vary value is a number"))
                    .collect();
                assert!(
                    xs.iter().all(|x| x.is_finite()),
                    "{line}: a value is not finite"
                );
                assert!(
                    xs.windows(2).all(|w| w[0] < w[1]),
                    "{line}: values not increasing: {:?}",
                    &xs[..xs.len().min(8)]
                );
                varies.push(v);
            }
        }
    }
    let seeds = 1 + u64::from(data.first().copied().unwrap_or(0) % 3);
    match Sweep::new(BASE, varies.clone(), seeds) {
        Err(problems) => check_refusal("sweep", &problems),
        Ok(sw) => {
            let points: usize = varies.iter().map(|v| v.values.len()).product();
            assert_eq!(sw.points(), points);
            assert_eq!(sw.runs(), points * seeds as usize);
            for r in [0, sw.runs() - 1] {
                if let Err(problems) = sw.check(r) {
                    check_refusal("sweep run", &problems);
                }
            }
        }
    }
    budget.check("--vary");
});
