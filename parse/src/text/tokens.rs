//! The token estimate every budget uses: characters counted, ASCII and other, then estimated.

/// Characters counted for a token estimate: ASCII and other. Counts add up (`+`), so a text can
/// be measured piece by piece and estimated once at the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TokenCount {
    /// ASCII characters.
    pub ascii: u64,
    /// Characters of other scripts.
    pub other: u64,
}

impl TokenCount {
    /// The characters of `s`, counted by their bytes: an ASCII byte is a character, and every
    /// other character has exactly one leading byte (`0xC0` and above) in UTF-8. One pass with no
    /// decoding, as fast built for size as for speed.
    pub fn of(s: &str) -> Self {
        let (mut ascii, mut other) = (0u64, 0u64);
        for &b in s.as_bytes() {
            ascii += u64::from(b < 0x80);
            other += u64::from(b >= 0xC0);
        }
        TokenCount { ascii, other }
    }

    /// The estimate: about four characters of ASCII text per token, one per character of other
    /// scripts (CJK text runs close to one token per character).
    pub fn tokens(self) -> u64 {
        self.ascii.div_ceil(4) + self.other
    }
}

impl std::ops::Add for TokenCount {
    type Output = TokenCount;

    fn add(self, more: TokenCount) -> TokenCount {
        TokenCount { ascii: self.ascii + more.ascii, other: self.other + more.other }
    }
}

/// A rough token count of `s`, for budgets ([`TokenCount`]'s estimate, capped at `u32::MAX`).
pub fn estimate_tokens(s: &str) -> u32 {
    TokenCount::of(s).tokens().min(u32::MAX as u64) as u32
}
