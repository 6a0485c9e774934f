//! Stable sorting with few copies of the standard library's sort.
//!
//! `slice::sort_by` is generic over its comparator, so every call site with its own closure
//! gets its own copy of the whole sort (about 7 KB of wasm each), and the playground's wasm
//! has a size budget. Two kinds of helper, both exactly `sort_by`'s order (stable):
//!
//! - [`stable_by`] and [`stable_by_i64`] take the comparator as a `&dyn Fn`, so all sorts of
//!   one element type share a copy: for the simulation's own sorts, which run every time.
//! - [`compact_by`] and [`compact_by_i64`] sort the items' places with the one copy of the
//!   sort they all share, then move the items there: for everything else (imports, checks,
//!   reviews, reports, the page), where an indirect call and a second pass over the items
//!   cost nothing a person notices and a copy per element type costs bytes at every load.

use std::cmp::Ordering;

/// `v.sort_by(cmp)`: stable.
pub fn stable_by<T>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    v.sort_by(|a, b| cmp(a, b));
}

/// `v.sort_by_key(key)` for an `i64` key (the engine's times): stable.
pub fn stable_by_i64<T>(v: &mut [T], key: &dyn Fn(&T) -> i64) {
    v.sort_by_key(key);
}

/// `v.sort_by(cmp)` (stable) with the one copy of the sort every `compact_` helper shares.
pub fn compact_by<T>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    let order = order(v.len(), &|a, b| cmp(&v[a], &v[b]));
    put_in_order(v, order);
}

/// `v.sort_by_key(key)` for an `i64` key (stable), as [`compact_by`].
pub fn compact_by_i64<T>(v: &mut [T], key: &dyn Fn(&T) -> i64) {
    let order = order(v.len(), &|a, b| key(&v[a]).cmp(&key(&v[b])));
    put_in_order(v, order);
}

/// The places `0..len` sorted stably by `cmp`: the one copy of the sort behind every
/// `compact_` helper.
fn order(len: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    order.sort_by(|&a, &b| cmp(a, b));
    order
}

/// Moves `v[order[k]]` to place `k` for every `k`, one cycle of the permutation at a time
/// (`order` marks each place done by pointing it at itself).
fn put_in_order<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let from = order[at];
            order[at] = at;
            if from == start {
                break;
            }
            v.swap(at, from);
            at = from;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_ordered_like_the_standard_sorts() {
        let items: Vec<(i64, u32)> = (0..500u32)
            .map(|i| (i64::from(i * 7919 % 13) - 6, i))
            .collect();
        let mut a = items.clone();
        let mut b = items.clone();
        stable_by_i64(&mut a, &|x| x.0);
        b.sort_by_key(|x| x.0);
        assert_eq!(a, b);
        assert!(a
            .windows(2)
            .all(|w| w[0].0 < w[1].0 || (w[0].0 == w[1].0 && w[0].1 < w[1].1)));
        let mut c = items.clone();
        stable_by(&mut c, &|x, y| y.0.cmp(&x.0));
        let mut d = items;
        d.sort_by_key(|x| std::cmp::Reverse(x.0));
        assert_eq!(c, d);
    }

    /// The compact helpers give `sort_by`'s order exactly: ties kept in place, on lists with
    /// runs, cycles of every length and a few elements.
    #[test]
    fn the_compact_sorts_order_like_the_standard_sorts() {
        for n in [0usize, 1, 2, 3, 7, 20, 500] {
            for m in [1u32, 2, 5, 13, 1000] {
                let items: Vec<(i64, u32)> = (0..n as u32)
                    .map(|i| (i64::from(i.wrapping_mul(7919) % m) - 3, i))
                    .collect();
                let mut want = items.clone();
                want.sort_by_key(|x| x.0);
                let mut got = items.clone();
                compact_by_i64(&mut got, &|x| x.0);
                assert_eq!(got, want, "{n} items, key mod {m}");
                let mut got = items.clone();
                compact_by(&mut got, &|x, y| y.0.cmp(&x.0));
                let mut want = items;
                want.sort_by_key(|x| std::cmp::Reverse(x.0));
                assert_eq!(got, want, "{n} items, key mod {m}, reversed");
            }
        }
        let mut words = vec!["b".to_string(), "a".into(), "c".into(), "a".into()];
        compact_by(&mut words, &|a, b| a.cmp(b));
        assert_eq!(words, ["a", "a", "b", "c"]);
    }
}
