//! Transcripts: finding skill content in a conversation, compacting it to metadata, protecting it
//! from pruning, pruning to a budget, re-attaching it after a compaction, and deduplicating it.
//!
//! A transcript is a JSON array of messages in one of three shapes: the Vercel AI SDK's model
//! messages (`ai-sdk`), OpenAI Chat Completions (`openai`) or Anthropic Messages (`anthropic`),
//! named by the host or detected. Every operation is a pure function: it returns a new transcript
//! in the same shape and a report of what changed. Messages that hold no skill content are cloned
//! as they were, fields unknown to this module included. A message that cannot be read (not an
//! object, an unknown role, content of the wrong type, a tool result without its call, too big or
//! too deep) is passed through unchanged and listed in the report's `skipped`, or, with
//! `strict`, makes the operation fail with a diagnostic naming its index.
//!
//! Which content is a skill's is decided in one place, `attribute`: the results of the skill
//! tool (named by `toolName`, else recognised by the answers it writes, under any tool name),
//! and blocks the tool wrote at the start or the end of a user message. Nothing else is, however
//! it looks; what could not be attributed is listed in the report's `notes`.

mod analyse;
mod apply;
mod attribute;
mod format;
mod ops;
mod read;
mod reattach;
mod types;

pub use format::detect_format;
pub use ops::{compact_to_metadata, find, protect, prune};
pub use reattach::{dedupe, reattach};
pub use types::*;
