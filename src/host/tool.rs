//! [`SkillTool`]: the skill tool over a shared [`SkillHost`], with the session that follows the
//! conversation. Its definition, its answers, the skills a user's message injects, subagent
//! prompts and the transcript operations run through it all read one configuration (the host's,
//! or the host's with the tool's overrides) and one visibility. Every call borrows the host only
//! until its reads are planned, so calls may overlap each other and a refresh.

use super::config::SkillsConfig;
use super::consent;
use super::skills::SkillHost;
use super::view::View;
use crate::activate::invoke::ParsedMessage;
use crate::activate::SessionChange;
use crate::activate::ToolPlan;
use crate::activate::{self, CallArguments, SkillSession, ToolDefinition, ToolInput};
use crate::activate::{Injection, Substitute};
#[cfg(feature = "transcripts")]
use crate::compact::{self, CompactOptions, Compacted, SkillContent, UseKind};
use crate::consent::ApprovalReason;
#[cfg(feature = "transcripts")]
use crate::diagnostic::Diagnostic;
use crate::disclose::CatalogResult;
use crate::search::{SearchOptions, DEFAULT_SEARCH_LIMIT};
#[cfg(feature = "transcripts")]
use serde_json::Value;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashSet;
use std::rc::Rc;

/// What the tool offers in one registry generation: the visibility and the catalog (whose skills
/// are the tool's enum).
#[derive(Clone)]
struct Offer {
    generation: u64,
    view: Rc<View>,
    catalog: Rc<CatalogResult>,
    /// How many skills the model is offered (listed or not).
    offered: usize,
}

impl Offer {
    /// The names a call for `name` may reach: with search, any offered skill's; else the
    /// catalog's.
    fn reach(&self, name: &str) -> Cow<'_, [String]> {
        if self.catalog.search && self.view.offers(name) {
            Cow::Owned(vec![name.to_string()])
        } else {
            Cow::Borrowed(&self.catalog.skills)
        }
    }
}

/// The skill tool. Cloning is cheap and shares everything (host, session, caches).
#[derive(Clone)]
pub struct SkillTool {
    host: Rc<RefCell<SkillHost>>,
    session: Rc<RefCell<SkillSession>>,
    /// The tool's own configuration, when it overrides the host's.
    own: Option<Rc<SkillsConfig>>,
    offer: Rc<RefCell<Option<Offer>>>,
}

#[cfg(feature = "transcripts")]
/// The skills whose instructions a transcript holds in full (activations, injections,
/// re-attachments), for [`SkillSession::observe`].
pub fn present_skills(transcript: &Value, opts: &CompactOptions) -> Result<HashSet<String>, Diagnostic> {
    let found = compact::find(transcript, opts)?;
    Ok(found
        .uses
        .into_iter()
        .filter(|u| u.result_index.is_some() && matches!(u.kind, UseKind::Activation | UseKind::Injected))
        .map(|u| u.name)
        .collect())
}

#[cfg(feature = "transcripts")]
/// Lets `session` follow `transcript` (what the host keeps of the conversation): skills whose
/// instructions left it are forgotten, so their next activation returns them in full.
pub fn observe(
    session: &mut SkillSession,
    transcript: &Value,
    opts: &CompactOptions,
) -> Result<SessionChange, Diagnostic> {
    let present = present_skills(transcript, opts)?;
    Ok(session.observe(&present.iter().map(String::as_str).collect()))
}

impl SkillTool {
    /// The tool over `host`, configured as the host is, with a new session.
    pub fn new(host: Rc<RefCell<SkillHost>>) -> SkillTool {
        SkillTool { host, session: Rc::default(), own: None, offer: Rc::default() }
    }

    /// The tool with its own configuration (the host's with overrides, see
    /// [`SkillsConfig::with_overrides`]).
    pub fn with_config(host: Rc<RefCell<SkillHost>>, config: SkillsConfig) -> SkillTool {
        SkillTool { own: Some(Rc::new(config)), ..SkillTool::new(host) }
    }

    /// The session the tool records into.
    pub fn session(&self) -> &Rc<RefCell<SkillSession>> {
        &self.session
    }

    /// Records into `session` from now on (to share one conversation's session between tools).
    pub fn set_session(&mut self, session: Rc<RefCell<SkillSession>>) {
        self.session = session;
    }

    /// The configuration the tool reads.
    pub fn config(&self) -> Rc<SkillsConfig> {
        match &self.own {
            Some(c) => c.clone(),
            None => self.host.borrow().config().clone(),
        }
    }

    /// What the tool offers now (computed once per registry generation).
    fn offer(&self) -> Offer {
        let host = self.host.borrow();
        let generation = host.registry().generation();
        if let Some(o) = self.offer.borrow().as_ref().filter(|o| o.generation == generation) {
            return o.clone();
        }
        let offer = match &self.own {
            None => {
                let view = host.view();
                Offer { generation, offered: view.model_count(), view, catalog: host.catalog() }
            }
            Some(config) => {
                let view = host.view_for(config);
                let catalog = Rc::new(host.noting_pending(view.render(config), config));
                Offer { generation, offered: view.model_count(), view, catalog }
            }
        };
        *self.offer.borrow_mut() = Some(offer.clone());
        offer
    }

    /// The tool for the model, the skills of its catalog as the `name` enum; None when no skill
    /// is offered (then offer no tool).
    pub fn definition(&self) -> Option<ToolDefinition> {
        let offer = self.offer();
        let config = self.config();
        let embedded = if config.embed_catalog { offer.catalog.text.as_deref() } else { None };
        if offer.catalog.search {
            return activate::search_tool_definition(offer.offered, embedded, &config.tool_options());
        }
        activate::tool_definition(&offer.catalog.skills, embedded, &config.tool_options())
    }

    /// The catalog the tool offers.
    pub fn catalog(&self) -> Rc<CatalogResult> {
        self.offer().catalog
    }

    /// Runs one call (`input` is the error when the arguments were not `{ name, path?, force? }`)
    /// and records what it loaded at `now`. Never fails: a refusal is an error result.
    pub async fn execute(&self, input: Result<ToolInput, String>, now: f64) -> activate::ToolResult {
        if let Ok(i) = &input {
            if self.needs_pending(i) {
                #[cfg(feature = "digest")]
                super::lock::list_pending_verified(&self.host).await;
                #[cfg(not(feature = "digest"))]
                SkillHost::list_pending_shared(&self.host).await;
            }
        }
        let offer = self.offer();
        let opts = self.config().tool_options();
        let input = match input {
            Ok(i) => i,
            Err(problem) => return activate::invalid_input(&problem, &offer.catalog.skills),
        };
        if offer.catalog.search {
            let config = self.config();
            let host = self.host.borrow();
            let query = input.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
            if let (true, Some(q)) = (input.name.trim().is_empty(), query) {
                let search = SearchOptions { limit: Some(DEFAULT_SEARCH_LIMIT), scope: None };
                let hits = super::skills::search_view(host.registry(), &offer.view, &config, q, &search);
                return activate::search_answer(q, &hits, &opts);
            }
            if !offer.view.offers(&input.name) {
                let near = super::skills::closest_view(host.registry(), &offer.view, &config, &input.name, 5);
                return activate::unknown_with_closest(&input, &near, &opts);
            }
        }
        let reach = offer.reach(&input.name);
        let plan = activate::plan(self.host.borrow().registry(), &self.session.borrow(), &input, &reach, &opts)
            .with_commands(self.commands());
        let reason = match &plan {
            ToolPlan::Activate { .. } => Some(ApprovalReason::Activate),
            ToolPlan::Read { .. } => Some(ApprovalReason::Read),
            ToolPlan::Done(_) => None,
        };
        let mut digest = None;
        if let Some(reason) = reason {
            match consent::gate(&self.host, self.config().approve.as_ref(), &input.name, reason).await {
                Ok(d) => digest = d,
                Err(d) => return activate::refused(&input, d),
            }
        }
        let mut result = activate::run(plan, &opts).await;
        if !result.is_error {
            result.digest = digest;
            if let Some(refusal) = self.vet_served(&mut result) {
                return activate::refused(&input, refusal);
            }
        }
        self.session.borrow_mut().record_result(&result, now);
        result
    }

    /// Vets what the tool is about to serve (the instructions, or the file read) in full, by the
    /// host's policy: with `vet: "report"` the findings join the result's diagnostics; with
    /// `"refuse"` a finding at or above `vetSeverity` refuses the call (the error it returns).
    /// Discovery vetted only the frontmatter and the body's hidden text; this is where the
    /// visible text the model is given is vetted. Lines count in the text served.
    fn vet_served(&self, result: &mut activate::ToolResult) -> Option<crate::diagnostic::Diagnostic> {
        if result.already_loaded {
            return None;
        }
        let path = result.path.clone().unwrap_or_else(|| "SKILL.md".to_string());
        match self.vet_text(&path, &result.content) {
            Ok(findings) => {
                result.diagnostics.extend(findings);
                None
            }
            Err(refusal) => Some(refusal),
        }
    }

    /// The host's command runner, with the vetting policy a body passes before its commands run.
    fn commands(&self) -> Option<activate::Commands> {
        let config = self.config();
        let vet = (config.discover.vet, config.discover.vet_severity);
        config.commands.clone().map(|runner| activate::Commands { runner, vet })
    }

    /// [`crate::vet::served`] by this tool's policy.
    fn vet_text(
        &self,
        path: &str,
        text: &str,
    ) -> Result<Vec<crate::diagnostic::Diagnostic>, crate::diagnostic::Diagnostic> {
        let config = self.config();
        crate::vet::served(config.discover.vet, config.discover.vet_severity, path, text)
    }

    /// Whether a call needs the lazy scopes not listed yet: a search, or a skill the tool does
    /// not offer now (it may be one of theirs).
    fn needs_pending(&self, input: &ToolInput) -> bool {
        if self.host.borrow().registry().pending_scopes().is_empty() {
            return false;
        }
        let name = input.name.trim();
        name.is_empty() || !self.offer().view.offers(name)
    }

    /// Runs a call as a model API hands it over: the tool it names (a call of another tool is an
    /// error result) and its arguments, JSON text or a value.
    pub async fn execute_call(&self, called: Option<&str>, args: &CallArguments, now: f64) -> activate::ToolResult {
        let config = self.config();
        if let Some(name) = called.filter(|n| *n != config.tool_name) {
            return activate::other_tool(name, &self.offer().catalog.skills, &config.tool_options());
        }
        self.execute(activate::read_arguments(args), now).await
    }

    #[cfg(feature = "invocation")]
    /// The skills a user's message invokes (`/name args`) or mentions (`$name`), among those the
    /// user may invoke, wrapped for the conversation and recorded at `now`. A skill whose
    /// instructions the conversation holds already (loaded by the model or the user) gets the
    /// pointer a repeated activation gets, unless `force`.
    pub async fn invoke(&self, message: &str, force: bool, now: f64) -> Injection {
        let offer = self.offer();
        let parsed = crate::activate::invoke::parse_message(message, offer.view.user_skills());
        let substitute = |skill: &crate::parse::Skill, body: &str, arguments: &str| {
            let names = crate::activate::invoke::skill_argument_names(skill);
            let opts = crate::activate::invoke::SubstituteOptions::default();
            Ok(crate::activate::invoke::substitute_arguments_with(body, arguments, &names, &opts))
        };
        self.invoke_parsed(parsed, &substitute, force, now).await
    }

    /// [`SkillTool::invoke`] for a message already read (`parsed`, found among the skills of
    /// [`SkillTool::user_view`]) with the argument substitution given: the package's second
    /// module runs both rules. `force` as for [`SkillTool::invoke`].
    pub async fn invoke_parsed(
        &self,
        mut parsed: ParsedMessage,
        substitute: &Substitute<'_>,
        force: bool,
        now: f64,
    ) -> Injection {
        // The host's consent first: a skill it does not approve is not read.
        let approve = self.config().approve.clone();
        let mut refused = Vec::new();
        let mut kept = Vec::with_capacity(parsed.invocations.len());
        for inv in std::mem::take(&mut parsed.invocations) {
            match consent::gate(&self.host, approve.as_ref(), &inv.name, ApprovalReason::Invoke).await {
                Ok(_) => kept.push(inv),
                Err(d) => refused.push(d),
            }
        }
        parsed.invocations = kept;
        let plan = activate::plan_parsed_injection(self.host.borrow().registry(), parsed)
            .repeating(&self.session.borrow(), force)
            .with_commands(self.commands());
        let mut injection = activate::run_injection_with(plan, &self.config().tool_options(), substitute).await;
        injection.errors.extend(refused);
        // The instructions a user's `/name` puts into the conversation are vetted as the tool's
        // answers are; a refused skill is not injected (its refusal is among the errors).
        let mut injected = Vec::with_capacity(injection.injected.len());
        for skill in std::mem::take(&mut injection.injected) {
            if skill.already_loaded {
                injected.push(skill);
                continue;
            }
            match self.vet_text("SKILL.md", &skill.content) {
                Ok(findings) => {
                    injection.diagnostics.extend(findings.into_iter().map(|d| about(&skill.name, d)));
                    injected.push(skill);
                }
                Err(refusal) => injection.errors.push(about(&skill.name, refusal)),
            }
        }
        injection.injected = injected;
        self.session.borrow_mut().record_injection(&injection, now);
        injection
    }

    /// The visibility the tool serves now: its skills the user may invoke are the ones
    /// [`SkillTool::invoke`] reads a message among.
    pub fn user_view(&self) -> Rc<View> {
        self.offer().view
    }

    /// The prompt for a subagent that runs `name` on `task`; None when the tool does not offer
    /// the skill, its instructions cannot be read or the host's vetting refuses them (`vet:
    /// "refuse"`; `SkillRegistry#vet` says why). Nothing is recorded.
    pub async fn subagent_prompt(&self, name: &str, task: &str) -> Option<String> {
        self.subagent_task(name, task).await.map(|t| t.prompt)
    }

    /// What a host needs to run `name` on `task` in a subagent: the subagent type the skill names
    /// (`agent`, for a `context: fork` skill), the prompt and the skill's files, and what vetting
    /// found in the instructions; None as for [`SkillTool::subagent_prompt`]. Nothing is recorded.
    pub async fn subagent_task(&self, name: &str, task: &str) -> Option<activate::SubagentTask> {
        let offer = self.offer();
        let plan = activate::plan_subagent(self.host.borrow().registry(), &offer.reach(name), name)?
            .with_commands(self.commands());
        let config = self.config();
        // The instructions the prompt carries are vetted as the tool's answers are.
        let plan = plan.with_vet(config.discover.vet, config.discover.vet_severity);
        activate::run_subagent_task(plan, task, &config.tool_options()).await
    }

    #[cfg(feature = "transcripts")]
    /// Transcript options with this tool's name among the tool names.
    fn transcript_options(&self, opts: &CompactOptions) -> CompactOptions {
        compact::with_tool_name(opts, &self.config().tool_name)
    }

    #[cfg(feature = "transcripts")]
    fn followed(&self, out: Result<Compacted, Diagnostic>, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
        let out = out?;
        observe(&mut self.session.borrow_mut(), &out.transcript, opts)?;
        Ok(out)
    }

    #[cfg(feature = "transcripts")]
    /// Lets the session follow a transcript the host keeps (see [`observe`]).
    pub fn observe(&self, transcript: &Value, opts: &CompactOptions) -> Result<SessionChange, Diagnostic> {
        observe(&mut self.session.borrow_mut(), transcript, &self.transcript_options(opts))
    }

    #[cfg(feature = "transcripts")]
    /// [`compact::compact_to_metadata`], and the session forgets what it compacted away.
    pub fn compact(&self, transcript: &Value, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
        let opts = self.transcript_options(opts);
        self.followed(compact::compact_to_metadata(transcript, &opts), &opts)
    }

    #[cfg(feature = "transcripts")]
    /// [`compact::prune`], and the session forgets what left with the removed messages.
    pub fn prune(
        &self,
        transcript: &Value,
        budget_tokens: u64,
        opts: &CompactOptions,
    ) -> Result<Compacted, Diagnostic> {
        let opts = self.transcript_options(opts);
        self.followed(compact::prune(transcript, budget_tokens, &opts), &opts)
    }

    #[cfg(feature = "transcripts")]
    /// [`compact::dedupe`], and the session follows the result.
    pub fn dedupe(&self, transcript: &Value, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
        let opts = self.transcript_options(opts);
        self.followed(compact::dedupe(transcript, &opts), &opts)
    }

    /// What a re-attachment puts back, read now: the current instructions of each skill the
    /// session loaded (the most recently loaded first), as `(name, content)`, and the catalog
    /// text (after the catalog's instructions) when the tool offers one. Nothing is recorded.
    pub async fn reattach_contents(&self) -> (Vec<(String, String)>, Option<String>) {
        let offer = self.offer();
        let tool = self.config().tool_options();
        let names = self.session.borrow().reattach_order();
        let plans: Vec<_> = {
            let host = self.host.borrow();
            let fresh = SkillSession::default();
            names
                .iter()
                .map(|n| {
                    let input = ToolInput { name: n.clone(), path: None, force: true, query: None };
                    activate::plan(host.registry(), &fresh, &input, &offer.reach(n), &tool)
                        .with_commands(self.commands())
                })
                .collect()
        };
        let mut contents = Vec::new();
        for plan in plans {
            let r = activate::run(plan, &tool).await;
            if !r.is_error {
                contents.push((r.name, r.content));
            }
        }
        let catalog = match (&offer.catalog.instructions, &offer.catalog.text) {
            (Some(i), Some(t)) => Some(format!("{i}\n\n{t}")),
            (_, t) => t.clone(),
        };
        (contents, catalog)
    }

    /// Lets the session follow a transcript whose skills in full are `present` (see
    /// [`SkillSession::observe`]).
    pub fn follow(&self, present: &HashSet<&str>) -> SessionChange {
        self.session.borrow_mut().observe(present)
    }

    #[cfg(feature = "transcripts")]
    /// After a compaction: the catalog and the current instructions of each skill the session
    /// loaded (the most recently loaded first, within `perSkillTokens` and `totalTokens`) as one
    /// user message; the session then counts the re-attached skills as loaded again.
    pub async fn reattach(&self, transcript: &Value, opts: &CompactOptions) -> Result<Compacted, Diagnostic> {
        let (contents, catalog) = self.reattach_contents().await;
        let contents: Vec<_> = contents.into_iter().map(|(name, content)| SkillContent { name, content }).collect();
        let opts = self.transcript_options(opts);
        self.followed(compact::reattach(transcript, &contents, catalog.as_deref(), &opts), &opts)
    }
}

/// `d` with the skill it is about named first (an injection answers for several skills).
fn about(name: &str, mut d: crate::diagnostic::Diagnostic) -> crate::diagnostic::Diagnostic {
    d.message = format!("'{name}': {}", d.message);
    d
}
