//! Every stable diagnostic code, in one place. A code names a finding for programs; it never
//! changes once published (the message, for people, may). Each constant says when it is emitted
//! and its usual severity; "lenient" and "strict" are the parse modes ([`crate::parse::Mode`]).
//!
//! The constants are grouped by the stage that emits them, in lifecycle order, then come the codes
//! added later; [`ALL`] (in `codes/list.rs`) lists them in the same order. A snapshot keeps a code
//! by its place in [`ALL`]: a new code goes at the END of the constants here and at the end of
//! [`ALL`], with a row in `docs/reference/diagnostic-codes.md`. The README's code lists follow the
//! same grouping.

mod list;

pub use list::{ALL, TRANSIENT};

// ---------------------------------------------------------------------------------------------
// parse: the file's layout, the frontmatter's YAML and its repair
// ---------------------------------------------------------------------------------------------

/// The file starts with a UTF-8 byte order mark, which was ignored. Warning.
pub const BOM: &str = "bom";
/// The file uses CRLF line endings, read as LF. Warning.
pub const CRLF: &str = "crlf";
/// Blank lines before the opening `---`, which were ignored. Warning.
pub const LEADING_BLANK_LINES: &str = "leading-blank-lines";
/// The file is not valid UTF-8. Error: the skill is refused.
pub const NOT_UTF8: &str = "not-utf8";
/// The file does not open with a `---` fence. Error: the skill is refused.
pub const FRONTMATTER_MISSING: &str = "frontmatter-missing";
/// No closing `---` fence. Error: the skill is refused (a prefix read reads more instead).
pub const FRONTMATTER_UNCLOSED: &str = "frontmatter-unclosed";
/// The frontmatter is larger than [`crate::parse::MAX_FRONTMATTER_BYTES`]; it is not parsed.
/// Error: the skill is refused.
pub const FRONTMATTER_TOO_LARGE: &str = "frontmatter-too-large";
/// The frontmatter is YAML but not a mapping. Error: the skill is refused.
pub const FRONTMATTER_NOT_MAPPING: &str = "frontmatter-not-mapping";
/// The YAML cannot be parsed, even after repair (strict mode does not repair), or it exceeds
/// serde_yaml's recursion or repetition limit. Error: the skill is refused.
pub const YAML_INVALID: &str = "yaml-invalid";
/// The frontmatter is beyond the YAML subset the core reads itself (or is sloppy YAML to repair)
/// and no YAML parser answered (the wasm package's second module could not be loaded, or it
/// failed): nothing is known of the text. Error: the skill is refused, and a registry reads the
/// file again at its next refresh.
pub const YAML_PARSER_UNAVAILABLE: &str = "yaml-parser-unavailable";
/// Strict: a YAML flow collection (`[a, b]`, `{a: 1}`), which the reference's YAML reader
/// refuses; lenient mode reads it. Error, strict only.
pub const YAML_FLOW_COLLECTION: &str = "yaml-flow-collection";
/// Repair: a plain value with `: ` in it was quoted. Warning, lenient only.
pub const YAML_REPAIR_COLON: &str = "yaml-repair-colon";
/// Repair: a value starting with a YAML indicator that is not YAML syntax was quoted as text.
/// Warning, lenient only.
pub const YAML_REPAIR_INDICATOR: &str = "yaml-repair-indicator";
/// Repair: text after a closing quote; the whole value was quoted as text. Warning, lenient only.
pub const YAML_REPAIR_TEXT_AFTER_QUOTE: &str = "yaml-repair-text-after-quote";
/// Repair: text after `|` or `>` on the same line. Warning, lenient only.
pub const YAML_REPAIR_BLOCK_INDICATOR: &str = "yaml-repair-block-indicator";
/// Repair: tabs in the indentation were replaced by spaces. Warning, lenient only.
pub const YAML_REPAIR_TAB_INDENT: &str = "yaml-repair-tab-indent";
/// Repair: a key given twice; the first is kept. Warning, lenient only.
pub const YAML_DUPLICATE_KEY: &str = "yaml-duplicate-key";
/// An item of the package's `parseSkills` is neither a string, bytes nor `{ input, dirName }`.
/// Error for that item.
pub const INPUT_INVALID: &str = "input-invalid";

// ---------------------------------------------------------------------------------------------
// fields: the specification's rules and the fields clients add
// ---------------------------------------------------------------------------------------------

/// No `name`. Lenient with a directory name: warning, the directory name is used; otherwise
/// error.
pub const NAME_MISSING: &str = "name-missing";
/// `name` is not a non-empty string. Lenient with a directory name: warning, the directory name
/// is used; otherwise error.
pub const NAME_INVALID: &str = "name-invalid";
/// `name` is longer than 64 characters. Warning lenient, error strict.
pub const NAME_TOO_LONG: &str = "name-too-long";
/// `name` has upper-case letters. Warning lenient, error strict.
pub const NAME_NOT_LOWERCASE: &str = "name-not-lowercase";
/// `name` starts or ends with a hyphen. Warning lenient, error strict.
pub const NAME_HYPHEN_EDGE: &str = "name-hyphen-edge";
/// `name` has two hyphens in a row. Warning lenient, error strict.
pub const NAME_CONSECUTIVE_HYPHENS: &str = "name-consecutive-hyphens";
/// `name` has characters other than letters, digits and hyphens. Warning lenient, error strict.
pub const NAME_INVALID_CHARS: &str = "name-invalid-chars";
/// `name` differs from the skill's directory name. Warning lenient, error strict.
pub const NAME_DIR_MISMATCH: &str = "name-dir-mismatch";
/// No `description`. Error in both modes: the skill is refused.
pub const DESCRIPTION_MISSING: &str = "description-missing";
/// `description` is not a non-empty string. Error in both modes: the skill is refused.
pub const DESCRIPTION_INVALID: &str = "description-invalid";
/// `description` is longer than 1024 characters. Warning lenient, error strict.
pub const DESCRIPTION_TOO_LONG: &str = "description-too-long";
/// `compatibility` is longer than 500 characters. Warning lenient, error strict.
pub const COMPATIBILITY_TOO_LONG: &str = "compatibility-too-long";
/// `compatibility` is not a string. Warning lenient, error strict.
pub const COMPATIBILITY_INVALID: &str = "compatibility-invalid";
/// Fields the specification does not define. Error, strict only.
pub const UNEXPECTED_FIELDS: &str = "unexpected-fields";
/// Strict: some of the unexpected fields are a client's known extensions (Claude Code's
/// `argument-hint`, `disable-model-invocation`, ...); names the client. Info, strict only.
pub const KNOWN_EXTENSION_FIELDS: &str = "known-extension-fields";
/// A field nobody defined, kept in `extra`. Warning, lenient only.
pub const UNKNOWN_FIELD: &str = "unknown-field";
/// A field that should be text (`license`, `argument-hint`, `min_tier`, `description_<lang>`) is
/// not; it is ignored or kept as text. Warning.
pub const FIELD_NOT_STRING: &str = "field-not-string";
/// A field that should be `true` or `false` is not; it is ignored. Warning.
pub const FIELD_NOT_BOOLEAN: &str = "field-not-boolean";
/// `metadata` is not a mapping; it is ignored. Warning.
pub const METADATA_NOT_MAPPING: &str = "metadata-not-mapping";
/// A `metadata` value is a YAML number, boolean or null; it is kept as the text written. Warning.
pub const METADATA_NOT_STRING: &str = "metadata-not-string";
/// A `metadata` value is a map or a list; it is kept structured and as JSON text. Info.
pub const METADATA_STRUCTURED: &str = "metadata-structured";
/// `allowed-tools` is a mapping (warning, when parsing), or an entry is no valid permission
/// pattern (error, when the patterns are read; the entry is ignored).
pub const ALLOWED_TOOLS_INVALID: &str = "allowed-tools-invalid";

// ---------------------------------------------------------------------------------------------
// store: calls to the storage port and the key checks before them
// ---------------------------------------------------------------------------------------------

/// Listing a root or a skill's files failed (the store threw, rejected, answered with the wrong
/// type or timed out). Error.
pub const STORAGE_LIST_FAILED: &str = "storage-list-failed";
/// Reading a file failed (as for listing, or the object is above the store's size cap). Error.
pub const STORAGE_READ_FAILED: &str = "storage-read-failed";
/// A listed SKILL.md was gone when it was read. Error.
pub const STORAGE_MISSING: &str = "storage-missing";
/// The store left an entry out of a listing, or says something about a whole root (it does not
/// exist, it is not a directory). Warning.
pub const STORAGE_SKIPPED: &str = "storage-skipped";
/// A path asked for leaves the skill directory or is no valid key; refused before the store is
/// touched. Error.
pub const PATH_INVALID: &str = "path-invalid";

// ---------------------------------------------------------------------------------------------
// discover: scopes, scans, trust, precedence and the registry's reads
// ---------------------------------------------------------------------------------------------

/// A skill is shadowed by one of the same name in a scope that takes precedence. Warning.
pub const SKILL_SHADOWED: &str = "skill-shadowed";
/// A skill lies inside another skill's directory; it is loaded as a skill of its own. Warning.
pub const SKILL_NESTED: &str = "skill-nested";
/// The file is named `skill.md`, not `SKILL.md`. Warning.
pub const SKILL_MD_LOWERCASE: &str = "skill-md-lowercase";
/// A project scope is not trusted, so none of its files is read. Warning when it holds skills,
/// info when it holds none.
pub const SCOPE_UNTRUSTED: &str = "scope-untrusted";
/// SKILL.md files deeper than the scan depth were not loaded. Warning.
pub const SCAN_DEPTH_LIMIT: &str = "scan-depth-limit";
/// The scan stopped after its cap of directories; skills beyond were not found. Warning.
pub const SCAN_DIRECTORY_CAP: &str = "scan-directory-cap";
/// SKILL.md files ignored by `.gitignore` were not loaded. Info.
pub const SCAN_GITIGNORED: &str = "scan-gitignored";
/// A `.gitignore` is larger than the most that is read; only its first part applies. Warning.
pub const GITIGNORE_TOO_LARGE: &str = "gitignore-too-large";
/// Reading a `.gitignore` failed; the other files still apply. Warning.
pub const GITIGNORE_UNREADABLE: &str = "gitignore-unreadable";
/// No skill of that name (a file read, or a skill tool call for a skill the caller may not see).
/// Error.
pub const SKILL_UNKNOWN: &str = "skill-unknown";
/// A skill's scope is not configured. Error.
pub const SCOPE_UNKNOWN: &str = "scope-unknown";
/// A snapshot cannot be read or has another format. Error: no registry is made.
pub const SNAPSHOT_INVALID: &str = "snapshot-invalid";
/// A snapshot was taken with other scopes, roots or trust. Error: no registry is made.
pub const SNAPSHOT_MISMATCH: &str = "snapshot-mismatch";
/// A file read asked for a file the skill does not have. Error.
pub const FILE_NOT_FOUND: &str = "file-not-found";
/// A file read found a file larger than the most it returns. Error.
pub const FILE_TOO_LARGE: &str = "file-too-large";
/// A SKILL.md above the size cap (`maxObjectBytes`, 16 MiB by default), refused from its listed
/// size before any read, or from the bytes a store sent or a caller handed in. Error.
pub const SKILL_TOO_LARGE: &str = "skill-too-large";
/// A SKILL.md that was loaded no longer parses when its body is read. Error.
pub const SKILL_UNREADABLE: &str = "skill-unreadable";

// ---------------------------------------------------------------------------------------------
// disclose: the catalog
// ---------------------------------------------------------------------------------------------

/// The model's tier, or a skill's `min_tier`, is not one of the configured tiers; `min_tier` is
/// not applied. Warning.
pub const TIER_UNKNOWN: &str = "tier-unknown";
/// No skill fits the catalog's budget; the catalog is empty. Warning.
pub const CATALOG_BUDGET: &str = "catalog-budget";

// ---------------------------------------------------------------------------------------------
// activate: the skill tool and permissions
// ---------------------------------------------------------------------------------------------

/// The skill tool's input is not `{ name, path? }`. Error result.
pub const TOOL_INPUT_INVALID: &str = "tool-input-invalid";
/// A call of another tool than the skill tool. Error result.
pub const TOOL_UNKNOWN: &str = "tool-unknown";
/// A read for the skill tool failed without saying why. Error result.
pub const TOOL_FAILED: &str = "tool-failed";
/// An `allowed-tools` entry names a built-in tool in another case (`bash(git:*)`); it is read as
/// that tool. Warning.
pub const ALLOWED_TOOLS_CASE: &str = "allowed-tools-case";
/// A `` !`command` `` of a skill's body could not be run by the host's `commands` runner (it
/// threw, rejected, answered with no string or not in time), or was left as written (too long,
/// too many). Warning: the command is replaced by `[command failed: ...]` or kept.
pub const COMMAND_FAILED: &str = "command-failed";

// ---------------------------------------------------------------------------------------------
// remote: discovery indexes and the artifacts they name
// ---------------------------------------------------------------------------------------------

/// The index is not a JSON object with a `skills` array. Error: the index gives no skill.
pub const INDEX_INVALID: &str = "index-invalid";
/// The index names a `$schema` this version does not know. Warning: the index is not processed.
pub const INDEX_SCHEMA_UNKNOWN: &str = "index-schema-unknown";
/// The index has no `$schema`: it is read as v0.1.0, whose files have no digests to verify.
/// Warning.
pub const INDEX_UNVERIFIED: &str = "index-unverified";
/// An entry lacks a field, or a field is malformed (a name against the specification's rules, a
/// URL that is not http(s), a digest not `sha256:<64 hex>`, an unsafe file path). Warning: the
/// entry is skipped.
pub const INDEX_ENTRY_INVALID: &str = "index-entry-invalid";
/// An entry of a `type` this version does not know. Info: the entry is skipped.
pub const INDEX_ENTRY_TYPE_UNKNOWN: &str = "index-entry-type-unknown";
/// A second entry with a name already listed. Warning: the later entry is skipped.
pub const INDEX_ENTRY_DUPLICATE: &str = "index-entry-duplicate";
/// An artifact's bytes do not have the digest its index gives. Error: the skill is refused.
pub const ARTIFACT_DIGEST_MISMATCH: &str = "artifact-digest-mismatch";
/// An artifact is larger than `maxArtifactBytes`. Error: the skill is refused.
pub const ARTIFACT_TOO_LARGE: &str = "artifact-too-large";
/// An archive cannot be read: not gzip'd tar nor zip, corrupt, truncated, or a feature this
/// reader does not take (zip64, encryption, a compression other than stored and deflate). Error:
/// the skill is refused.
pub const ARCHIVE_INVALID: &str = "archive-invalid";
/// An archive entry's path leaves the skill (`..`, an absolute path, a backslash, a drive) or a
/// link points outside it. Error: the skill is refused.
pub const ARCHIVE_UNSAFE: &str = "archive-unsafe";
/// An archive holds more entries than `maxEntries`, or unpacks to more than `maxSkillBytes`.
/// Error: the skill is refused, and unpacking stops at the bound.
pub const ARCHIVE_TOO_LARGE: &str = "archive-too-large";
/// An archive has no `SKILL.md` at its root. Error: the skill is refused.
pub const ARCHIVE_SKILL_MD_MISSING: &str = "archive-skill-md-missing";
/// An archive entry that is not a regular file or directory (a link inside the skill, a device,
/// a FIFO), or a file given twice. Warning: the entry is left out.
pub const ARCHIVE_ENTRY_SKIPPED: &str = "archive-entry-skipped";

// ---------------------------------------------------------------------------------------------
// mcp: the MCP Skills extension's URIs and entries
// ---------------------------------------------------------------------------------------------

/// A URI that is not a `skill://` resource URI by the extension's rules (another scheme, a query
/// or fragment, userinfo or a port, an empty, `.` or `..` segment, a bad escape, too long or deep),
/// or a skill URI that does not name `SKILL.md` below a valid skill name. Error: the request is
/// refused (JSON-RPC `-32602`) or the entry is not used.
pub const SKILL_URI_INVALID: &str = "skill-uri-invalid";
/// A skill path whose final segment differs from the `name` of the skill's frontmatter. Error: the
/// entry is not used.
pub const SKILL_URI_NAME_MISMATCH: &str = "skill-uri-name-mismatch";
/// A skill over the extension's limits (more than 512 files, or more than 16 MiB in all), or one
/// whose directory lists too many keys to tell. Error: the server leaves it out of `skills/list`
/// and answers `skills/get` and reads with `-32602`; a client declines an entry that lists more (a
/// warning).
pub const MCP_SKILL_TOO_LARGE: &str = "mcp-skill-too-large";
// mcp client: skills read from a server of the MCP Skills extension
// ---------------------------------------------------------------------------------------------

/// The server does not declare the `io.modelcontextprotocol/skills` extension (in `extensions`
/// or `experimental`). Error: no skill is listed from it.
pub const MCP_EXTENSION_MISSING: &str = "mcp-extension-missing";
/// A `skills/list` or `skills/get` result is not an object with a `skills` array (a `skill`
/// object). Error: the page (the skill) gives nothing.
pub const MCP_RESULT_INVALID: &str = "mcp-result-invalid";
/// A skill entry lacks a field or has a malformed one (a URI that is not a skill's `SKILL.md`, a
/// name that is not its URI's last directory segment, a resource outside the skill, a digest not
/// `sha256:<64 hex>`, no `SKILL.md` among the resources). Warning: the entry is skipped.
pub const MCP_ENTRY_INVALID: &str = "mcp-entry-invalid";
/// A second entry with a URI already listed. Warning: the later entry is skipped.
pub const MCP_ENTRY_DUPLICATE: &str = "mcp-entry-duplicate";
/// An entry whose resources are `"dynamic"`, declined without `dynamic: true`. Info.
pub const MCP_SKILL_DYNAMIC: &str = "mcp-skill-dynamic";
/// A file's bytes do not have the size or digest the manifest gives. Error: the bytes are not
/// used (the store fetches the entry again with `skills/get` and retries once).
pub const MCP_DIGEST_MISMATCH: &str = "mcp-digest-mismatch";
/// A SKILL.md's frontmatter differs from the entry's, field by field. Error: not used.
pub const MCP_FRONTMATTER_MISMATCH: &str = "mcp-frontmatter-mismatch";
/// A read of a URI the retained manifest does not list. Error: nothing is fetched.
pub const MCP_FILE_UNLISTED: &str = "mcp-file-unlisted";

// ---------------------------------------------------------------------------------------------
// compact: transcripts
// ---------------------------------------------------------------------------------------------

/// The transcript is not an array of messages. Error: the operation fails.
pub const TRANSCRIPT_NOT_ARRAY: &str = "transcript-not-array";
/// The transcript cannot be read within the bounds (too deep, too large, a getter that throws).
/// Error: the operation fails.
pub const TRANSCRIPT_UNREADABLE: &str = "transcript-unreadable";
/// Nothing in the transcript tells its format; it was read as AI SDK messages. Info.
pub const FORMAT_ASSUMED: &str = "format-assumed";
/// Markup in a user's text or another tool's result that is no genuine block; it was not
/// attributed. Warning.
pub const SKILL_CONTENT_UNATTRIBUTED: &str = "skill-content-unattributed";
/// A genuine skill tool answer under a tool that is not one of the tool names given; it was not
/// attributed. Info.
pub const SKILL_CONTENT_OTHER_TOOL: &str = "skill-content-other-tool";
/// A skill tool result that is not an answer of the tool, or answers for another skill than the
/// call named. Warning.
pub const SKILL_RESULT_UNRECOGNISED: &str = "skill-result-unrecognised";
/// Pruning cannot reach the budget without cutting protected content; nothing was removed.
/// Warning.
pub const PRUNE_CANNOT_FIT: &str = "prune-cannot-fit";
/// The transcript already ends with this re-attachment; nothing was added. Info.
pub const ALREADY_REATTACHED: &str = "already-reattached";
/// A message is not an object. Skipped (`report.skipped`), or an error with `strict`.
pub const MESSAGE_NOT_OBJECT: &str = "message-not-object";
/// A message is nested too deep. Skipped, or an error with `strict`.
pub const MESSAGE_TOO_DEEP: &str = "message-too-deep";
/// A message is larger than the most that is read. Skipped, or an error with `strict`.
pub const MESSAGE_TOO_LARGE: &str = "message-too-large";
/// A message has no role. Skipped, or an error with `strict`.
pub const BAD_ROLE: &str = "bad-role";
/// A message has a role its format does not have. Skipped, or an error with `strict`.
pub const UNKNOWN_ROLE: &str = "unknown-role";
/// A message's content, or a part of it, has the wrong type. Skipped, or an error with `strict`.
pub const BAD_CONTENT: &str = "bad-content";
/// A tool call without an id, or tool calls of the wrong type. Skipped, or an error with
/// `strict`.
pub const BAD_TOOL_CALL: &str = "bad-tool-call";
/// A tool result without the id of its call, or with output of the wrong type. Skipped, or an
/// error with `strict`.
pub const BAD_TOOL_RESULT: &str = "bad-tool-result";
/// A tool result with no matching tool call before it. Skipped, or an error with `strict`.
pub const ORPHAN_TOOL_RESULT: &str = "orphan-tool-result";

// ---------------------------------------------------------------------------------------------
// added later: a snapshot keeps a code by its place in ALL, so a new code goes below the last
// ---------------------------------------------------------------------------------------------

/// A scope the host marked `lazy` is not listed yet (discovery did not wait for its store): the
/// first activation or search that needs it, or the host's `listLazyScopes()`, lists it. Info.
/// (Declared last so that the codes before it keep their numbers in snapshots.)
pub const SCOPE_NOT_LISTED: &str = "scope-not-listed";
/// A scope's roots hold no skill while its store holds SKILL.md files elsewhere; the message
/// names where, and the roots that would find them. Warning.
pub const SKILLS_OUTSIDE_ROOTS: &str = "skills-outside-roots";
/// A URL a network store was sent to (an index entry, a redirect) is on an origin other than the
/// store's own and not among the origins the host allows (`allowOrigins`); the message names it.
/// Warning for an entry (it is skipped), error for a redirect (it is not followed, the request
/// fails).
pub const ORIGIN_REFUSED: &str = "origin-refused";
/// A redirect that cannot be followed: no `Location`, one that does not resolve to an http(s) URL
/// whose origin can be told, or one more than the redirects a request follows (5). Error: the
/// request fails.
pub const REDIRECT_INVALID: &str = "redirect-invalid";
/// The host's `approve` hook did not approve the skill with its current content (it answered
/// false, threw, rejected, answered with no boolean or not in time): the skill tool serves
/// nothing of it and `/name` injects nothing. Error result. (Declared after the others so that
/// they keep their numbers in snapshots.)
pub const SKILL_NOT_APPROVED: &str = "skill-not-approved";
/// A skill's content digest could not be computed: more files or bytes than the per-skill limits
/// (512 files, `maxObjectBytes` together), or a file could not be listed or read. Error: where an
/// approval is needed, the skill is not served.
pub const CONTENT_DIGEST_FAILED: &str = "content-digest-failed";
/// The host's `permitted` predicate threw (or failed otherwise) for a skill; the skill is hidden,
/// as when the predicate refuses it (default deny). Warning; the message names the skill and
/// what the predicate threw.
pub const PERMITTED_FAILED: &str = "permitted-failed";
/// A listing reached one of the host's bounds on what a server may cost it: a message over
/// `maxMessageBytes`, a cursor over `maxCursorBytes`, more than `maxListingBytes` in all, more
/// than `maxPages` pages, or a cursor given again (a cycle). Warning: the listing stops there;
/// the skills of the pages read before are kept.
pub const MCP_LISTING_BOUND: &str = "mcp-listing-bound";
/// The SKILL.md of an index entry names another skill than the entry (`aaa` serving
/// `name: good`): the entry would pass for that skill. Error: the skill is refused.
pub const ARTIFACT_NAME_MISMATCH: &str = "artifact-name-mismatch";
/// A skill's name looks like another visible skill's (the same NFKC, lowercase form: `PDF` or
/// fullwidth `ｐｄｆ` beside `pdf`): it is hidden, never offered beside the one it imitates, and the
/// message names both. The one kept is the name that is plain lowercase ASCII, else the first in
/// precedence order. Error.
pub const SKILL_CONFUSABLE: &str = "skill-confusable";
/// `name` mixes ASCII letters with letters outside ASCII (Cyrillic `р` with Latin `df`: `рdf`),
/// the mark of a name made to read as another. Error in both modes: the skill is refused.
pub const NAME_MIXED_SCRIPT: &str = "name-mixed-script";
/// `name` holds a character no output shows as it is (a format character such as a bidi mark, a
/// zero-width or tag character, a filler, a control, a variation selector that varies nothing:
/// [`crate::text::hides`]); the name would read otherwise in the catalog than in a call. Error in
/// both modes: the skill is refused.
pub const NAME_HIDDEN_CHARS: &str = "name-hidden-chars";
/// A pinned skill (see the lockfile) whose content digest differs from its pin, or could not be
/// computed: it is refused, and the message names both digests. Error.
pub const SKILL_PIN_MISMATCH: &str = "skill-pin-mismatch";
/// A skill present but not pinned in the lockfile the host gave. Warning.
pub const SKILL_UNPINNED: &str = "skill-unpinned";
/// A skill pinned in the lockfile the host gave but not found. Warning.
pub const SKILL_PIN_MISSING: &str = "skill-pin-missing";

/// Vet (hidden text): Unicode tag characters (U+E0000–U+E007F), which no view shows and which
/// spell ASCII; the message decodes them. High; a warning (see [`VET_REFUSED`] for the policy).
pub const VET_TAG_CHARACTERS: &str = "vet-tag-characters";
/// Vet (hidden text): bidirectional controls (embeddings, overrides, isolates) that reorder how a
/// line reads. High; a warning.
pub const VET_BIDI_CONTROLS: &str = "vet-bidi-controls";
/// Vet (hidden text): a run of eight or more invisible characters (zero-width and other format
/// characters), enough to carry hidden text. High; a warning.
pub const VET_INVISIBLE_RUN: &str = "vet-invisible-run";
/// Vet (hidden text): a few invisible characters on a line. Low; a note.
pub const VET_INVISIBLE_CHARACTERS: &str = "vet-invisible-characters";
/// Vet (hidden text): markup a rendered view hides (an HTML comment, a hidden element, alt text,
/// a title, a link reference definition) holds what another vet check finds. High; a warning.
pub const VET_HIDDEN_INSTRUCTIONS: &str = "vet-hidden-instructions";
/// Vet (hidden text): an element hidden by a style holds text, or a comment addresses the model.
/// Low; a note.
pub const VET_HIDDEN_MARKUP: &str = "vet-hidden-markup";
/// Vet (instructions): a phrase that tells the model to set aside its host's instructions
/// ("ignore all previous instructions", "you are now …"). High; a warning.
pub const VET_INSTRUCTION_OVERRIDE: &str = "vet-instruction-override";
/// Vet (instructions): a phrase that tells the model to hide something from the user ("do not
/// tell the user about …", "without telling the user"). High; a warning.
pub const VET_CONCEAL_FROM_USER: &str = "vet-conceal-from-user";
/// Vet (instructions): a phrase or an agent flag that acts without the user's confirmation
/// ("without asking", `--dangerously-skip-permissions`). Medium; a warning.
pub const VET_SKIP_CONFIRMATION: &str = "vet-skip-confirmation";
/// Vet (instructions): a phrase that tells the model to switch off a safeguard ("disable the
/// sandbox", "bypass the guardrails"). High; a warning.
pub const VET_DISABLE_SAFETY: &str = "vet-disable-safety";
/// Vet (instructions): a phrase that asks for the system prompt ("print your system prompt").
/// High; a warning.
pub const VET_REVEAL_SYSTEM_PROMPT: &str = "vet-reveal-system-prompt";
/// Vet (exfiltration): a secret (SSH or cloud keys, `.env`, credentials, the environment) and a
/// network send on one line or a few lines apart. High; a warning.
pub const VET_EXFILTRATION: &str = "vet-exfiltration";
/// Vet (exfiltration): a script fetched from the network and run (`curl … | sh`). Medium; a
/// warning.
pub const VET_REMOTE_SCRIPT: &str = "vet-remote-script";
/// Vet (exfiltration): a script fetched over plain http or from a bare IP address and run. High;
/// a warning.
pub const VET_REMOTE_SCRIPT_INSECURE: &str = "vet-remote-script-insecure";
/// Vet (risky scripts): a recursive delete of the root, the home directory or a system
/// directory, a disk overwritten or formatted. High; a warning.
pub const VET_DESTRUCTIVE_DELETE: &str = "vet-destructive-delete";
/// Vet (risky scripts): a world-writable or setuid permission, a recursive change of a system
/// path, sudo without a password. Medium; a warning.
pub const VET_PERMISSION_CHANGE: &str = "vet-permission-change";
/// Vet (risky scripts): persistence: a shell startup file written, a crontab, a launch agent, a
/// systemd unit, an authorized key. Medium; a warning.
pub const VET_PERSISTENCE: &str = "vet-persistence";
/// Vet (risky scripts): the shell history switched off or erased. High; a warning.
pub const VET_HISTORY_TAMPERING: &str = "vet-history-tampering";
/// Vet (obfuscation): decoded text run (`base64 -d | sh`, `eval(atob(…))`). High; a warning.
pub const VET_EXEC_DECODED: &str = "vet-exec-decoded";
/// Vet (obfuscation): a long base64 or hex run, or a row of `\x` escapes, outside data. Medium;
/// a warning.
pub const VET_ENCODED_BLOB: &str = "vet-encoded-blob";
/// The host's vetting policy (`vet: "refuse"`) refused the skill: a finding at or above
/// `vetSeverity`, which the message names. Error: the skill is refused.
pub const VET_REFUSED: &str = "vet-refused";
/// A skill's files could not all be vetted: beyond the per-skill limits (512 files,
/// `maxObjectBytes` together), or a file could not be listed or read. Error in the vet report.
pub const VET_INCOMPLETE: &str = "vet-incomplete";

#[cfg(test)]
mod tests;
