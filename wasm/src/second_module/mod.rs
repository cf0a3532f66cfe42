//! The second module's bindings (the feature `second-module`): what only some hosts use, in a
//! module of its own so that the module every host loads ([`crate`] with `core-module`) stays small. Transcripts (find,
//! compact, protect, prune, re-attach, dedupe, and the skill tool's transcript operations through
//! [`seam`]), user invocation and permissions over the core module's registries ([`invocation`]),
//! argument substitution and skill-directory checks, the discovery index's reading,
//! unpacking and publishing of files, the MCP client's checks, and serde_yaml for the core module's
//! frontmatter outside its fast path ([`read_frontmatter`]). Conversion only, as in the
//! core module's bindings: the rules are the core's, and the bounded converter of caller values is
//! the one both modules share ([`crate::boundary`]).

mod compact;
mod invocation;
mod invoke;
mod mcp_client;
mod mcp_server;
// The reference's readProperties and toPrompt.
mod reference;
mod remote;
mod remote_types;
mod seam;
mod served;

// What this module shares with the core one: the bounded converter of caller values, results as
// JS values, the options TypeError, what the core module hands over about a served skill.
pub(crate) use crate::{convert, options_error, served_types, to_js};

/// What the start function hands the core besides NFKC: nothing, serde_yaml is built in here.
pub(crate) fn install_hooks() {}

/// Reads frontmatter the core module's fast path refused (the core has no YAML parser of its own,
/// see `core_module/beyond.rs`): `text` is the frontmatter, `first_line` the file line of its first
/// line, `strict` the mode and `invalid` whether the fast path called it invalid. The answer as
/// `skillwasm::parse::beyond_wire` writes it. Internal to the package: not exported by its entry
/// points.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = __sw_readFrontmatter)]
pub fn read_frontmatter(text: &str, first_line: u32, strict: bool, invalid: bool) -> Vec<u8> {
    use skillwasm::parse::{beyond, beyond_wire, Mode};
    let mode = if strict { Mode::Strict } else { Mode::Lenient };
    beyond_wire::encode(&beyond::read(text, first_line, mode, invalid))
}

/// Finds the `` !`command` `` lines of a skill's body for the core module, which leaves their
/// recognition out (see `core_module/commands.rs`): the spans in the wire form of
/// `skillwasm::activate::command_scan::encode`. Internal to the package: not exported by its entry
/// points.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = __sw_findCommands)]
pub fn find_commands(body: &str) -> Vec<u32> {
    use skillwasm::activate::command_scan;
    command_scan::encode(&command_scan::find_commands(body))
}
