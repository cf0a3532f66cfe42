//! [`SharedBytes`]: a range of one buffer that several holders share, so that what a snapshot
//! brings (the records and the search index) is read where it lies instead of copied out.

use std::ops::{Deref, Range};
use std::rc::Rc;

/// A range of a shared buffer, read as a byte slice. Cloning shares the buffer.
#[derive(Clone, Default)]
pub struct SharedBytes {
    whole: Rc<Vec<u8>>,
    start: usize,
    end: usize,
}

impl SharedBytes {
    /// The whole of `whole`, shared.
    pub fn new(whole: Rc<Vec<u8>>) -> SharedBytes {
        let end = whole.len();
        SharedBytes { whole, start: 0, end }
    }

    /// The part `range` of these bytes (relative to them), sharing the buffer; empty when the
    /// range falls outside.
    pub fn slice(&self, range: Range<usize>) -> SharedBytes {
        let len = self.end - self.start;
        if range.start > range.end || range.end > len {
            return SharedBytes::default();
        }
        SharedBytes { whole: self.whole.clone(), start: self.start + range.start, end: self.start + range.end }
    }

    /// The buffer these bytes are part of.
    pub fn buffer(&self) -> &Rc<Vec<u8>> {
        &self.whole
    }
}

impl From<Vec<u8>> for SharedBytes {
    fn from(bytes: Vec<u8>) -> SharedBytes {
        SharedBytes::new(Rc::new(bytes))
    }
}

impl From<&[u8]> for SharedBytes {
    fn from(bytes: &[u8]) -> SharedBytes {
        SharedBytes::from(bytes.to_vec())
    }
}

impl From<&Vec<u8>> for SharedBytes {
    fn from(bytes: &Vec<u8>) -> SharedBytes {
        SharedBytes::from(bytes.as_slice())
    }
}

impl<const N: usize> From<&[u8; N]> for SharedBytes {
    fn from(bytes: &[u8; N]) -> SharedBytes {
        SharedBytes::from(bytes.as_slice())
    }
}

impl Deref for SharedBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.whole.get(self.start..self.end).unwrap_or_default()
    }
}

impl PartialEq for SharedBytes {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for SharedBytes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SharedBytes({} of {})", self.len(), self.whole.len())
    }
}

#[cfg(test)]
mod tests {
    use super::SharedBytes;

    #[test]
    fn a_slice_reads_its_range_of_the_one_buffer() {
        let all = SharedBytes::from(b"0123456789".to_vec());
        let mid = all.slice(2..8);
        assert_eq!(&*mid, b"234567");
        assert_eq!(&*mid.slice(1..3), b"34");
        assert!(std::rc::Rc::ptr_eq(mid.buffer(), all.buffer()));
        assert_eq!(&*all.slice(8..20), b"");
        let (from, to) = (5, 4);
        assert_eq!(&*all.slice(from..to), b"");
    }
}
