//! The parse path of skillwasm: SKILL.md bytes to a typed [`Skill`] (fences, the fast YAML
//! subset, serde_yaml, repair, validation, lenient and strict), and what it shares with every
//! later stage of the engine: [`diagnostic`] (findings and their stable codes), [`text`]
//! (escaping per output format, the token estimate, code ranges, NFKC), [`content`] (the
//! `<skill_content>` protocol), [`sort`] (the one sort routine), [`unseen`] (whether a text
//! may hold what a reader does not see, at a glance) and [`snapshot_wire`] (the byte level of a
//! registry's snapshot, through which starting from one reads every record). The `skillwasm` crate re-exports these
//! modules as its own; this one is apart so that it can be built for speed while the rest is
//! built for size.

#![warn(missing_docs)]

pub mod confusables;
pub mod content;
pub mod diagnostic;
pub mod lookalike;
pub mod parse;
pub mod shared_bytes;
pub mod snapshot_wire;
pub mod sort;
pub mod text;
pub mod unseen;

pub use diagnostic::{Diagnostic, Severity};
pub use parse::{
    parse_skill, parse_skill_in_place, read_properties, AllowedToolsProperty, Mode, ParseOptions, ParseResult, Skill,
    SkillProperties,
};
