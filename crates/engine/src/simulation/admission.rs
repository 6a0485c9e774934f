//! Admission: does a job fit? (SPEC 3)
//!
//! Quota is counted at admission: `used(S,T)` is the instances of S's admitted jobs
//! (SCHEDULED, STARTING, RUNNING). [`TypeUsage`] keeps, for one instance type, every share's
//! `used` and the aggregates the three fit conditions need, updated in O(1) per change, so a
//! fit test costs O(1) and a trial (preemption) costs a copy of one small vector (one entry
//! per share, however many shares the model allows: SPEC 2's 20, SPEC 13's 1,000).
//!
//! SPEC 12 "One engine": conditions 1 and 2 are the Kueue model's quota test
//! `n <= available(S,T)` on the AWS scenario's quota tree under the translation table
//! ([`aws_as_kueue`]), which every `TypeUsage` of the AWS model carries
//! (and its trial copies with it); condition 3 stays as SPEC 3 states it.

use crate::input::model::{BorrowLimit, Share, Strategy};
use crate::simulation::quota_tree::{available_of, root_available_of, NodeQuota, QuotaTree};

/// Why a job does not fit: the first failing condition of SPEC 3.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Misfit {
    /// Condition 1: the share's own limit plus its borrow cap.
    ShareLimit,
    /// Condition 2: the lendable pool is used up.
    LendablePool,
    /// Condition 3: physical capacity (overcommit, or after `update_share`).
    Capacity,
}

/// SPEC 3: the share's limit for a type; "no limit" counts as 0 for usage arithmetic.
pub fn limit_of(share: &Share, t: usize) -> u64 {
    share.limits.get(t).copied().flatten().unwrap_or(0)
}

/// SPEC 2/3: a share with no limit for T cannot admit a job of type T (`unschedulable`).
pub fn has_limit(share: &Share, t: usize) -> bool {
    share.limits.get(t).copied().flatten().is_some()
}

/// SPEC 3: `guaranteed(S,T)` is the limit for RESERVE shares, 0 otherwise (lendable).
pub fn guaranteed(share: &Share, t: usize) -> u64 {
    if share.strategy == Strategy::Reserve {
        limit_of(share, t)
    } else {
        0
    }
}

/// SPEC 3 condition 1: a share's `borrow_cap` for one type. `None` = unbounded.
pub fn borrow_cap(share: &Share, t: usize) -> Option<u64> {
    borrow_cap_instances(share.strategy, share.borrow_limit, limit_of(share, t))
}

/// SPEC 3 condition 1, as instances: the borrow cap of a share with `strategy`,
/// `borrow_limit` and the instance `limit` of one type. It is 0 unless LEND_AND_BORROW,
/// then `floor(limit * borrow_limit / 100)`, and unbounded (`None`) for -1
/// ([`BorrowLimit::Unlimited`]). The editor shows this number beside the percent; use
/// [`BorrowLimit::from_percent`] to read the scenario's `-1`/percent value.
pub fn borrow_cap_instances(
    strategy: Strategy,
    borrow_limit: BorrowLimit,
    limit: u64,
) -> Option<u64> {
    match (strategy, borrow_limit) {
        (Strategy::LendAndBorrow, BorrowLimit::Unlimited) => None,
        (Strategy::LendAndBorrow, BorrowLimit::Percent(p)) => Some(match limit.checked_mul(p) {
            Some(x) => x / 100,
            None => ((limit as u128 * p as u128) / 100).min(u64::MAX as u128) as u64,
        }),
        _ => Some(0),
    }
}

/// SPEC 3: `unallocated(T) = max(0, capacity(T) - sum of limits(T))`.
pub fn unallocated(shares: &[Share], t: usize, capacity: u64) -> u64 {
    capacity.saturating_sub(shares.iter().map(|s| limit_of(s, t)).sum())
}

/// SPEC 3: the lendable pool of type T is
/// `unallocated(T) + sum over S of (limit(S,T) - guaranteed(S,T))`.
pub fn lendable_pool(shares: &[Share], t: usize, capacity: u64) -> u64 {
    unallocated(shares, t, capacity)
        + shares
            .iter()
            .map(|s| limit_of(s, t) - guaranteed(s, t))
            .sum::<u64>()
}

/// SPEC 3: J is within entitlement when `used(S,T) + n <= limit(S,T)`.
pub fn within_entitlement(share: &Share, t: usize, used: u64, n: u64) -> bool {
    entitled(used, n, limit_of(share, t))
}

/// SPEC 3's within-entitlement test on numbers: `used + n <= limit`.
#[inline(always)]
fn entitled(used: u64, n: u64, limit: u64) -> bool {
    used + n <= limit
}

/// SPEC 3 condition 1 on numbers: `used + n <= limit + borrow_cap` (the `ceiling`,
/// `u64::MAX` when unbounded). The one test behind [`TypeUsage::within_ceiling`] and
/// [`Headroom::fits`]' naming of condition 1. (`used` never exceeds the capacity, and both
/// it and `n` are at most `limits::MAX_INSTANCES`: the sum cannot overflow.)
#[inline(always)]
fn within_ceiling(used: u64, n: u64, ceiling: u64) -> bool {
    used + n <= ceiling
}

/// SPEC 3's fit conditions for one share and type at the current usage, evaluated once for
/// every job size: a pass asks them of each bucket head and of each bucket's waiting
/// reason, and the sizes differ only in `n`. Made by [`TypeUsage::headroom`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Headroom {
    used: u64,
    limit: u64,
    /// Condition 1's `limit + borrow_cap` (`u64::MAX` when unbounded).
    ceiling: u64,
    /// SPEC 12 `available(S,T)` on the translated quota tree (conditions 1-2).
    available: i128,
    /// A RESERVE share while the pool is overdrawn (see [`TypeUsage::headroom`]).
    overdrawn: bool,
    /// Condition 3: `capacity - (sum of used + other RESERVE shares' idle entitlement)`.
    capacity_room: i128,
}

impl Headroom {
    /// SPEC 3: does a job needing `n` instances fit? `Err` names the first failing
    /// condition (1, 2, 3 in order); which of 1 and 2 failed is told apart as SPEC 4's
    /// reasons need: condition 1 when `used + n > limit + borrow_cap`, else condition 2.
    #[inline]
    pub fn fits(&self, n: u64) -> Result<(), Misfit> {
        if n as i128 > self.available || self.overdrawn {
            return Err(if !within_ceiling(self.used, n, self.ceiling) {
                Misfit::ShareLimit // condition 1: used + n > limit + borrow_cap
            } else {
                Misfit::LendablePool // condition 2: the lendable pool is used up
            });
        }
        if n as i128 > self.capacity_room {
            return Err(Misfit::Capacity); // condition 3
        }
        Ok(())
    }

    /// SPEC 3: a job of `n` instances is within the share's entitlement.
    #[inline]
    pub fn within_entitlement(&self, n: u64) -> bool {
        entitled(self.used, n, self.limit)
    }
}

/// What [`TypeUsage::headroom`] reads of one type's usage besides the share's own `used`:
/// the translated tree's root usage (the lendable pool's), `sum of used` and the RESERVE
/// shares' idle entitlement. Preemption's trials work on these ([`TypeUsage::totals`],
/// [`TypeUsage::remove_from`], [`TypeUsage::headroom_given`]) instead of a copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    root_usage: u64,
    sum_used: u64,
    reserve_idle: u64,
}

/// Quota usage of one instance type: `used(S,T)` per share and the aggregates of SPEC 3.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeUsage {
    pub t: usize,
    pub capacity: u64,
    /// `used(S,T)` per share, one entry per share of the scenario.
    pub used: Vec<u64>,
    /// How many shares are over their limit (reclaim candidates exist when > 0).
    pub over: usize,
    /// `sum of used(*,T)`.
    pub sum_used: u64,
    /// Lendable-pool usage: `sum over S of max(0, used(S,T) - guaranteed(S,T))`.
    pub pool_used: u64,
    /// `sum over RESERVE shares R of max(0, limit(R,T) - used(R,T))`.
    pub reserve_idle: u64,
    /// SPEC 1 "Lent": `sum over S of max(0, used(S,T) - limit(S,T))`, the instances
    /// borrowed beyond every share's limit.
    pub borrowed: u64,
    /// SPEC 1 "Lent": `sum over lending (not RESERVE) shares S of max(0, limit(S,T) -
    /// used(S,T))`, their idle entitlement.
    pub lenders_idle: u64,
    /// The lendable pool's size (depends only on limits and strategies).
    pub pool_size: u64,
    /// `unallocated(T)` (SPEC 3): capacity not covered by any share's limit.
    pub unallocated: u64,
    /// The shares' configuration for this type, shared by trial copies.
    cfg: std::sync::Arc<TypeCfg>,
    /// SPEC 12: the AWS shares of this type as a Kueue quota tree (translation table), with
    /// `used` as its usage; the fit test of conditions 1-2. `None` in the Kueue model, whose
    /// trees are `Sim::trees` (see [`TypeUsage::without_tree`]).
    tree: Option<QuotaTree>,
}

/// Per share, from its configuration (refreshed by [`TypeUsage::recompute`]):
/// `limit(S,T)`, `limit + borrow_cap` (condition 1, `u64::MAX` when unbounded),
/// `guaranteed(S,T)`, and whether the share is RESERVE; one entry per share.
#[derive(Clone, Debug, PartialEq, Eq)]
struct TypeCfg {
    shares: Vec<ShareCfg>,
}

/// One share's entry of [`TypeCfg`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ShareCfg {
    limit: u64,
    ceiling: u64,
    guaranteed: u64,
    reserve: bool,
    /// The share's node of the translated tree (set with the tree, `rebuild_tree`).
    quota: NodeQuota,
}

impl ShareCfg {
    /// Its idle entitlement at usage `used`: `max(0, limit - used)`.
    fn idle(&self, used: u64) -> u64 {
        self.limit.saturating_sub(used)
    }
    /// What it borrows at usage `used`: `max(0, used - limit)`.
    fn borrowed(&self, used: u64) -> u64 {
        used.saturating_sub(self.limit)
    }
}

impl TypeUsage {
    pub fn new(shares: &[Share], t: usize, capacity: u64) -> TypeUsage {
        let mut u = TypeUsage {
            t,
            capacity,
            used: vec![0; shares.len()],
            over: 0,
            sum_used: 0,
            pool_used: 0,
            reserve_idle: 0,
            borrowed: 0,
            lenders_idle: 0,
            pool_size: 0,
            unallocated: 0,
            cfg: std::sync::Arc::new(TypeCfg { shares: Vec::new() }),
            tree: None,
        };
        u.recompute(shares);
        u.rebuild_tree(shares);
        u
    }

    /// The usage counts without the AWS quota tree (the Kueue model keeps its own trees in
    /// `Sim::trees` and never asks [`TypeUsage::fits`]).
    pub fn without_tree(mut self) -> TypeUsage {
        self.tree = None;
        self
    }

    /// Recomputes the aggregates from `used` (after an `update_share`).
    pub fn recompute(&mut self, shares: &[Share]) {
        let t = self.t;
        let n = shares.len();
        let cfg = TypeCfg {
            shares: shares
                .iter()
                .map(|share| {
                    let limit = limit_of(share, t);
                    ShareCfg {
                        limit,
                        ceiling: borrow_cap(share, t).map_or(u64::MAX, |c| limit.saturating_add(c)),
                        guaranteed: guaranteed(share, t),
                        reserve: share.strategy == Strategy::Reserve,
                        quota: NodeQuota::default(),
                    }
                })
                .collect(),
        };
        // The shares never change in number (update_share changes their fields only).
        self.used.resize(n, 0);
        self.cfg = std::sync::Arc::new(cfg);
        self.sum_used = self.used.iter().sum();
        self.over = (0..shares.len())
            .filter(|&s| self.over_limit(shares, s))
            .count();
        self.pool_used = shares
            .iter()
            .zip(&self.used)
            .map(|(s, &u)| u.saturating_sub(guaranteed(s, t)))
            .sum();
        (self.reserve_idle, self.lenders_idle, self.borrowed) = (0, 0, 0);
        for (c, &u) in self.cfg.shares.iter().zip(&self.used) {
            if c.reserve {
                self.reserve_idle += c.idle(u);
            } else {
                self.lenders_idle += c.idle(u);
            }
            self.borrowed += c.borrowed(u);
        }
        self.pool_size = lendable_pool(shares, t, self.capacity);
        self.unallocated = unallocated(shares, t, self.capacity);
        if self.tree.is_some() {
            self.rebuild_tree(shares);
        }
    }

    /// SPEC 12: the translated tree of the current configuration, holding the same usage
    /// (an `update_share` changing limits, strategies or borrow limits changes its shape).
    fn rebuild_tree(&mut self, shares: &[Share]) {
        let mut tree = aws_as_kueue(shares, self.t, self.capacity);
        for (s, &u) in self.used.iter().enumerate() {
            if u > 0 {
                tree.add_usage(s, u);
            }
        }
        let cfg = std::sync::Arc::make_mut(&mut self.cfg);
        for (s, c) in cfg.shares.iter_mut().enumerate() {
            c.quota = tree.node_quota(s);
        }
        self.tree = Some(tree);
    }

    /// Sets `used(s,T)` to `new`, keeping the aggregates exact.
    fn set(&mut self, s: usize, new: u64) {
        let old = self.used[s];
        let cfg = self.cfg.shares[s];
        let l = cfg.limit;
        self.over = self.over - usize::from(old > l) + usize::from(new > l);
        let g = cfg.guaranteed;
        self.sum_used = self.sum_used - old + new;
        self.pool_used = self.pool_used - old.saturating_sub(g) + new.saturating_sub(g);
        if cfg.reserve {
            self.reserve_idle = self.reserve_idle - cfg.idle(old) + cfg.idle(new);
        } else {
            self.lenders_idle = self.lenders_idle - cfg.idle(old) + cfg.idle(new);
        }
        self.borrowed = self.borrowed - cfg.borrowed(old) + cfg.borrowed(new);
        self.used[s] = new;
    }

    /// A job of share `s` with `n` instances is admitted.
    #[inline]
    pub fn add(&mut self, _shares: &[Share], s: usize, n: u64) {
        self.set(s, self.used[s] + n);
        if let Some(tree) = &mut self.tree {
            tree.add_usage(s, n); // SPEC 12: usage bubbles up the translated tree
        }
    }

    /// A job of share `s` with `n` instances releases its quota (completion or preemption).
    #[inline]
    pub fn remove(&mut self, _shares: &[Share], s: usize, n: u64) {
        self.set(s, self.used[s] - n);
        if let Some(tree) = &mut self.tree {
            tree.remove_usage(s, n);
        }
    }

    /// SPEC 3: does a job of share `s` needing `n` instances fit? `Err` names the first
    /// failing condition (1, 2, 3 in order). The caller checks `has_limit` first.
    pub fn fits(&self, _shares: &[Share], s: usize, n: u64) -> Result<(), Misfit> {
        self.headroom(s).fits(n)
    }

    /// The most instances share `s` could ever hold with every other share idle: conditions
    /// 1 and 2 (`potential(S)` of the translated tree, SPEC 12) and condition 3. A job that
    /// needs more never starts.
    pub fn most_ever(&self, s: usize) -> u64 {
        let quota = self
            .tree
            .as_ref()
            .map_or(u64::MAX, |tree| tree.potential(s));
        quota.min(self.capacity)
    }

    /// SPEC 3's fit conditions for share `s` at the current usage (see [`Headroom`]).
    ///
    /// SPEC 12: conditions 1 and 2 together are `n <= available(S,T)` on the translated
    /// quota tree (the share's borrowing limit is condition 1's cap, the root cohort's
    /// subtree quota the lendable pool, its usage the pool's usage).
    #[inline]
    pub fn headroom(&self, s: usize) -> Headroom {
        self.headroom_given(s, self.used[s], self.totals())
    }

    /// The totals [`TypeUsage::headroom`] reads, now.
    #[inline]
    pub fn totals(&self) -> Totals {
        let tree = self.tree();
        Totals {
            root_usage: tree.usage[tree.shares],
            sum_used: self.sum_used,
            reserve_idle: self.reserve_idle,
        }
    }

    /// Changes `totals` as [`TypeUsage::remove`] of `k` instances of share `o` would
    /// change them (from `o`'s current usage: one removal per share).
    #[inline]
    pub fn remove_from(&self, totals: &mut Totals, o: usize, k: u64) {
        let (old, cfg) = (self.used[o], &self.cfg.shares[o]);
        let new = old - k;
        // What `QuotaTree::remove_usage` takes off the root of the flat translation: the
        // part of `k` the share used beyond its private quota.
        totals.root_usage -= k.min(old.saturating_sub(cfg.quota.private));
        totals.sum_used -= k;
        if cfg.reserve {
            totals.reserve_idle = totals.reserve_idle - cfg.idle(old) + cfg.idle(new);
        }
    }

    fn tree(&self) -> &QuotaTree {
        self.tree
            .as_ref()
            .expect("the AWS model's usage carries its quota tree")
    }

    /// [`TypeUsage::headroom`] of share `s` given its usage and the totals it reads.
    #[inline]
    pub fn headroom_given(&self, s: usize, used: u64, totals: Totals) -> Headroom {
        let Totals {
            root_usage,
            sum_used,
            reserve_idle,
        } = totals;
        let tree = self.tree();
        let cfg = &self.cfg.shares[s];
        // SPEC 12: SPEC 3 wins here over Kueue under the translation table: when the pool
        // is overdrawn (a lowered limit, `update_share`), SPEC 3 condition 2 refuses every
        // job, a RESERVE share's within its entitlement included (its pool usage grows by 0
        // but does not stay within the pool), where Kueue's `available` would still give
        // it its unused private quota less the root's deficit.
        // The translation is flat: every share is a child of the one root cohort (the first
        // node after the shares), so `available(S)` is one step below the root's.
        let root = tree.shares;
        debug_assert_eq!(tree.parent[s], Some(root));
        debug_assert_eq!(tree.parent[root], None);
        debug_assert_eq!(tree.node_quota(s), cfg.quota);
        let root_available = root_available_of(tree.subtree[root], root_usage);
        let available = available_of(cfg.quota, used, root_available);
        // Condition 3: used + other RESERVE shares' idle entitlement + n <= capacity.
        // SPEC 12: SPEC 3 wins here over Kueue under the translation table: Kueue's
        // capacity test counts only `sum of used + n` (RESERVE's idle quota is already
        // private to it through lending limit 0, so the tree's `available` agrees; this
        // condition is kept as SPEC 3 states it).
        let own_reserve_idle = if cfg.reserve {
            cfg.limit.saturating_sub(used)
        } else {
            0
        };
        let taken = sum_used as i128 + (reserve_idle - own_reserve_idle) as i128;
        Headroom {
            used,
            limit: cfg.limit,
            ceiling: cfg.ceiling,
            available,
            overdrawn: cfg.reserve && root_available < 0,
            capacity_room: self.capacity as i128 - taken,
        }
    }

    pub fn limit(&self, s: usize) -> u64 {
        self.cfg.shares[s].limit
    }

    /// Whether share `s` lends its idle entitlement (not RESERVE).
    pub fn lends(&self, s: usize) -> bool {
        !self.cfg.shares[s].reserve
    }

    /// SPEC 3 condition 1 for share `s`: `used(S,T) + n <= limit(S,T) + borrow_cap(S,T)`.
    pub fn within_ceiling(&self, s: usize, n: u64) -> bool {
        within_ceiling(self.used[s], n, self.cfg.shares[s].ceiling)
    }

    /// `used(S,T) > limit(S,T)`: the share is over its limit and its jobs can be reclaimed.
    pub fn over_limit(&self, _shares: &[Share], s: usize) -> bool {
        self.used[s] > self.cfg.shares[s].limit
    }

    /// SPEC 5 reclaim: share `s` uses less than its limit (so its jobs may reclaim while
    /// another share is over its own).
    pub fn under_limit(&self, s: usize) -> bool {
        self.used[s] < self.cfg.shares[s].limit
    }
}

/// SPEC 12 translation table: the AWS model's shares of one type as a Kueue tree: every
/// share a ClusterQueue of one root cohort whose own quota is the unallocated pool;
/// `RESERVE` is lending limit 0 and borrowing limit 0, `LEND` borrowing limit 0,
/// `LEND_AND_BORROW` with `borrow_limit` p a borrowing limit of floor(limit x p / 100)
/// (none for -1). The AWS model's admission goes through this tree (`admission.rs`,
/// `TypeUsage::fits`): fit conditions 1 and 2 of SPEC 3 are `n <= available`, with one
/// place where SPEC 3 wins (an overdrawn pool, see `fits`); condition 3 stays AWS's. The
/// property tests check the translation against SPEC 3 as worded.
pub fn aws_as_kueue(shares: &[Share], t: usize, capacity: u64) -> QuotaTree {
    use crate::input::model::{Cohort, KueueShare};
    use crate::simulation::quota_tree::at;
    let types = t + 1;
    let mut translated: Vec<Share> = Vec::with_capacity(shares.len());
    for sh in shares {
        let limit = at(&sh.limits, t).unwrap_or(0);
        let mut borrowing_limit = vec![None; types];
        let mut lending_limit = vec![None; types];
        match sh.strategy {
            Strategy::Reserve => {
                borrowing_limit[t] = Some(0);
                lending_limit[t] = Some(0);
            }
            Strategy::Lend => borrowing_limit[t] = Some(0),
            Strategy::LendAndBorrow => {
                borrowing_limit[t] = borrow_cap_instances(sh.strategy, sh.borrow_limit, limit)
            }
        }
        let mut s = sh.clone();
        s.kueue = KueueShare {
            cohort: Some(0),
            borrowing_limit,
            lending_limit,
            ..KueueShare::default()
        };
        translated.push(s);
    }
    let mut limits = vec![None; types];
    limits[t] = Some(unallocated(shares, t, capacity));
    let root = Cohort {
        name: "quotalab".into(),
        parent: None,
        limits,
        borrowing_limit: Vec::new(),
        lending_limit: Vec::new(),
        weight: 1000,
    };
    QuotaTree::new(&translated, &[root], t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn share(strategy: Strategy, limit: Option<u64>, borrow: BorrowLimit) -> Share {
        Share {
            name: "s".into(),
            limits: vec![limit],
            strategy,
            borrow_limit: borrow,
            in_share_preemption: false,
            enabled: true,
            kueue: Default::default(),
        }
    }

    // SPEC 3 condition 1: borrow cap is floor(limit * borrow_limit / 100).
    #[test]
    fn borrow_cap_is_floor_of_percent() {
        let s = share(Strategy::LendAndBorrow, Some(3), BorrowLimit::Percent(50));
        assert_eq!(borrow_cap(&s, 0), Some(1));
        let s = share(Strategy::LendAndBorrow, Some(3), BorrowLimit::Unlimited);
        assert_eq!(borrow_cap(&s, 0), None);
        // LEND and RESERVE never borrow.
        assert_eq!(
            borrow_cap(&share(Strategy::Lend, Some(3), BorrowLimit::Unlimited), 0),
            Some(0)
        );
        assert_eq!(
            borrow_cap(
                &share(Strategy::Reserve, Some(3), BorrowLimit::Unlimited),
                0
            ),
            Some(0)
        );
    }

    // SPEC 3: RESERVE entitlement is guaranteed, not lendable; the pool is the rest.
    #[test]
    fn lendable_pool_excludes_reserve_and_includes_unallocated() {
        let shares = vec![
            share(Strategy::Reserve, Some(2), BorrowLimit::Unlimited),
            share(Strategy::Lend, Some(3), BorrowLimit::Unlimited),
        ];
        assert_eq!(unallocated(&shares, 0, 10), 5);
        assert_eq!(lendable_pool(&shares, 0, 10), 8);
    }

    // SPEC 3 conditions 1..3, first failing one reported.
    #[test]
    fn fit_conditions_in_order() {
        let shares = vec![
            share(Strategy::LendAndBorrow, Some(1), BorrowLimit::Percent(100)),
            share(Strategy::Lend, Some(1), BorrowLimit::Unlimited),
            share(Strategy::Reserve, Some(1), BorrowLimit::Unlimited),
        ];
        let mut u = TypeUsage::new(&shares, 0, 3);
        assert_eq!(u.fits(&shares, 0, 1), Ok(()));
        u.add(&shares, 0, 1);
        assert_eq!(u.fits(&shares, 0, 1), Ok(())); // borrows share 1's idle instance
        u.add(&shares, 0, 1);
        assert_eq!(u.fits(&shares, 0, 1), Err(Misfit::ShareLimit)); // 2 + 1 > 1 + 1
        assert_eq!(u.fits(&shares, 1, 1), Err(Misfit::LendablePool)); // lent out
        assert_eq!(u.fits(&shares, 2, 1), Ok(())); // RESERVE is guaranteed
        assert!(u.over_limit(&shares, 0));
    }

    /// SPEC 3 condition 1 is the share's own: whenever it fails, the translated tree's test
    /// (conditions 1-2, SPEC 12) fails as condition 1, whatever the other shares use, over-
    /// or undercommitted, overdrawn or not; whenever it holds, the misfit is never
    /// condition 1. The AWS waiting reasons rely on it (`Sim::own_reason`).
    #[test]
    fn condition_one_is_the_shares_own() {
        let strategies = [
            (Strategy::Reserve, BorrowLimit::Unlimited),
            (Strategy::Lend, BorrowLimit::Unlimited),
            (Strategy::LendAndBorrow, BorrowLimit::Unlimited),
            (Strategy::LendAndBorrow, BorrowLimit::Percent(0)),
            (Strategy::LendAndBorrow, BorrowLimit::Percent(50)),
            (Strategy::LendAndBorrow, BorrowLimit::Percent(200)),
        ];
        let mut checked = 0;
        for (i, &(a, ab)) in strategies.iter().enumerate() {
            for &(b, bb) in &strategies[i..] {
                for (la, lb) in [(0, 2), (1, 1), (2, 3), (3, 0)] {
                    let shares = vec![share(a, Some(la), ab), share(b, Some(lb), bb)];
                    for capacity in [1, la + lb, la + lb + 2] {
                        for (ua, ub) in [(0, 0), (1, 0), (0, 3), (2, 2), (4, 1), (5, 5)] {
                            let mut u = TypeUsage::new(&shares, 0, capacity);
                            u.add(&shares, 0, ua);
                            u.add(&shares, 1, ub);
                            for s in 0..2 {
                                for n in 1..8 {
                                    let fit = u.headroom(s).fits(n);
                                    assert_eq!(
                                        fit == Err(Misfit::ShareLimit),
                                        !u.within_ceiling(s, n),
                                        "{shares:?} capacity {capacity} used {:?} share {s} n {n}: {fit:?}",
                                        u.used
                                    );
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked} cases");
    }

    /// [`TypeUsage::headroom`] of share `s` as if each `(share, k)` of `removals` had
    /// released `k` instances, on the totals (as preemption's trials compute it).
    fn headroom_after_removal(
        u: &TypeUsage,
        s: usize,
        removals: impl Iterator<Item = (usize, u64)>,
    ) -> Headroom {
        let (mut used, mut totals) = (u.used[s], u.totals());
        for (o, k) in removals {
            u.remove_from(&mut totals, o, k);
            if o == s {
                used -= k;
            }
        }
        u.headroom_given(s, used, totals)
    }

    /// Preemption's trial headroom computed on totals equals the headroom of a copy from
    /// which the same instances were removed, for three shares of every strategy, under-
    /// and overcommitted, overdrawn or not, removing from one share or from several.
    #[test]
    fn headroom_after_removal_is_a_removal() {
        let strategies = [
            (Strategy::Reserve, BorrowLimit::Unlimited),
            (Strategy::Lend, BorrowLimit::Unlimited),
            (Strategy::LendAndBorrow, BorrowLimit::Unlimited),
            (Strategy::LendAndBorrow, BorrowLimit::Percent(50)),
        ];
        let mut checked = 0;
        for &(a, ab) in &strategies {
            for &(b, bb) in &strategies {
                for &(c, cb) in &strategies {
                    for (la, lb, lc) in [(0, 2, 1), (2, 2, 2), (3, 0, 4)] {
                        let shares = vec![
                            share(a, Some(la), ab),
                            share(b, Some(lb), bb),
                            share(c, Some(lc), cb),
                        ];
                        for capacity in [2, la + lb + lc, la + lb + lc + 3] {
                            for used in [[0, 0, 0], [1, 3, 0], [4, 1, 2], [2, 5, 5]] {
                                let mut u = TypeUsage::new(&shares, 0, capacity);
                                for (s, &x) in used.iter().enumerate() {
                                    u.add(&shares, s, x);
                                }
                                for removals in [
                                    vec![(0, 1)],
                                    vec![(1, used[1])],
                                    vec![(0, used[0]), (2, used[2] / 2)],
                                    vec![(2, 1.min(used[2])), (1, used[1]), (0, 0)],
                                ] {
                                    if removals.iter().any(|&(s, k)| k > used[s]) {
                                        continue;
                                    }
                                    let mut trial = u.clone();
                                    for &(s, k) in &removals {
                                        trial.remove(&shares, s, k);
                                    }
                                    for s in 0..3 {
                                        let got =
                                            headroom_after_removal(&u, s, removals.iter().copied());
                                        assert_eq!(
                                            got,
                                            trial.headroom(s),
                                            "{shares:?} capacity {capacity} used {used:?} \
                                             removals {removals:?} share {s}"
                                        );
                                        checked += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(checked > 5_000, "{checked} cases");
    }

    /// The aggregates kept with every change of `used` equal the ones recomputed from
    /// scratch, through a long walk of admissions and releases over every strategy.
    #[test]
    fn aggregates_follow_every_change() {
        let shares = vec![
            share(Strategy::Reserve, Some(3), BorrowLimit::Unlimited),
            share(Strategy::Lend, Some(2), BorrowLimit::Unlimited),
            share(Strategy::LendAndBorrow, Some(1), BorrowLimit::Percent(300)),
            share(Strategy::LendAndBorrow, None, BorrowLimit::Unlimited),
        ];
        let mut u = TypeUsage::new(&shares, 0, 9);
        let mut x: u64 = 7;
        for step in 0..2_000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let s = (x >> 33) as usize % shares.len();
            let n = (x >> 40) % 4;
            if (x >> 50) & 1 == 0 {
                u.add(&shares, s, n);
            } else {
                u.remove(&shares, s, n.min(u.used[s]));
            }
            let mut fresh = u.clone();
            fresh.recompute(&shares);
            let sums = |u: &TypeUsage| {
                let a = (u.over, u.sum_used, u.pool_used, u.reserve_idle);
                (a, u.borrowed, u.lenders_idle)
            };
            assert_eq!(sums(&u), sums(&fresh), "step {step}: used {:?}", u.used);
        }
    }

    // SPEC 3 condition 3 binds when overcommitted.
    #[test]
    fn capacity_binds_when_overcommitted() {
        let shares = vec![
            share(Strategy::Reserve, Some(2), BorrowLimit::Unlimited),
            share(Strategy::Lend, Some(2), BorrowLimit::Unlimited),
        ];
        let mut u = TypeUsage::new(&shares, 0, 3);
        u.add(&shares, 1, 1);
        // share 1 within its limit (2) but RESERVE idle 2 + used 1 + 1 > 3.
        assert_eq!(u.fits(&shares, 1, 1), Err(Misfit::Capacity));
        assert_eq!(u.fits(&shares, 0, 2), Ok(()));
    }

    // SPEC 3 condition 1: the cap in instances, as the editor shows it.
    #[test]
    fn borrow_cap_in_instances() {
        use crate::input::model::BorrowLimit as B;
        let lab = Strategy::LendAndBorrow;
        assert_eq!(borrow_cap_instances(lab, B::Percent(200), 1), Some(2));
        assert_eq!(borrow_cap_instances(lab, B::Percent(150), 3), Some(4));
        assert_eq!(borrow_cap_instances(lab, B::Percent(50), 1), Some(0));
        assert_eq!(borrow_cap_instances(lab, B::Percent(50), 4), Some(2));
        assert_eq!(borrow_cap_instances(lab, B::Unlimited, 4), None);
        assert_eq!(
            borrow_cap_instances(Strategy::Lend, B::Percent(50), 4),
            Some(0)
        );
        assert_eq!(
            borrow_cap_instances(Strategy::Reserve, B::Unlimited, 4),
            Some(0)
        );
        assert_eq!(
            borrow_cap_instances(lab, B::Percent(u64::MAX), u64::MAX),
            Some(u64::MAX)
        );
        assert_eq!(B::from_percent(-1), Some(B::Unlimited));
        assert_eq!(B::from_percent(0), Some(B::Percent(0)));
        assert_eq!(B::from_percent(-5), None);
        let s = share(lab, Some(3), B::Percent(150));
        assert_eq!(borrow_cap(&s, 0), Some(4));
    }
}
