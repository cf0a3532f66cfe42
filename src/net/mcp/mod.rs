//! Skills over MCP: the MCP Skills extension (SEP-2640, `io.modelcontextprotocol/skills`), the
//! publishing side's rules.
//!
//! A server declaring [`EXTENSION_ID`] (in its capabilities' `extensions`, next to `resources`)
//! answers `skills/list` and `skills/get` with skill entries `{ uri, frontmatter, resources }`
//! and serves each file of a skill as a resource, read with `resources/read`. Every rule about the
//! `skill://` URIs those entries and reads use lives in [`uri`], both directions: formatting a
//! skill's or a file's URI and parsing one back into a skill path and a file path.
//!
//! The extension fixes two per-skill limits that every conforming host accepts:
//! [`MAX_RESOURCES_PER_SKILL`] files and [`MAX_SKILL_BYTES`] bytes (the sum of the files' sizes);
//! a server should not serve a skill over either. An unknown skill, file or directory is the
//! JSON-RPC error [`INVALID_PARAMS`], as the base protocol's `resources/read` answers an unknown
//! resource.

pub mod client;
pub mod client_bounds;
pub mod client_head;
pub mod client_keys;
pub mod manifest;
pub mod mime;
pub mod server;
pub mod uri;
pub mod verify;

pub use manifest::{SkillEntry, SkillResource};
pub use server::{CacheScope, McpOptions, SkillsMcp};
pub use uri::{format_directory_uri, format_file_uri, format_skill_uri, parse_resource_uri, parse_skill_uri};

/// The extension's identifier, the key a server declares it under.
pub const EXTENSION_ID: &str = "io.modelcontextprotocol/skills";

/// The URI scheme skill files are served under (`skill://<skill path>/<file path>`).
pub const SCHEME: &str = "skill";

/// The file every skill has at its root; a skill is addressed by this file's URI.
pub const SKILL_FILE: &str = "SKILL.md";

/// Most files one skill may have (`SKILL.md` included), the length of its `resources` array.
pub const MAX_RESOURCES_PER_SKILL: u32 = 512;

/// Most bytes all of one skill's files may have together (16 MiB), the sum of their `size`s.
pub const MAX_SKILL_BYTES: u64 = 16 * 1024 * 1024;

/// JSON-RPC "Invalid params": the answer to an unknown skill, file or directory.
pub const INVALID_PARAMS: i32 = -32602;

/// JSON-RPC "Internal error": a read that failed on the server's side.
pub const INTERNAL_ERROR: i32 = -32603;

/// The `mimeType` of a directory resource (a skill's root and each of its subdirectories).
pub const DIRECTORY_MIME_TYPE: &str = "inode/directory";

/// The `mimeType` of a skill's `SKILL.md`.
pub const SKILL_MIME_TYPE: &str = "text/markdown";

/// A JSON-RPC error a method answers with: [`INVALID_PARAMS`] for what the request names wrong
/// (an unknown skill, file or directory, a bad URI or cursor, a skill over the limits),
/// [`INTERNAL_ERROR`] for a store that failed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RpcError {
    /// The JSON-RPC error code.
    pub code: i32,
    /// For people; a diagnostic's code comes first (`skill-uri-invalid: ...`).
    pub message: String,
}

impl RpcError {
    /// The error `code` carrying diagnostic `d` (`<code>: <message>`).
    pub fn from_diagnostic(code: i32, d: &crate::diagnostic::Diagnostic) -> Self {
        RpcError { code, message: format!("{}: {}", d.code, d.message) }
    }

    /// [`INVALID_PARAMS`] with `message`.
    pub fn invalid(message: impl Into<String>) -> Self {
        RpcError { code: INVALID_PARAMS, message: message.into() }
    }

    /// This error as an error diagnostic at `path`: a refusal carries its diagnostic's code first
    /// (`<code>: <message>`); anything else was a store that failed, `storage-read-failed`.
    pub fn to_diagnostic(&self, path: &str) -> crate::diagnostic::Diagnostic {
        use crate::diagnostic::codes;
        let coded = self.message.split_once(": ").filter(|(c, _)| codes::ALL.contains(c));
        let (code, message) = coded.unwrap_or((codes::STORAGE_READ_FAILED, self.message.as_str()));
        crate::diagnostic::Diagnostic {
            severity: crate::diagnostic::Severity::Error,
            code: code.to_string(),
            message: message.to_string(),
            line: None,
            path: Some(path.to_string()),
        }
    }
}
