//! The change-point series and integrals (SPEC 1, SPEC 8): limit, own, borrowed, lent and
//! queued instances per (share, type), recorded when they change, and their integrals over
//! time behind `instance_hours`.

use crate::model::*;

use super::state::*;

/// Change points per (share, type) and the integrals behind `instance_hours`.
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub pairs: Vec<(usize, usize)>,
    pub t: Vec<Ms>,
    pub limit: Vec<Vec<u64>>,
    pub own: Vec<Vec<u64>>,
    pub borrowed: Vec<Vec<u64>>,
    pub lent: Vec<Vec<f64>>,
    pub queued: Vec<Vec<u64>>,
}

/// Integrals over time per (share, type) pair, in instance-ms.
#[derive(Clone, Copy, Debug, Default)]
pub struct Integrals {
    pub entitled: u128,
    pub own: u128,
    pub borrowed: u128,
    pub lent: f64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct PairNow {
    pub(super) limit: u64,
    pub(super) own: u64,
    pub(super) borrowed: u64,
    pub(super) lent: f64,
    pub(super) queued: u64,
}

impl Sim<'_> {
    /// Integrates the current values over `[last_t, t)`.
    pub(super) fn integrate_to(&mut self, t: Ms) {
        let dt = t - self.last_t;
        if dt > 0 {
            for (i, v) in self.now_vals.iter().enumerate() {
                let g = &mut self.integrals[i];
                g.entitled += v.limit as u128 * dt as u128;
                g.own += v.own as u128 * dt as u128;
                g.borrowed += v.borrowed as u128 * dt as u128;
                g.lent += v.lent * dt as f64;
            }
        }
        self.last_t = t;
    }

    /// Computes limit, own, borrowed, lent and queued per (share, type) now (SPEC 1, 8) and
    /// records a change point if anything changed.
    pub(super) fn record_values(&mut self) {
        // Values depend only on quota usage, configuration and queue lengths.
        let version = (
            self.usage_version,
            self.rt.iter().map(|r| r.version).sum::<u64>(),
        );
        if self.values_at == Some(version) && !self.opts.exhaustive {
            return;
        }
        self.values_at = Some(version);
        // SPEC 1 "Lent": of B = max(0, total borrowed - unallocated), min(B, total idle) is
        // split across lending shares in proportion to their idle entitlement.
        let nshares = self.cfg.len();
        let mut lent_idle = std::mem::take(&mut self.scratch_lent);
        lent_idle.clear();
        for u in &self.usage {
            let (mut borrowed, mut idle) = (0u64, 0u64);
            for s in 0..nshares {
                let (used, l) = (u.used[s], u.limit(s));
                borrowed += used.saturating_sub(l);
                if u.lends(s) {
                    idle += l.saturating_sub(used);
                }
            }
            lent_idle.push((borrowed.saturating_sub(u.unallocated).min(idle), idle));
        }
        let mut changed = false;
        for (i, &(s, t)) in self.series.pairs.iter().enumerate() {
            let u = &self.usage[t];
            let (limit, used) = (u.limit(s), u.used[s]);
            let own = used.min(limit);
            let (lent_total, idle_total) = lent_idle[t];
            let lent = if u.lends(s) && idle_total > 0 {
                lent_total as f64 * limit.saturating_sub(used) as f64 / idle_total as f64
            } else {
                0.0
            };
            let v = PairNow {
                limit,
                own,
                borrowed: used - own,
                lent,
                queued: self.rt[s].queued[t],
            };
            if v != self.now_vals[i] {
                changed = true;
                self.now_vals[i] = v;
            }
        }
        self.scratch_lent = lent_idle;
        if !self.opts.series {
            return;
        }
        let fresh = self.series.t.is_empty();
        if !(changed || fresh) {
            return;
        }
        let replace = self.series.t.last() == Some(&self.now) && !fresh;
        if replace {
            self.series.t.pop();
        }
        self.series.t.push(self.now);
        for (i, v) in self.now_vals.iter().enumerate() {
            let ser = &mut self.series;
            if replace {
                ser.limit[i].pop();
                ser.own[i].pop();
                ser.borrowed[i].pop();
                ser.lent[i].pop();
                ser.queued[i].pop();
            }
            ser.limit[i].push(v.limit);
            ser.own[i].push(v.own);
            ser.borrowed[i].push(v.borrowed);
            ser.lent[i].push(v.lent);
            ser.queued[i].push(v.queued);
        }
    }
}
