//! The `<skill_content>` an activation answers with, the same whoever loads the skill (the model
//! through the tool, the user through a message, a subagent's prompt): the instructions wrapped
//! with the skill's directory and files, or the short pointer to an earlier load.

use super::session::Activation;
use super::tool_io::ToolOptions;
use crate::content::{
    neutralize_markup, open_tag, COMPATIBILITY_LINE, CONTENT_CLOSE, DIRECTORY_LINE, LISTING_FAILED, RELATIVE_PATHS_END,
    RELATIVE_PATHS_LINE, RESOURCES_CLOSE, RESOURCES_OPEN, STATUS_ALREADY_LOADED,
};
use crate::discover::{SkillFiles, SkillMeta};
use crate::text::xml_text;

/// Where a skill's directory is, as the model is shown it: under the tool's `scope_paths` when
/// it has one for the skill's scope, else where the registry says (an absolute path or a URI).
pub fn display_directory(meta: &SkillMeta, opts: &ToolOptions) -> String {
    meta.shown_directory(&opts.scope_paths)
}

/// The instructions wrapped for the model.
pub fn wrap_activation(meta: &SkillMeta, body: &str, files: &SkillFiles, opts: &ToolOptions) -> String {
    let listing_failed = files.error.is_some();
    let (files, complete) = (&files.files, files.complete);
    let mut out = open_tag(&meta.skill.name, None);
    out.push('\n');
    // The body is the author's Markdown, shown as written, except for the wrapper's markup.
    out.push_str(&neutralize_markup(body));
    out.push_str("\n\n");
    // Every other value is a line of the wrapper: XML element text.
    out.push_str(&format!("{DIRECTORY_LINE}{}\n", xml_text(&display_directory(meta, opts))));
    out.push_str(&format!("{RELATIVE_PATHS_LINE}{}{RELATIVE_PATHS_END}\n", xml_text(&opts.tool_name)));
    if let Some(c) = &meta.skill.compatibility {
        out.push_str(&format!("{COMPATIBILITY_LINE}{}\n", xml_text(c)));
    }
    let cap = opts.max_resources as usize;
    if listing_failed {
        out.push_str(LISTING_FAILED);
        out.push('\n');
    } else if !files.is_empty() {
        out.push_str(RESOURCES_OPEN);
        out.push('\n');
        for f in files.iter().take(cap) {
            out.push_str(&xml_text(f));
            out.push('\n');
        }
        if files.len() > cap && complete {
            out.push_str(&format!("({} more files not listed)\n", files.len() - cap));
        } else if files.len() > cap || !complete {
            out.push_str("(more files not listed)\n");
        }
        out.push_str(RESOURCES_CLOSE);
        out.push('\n');
    }
    out.push_str(CONTENT_CLOSE);
    out
}

/// A short result for instructions this session already has.
pub fn already_loaded(meta: &SkillMeta, earlier: &Activation, opts: &ToolOptions) -> String {
    format!(
        "{}The instructions of this skill were loaded earlier in this conversation (activation {}); follow them from there. Call {} with force: true to load them again.{CONTENT_CLOSE}",
        open_tag(&meta.skill.name, Some(STATUS_ALREADY_LOADED)),
        earlier.index,
        xml_text(&opts.tool_name)
    )
}
