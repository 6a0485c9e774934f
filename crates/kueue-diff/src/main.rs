//! `kueue-diff`: the Kueue model against the real Kueue scheduler (SPEC 12.1).
//!
//!   kueue-diff oracle FILE             Kueue's decisions on a scenario (generated workloads
//!                                      expanded by the engine first)
//!   kueue-diff random N [--seed S] [--jobs LO..HI] [--capacity N] [--keep DIR] [--quiet]
//!                    [--min-identical P]
//!                                      N random scenarios through both (--jobs: each of
//!                                      LO to HI jobs, default 3..12; --capacity: every
//!                                      instance type's, default the sum of the quotas,
//!                                      which Kueue ignores); prints each
//!                                      difference with a minimal scenario (--quiet: one
//!                                      line, not minimized); --keep writes each minimal
//!                                      scenario as a regression fixture; exits 1 when a
//!                                      case differs, or with --min-identical when fewer
//!                                      than P% are identical
//!   kueue-diff case SEED CASE [--jobs LO..HI] [--capacity N]
//!                                      prints one generated scenario
//!   kueue-diff minimize FILE           the smallest scenario of FILE's on which the engine
//!                                      and Kueue still differ, with the difference
//!   kueue-diff check DIR               the engine against recorded fixtures (no Go needed)
//!   kueue-diff record FILE DIR NAME    records a scenario as the fixture DIR/NAME.json, with
//!                                      Kueue's decisions and, when they differ, the engine's
//!
//! `./run kueue-oracle` builds the harness and calls this.

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use quotalab_kueue_diff::{decisions, expand, generate, minimize, oracle::Oracle, regressions};
use serde_json::json;

fn usage() -> ExitCode {
    eprintln!("usage: kueue-diff oracle FILE | random N [--seed S] [--jobs LO..HI] [--capacity N] [--keep DIR] [--quiet] [--min-identical P] | case SEED CASE [--jobs LO..HI] [--capacity N] | minimize FILE | check DIR | record FILE DIR NAME");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("oracle") if args.len() == 2 => oracle(&args[1]),
        Some("random") if args.len() >= 2 => random(&args[1..]),
        Some("case") if args.len() >= 3 => case(&args[1..]),
        Some("check") if args.len() == 2 => regressions::check_dir(Path::new(&args[1])).map(|n| {
            println!("{n} regression fixtures: the engine decides as recorded");
            true
        }),
        Some("record") if args.len() == 4 => record(&args[1], &args[2], &args[3]),
        Some("minimize") if args.len() == 2 => minimize_file(&args[1]),
        _ => return usage(),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn read(path: &str) -> Result<String, String> {
    if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| e.to_string())?;
        Ok(s)
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))
    }
}

fn oracle(path: &str) -> Result<bool, String> {
    let text = read(path)?;
    let (explicit, _) = expand::expand(&text)?;
    let mut o = Oracle::start()?;
    let a = o.ask(&explicit)?;
    let out = json!({"kueue_version": a.kueue_version, "events": a.events});
    println!("{}", serde_json::to_string_pretty(&out).unwrap());
    Ok(true)
}

fn record(path: &str, dir: &str, name: &str) -> Result<bool, String> {
    let text = read(path)?;
    let scenario: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut o = Oracle::start()?;
    let file = regressions::record(Path::new(dir), name, &scenario, &mut o)?;
    println!("{file}");
    Ok(true)
}

/// A scenario found by a `--quiet` run (`case SEED CASE` writes it), shrunk while the
/// engine and Kueue still differ; false if they do not differ on it.
fn minimize_file(path: &str) -> Result<bool, String> {
    let text = read(path)?;
    let scenario: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let mut o = Oracle::start()?;
    if minimize::check(&mut o, &scenario)?.is_none() {
        println!("{path}: the engine decides as Kueue");
        return Ok(false);
    }
    let small = minimize::minimize(&mut o, &scenario);
    println!("{}", serde_json::to_string(&small).unwrap());
    if let Some(d) = minimize::check(&mut o, &small)? {
        print!("{d}");
    }
    Ok(true)
}

/// `case SEED CASE [--jobs LO..HI] [--capacity N]`: prints the scenario.
fn case(args: &[String]) -> Result<bool, String> {
    let number = |i: usize, what: &str| {
        args[i]
            .parse::<u64>()
            .map_err(|_| format!("{what} must be a whole number (got {:?})", args[i]))
    };
    let (seed, case) = (number(0, "SEED")?, number(1, "CASE")?);
    let mut draw = generate::Draw::default();
    let mut i = 2;
    while i < args.len() {
        if !draw.option(args, i)? {
            return Err(format!("unknown option {:?}", args[i]));
        }
        i += 2;
    }
    let s = draw.scenario(seed, case);
    println!("{}", serde_json::to_string_pretty(&s).unwrap());
    Ok(true)
}

fn random(args: &[String]) -> Result<bool, String> {
    let n: u64 = args[0]
        .parse()
        .map_err(|_| format!("N must be a whole number (got {:?})", args[0]))?;
    let mut seed = 1u64;
    let mut draw = generate::Draw::default();
    let mut keep: Option<String> = None;
    let mut quiet = false;
    let mut min_identical: Option<f64> = None;
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--seed" => {
                seed = args
                    .get(i + 1)
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seed takes a whole number")?;
                i += 1;
            }
            "--jobs" | "--capacity" => {
                draw.option(args, i)?;
                i += 1;
            }
            "--keep" => {
                keep = Some(args.get(i + 1).ok_or("--keep takes a directory")?.clone());
                i += 1;
            }
            "--quiet" => quiet = true,
            "--min-identical" => {
                min_identical = Some(
                    args.get(i + 1)
                        .and_then(|s| s.parse().ok())
                        .ok_or("--min-identical takes a percentage")?,
                );
                i += 1;
            }
            other => return Err(format!("unknown option {other:?}")),
        }
        i += 1;
    }
    let started = Instant::now();
    let mut o = Oracle::start()?;
    let (mut same, mut different, mut skipped, mut unsettled) = (0u64, 0u64, 0u64, 0u64);
    // Of the scenarios Kueue did not settle: the decisions before that instant identical, or not.
    let (mut unsettled_same, mut unsettled_different) = (0u64, 0u64);
    let mut engine_s = 0f64;
    let mut kueue_s = 0f64;
    let mut last_progress = Instant::now();
    for case in 0..n {
        // A long run says where it is on stderr, once a minute (its output stays the
        // differences and the last line).
        if last_progress.elapsed().as_secs() >= 60 {
            last_progress = Instant::now();
            eprintln!(
                "... {case} of {n} scenarios: {same} identical, {different} different, {unsettled} not settled, {skipped} not replayable ({:.0} s)",
                started.elapsed().as_secs_f64()
            );
        }
        let s = draw.scenario(seed, case);
        let text = serde_json::to_string(&s).unwrap();
        let (explicit, _) = match expand::expand(&text) {
            Ok(x) => x,
            Err(e) => {
                skipped += 1;
                if !quiet {
                    println!("case {case}: not replayable: {e}");
                }
                continue;
            }
        };
        let t0 = Instant::now();
        let (engine, engine_unsettled) = decisions::engine_run(&text)?;
        engine_s += t0.elapsed().as_secs_f64();
        let t0 = Instant::now();
        let kueue = match o.ask(&explicit) {
            Ok(a) => a,
            Err(e) if e.starts_with("not settled") => {
                unsettled += 1;
                println!("case {case} (seed {seed}): Kueue {e}");
                // What settled before that instant is compared all the same, and the
                // engine must find that its cycles do not settle there either.
                if let Some((at, before)) = o.unsettled.take() {
                    let engine_before: Vec<_> =
                        engine.iter().filter(|d| d.t_ms < at).cloned().collect();
                    let differs = match decisions::first_difference(&engine_before, &before) {
                        Some(d) => Some(d.one_line()),
                        None => match engine_unsettled.first() {
                            Some(&t) if t == at => None,
                            Some(&t) => Some(format!(
                                "the engine's cycles first never settle at t={}s",
                                expand::seconds(t)
                            )),
                            None => Some("the engine's cycles always settle".to_string()),
                        },
                    };
                    match differs {
                        None => unsettled_same += 1,
                        Some(d) => {
                            unsettled_different += 1;
                            println!(
                                "case {case} (seed {seed}), before Kueue stopped settling: {d}"
                            );
                        }
                    }
                }
                continue;
            }
            Err(e) => {
                skipped += 1;
                println!("case {case}: the Kueue reference refused it: {e}");
                o = Oracle::start()?;
                continue;
            }
        };
        kueue_s += t0.elapsed().as_secs_f64();
        // Kueue settled every instant: so must the engine (`unsettled_instants_s`).
        if let Some(&t) = engine_unsettled.first() {
            different += 1;
            println!(
                "case {case} (seed {seed}): the engine's cycles never settle at t={}s; Kueue's settle",
                expand::seconds(t)
            );
            continue;
        }
        match decisions::first_difference(&engine, &kueue.decisions) {
            None => same += 1,
            Some(d) if quiet && keep.is_none() => {
                different += 1;
                println!("case {case}: {}", d.one_line());
            }
            Some(_) => {
                different += 1;
                let small = minimize::minimize(&mut o, &s);
                let diff = minimize::check(&mut o, &small)?;
                if !quiet {
                    println!("case {case} (seed {seed}) differs; minimal scenario:");
                    println!("{}", serde_json::to_string(&small).unwrap());
                    if let Some(d) = &diff {
                        print!("{d}");
                    }
                }
                if let Some(dir) = &keep {
                    regressions::write(Path::new(dir), seed, case, &draw, &small, &mut o)?;
                }
            }
        }
    }
    // A difference before Kueue stopped settling is a difference.
    let compared = same + different + unsettled_different;
    let unsettled_detail = if unsettled == 0 {
        String::new()
    } else {
        format!(" ({unsettled_same} identical up to that instant, where the engine's do not settle either; {unsettled_different} not)")
    };
    let sizes = draw.described();
    let pct = if compared > 0 {
        same as f64 * 100.0 / compared as f64
    } else {
        0.0
    };
    println!(
        "{n} random scenarios (seed {seed}{sizes}): {same} identical, {different} different ({pct:.1}% identical), {unsettled} where Kueue did not settle{unsettled_detail}, {skipped} not replayable; engine {engine_s:.2} s, Kueue {kueue_s:.2} s, in all {:.1} s",
        started.elapsed().as_secs_f64()
    );
    Ok(match min_identical {
        Some(floor) if pct < floor => {
            println!("FAILED: {pct:.1}% identical, below the floor of {floor}%");
            false
        }
        Some(_) => true,
        None => different + unsettled_different == 0,
    })
}
