//! Skills the user invokes (`/name args`) or mentions (`$name`) in a message, read and wrapped as
//! the tool wraps them, ready to go into the conversation.

use super::expand::{expand_body, Commands};
use super::fork::fork_of;
use super::injection::{Injected, Injection};
use super::invoke;
use super::session::{Activation, SkillSession};
use super::tool_io::ToolOptions;
use super::wrap::{already_loaded, display_directory, wrap_activation};
use crate::diagnostic::Diagnostic;
use crate::discover::{FileRequest, FilesRequest, SkillMeta, SkillRegistry};
use crate::parse::Skill;
#[cfg(feature = "invocation")]
use std::rc::Rc;

/// A planned injection (see [`super::plan`] for why plans exist).
pub struct InjectionPlan {
    parsed: invoke::ParsedMessage,
    reads: Vec<PlannedRead>,
    commands: Option<Commands>,
}

/// One skill of a planned injection.
struct PlannedRead {
    invocation: invoke::Invocation,
    meta: SkillMeta,
    file: FileRequest,
    files: Option<FilesRequest>,
    /// The earlier load the conversation holds, when this one repeats it.
    earlier: Option<Activation>,
}

impl InjectionPlan {
    /// The plan for a conversation whose loads `session` records: a skill whose instructions it
    /// holds already gets the pointer the tool gives a repeated activation, unless `force`.
    pub fn repeating(mut self, session: &SkillSession, force: bool) -> InjectionPlan {
        for r in &mut self.reads {
            r.earlier = session.repeat_of(&r.invocation.name, force).cloned();
        }
        self
    }

    /// The plan with the host's runner for `` !`command` `` preprocessing.
    pub fn with_commands(mut self, runner: Option<Commands>) -> InjectionPlan {
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
            let files = registry.files_request(&inv.name);
            Some(PlannedRead { invocation: inv.clone(), meta, file, files, earlier: None })
        })
        .collect();
    InjectionPlan { parsed, reads, commands: None }
}

/// Whether `substituted` (the body with a slash invocation's arguments) is the body without
/// arguments followed by the appended `ARGUMENTS:` line: the arguments fill no placeholder, so
/// the instructions are the same whatever they are.
fn arguments_only_appended(skill: &Skill, body: &str, substituted: &str, substitute: &Substitute<'_>) -> bool {
    match substitute(skill, body, "") {
        Ok(bare) => substituted.strip_prefix(bare.as_str()).is_some_and(|rest| rest.starts_with("\n\nARGUMENTS: ")),
        Err(_) => false,
    }
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
    for PlannedRead { invocation: inv, meta, file, files, earlier } in plan.reads {
        let repeat = |size: u64| Injected {
            name: inv.name.clone(),
            kind: inv.kind,
            arguments: inv.arguments.clone(),
            content: earlier.as_ref().map(|e| already_loaded(&meta, e, opts)).unwrap_or_default(),
            size,
            already_loaded: true,
            fork: fork_of(&meta),
        };
        // A repeat without arguments needs no read: the instructions would be the same.
        let with_arguments = inv.kind == invoke::InvocationKind::Slash && !inv.arguments.trim().is_empty();
        if earlier.is_some() && !with_arguments {
            out.injected.push(repeat(0));
            continue;
        }
        let fetched = file.fetch().await;
        let Some(body) = fetched.text else {
            out.errors.extend(fetched.error);
            continue;
        };
        let body = match inv.kind {
            invoke::InvocationKind::Slash => match substitute(&meta.skill, &body, &inv.arguments) {
                Ok(substituted) => {
                    // Arguments that only ride after the instructions (the body has no
                    // placeholder) leave them as the conversation holds them: still a repeat.
                    if earlier.is_some() && arguments_only_appended(&meta.skill, &body, &substituted, substitute) {
                        out.injected.push(repeat(fetched.size));
                        continue;
                    }
                    substituted
                }
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
            already_loaded: false,
            fork: fork_of(&meta),
        });
    }
    out
}
