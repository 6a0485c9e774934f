//! Stable sorting with one copy of the standard library's sort per element type.
//!
//! `slice::sort_by` is generic over its comparator, so every call site with its own closure
//! gets its own copy of the whole sort (about 7 KB of wasm each), and the playground's wasm
//! has a size budget: these helpers take the comparator as a `&dyn Fn`, so all sorts of
//! one element type share a single copy, in the engine and in the app. The order is exactly
//! `sort_by`'s (stable); the price is an indirect call per comparison, immaterial next to
//! what is being sorted here.

use std::cmp::Ordering;

/// `v.sort_by(cmp)`: stable.
pub fn stable_by<T>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    v.sort_by(|a, b| cmp(a, b));
}

/// `v.sort_by_key(key)` for an `i64` key (the engine's times): stable.
pub fn stable_by_i64<T>(v: &mut [T], key: &dyn Fn(&T) -> i64) {
    v.sort_by_key(key);
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
}
