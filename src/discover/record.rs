//! What discovery finds: the scopes it searches ([`ScopeHandle`]), one record per SKILL.md found
//! ([`SkillRecord`]) and what one discovery produced ([`Discovery`]), which ordering, reports,
//! snapshots and the registry read.

use super::root_listing::RootListing;
use super::stored_skill::StoredSkill;
use crate::diagnostic::Diagnostic;
use crate::parse::Skill;
use crate::store::Storage;
use std::cell::{OnceCell, RefCell};
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
#[derive(Debug, Clone, PartialEq)]
pub struct SkillRecord {
    /// The scope it was found in.
    pub scope: String,
    /// Index of the root it was found under, in the scope's root list (for ordering).
    pub root: usize,
    /// The key of the SKILL.md (its directory is derived from it: [`SkillRecord::directory`]).
    pub location: String,
    /// The listed size, when the store gave one.
    pub size: Option<u64>,
    /// The listed etag, when the store gave one.
    pub etag: Option<String>,
    /// None when the skill was refused (the diagnostics say why). Shared with the metas and the
    /// visibility built from it, so that each skill is held once.
    pub skill: SkillSlot,
    /// What was found wrong with it; shared with the metas made from the record.
    pub diagnostics: Rc<Vec<Diagnostic>>,
    /// The words of the body's opening the search index weighs (see [`SearchWords`]).
    pub search_words: SearchWords,
}

/// A record's skill: the one discovery parsed, or one a snapshot holds (a stored skill), read
/// in place for its name and the flags visibility reads, and decoded (then kept) when the skill
/// itself is asked for. So a registry started from a snapshot decodes only the skills it uses: at
/// 100,000 skills, those a catalog lists and those the model loads, not all of them.
#[derive(Clone, Default)]
pub struct SkillSlot {
    decoded: OnceCell<Rc<Skill>>,
    stored: Option<StoredSkill>,
}

impl From<Option<Rc<Skill>>> for SkillSlot {
    fn from(skill: Option<Rc<Skill>>) -> SkillSlot {
        SkillSlot { decoded: skill.map(OnceCell::from).unwrap_or_default(), stored: None }
    }
}

impl From<StoredSkill> for SkillSlot {
    fn from(stored: StoredSkill) -> SkillSlot {
        SkillSlot { decoded: OnceCell::new(), stored: Some(stored) }
    }
}

impl SkillSlot {
    /// The skill (decoded now when it is a stored one not decoded yet).
    pub fn as_ref(&self) -> Option<&Rc<Skill>> {
        if let Some(skill) = self.decoded.get() {
            return Some(skill);
        }
        let skill = self.stored.as_ref()?.decode()?;
        Some(self.decoded.get_or_init(|| Rc::new(skill)))
    }

    /// The skill's fields (decoded now when it is a stored one not decoded yet).
    pub fn as_deref(&self) -> Option<&Skill> {
        self.as_ref().map(|s| &**s)
    }

    /// Whether there is a skill.
    pub fn is_some(&self) -> bool {
        self.decoded.get().is_some() || self.stored.is_some()
    }

    /// Whether there is none (the record's SKILL.md was refused).
    pub fn is_none(&self) -> bool {
        !self.is_some()
    }

    /// The skill's name, without decoding a stored skill.
    pub fn name(&self) -> Option<&str> {
        match (self.decoded.get(), &self.stored) {
            (Some(skill), _) => Some(&skill.name),
            (None, Some(stored)) => Some(stored.name()),
            (None, None) => None,
        }
    }

    /// The skill's head, without decoding a stored skill.
    pub fn head(&self) -> Option<SkillHead<'_>> {
        match (self.decoded.get(), &self.stored) {
            (Some(skill), _) => Some(SkillHead::of(skill)),
            (None, Some(stored)) => {
                let (name, disable_model_invocation, user_invocable, sets_tier_or_compatibility) = stored.head();
                Some(SkillHead { name, disable_model_invocation, user_invocable, sets_tier_or_compatibility })
            }
            (None, None) => None,
        }
    }

    /// The snapshot bytes of a stored skill (what a snapshot of this registry writes again).
    pub fn stored(&self) -> Option<&StoredSkill> {
        self.stored.as_ref()
    }

    /// Whether the skill is held decoded (a parsed one, or a stored one asked for).
    pub fn is_decoded(&self) -> bool {
        self.decoded.get().is_some()
    }
}

/// What visibility reads of every skill before anything else: the name, the two invocation
/// fields and whether the skill sets a field the host's rules read (`min_tier`,
/// `compatibility`), so that a stored skill that sets none is never decoded to be filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SkillHead<'a> {
    /// The skill's name.
    pub name: &'a str,
    /// `disable-model-invocation`.
    pub disable_model_invocation: bool,
    /// `user-invocable`.
    pub user_invocable: bool,
    /// Whether `min_tier` or `compatibility` is set.
    pub sets_tier_or_compatibility: bool,
}

impl<'a> SkillHead<'a> {
    /// The head of a skill held decoded.
    pub fn of(skill: &'a Skill) -> SkillHead<'a> {
        SkillHead {
            name: &skill.name,
            disable_model_invocation: skill.disable_model_invocation,
            user_invocable: skill.user_invocable,
            sets_tier_or_compatibility: skill.min_tier.is_some() || skill.compatibility.is_some(),
        }
    }
}

impl PartialEq for SkillSlot {
    /// Two slots are equal when their skills are, however each is held.
    fn eq(&self, other: &Self) -> bool {
        self.as_ref() == other.as_ref()
    }
}

impl std::fmt::Debug for SkillSlot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_deref().fmt(f)
    }
}

/// The distinct words of a skill's body opening, as discovery read them
/// (`discover/body_words.rs`), until the search index is built from them: the index is
/// their home from then on, and a rebuild carries an unchanged skill's counts over from the index
/// it replaces. Discovery builds the index before it returns, so a registry holds them only
/// for a record a refresh read, until the next search or snapshot; a record from a snapshot
/// never does. Derived from the file the record
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
        !self.diagnostics.iter().any(Diagnostic::is_transient)
            && unchanged_listing((self.size, self.etag.as_deref()), (size, etag))
    }
}

/// Whether a listing's `(size, etag)` now tells the same file as `was` did: the same etag (and
/// size, when both have one), or with no etag the same size.
pub(super) fn unchanged_listing(was: (Option<u64>, Option<&str>), now: (Option<u64>, Option<&str>)) -> bool {
    match (was.1, now.1) {
        (Some(a), Some(b)) => a == b && (was.0.is_none() || now.0.is_none() || was.0 == now.0),
        (None, None) => was.0.is_some() && was.0 == now.0,
        _ => false,
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
