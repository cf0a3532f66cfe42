//! skillwasm: an Agent Skills runtime. It finds SKILL.md skills in whatever storage the host
//! has, tells the model which exist, hands a skill's instructions and files over when asked, and
//! keeps skill content sensible when a conversation is compacted. Plain Rust, usable as a library;
//! the npm package compiles it to WebAssembly through the façade crate in `wasm/`.
//!
//! The modules follow the skill lifecycle; a later stage uses earlier ones, never the reverse:
//! - shared: [`diagnostic`] (findings and their stable codes), [`text`] (escaping per output format,
//!   the token estimate, code ranges, NFKC), [`content`] (the `<skill_content>` protocol),
//!   [`read`] (option values read from JSON with serde's errors)
//! - [`parse`]: SKILL.md bytes to a typed [`Skill`]: fences, fast YAML subset, serde_yaml, repair,
//!   validation, lenient and strict
//! - [`store`]: the storage port (list in pages, read with an optional prefix), key checks before
//!   any I/O, a memory store
//! - [`discover`]: scopes, roots, scan bounds, trust, precedence; the [`discover::SkillRegistry`]
//!   (cache, refresh, snapshot, metadata, file reads)
//! - [`disclose`]: what the model sees of the available skills: formats, filters, budget
//! - [`activate`]: the skill tool and its session, resources; [`activate::invoke`] (`/skill`,
//!   `$skill`, arguments, autocomplete) and [`activate::permissions`] (`allowed-tools`)
//! - [`compact`]: transcripts (AI SDK, OpenAI, Anthropic): find, compact, protect, prune,
//!   re-attach, dedupe
//! - [`host`]: what ties the stages together for a host: one configuration
//!   ([`host::SkillsConfig`]), the visibility it implies, the registry held with both
//!   ([`host::SkillHost`]) and the skill tool with its session ([`host::SkillTool`])
//! - [`consent`]: the content digest of a skill and the host's approvals bound to it
//! - [`lock`]: lockfiles, skills pinned by that digest, and the check of a registry against one
//! - [`net`]: skills over the network: the Agent Skills Discovery index, read and published, its
//!   artifacts verified and unpacked ([`net::discovery`]); the MCP Skills extension's server and
//!   client checks ([`net::mcp`])
//! - [`vet`]: what a skill's text could do to the model or the machine, read before the model
//!   sees it (hidden text, instructions against the host, exfiltration, risky scripts,
//!   obfuscation)

#![warn(missing_docs)]

// The parse path and the text rules it shares are a crate of their own (`parse/`), built for
// speed; they are this crate's modules as much as the others.
pub use skillwasm_parse::{content, diagnostic, lookalike, parse, shared_bytes, text, unseen};
pub use skillwasm_search as search;
pub mod json;
pub mod read;

pub mod activate;
#[cfg(feature = "transcripts")]
pub mod compact;
pub mod consent;
pub mod disclose;
pub mod discover;
pub mod host;
#[cfg(feature = "digest")]
pub mod lock;
#[cfg(feature = "net")]
pub mod net;
use skillwasm_parse::sort;
pub mod store;
pub mod vet;

/// The version of this crate (and of the npm package built from it).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub use diagnostic::{Diagnostic, Severity};
pub use disclose::{to_prompt, CatalogEntry};
pub use parse::{
    parse_skill, parse_skill_in_place, read_properties, AllowedToolsProperty, Mode, ParseOptions, ParseResult, Skill,
    SkillProperties,
};
