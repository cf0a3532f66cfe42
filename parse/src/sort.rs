//! One sort routine for the whole crate. Every `sort_by` of the standard library is compiled once
//! per element type and comparator (7 to 17 KB of wasm each), so the crate sorts through
//! [`order`] instead: it sorts a list of indices with one comparator behind a `&dyn Fn`, compiled
//! once, and the generic wrappers only move the elements into that order (a short loop).
//!
//! Every sort here is stable (where the standard library's unstable sort was used before, the
//! order of equal elements was unspecified, so a stable order is one of those it allowed). The
//! cost stays n log n comparisons, each one indirect call, plus one list of `n` indices per sort;
//! nothing is allocated per comparison.

use std::cmp::Ordering;

/// The stable order of `n` items compared by index: position `k` of the result holds the index
/// of the item that goes `k`-th.
#[inline(never)]
pub fn order(n: usize, cmp: &dyn Fn(usize, usize) -> Ordering) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| cmp(a, b));
    idx
}

/// Moves the items of `v` into `order` (a permutation of `0..v.len()` as [`order`] gives it),
/// following each cycle once: `v[k]` becomes the old `v[order[k]]`.
fn permute<T>(v: &mut [T], mut order: Vec<usize>) {
    for start in 0..order.len() {
        let mut k = start;
        while let Some(slot) = order.get_mut(k) {
            let src = std::mem::replace(slot, k);
            if src == start || src == k || src >= v.len() {
                break;
            }
            v.swap(k, src);
            k = src;
        }
    }
}

/// Sorts `v` by `cmp`, stably.
pub fn sort_by<T>(v: &mut [T], cmp: impl Fn(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let idx = {
        let items: &[T] = v;
        order(items.len(), &|a, b| match (items.get(a), items.get(b)) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => Ordering::Equal,
        })
    };
    permute(v, idx);
}

/// Sorts `v` by the key `f` gives each item, stably.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], f: impl Fn(&T) -> K) {
    sort_by(v, |a, b| f(a).cmp(&f(b)));
}

/// Sorts `v` in ascending order, stably.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so that the checks do not depend on a crate.
    fn numbers(n: usize, seed: u64, modulo: u64) -> Vec<u64> {
        let mut x = seed;
        (0..n)
            .map(|_| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (x >> 33) % modulo
            })
            .collect()
    }

    #[test]
    fn agrees_with_the_standard_stable_sort() {
        for (n, modulo) in [(0, 1), (1, 1), (2, 2), (3, 3), (17, 5), (1000, 7), (1000, 1_000_000), (20_000, 100)] {
            let keys = numbers(n, n as u64 + modulo, modulo);
            // Pairs (key, position): equal keys must keep their positions' order.
            let mut ours: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
            let mut std_sorted = ours.clone();
            sort_by_key(&mut ours, |p| p.0);
            std_sorted.sort_by_key(|p| p.0);
            assert_eq!(ours, std_sorted, "n = {n}, modulo = {modulo}");
        }
    }

    #[test]
    fn sorts_owned_values_in_place() {
        let mut names: Vec<String> = ["pear", "apple", "fig", "apple", "kiwi"].map(String::from).to_vec();
        sort(&mut names);
        assert_eq!(names, ["apple", "apple", "fig", "kiwi", "pear"]);
        sort_by(&mut names, |a, b| b.len().cmp(&a.len()));
        assert_eq!(names, ["apple", "apple", "kiwi", "pear", "fig"], "equal lengths keep their order");
        let already: Vec<u32> = (0..100).collect();
        let mut v = already.clone();
        sort(&mut v);
        assert_eq!(v, already);
        let mut reversed: Vec<u32> = (0..100).rev().collect();
        sort(&mut reversed);
        assert_eq!(reversed, already);
    }

    #[test]
    fn order_is_a_permutation() {
        let keys = numbers(5000, 9, 50);
        let idx = order(keys.len(), &|a, b| keys[a].cmp(&keys[b]));
        let mut seen = vec![false; keys.len()];
        for &i in &idx {
            assert!(!seen[i]);
            seen[i] = true;
        }
        assert!(idx.windows(2).all(|w| (keys[w[0]], w[0]) < (keys[w[1]], w[1])));
    }
}
