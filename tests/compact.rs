//! Transcripts in the three message shapes: finding skill content, compacting it, re-attaching it,
//! deduplicating it, pruning around it; idempotence, untouched messages, malformed input.
//! `PROPTEST_CASES` raises the number of random transcripts.

use proptest::prelude::*;
use serde_json::{json, Value};
use skillwasm::compact::{self, ChangeAction, CompactOptions, SkillContent, ToolNames, TranscriptFormat, UseKind};
use std::collections::HashSet;
use std::path::Path;

const FORMATS: [TranscriptFormat; 3] = [TranscriptFormat::AiSdk, TranscriptFormat::OpenAi, TranscriptFormat::Anthropic];

fn wrap(name: &str, body: &str) -> String {
    format!(
        "<skill_content name=\"{name}\">\n{body}\n\nSkill directory: user:.agents/skills/{name}\nRelative paths in this skill resolve against the skill directory; read a file with view_skill and its path.\n<skill_resources>\nscripts/run.py\n</skill_resources>\n</skill_content>"
    )
}

/// Builds a transcript in one shape.
struct T {
    f: TranscriptFormat,
    msgs: Vec<Value>,
    ids: usize,
    tool: String,
}

impl T {
    fn new(f: TranscriptFormat) -> Self {
        T { f, msgs: Vec::new(), ids: 0, tool: "view_skill".into() }
    }
    fn system(&mut self, text: &str) -> &mut Self {
        if self.f != TranscriptFormat::Anthropic {
            self.msgs.push(json!({ "role": "system", "content": text }));
        }
        self
    }
    fn user(&mut self, text: &str) -> &mut Self {
        let m = match self.f {
            TranscriptFormat::Anthropic => json!({ "role": "user", "content": [{ "type": "text", "text": text }] }),
            _ => json!({ "role": "user", "content": text }),
        };
        self.msgs.push(m);
        self
    }
    fn assistant(&mut self, text: &str) -> &mut Self {
        let m = match self.f {
            TranscriptFormat::OpenAi => json!({ "role": "assistant", "content": text }),
            _ => json!({ "role": "assistant", "content": [{ "type": "text", "text": text }] }),
        };
        self.msgs.push(m);
        self
    }
    fn call(&mut self, tool: &str, input: Value, result: &str, error: bool) -> &mut Self {
        self.ids += 1;
        let id = format!("call_{}", self.ids);
        let (call, res) = match self.f {
            TranscriptFormat::AiSdk => (
                json!({ "role": "assistant", "content": [
                    { "type": "text", "text": "Loading." },
                    { "type": "tool-call", "toolCallId": id, "toolName": tool, "input": input, "providerOptions": { "x": { "y": 1 } } }
                ] }),
                json!({ "role": "tool", "content": [
                    { "type": "tool-result", "toolCallId": id, "toolName": tool, "output": { "type": if error { "error-text" } else { "text" }, "value": result }, "extra": [1, 2] }
                ] }),
            ),
            TranscriptFormat::OpenAi => (
                json!({ "role": "assistant", "content": null, "tool_calls": [
                    { "id": id, "type": "function", "function": { "name": tool, "arguments": input.to_string() } }
                ] }),
                json!({ "role": "tool", "tool_call_id": id, "content": result }),
            ),
            TranscriptFormat::Anthropic => (
                json!({ "role": "assistant", "content": [
                    { "type": "text", "text": "Loading." },
                    { "type": "tool_use", "id": id, "name": tool, "input": input }
                ] }),
                if error {
                    json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": id, "content": result, "is_error": true }] })
                } else {
                    json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": id, "content": [{ "type": "text", "text": result, "cache_control": { "type": "ephemeral" } }] }] })
                },
            ),
        };
        self.msgs.push(call);
        self.msgs.push(res);
        self
    }
    fn activate(&mut self, name: &str, body: &str) -> &mut Self {
        let tool = self.tool.clone();
        self.call(&tool, json!({ "name": name }), &wrap(name, body), false)
    }
    fn read(&mut self, name: &str, path: &str, text: &str) -> &mut Self {
        let tool = self.tool.clone();
        self.call(&tool, json!({ "name": name, "path": path }), text, false)
    }
    fn other(&mut self, result: &str) -> &mut Self {
        self.call("bash", json!({ "command": "ls -la" }), result, false)
    }
    fn inject(&mut self, name: &str, body: &str, rest: &str) -> &mut Self {
        self.user(&format!("{}\n\n{rest}", wrap(name, body)))
    }
    fn value(&self) -> Value {
        Value::Array(self.msgs.clone())
    }
}

fn opts(f: TranscriptFormat) -> CompactOptions {
    CompactOptions { format: Some(f), ..CompactOptions::default() }
}

fn body(n: usize, tag: &str) -> String {
    (0..n)
        .map(|i| format!("Step {i} of {tag}: run the check, then read the report carefully."))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A session: system prompt, several skills, repeats, file reads, an injection, other tools.
fn session(f: TranscriptFormat) -> T {
    let mut t = T::new(f);
    t.system("You are a helpful agent.")
        .user("Fill in the PDF form.")
        .activate("pdf", &body(40, "pdf"))
        .read("pdf", "scripts/fill.py", "print('fill')\n")
        .other("total 8\ndrwxr-xr-x 2 user user 4096 .")
        .assistant("Done with the form.")
        .user("Now write the release notes.")
        .activate("release-notes", &body(30, "notes"))
        .other("v1.2.0")
        .inject("git-review", &body(20, "review"), "Review the last commit please.")
        .assistant("Reviewed.")
        .activate("pdf", &body(40, "pdf"))
        .user("thanks");
    t
}

/// Messages in `before` that no change names are in `after`, byte for byte and in order.
fn untouched(before: &Value, after: &Value, changed: &HashSet<usize>) {
    let b = before.as_array().unwrap();
    let a = after.as_array().unwrap();
    for (i, m) in b.iter().enumerate() {
        if !changed.contains(&i) {
            assert_eq!(serde_json::to_string(m).unwrap(), serde_json::to_string(&a[i]).unwrap(), "message {i} changed");
        }
    }
}

fn changed(r: &compact::CompactReport) -> HashSet<usize> {
    r.changes.iter().map(|c| c.index).collect()
}

#[test]
fn detects_each_format() {
    for f in FORMATS {
        assert_eq!(compact::detect_format(&session(f).value()), Some(f));
    }
    assert_eq!(compact::detect_format(&json!([{ "role": "user", "content": "hi" }])), None);
    assert_eq!(compact::detect_format(&json!("x")), None);
}

#[test]
fn finds_every_use_with_positions_and_kinds() {
    for f in FORMATS {
        let t = session(f);
        let v = t.value();
        // Detection, not the option, picks the shape here.
        let found = compact::find(&v, &CompactOptions::default()).unwrap();
        assert_eq!(found.format, f);
        assert!(found.skipped.is_empty(), "{:?}", found.skipped);
        let kinds: Vec<(String, UseKind)> = found.uses.iter().map(|u| (u.name.clone(), u.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                ("pdf".into(), UseKind::Activation),
                ("pdf".into(), UseKind::File),
                ("release-notes".into(), UseKind::Activation),
                ("git-review".into(), UseKind::Injected),
                ("pdf".into(), UseKind::Activation),
            ],
            "{f:?}"
        );
        let off = if f == TranscriptFormat::Anthropic { 0 } else { 1 };
        let first = &found.uses[0];
        assert_eq!(first.call_index, Some(off + 1));
        assert_eq!(first.result_index, Some(off + 2));
        assert_eq!(found.uses[1].path.as_deref(), Some("scripts/fill.py"));
        assert_eq!(found.uses[3].call_index, None);
        assert!(first.chars > 2000 && first.lines > 40 && first.tokens > 500);
        // Tool messages of other tools are not skill content.
        assert!(found.uses.iter().all(|u| u.call_id.as_deref() != Some("call_3")));
    }
}

#[test]
fn compaction_replaces_activations_with_markers_and_leaves_files_and_the_rest() {
    for f in FORMATS {
        let v = session(f).value();
        let out = compact::compact_to_metadata(&v, &opts(f)).unwrap();
        let r = &out.report;
        assert_eq!(r.changes.len(), 4, "{f:?}: three activations and one injection");
        assert!(r.changes.iter().all(|c| c.action == ChangeAction::Compacted && c.chars_after < c.chars_before));
        assert!(r.tokens_after * 3 < r.tokens_before, "{} -> {}", r.tokens_before, r.tokens_after);
        untouched(&v, &out.transcript, &changed(r));
        let found = compact::find(&out.transcript, &opts(f)).unwrap();
        let kinds: Vec<UseKind> = found.uses.iter().map(|u| u.kind).collect();
        assert_eq!(
            kinds,
            vec![UseKind::Compacted, UseKind::File, UseKind::Compacted, UseKind::Compacted, UseKind::Compacted]
        );
        let text = out.transcript.to_string();
        assert!(text.contains(r#"\"name\":\"pdf\",\"path\":null,\"totalChars\":"#), "{text}");
        assert!(text.contains("<skill_content name=\\\"git-review\\\" status=\\\"compacted\\\">"));
        assert!(text.contains("Review the last commit please."), "the rest of the user's message stays");
        assert!(text.contains("print('fill')"), "file reads stay");
        // Unknown fields on the changed parts stay.
        match f {
            TranscriptFormat::AiSdk => assert!(text.contains("\"extra\":[1,2]")),
            TranscriptFormat::Anthropic => assert!(text.contains("cache_control")),
            TranscriptFormat::OpenAi => {}
        }
        // Idempotent.
        let again = compact::compact_to_metadata(&out.transcript, &opts(f)).unwrap();
        assert_eq!(again.transcript, out.transcript);
        assert!(again.report.changes.is_empty());
    }
}

#[test]
fn markers_written_under_the_former_skill_name_key_still_read_as_compacted() {
    for f in FORMATS {
        let v = session(f).value();
        let out = compact::compact_to_metadata(&v, &opts(f)).unwrap();
        // A transcript compacted before the marker's key was `name`.
        let text = out.transcript.to_string();
        let mut parts = text.split(r#"{\"name\":"#);
        let mut old = parts.next().unwrap_or_default().to_string();
        for part in parts {
            let is_marker = part.split('}').next().is_some_and(|m| m.contains("totalChars"));
            old.push_str(if is_marker { r#"{\"skillName\":"# } else { r#"{\"name\":"# });
            old.push_str(part);
        }
        let old: Value = serde_json::from_str(&old).unwrap();
        assert_ne!(old, out.transcript);
        let found = compact::find(&old, &opts(f)).unwrap();
        let kinds: Vec<UseKind> = found.uses.iter().map(|u| u.kind).collect();
        assert_eq!(kinds.iter().filter(|k| **k == UseKind::Compacted).count(), 4, "{f:?}: {kinds:?}");
        assert!(found.notes.is_empty(), "{:?}", found.notes);
    }
}

#[test]
fn compaction_keeps_the_most_recent_whole() {
    for f in FORMATS {
        let v = session(f).value();
        let o = CompactOptions { keep_recent: 2, ..opts(f) };
        let out = compact::compact_to_metadata(&v, &o).unwrap();
        let kinds: Vec<UseKind> = compact::find(&out.transcript, &o).unwrap().uses.iter().map(|u| u.kind).collect();
        assert_eq!(
            kinds,
            vec![UseKind::Compacted, UseKind::File, UseKind::Compacted, UseKind::Injected, UseKind::Activation]
        );
        assert_eq!(compact::compact_to_metadata(&out.transcript, &o).unwrap().transcript, out.transcript);
    }
}

#[test]
fn compact_then_reattach_restores_content_within_budget() {
    for f in FORMATS {
        let v = session(f).value();
        let o = opts(f);
        let compacted = compact::compact_to_metadata(&v, &o).unwrap().transcript;
        let contents = vec![
            SkillContent { name: "pdf".into(), content: wrap("pdf", &body(40, "pdf")) },
            SkillContent { name: "release-notes".into(), content: wrap("release-notes", &body(30, "notes")) },
            SkillContent { name: "git-review".into(), content: body(20, "review") },
            SkillContent { name: "pdf".into(), content: wrap("pdf", &body(40, "pdf v2")) },
        ];
        let catalog = "<available_skills>\n<skill><name>pdf</name></skill>\n</available_skills>";
        let out = compact::reattach(&compacted, &contents, Some(catalog), &o).unwrap();
        let msgs = out.transcript.as_array().unwrap();
        assert_eq!(msgs.len(), compacted.as_array().unwrap().len() + 1);
        untouched(&compacted, &out.transcript, &HashSet::new());
        let last = msgs.last().unwrap();
        assert_eq!(last["role"], "user");
        let text = match f {
            TranscriptFormat::OpenAi => last["content"].as_str().unwrap().to_string(),
            _ => last["content"][0]["text"].as_str().unwrap().to_string(),
        };
        assert!(text.starts_with(catalog));
        for (name, tag) in [("pdf", "pdf v2"), ("release-notes", "notes"), ("git-review", "review")] {
            assert!(text.contains(&format!("<skill_content name=\"{name}\" status=\"reattached\">")), "{name}");
            assert!(text.contains(&format!("Step 0 of {tag}:")), "{name}");
        }
        assert!(!text.contains("Step 0 of pdf:"), "only the latest content of a skill");
        assert_eq!(out.report.changes.len(), 3);
        assert!(out.report.changes.iter().all(|c| c.tokens_after <= 5000));
        // The blocks are found as skill content; running again changes nothing.
        let found = compact::find(&out.transcript, &o).unwrap();
        assert_eq!(found.uses.iter().filter(|u| u.kind == UseKind::Injected).count(), 3);
        let again = compact::reattach(&out.transcript, &contents, Some(catalog), &o).unwrap();
        assert_eq!(again.transcript, out.transcript);
        assert!(again.report.changes.is_empty());
    }
}

#[test]
fn reattach_truncates_at_lines_and_respects_the_total() {
    let f = TranscriptFormat::AiSdk;
    let v = T::new(f).user("hi").value();
    let big = wrap("big", &body(2000, "big"));
    let o = CompactOptions { per_skill_tokens: 1000, total_tokens: 1500, ..opts(f) };
    let contents = vec![
        SkillContent { name: "old".into(), content: wrap("old", &body(5, "old")) },
        SkillContent { name: "mid".into(), content: wrap("mid", &body(2000, "mid")) },
        SkillContent { name: "big".into(), content: big },
    ];
    let out = compact::reattach(&v, &contents, None, &o).unwrap();
    let text = out.transcript[1]["content"][0]["text"].as_str().unwrap().to_string();
    assert!(text.contains("<skill_content name=\"big\" status=\"reattached\">"));
    assert!(text.contains("more lines]\n</skill_content>"));
    assert_eq!(out.report.omitted, vec!["mid".to_string()], "the newest goes first, then what still fits");
    assert!(text.contains("name=\"old\""));
    let big_change = out.report.changes.iter().find(|c| c.skill.as_deref() == Some("big")).unwrap();
    assert!(big_change.tokens_after <= 1000 && big_change.tokens_after > 900, "{}", big_change.tokens_after);
    // Every kept line is whole.
    for line in text.lines() {
        assert!(
            line.is_empty()
                || line.starts_with('<')
                || line.starts_with("Step")
                || line.starts_with('[')
                || line.starts_with("Skill")
                || line.starts_with("Relative")
                || line.starts_with("scripts"),
            "{line}"
        );
    }
    // Too small for even the wrapper: omitted.
    let tiny = CompactOptions { per_skill_tokens: 5, ..opts(f) };
    let out = compact::reattach(&v, &contents[..1], None, &tiny).unwrap();
    assert_eq!(out.transcript, v);
    assert_eq!(out.report.omitted, vec!["old".to_string()]);
}

#[test]
fn reattach_skips_skills_still_in_full_and_needs_something_to_add() {
    let f = TranscriptFormat::Anthropic;
    let v = session(f).value();
    let contents = vec![SkillContent { name: "pdf".into(), content: wrap("pdf", &body(3, "x")) }];
    let out = compact::reattach(&v, &contents, None, &opts(f)).unwrap();
    assert_eq!(out.transcript, v);
    assert!(out.report.changes.is_empty());
}

#[test]
fn dedupe_points_later_repeats_to_the_first() {
    for f in FORMATS {
        let mut t = session(f);
        t.inject("pdf", &body(40, "pdf"), "again").activate("release-notes", &body(31, "notes"));
        let v = t.value();
        let out = compact::dedupe(&v, &opts(f)).unwrap();
        let r = &out.report;
        assert_eq!(r.changes.len(), 2, "{f:?}: the second pdf activation and the injected pdf");
        assert!(r.changes.iter().all(|c| c.action == ChangeAction::Deduped));
        untouched(&v, &out.transcript, &changed(r));
        let found = compact::find(&out.transcript, &opts(f)).unwrap();
        let first_pdf = found.uses[0].result_index.unwrap();
        let pointers: Vec<_> = found.uses.iter().filter(|u| u.kind == UseKind::Pointer).collect();
        assert_eq!(pointers.len(), 2);
        assert!(pointers.iter().all(|u| u.name == "pdf"));
        let text = out.transcript.to_string();
        assert!(text.contains(&format!("Loaded earlier in this conversation (message {first_pdf}).")));
        assert!(text.contains("again"), "the user's own words stay");
        let again = compact::dedupe(&out.transcript, &opts(f)).unwrap();
        assert_eq!(again.transcript, out.transcript);
        assert!(again.report.changes.is_empty());
    }
}

/// Tool call ids a message defines or answers.
fn ids(m: &Value) -> (Vec<String>, Vec<String>) {
    let (mut calls, mut results) = (Vec::new(), Vec::new());
    if let Some(id) = m["tool_call_id"].as_str() {
        results.push(id.to_string());
    }
    for c in m["tool_calls"].as_array().into_iter().flatten() {
        calls.push(c["id"].as_str().unwrap_or("").to_string());
    }
    for p in m["content"].as_array().into_iter().flatten() {
        match p["type"].as_str() {
            Some("tool-call") => calls.push(p["toolCallId"].as_str().unwrap_or("").into()),
            Some("tool_use") => calls.push(p["id"].as_str().unwrap_or("").into()),
            Some("tool-result") => results.push(p["toolCallId"].as_str().unwrap_or("").into()),
            Some("tool_result") => results.push(p["tool_use_id"].as_str().unwrap_or("").into()),
            _ => {}
        }
    }
    (calls, results)
}

fn no_split(v: &Value) {
    let msgs = v.as_array().unwrap();
    let calls: HashSet<String> = msgs.iter().flat_map(|m| ids(m).0).collect();
    let results: HashSet<String> = msgs.iter().flat_map(|m| ids(m).1).collect();
    assert_eq!(calls, results, "every call with its result");
}

#[test]
fn prune_drops_oldest_pairs_and_never_skill_content() {
    for f in FORMATS {
        let mut t = session(f);
        for i in 0..30 {
            t.user(&format!("question {i}: {}", "words ".repeat(50)))
                .other(&"output line\n".repeat(40))
                .assistant("answer");
        }
        t.activate("late", &body(10, "late"));
        let v = t.value();
        let o = opts(f);
        let protected = compact::protect(&v, &o).unwrap();
        let before = compact::find(&v, &o).unwrap();
        for u in &before.uses {
            assert!(protected.contains(&u.result_index.unwrap()));
            if let Some(c) = u.call_index {
                assert!(protected.contains(&c));
            }
        }
        let total: u64 = compact::prune(&v, u64::MAX, &o).unwrap().report.tokens_before;
        let budget = total / 2;
        let out = compact::prune(&v, budget, &o).unwrap();
        let r = &out.report;
        assert_eq!(r.fits, Some(true));
        assert!(r.tokens_after <= budget && !r.removed.is_empty());
        assert!(r.removed.iter().all(|i| !protected.contains(i)));
        if f != TranscriptFormat::Anthropic {
            assert!(!r.removed.contains(&0), "the system message stays");
        }
        no_split(&out.transcript);
        // What is left is the input minus the removed, in order.
        let kept: Vec<&Value> =
            v.as_array().unwrap().iter().enumerate().filter(|(i, _)| !r.removed.contains(i)).map(|(_, m)| m).collect();
        assert_eq!(out.transcript.as_array().unwrap().iter().collect::<Vec<_>>(), kept);
        // The skill content is all there.
        let after = compact::find(&out.transcript, &o).unwrap();
        assert_eq!(after.uses.len(), before.uses.len());
        // Idempotent.
        let again = compact::prune(&out.transcript, budget, &o).unwrap();
        assert_eq!(again.transcript, out.transcript);
        assert!(again.report.removed.is_empty());
        // Too small a budget: nothing removed, and the report says why.
        let stuck = compact::prune(&v, 100, &o).unwrap();
        assert_eq!(stuck.report.fits, Some(false));
        assert_eq!(stuck.transcript, v);
        assert!(stuck.report.notes.iter().any(|n| n.code == "prune-cannot-fit"));
    }
}

#[test]
fn several_tool_names_and_errors() {
    for f in FORMATS {
        let mut t = T::new(f);
        t.tool = "activate_skill".into();
        t.user("go").activate("a", "A body").call(
            "activate_skill",
            json!({ "name": "nope" }),
            "There is no skill named 'nope'. The skills are: a.",
            true,
        );
        t.tool = "view_skill".into();
        t.activate("b", "B body");
        let v = t.value();
        // Without tool names, activate_skill is recognised by the answers it wrote.
        let recognised = compact::find(&v, &opts(f)).unwrap();
        let kinds: Vec<UseKind> = recognised.uses.iter().map(|u| u.kind).collect();
        assert_eq!(kinds, vec![UseKind::Activation, UseKind::Error, UseKind::Activation], "{f:?}");
        // Given names are honoured: only view_skill, and a note about the other answer.
        let given = CompactOptions { tool_name: Some(ToolNames::One("view_skill".into())), ..opts(f) };
        let only_given = compact::find(&v, &given).unwrap();
        assert_eq!(only_given.uses.len(), 1);
        assert!(only_given.notes.iter().any(|n| n.code == "skill-content-other-tool"), "{:?}", only_given.notes);
        let o = CompactOptions {
            tool_name: Some(ToolNames::Many(vec!["view_skill".into(), "activate_skill".into()])),
            ..opts(f)
        };
        let found = compact::find(&v, &o).unwrap();
        let kinds: Vec<UseKind> = found.uses.iter().map(|u| u.kind).collect();
        assert_eq!(kinds, vec![UseKind::Activation, UseKind::Error, UseKind::Activation]);
        let out = compact::compact_to_metadata(&v, &o).unwrap();
        assert_eq!(out.report.changes.len(), 2, "errors are not compacted");
    }
    // Options from JSON: one name or a list.
    let o: CompactOptions = serde_json::from_value(json!({ "toolName": ["x", "y"], "keepRecent": 1 })).unwrap();
    assert!(o.tool_name.as_ref().is_some_and(|t| t.contains("y")) && o.keep_recent == 1 && o.per_skill_tokens == 5000);
    let o: CompactOptions = serde_json::from_value(json!({ "toolName": "x", "format": "openai" })).unwrap();
    assert_eq!(o.format, Some(TranscriptFormat::OpenAi));
}

#[test]
fn pending_call_without_result_is_found_and_kept() {
    for f in FORMATS {
        let mut t = session(f);
        t.call("view_skill", json!({ "name": "pdf" }), "", false);
        t.msgs.pop();
        let v = t.value();
        let found = compact::find(&v, &opts(f)).unwrap();
        let last = found.uses.last().unwrap();
        assert_eq!((last.result_index, last.kind), (None, UseKind::Activation));
        let out = compact::compact_to_metadata(&v, &opts(f)).unwrap();
        assert_eq!(out.transcript.as_array().unwrap().last(), v.as_array().unwrap().last());
    }
}

#[test]
fn malformed_input_is_named_or_passed_through() {
    let err = compact::find(&json!({ "messages": [] }), &CompactOptions::default()).unwrap_err();
    assert_eq!(err.code, "transcript-not-array");
    for f in FORMATS {
        let mut t = session(f);
        let n = t.msgs.len();
        t.msgs.push(json!(42));
        t.msgs.push(json!({ "role": "wizard", "content": "abracadabra" }));
        t.msgs.push(json!({ "role": "user", "content": 7 }));
        let orphan = match f {
            TranscriptFormat::OpenAi => json!({ "role": "tool", "tool_call_id": "ghost", "content": wrap("pdf", "x") }),
            TranscriptFormat::AiSdk => {
                json!({ "role": "tool", "content": [{ "type": "tool-result", "toolCallId": "ghost", "toolName": "view_skill", "output": { "type": "text", "value": "x" } }] })
            }
            TranscriptFormat::Anthropic => {
                json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": "ghost", "content": "x" }] })
            }
        };
        t.msgs.push(orphan);
        let mut deep = json!("x");
        for _ in 0..100 {
            deep = json!([deep]);
        }
        t.msgs.push(json!({ "role": "user", "content": "deep", "meta": deep }));
        t.msgs.push(json!({ "role": "user", "content": wrap("huge", &"x".repeat(2000)) }));
        let v = t.value();
        let o = CompactOptions { max_message_chars: 1500, ..opts(f) };
        let found = compact::find(&v, &o).unwrap();
        let codes: Vec<(usize, &str)> = found.skipped.iter().map(|s| (s.index, s.code.as_str())).collect();
        let mut expected = vec![
            (n, "message-not-object"),
            (n + 1, "unknown-role"),
            (n + 2, "bad-content"),
            (n + 3, "orphan-tool-result"),
            (n + 4, "message-too-deep"),
            (n + 5, "message-too-large"),
        ];
        // The session's own big tool results pass the limit too.
        let big: Vec<(usize, &str)> = codes.iter().copied().filter(|(i, _)| *i < n).collect();
        assert!(big.iter().all(|(_, c)| *c == "message-too-large"));
        expected.splice(0..0, big);
        assert_eq!(codes, expected, "{f:?}");
        assert!(found.skipped.iter().all(|s| s.message.starts_with(&format!("message {}: ", s.index))));
        // Every operation passes them through unchanged.
        let o = opts(f);
        for out in [
            compact::compact_to_metadata(&v, &o).unwrap(),
            compact::dedupe(&v, &o).unwrap(),
            compact::prune(&v, 1, &o).unwrap(),
            compact::reattach(&v, &[SkillContent { name: "z".into(), content: "z".into() }], None, &o).unwrap(),
        ] {
            let a = out.transcript.as_array().unwrap();
            for k in n..n + 5 {
                assert!(a.contains(&v[k]), "{f:?}: message {k} kept");
            }
            assert_eq!(out.report.skipped.len(), 5);
        }
        // Strict: the first problem is an error naming its index.
        let strict = CompactOptions { strict: true, ..opts(f) };
        let err = compact::compact_to_metadata(&v, &strict).unwrap_err();
        assert_eq!(err.code, "message-not-object");
        assert!(err.message.starts_with(&format!("message {n}: ")), "{}", err.message);
    }
}

/// A long session built from corpus skills: many activations, repeats, reads, injections.
#[test]
fn corpus_long_session() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/skills/letta-ai__skills");
    let names =
        ["meta/skill-development", "letta/letta-configuration", "tools/transcribe", "tools/doc", "letta/conversations"];
    let bodies: Vec<(String, String)> = names
        .iter()
        .filter_map(|n| {
            let text = std::fs::read_to_string(root.join(n).join("SKILL.md")).ok()?;
            Some((n.rsplit('/').next()?.to_string(), text))
        })
        .collect();
    if bodies.len() < 2 {
        eprintln!("corpus absent; skipped");
        return;
    }
    for f in FORMATS {
        let mut t = T::new(f);
        t.system("agent");
        for round in 0..40 {
            let (name, text) = &bodies[round % bodies.len()];
            t.user(&format!("task {round}"));
            if round % 7 == 3 {
                t.inject(name, text, "do it");
            } else {
                t.activate(name, text);
            }
            if round % 5 == 0 {
                t.read(name, "references/guide.md", "# Guide\nDetails.");
            }
            t.other("ok").assistant(&format!("done {round}"));
        }
        let v = t.value();
        let o = opts(f);
        let found = compact::find(&v, &o).unwrap();
        assert_eq!(found.uses.len(), 48);
        let deduped = compact::dedupe(&v, &o).unwrap();
        assert_eq!(deduped.report.changes.len(), 40 - bodies.len());
        let compacted =
            compact::compact_to_metadata(&deduped.transcript, &CompactOptions { keep_recent: 1, ..o.clone() }).unwrap();
        assert!(compacted.report.tokens_after * 2 < deduped.report.tokens_before);
        let contents: Vec<SkillContent> =
            bodies.iter().map(|(n, b)| SkillContent { name: n.clone(), content: wrap(n, b) }).collect();
        let back = compact::reattach(&compacted.transcript, &contents, Some("catalog"), &o).unwrap();
        assert_eq!(
            back.report.changes.len() + back.report.omitted.len(),
            bodies.len() - 1,
            "the kept one is still there"
        );
        let added: u32 = back.report.changes.iter().map(|c| c.tokens_after).sum();
        assert!(added <= 25000 && back.report.changes.iter().all(|c| c.tokens_after <= 5000));
        let pruned = compact::prune(&back.transcript, back.report.tokens_after * 3 / 4, &o).unwrap();
        no_split(&pruned.transcript);
        for out in [&deduped, &compacted, &back, &pruned] {
            assert!(out.report.skipped.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests

#[derive(Debug, Clone)]
enum Step {
    User(String),
    Assistant(String),
    Activate(usize, usize),
    Read(usize),
    Inject(usize, usize),
    Other(String),
    Junk(u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        "[ -~]{0,30}".prop_map(Step::User),
        "[ -~]{0,30}".prop_map(Step::Assistant),
        (0..4usize, 0..3usize).prop_map(|(s, b)| Step::Activate(s, b)),
        (0..4usize).prop_map(Step::Read),
        (0..4usize, 0..3usize).prop_map(|(s, b)| Step::Inject(s, b)),
        "\\PC{0,20}".prop_map(Step::Other),
        any::<u8>().prop_map(Step::Junk),
    ]
}

fn junk(k: u8) -> Value {
    match k % 8 {
        0 => json!(null),
        1 => {
            json!({ "role": "tool", "tool_call_id": "ghost", "content": "<skill_content name=\"x\">y</skill_content>" })
        }
        2 => json!({ "role": 5 }),
        3 => json!({ "role": "user", "content": { "a": 1 } }),
        4 => json!({ "role": "user", "content": "<skill_content name=\"x\">unclosed" }),
        5 => {
            json!({ "role": "user", "content": "<skill_content name=\"a&amp;b\" status=\"compacted\">{}</skill_content><skill_content>" })
        }
        6 => json!({ "role": "assistant", "content": [{ "type": "tool-call" }], "tool_calls": 3 }),
        _ => json!(["not", "a", "message"]),
    }
}

fn build(f: TranscriptFormat, steps: &[Step]) -> Value {
    let skills = ["alpha", "beta", "gamma", "delta"];
    let mut t = T::new(f);
    t.system("sys");
    for s in steps {
        match s {
            Step::User(x) => {
                t.user(x);
            }
            Step::Assistant(x) => {
                t.assistant(x);
            }
            Step::Activate(k, b) => {
                t.activate(skills[*k], &body(3 + b * 5, skills[*k]));
            }
            Step::Read(k) => {
                t.read(skills[*k], "scripts/run.py", "print(1)");
            }
            Step::Inject(k, b) => {
                t.inject(skills[*k], &body(3 + b * 5, skills[*k]), "please");
            }
            Step::Other(x) => {
                t.other(x);
            }
            Step::Junk(k) => t.msgs.push(junk(*k)),
        }
    }
    t.value()
}

/// Messages that hold no skill content, in order.
fn plain(v: &Value, o: &CompactOptions) -> Vec<String> {
    let found = compact::find(v, o).unwrap();
    let skill: HashSet<usize> = found.uses.iter().flat_map(|u| u.result_index).collect();
    v.as_array()
        .unwrap()
        .iter()
        .enumerate()
        .filter(|(i, _)| !skill.contains(i))
        .map(|(_, m)| serde_json::to_string(m).unwrap())
        .collect()
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(500);
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn operations_are_idempotent_and_leave_other_messages(fi in 0..3usize, steps in prop::collection::vec(step(), 0..24), keep in 0..3usize, budget in 0..4000u64) {
        let f = FORMATS[fi];
        let v = build(f, &steps);
        let o = CompactOptions { keep_recent: keep, per_skill_tokens: 60, total_tokens: 150, ..opts(f) };
        let base = plain(&v, &o);
        let contents: Vec<SkillContent> = ["alpha", "beta"].iter().map(|n| SkillContent { name: n.to_string(), content: wrap(n, &body(8, n)) }).collect();
        type Run<'a> = Box<dyn Fn(&Value) -> compact::Compacted + 'a>;
        let runs: Vec<Run> = vec![
            Box::new(|t| compact::compact_to_metadata(t, &o).unwrap()),
            Box::new(|t| compact::dedupe(t, &o).unwrap()),
            Box::new(|t| compact::reattach(t, &contents, Some("cat"), &o).unwrap()),
        ];
        for run in &runs {
            let once = run(&v);
            let twice = run(&once.transcript);
            prop_assert_eq!(&twice.transcript, &once.transcript);
            prop_assert!(twice.report.changes.is_empty());
            let after = plain(&once.transcript, &o);
            prop_assert_eq!(&after[..base.len().min(after.len())], &base[..]);
            prop_assert_eq!(once.report.skipped.len(), twice.report.skipped.len());
        }
        let pruned = compact::prune(&v, budget, &o).unwrap();
        let again = compact::prune(&pruned.transcript, budget, &o).unwrap();
        prop_assert_eq!(&again.transcript, &pruned.transcript);
        let protected = compact::protect(&v, &o).unwrap();
        prop_assert!(pruned.report.removed.iter().all(|i| !protected.contains(i)));
        let kept: Vec<&Value> = v.as_array().unwrap().iter().enumerate().filter(|(i, _)| !pruned.report.removed.contains(i)).map(|(_, m)| m).collect();
        prop_assert_eq!(pruned.transcript.as_array().unwrap().iter().collect::<Vec<_>>(), kept);
        if pruned.report.fits == Some(true) {
            prop_assert!(pruned.report.tokens_after <= budget.max(pruned.report.tokens_before.min(budget)));
        }
        // Every shape read as every other: no panic.
        for g in FORMATS {
            let _ = compact::find(&v, &opts(g)).unwrap();
            let _ = compact::compact_to_metadata(&v, &opts(g)).unwrap();
        }
    }

    #[test]
    fn arbitrary_json_never_panics(s in "\\PC{0,200}") {
        let v = json!([{ "role": "user", "content": s.clone() }, { "role": "tool", "tool_call_id": s.clone(), "content": [s.clone()] }, s]);
        for f in FORMATS {
            let o = opts(f);
            let _ = compact::find(&v, &o);
            let _ = compact::dedupe(&v, &o);
            let _ = compact::prune(&v, 3, &o);
        }
    }
}
