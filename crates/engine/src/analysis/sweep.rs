//! Sweeps (SPEC 15): a policy question is a range, not a point. A sweep runs one scenario
//! for every value of one or more `--vary PATH=FROM..TO:STEP` (their cartesian product, in
//! the order given, the last varying fastest) and every seed `seed`, `seed+1`, ... of the
//! scenario, and reports one JSON line per run: `{"values": {PATH: v}, "seed": s,
//! "shares": {name: metrics}, "totals": metrics}`, the metrics of SPEC 8 (and 14) as the
//! result JSON writes them, without jobs, events or series.
//!
//! Pure like the rest of the engine: [`Sweep::run`] simulates one run (index
//! `value * seeds + seed`) and is `Sync`, so a caller may run them on as many threads as it likes; the
//! order of the lines is the order of the indices whatever the thread count.
//!
//! - A PATH is a validation path (`shares[0].borrow_limit`, `shares[1].limits.ml.g5.xlarge`,
//!   `workloads[0].arrival.poisson_per_hour`). Keys are resolved against the document
//!   itself, so an instance type's dots are part of its key; the path must exist in the
//!   scenario (a misspelt field would otherwise be only an unknown-field warning).
//! - Values are `FROM + i * STEP` for every `i` with a value `<= TO`, computed without
//!   accumulating (no drift) and in decimal when the bounds are written in decimal
//!   (`0.1..0.3:0.1` gives `0.1, 0.2, 0.3`). When FROM and STEP are whole the values are
//!   integers.
//! - [`Sweep::check`] validates every variant (values and seed) before anything runs; a
//!   refused variant is an error naming the path and the values.

use std::fmt::Write as _;

use serde_json::{Map, Value};

use crate::input::model::Scenario;
use crate::input::path::{Path, Seg};
use crate::output::json::{num, shares_and_totals_json, string};
use crate::output::stats::{nearest_rank, stats, Stats, MS_PER_HOUR};
use crate::{input::validate, simulation::Options, simulation::Sim, Problem};

/// At most this many values per `--vary`, and this many runs in one sweep: a typo in a step
/// must not plan a billion simulations.
pub const MAX_VALUES: usize = 100_000;
pub const MAX_RUNS: usize = 1_000_000;

/// Runs per chunk when `threads` threads run a sweep: enough to keep every thread busy, few
/// enough to stream the output (`quotasim sweep` and the Python package check, run and print
/// in chunks of this many runs).
pub fn chunk_len(threads: usize) -> usize {
    (threads * 16).max(64)
}

/// One `--vary PATH=FROM..TO:STEP`.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// The validation path, as written.
    pub path: String,
    /// The values, in order (`FROM + i * STEP`, inclusive of TO).
    pub values: Vec<Value>,
}

/// Parses `PATH=FROM..TO:STEP`. The problem's path is the argument's PATH as written
/// ([`Path::named`]: it is resolved only against a document, by [`Sweep::new`]), or the root
/// when there is none.
pub fn parse_vary(arg: &str) -> Result<Vary, Problem> {
    let usage = |msg: &str| {
        Problem::whole(format!(
            "--vary {arg}: {msg} (expected PATH=FROM..TO:STEP, e.g. shares[0].borrow_limit=0..200:50)"
        ))
    };
    let Some((path, range)) = arg.rsplit_once('=') else {
        return Err(usage("no '='"));
    };
    let path = path.trim();
    if path.is_empty() {
        return Err(usage("no PATH before '='"));
    }
    let bad = |msg: String| Problem::new(Path::named(path), format!("--vary {arg}: {msg}"));
    let Some((span, step)) = range.rsplit_once(':') else {
        return Err(bad("no ':STEP' after the range".into()));
    };
    let Some((from, to)) = span.split_once("..") else {
        return Err(bad("no 'FROM..TO' range before ':'".into()));
    };
    let number = |what: &str, s: &str| -> Result<f64, Problem> {
        match s.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(bad(format!("{what} {:?} is not a number", s.trim()))),
        }
    };
    let (f, t, st) = (
        number("FROM", from)?,
        number("TO", to)?,
        number("STEP", step)?,
    );
    if st <= 0.0 {
        return Err(bad(format!("STEP must be > 0 (got {})", step.trim())));
    }
    if t < f {
        return Err(bad(format!(
            "TO must be >= FROM (got {}..{})",
            from.trim(),
            to.trim()
        )));
    }
    let values = grid(from.trim(), to.trim(), step.trim(), (f, t, st)).map_err(bad)?;
    Ok(Vary {
        path: path.to_string(),
        values,
    })
}

/// Digits after the decimal point of a plain decimal (`None` with an exponent or too many).
fn decimals(s: &str) -> Option<u32> {
    if s.contains(['e', 'E']) {
        return None;
    }
    let d = s.split_once('.').map_or(0, |(_, frac)| frac.len());
    (d <= 12).then_some(d as u32)
}

/// A plain decimal as an integer count of `10^-d`, exactly (no float rounding).
fn scaled(s: &str, d: u32) -> Option<i128> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    if int.len() > 18 || !(int.chars().chain(frac.chars())).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let mut digits = String::from(int);
    digits.push_str(frac);
    for _ in frac.len()..d as usize {
        digits.push('0');
    }
    let v: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    Some(if neg { -v } else { v })
}

/// The values `FROM + i * STEP <= TO`: integers when FROM and STEP are whole; else exact
/// decimals when all three are written in decimal; else floats, each computed from `i`.
fn grid(
    from: &str,
    to: &str,
    step: &str,
    (f, t, st): (f64, f64, f64),
) -> Result<Vec<Value>, String> {
    let too_many = |n: f64| format!("{n} values: at most {MAX_VALUES} per --vary");
    // Whole values are written as integers: every one of them (up to TO) must be exact.
    let whole = f.fract() == 0.0
        && st.fract() == 0.0
        && f.abs() < 1e15
        && st.abs() < 1e15
        && t.abs() < 1e15;
    let exact = [from, to, step]
        .iter()
        .map(|s| decimals(s))
        .try_fold(0u32, |m, d| d.map(|d| m.max(d)));
    let scaled_all =
        exact.and_then(|d| Some((d, scaled(from, d)?, scaled(to, d)?, scaled(step, d)?)));
    if let Some((d, fi, ti, si)) = scaled_all.filter(|&(_, _, _, si)| si > 0) {
        // As floats FROM and TO may be equal where, written out, TO is below FROM
        // (55555555555555555..55555555555555553.10).
        if ti < fi {
            return Err(format!("TO must be >= FROM (got {from}..{to})"));
        }
        let n = (ti - fi) / si + 1;
        if n as usize > MAX_VALUES || n > MAX_VALUES as i128 {
            return Err(too_many(n as f64));
        }
        let unit = 10i128.pow(d);
        if whole {
            return Ok((0..n)
                .map(|i| Value::from(((fi + i * si) / unit) as i64))
                .collect());
        }
        let xs: Vec<f64> = (0..n)
            .map(|i| ((fi + i * si) as f64) / (unit as f64))
            .collect();
        return distinct(xs, step, to).map(|xs| xs.into_iter().map(float).collect());
    }
    let span = (t - f) / st;
    // A relative tolerance so that 0..1:0.1 written as floats still reaches 1.
    let n = (span + span.abs() * 1e-12 + 1e-12).floor() + 1.0;
    if n > MAX_VALUES as f64 {
        return Err(too_many(n));
    }
    let xs: Vec<f64> = (0..n as u64).map(|i| f + i as f64 * st).collect();
    Ok(distinct(xs, step, to)?
        .into_iter()
        .map(|x| {
            if whole {
                Value::from(x as i64)
            } else {
                float(x)
            }
        })
        .collect())
}

/// The values as given, or why they would not be distinct: past 2^53 a float's step between
/// neighbours is more than 1, so a STEP below it repeats values, whether the numbers are
/// computed as floats (1e16..1.00000000000001e16:1) or exactly in decimal and then turned
/// into floats (55555555555555555..55555555555575555.10:1).
fn distinct(xs: Vec<f64>, step: &str, to: &str) -> Result<Vec<f64>, String> {
    if xs.windows(2).any(|w| w[1] <= w[0]) {
        return Err(format!(
            "STEP {step} is too small for values as large as {to}: they would repeat (numbers keep about 15 significant digits)"
        ));
    }
    Ok(xs)
}

fn float(x: f64) -> Value {
    serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)
}

/// Resolves `path` against `doc`: the keys are found in the document (longest first, with
/// backtracking), so `limits.ml.g5.xlarge` finds the key `ml.g5.xlarge`. On failure, what
/// went wrong where the path got furthest.
fn resolve(doc: &Value, path: &str) -> Result<Path, String> {
    let mut furthest = (0usize, String::new());
    let mut steps = Vec::new();
    if walk(doc, path, path, &mut steps, &mut furthest) {
        Ok(Path::from_segs(steps))
    } else {
        Err(furthest.1)
    }
}

fn walk(
    v: &Value,
    rest: &str,
    full: &str,
    steps: &mut Vec<Seg>,
    furthest: &mut (usize, String),
) -> bool {
    let at = full.len() - rest.len();
    let here = if at == 0 {
        "the scenario".to_string()
    } else {
        full[..at].trim_end_matches('.').to_string()
    };
    fn note(furthest: &mut (usize, String), at: usize, msg: String) -> bool {
        if at >= furthest.0 {
            *furthest = (at, msg);
        }
        false
    }
    if rest.is_empty() {
        return true;
    }
    if let Some(inner) = rest.strip_prefix('[') {
        let Some((n, after)) = inner.split_once(']') else {
            return note(furthest, at, format!("an unclosed '[' after {here}"));
        };
        let Ok(i) = n.trim().parse::<usize>() else {
            return note(furthest, at, format!("[{n}] after {here} is not an index"));
        };
        let Value::Array(list) = v else {
            return note(furthest, at, format!("{here} is not a list"));
        };
        let Some(item) = list.get(i) else {
            return note(
                furthest,
                at,
                format!("{here} has {} entries (index {i})", list.len()),
            );
        };
        let after = match after.strip_prefix('.') {
            Some("") => return note(furthest, at, "a path ends with '.'".into()),
            Some(a) => a,
            None if after.is_empty() || after.starts_with('[') => after,
            None => return note(furthest, at, format!("expected '.' or '[' after [{n}]")),
        };
        steps.push(Seg::Idx(i));
        if walk(item, after, full, steps, furthest) {
            return true;
        }
        steps.pop();
        return false;
    }
    let Value::Object(map) = v else {
        return note(furthest, at, format!("{here} is not an object"));
    };
    let mut keys: Vec<&String> = map
        .keys()
        .filter(|k| {
            rest.starts_with(k.as_str())
                && matches!(rest.as_bytes().get(k.len()), None | Some(b'.') | Some(b'['))
        })
        .collect();
    crate::sort::compact_by(&mut keys, &|a, b| b.len().cmp(&a.len()));
    for k in keys {
        let after = &rest[k.len()..];
        let after = match after.strip_prefix('.') {
            Some("") => continue,
            Some(a) => a,
            None => after,
        };
        steps.push(Seg::Key(k.clone()));
        if walk(&map[k], after, full, steps, furthest) {
            return true;
        }
        steps.pop();
    }
    let want = rest.split(['.', '[']).next().unwrap_or(rest);
    let mut known: Vec<&str> = map.keys().map(String::as_str).collect();
    known.truncate(20);
    note(
        furthest,
        at,
        format!(
            "{here} has no field \"{want}\" (it has: {})",
            if known.is_empty() {
                "nothing".to_string()
            } else {
                known.join(", ")
            }
        ),
    )
}

/// Sets the value at a resolved `path` (which exists in `doc`).
fn set(doc: &mut Value, path: &Path, value: Value) {
    if let Some(v) = path.get_mut(doc) {
        *v = value;
    }
}

/// The four numbers `--summary` bands, per share: completion p90 (s), goodput, lost
/// instance-hours and deadline misses.
pub type Key = [f64; 4];

/// The names of [`Key`]'s numbers in the summary line.
pub const KEY_NAMES: [&str; 4] = ["completion_p90_s", "goodput", "lost_h", "deadline_misses"];

fn key(s: &Stats) -> Key {
    [
        s.completion.p90,
        s.goodput(),
        s.time.lost as f64 / MS_PER_HOUR,
        s.deadline_misses as f64,
    ]
}

/// One finished run: its JSON line and the numbers a summary bands.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub line: String,
    pub shares: Vec<(String, Key)>,
    pub totals: Key,
}

/// Whether a seed changes anything in the scenario document `doc`: generated workloads,
/// or a SPEC 14 recovery draw of an explicit job whose odds are neither 0 nor 1 (the
/// review's seeds and the Explore panel's note read this).
pub fn seeded(doc: &serde_json::Map<String, Value>) -> bool {
    let workloads = doc
        .get("workloads")
        .and_then(Value::as_array)
        .is_some_and(|l| !l.is_empty());
    let odds = |r: &Value, k: &str| {
        r.get(k)
            .and_then(Value::as_f64)
            .is_some_and(|p| p > 0.0 && p < 1.0)
    };
    workloads
        || doc
            .get("jobs")
            .and_then(Value::as_array)
            .is_some_and(|jobs| {
                jobs.iter().any(|j| {
                    j.get("recovery")
                        .is_some_and(|r| odds(r, "restore_failure") || odds(r, "invalid_resume"))
                })
            })
}

/// A planned sweep: the scenario document, the resolved paths and their values, the seeds.
#[derive(Clone, Debug)]
pub struct Sweep {
    doc: Value,
    varies: Vec<Vary>,
    steps: Vec<Path>,
    seeds: u64,
    points: usize,
}

impl Sweep {
    /// Plans a sweep of the scenario `text` over `varies` and `seeds` seeds. Refuses (with
    /// every problem, each naming its path) text that is not a JSON object, a path that does
    /// not exist in it, a path given twice, and a sweep of more than [`MAX_RUNS`] runs.
    /// Nothing is validated or simulated yet: see [`Sweep::check`].
    pub fn new(text: &str, varies: Vec<Vary>, seeds: u64) -> Result<Sweep, Vec<Problem>> {
        let doc: Value = serde_json::from_str(text)
            .map_err(|e| vec![Problem::whole(crate::input::json::syntax_error(&e))])?;
        if !doc.is_object() {
            return Err(vec![Problem::whole("the scenario must be a JSON object")]);
        }
        let mut problems = Vec::new();
        if seeds == 0 {
            problems.push(Problem::whole("--seeds must be at least 1"));
        }
        let mut steps = Vec::new();
        for (i, v) in varies.iter().enumerate() {
            if varies[..i].iter().any(|w| w.path == v.path) {
                problems.push(Problem::new(Path::named(&v.path), "is varied twice"));
            }
            match resolve(&doc, &v.path) {
                Ok(s) => steps.push(s),
                Err(why) => problems.push(Problem::new(
                    Path::named(&v.path),
                    format!("does not exist in the scenario: {why}"),
                )),
            }
        }
        let points = varies
            .iter()
            .try_fold(1usize, |n, v| n.checked_mul(v.values.len()));
        let runs = points.and_then(|p| p.checked_mul(seeds as usize));
        match runs {
            Some(r) if r <= MAX_RUNS => {}
            _ => problems.push(Problem::whole(format!(
                "the sweep has too many runs (values x seeds): at most {MAX_RUNS}"
            ))),
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(Sweep {
            doc,
            varies,
            steps,
            seeds,
            points: points.unwrap_or(0),
        })
    }

    /// Value combinations (the product of every `--vary`'s values; 1 with none).
    pub fn points(&self) -> usize {
        self.points
    }

    /// Runs: points x seeds.
    pub fn runs(&self) -> usize {
        self.points * self.seeds as usize
    }

    pub fn seeds(&self) -> u64 {
        self.seeds
    }

    /// The values of point `p`, one per `--vary`, in order (the last varying fastest).
    pub fn values(&self, p: usize) -> Vec<(&str, &Value)> {
        let mut rest = p;
        let mut out: Vec<(&str, &Value)> = self
            .varies
            .iter()
            .rev()
            .map(|v| {
                let i = rest % v.values.len();
                rest /= v.values.len();
                (v.path.as_str(), &v.values[i])
            })
            .collect();
        out.reverse();
        out
    }

    /// The scenario document of run `r` (point `r / seeds`, seed `seed + r % seeds`), and
    /// its seed.
    pub fn variant(&self, r: usize) -> (Value, u64) {
        let p = r / self.seeds as usize;
        let k = (r % self.seeds as usize) as u64;
        let mut doc = self.doc.clone();
        for ((_, v), steps) in self.values(p).into_iter().zip(&self.steps) {
            set(&mut doc, steps, v.clone());
        }
        let base = match doc.get("seed") {
            None | Some(Value::Null) => Some(0),
            Some(s) => s.as_u64(),
        };
        // An unusable seed is left as written, for the validator to name.
        if let Some(seed) = base.and_then(|b| b.checked_add(k)) {
            if let Value::Object(m) = &mut doc {
                if k > 0 || m.contains_key("seed") {
                    m.insert("seed".into(), Value::from(seed));
                }
            }
            return (doc, seed);
        }
        (doc, base.unwrap_or(0))
    }

    /// Whether a seed changes anything in some run of the sweep ([`seeded`] of any point's
    /// scenario): a sweep of a scenario with nothing random gives every seed the same run.
    pub fn random(&self) -> bool {
        if self.doc.as_object().is_some_and(seeded) {
            return true;
        }
        // Only a varied recovery draw can make a point random when the scenario is not.
        let varies_odds = self.varies.iter().any(|v| v.path.contains("recovery"));
        varies_odds
            && (0..self.points).any(|p| {
                let (doc, _) = self.variant(p * self.seeds as usize);
                doc.as_object().is_some_and(seeded)
            })
    }

    /// `PATH=v, PATH=v` of point `p`, for messages.
    fn describe(&self, p: usize) -> String {
        self.values(p)
            .iter()
            .map(|(path, v)| format!("{path}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Validates run `r` (SPEC 7); its warnings, or its errors, each naming its path and the
    /// variant (`shares[0].borrow_limit: must be >= 0 (with shares[0].borrow_limit=-1,
    /// seed 7)`).
    pub fn check(&self, r: usize) -> Result<Vec<Problem>, Vec<Problem>> {
        self.load(r).map(|(l, _)| l.warnings)
    }

    fn load(&self, r: usize) -> Result<(validate::Loaded, u64), Vec<Problem>> {
        let (doc, seed) = self.variant(r);
        let p = r / self.seeds as usize;
        validate::load_value(&doc)
            .map(|l| (l, seed))
            .map_err(|errors| {
                let with = if self.varies.is_empty() {
                    format!("seed {seed}")
                } else {
                    format!("{}, seed {seed}", self.describe(p))
                };
                errors
                    .into_iter()
                    .map(|e| {
                        let msg = format!("{} (with {with})", e.message);
                        Problem::new(e.path, msg).with_kind(e.kind)
                    })
                    .collect()
            })
    }

    /// Validates every run, in order: every warning (each once) or the errors (at most 50,
    /// then how many more).
    pub fn check_all(&self) -> Result<Vec<Problem>, Vec<Problem>> {
        merge((0..self.runs()).map(|r| self.check(r)))
    }

    /// Validates every run chunk by chunk, as `quotasim sweep` and the Python package do
    /// before anything runs: `check` validates the runs of one range (on as many threads as
    /// it likes) and returns [`Sweep::check`]'s results in order. Stops after the first chunk
    /// with an error (its errors, as [`merge`] words them); otherwise every warning, once.
    /// The chunk is [`chunk_len`] of the caller's thread count.
    pub fn check_chunked(
        &self,
        chunk: usize,
        mut check: impl FnMut(std::ops::Range<usize>) -> Vec<Result<Vec<Problem>, Vec<Problem>>>,
    ) -> Result<Vec<Problem>, Vec<Problem>> {
        let chunk = chunk.max(1);
        let mut warnings = Vec::new();
        for start in (0..self.runs()).step_by(chunk) {
            let checks = check(start..(start + chunk).min(self.runs()));
            warnings = merge(std::iter::once(Ok(std::mem::take(&mut warnings))).chain(checks))?;
        }
        Ok(warnings)
    }

    /// Simulates run `r` with metrics only (no event log, no series) and writes its line.
    pub fn run(&self, r: usize) -> Result<Outcome, Vec<Problem>> {
        let (loaded, seed) = self.load(r)?;
        Ok(self.outcome(r / self.seeds as usize, seed, &loaded.scenario))
    }

    fn outcome(&self, p: usize, seed: u64, sc: &Scenario) -> Outcome {
        let sim = Sim::new(sc, Options::summary()).run();
        let (shares, total) = stats(&sim);
        let mut out = String::with_capacity(512 + shares.len() * 900);
        out.push_str("{\"values\":");
        out.push_str(&self.values_json(p));
        let _ = write!(out, ",\"seed\":{seed},");
        shares_and_totals_json(sc, &shares, &total, &mut out);
        out.push('}');
        Outcome {
            line: out,
            shares: shares
                .iter()
                .zip(&sc.shares)
                .map(|(st, sh)| (sh.name.clone(), key(st)))
                .collect(),
            totals: key(&total),
        }
    }

    fn values_json(&self, p: usize) -> String {
        let map: Map<String, Value> = self
            .values(p)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect();
        Value::Object(map).to_string()
    }

    /// The `--summary` line of point `p` from the outcomes of its seeds (in seed order):
    /// per share and in total, for completion p90, goodput, lost hours and deadline misses,
    /// the median and the 10th-90th percentile band over the seeds (nearest-rank, as every
    /// percentile of the engine): `{"values": {..}, "seeds": n, "shares": {name:
    /// {"completion_p90_s": {"p10", "median", "p90"}, "goodput", "lost_h",
    /// "deadline_misses"}}, "totals": {..}}`.
    pub fn summary_line(&self, p: usize, outcomes: &[Outcome]) -> String {
        let mut out = String::from("{\"values\":");
        out.push_str(&self.values_json(p));
        let _ = write!(out, ",\"seeds\":{},\"shares\":{{", outcomes.len());
        let names: Vec<&str> = outcomes
            .first()
            .map(|o| o.shares.iter().map(|(n, _)| n.as_str()).collect())
            .unwrap_or_default();
        for (i, name) in names.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str(&string(name));
            out.push(':');
            let keys: Vec<Key> = outcomes
                .iter()
                .filter_map(|o| o.shares.get(i).map(|(_, k)| *k))
                .collect();
            band_json(&keys, &mut out);
        }
        out.push_str("},\"totals\":");
        let totals: Vec<Key> = outcomes.iter().map(|o| o.totals).collect();
        band_json(&totals, &mut out);
        out.push('}');
        out
    }
}

/// `{"completion_p90_s": {"p10", "median", "p90"}, ...}` over `keys`.
fn band_json(keys: &[Key], out: &mut String) {
    out.push('{');
    for (m, name) in KEY_NAMES.iter().enumerate() {
        let mut xs: Vec<f64> = keys.iter().map(|k| k[m]).collect();
        let [p10, p50, p90] = band(&mut xs);
        if m > 0 {
            out.push(',');
        }
        let _ = write!(
            out,
            "\"{name}\":{{\"p10\":{},\"median\":{},\"p90\":{}}}",
            num(p10),
            num(p50),
            num(p90)
        );
    }
    out.push('}');
}

/// The 10th, 50th and 90th nearest-rank percentiles of `xs` (all 0 when empty).
pub fn band(xs: &mut [f64]) -> [f64; 3] {
    if xs.is_empty() {
        return [0.0; 3];
    }
    crate::sort::compact_by(xs, &f64::total_cmp);
    let n = xs.len();
    [10, 50, 90].map(|p| xs[nearest_rank(p, n)])
}

/// Folds per-run checks: every distinct warning, or the errors (each distinct one, at most
/// 50, then a line saying how many more).
pub fn merge(
    checks: impl IntoIterator<Item = Result<Vec<Problem>, Vec<Problem>>>,
) -> Result<Vec<Problem>, Vec<Problem>> {
    const MAX: usize = 50;
    let (mut warnings, mut errors, mut more) = (Vec::new(), Vec::new(), 0usize);
    for c in checks {
        match c {
            Ok(w) => {
                for p in w {
                    if !warnings.contains(&p) {
                        warnings.push(p);
                    }
                }
            }
            Err(e) => {
                for p in e {
                    if errors.len() < MAX {
                        if !errors.contains(&p) {
                            errors.push(p);
                        }
                    } else {
                        more += 1;
                    }
                }
            }
        }
    }
    if errors.is_empty() {
        return Ok(warnings);
    }
    if more > 0 {
        errors.push(Problem::whole(format!("... and {more} more")));
    }
    Err(errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &Vary) -> Vec<i64> {
        v.values.iter().map(|x| x.as_i64().unwrap()).collect()
    }
    fn floats(v: &Vary) -> Vec<f64> {
        v.values.iter().map(|x| x.as_f64().unwrap()).collect()
    }

    /// Issue #34 (walk): seeds on a scenario with nothing random give the same run, and the
    /// sweep says whether that is so (generated workloads, recovery odds, a varied odds).
    #[test]
    fn a_sweep_knows_whether_its_seeds_change_anything() {
        let jobs = r#"{"shares":[{"name":"a","limits":{"t":1}}],"jobs":[{"id":"j","share":"a","instance_type":"t","submit_s":0,"work_s":60,"recovery":{"restore_failure":0}}]}"#;
        let vary = |p: &str| vec![parse_vary(p).unwrap()];
        let plain = Sweep::new(jobs, vary("shares[0].limits.t=1..3:1"), 5).unwrap();
        assert!(!plain.random());
        let odds =
            Sweep::new(jobs, vary("jobs[0].recovery.restore_failure=0..0.5:0.5"), 5).unwrap();
        assert!(odds.random());
        let gen = jobs.replace(r#""jobs":"#, r#""workloads":[{"share":"a"}],"jobs":"#);
        assert!(Sweep::new(&gen, vary("shares[0].limits.t=1..3:1"), 5)
            .unwrap()
            .random());
    }

    #[test]
    fn a_vary_parses_its_path_and_an_inclusive_range() {
        let v = parse_vary("shares[0].borrow_limit=0..200:50").unwrap();
        assert_eq!(v.path, "shares[0].borrow_limit");
        assert_eq!(ints(&v), [0, 50, 100, 150, 200]);
        assert!(v.values.iter().all(Value::is_i64), "whole stays integer");
        assert_eq!(ints(&parse_vary("a=0..2.5:1").unwrap()), [0, 1, 2]);
        assert_eq!(ints(&parse_vary("a=-2..2:2").unwrap()), [-2, 0, 2]);
        assert_eq!(ints(&parse_vary("a=5..5:1").unwrap()), [5]);
        let dots = parse_vary("shares[1].limits.ml.g5.xlarge=1..3:1").unwrap();
        assert_eq!(dots.path, "shares[1].limits.ml.g5.xlarge");
    }

    #[test]
    fn a_floating_step_does_not_drift() {
        let v = parse_vary("w=0.1..1:0.1").unwrap();
        let want = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];
        assert_eq!(floats(&v), want);
        let v = parse_vary("w=0..0.3:0.1").unwrap();
        assert_eq!(floats(&v), [0.0, 0.1, 0.2, 0.3]);
        assert!(v.values[0].is_f64(), "a fractional step gives floats");
        // With an exponent: FROM + i * STEP in floats, still reaching TO.
        let v = parse_vary("w=0..3e-1:1e-1").unwrap();
        assert_eq!(v.values.len(), 4);
        assert_eq!(floats(&v)[3], 3.0 * 0.1);
        assert_eq!(
            parse_vary("w=0..99.999:0.001").unwrap().values.len(),
            MAX_VALUES
        );
    }

    #[test]
    fn bad_varies_say_what_is_wrong() {
        for (arg, word) in [
            ("nothing", "'='"),
            ("=1..2:1", "PATH"),
            ("a=1..2", "STEP"),
            ("a=1:1", "FROM..TO"),
            ("a=x..2:1", "FROM"),
            ("a=1..inf:1", "TO"),
            ("a=1..2:0", "> 0"),
            ("a=1..2:-1", "> 0"),
            ("a=3..2:1", ">= FROM"),
            ("a=0..1e9:1", "at most"),
        ] {
            let e = parse_vary(arg).unwrap_err();
            assert!(e.to_string().contains(word), "{arg}: {e}");
        }
        assert_eq!(parse_vary("a.b=x..1:1").unwrap_err().path, "a.b");
    }

    const DOC: &str = r#"{"format":"quotalab/v1","seed":7,
        "shares":[{"name":"a","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW","borrow_limit":100},
                  {"name":"b","limits":{"ml.g5.xlarge":1, "ml.g5.2xlarge": 1},"strategy":"LEND"}],
        "workloads":[{"share":"a","count":5,"arrival":{"poisson_per_hour":4},"instance_type":"ml.g5.xlarge",
                      "work_s":600,"checkpoint":{"interval_s":300,"cost_s":10,"restore_s":20}}]}"#;

    #[test]
    fn paths_resolve_against_the_document_with_dotted_keys() {
        let doc: Value = serde_json::from_str(DOC).unwrap();
        let key = |k: &str| Seg::Key(k.into());
        assert_eq!(
            resolve(&doc, "shares[1].limits.ml.g5.xlarge")
                .unwrap()
                .segs(),
            [
                key("shares"),
                Seg::Idx(1),
                key("limits"),
                key("ml.g5.xlarge")
            ]
        );
        assert_eq!(
            resolve(&doc, "shares[1].limits.ml.g5.2xlarge")
                .unwrap()
                .segs()[3],
            key("ml.g5.2xlarge")
        );
        assert!(resolve(&doc, "workloads[0].checkpoint.interval_s").is_ok());
        assert!(resolve(&doc, "workloads[0].arrival.poisson_per_hour").is_ok());
        for (path, word) in [
            ("shares[2].borrow_limit", "has 2 entries"),
            ("shares[0].borow_limit", "no field \"borow_limit\""),
            ("shares[1].limits.ml.g5.4xlarge", "no field"),
            ("shares.x", "not an object"),
            ("seed[0]", "not a list"),
            ("shares[x]", "not an index"),
            ("shares[0", "unclosed"),
        ] {
            let e = resolve(&doc, path).unwrap_err();
            assert!(e.contains(word), "{path}: {e}");
        }
    }

    fn sweep(varies: &[&str], seeds: u64) -> Result<Sweep, Vec<Problem>> {
        let v = varies.iter().map(|a| parse_vary(a).unwrap()).collect();
        Sweep::new(DOC, v, seeds)
    }

    #[test]
    fn the_grid_is_the_product_last_fastest_then_seeds() {
        let s = sweep(
            &[
                "shares[0].borrow_limit=0..100:50",
                "shares[1].limits.ml.g5.xlarge=1..2:1",
            ],
            2,
        )
        .unwrap();
        assert_eq!((s.points(), s.runs()), (6, 12));
        let pts: Vec<String> = (0..s.points()).map(|p| s.describe(p)).collect();
        assert_eq!(
            pts[0],
            "shares[0].borrow_limit=0, shares[1].limits.ml.g5.xlarge=1"
        );
        assert_eq!(
            pts[1],
            "shares[0].borrow_limit=0, shares[1].limits.ml.g5.xlarge=2"
        );
        assert_eq!(
            pts[5],
            "shares[0].borrow_limit=100, shares[1].limits.ml.g5.xlarge=2"
        );
        let (doc, seed) = s.variant(3);
        assert_eq!(seed, 8);
        assert_eq!(doc["seed"], 8);
        assert_eq!(doc["shares"][1]["limits"]["ml.g5.xlarge"], 2);
        assert_eq!(doc["shares"][0]["borrow_limit"], 0);
    }

    #[test]
    fn missing_paths_are_all_named_before_anything_runs() {
        let e = sweep(
            &["shares[0].borow_limit=0..1:1", "jobs[0].work_s=1..2:1"],
            1,
        )
        .unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        assert_eq!(e[0].path, "shares[0].borow_limit");
        assert_eq!(e[1].path, "jobs[0].work_s");
        let e = sweep(&["seed=1..2:1", "seed=1..2:1"], 1).unwrap_err();
        assert!(e[0].message.contains("twice"));
        assert!(sweep(&[], 0).is_err());
    }

    #[test]
    fn a_refused_variant_names_its_path_and_values() {
        let s = sweep(&["shares[0].borrow_limit=-3..1:2"], 1).unwrap();
        let e = s.check_all().unwrap_err();
        assert!(
            e.iter().any(|p| p.path == "shares[0].borrow_limit"
                && p.message.contains("shares[0].borrow_limit=-3")),
            "{e:?}"
        );
        assert!(s.check(1).is_ok() && s.check(2).is_ok());
    }

    #[test]
    fn a_run_line_has_values_seed_shares_totals_and_no_log() {
        let s = sweep(&["workloads[0].checkpoint.interval_s=100..200:100"], 2).unwrap();
        s.check_all().unwrap();
        let o = s.run(1).unwrap();
        let v: Value = serde_json::from_str(&o.line).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["values", "seed", "shares", "totals"]);
        assert_eq!(v["values"]["workloads[0].checkpoint.interval_s"], 100);
        assert_eq!(v["seed"], 8);
        assert_eq!(v["totals"]["jobs"]["submitted"], 5);
        let summary: Value =
            serde_json::from_str(&s.summary_line(0, &[o.clone(), s.run(0).unwrap()])).unwrap();
        assert_eq!(summary["seeds"], 2);
        assert!(summary["shares"]["a"]["goodput"]["median"].is_number());
        assert!(summary["totals"]["deadline_misses"]["p90"].is_number());
    }

    #[test]
    fn the_band_is_nearest_rank() {
        let mut xs: Vec<f64> = (1..=10).rev().map(f64::from).collect();
        assert_eq!(band(&mut xs), [1.0, 5.0, 9.0]);
        assert_eq!(band(&mut [3.0]), [3.0; 3]);
        assert_eq!(band(&mut []), [0.0; 3]);
    }
}
