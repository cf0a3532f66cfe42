//! Lockfiles: skills pinned by their content digest ([`crate::consent::digest`], the one
//! definition approvals use too), with where each came from, so that a project gets the same bytes
//! in every runtime and notices any drift.
//!
//! The format, `skills-lock.json`, version 1:
//!
//! ```json
//! {
//!   "lockfileVersion": 1,
//!   "skills": [
//!     {
//!       "name": "pdf",
//!       "scope": "project",
//!       "source": { "type": "git", "repository": "https://example.com/skills.git", "ref": "main",
//!                   "commit": "…", "path": "skills/pdf" },
//!       "location": ".agents/skills/pdf",
//!       "digest": "sha256:…"
//!     }
//!   ]
//! }
//! ```
//!
//! The entries are sorted by scope, then name, and a (scope, name) pair appears once. A source is
//! one of: `directory` (`path`), `archive` (`url`: a zip or tar.gz), `discovery` (`url` of the
//! index, `name` of the entry), `mcp` (`server`: the host's label, `uri`, and
//! optionally `connection`: how a tool reaches the server again), `npm` (`package`,
//! `path`), `git` (`repository`, `ref`, `commit`, `path`). [`check`] compares a registry's skills
//! with it: a pinned skill whose content differs is refused, and skills present but not pinned,
//! or pinned but not present, are reported.

mod check;
mod format;

pub use check::*;
pub use format::*;
