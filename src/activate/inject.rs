//! Skills the user invokes (`/name args`) or mentions (`$name`) in a message, read and wrapped as
//! the tool wraps them, ready to go into the conversation.

use super::expand::{expand_body, CommandRunner};
use super::invoke;
use super::subagent::{fork_of, Fork};
use super::tool::{display_directory, wrap_activation, ToolOptions};
use crate::diagnostic::Diagnostic;
use crate::discover::{FileRequest, FilesRequest, SkillMeta, SkillRegistry};
use crate::parse::Skill;
use serde::{Deserialize, Serialize};
#[cfg(feature = "invocation")]
use std::rc::Rc;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// A skill the user invoked (`/name args`) or mentioned (`$name`), ready to go into the
/// conversation: its instructions wrapped as the tool would wrap them, arguments substituted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Injected {
    /// The skill's name.
    pub name: String,
    /// Invoked with `/name` or mentioned with `$name`.
    pub kind: invoke::InvocationKind,
    /// The arguments after a `/name` (empty for a mention).
    pub arguments: String,
    /// The instructions, wrapped in `<skill_content>`, arguments substituted.
    pub content: String,
    /// Bytes of the SKILL.md read.
    pub size: u64,
    /// Set when the skill says `context: fork`: the host may run it in a subagent instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub fork: Option<Fork>,
}

/// What a user's message asks for: the skills to inject and the text to send on.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Injection {
    /// The skills to put into the conversation, in the order the message names them.
    pub injected: Vec<Injected>,
    /// The message without a leading `/name args` (the text to send on).
    pub remaining: String,
    /// A leading `/name` that is no user-invocable skill.
    pub unknown: Vec<String>,
    /// Skills that could not be read.
    pub errors: Vec<Diagnostic>,
    /// Findings while serving the instructions (a `` !`command` `` the host's runner refused).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "tsify", tsify(optional))]
    pub diagnostics: Vec<Diagnostic>,
}

/// A planned injection (see [`super::plan`] for why plans exist).
pub struct InjectionPlan {
    parsed: invoke::ParsedMessage,
    reads: Vec<(invoke::Invocation, SkillMeta, FileRequest, Option<FilesRequest>)>,
    commands: Option<CommandRunner>,
}

impl InjectionPlan {
    /// The plan with the host's runner for `` !`command` `` preprocessing.
    pub fn with_commands(mut self, runner: Option<CommandRunner>) -> InjectionPlan {
        self.commands = runner;
        self
    }
}

/// Finds the user-invocable skills a message invokes or mentions and plans their reads.
#[cfg(feature = "invocation")]
pub fn plan_injection(registry: &SkillRegistry, message: &str) -> InjectionPlan {
    let skills: Vec<Rc<Skill>> = registry.list_metas(None).into_iter().map(|m| m.skill).collect();
    plan_injection_among(registry, message, &skills)
}

/// [`plan_injection`] among `skills` only (the ones the user may invoke, e.g. a host's
/// user-visible skills); a name not among them is not injected.
#[cfg(feature = "invocation")]
pub fn plan_injection_among(
    registry: &SkillRegistry,
    message: &str,
    skills: &[impl std::borrow::Borrow<Skill>],
) -> InjectionPlan {
    plan_parsed_injection(registry, invoke::parse_message(message, skills))
}

/// Plans the reads of the skills a message was found to invoke or mention (`parsed`, from
/// [`invoke::parse_message`] among the skills the user may invoke; read in the package's second
/// module and handed over as data). An invocation of a skill the registry does not hold is left
/// out.
pub fn plan_parsed_injection(registry: &SkillRegistry, parsed: invoke::ParsedMessage) -> InjectionPlan {
    let reads = parsed
        .invocations
        .iter()
        .filter_map(|inv| {
            let meta = registry.get(&inv.name)?;
            let file = registry.file_request(&inv.name, None).ok()?;
            Some((inv.clone(), meta, file, registry.files_request(&inv.name)))
        })
        .collect();
    InjectionPlan { parsed, reads, commands: None }
}

/// Reads what [`plan_injection`] planned and wraps each skill's instructions.
#[cfg(feature = "invocation")]
pub async fn run_injection(plan: InjectionPlan, opts: &ToolOptions) -> Injection {
    let substitute = |skill: &Skill, body: &str, arguments: &str| {
        let names = invoke::skill_argument_names(skill);
        Ok(invoke::substitute_arguments_with(body, arguments, &names, &invoke::SubstituteOptions::default()))
    };
    run_injection_with(plan, opts, &substitute).await
}

/// How a slash invocation's arguments go into a skill's body: `(skill, body, arguments)` to the
/// body with them substituted ([`invoke::substitute_arguments_with`] with the skill's argument
/// names), or why that could not be done.
pub type Substitute<'a> = dyn Fn(&Skill, &str, &str) -> Result<String, Diagnostic> + 'a;

/// [`run_injection`] with the argument substitution given (the package's second module runs it).
/// A skill whose substitution fails is not injected; its diagnostic is among the errors.
pub async fn run_injection_with(plan: InjectionPlan, opts: &ToolOptions, substitute: &Substitute<'_>) -> Injection {
    let mut out = Injection { remaining: plan.parsed.remaining, unknown: plan.parsed.unknown, ..Injection::default() };
    for (inv, meta, file, files) in plan.reads {
        let fetched = file.fetch().await;
        let Some(body) = fetched.text else {
            out.errors.extend(fetched.error);
            continue;
        };
        let body = match inv.kind {
            invoke::InvocationKind::Slash => match substitute(&meta.skill, &body, &inv.arguments) {
                Ok(body) => body,
                Err(d) => {
                    out.errors.push(d);
                    continue;
                }
            },
            invoke::InvocationKind::Mention => body,
        };
        // As Claude Code: arguments first, then the skill directory, then the commands.
        let dir = display_directory(&meta, opts);
        let body = expand_body(&body, &meta.skill.name, &dir, plan.commands.as_ref(), &mut out.diagnostics).await;
        let listed = match files {
            Some(f) => f.fetch(opts.max_resources as usize).await,
            None => Default::default(),
        };
        let content = wrap_activation(&meta, &body, &listed, opts);
        out.injected.push(Injected {
            name: inv.name,
            kind: inv.kind,
            arguments: inv.arguments,
            content,
            size: fetched.size,
            fork: fork_of(&meta),
        });
    }
    out
}
