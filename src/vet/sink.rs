//! What the checks share with the pass that calls them: the rules ([`Rule`]), where their
//! findings go ([`Sink`]) and a line as the command checks read it ([`Cmd`]). A file of its own,
//! so that the pass (`scan.rs`) and the checks it calls import it and not each other.

use super::finding::{Finding, MAX_PER_CODE, RULES};
use super::shell::{commands, Command};
use super::words::Families;

/// Every rule, in the order of [`RULES`] (its index there).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Rule {
    TagCharacters,
    BidiControls,
    InvisibleRun,
    InvisibleCharacters,
    HiddenInstructions,
    HiddenMarkup,
    InstructionOverride,
    ConcealFromUser,
    SkipConfirmation,
    DisableSafety,
    RevealSystemPrompt,
    Exfiltration,
    RemoteScript,
    RemoteScriptInsecure,
    DestructiveDelete,
    PermissionChange,
    Persistence,
    HistoryTampering,
    ExecDecoded,
    EncodedBlob,
}

impl Rule {
    /// Whether a finding of this rule inside hidden markup is a hidden instruction: what the
    /// phrase and command checks find, not characters or blobs.
    fn hides_instructions(self) -> bool {
        !matches!(
            self,
            Rule::TagCharacters
                | Rule::BidiControls
                | Rule::InvisibleRun
                | Rule::InvisibleCharacters
                | Rule::HiddenInstructions
                | Rule::HiddenMarkup
                | Rule::EncodedBlob
        )
    }
}

/// Where the findings of a file go: at most [`MAX_PER_CODE`] per code, one per code and line.
pub(super) struct Sink<'p> {
    pub(super) path: &'p str,
    pub(super) out: Vec<Finding>,
    pub(super) counts: [u8; RULES.len()],
    /// Set while hidden markup is checked: what hides it (`an HTML comment` ...).
    pub hidden: Option<&'static str>,
}

impl Sink<'_> {
    /// Records a finding of `rule` at `line`; `message` is called only when it is kept.
    pub fn push(&mut self, rule: Rule, line: u32, message: impl FnOnce() -> String) {
        let (rule, what) = match self.hidden {
            Some(what) if rule.hides_instructions() => (Rule::HiddenInstructions, Some(what)),
            _ => (rule, None),
        };
        let i = rule as usize;
        let Some(&(code, level)) = RULES.get(i) else { return };
        let Some(count) = self.counts.get_mut(i) else { return };
        if usize::from(*count) >= MAX_PER_CODE
            || self.out.iter().rev().take(4).any(|f| f.code == code && f.line == line)
        {
            return;
        }
        *count += 1;
        let message = match what {
            Some(what) => format!("{what} (not shown when the Markdown is rendered) holds: {}", message()),
            None => message(),
        };
        self.out.push(Finding { code: code.to_string(), level, path: self.path.to_string(), line, message });
    }
}

/// A line as the command checks read it.
pub(super) struct Cmd<'a> {
    /// The line as written (for messages).
    pub line: &'a str,
    /// The line, ASCII lowercase.
    pub lower: &'a str,
    /// The line as its commands are read: lowercase, and in a script of another language than
    /// the shell's, with quoted text blanked when the line runs nothing.
    pub code: &'a str,
    /// A comment or docstring line of code.
    pub comment: bool,
    /// A line of shell (a shell script's, or a fence's): variables carry data from line to line.
    pub shell: bool,
    /// The families its words call for.
    pub families: Families,
    /// Its number.
    pub no: u32,
    /// The line (or the one before it) says it documents a danger (never, avoid, blocked ...).
    pub documented: bool,
    /// A line of Markdown prose (not code).
    pub prose: bool,
    /// The commands of `code`, read once when a check first asks.
    pub cmds: std::cell::OnceCell<Vec<Command<'a>>>,
}

impl<'a> Cmd<'a> {
    /// Whether the line's words call for any of `families`.
    pub fn has(&self, families: Families) -> bool {
        self.families & families != 0
    }

    /// The commands of the line (of `code`).
    pub fn commands(&self) -> &[Command<'a>] {
        self.cmds.get_or_init(|| commands(self.code))
    }
}
