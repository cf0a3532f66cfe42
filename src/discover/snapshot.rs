//! Snapshots: the registry as bytes a cold start can begin from without one store call.
//!
//! The format, `skillwasm-registry/5`, is binary. The registry keeps the snapshot's bytes and
//! reads its records where they lie ([`super::records::StoredRecords`]): each is checked whole when
//! the snapshot is read, its fields are read in place when asked for, its skill
//! ([`super::stored_skill`]) is decoded when the skill itself is, and the search index is searched
//! in place too. A registry of 100,000 skills so holds the snapshot and a few bytes a skill. The
//! format:
//!
//! - a header: the line `skillwasm-registry/5\n`, then a 64-bit checksum (little-endian) of
//!   everything after it;
//! - the scopes: a count, then per scope its name, its roots (a count and the strings) and a
//!   trust byte;
//! - the records: a count, then per record a flags byte (size, etag, skill present), its scope
//!   (1 + its index among the scopes, or 0 and the name), root index, location (the key of its
//!   SKILL.md, whole, so that it is read in place), size, etag, the skill's fields (a flags number
//!   for the optional ones, then each field in declaration order, maps and lists as a count and
//!   their items, metadata values as tagged JSON), and its diagnostics;
//! - the registry's own diagnostics (the shadowing ones are left out: they are derived again);
//! - the search index ([`crate::search::encode::to_bytes`]), length-prefixed, empty for none;
//! - the host's approvals: a count, then per approval its scope, name and content digest (see
//!   [`crate::consent`]), so that a registry started from a snapshot asks for none again;
//! - the content digests known when it was written: a count, then per skill its scope, name and
//!   digest, shown on the skills' metadata (never taken as a check: a snapshot is a cache).
//!
//! A `skillwasm-registry/4` snapshot (a record's directory in place of its location, and the
//! location only when it is not `<directory>/SKILL.md`), a `/3` one (without the digests either)
//! and a `/2` one (without the approvals) are still read, into records of their own.
//!
//! Numbers are LEB128 varints, strings a varint length and UTF-8, a diagnostic a byte of
//! severity and flags, its code as 1 + its index in [`codes::ALL`] (or 0 and the string), its
//! message, line and path. Every count and length is checked against the bytes that remain
//! before it is used, so bytes that are not a whole snapshot (cut, damaged, of another format)
//! are the `snapshot-invalid` diagnostic, never a panic or an allocation sized by the input.

use super::{DiscoverOptions, ScopeHandle, SkillRegistry};
use crate::diagnostic::{codes, Diagnostic};
use crate::discover::{Records, StoredRecords};
use crate::search::SearchIndex;
use crate::shared_bytes::SharedBytes;
use crate::store::CallStats;
use std::rc::Rc;

#[path = "snapshot_records.rs"]
mod records;
use crate::discover::snapshot_wire as wire;
use records::{read_records, Decoder, Encoder};
pub use records::{Carried, StoredApproval};
use wire::{Bad, Count, Reader};

/// The snapshot format's name and version.
pub const SNAPSHOT_FORMAT: &str = "skillwasm-registry/5";

/// The first line of a snapshot.
const MAGIC: &[u8] = b"skillwasm-registry/5\n";
/// The first lines of the earlier versions still read: without the digests, and without the
/// approvals either.
const MAGIC_4: &[u8] = b"skillwasm-registry/4\n";
const MAGIC_3: &[u8] = b"skillwasm-registry/3\n";
const MAGIC_2: &[u8] = b"skillwasm-registry/2\n";

/// The first line and the checksum.
const HEADER: usize = MAGIC.len() + 8;
/// The fewest bytes a scope takes: a bound on the count read.
const MIN_SCOPE: usize = 3;
/// The fewest bytes an approval takes (three lengths): a bound on the count read.
const MIN_APPROVAL: usize = 3;

fn invalid(why: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::SNAPSHOT_INVALID, format!("the snapshot cannot be read: {why}"))
}

/// The format an earlier or other snapshot names at its start (a JSON snapshot's `format`, the
/// first line of a binary one), when it names one.
fn named_format(bytes: &[u8]) -> Option<&str> {
    let head = bytes.get(..bytes.len().min(256))?;
    let named = if head.first() == Some(&b'{') {
        const KEY: &[u8] = b"\"format\":\"";
        let at = head.windows(KEY.len()).position(|w| w == KEY)? + KEY.len();
        let rest = head.get(at..)?;
        rest.get(..rest.iter().position(|&b| b == b'"')?)?
    } else {
        let line = head.get(..head.iter().position(|&b| b == b'\n')?)?;
        line.strip_prefix(b"skillwasm-").map(|_| line)?
    };
    std::str::from_utf8(named).ok().filter(|n| n.len() <= 64)
}

/// The body of a whole snapshot of this format or of an earlier one still read, with its
/// version, or why the bytes are not one.
fn body_of(bytes: &[u8]) -> Result<(&[u8], u8), Diagnostic> {
    let version = [(MAGIC, 5), (MAGIC_4, 4), (MAGIC_3, 3), (MAGIC_2, 2)]
        .into_iter()
        .find(|(m, _)| bytes.starts_with(m))
        .map(|(_, v)| v);
    let Some(version) = version else {
        return Err(match named_format(bytes) {
            Some(other) => Diagnostic::error(
                codes::SNAPSHOT_INVALID,
                format!("snapshot format {other:?} is not {SNAPSHOT_FORMAT:?}"),
            ),
            None => invalid(format_args!("it does not begin with {SNAPSHOT_FORMAT:?}")),
        });
    };
    let (sum, body) =
        bytes.get(MAGIC.len()..).unwrap_or_default().split_at_checked(8).ok_or_else(|| invalid("it ends early"))?;
    let mut want = [0u8; 8];
    want.copy_from_slice(sum);
    if wire::checksum(body) != u64::from_le_bytes(want) {
        return Err(invalid("it is damaged or cut short (the checksum differs)"));
    }
    Ok((body, version))
}

impl SkillRegistry {
    /// The registry as bytes: metadata, locations, diagnostics, the sizes and etags it was built
    /// from, and the search index. Storage handles are not in it; `from_snapshot` takes them again.
    pub fn snapshot(&self) -> Vec<u8> {
        self.snapshot_with(&Carried::default())
    }

    /// [`SkillRegistry::snapshot`] with the host's approvals and known content digests in it.
    pub fn snapshot_with(&self, carried: &Carried) -> Vec<u8> {
        let search = self.search_bytes();
        let enc =
            Encoder { scopes: &self.scopes, codes: codes::ALL.iter().enumerate().map(|(i, c)| (*c, i)).collect() };
        // Written twice: once to count its bytes, once into a buffer of exactly that size (a
        // buffer grown by doubling holds up to twice the snapshot, and three times while it moves).
        let mut counted = Count(HEADER);
        enc.body(&mut counted, self, &search, carried);
        let mut out = Vec::with_capacity(counted.0);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[0; 8]);
        enc.body(&mut out, self, &search, carried);
        let sum = wire::checksum(out.get(HEADER..).unwrap_or_default());
        if let Some(slot) = out.get_mut(MAGIC.len()..HEADER) {
            slot.copy_from_slice(&sum.to_le_bytes());
        }
        out
    }

    /// Starts from a snapshot with no store call. The scopes must be configured as they were when
    /// it was taken (same names, roots and trust); `refresh` then finds what changed since. The
    /// registry keeps the snapshot's bytes and reads its skills and its search index where they
    /// lie: given a `Vec<u8>`, it takes it without a copy.
    pub fn from_snapshot(
        bytes: impl Into<SharedBytes>,
        scopes: Vec<ScopeHandle>,
        options: DiscoverOptions,
    ) -> Result<SkillRegistry, Diagnostic> {
        Self::from_snapshot_checked(bytes, scopes, options, |_| {})
    }

    /// [`SkillRegistry::from_snapshot`], calling `checked` with the snapshot's length once its
    /// checksum and scopes are found good, before its records are decoded (the wasm module makes
    /// room for the registry there, and not for a snapshot it refuses).
    pub fn from_snapshot_checked(
        bytes: impl Into<SharedBytes>,
        scopes: Vec<ScopeHandle>,
        options: DiscoverOptions,
        checked: impl FnOnce(usize),
    ) -> Result<SkillRegistry, Diagnostic> {
        Self::from_snapshot_with(bytes, scopes, options, checked).map(|(r, _)| r)
    }

    /// [`SkillRegistry::from_snapshot_checked`], with what the snapshot carries as it was
    /// written: the consent module checks the approvals, the host the digests.
    pub fn from_snapshot_with(
        bytes: impl Into<SharedBytes>,
        scopes: Vec<ScopeHandle>,
        options: DiscoverOptions,
        checked: impl FnOnce(usize),
    ) -> Result<(SkillRegistry, Carried), Diagnostic> {
        let bytes: SharedBytes = bytes.into();
        let (body, version) = body_of(&bytes)?;
        let body = bytes.slice(bytes.len() - body.len()..bytes.len());
        let mut d =
            Decoder { r: Reader::new(&body), body: body.clone(), scopes: &scopes, no_diagnostics: Rc::default() };
        let at = |d: &Decoder, b: Bad| invalid(format_args!("{} (byte {})", b.0, HEADER + d.r.offset()));
        if !same_scopes(&mut d.r, &scopes).map_err(|b| at(&d, b))? {
            return Err(Diagnostic::error(
                codes::SNAPSHOT_MISMATCH,
                "the snapshot was taken with other scopes, roots or trust than these; discover afresh",
            ));
        }
        checked(bytes.len());
        let records = if version < 5 {
            Records::Parsed(read_records(&mut d).map_err(|b| at(&d, b))?)
        } else {
            let names = scopes.iter().map(|s| s.name.clone()).collect();
            let n = d.r.count(records::MIN_RECORD).map_err(|b| at(&d, b))?;
            Records::Stored(StoredRecords::read(&mut d.r, &body, names, n).map_err(|b| at(&d, b))?)
        };
        let mut diagnostics = d.diagnostics().map_err(|b| at(&d, b))?;
        let search = d.r.bytes().map_err(|b| at(&d, b))?;
        // The index's bytes where they lie in the snapshot: after their length.
        let search = (!search.is_empty()).then(|| body.slice(d.r.offset() - search.len()..d.r.offset()));
        let approvals = if version < 3 { Vec::new() } else { read_triples(&mut d.r).map_err(|b| at(&d, b))? };
        let digests = if version < 4 { Vec::new() } else { read_triples(&mut d.r).map_err(|b| at(&d, b))? };
        if d.r.left() != 0 {
            return Err(at(&d, Bad("bytes follow the end")));
        }
        drop(d);
        let mut r = SkillRegistry::empty(scopes, options, Rc::new(CallStats::default()));
        r.records = Rc::new(records);
        diagnostics.retain(|d| d.code != codes::SKILL_SHADOWED);
        r.diagnostics = diagnostics;
        r.resolve();
        // The stored index is the index: loading it decodes no list (a few milliseconds at
        // 100,000 skills), so the first search costs what any search costs. One over other skills
        // than these (a snapshot from another version) is built again on first use.
        if let Some(ix) = search.and_then(SearchIndex::load).filter(|ix| ix.has_names(r.winner_names())) {
            let _ = r.search.set(Rc::new(ix));
        }
        Ok((r, Carried { approvals, digests }))
    }
}

/// Reads the approvals or the digests a snapshot holds, `(scope, name, digest)` each (a count
/// checked against the bytes left).
fn read_triples(r: &mut Reader) -> Result<Vec<StoredApproval>, Bad> {
    let n = r.count(MIN_APPROVAL)?;
    let mut out = Vec::with_capacity(crate::discover::records::reserved(n, r.left()));
    for _ in 0..n {
        out.push((r.string()?, r.string()?, r.string()?));
    }
    Ok(out)
}

/// Reads the snapshot's scopes and says whether they are `scopes` (names, roots, trust, order).
fn same_scopes(r: &mut Reader, scopes: &[ScopeHandle]) -> Result<bool, Bad> {
    let n = r.count(MIN_SCOPE)?;
    let mut same = n == scopes.len();
    for i in 0..n {
        let name = r.str()?;
        let want = scopes.get(i);
        same &= want.is_some_and(|s| s.name == name);
        let roots = r.count(1)?;
        same &= want.is_some_and(|s| s.roots.len() == roots);
        for k in 0..roots {
            let root = r.str()?;
            same &= want.and_then(|s| s.roots.get(k)).is_some_and(|x| x == root);
        }
        let trusted = match r.byte()? {
            0 => false,
            1 => true,
            _ => return Err(Bad("a scope's trust is not a boolean")),
        };
        same &= want.is_some_and(|s| s.trusted == trusted);
    }
    Ok(same)
}

#[cfg(test)]
#[path = "snapshot_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "search_words_tests.rs"]
mod search_words_tests;

#[cfg(test)]
#[path = "stored_skill_tests.rs"]
mod stored_skill_tests;
