//! What a sweep asks: the setting (a validation path), its range, the seeds and the metric
//! shown; planned with the engine's [`Sweep`] and carried in the link as `sweep=...`.

use quotalab_engine::analysis::sweep::{parse_vary, Sweep};
use quotalab_engine::Problem;
use serde::{Deserialize, Serialize};

/// At most this many seeds per value on the page (a typo must not plan a night of runs).
pub const MAX_SEEDS: u64 = 200;
/// At most this many runs in one sweep on the page.
pub const MAX_RUNS: usize = 5_000;

/// The number the chart shows, per share and run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Metric {
    /// Completion time, 90th percentile (hours).
    #[default]
    CompletionP90,
    /// Useful / held instance time.
    Goodput,
    /// Lost instance-hours.
    LostHours,
    /// Jobs past their deadline.
    DeadlineMisses,
    /// The borrowed part of the useful work (SPEC 14 `useful_borrowed / useful`; without the
    /// interruption contract, borrowed / held instance time).
    BorrowedShare,
}

impl Metric {
    pub const ALL: [Metric; 5] = [
        Metric::CompletionP90,
        Metric::Goodput,
        Metric::LostHours,
        Metric::DeadlineMisses,
        Metric::BorrowedShare,
    ];

    /// Its index in a run's numbers ([`crate::explore::protocol::Numbers`]).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its name in the link.
    pub fn code(self) -> &'static str {
        match self {
            Metric::CompletionP90 => "p90",
            Metric::Goodput => "goodput",
            Metric::LostHours => "lost",
            Metric::DeadlineMisses => "misses",
            Metric::BorrowedShare => "borrowed",
        }
    }

    pub fn from_code(code: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.code() == code)
    }

    /// Its name in a run's hover line: `completion p90`, `goodput`.
    pub fn short(self) -> &'static str {
        match self {
            Metric::CompletionP90 => "completion p90",
            Metric::Goodput => "goodput",
            Metric::LostHours => "lost",
            Metric::DeadlineMisses => "deadline misses",
            Metric::BorrowedShare => "borrowed share",
        }
    }

    /// A value of the metric as a person reads it: `19 h`, `11 min`, `89.3 %`, `12.4 inst.-h`, `3`.
    pub fn show(self, x: f64) -> String {
        if !x.is_finite() {
            return self.none().to_string();
        }
        match self {
            // Hours in the numbers; said in the unit that reads best (`11 min`, not `0.2 h`).
            Metric::CompletionP90 => quotalab_engine::output::numbers::duration(x * 3600.0),
            Metric::Goodput | Metric::BorrowedShare => {
                format!("{} %", crate::ui::format::decimal(x * 100.0, 1))
            }
            Metric::LostHours => format!("{} inst.-h", crate::ui::format::decimal(x, 1)),
            Metric::DeadlineMisses => crate::ui::format::thousands(x.round()),
        }
    }

    /// Why a run has no value of the metric (the engine worker's NaN): a completion time
    /// needs a finished job, a goodput or a borrowed share a job that held instances.
    pub fn none(self) -> &'static str {
        match self {
            Metric::CompletionP90 => "no job finished",
            Metric::Goodput | Metric::BorrowedShare => "no job ran",
            Metric::LostHours | Metric::DeadlineMisses => "no value",
        }
    }

    /// As the metric menu and the chart's axis say it.
    pub fn label(self) -> &'static str {
        match self {
            Metric::CompletionP90 => "Completion time, p90",
            Metric::Goodput => "Goodput (useful / held)",
            Metric::LostHours => "Lost instance-hours",
            Metric::DeadlineMisses => "Deadline misses",
            Metric::BorrowedShare => "Borrowed share of useful work",
        }
    }
}

/// One sweep's settings, as typed (the range stays text: the engine reads `0.1` exactly).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub path: String,
    pub from: String,
    pub to: String,
    pub step: String,
    pub seeds: u64,
    pub metric: Metric,
}

impl Settings {
    /// `PATH=FROM..TO:STEP`, the engine's `--vary` argument.
    pub fn vary_arg(&self) -> String {
        format!(
            "{}={}..{}:{}",
            self.path.trim(),
            self.from.trim(),
            self.to.trim(),
            self.step.trim()
        )
    }

    /// Plans the sweep of `text`: the engine's [`parse_vary`] and [`Sweep::new`] problems,
    /// and the page's own run limits, before anything runs.
    pub fn plan(&self, text: &str) -> Result<Sweep, Vec<Problem>> {
        if self.path.trim().is_empty() {
            return Err(vec![Problem::whole("pick a setting to vary")]);
        }
        if !(1..=MAX_SEEDS).contains(&self.seeds) {
            return Err(vec![Problem::whole(format!(
                "seeds must be from 1 to {MAX_SEEDS} (got {})",
                self.seeds
            ))]);
        }
        let vary = parse_vary(&self.vary_arg()).map_err(|p| vec![p])?;
        let sweep = Sweep::new(text, vec![vary], self.seeds)?;
        if sweep.runs() > MAX_RUNS {
            return Err(vec![Problem::whole(format!(
                "{} runs ({} values × {} seeds): the page runs at most {MAX_RUNS}; widen the step or use fewer seeds",
                sweep.runs(),
                sweep.points(),
                sweep.seeds()
            ))]);
        }
        Ok(sweep)
    }

    /// The link's `sweep=` value: `PATH,FROM,TO,STEP,SEEDS,METRIC`, the path with every
    /// character but `A-Z a-z 0-9 . _ - [ ]` percent-encoded.
    pub fn to_link(&self) -> String {
        let mut out = String::new();
        for b in self.path.trim().bytes() {
            if b.is_ascii_alphanumeric() || b"._-[]".contains(&b) {
                out.push(b as char);
            } else {
                out.push_str(&format!("%{b:02X}"));
            }
        }
        for part in [self.from.trim(), self.to.trim(), self.step.trim()] {
            out.push(',');
            out.push_str(part);
        }
        out.push_str(&format!(",{},{}", self.seeds, self.metric.code()));
        out
    }

    /// Reads a link's `sweep=` value (hostile input: never panics; says what is wrong).
    pub fn from_link(text: &str) -> Result<Settings, String> {
        const MAX_LEN: usize = 1024;
        if text.len() > MAX_LEN {
            return Err(format!(
                "the link's sweep settings are {} characters long (at most {MAX_LEN})",
                text.len()
            ));
        }
        // From the right: the path may hold a comma (percent-decoded by the page).
        let parts: Vec<&str> = text.rsplitn(6, ',').collect();
        let [metric, seeds, step, to, from, path] = parts[..] else {
            return Err(
                "the link's sweep settings are not PATH,FROM,TO,STEP,SEEDS,METRIC".to_string(),
            );
        };
        let path = percent_decode(path)
            .ok_or("the link's sweep path is not valid percent-encoded text")?;
        if path.trim().is_empty() {
            return Err("the link's sweep names no setting".to_string());
        }
        for (what, v) in [("FROM", from), ("TO", to), ("STEP", step)] {
            if !v.trim().parse::<f64>().is_ok_and(f64::is_finite) {
                return Err(format!("the link's sweep {what} {v:?} is not a number"));
            }
        }
        let seeds = seeds
            .parse::<u64>()
            .ok()
            .filter(|s| (1..=MAX_SEEDS).contains(s))
            .ok_or_else(|| {
                format!("the link's sweep seeds {seeds:?} is not a number from 1 to {MAX_SEEDS}")
            })?;
        let metric = Metric::from_code(metric).ok_or_else(|| {
            format!(
                "the link's sweep metric {metric:?} is not one of {}",
                Metric::ALL.map(Metric::code).join(", ")
            )
        })?;
        Ok(Settings {
            path,
            from: from.trim().to_string(),
            to: to.trim().to_string(),
            step: step.trim().to_string(),
            seeds,
            metric,
        })
    }
}

/// `%XX` decoded (UTF-8 checked); `None` for a broken escape or bytes that are not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn metric_values_read_in_their_units() {
        assert_eq!(Metric::CompletionP90.show(19.007), "19 h");
        assert_eq!(Metric::CompletionP90.show(2.46), "2.5 h");
        // Issue #34: 10-minute jobs read in minutes, not "0.2 h".
        assert_eq!(Metric::CompletionP90.show(10.0 / 60.0), "10 min");
        assert_eq!(Metric::Goodput.show(0.893), "89.3 %");
        assert_eq!(Metric::LostHours.show(12.44), "12.4 inst.-h");
        assert_eq!(Metric::DeadlineMisses.show(3.0), "3");
        assert_eq!(Metric::CompletionP90.show(f64::NAN), "no job finished");
        assert_eq!(Metric::Goodput.show(f64::NAN), "no job ran");
    }

    use super::*;

    fn sample() -> Settings {
        Settings {
            path: "shares[1].limits.ml.g5.xlarge".into(),
            from: "0".into(),
            to: "0.5".into(),
            step: "0.1".into(),
            seeds: 5,
            metric: Metric::Goodput,
        }
    }

    #[test]
    fn settings_round_trip_through_the_link() {
        let s = sample();
        let link = s.to_link();
        assert_eq!(link, "shares[1].limits.ml.g5.xlarge,0,0.5,0.1,5,goodput");
        assert_eq!(Settings::from_link(&link).unwrap(), s);
        let odd = Settings {
            path: "shares[0].limits.a,b c".into(),
            ..sample()
        };
        let link = odd.to_link();
        assert!(!link.contains(' '), "{link}");
        assert_eq!(Settings::from_link(&link).unwrap(), odd);
        // The page hands the fragment percent-decoded: a raw comma in the path still reads.
        assert_eq!(
            Settings::from_link("shares[0].limits.a,b c,0,0.5,0.1,5,goodput")
                .unwrap()
                .path,
            "shares[0].limits.a,b c"
        );
        for m in Metric::ALL {
            assert_eq!(Metric::from_code(m.code()), Some(m));
        }
    }

    #[test]
    fn hostile_links_are_refused_with_a_reason() {
        for (text, word) in [
            ("", "PATH,FROM"),
            ("a,1,2", "PATH,FROM"),
            (",0,1,1,1,p90", "names no setting"),
            ("a%zz,0,1,1,1,p90", "percent"),
            ("a%ff,0,1,1,1,p90", "percent"),
            ("a,x,1,1,1,p90", "FROM"),
            ("a,0,inf,1,1,p90", "TO"),
            ("a,0,1,NaN,1,p90", "STEP"),
            ("a,0,1,1,0,p90", "seeds"),
            ("a,0,1,1,99999999999999999999,p90", "seeds"),
            ("a,0,1,1,3,fast", "metric"),
        ] {
            let e = Settings::from_link(text).unwrap_err();
            assert!(e.contains(word), "{text}: {e}");
        }
        assert!(Settings::from_link(&"a".repeat(5000))
            .unwrap_err()
            .contains("long"));
    }

    const DOC: &str = r#"{"format":"quotalab/v1","seed":3,"shares":[{"name":"a","limits":{"ml.g5.xlarge":2},"strategy":"LEND_AND_BORROW","borrow_limit":100}],
        "jobs":[{"id":"j","share":"a","instance_type":"ml.g5.xlarge","submit_s":0,"work_s":60}]}"#;

    #[test]
    fn plans_say_what_is_wrong_before_anything_runs() {
        let ok = Settings {
            path: "shares[0].borrow_limit".into(),
            from: "0".into(),
            to: "100".into(),
            step: "25".into(),
            seeds: 3,
            metric: Metric::Goodput,
        };
        let sweep = ok.plan(DOC).unwrap();
        assert_eq!((sweep.points(), sweep.runs()), (5, 15));
        let bad = |f: &dyn Fn(&mut Settings)| {
            let mut s = ok.clone();
            f(&mut s);
            s.plan(DOC).unwrap_err()[0].to_string()
        };
        assert!(bad(&|s| s.step = "0".into()).contains("STEP must be > 0"));
        assert!(bad(&|s| s.to = "-1".into()).contains("TO must be >= FROM"));
        assert!(bad(&|s| s.from = "x".into()).contains("not a number"));
        assert!(bad(&|s| s.path = "shares[0].borow_limit".into()).contains("does not exist"));
        assert!(bad(&|s| s.path = String::new()).contains("pick a setting"));
        assert!(bad(&|s| s.seeds = 0).contains("seeds"));
        assert!(bad(&|s| s.step = "0.001".into()).contains("at most"));
    }
}
