//! Subagents: the prompt for a subagent that runs one skill on a task and reports back (the
//! client guide's delegation pattern), and the structured task a host needs to run a skill in a
//! subagent: for a `context: fork` skill (Claude Code), the subagent type its `agent` names,
//! with the skill's files listed as the subagent reads them.

use super::expand::{expand_body, Commands};
use super::tool_io::ToolOptions;
use super::wrap::{display_directory, wrap_activation};
use crate::content::PROTOCOL_TAGS;
use crate::diagnostic::Diagnostic;
use crate::discover::{FileRequest, FilesRequest, SkillFiles, SkillMeta, SkillRegistry};
use crate::text::{clean_lines, neutralize_tags};
use crate::vet::{Level, VetPolicy};
use serde::{Deserialize, Serialize};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The skill `name` planned for a subagent: its metadata, the read of its instructions and the
/// listing of its files. None when the tool does not offer it (a subagent runs what the model
/// could load).
pub struct SubagentPlan {
    meta: Box<SkillMeta>,
    file: FileRequest,
    files: Option<FilesRequest>,
    commands: Option<Commands>,
    /// The host's vetting policy and threshold for the instructions.
    vet: (VetPolicy, Level),
}

/// What a host needs to run a skill in a subagent: the subagent type the skill names, the prompt,
/// and the skill's files as the subagent reads them (relative to `directory`, through the tool).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SubagentTask {
    /// The skill's name.
    pub name: String,
    /// The skill's `context` field (`fork`: it is meant to run in a subagent), when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub context: Option<String>,
    /// The skill's `agent` field: the subagent type to run it in, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub agent: Option<String>,
    /// The skill's directory, as the model is shown it.
    pub directory: String,
    /// The subagent's prompt: the task, the instructions (placeholders resolved, commands run)
    /// and the file list.
    pub prompt: String,
    /// The skill's files (besides SKILL.md), relative to `directory`, at most `maxResources`.
    pub resources: Vec<String>,
    /// Whether `resources` is every file of the skill.
    pub resources_complete: bool,
    /// Findings while building the prompt (a command the host's runner refused).
    pub diagnostics: Vec<Diagnostic>,
}

/// Plans [`subagent_prompt`] for `name` among the `visible` skills.
pub fn plan_subagent(registry: &SkillRegistry, visible: &[String], name: &str) -> Option<SubagentPlan> {
    if !visible.iter().any(|v| v == name) {
        return None;
    }
    let meta = registry.get(name)?;
    let file = registry.file_request(name, None).ok()?;
    Some(SubagentPlan {
        meta: Box::new(meta),
        file,
        files: registry.files_request(name),
        commands: None,
        vet: (VetPolicy::Off, Level::High),
    })
}

impl SubagentPlan {
    /// The plan with the host's runner for `` !`command` `` preprocessing.
    pub fn with_commands(mut self, runner: Option<Commands>) -> SubagentPlan {
        self.commands = runner;
        self
    }

    /// The plan with the host's vetting policy for the instructions the prompt carries
    /// ([`crate::vet::served`]; off unless given).
    pub fn with_vet(mut self, policy: VetPolicy, threshold: Level) -> SubagentPlan {
        self.vet = (policy, threshold);
        self
    }
}

/// Reads the planned skill's instructions and builds the subagent's prompt; None when they
/// cannot be read.
pub async fn run_subagent(plan: SubagentPlan, task: &str, opts: &ToolOptions) -> Option<String> {
    run_subagent_task(plan, task, opts).await.map(|t| t.prompt)
}

/// Reads the planned skill's instructions and lists its files, and builds the subagent's task;
/// None when the instructions cannot be read or the vetting policy refuses them.
pub async fn run_subagent_task(plan: SubagentPlan, task: &str, opts: &ToolOptions) -> Option<SubagentTask> {
    let body = plan.file.fetch().await.text?;
    let listed = match plan.files {
        Some(f) => f.fetch(opts.max_resources as usize).await,
        None => SkillFiles { complete: true, ..Default::default() },
    };
    let meta = plan.meta;
    let directory = display_directory(&meta, opts);
    let mut diagnostics = Vec::new();
    let body = expand_body(&body, &meta.skill.name, &directory, plan.commands.as_ref(), &mut diagnostics).await;
    let (policy, threshold) = plan.vet;
    diagnostics.extend(crate::vet::served(policy, threshold, "SKILL.md", &body).ok()?);
    let prompt = subagent_prompt_with(&meta, &body, &listed, task, opts);
    let cap = opts.max_resources as usize;
    Some(SubagentTask {
        name: meta.skill.name.clone(),
        context: meta.skill.context.clone(),
        agent: meta.skill.agent.clone(),
        directory,
        prompt,
        resources: listed.files.iter().take(cap).cloned().collect(),
        resources_complete: listed.complete && listed.error.is_none() && listed.files.len() <= cap,
        diagnostics,
    })
}

/// The prompt for a subagent that runs one skill on a task and reports back (the client guide's
/// delegation pattern): the task, the skill's instructions, and what to return.
pub fn subagent_prompt(meta: &SkillMeta, instructions: &str, task: &str, opts: &ToolOptions) -> String {
    subagent_prompt_with(meta, instructions, &SkillFiles { complete: true, ..Default::default() }, task, opts)
}

/// [`subagent_prompt`] with the skill's files listed, as an activation lists them.
pub fn subagent_prompt_with(
    meta: &SkillMeta,
    instructions: &str,
    files: &SkillFiles,
    task: &str,
    opts: &ToolOptions,
) -> String {
    format!(
        "You are a subagent. Carry out the task below by following the skill's instructions, then \
         report back to the agent that delegated it: what you did, the result, and anything that \
         went wrong or needs a decision. Report facts, not the instructions themselves.\n\n\
         <task>\n{}\n</task>\n\n{}",
        neutralize_tags(&clean_lines(task), &[&["task"], PROTOCOL_TAGS].concat()),
        wrap_activation(meta, instructions, files, opts)
    )
}
