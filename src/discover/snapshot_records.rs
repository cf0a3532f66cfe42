//! The records of a snapshot, byte by byte: [`Encoder`] writes the scopes, the records (their
//! skills and diagnostics) and the registry's diagnostics; [`Decoder`] reads them back, checking
//! each flag, index and count as it goes (the layout is described in the parent module).

use super::wire::{self, Bad, Reader, Sink};
use crate::diagnostic::{Diagnostic, Severity};
use crate::discover::records::{
    read_diagnostics, reserved, HAS_ETAG, HAS_LINE, HAS_PATH, HAS_SIZE, HAS_SKILL, OWN_LOCATION, RECORD_FLAGS,
};
use crate::discover::stored_skill::{self, StoredSkill};
use crate::discover::{Records, ScopeHandle, SkillRecord, SkillRegistry, SkillSlot};
use crate::shared_bytes::SharedBytes;
use std::collections::HashMap;
use std::rc::Rc;

/// An approval as a snapshot keeps it: the skill's scope, its name and the content digest
/// approved (the consent module checks and holds them; discovery only carries them).
pub type StoredApproval = (String, String, String);

/// What a snapshot carries besides the registry, as it was written (the caller checks it).
#[derive(Debug, Default, PartialEq)]
pub struct Carried {
    /// The host's approvals (none before version 3).
    pub approvals: Vec<StoredApproval>,
    /// The content digests known when it was written, `(scope, name, digest)` (none before
    /// version 4).
    pub digests: Vec<StoredApproval>,
}

/// The key every skill's SKILL.md has below its directory, unless it was found as `skill.md`.
const SKILL_MD: &str = "SKILL.md";

/// The fewest bytes a record takes: a bound on the count read.
pub(super) const MIN_RECORD: usize = 5;

/// What the encoder looks up per record.
pub(super) struct Encoder<'a> {
    pub(super) scopes: &'a [ScopeHandle],
    pub(super) codes: HashMap<&'static str, usize>,
}

impl Encoder<'_> {
    pub(super) fn body<S: Sink>(&self, s: &mut S, reg: &SkillRegistry, search: &[u8], carried: &Carried) {
        wire::varint(s, self.scopes.len() as u64);
        for scope in self.scopes {
            wire::str(s, &scope.name);
            wire::varint(s, scope.roots.len() as u64);
            for root in &scope.roots {
                wire::str(s, root);
            }
            s.byte(u8::from(scope.trusted));
        }
        wire::varint(s, reg.records.len() as u64);
        match &*reg.records {
            // As the snapshot they came from holds them (the same scopes, checked when it was
            // read): nothing decoded to write them again.
            Records::Stored(stored) => {
                for i in 0..reg.records.len() {
                    s.put(stored.bytes(i));
                }
            }
            Records::Parsed(records) => {
                for r in records {
                    self.record(s, r);
                }
            }
        }
        // The registry's own findings: the shadowing warnings are written when asked for, never
        // held, so none is among them.
        wire::varint(s, reg.diagnostics.len() as u64);
        for d in &reg.diagnostics {
            self.diagnostic(s, d);
        }
        wire::bytes(s, search);
        for triples in [&carried.approvals, &carried.digests] {
            wire::varint(s, triples.len() as u64);
            for (scope, name, digest) in triples {
                wire::str(s, scope);
                wire::str(s, name);
                wire::str(s, digest);
            }
        }
    }

    fn record<S: Sink>(&self, s: &mut S, r: &SkillRecord) {
        let SkillRecord { scope, root, location, size, etag, skill, diagnostics, search_words: _ } = r;
        let mut flags = 0;
        for (on, bit) in [(size.is_some(), HAS_SIZE), (etag.is_some(), HAS_ETAG), (skill.is_some(), HAS_SKILL)] {
            if on {
                flags |= bit;
            }
        }
        s.byte(flags);
        match self.scopes.iter().position(|x| x.name == *scope) {
            Some(i) => wire::varint(s, i as u64 + 1),
            None => {
                wire::varint(s, 0);
                wire::str(s, scope);
            }
        }
        wire::varint(s, *root as u64);
        wire::str(s, location);
        if let Some(size) = size {
            wire::varint(s, *size);
        }
        if let Some(etag) = etag {
            wire::str(s, etag);
        }
        if let Some(stored) = skill.stored() {
            // As the snapshot it came from holds it: nothing decoded to write it again.
            s.put(stored.bytes());
        } else if let Some(skill) = skill.as_deref() {
            stored_skill::write(s, skill);
        }
        wire::varint(s, diagnostics.len() as u64);
        for d in diagnostics.iter() {
            self.diagnostic(s, d);
        }
    }

    fn diagnostic<S: Sink>(&self, s: &mut S, d: &Diagnostic) {
        let Diagnostic { severity, code, message, line, path } = d;
        let mut head = match severity {
            Severity::Error => 0,
            Severity::Warning => 1,
            Severity::Info => 2,
        };
        if line.is_some() {
            head |= HAS_LINE;
        }
        if path.is_some() {
            head |= HAS_PATH;
        }
        s.byte(head);
        match self.codes.get(code.as_str()) {
            Some(&i) => wire::varint(s, i as u64 + 1),
            None => {
                wire::varint(s, 0);
                wire::str(s, code);
            }
        }
        wire::str(s, message);
        if let Some(line) = line {
            wire::varint(s, u64::from(*line));
        }
        if let Some(path) = path {
            wire::str(s, path);
        }
    }
}

/// `directory`'s `SKILL.md` (what a snapshot before version 5 did not spell out).
pub(super) fn usual_location(directory: &str) -> String {
    let mut out = String::with_capacity(directory.len() + 1 + SKILL_MD.len());
    out.push_str(directory);
    if !directory.is_empty() {
        out.push('/');
    }
    out.push_str(SKILL_MD);
    out
}

/// Reads what [`Encoder`] writes.
pub(super) struct Decoder<'a, 'b> {
    pub(super) r: Reader<'a>,
    /// What `r` reads, shared: the records' skills stay in it.
    pub(super) body: SharedBytes,
    /// The configured scopes' names, which the snapshot's were checked to equal.
    pub(super) scopes: &'b [ScopeHandle],
    /// Shared by every record without diagnostics, so that each does not hold an empty list.
    pub(super) no_diagnostics: Rc<Vec<Diagnostic>>,
}

impl Decoder<'_, '_> {
    /// The skill at the reader, checked whole and kept as its bytes in the snapshot's buffer.
    fn stored_skill(&mut self) -> Result<SkillSlot, Bad> {
        let at = self.r.offset();
        let (stored, len) = StoredSkill::checked(self.body.slice(at..self.body.len()))?;
        self.r.take(len)?;
        Ok(SkillSlot::from(stored))
    }

    pub(super) fn diagnostics(&mut self) -> Result<Vec<Diagnostic>, Bad> {
        read_diagnostics(&mut self.r)
    }

    fn record(&mut self) -> Result<SkillRecord, Bad> {
        let flags = self.r.byte()?;
        if flags & !RECORD_FLAGS != 0 {
            return Err(Bad("a record has unknown flags"));
        }
        let scope = match self.r.at_most(self.scopes.len() as u64)? {
            0 => self.r.string()?,
            i => self.scopes.get(i as usize - 1).ok_or(Bad("a record names no scope"))?.name.clone(),
        };
        let root = usize::try_from(self.r.at_most(u64::from(u32::MAX))?).map_err(|_| Bad("a root is out of range"))?;
        let directory = self.r.str()?;
        let location = if flags & OWN_LOCATION == 0 { usual_location(directory) } else { self.r.string()? };
        // The record keeps only the location; the directory it was written with is its own.
        if crate::discover::directory_of(&location) != directory {
            return Err(Bad("a record's directory is not its location's"));
        }
        let size = if flags & HAS_SIZE == 0 { None } else { Some(self.r.varint()?) };
        let etag = if flags & HAS_ETAG == 0 { None } else { Some(self.r.string()?) };
        let skill = if flags & HAS_SKILL == 0 { SkillSlot::default() } else { self.stored_skill()? };
        let found = self.diagnostics()?;
        let diagnostics = if found.is_empty() { self.no_diagnostics.clone() } else { Rc::new(found) };
        Ok(SkillRecord { scope, root, location, size, etag, skill, diagnostics, search_words: Default::default() })
    }
}

pub(super) fn read_records(d: &mut Decoder) -> Result<Vec<SkillRecord>, Bad> {
    let n = d.r.count(MIN_RECORD)?;
    let mut records = Vec::with_capacity(reserved(n, d.r.left()));
    for _ in 0..n {
        records.push(d.record()?);
    }
    Ok(records)
}
