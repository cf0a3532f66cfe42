//! The numbers of the index's encoding: LEB128 varints, written and read; and the lists of ids
//! the index keeps as their gaps (posting lists, a trigram's holders), read in place where a
//! search walks them.

/// Appends `v` as a varint.
pub fn put(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

/// Appends `s` as its length and its bytes.
pub fn put_str(out: &mut Vec<u8>, s: &[u8]) {
    put(out, s.len() as u64);
    out.extend_from_slice(s);
}

/// Reads varints and length-prefixed bytes from a position on; every read is checked.
pub struct Reader<'a> {
    /// The bytes read.
    pub bytes: &'a [u8],
    /// Where the next read starts.
    pub at: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `bytes` from their start.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// The next varint; None past the end or for one of more than 64 bits.
    pub fn num(&mut self) -> Option<u64> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let byte = *self.bytes.get(self.at)?;
            self.at += 1;
            v |= u64::from(byte & 0x7f).checked_shl(shift)?;
            if byte & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    /// The next varint when it is at most `most`.
    pub fn small(&mut self, most: u64) -> Option<u32> {
        self.num().filter(|v| *v <= most.min(u64::from(u32::MAX))).map(|v| v as u32)
    }

    /// The next length-prefixed bytes, as where they are: (start, length).
    pub fn span(&mut self) -> Option<(u32, u32)> {
        let n = self.fitting()?;
        let start = self.at;
        self.at += n as usize;
        Some((u32::try_from(start).ok()?, n))
    }

    /// The next varint when it is at most the bytes left after it (a length of what follows).
    pub fn fitting(&mut self) -> Option<u32> {
        let n = self.num()?;
        u32::try_from(n).ok().filter(|n| *n as usize <= self.left())
    }

    /// The bytes left.
    pub fn left(&self) -> usize {
        self.bytes.len().saturating_sub(self.at)
    }
}

/// Where a list of ids kept as gaps is in the encoding: its first byte, its byte length and how
/// many ids it holds; with `tf`, each id is followed by a frequency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// The first byte.
    pub start: u32,
    /// The bytes it takes.
    pub len: u32,
    /// The ids in it.
    pub count: u32,
}

impl Span {
    /// Reads a span's count and byte length at `r` and steps over its bytes; None when they do
    /// not fit what is left, or when the count exceeds `most` (or the bytes: each id takes one at
    /// least).
    pub fn skip(r: &mut Reader, count: u64, most: u64) -> Option<Span> {
        let len = r.fitting()?;
        let count = u32::try_from(count).ok().filter(|c| u64::from(*c) <= most && *c <= len)?;
        let start = u32::try_from(r.at).ok()?;
        r.at += len as usize;
        Some(Span { start, len, count })
    }

    /// The span's ids in `bytes` (ascending, each below `bound`), with their frequency when the
    /// list holds them (else 1). A list that is not what it says ends early: the ids read so far.
    pub fn ids<'a>(&self, bytes: &'a [u8], with_tf: bool, bound: u32) -> Ids<'a> {
        let from = self.start as usize;
        let to = from.saturating_add(self.len as usize);
        Ids { r: Reader::new(bytes.get(from..to).unwrap_or(&[])), left: self.count, last: None, with_tf, bound }
    }
}

/// The ids of a [`Span`], read as they are walked.
pub struct Ids<'a> {
    r: Reader<'a>,
    left: u32,
    last: Option<u32>,
    with_tf: bool,
    bound: u32,
}

impl Iterator for Ids<'_> {
    type Item = (u32, u16);

    fn next(&mut self) -> Option<(u32, u16)> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let gap = self.r.small(u64::from(u32::MAX));
        let tf = if self.with_tf { self.r.small(u64::from(u16::MAX)).map(|t| t as u16) } else { Some(1) };
        let id = match (gap, tf, self.last) {
            (Some(g), Some(_), None) => Some(g),
            (Some(g), Some(_), Some(last)) if g > 0 => last.checked_add(g),
            _ => None,
        };
        match id.filter(|id| *id < self.bound) {
            Some(id) => {
                self.last = Some(id);
                tf.map(|t| (id, t))
            }
            None => {
                self.left = 0;
                None
            }
        }
    }
}

/// Appends ids (ascending) as gaps, each followed by its frequency when `tfs` is given, preceded
/// by the byte length of what follows.
pub fn put_ids(out: &mut Vec<u8>, ids: &[u32], tfs: Option<&[u16]>) {
    let mut body = Vec::with_capacity(ids.len() * 2);
    let mut last = 0u32;
    for (i, id) in ids.iter().enumerate() {
        put(&mut body, u64::from(if i == 0 { *id } else { id.saturating_sub(last) }));
        if let Some(tf) = tfs.and_then(|t| t.get(i)) {
            put(&mut body, u64::from(*tf));
        }
        last = *id;
    }
    put(out, body.len() as u64);
    out.extend_from_slice(&body);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_read_back_and_a_bad_list_ends_early() {
        let mut out = Vec::new();
        put_ids(&mut out, &[3, 7, 300, 70_000], Some(&[1, 2, 3, 65_535]));
        let mut r = Reader::new(&out);
        let span = Span::skip(&mut r, 4, 10).expect("a span");
        assert_eq!(r.at, out.len());
        let read: Vec<(u32, u16)> = span.ids(&out, true, u32::MAX).collect();
        assert_eq!(read, [(3, 1), (7, 2), (300, 3), (70_000, 65_535)]);
        // An id at or above the bound ends the list.
        assert_eq!(span.ids(&out, true, 300).count(), 2);
        // More ids than the bytes can hold, or than allowed, is no span.
        assert!(Span::skip(&mut Reader::new(&out), 100, 1000).is_none());
        assert!(Span::skip(&mut Reader::new(&out), 4, 3).is_none());
        // A repeated id (a gap of 0) ends it.
        let mut dup = Vec::new();
        put_ids(&mut dup, &[5, 5], None);
        let span = Span::skip(&mut Reader::new(&dup), 2, 2).expect("a span");
        assert_eq!(span.ids(&dup, false, 10).collect::<Vec<_>>(), [(5, 1)]);
    }
}
