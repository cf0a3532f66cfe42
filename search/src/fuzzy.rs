//! Typo tolerance: a trigram table over a list of strings (skill names, the words of names) that
//! proposes candidates sharing pieces with a misspelling, and a bounded edit distance that
//! confirms them. No pass compares every pair; a lookup touches only the postings of the
//! query's trigrams. The table is built with the index and kept in its encoding (a snapshot
//! carries it), its holders read in place: the first search with a typo builds nothing.

use super::tally::Tally;
use super::varint::{put, put_ids, Reader, Span};

/// For each trigram the strings that contain it: the trigrams sorted, each with where its ids
/// are in the index's encoding (ascending, as gaps).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrigramTable {
    /// The distinct trigrams (three chars packed), ascending.
    grams: Vec<u64>,
    /// Trigram `g`'s ids.
    holders: Vec<Span>,
    /// How many strings.
    items: u32,
}

/// A trigram held by more strings than this tells too little to be worth its postings (at
/// least [`COMMON_FLOOR`]; an eighth of the strings beyond that).
const COMMON_FLOOR: usize = 512;

/// The trigrams of `s` with `^` and `$` padding, packed, in order (repeats kept).
fn grams(s: &str, out: &mut Vec<u64>) {
    out.clear();
    // A window of the last three characters, moved along without collecting them.
    let mut window: u64 = 0;
    for (i, c) in std::iter::once('\u{2}').chain(s.chars()).chain(std::iter::once('\u{3}')).enumerate() {
        window = ((window << 21) | u64::from(c as u32)) & ((1u64 << 63) - 1);
        if i >= 2 {
            out.push(window);
        }
    }
}

/// Writes the table of `items` (an item's index is its id) into `out`: the count of items and
/// of trigrams, then per trigram its gap from the one before and its ids. Each item's distinct
/// trigrams are numbered by a map as they are met and counted; only the distinct trigrams are
/// sorted, and each one's ids are laid out in one list by those counts, ascending as the items
/// come (at 100,000 names a map of lists took a third of a second and its allocations, a sort
/// of every (trigram, id) pair most of the table's time in wasm).
pub fn write_table<'a>(items: impl IntoIterator<Item = &'a str>, out: &mut Vec<u8>) {
    type Numbers = std::collections::HashMap<u64, u32, foldhash::fast::FixedState>;
    let mut numbers = Numbers::default();
    // Per trigram number: how many items hold it.
    let mut counts: Vec<u32> = Vec::new();
    // Per item, one after another: the numbers of its distinct trigrams; and where each item ends.
    let mut held: Vec<u32> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut buf = Vec::new();
    for s in items {
        grams(s, &mut buf);
        buf.sort_unstable();
        buf.dedup();
        for &g in &buf {
            let next = counts.len() as u32;
            let n = *numbers.entry(g).or_insert(next);
            if n == next {
                counts.push(0);
            }
            if let Some(c) = counts.get_mut(n as usize) {
                *c += 1;
            }
            held.push(n);
        }
        ends.push(held.len());
    }
    let mut order: Vec<(u64, u32)> = numbers.into_iter().collect();
    order.sort_unstable();
    // Per number: where its ids begin in `ids`, in the trigrams' order.
    let mut starts = vec![0usize; counts.len()];
    let mut at = 0;
    for &(_, n) in &order {
        if let (Some(slot), Some(&c)) = (starts.get_mut(n as usize), counts.get(n as usize)) {
            *slot = at;
            at += c as usize;
        }
    }
    let mut ids = vec![0u32; held.len()];
    let mut fill = starts.clone();
    let mut from = 0;
    for (item, &end) in ends.iter().enumerate() {
        for &n in held.get(from..end).unwrap_or_default() {
            if let Some(f) = fill.get_mut(n as usize) {
                if let Some(slot) = ids.get_mut(*f) {
                    *slot = item as u32;
                }
                *f += 1;
            }
        }
        from = end;
    }
    put(out, ends.len() as u64);
    put(out, order.len() as u64);
    let mut prev = 0u64;
    for &(g, n) in &order {
        let begin = starts.get(n as usize).copied().unwrap_or(0);
        let count = counts.get(n as usize).copied().unwrap_or(0) as usize;
        put(out, g - prev);
        put(out, count as u64);
        put_ids(out, ids.get(begin..begin + count).unwrap_or_default(), None);
        prev = g;
    }
}

impl TrigramTable {
    /// Reads a table [`write_table`] wrote, stepping over its ids; None when it is not one.
    pub fn read(r: &mut Reader) -> Option<TrigramTable> {
        let items = r.small(r.left() as u64 * 8)?;
        let n = r.small(r.left() as u64)? as usize;
        let mut table = TrigramTable { items, grams: Vec::with_capacity(n), holders: Vec::with_capacity(n) };
        let mut prev = 0u64;
        for k in 0..n {
            let gap = r.num()?;
            if k > 0 && gap == 0 {
                return None;
            }
            prev = prev.checked_add(gap)?;
            table.grams.push(prev);
            let count = r.num()?;
            table.holders.push(Span::skip(r, count, u64::from(items))?);
        }
        Some(table)
    }

    /// How many strings the table is over.
    pub fn items(&self) -> u32 {
        self.items
    }

    /// The bytes the table holds besides the encoding.
    pub fn heap_bytes(&self) -> usize {
        self.grams.capacity() * 8 + self.holders.capacity() * std::mem::size_of::<Span>()
    }

    /// The ids of the strings that hold trigram `g`, from the encoding `bytes`.
    fn holders<'b>(&self, bytes: &'b [u8], g: u64) -> (usize, super::varint::Ids<'b>) {
        let span = self.grams.binary_search(&g).ok().and_then(|k| self.holders.get(k)).copied().unwrap_or_default();
        (span.count as usize, span.ids(bytes, false, self.items))
    }

    /// Up to `limit` ids that share the most trigrams with `query`, most first (ties by id).
    pub fn candidates(&self, bytes: &[u8], query: &str, limit: usize) -> Vec<(u32, u32)> {
        let mut buf = Vec::new();
        grams(query, &mut buf);
        skillwasm_parse::sort::sort(&mut buf);
        buf.dedup();
        let mut shared = Tally::new(self.items as usize);
        let common = COMMON_FLOOR.max(self.items as usize / 8);
        for g in &buf {
            let (count, ids) = self.holders(bytes, *g);
            if count <= common {
                for (id, _) in ids {
                    shared.add(id, 1.0);
                }
            }
        }
        let mut top = super::topk::TopK::new(limit);
        for (id, n) in shared.iter() {
            top.push(n, id);
        }
        top.into_sorted().into_iter().map(|(n, id)| (id, n as u32)).collect()
    }
}

/// Reusable rows for [`edit_distance`], so that a pass over candidates allocates once.
#[derive(Default)]
pub struct Rows {
    a: Vec<char>,
    b: Vec<char>,
    prev2: Vec<usize>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

/// The optimal-string-alignment distance of `a` and `b` (insertions, deletions, substitutions,
/// adjacent swaps), or None when it is above `max`. Costs O(len(a) × len(b)) at most and stops
/// early once every entry of a row is above `max`.
pub fn edit_distance(a: &str, b: &str, max: usize, rows: &mut Rows) -> Option<usize> {
    rows.a.clear();
    rows.a.extend(a.chars());
    rows.b.clear();
    rows.b.extend(b.chars());
    let (a, b) = (&rows.a, &rows.b);
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let n = b.len();
    for r in [&mut rows.prev2, &mut rows.prev, &mut rows.cur] {
        r.clear();
        r.resize(n + 1, 0);
    }
    for (j, v) in rows.prev.iter_mut().enumerate() {
        *v = j;
    }
    for i in 1..=a.len() {
        rows.cur[0] = i;
        let mut row_min = i;
        for j in 1..=n {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (rows.prev[j] + 1).min(rows.cur[j - 1] + 1).min(rows.prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(rows.prev2[j - 2] + 1);
            }
            rows.cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut rows.prev2, &mut rows.prev);
        std::mem::swap(&mut rows.prev, &mut rows.cur);
    }
    Some(rows.prev[n]).filter(|d| *d <= max)
}

/// How many edits a word of `len` characters may be away and still count as a typo of it.
pub fn typo_allowance(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        let mut rows = Rows::default();
        assert_eq!(edit_distance("pdf", "pdf", 2, &mut rows), Some(0));
        assert_eq!(edit_distance("pfd", "pdf", 2, &mut rows), Some(1), "a swap is one edit");
        assert_eq!(edit_distance("docx", "dox", 2, &mut rows), Some(1));
        assert_eq!(edit_distance("kitten", "sitting", 3, &mut rows), Some(3));
        assert_eq!(edit_distance("kitten", "sitting", 2, &mut rows), None);
        assert_eq!(edit_distance("a", "abcdef", 2, &mut rows), None);
        assert_eq!(edit_distance("", "ab", 2, &mut rows), Some(2));
        assert_eq!(edit_distance("数据", "数椐", 1, &mut rows), Some(1));
    }

    #[test]
    fn trigram_candidates_rank_the_nearest_first() {
        let names = ["pdf-forms", "pdf", "docx", "xlsx-reader", "webapp-testing"];
        let mut bytes = Vec::new();
        write_table(names.iter().copied(), &mut bytes);
        let mut r = Reader::new(&bytes);
        let table = TrigramTable::read(&mut r).expect("a table");
        assert_eq!(r.at, bytes.len());
        let top = table.candidates(&bytes, "pdf-from", 3);
        assert_eq!(names[top[0].0 as usize], "pdf-forms");
        assert!(table.candidates(&bytes, "zzzz", 3).is_empty());
        assert_eq!(names[table.candidates(&bytes, "webap-testing", 1)[0].0 as usize], "webapp-testing");
        for cut in 0..bytes.len() {
            let mut r = Reader::new(&bytes[..cut]);
            assert!(TrigramTable::read(&mut r).is_none(), "cut at {cut}");
        }
    }

    #[test]
    fn allowance_grows_with_length() {
        assert_eq!((typo_allowance(3), typo_allowance(5), typo_allowance(9)), (0, 1, 2));
    }
}
