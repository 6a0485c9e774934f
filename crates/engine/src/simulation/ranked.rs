//! A sorted map that also answers by rank: the `k`-th entry and how many come before a
//! key in about `len / BLOCK` steps, not `k` (SPEC 12.1's set-aside prefix, `aside.rs`:
//! a quiet run of cycles sets aside the first `k` jobs of a queue, and the next cycle
//! reads the job after them). Kept as sorted blocks of at most `2 * BLOCK` entries: a
//! queue of a few thousand jobs is a few dozen blocks, skipped by their lengths.

use std::ops::Bound;

/// Entries per block after a split (a block holds between 1 and `2 * BLOCK`).
const BLOCK: usize = 64;

/// Sorted `(key, value)` entries with distinct keys, in blocks.
#[derive(Clone, Debug)]
pub struct Ranked<K, V> {
    blocks: Vec<Vec<(K, V)>>,
}

impl<K, V> Default for Ranked<K, V> {
    fn default() -> Self {
        Ranked { blocks: Vec::new() }
    }
}

impl<K: Ord + Copy, V: Copy> Ranked<K, V> {
    /// The block that holds `key` or would: the first whose last key is at least `key`
    /// (the last block when every key is smaller).
    fn block_of(&self, key: &K) -> usize {
        let b = self
            .blocks
            .partition_point(|blk| blk.last().is_some_and(|(k, _)| k < key));
        b.min(self.blocks.len().saturating_sub(1))
    }

    /// Adds `key` with `value` (a key present keeps its place, its value replaced).
    pub fn insert(&mut self, key: K, value: V) {
        if self.blocks.is_empty() {
            self.blocks.push(Vec::with_capacity(2 * BLOCK));
        }
        let b = self.block_of(&key);
        let blk = &mut self.blocks[b];
        match blk.binary_search_by(|(k, _)| k.cmp(&key)) {
            Ok(i) => blk[i].1 = value,
            Err(i) => {
                blk.insert(i, (key, value));
                if blk.len() > 2 * BLOCK {
                    let rest = blk.split_off(BLOCK);
                    self.blocks.insert(b + 1, rest);
                }
            }
        }
    }

    /// Removes `key`; whether it was present.
    pub fn remove(&mut self, key: &K) -> bool {
        if self.blocks.is_empty() {
            return false;
        }
        let b = self.block_of(key);
        let blk = &mut self.blocks[b];
        let Ok(i) = blk.binary_search_by(|(k, _)| k.cmp(key)) else {
            return false;
        };
        blk.remove(i);
        let left = blk.len();
        if left == 0 {
            self.blocks.remove(b);
        } else if left < BLOCK / 4
            && self
                .blocks
                .get(b + 1)
                .is_some_and(|next| left + next.len() <= 2 * BLOCK)
        {
            // A small block joins the next while both fit in one: blocks stay few.
            let next = self.blocks.remove(b + 1);
            self.blocks[b].extend(next);
        }
        true
    }

    /// How many keys are before `bound` (`Included(k)`: below `k`; `Excluded(k)`: at most
    /// `k`; `Unbounded`: none).
    pub fn rank(&self, bound: Bound<&K>) -> usize {
        match self.place_of(bound) {
            Some((b, i)) => self.blocks[..b].iter().map(Vec::len).sum::<usize>() + i,
            None => 0,
        }
    }

    /// `rank(to) - rank(from)`, with `from` at most `to`: the lengths of the blocks from
    /// `from`'s on, not from the first.
    pub fn rank_between(&self, from: Bound<&K>, to: Bound<&K>) -> usize {
        match (self.place_of(from), self.place_of(to)) {
            (Some((bf, i)), Some((bt, k))) if bf <= bt => {
                self.blocks[bf..bt].iter().map(Vec::len).sum::<usize>() + k - i
            }
            _ => self.rank(to) - self.rank(from),
        }
    }

    /// Where `bound` falls (see [`Ranked::rank`]): its block and the place in it (`None`:
    /// before every key).
    fn place_of(&self, bound: Bound<&K>) -> Option<(usize, usize)> {
        let key = match bound {
            Bound::Unbounded => return None,
            Bound::Included(k) | Bound::Excluded(k) => k,
        };
        if self.blocks.is_empty() {
            return None;
        }
        let b = self.block_of(key);
        let blk = &self.blocks[b];
        let i = match bound {
            Bound::Excluded(_) => blk.partition_point(|(k, _)| k <= key),
            _ => blk.partition_point(|(k, _)| k < key),
        };
        Some((b, i))
    }

    /// The entries from rank `r` on, in key order.
    pub fn iter_from_rank(&self, mut r: usize) -> Iter<'_, K, V> {
        let mut b = 0;
        while b < self.blocks.len() && r >= self.blocks[b].len() {
            r -= self.blocks[b].len();
            b += 1;
        }
        Iter {
            blocks: &self.blocks,
            b,
            i: r,
        }
    }

    /// The entries from place `p` on (an [`Iter::place`] of this map, with no insert or
    /// removal since), in key order.
    pub fn iter_at(&self, p: Place) -> Iter<'_, K, V> {
        Iter {
            blocks: &self.blocks,
            b: p.b,
            i: p.i,
        }
    }

    /// The entries after `bound` (as [`Ranked::rank`] reads it), in key order.
    pub fn iter_from(&self, bound: Bound<&K>) -> Iter<'_, K, V> {
        let key = match bound {
            Bound::Unbounded => return self.iter_from_rank(0),
            Bound::Included(k) | Bound::Excluded(k) => k,
        };
        let b = self.block_of(key);
        let i = self.blocks.get(b).map_or(0, |blk| match bound {
            Bound::Excluded(_) => blk.partition_point(|(k, _)| k <= key),
            _ => blk.partition_point(|(k, _)| k < key),
        });
        Iter {
            blocks: &self.blocks,
            b,
            i,
        }
    }

    /// The last entry whose key is below `key`.
    pub fn before(&self, key: &K) -> Option<(K, V)> {
        if self.blocks.is_empty() {
            return None;
        }
        let b = self.block_of(key);
        let i = self.blocks[b].partition_point(|(k, _)| k < key);
        if i > 0 {
            return Some(self.blocks[b][i - 1]);
        }
        b.checked_sub(1)
            .and_then(|p| self.blocks[p].last().copied())
    }

    /// The entry of the greatest key.
    pub fn last(&self) -> Option<(K, V)> {
        self.blocks.last().and_then(|blk| blk.last().copied())
    }
}

/// A place in a [`Ranked`]: a block and an index in it (valid until the next insert or
/// removal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    b: usize,
    i: usize,
}

impl<K, V> Iter<'_, K, V> {
    /// Where the iterator is: [`Ranked::iter_at`] resumes from here.
    pub fn place(&self) -> Place {
        Place {
            b: self.b,
            i: self.i,
        }
    }
}

/// The entries of a [`Ranked`] from a place on, in key order.
#[derive(Clone, Debug)]
pub struct Iter<'a, K, V> {
    blocks: &'a [Vec<(K, V)>],
    b: usize,
    i: usize,
}

impl<K: Copy, V: Copy> Iterator for Iter<'_, K, V> {
    type Item = (K, V);

    fn next(&mut self) -> Option<(K, V)> {
        while let Some(blk) = self.blocks.get(self.b) {
            if let Some(&e) = blk.get(self.i) {
                self.i += 1;
                return Some(e);
            }
            self.b += 1;
            self.i = 0;
        }
        None
    }

    /// Skips whole blocks by their lengths.
    fn nth(&mut self, mut n: usize) -> Option<(K, V)> {
        while let Some(blk) = self.blocks.get(self.b) {
            let rest = blk.len().saturating_sub(self.i);
            if n < rest {
                self.i += n;
                return self.next();
            }
            n -= rest;
            self.b += 1;
            self.i = 0;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    //! Against a `BTreeMap`: every insert and removal, then every rank, every place to
    //! iterate from, every `nth`, `before` and `last`.

    use std::collections::BTreeMap;
    use std::ops::Bound;

    use proptest::prelude::*;

    use super::Ranked;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn ranked_matches_a_btree_map(
            ops in proptest::collection::vec((any::<bool>(), 0..600u32), 1..1500)
        ) {
            let mut r: Ranked<u32, u32> = Ranked::default();
            let mut m: BTreeMap<u32, u32> = BTreeMap::new();
            for (i, (add, k)) in ops.into_iter().enumerate() {
                if add {
                    r.insert(k, i as u32);
                    m.insert(k, i as u32);
                } else {
                    prop_assert_eq!(r.remove(&k), m.remove(&k).is_some());
                }
                prop_assert_eq!(r.iter_from(Bound::Unbounded).count(), m.len());
            }
            let all: Vec<(u32, u32)> = m.iter().map(|(&k, &v)| (k, v)).collect();
            prop_assert_eq!(r.iter_from(Bound::Unbounded).collect::<Vec<_>>(), all.clone());
            prop_assert_eq!(r.last(), all.last().copied());
            for k in (0..602u32).step_by(7) {
                let below = m.range(..k).count();
                let upto = m.range(..=k).count();
                prop_assert_eq!(r.rank(Bound::Included(&k)), below);
                prop_assert_eq!(r.rank(Bound::Excluded(&k)), upto);
                prop_assert_eq!(r.iter_from(Bound::Included(&k)).next(), all.get(below).copied());
                prop_assert_eq!(r.iter_from(Bound::Excluded(&k)).next(), all.get(upto).copied());
                prop_assert_eq!(r.before(&k), m.range(..k).next_back().map(|(&a, &b)| (a, b)));
                for from in (0..k).step_by(31) {
                    let between = m.keys().filter(|&&x| x > from && x < k).count();
                    prop_assert_eq!(
                        r.rank_between(Bound::Excluded(&from), Bound::Included(&k)),
                        between
                    );
                }
                prop_assert_eq!(r.rank_between(Bound::Unbounded, Bound::Included(&k)), below);
            }
            for n in (0..all.len() + 2).step_by(5) {
                prop_assert_eq!(r.iter_from(Bound::Unbounded).nth(n), all.get(n).copied());
                prop_assert_eq!(r.iter_from_rank(n).next(), all.get(n).copied());
                let mut it = r.iter_from(Bound::Unbounded);
                it.next();
                prop_assert_eq!(it.nth(n), all.get(n + 1).copied());
                // A place resumes where the iterator was.
                let mut it = r.iter_from_rank(n);
                it.next();
                prop_assert_eq!(r.iter_at(it.place()).collect::<Vec<_>>(), it.collect::<Vec<_>>());
            }
        }
    }
}
