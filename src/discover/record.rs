//! What discovery finds: the scopes it searches ([`ScopeHandle`]), one record per SKILL.md found
//! ([`SkillRecord`]) and what one discovery produced ([`Discovery`]), which ordering, reports,
//! snapshots and the registry read.

use super::root_listing::RootListing;
use crate::diagnostic::Diagnostic;
use crate::parse::Skill;
use crate::store::Storage;
use std::cell::RefCell;
use std::rc::Rc;

/// A scope as discovery sees it: a name, a store, the roots to search in it, and trust.
#[derive(Clone)]
pub struct ScopeHandle {
    /// The scope's name (`project`, `user`, `org`, `builtin` or one the host names).
    pub name: String,
    /// The list prefixes searched for skills, in order.
    pub roots: Vec<String>,
    /// Whether the scope's files may be read.
    pub trusted: bool,
    /// The scope's store.
    pub storage: Rc<dyn Storage>,
}

/// One SKILL.md found, read or not, and what came of it. Kept in snapshots.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillRecord {
    /// The scope it was found in.
    pub scope: String,
    /// Index of the root it was found under, in the scope's root list (for ordering).
    pub root: usize,
    /// The key of the SKILL.md (its directory is derived from it: [`SkillRecord::directory`]).
    pub location: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The listed size, when the store gave one.
    pub size: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The listed etag, when the store gave one.
    pub etag: Option<String>,
    /// None when the skill was refused (the diagnostics say why). Shared with the metas and the
    /// visibility built from it, so that each skill is held once.
    pub skill: Option<Rc<Skill>>,
    /// What was found wrong with it; shared with the metas made from the record.
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The words of the body's opening the search index weighs (see [`SearchWords`]).
    #[serde(skip)]
    pub search_words: SearchWords,
}

/// The distinct words of a skill's body opening, as discovery read them
/// ([`crate::search::body_words`]), until the search index is built from them: the index is
/// their home from then on, and a rebuild carries an unchanged skill's counts over from the index
/// it replaces. So a registry holds them only between a discovery and its first search or
/// snapshot, and a record from a snapshot never does. Derived from the file the record
/// describes, so two records are equal whatever their words (equality ignores them).
#[derive(Debug, Clone, Default)]
pub struct SearchWords(RefCell<Option<Rc<str>>>);

impl SearchWords {
    /// The words of a record just read.
    pub fn new(words: Option<Rc<str>>) -> SearchWords {
        SearchWords(RefCell::new(words))
    }

    /// The words, while the record holds them.
    pub fn get(&self) -> Option<Rc<str>> {
        self.0.borrow().clone()
    }

    /// Whether the record holds its words (not yet indexed, or never: a refused skill's).
    pub fn is_held(&self) -> bool {
        self.0.borrow().is_some()
    }

    /// Lets go of the words, once the index holds them.
    pub fn release(&self) {
        self.0.borrow_mut().take();
    }
}

impl PartialEq for SearchWords {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl SkillRecord {
    /// The key of its directory: the location without its file name and the `/` before it
    /// (`""` for a skill at the store's root). Derived, not stored: one string less per skill.
    pub fn directory(&self) -> &str {
        directory_of(&self.location)
    }

    /// Whether the record says what its file holds and tells a change by its listing (an etag or
    /// a size): a refresh that lists it as it was need not read it.
    pub(super) fn settled(&self) -> bool {
        self.unchanged(self.size, self.etag.as_deref())
    }

    /// Whether a fresh listing entry still describes what this record was built from, and the
    /// record says what the file holds (not a read or a parse that could not be done then: a
    /// transient diagnostic, after which the file is read again).
    pub(super) fn unchanged(&self, size: Option<u64>, etag: Option<&str>) -> bool {
        if self.diagnostics.iter().any(Diagnostic::is_transient) {
            return false;
        }
        match (self.etag.as_deref(), etag) {
            (Some(a), Some(b)) => a == b && (self.size.is_none() || size.is_none() || self.size == size),
            (None, None) => self.size.is_some() && self.size == size,
            _ => false,
        }
    }
}

/// The directory key of a file key: the key without its last segment and the `/`s before it.
/// Byte by byte (`/` is ASCII): it runs in every comparison of a discovery's directory sort.
pub fn directory_of(key: &str) -> &str {
    let bytes = key.as_bytes();
    let mut end = bytes.iter().rposition(|&b| b == b'/').unwrap_or(0);
    while end > 0 && bytes.get(end - 1) == Some(&b'/') {
        end -= 1;
    }
    key.get(..end).unwrap_or_default()
}

/// What one discovery produced.
#[derive(Debug, Default)]
pub struct Discovery {
    /// Every SKILL.md found, in precedence order within each scope.
    pub records: Vec<SkillRecord>,
    /// Findings about scopes and roots rather than single skills.
    pub diagnostics: Vec<Diagnostic>,
    /// Set when every listed SKILL.md is, in order, the one a previous record was built from,
    /// with the same size and etag, and no other was listed: `records` is then left empty and the
    /// previous records stand as they are (nothing is read, cloned or ordered again).
    pub unchanged: bool,
    /// Set when the listing had the previous layout (the same keys of the same scopes and roots,
    /// in the same order) but some files were read again: their positions, ascending. Every
    /// other record is the previous one at its position, so whatever depends on keys alone
    /// (precedence, nesting) stands.
    pub reread: Option<Vec<usize>>,
    /// Which previous records this discovery was compared with: their address and count, for
    /// identity only (never read through). A registry applies `unchanged` and `reread` only to
    /// the records they were found against; another refresh may have replaced them meanwhile.
    pub compared_with: (usize, usize),
    /// What the next refresh needs of each root's listing, in the order the roots were listed.
    pub roots: Vec<RootListing>,
}
