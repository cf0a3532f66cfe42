//! The encoding's version line, which the index's writer puts first and its reader checks
//! first (see [`super::encode`] for the layout after it).

/// The first line of the encoding. Version 3 keeps each list's byte length and the trigram
/// tables (versions 1 and 2 are built again).
pub const MAGIC: &[u8] = b"skillwasm-search/3\n";
