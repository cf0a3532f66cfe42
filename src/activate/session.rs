//! The session: what one conversation has loaded, so that a repeated activation returns a short
//! pointer instead of the body again, and what left the conversation when the host compacted or
//! pruned it, so that the next activation returns the skill in full.

use super::inject::Injection;
use super::tool::ToolResult;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// One activation, for the host's analytics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct Activation {
    /// The skill's name.
    pub name: String,
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    /// The file read, or null for the instructions.
    pub path: Option<String>,
    /// When, in the host's clock (milliseconds since the epoch in JS).
    pub at: f64,
    /// Bytes read.
    pub size: u64,
    /// 1-based position among this session's activations.
    pub index: u32,
}

/// What [`SkillSession::observe`] changed.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SessionChange {
    /// Skills whose instructions are no longer in the conversation: their next activation is full.
    pub forgotten: Vec<String>,
    /// Skills loaded earlier whose instructions are in the conversation again (re-attached).
    pub restored: Vec<String>,
}

/// What a conversation has loaded, so a repeated activation returns a pointer, not the body again.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SkillSession {
    /// Every activation so far, in order (the record for analytics; it is never shortened except
    /// by [`SkillSession::clear`]).
    pub activations: Vec<Activation>,
    /// Skill name -> index of the activation whose instructions the conversation holds now.
    #[serde(default)]
    live: HashMap<String, u32>,
}

impl SkillSession {
    /// Records an activation of `name` (a file read when `path` is given) at `at`.
    pub fn record(&mut self, name: &str, path: Option<&str>, at: f64, size: u64) {
        let index = self.activations.len() as u32 + 1;
        if path.is_none() {
            self.live.insert(name.to_string(), index);
        }
        self.activations.push(Activation { name: name.into(), path: path.map(str::to_string), at, size, index });
    }

    /// Records what a tool call loaded; errors and pointers load nothing and are not recorded.
    pub fn record_result(&mut self, result: &ToolResult, now: f64) {
        // A search (no skill named) loads nothing.
        if !result.is_error && !result.already_loaded && !result.name.is_empty() {
            self.record(&result.name, result.path.as_deref(), now, result.size);
        }
    }

    /// Records the skills a user's message injected (pointers to earlier loads load nothing).
    pub fn record_injection(&mut self, injection: &Injection, now: f64) {
        for i in injection.injected.iter().filter(|i| !i.already_loaded) {
            self.record(&i.name, None, now, i.size);
        }
    }

    /// The rule for every repeated load of a skill's instructions, by the model (the tool) or by
    /// the user (`/name`, `$name`): when the conversation holds them already and the load is not
    /// forced, the answer is a short pointer to this earlier load instead of the body again.
    pub fn repeat_of(&self, name: &str, force: bool) -> Option<&Activation> {
        if force {
            return None;
        }
        self.loaded(name)
    }

    /// The load of `name`'s instructions the conversation holds, if any.
    pub fn loaded(&self, name: &str) -> Option<&Activation> {
        let index = *self.live.get(name)?;
        self.activations.get(index.checked_sub(1)? as usize)
    }

    /// Forgets that `name`'s instructions are loaded (its history stays); true when they were.
    pub fn forget(&mut self, name: &str) -> bool {
        self.live.remove(name).is_some()
    }

    /// Forgets everything, history included (for a host that drops the whole conversation).
    pub fn clear(&mut self) {
        self.activations.clear();
        self.live.clear();
    }

    /// Follows the conversation: `present` names the skills whose instructions a transcript holds
    /// in full (an activation, an injection or a re-attachment). A loaded skill that is not in it
    /// is forgotten; a skill this session loaded before that is in it again counts as loaded.
    pub fn observe(&mut self, present: &HashSet<&str>) -> SessionChange {
        let mut change = SessionChange::default();
        self.live.retain(|name, _| {
            let keep = present.contains(name.as_str());
            if !keep {
                change.forgotten.push(name.clone());
            }
            keep
        });
        for a in self.activations.iter().rev() {
            if a.path.is_none() && present.contains(a.name.as_str()) && !self.live.contains_key(&a.name) {
                self.live.insert(a.name.clone(), a.index);
                change.restored.push(a.name.clone());
            }
        }
        crate::sort::sort(&mut change.forgotten);
        crate::sort::sort(&mut change.restored);
        change
    }

    /// The skills whose instructions this session loaded, each once, in the order of its latest
    /// load (oldest first): what re-attachment puts back, the newest first within its budget.
    pub fn reattach_order(&self) -> Vec<String> {
        let mut seen = HashSet::new();
        let mut names: Vec<String> = Vec::new();
        for a in self.activations.iter().rev() {
            if a.path.is_none() && seen.insert(a.name.as_str()) {
                names.push(a.name.clone());
            }
        }
        names.reverse();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointer_follows_the_latest_full_load_and_what_left() {
        let mut s = SkillSession::default();
        s.record("a", None, 1.0, 10);
        s.record("a", Some("x.md"), 2.0, 3);
        s.record("b", None, 3.0, 10);
        assert_eq!(s.loaded("a").map(|a| a.index), Some(1));
        s.record("a", None, 4.0, 10);
        assert_eq!(s.loaded("a").map(|a| a.index), Some(4));
        let change = s.observe(&HashSet::from(["b"]));
        assert_eq!(change.forgotten, ["a"]);
        assert!(s.loaded("a").is_none() && s.loaded("b").is_some());
        assert_eq!(s.activations.len(), 4, "the history stays");
        let change = s.observe(&HashSet::from(["a", "b", "never-loaded"]));
        assert_eq!(change.restored, ["a"]);
        assert_eq!(s.loaded("a").map(|a| a.index), Some(4));
        assert!(s.loaded("never-loaded").is_none());
        assert_eq!(s.repeat_of("b", false).map(|a| a.index), Some(3));
        assert!(s.repeat_of("b", true).is_none(), "a forced load is no repeat");
        assert!(s.forget("b") && !s.forget("b"));
        assert!(s.repeat_of("b", false).is_none());
        assert_eq!(s.reattach_order(), ["b", "a"]);
        s.clear();
        assert!(s.activations.is_empty() && s.loaded("a").is_none());
    }

    #[test]
    fn forgotten_names_come_in_order() {
        let mut s = SkillSession::default();
        let names: Vec<String> = (0..50).map(|i| format!("skill-{:02}", (i * 37) % 50)).collect();
        for (i, n) in names.iter().enumerate() {
            s.record(n, None, i as f64, 1);
        }
        let change = s.observe(&HashSet::from(["skill-07"]));
        let mut want: Vec<String> = names.iter().filter(|n| *n != "skill-07").cloned().collect();
        want.sort();
        assert_eq!(change.forgotten, want);
    }
}
