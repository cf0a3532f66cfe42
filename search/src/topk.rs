//! A bounded top-k: the `k` best (score, id) pairs of a stream, in O(log k) per push, holding
//! never more than `k` entries. Higher scores first; equal scores by lower id (a stable order).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry(f32, u32);

impl Eq for Entry {}

impl Ord for Entry {
    /// "Better" is greater: a higher score, then a lower id.
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0).then_with(|| other.1.cmp(&self.1))
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The best `k` of what is pushed.
pub struct TopK {
    k: usize,
    /// A min-heap (through `Reverse`) of the best so far: its top is the worst kept.
    heap: BinaryHeap<std::cmp::Reverse<Entry>>,
}

impl TopK {
    /// Keeps at most `k` entries.
    pub fn new(k: usize) -> TopK {
        TopK { k, heap: BinaryHeap::with_capacity(k.min(1024) + 1) }
    }

    /// Whether [`TopK::push`] would keep `(score, id)` now: a caller with a costly check of its own
    /// (is this document allowed?) asks it first and checks only the entries that would enter.
    pub fn admits(&self, score: f32, id: u32) -> bool {
        if self.k == 0 || score.is_nan() {
            return false;
        }
        self.heap.len() < self.k || self.heap.peek().is_some_and(|w| Entry(score, id) > w.0)
    }

    /// Offers one entry; NaN scores are ignored.
    pub fn push(&mut self, score: f32, id: u32) {
        if self.k == 0 || score.is_nan() {
            return;
        }
        let e = Entry(score, id);
        if self.heap.len() < self.k {
            self.heap.push(std::cmp::Reverse(e));
        } else if self.heap.peek().is_some_and(|w| e > w.0) {
            self.heap.pop();
            self.heap.push(std::cmp::Reverse(e));
        }
    }

    /// The kept entries, best first.
    pub fn into_sorted(self) -> Vec<(f32, u32)> {
        let mut v: Vec<Entry> = self.heap.into_iter().map(|r| r.0).collect();
        skillwasm_parse::sort::sort_by(&mut v, |a, b| b.cmp(a));
        v.into_iter().map(|e| (e.0, e.1)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_best_k_in_order() {
        let mut t = TopK::new(3);
        for (s, id) in [(1.0, 0), (5.0, 1), (3.0, 2), (5.0, 3), (0.5, 4), (4.0, 5), (f32::NAN, 6)] {
            t.push(s, id);
        }
        assert_eq!(t.into_sorted(), [(5.0, 1), (5.0, 3), (4.0, 5)]);
        let mut t = TopK::new(2);
        assert!(t.admits(1.0, 9));
        t.push(2.0, 1);
        t.push(3.0, 2);
        assert!(
            !t.admits(1.0, 0) && !t.admits(2.0, 3) && t.admits(2.0, 0) && t.admits(2.5, 7) && !t.admits(f32::NAN, 0)
        );
        let mut none = TopK::new(0);
        none.push(1.0, 1);
        assert!(none.into_sorted().is_empty());
    }
}
