//! The skill tool at scale: when the host's catalog cannot list every skill the model is offered
//! (or the host says so), the tool takes any offered skill's name, not only the listed ones (its
//! `name` has no enum), and a `query` that searches them; a name it does not know is answered
//! with the nearest ones. Below that point none of this is used and the tool is as before.

use super::tool::{definition, error_result};
use super::tool_io::{ClientOutput, ToolDefinition, ToolInput, ToolOptions, ToolResult};
use crate::content::markdown_code;
use crate::content::{plain_line, SEARCH_RESULTS_PREFIX, UNKNOWN_SKILL_PREFIX};
use crate::diagnostic::{codes, Diagnostic};
use crate::search::SearchHit;

/// Characters of a description shown in a search answer at most.
pub const HIT_DESCRIPTION_CHARS: usize = 200;

/// The tool's definition when it searches: `name` any offered skill, `query` the search.
pub fn search_tool_definition(offered: usize, catalog: Option<&str>, opts: &ToolOptions) -> Option<ToolDefinition> {
    if offered == 0 {
        return None;
    }
    let lead = format!(
        "Load a skill: call with a skill's name to get its instructions (and the list of its files), \
         or with a name and a path relative to the skill's directory to read one of its files. \
         {offered} skills are available, more than the list shows: call with query (a few words \
         about the task) to find skills by what they do, then call again with the name you chose. \
         Any available skill's name works, listed or not."
    );
    let name = serde_json::json!({ "type": "string", "description": "The skill's name (any available skill, listed or not)." });
    let query = "Instead of a name: a few words about the task, to search the skills by what they do.";
    Some(definition(lead, name, Some(query), catalog, opts))
}

fn description_line(hit: &SearchHit) -> String {
    let d = plain_line(&hit.description);
    if d.chars().count() <= HIT_DESCRIPTION_CHARS {
        return d;
    }
    let cut: String = d.chars().take(HIT_DESCRIPTION_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

/// A line per hit: its name, its description, and where a search found the query's words
/// (`matched: name, description`; `matched: body` when only the skill's instructions held them).
fn hit_lines(hits: &[SearchHit]) -> String {
    hits.iter()
        .map(|h| {
            let matched = match h.matched.as_slice() {
                [] => String::new(),
                fields => format!(" (matched: {})", fields.iter().map(|f| f.as_str()).collect::<Vec<_>>().join(", ")),
            };
            format!("- {}: {}{matched}\n", plain_line(&h.name), description_line(h))
        })
        .collect()
}

/// The answer to a `query` call: the skills found, best first, each with its description.
pub fn search_answer(query: &str, hits: &[SearchHit], opts: &ToolOptions) -> ToolResult {
    let tool = markdown_code(&opts.tool_name);
    let q = plain_line(query);
    let content = if hits.is_empty() {
        format!("{SEARCH_RESULTS_PREFIX} \"{q}\": none. Try other words (what the task is about, not how).")
    } else {
        format!(
            "{SEARCH_RESULTS_PREFIX} \"{q}\", best first. Call `{tool}` with the name of the one that fits to load it.\n{}",
            hit_lines(hits)
        )
        .trim_end()
        .to_string()
    };
    ToolResult { client: ClientOutput::new("", None, content.clone()), content, ..ToolResult::default() }
}

/// The answer to a name the tool does not offer, with the offered skills nearest to it.
pub fn unknown_with_closest(input: &ToolInput, closest: &[SearchHit], opts: &ToolOptions) -> ToolResult {
    let name = plain_line(&input.name);
    let tool = markdown_code(&opts.tool_name);
    let content = if closest.is_empty() {
        format!("{UNKNOWN_SKILL_PREFIX} '{name}'. Call `{tool}` with query (a few words about the task) to search the skills.")
    } else {
        format!(
            "{UNKNOWN_SKILL_PREFIX} '{name}'. The nearest skills:\n{}Call `{tool}` with one of these names, or with query to search.",
            hit_lines(closest)
        )
    };
    error_result(input, Diagnostic::error(codes::SKILL_UNKNOWN, format!("no skill named '{name}'")), content)
}
