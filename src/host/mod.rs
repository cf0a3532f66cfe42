//! The host's side: one configuration ([`SkillsConfig`]) given once, the visibility it implies
//! ([`View`], computed once per registry generation), the registry held with both
//! ([`SkillHost`], the JS `SkillRegistry`) and the skill tool over it ([`SkillTool`], with the
//! session that follows the conversation). The catalog, the tool, user invocation, autocomplete,
//! subagent prompts and the transcript operations run through the tool all read them, so a skill
//! hidden from one is hidden from all, except where the skill itself says otherwise
//! (`disable-model-invocation`, `user-invocable`).
//!
//! This is the top of the lifecycle: it uses every stage below and none of them uses it.

mod config;
mod config_json;
pub mod consent;
#[cfg(feature = "digest")]
pub mod lock;
mod options;
mod options_json;
mod served;
mod skills;
mod tool;
mod tool_name;
pub mod vet;
mod view;

#[cfg(test)]
mod lazy_tests;

pub use config::*;
pub use options::*;
pub use options_json::*;
pub use served::*;
pub use skills::*;
pub use tool::*;
pub use tool_name::*;
pub use view::*;
