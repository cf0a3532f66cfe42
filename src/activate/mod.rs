//! Activation: the skill tool the model calls to load a skill (its definition, the
//! `<skill_content>` it answers with, resource reads, the session that remembers what was loaded),
//! skills the user invokes in a message, and the rules that come with an active skill:
//! [`invoke`] (`/skill`, `$skill`, arguments, autocomplete) and [`permissions`] (`allowed-tools`).

// Where bodies ask for commands; the recognition itself is the `commands` feature's.
pub mod command_scan;
mod expand;
mod fork;
mod inject;
mod injection;
mod input_json;
// Its types are always there (the skill tool's `invoke` reads a parsed message handed over as
// data); the rules that read messages, substitute arguments and complete names are the
// `invocation` feature's.
pub mod invoke;
#[cfg(feature = "permissions")]
pub mod permissions;
mod search;
mod session;
mod subagent;
mod tool;
mod tool_io;
mod wrap;

#[cfg(test)]
mod repeat_tests;

pub use expand::*;
pub use fork::*;
pub use inject::*;
pub use injection::*;
pub use search::*;
pub use session::*;
pub use subagent::*;
pub use tool::*;
pub use tool_io::*;
pub use wrap::*;
