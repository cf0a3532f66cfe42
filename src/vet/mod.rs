//! Vetting: what a skill's text could do to the model or the machine before the model sees it.
//! Skills are instructions and scripts written by strangers; a vet reads their text (nothing is
//! run) and names what hides instructions, turns the model against its host, sends secrets away
//! or changes the machine behind the user's back.
//!
//! Each finding has a stable code, a level ([`Level`]: high, medium or low, fixed per code, see
//! [`RULES`]), the file (a path within the skill) and the line. The checks, one file per
//! capability, each rule in one place:
//! - `hidden`: characters no view shows (Unicode tag characters, bidi controls, zero-width runs;
//!   the rule of [`crate::text::hides`]) and Markdown a rendered view hides (HTML comments, hidden
//!   elements, image alt text, link titles, link reference definitions) holding what the other
//!   checks find;
//! - `instructions`: phrases aimed at the model that contradict its host (ignore the previous
//!   instructions, do not tell the user, without asking, disable the sandbox, reveal the system
//!   prompt), in prose, not in code or quotes;
//! - `exfil`: secrets (SSH and cloud keys, `.env`, the whole environment) sent to a network
//!   address, and scripts fetched from the network into a shell;
//! - `scripts`: recursive deletes of the root or home, permission changes, persistence
//!   (crontab, shell profiles, launch agents, systemd), history switched off;
//! - `obfuscation`: decoded text run (`base64 -d | sh`, `eval(atob(…))`) and long encoded blobs.
//!
//! One pass over each file (`scan`) splits it into lines with their Markdown context (`context`:
//! fences, comments, hidden elements) and finds, by a table of trigger words (`words`, read by
//! `line`), which checks a line needs; each check then reads that line only. The cost is linear in
//! the bytes. The phrase checks match the tables of `phrases`; the command checks read a line's
//! commands through `shell`.
//!
//! Discovery reads the first bytes of every SKILL.md and the catalog shows the model a skill's
//! name and description: discovery vets the description with every check and the frontmatter for
//! hidden text ([`vet_skill_md`]). The body reaches the model only through the skill tool, which
//! vets what it serves in full; a host vets a skill's every file with `SkillRegistry#vet`.

mod context;
mod exfil;
mod finding;
mod hidden;
mod instructions;
mod line;
mod obfuscation;
mod phrases;
mod scan;
mod scripts;
mod shell;
mod sink;
mod words;

pub use finding::*;
pub use scan::Depth;

use crate::diagnostic::{codes, Diagnostic, Severity};

/// Vets one text file of a skill (`path` within the skill), as its kind says.
pub fn vet_text(path: &str, text: &str) -> Vec<Finding> {
    scan::scan(path, text, file_kind(path, text), Depth::Full)
}

/// Vets a SKILL.md as discovery reads it: what the catalog shows the model, before any call of
/// the skill tool: `description` (the parsed description) with every check, and the frontmatter's
/// bytes for hidden text (a look at each byte, and its lines read only when that look finds
/// something that may hide text, [`Depth::Hidden`]). The body is vetted in full when the skill
/// tool serves it and by `vet(name)`: vetting the body's hidden text here too was measured at
/// 12-15% of discovery's time over the corpus, above the 10% discovery may cost
/// (`bench/vet.mjs`). Bytes that are not UTF-8 are not read (the parser refuses such a file).
pub fn vet_skill_md(bytes: &[u8], description: &str) -> Vec<Finding> {
    let mut out = Vec::new();
    if !description.is_empty() {
        let at = description_line(bytes);
        out.extend(scan::scan("SKILL.md", description, FileKind::Markdown, Depth::Full).into_iter().map(|mut f| {
            f.line = f.line.saturating_add(at - 1);
            f
        }));
    }
    let front = bytes.get(..frontmatter_end(bytes)).unwrap_or_default();
    if crate::unseen::may_hide_text(front) {
        let text = match std::str::from_utf8(front) {
            Ok(t) => t,
            // A prefix cut inside a character: read up to the cut.
            Err(e) if e.error_len().is_none() => {
                std::str::from_utf8(front.get(..e.valid_up_to()).unwrap_or_default()).unwrap_or_default()
            }
            Err(_) => return out,
        };
        for f in scan::scan("SKILL.md", text, FileKind::Markdown, Depth::Hidden) {
            // The description's characters are found by both reads.
            if !out.iter().any(|o| o.code == f.code && o.line == f.line) {
                out.push(f);
            }
        }
    }
    out
}

/// Where the frontmatter of a SKILL.md ends: the byte after its closing `---` line (0 when the
/// file opens with no `---` line; the end of what was read when no line closes it).
fn frontmatter_end(bytes: &[u8]) -> usize {
    let mut end = 0usize;
    for (k, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        end += line.len();
        let l = line.trim_ascii_end();
        let l = if k == 0 { l.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(l) } else { l };
        match (k, l) {
            (0, b"---") => {}
            (0, _) => return 0,
            (_, b"---" | b"...") => return end,
            _ => {}
        }
    }
    bytes.len()
}

/// The line of a SKILL.md's `description:` key (1 when there is none).
fn description_line(bytes: &[u8]) -> u32 {
    for (line, l) in (1u32..).zip(bytes.split(|&b| b == b'\n')) {
        if l.starts_with(b"description:") {
            return line;
        }
        if line > 1 && matches!(l.trim_ascii_end(), b"---" | b"...") {
            break;
        }
    }
    1
}

/// A finding as a diagnostic of its skill: a warning for high and medium, a note for low, the
/// level at the start of the message, the line, and the path when it is not the SKILL.md.
pub fn diagnostic(f: &Finding) -> Diagnostic {
    let severity = if f.level == Level::Low { Severity::Info } else { Severity::Warning };
    let mut d =
        Diagnostic::new(severity, &f.code, format!("{}: {}", f.level.as_str(), f.message)).at_line(Some(f.line));
    if f.path != "SKILL.md" {
        d.path = Some(f.path.clone());
    }
    d
}

/// The first finding at or above `threshold`, as the error that refuses the skill, naming it
/// and how many more there are.
pub fn refusal(findings: &[Finding], threshold: Level) -> Option<Diagnostic> {
    let mut over = findings.iter().filter(|f| f.level >= threshold);
    let first = over.next()?;
    let more = over.count();
    let others = match more {
        0 => String::new(),
        1 => " (and 1 more finding)".to_string(),
        n => format!(" (and {n} more findings)"),
    };
    Some(
        Diagnostic::error(
            codes::VET_REFUSED,
            format!(
                "the skill is refused by the host's vetting policy (vet: refuse, vetSeverity: {}): {} ({}) at {}:{}: {}{others}",
                threshold.as_str(),
                first.code,
                first.level.as_str(),
                first.path,
                first.line,
                first.message
            ),
        )
        .at_line(Some(first.line)),
    )
}

/// What the host's policy makes of `text` about to reach the model (`path` within the skill):
/// nothing with `off`; the findings as diagnostics with `report`; with `refuse`, the error that
/// refuses it when a finding is at or above `threshold` (the findings otherwise). The skill
/// tool's answers, `/name` injections and subagent prompts all pass through this.
pub fn served(policy: VetPolicy, threshold: Level, path: &str, text: &str) -> Result<Vec<Diagnostic>, Diagnostic> {
    if policy == VetPolicy::Off {
        return Ok(Vec::new());
    }
    let findings = vet_text(path, text);
    if policy == VetPolicy::Refuse {
        if let Some(refused) = refusal(&findings, threshold) {
            return Err(refused);
        }
    }
    Ok(findings.iter().map(diagnostic).collect())
}

/// What discovery does with the SKILL.md bytes it read and the description it parsed, by the
/// host's policy: the findings as
/// diagnostics, and with `refuse` the error that refuses the skill when one is at or above
/// `threshold` (then the second value is true).
pub fn at_discovery(bytes: &[u8], description: &str, policy: VetPolicy, threshold: Level) -> (Vec<Diagnostic>, bool) {
    if policy == VetPolicy::Off {
        return (Vec::new(), false);
    }
    let findings = vet_skill_md(bytes, description);
    if findings.is_empty() {
        return (Vec::new(), false);
    }
    let mut out: Vec<Diagnostic> = findings.iter().map(diagnostic).collect();
    let refused = match policy {
        VetPolicy::Refuse => refusal(&findings, threshold),
        _ => None,
    };
    let is_refused = refused.is_some();
    out.extend(refused);
    (out, is_refused)
}

#[cfg(test)]
mod tests;
