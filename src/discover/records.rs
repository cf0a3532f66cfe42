//! A registry's records ([`Records`]): the ones a discovery parsed, or the ones a snapshot holds,
//! kept in its bytes and read in place ([`StoredRecords`]). Either is read through [`Record`], so
//! the orderings, the metas and the reads work on both alike. A registry started from a snapshot
//! of 100,000 skills so holds the snapshot and, per skill, a place and a slot for its decoded
//! skill: no string of its own.

use super::record::{directory_of, SearchWords, SkillRecord, SkillSlot};
use super::snapshot_wire::{Bad, Reader};
use super::stored_skill::StoredSkill;
use crate::diagnostic::{codes, Diagnostic, Severity};
use crate::shared_bytes::SharedBytes;
use std::rc::Rc;

// A record's flags, as a snapshot writes them.
/// The record has a listed size.
pub(super) const HAS_SIZE: u8 = 1;
/// The record has a listed etag.
pub(super) const HAS_ETAG: u8 = 2;
/// The record holds a skill.
pub(super) const HAS_SKILL: u8 = 4;
/// (Before version 5) the location is not `<directory>/SKILL.md` and follows the directory.
pub(super) const OWN_LOCATION: u8 = 8;
/// Every flag a record may have.
pub(super) const RECORD_FLAGS: u8 = HAS_SIZE | HAS_ETAG | HAS_SKILL | OWN_LOCATION;

// A diagnostic's byte: the severity in the low two bits, then which of line and path follow.
/// A line follows.
pub(super) const HAS_LINE: u8 = 4;
/// A path follows.
pub(super) const HAS_PATH: u8 = 8;

/// Reads a diagnostic as a snapshot writes it.
pub(super) fn read_diagnostic(r: &mut Reader) -> Result<Diagnostic, Bad> {
    let head = r.byte()?;
    let severity = match head & 3 {
        0 => Severity::Error,
        1 => Severity::Warning,
        2 => Severity::Info,
        _ => return Err(Bad("a diagnostic has an unknown severity")),
    };
    if head & !(3 | HAS_LINE | HAS_PATH) != 0 {
        return Err(Bad("a diagnostic has unknown flags"));
    }
    let code = match r.at_most(codes::ALL.len() as u64)? {
        0 => r.string()?,
        k => codes::ALL.get(k as usize - 1).ok_or(Bad("a diagnostic has an unknown code"))?.to_string(),
    };
    let message = r.string()?;
    let line = if head & HAS_LINE == 0 { None } else { Some(r.at_most(u64::from(u32::MAX))? as u32) };
    let path = if head & HAS_PATH == 0 { None } else { Some(r.string()?) };
    Ok(Diagnostic { severity, code, message, line, path })
}

/// The fewest bytes a diagnostic takes: a bound on the count read.
pub(super) const MIN_DIAGNOSTIC: usize = 3;

/// Bytes of the snapshot counted per item reserved ahead: a real record (or approval) takes tens
/// of bytes, so a count that lies, though within the bytes left at the fewest bytes an item can
/// take, reserves little more than the input's own size; items past it grow the lists as read.
const BYTES_PER_RESERVED: usize = 32;

/// How many of `n` items said to follow in `left` bytes to reserve room for at once.
pub(super) fn reserved(n: usize, left: usize) -> usize {
    n.min(left / BYTES_PER_RESERVED)
}

/// Reads a count of diagnostics and the diagnostics.
pub(super) fn read_diagnostics(r: &mut Reader) -> Result<Vec<Diagnostic>, Bad> {
    let n = r.count(MIN_DIAGNOSTIC)?;
    let mut out = Vec::with_capacity(n.min(16));
    for _ in 0..n {
        out.push(read_diagnostic(r)?);
    }
    Ok(out)
}

/// A registry's records.
#[derive(Debug)]
pub enum Records {
    /// Those a discovery parsed.
    Parsed(Vec<SkillRecord>),
    /// Those a snapshot holds, read in place.
    Stored(StoredRecords),
}

impl PartialEq for Records {
    /// Records are equal when each is, however they are held.
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().zip(other.iter()).all(|(a, b)| a == b)
    }
}

impl Default for Records {
    fn default() -> Records {
        Records::Parsed(Vec::new())
    }
}

impl Records {
    /// How many.
    pub fn len(&self) -> usize {
        match self {
            Records::Parsed(v) => v.len(),
            Records::Stored(s) => s.at.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i`.
    pub fn get(&self, i: usize) -> Option<Record<'_>> {
        match self {
            Records::Parsed(v) => v.get(i).map(Record::Parsed),
            Records::Stored(s) => (i < s.at.len()).then_some(Record::Stored(s, i)),
        }
    }

    /// Every record, in order.
    pub fn iter(&self) -> impl Iterator<Item = Record<'_>> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }

    /// Which records these are (an address and a count), for identity only.
    pub fn identity(&self) -> (usize, usize) {
        match self {
            Records::Parsed(v) => (v.as_ptr() as usize, v.len()),
            Records::Stored(s) => (s.at.as_ptr() as usize, s.at.len()),
        }
    }
}

/// Records as a snapshot (`skillwasm-registry/5`) holds them: where each begins in its bytes,
/// and a slot per record for its skill (read in place, decoded when asked for).
#[derive(Debug)]
pub struct StoredRecords {
    /// The snapshot's body.
    body: SharedBytes,
    /// The configured scopes' names (a record names its scope by its place among them).
    scopes: Vec<String>,
    /// Where each record begins in `body`.
    at: Vec<u32>,
    /// Each record's skill.
    skills: Vec<SkillSlot>,
    /// Shared by every record without diagnostics.
    none: Rc<Vec<Diagnostic>>,
    /// What a place without a record holds (never one a record is at).
    no_skill: SkillSlot,
}

/// A record's fields before its skill, read in place.
struct Head<'a> {
    flags: u8,
    scope: &'a str,
    root: usize,
    location: &'a str,
    size: Option<u64>,
    etag: Option<&'a str>,
    /// Where the skill (or, without one, the diagnostics) begins.
    next: usize,
}

/// Reads a record's fields before its skill (version 5), every one checked.
fn read_head<'a>(r: &mut Reader<'a>, scopes: &'a [String]) -> Result<Head<'a>, Bad> {
    let flags = r.byte()?;
    if flags & !(HAS_SIZE | HAS_ETAG | HAS_SKILL) != 0 {
        return Err(Bad("a record has unknown flags"));
    }
    let scope = match r.at_most(scopes.len() as u64)? {
        0 => r.str()?,
        i => scopes.get(i as usize - 1).ok_or(Bad("a record names no scope"))?.as_str(),
    };
    let root = usize::try_from(r.at_most(u64::from(u32::MAX))?).map_err(|_| Bad("a root is out of range"))?;
    let location = r.str()?;
    let size = if flags & HAS_SIZE == 0 { None } else { Some(r.varint()?) };
    let etag = if flags & HAS_ETAG == 0 { None } else { Some(r.str()?) };
    Ok(Head { flags, scope, root, location, size, etag, next: r.offset() })
}

impl StoredRecords {
    /// Reads `n` records from `r` (over `body`, the snapshot's body), each checked whole: its
    /// fields, its skill as reading it would ([`StoredSkill::checked`]), its diagnostics.
    pub(super) fn read(r: &mut Reader, body: &SharedBytes, scopes: Vec<String>, n: usize) -> Result<Self, Bad> {
        let room = reserved(n, r.left());
        let mut at = Vec::with_capacity(room);
        let mut skills = Vec::with_capacity(room);
        for _ in 0..n {
            let start = r.offset();
            at.push(u32::try_from(start).map_err(|_| Bad("the snapshot is too large"))?);
            // The record read from its start (the scopes' names borrowed for it), then passed.
            let mut one = Reader::new(body.get(start..).unwrap_or_default());
            let head = read_head(&mut one, &scopes)?;
            let skill = if head.flags & HAS_SKILL == 0 {
                SkillSlot::default()
            } else {
                let (stored, len) = StoredSkill::checked(body.slice(start + head.next..body.len()))?;
                one.take(len)?;
                SkillSlot::from(stored)
            };
            skills.push(skill);
            for _ in 0..one.count(MIN_DIAGNOSTIC)? {
                read_diagnostic(&mut one)?;
            }
            r.take(one.offset())?;
        }
        Ok(StoredRecords {
            body: body.clone(),
            scopes,
            at,
            skills,
            none: Rc::default(),
            no_skill: SkillSlot::default(),
        })
    }

    /// Record `i`'s fields before its skill (checked when the snapshot was read).
    fn head(&self, i: usize) -> Option<Head<'_>> {
        let start = *self.at.get(i)? as usize;
        let mut r = Reader::new(self.body.get(start..)?);
        let mut head = read_head(&mut r, &self.scopes).ok()?;
        head.next += start;
        Some(head)
    }

    /// Record `i`'s diagnostics.
    fn diagnostics(&self, i: usize) -> Rc<Vec<Diagnostic>> {
        let read = || {
            let head = self.head(i)?;
            let skill_len = self.skills.get(i)?.stored().map_or(0, |s| s.bytes().len());
            let mut r = Reader::new(self.body.get(head.next + skill_len..)?);
            read_diagnostics(&mut r).ok().filter(|d| !d.is_empty())
        };
        read().map_or_else(|| self.none.clone(), Rc::new)
    }

    /// Record `i`'s bytes, as the snapshot holds them (a snapshot of the registry writes them
    /// again as they are).
    pub(super) fn bytes(&self, i: usize) -> &[u8] {
        let start = self.at.get(i).map_or(0, |&a| a as usize);
        let end = self.at.get(i + 1).map_or_else(|| self.end(), |&a| a as usize);
        self.body.get(start..end).unwrap_or_default()
    }

    /// Where the last record ends.
    fn end(&self) -> usize {
        let Some(last) = self.at.len().checked_sub(1) else { return 0 };
        let Some(head) = self.head(last) else { return 0 };
        let skill_len = self.skills.get(last).and_then(SkillSlot::stored).map_or(0, |s| s.bytes().len());
        let mut r = Reader::new(self.body.get(head.next + skill_len..).unwrap_or_default());
        let _ = read_diagnostics(&mut r);
        head.next + skill_len + r.offset()
    }
}

/// One record, parsed or stored.
#[derive(Clone, Copy, Debug)]
pub enum Record<'a> {
    /// A record a discovery parsed.
    Parsed(&'a SkillRecord),
    /// Record `.1` of records a snapshot holds.
    Stored(&'a StoredRecords, usize),
}

impl PartialEq for Record<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.scope() == other.scope()
            && self.root() == other.root()
            && self.location() == other.location()
            && self.size() == other.size()
            && self.etag() == other.etag()
            && self.skill() == other.skill()
            && self.diagnostics() == other.diagnostics()
    }
}

impl<'a> Record<'a> {
    /// The scope it was found in.
    pub fn scope(self) -> &'a str {
        match self {
            Record::Parsed(r) => &r.scope,
            Record::Stored(s, i) => s.head(i).map_or("", |h| h.scope),
        }
    }

    /// Its scope, root and key at once (a stored record's fields read once).
    pub fn place(self) -> (&'a str, usize, &'a str) {
        match self {
            Record::Parsed(r) => (&r.scope, r.root, &r.location),
            Record::Stored(s, i) => s.head(i).map_or(("", 0, ""), |h| (h.scope, h.root, h.location)),
        }
    }

    /// Whether it was found under root `root` of scope `scope` (a stored record's head read once).
    pub fn is_under(self, scope: &str, root: usize) -> bool {
        let (s, r, _) = self.place();
        r == root && s == scope
    }

    /// The index of the root it was found under.
    pub fn root(self) -> usize {
        match self {
            Record::Parsed(r) => r.root,
            Record::Stored(s, i) => s.head(i).map_or(0, |h| h.root),
        }
    }

    /// The key of its SKILL.md.
    pub fn location(self) -> &'a str {
        match self {
            Record::Parsed(r) => &r.location,
            Record::Stored(s, i) => s.head(i).map_or("", |h| h.location),
        }
    }

    /// The key of its directory.
    pub fn directory(self) -> &'a str {
        directory_of(self.location())
    }

    /// The listed size.
    pub fn size(self) -> Option<u64> {
        match self {
            Record::Parsed(r) => r.size,
            Record::Stored(s, i) => s.head(i).and_then(|h| h.size),
        }
    }

    /// The listed etag.
    pub fn etag(self) -> Option<&'a str> {
        match self {
            Record::Parsed(r) => r.etag.as_deref(),
            Record::Stored(s, i) => s.head(i).and_then(|h| h.etag),
        }
    }

    /// Its skill.
    pub fn skill(self) -> &'a SkillSlot {
        match self {
            Record::Parsed(r) => &r.skill,
            Record::Stored(s, i) => s.skills.get(i).unwrap_or(&s.no_skill),
        }
    }

    /// What was found wrong with it.
    pub fn diagnostics(self) -> Rc<Vec<Diagnostic>> {
        match self {
            Record::Parsed(r) => r.diagnostics.clone(),
            Record::Stored(s, i) => s.diagnostics(i),
        }
    }

    /// The body words it holds until the index is built (a stored record holds none).
    pub fn search_words(self) -> Option<&'a SearchWords> {
        match self {
            Record::Parsed(r) => Some(&r.search_words),
            Record::Stored(..) => None,
        }
    }

    /// Whether a fresh listing entry still describes what this record was built from
    /// (as a parsed record decides it).
    pub fn unchanged(self, size: Option<u64>, etag: Option<&str>) -> bool {
        match self {
            Record::Parsed(r) => r.unchanged(size, etag),
            Record::Stored(..) => {
                !self.diagnostics().iter().any(Diagnostic::is_transient)
                    && super::record::unchanged_listing((self.size(), self.etag()), (size, etag))
            }
        }
    }
}
