//! SPEC 9.1 "Like with like": completion compared over the same jobs, those that
//! succeeded under all three policies (`matched`), with each run's successes beside it.

use crate::input::variant::Policy;
use crate::output::result;

/// Completion times (end - submit of SUCCEEDED jobs) of one share in one run, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Completion {
    /// Jobs the percentiles are over (0: they are not defined).
    pub n: u64,
    pub p50_s: f64,
    pub p90_s: f64,
}

impl Completion {
    fn of_ms(ms: Vec<crate::input::model::Ms>) -> Completion {
        let p = result::Percentiles::of(ms);
        Completion {
            n: p.n,
            p50_s: p.p50,
            p90_s: p.p90,
        }
    }
}

/// SPEC 9.1 `matched` for one share: completion p50 and p90 under each policy over the
/// same `n` jobs, those of the share (as given) that succeeded in all three runs. A job
/// resubmitted to another share (SPEC 14) counts where the as-given run ended it.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Matched {
    pub share: usize,
    pub name: String,
    pub n: u64,
    /// In [`Policy::ALL`] order.
    pub runs: [Completion; 3],
    /// Jobs of the share that succeeded in each run, in [`Policy::ALL`] order.
    pub succeeded: [u64; 3],
}

impl Matched {
    /// The completion of `policy` over the matched jobs.
    pub fn of(&self, policy: Policy) -> &Completion {
        &self.runs[policy as usize]
    }

    /// SPEC 9.1: whether `n` is under 90% of the jobs that succeeded in either of the runs
    /// of `a` and `b` (a completion verdict on them must say so).
    pub fn thin(&self, a: Policy, b: Policy) -> bool {
        let either = self.succeeded[a as usize].max(self.succeeded[b as usize]);
        self.n * 10 < either * 9
    }
}

/// SPEC 9.1 `matched` from each run's per-job completions (share, end - submit of a
/// SUCCEEDED job; indexed by job, the same jobs in every run: a policy changes only the
/// shares).
pub fn matched(
    names: &[&str],
    done: [&[Option<(u32, crate::input::model::Ms)>]; 3],
) -> Vec<Matched> {
    let mut samples: Vec<[Vec<crate::input::model::Ms>; 3]> = vec![Default::default(); names.len()];
    let mut succeeded = vec![[0u64; 3]; names.len()];
    for (k, run) in done.iter().enumerate() {
        for (s, _) in run.iter().flatten() {
            if let Some(c) = succeeded.get_mut(*s as usize) {
                c[k] += 1;
            }
        }
    }
    for (j, given) in done[0].iter().enumerate() {
        let Some((share, g)) = *given else { continue };
        let (Some(Some((_, p))), Some(Some((_, o)))) = (done[1].get(j), done[2].get(j)) else {
            continue;
        };
        if let Some(v) = samples.get_mut(share as usize) {
            v[0].push(g);
            v[1].push(*p);
            v[2].push(*o);
        }
    }
    names
        .iter()
        .zip(samples)
        .zip(succeeded)
        .enumerate()
        .map(|(share, ((name, [g, p, o]), succeeded))| Matched {
            share,
            name: name.to_string(),
            n: g.len() as u64,
            runs: [
                Completion::of_ms(g),
                Completion::of_ms(p),
                Completion::of_ms(o),
            ],
            succeeded,
        })
        .collect()
}

/// `matched` as JSON (SPEC 9.1): `{share: {"n": N, "as_given": {"p50_s", "p90_s"},
/// "partitioned": {..}, "pooled": {..}}}` (percentiles 0 when N is 0, as SPEC 8's).
pub fn matched_json(m: &[Matched]) -> String {
    use crate::output::json::{num, string};
    let mut out = String::from("{");
    for (i, s) in m.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!("{}:{{\"n\":{}", string(&s.name), s.n));
        for policy in Policy::ALL {
            let c = s.of(policy);
            out.push_str(&format!(
                ",\"{}\":{{\"p50_s\":{},\"p90_s\":{}}}",
                policy.as_str(),
                num(c.p50_s),
                num(c.p90_s)
            ));
        }
        out.push('}');
    }
    out.push('}');
    out
}
