//! The session: what one conversation has loaded, so that a repeated activation returns a short
//! pointer instead of the body again, and what left the conversation when the host compacted or
//! pruned it, so that the next activation returns the skill in full.

use super::injection::Injection;
use super::tool_io::ToolResult;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet, VecDeque};

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

/// The most activations a session keeps in its record ([`SkillSession::activations`]): beyond
/// it the oldest go. With the per-skill counts ([`SkillSession::counts`]) and the latest full load
/// of each skill, this bounds a session's memory by the number of skills it loaded, however long
/// the conversation: about 120 bytes per kept activation, and about twice that per skill.
pub const MAX_SESSION_HISTORY: usize = 1000;

/// How often a session loaded one skill, for the host's analytics: every load counts, also those
/// that have left the record ([`MAX_SESSION_HISTORY`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct SkillCount {
    /// The skill's name.
    pub name: String,
    /// Loads of its instructions.
    pub activations: u32,
    /// Reads of its files.
    pub reads: u32,
    /// Bytes loaded, instructions and files together.
    pub bytes: u64,
    /// When it was last loaded, in the host's clock.
    pub last_at: f64,
}

/// What a conversation has loaded, so a repeated activation returns a pointer, not the body again.
/// Its memory is bounded: see [`MAX_SESSION_HISTORY`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SkillSession {
    /// The latest activations, in order: at most [`MAX_SESSION_HISTORY`] (the record for
    /// analytics; [`SkillSession::clear`] empties it).
    pub activations: VecDeque<Activation>,
    /// Activations recorded so far, also those no longer kept.
    #[serde(default)]
    total: u32,
    /// Skill name -> its latest load of instructions (kept when it leaves the record).
    #[serde(default)]
    latest: HashMap<String, Activation>,
    /// The skills whose latest load of instructions the conversation holds now.
    #[serde(default)]
    live: HashSet<String>,
    /// Skill name -> its counts.
    #[serde(default)]
    counts: HashMap<String, SkillCount>,
}

impl SkillSession {
    /// Records an activation of `name` (a file read when `path` is given) at `at`.
    pub fn record(&mut self, name: &str, path: Option<&str>, at: f64, size: u64) {
        self.total = self.total.saturating_add(1);
        let activation = Activation { name: name.into(), path: path.map(str::to_string), at, size, index: self.total };
        let count = self.counts.entry(name.to_string()).or_insert_with(|| SkillCount {
            name: name.to_string(),
            activations: 0,
            reads: 0,
            bytes: 0,
            last_at: at,
        });
        if path.is_none() {
            count.activations = count.activations.saturating_add(1);
            self.live.insert(name.to_string());
            self.latest.insert(name.to_string(), activation.clone());
        } else {
            count.reads = count.reads.saturating_add(1);
        }
        count.bytes = count.bytes.saturating_add(size);
        count.last_at = at;
        if self.activations.len() >= MAX_SESSION_HISTORY {
            self.activations.pop_front();
        }
        self.activations.push_back(activation);
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
        if !self.live.contains(name) {
            return None;
        }
        self.latest.get(name)
    }

    /// Forgets that `name`'s instructions are loaded (its history stays); true when they were.
    pub fn forget(&mut self, name: &str) -> bool {
        self.live.remove(name)
    }

    /// Forgets everything, history and counts included (for a host that drops the whole
    /// conversation).
    pub fn clear(&mut self) {
        *self = SkillSession::default();
    }

    /// Activations recorded so far, also those the record no longer keeps.
    pub fn total(&self) -> u32 {
        self.total
    }

    /// How often each skill was loaded, by name.
    pub fn counts(&self) -> Vec<SkillCount> {
        let mut out: Vec<SkillCount> = self.counts.values().cloned().collect();
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// Follows the conversation: `present` names the skills whose instructions a transcript holds
    /// in full (an activation, an injection or a re-attachment). A loaded skill that is not in it
    /// is forgotten; a skill this session loaded before that is in it again counts as loaded.
    pub fn observe(&mut self, present: &HashSet<&str>) -> SessionChange {
        let mut change = SessionChange::default();
        self.live.retain(|name| {
            let keep = present.contains(name.as_str());
            if !keep {
                change.forgotten.push(name.clone());
            }
            keep
        });
        for name in self.latest.keys() {
            if present.contains(name.as_str()) && self.live.insert(name.clone()) {
                change.restored.push(name.clone());
            }
        }
        crate::sort::sort(&mut change.forgotten);
        crate::sort::sort(&mut change.restored);
        change
    }

    /// The skills whose instructions this session loaded, each once, in the order of its latest
    /// load (oldest first): what re-attachment puts back, the newest first within its budget.
    pub fn reattach_order(&self) -> Vec<String> {
        let mut latest: Vec<&Activation> = self.latest.values().collect();
        latest.sort_by_key(|a| a.index);
        latest.into_iter().map(|a| a.name.clone()).collect()
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

    #[test]
    fn a_long_session_keeps_a_bounded_record_and_every_count() {
        let mut s = SkillSession::default();
        for i in 0..10 * MAX_SESSION_HISTORY {
            let name = format!("skill-{}", i % 7);
            s.record(&name, None, i as f64, 100);
            s.record(&name, Some("ref.md"), i as f64, 10);
        }
        assert_eq!(s.activations.len(), MAX_SESSION_HISTORY);
        assert_eq!(s.total() as usize, 20 * MAX_SESSION_HISTORY);
        assert_eq!(s.activations.back().map(|a| a.index), Some(s.total()));
        let counts = s.counts();
        assert_eq!(counts.len(), 7);
        assert_eq!(counts.iter().map(|c| c.activations as usize).sum::<usize>(), 10 * MAX_SESSION_HISTORY);
        assert_eq!(counts.iter().map(|c| c.reads as usize).sum::<usize>(), 10 * MAX_SESSION_HISTORY);
        assert_eq!(counts.iter().map(|c| c.bytes).sum::<u64>(), 1100 * MAX_SESSION_HISTORY as u64);
        // A skill loaded long ago (out of the record) is still a repeat, and still re-attached.
        s.record("early", None, 0.0, 5);
        for i in 0..2 * MAX_SESSION_HISTORY {
            s.record("late", Some("x.md"), i as f64, 1);
        }
        assert!(s.activations.iter().all(|a| a.name != "early"));
        assert_eq!(s.repeat_of("early", false).map(|a| a.size), Some(5));
        assert_eq!(s.reattach_order().last().map(String::as_str), Some("early"));
        assert_eq!(s.observe(&HashSet::from(["early"])).forgotten.len(), 7);
        assert!(s.loaded("early").is_some() && s.loaded("skill-0").is_none());
        assert_eq!(s.observe(&HashSet::from(["early", "skill-0"])).restored, ["skill-0"]);
    }
}
