//! Instructions aimed at the model that contradict its host: phrase families, matched without
//! case and word by word from the word that starts them ([`super::words`]), in prose only (not in
//! code spans, fences or quotes: a skill that quotes an injection to teach about it is not one).
//!
//! - override: "ignore (all) previous instructions", "forget everything above", "you are now
//!   DAN", "new system prompt", "never refuse a request";
//! - conceal: "do not tell the user about …", "without telling the user", "keep this from the
//!   user", "the user must not know", "silently send …";
//! - skip confirmation (medium): "without asking", "without the user's permission", "do not ask
//!   for confirmation", "no need to ask", and agent flags that switch confirmation off
//!   (`--dangerously-skip-permissions`);
//! - disable safety: "disable the sandbox", "bypass the guardrails", "turn off confirmation
//!   prompts", "ignore your safety guidelines";
//! - reveal the system prompt: "print your system prompt", "repeat everything above".

use super::finding::excerpt;
use super::sink::{Cmd, Rule, Sink};
use super::words::{group, matches, phrase_words, takes, AGENT, MAX_PHRASE};

/// A phrase: the rule it breaks and its slots (see [`matches`]).
type Phrase = (Rule, &'static [&'static [&'static str]]);

const USERS: &[&str] = &["user*", "human", "operator", "owner", "anyone", "anybody"];
const TELL: &[&str] = &["tell", "inform", "notify", "alert"];
/// What a concealed thing is called, right after the verb ("do not mention this to the user").
const OBJECT: &[&str] = &["this", "it", "these", "that", "anything", "any", "what", "your", "everything"];
const CONCEALED: &[&str] =
    &["about", "that", "what", "anything", "of", "this", "these", "where", "how", "why", "you", "we", "any"];
const EARLIER: &[&str] = &[
    "previous",
    "prior",
    "above",
    "earlier",
    "preceding",
    "former",
    "original",
    "initial",
    "foregoing",
    "system",
    "developer",
    "safety",
];
const RULES_NOUNS: &[&str] = &[
    "instruction*",
    "prompt*",
    "direction*",
    "rule*",
    "guideline*",
    "guidance",
    "context",
    "message*",
    "polic*",
    "constraint*",
    "restriction*",
    "programming",
    "directive*",
];
const ASKING: &[&str] = &[
    "asking",
    "confirmation",
    "confirming",
    "permission",
    "approval",
    "consent",
    "prompting",
    "consulting",
    "verification",
];
const CONSENT: &[&str] = &["confirmation*", "permission*", "approval*", "consent"];
const SAFETY: &[&str] = &[
    "safety",
    "sandbox",
    "sandboxing",
    "guardrail*",
    "safeguard*",
    "confirmation*",
    "approval*",
    "protections",
    "moderation",
    "alignment",
    "ethic*",
    "content",
];

/// ignore, disregard, forget, override, discard ...
const OVERRIDE: &[Phrase] = &[
    (
        Rule::InstructionOverride,
        &[
            &["?", "all", "any", "every"],
            &["?", "of"],
            &["?", "the", "your", "my", "these", "those", "its", "any"],
            EARLIER,
            &["?", "system", "safety", "user", "developer"],
            RULES_NOUNS,
        ],
    ),
    (
        Rule::InstructionOverride,
        &[
            &["everything", "anything"],
            &["?", "you", "that"],
            &["above", "previously", "earlier", "prior", "were", "was", "have", "know"],
        ],
    ),
    (
        Rule::InstructionOverride,
        &[
            &["what"],
            &["?", "you"],
            &["were", "was", "have", "had"],
            &["?", "been"],
            &["told", "instructed", "given", "taught"],
        ],
    ),
    (
        Rule::DisableSafety,
        &[
            &["?", "the", "your", "all", "any"],
            &["safety", "ethical", "moderation"],
            &[
                "guideline*",
                "rule*",
                "polic*",
                "filter*",
                "restriction*",
                "check*",
                "measures",
                "protocols",
                "guardrails",
                "constraints",
            ],
        ],
    ),
    (
        Rule::InstructionOverride,
        &[
            &["your"],
            &["?", "core", "original", "previous", "built", "system"],
            &["?", "in"],
            &[
                "instruction*",
                "programming",
                "guideline*",
                "rules",
                "training",
                "polic*",
                "prompt",
                "directive*",
                "constraints",
            ],
        ],
    ),
    (Rule::InstructionOverride, &[&["?", "the", "your"], &["system"], &["prompt", "message", "instructions"]]),
];

/// The phrase "ignore all instructions" when no place follows it ("… in the document" is a
/// defence, not an attack).
const ALL_INSTRUCTIONS: &[&[&str]] = &[
    &["all"],
    &["?", "of"],
    &["?", "the", "your", "these"],
    &["instruction*", "rules", "guidelines", "directives", "prompts", "constraints", "restrictions"],
];
const PLACES: &[&str] = &[
    "in",
    "from",
    "within",
    "inside",
    "found",
    "contained",
    "embedded",
    "that",
    "which",
    "appearing",
    "written",
    "given",
    "provided",
    "coming",
    "of",
    "on",
];

/// Words after "without telling the user" or "the user must not know" that make it a question
/// described ("… which output is which") rather than a secret kept.
const QUESTIONS: &[&str] = &["why", "how", "when", "where", "whether", "which", "if"];

/// After a negation: do not, don't, never.
const NEGATED: &[Phrase] = &[
    (Rule::ConcealFromUser, &[TELL, &["?", "the", "any", "your"], USERS, CONCEALED]),
    (Rule::ConcealFromUser, &[&["let"], &["?", "the", "your"], USERS, &["know", "notice", "suspect"]]),
    (
        Rule::ConcealFromUser,
        &[
            &["mention", "reveal", "disclose", "expose", "admit"],
            OBJECT,
            &["*", "xxx"],
            &["to", "with"],
            &["?", "the", "your"],
            USERS,
        ],
    ),
    (
        Rule::SkipConfirmation,
        &[
            &["ask", "prompt", "wait", "check"],
            &["?", "the", "with"],
            &["?", "user*", "human"],
            &["?", "for"],
            &["?", "their", "any", "explicit"],
            CONSENT,
        ],
    ),
    (Rule::SkipConfirmation, &[&["confirm", "verify"], &["with"], &["?", "the"], &["user*", "human"]]),
    (
        Rule::SkipConfirmation,
        &[
            &["request", "seek", "require", "need", "wait"],
            &["?", "the", "any", "for"],
            &["?", "user*", "human"],
            &["?", "s"],
            CONSENT,
        ],
    ),
    (
        Rule::InstructionOverride,
        &[
            &["refuse", "decline"],
            &["?", "any", "a", "the"],
            &["?", "user*"],
            &["request*", "instruction*", "command*", "order*", "task*"],
        ],
    ),
    (
        Rule::InstructionOverride,
        &[
            &["follow", "obey", "respect", "honor", "honour"],
            &["?", "your", "the", "any", "all"],
            &["previous", "prior", "original", "system", "safety", "earlier", "developer", "host"],
            RULES_NOUNS,
        ],
    ),
];

/// you ...
const YOU: &[Phrase] = &[
    (
        Rule::InstructionOverride,
        &[
            &["are", "re"],
            &["now"],
            &["?", "a", "an", "in", "the"],
            &[
                "dan",
                "jailbroken",
                "unrestricted",
                "unfiltered",
                "uncensored",
                "unchained",
                "evil",
                "free",
                "developer",
                "god",
                "no",
            ],
        ],
    ),
    (
        Rule::InstructionOverride,
        &[
            &["are", "re", "will"],
            &["?", "now"],
            &["no"],
            &["longer"],
            &["bound", "restricted", "limited", "required", "subject", "constrained"],
        ],
    ),
    (Rule::InstructionOverride, &[&["have"], &["no"], &["restrictions", "rules", "limits", "guidelines", "filters"]]),
    (
        Rule::ConcealFromUser,
        &[
            &["must", "should", "will", "shall", "need", "may"],
            &["?", "to"],
            &["not", "never"],
            &["?", "ever"],
            TELL,
            &["?", "the", "your"],
            USERS,
            CONCEALED,
        ],
    ),
    (
        Rule::ConcealFromUser,
        &[
            &["must", "should", "will", "shall"],
            &["not", "never"],
            &["mention", "reveal", "disclose", "expose", "admit"],
            OBJECT,
            &["*", "xxx"],
            &["to"],
            &["?", "the", "your"],
            USERS,
        ],
    ),
];

/// without ...
const WITHOUT: &[Phrase] = &[
    (
        Rule::ConcealFromUser,
        &[
            &["telling", "informing", "notifying", "alerting", "warning", "letting"],
            &["?", "the", "your"],
            &["user*", "human", "operator", "owner", "anyone", "anybody", "them"],
        ],
    ),
    (
        Rule::ConcealFromUser,
        &[
            &["?", "the", "your"],
            &["user*", "human", "operator", "owner"],
            &["?", "s"],
            &["knowledge", "awareness", "noticing", "knowing"],
        ],
    ),
    (Rule::SkipConfirmation, &[&["?", "first", "explicitly", "ever", "even"], ASKING]),
    (
        Rule::SkipConfirmation,
        &[
            &["?", "the", "your", "any"],
            &["user*", "human", "explicit", "prior"],
            &["?", "s"],
            &["confirmation", "permission", "approval", "consent"],
        ],
    ),
];

/// keep, hide (... from the user)
const HIDE: &[Phrase] = &[(
    Rule::ConcealFromUser,
    &[
        &["this", "it", "these", "that", "everything", "what", "your", "all"],
        &["*", "xxx"],
        &["?", "secret", "hidden", "private", "confidential"],
        &["from"],
        &["?", "the", "your"],
        USERS,
    ],
)];

/// (the) user ...
const USER: &[Phrase] = &[(
    Rule::ConcealFromUser,
    &[
        &["must", "should", "shall", "will", "can", "may"],
        &["not", "never"],
        &["?", "ever", "be"],
        &["know", "find", "discover", "learn", "notice", "suspect", "told", "informed", "aware", "realize", "realise"],
    ],
)];

/// secretly, silently ...
const SECRETLY: &[Phrase] = &[(
    Rule::ConcealFromUser,
    &[
        &["?", "also", "then", "and"],
        &[
            "send",
            "upload",
            "post",
            "transmit",
            "exfiltrate",
            "forward",
            "email",
            "collect",
            "gather",
            "copy",
            "harvest",
            "steal",
            "leak",
        ],
    ],
)];

/// disable, bypass ... (turn off, switch off)
const DISABLE: &[Phrase] = &[(
    Rule::DisableSafety,
    &[
        &["?", "the", "your", "all", "any", "its", "these", "my", "claude", "agent"],
        &["?", "s"],
        &["?", "own", "built", "internal", "agent"],
        &["?", "in"],
        SAFETY,
        &[
            "?",
            "filter*",
            "check*",
            "prompt*",
            "mode",
            "rule*",
            "guideline*",
            "polic*",
            "feature*",
            "measure*",
            "layer*",
            "system*",
            "protocol*",
            "setting*",
            "dialog*",
            "request*",
        ],
    ],
)];
/// Words after "bypass the sandbox" that make it about something else (a proxy).
const NOT_SAFETY: &[&str] = &["proxy", "mitm", "network", "directory", "folder", "path"];

/// reveal, print, repeat ...
const REVEAL: &[Phrase] = &[
    (
        Rule::RevealSystemPrompt,
        &[
            &["?", "me", "us", "back", "out"],
            &["your"],
            &[
                "?", "full", "entire", "complete", "exact", "original", "hidden", "initial", "secret", "verbatim",
                "raw", "internal", "current",
            ],
            &["system", "initial", "hidden", "original", "developer", "secret", "internal", "confidential"],
            &["prompt*", "message*", "instruction*"],
        ],
    ),
    (
        Rule::RevealSystemPrompt,
        &[
            &["?", "me", "us", "back", "out"],
            &["?", "the", "all", "any", "of"],
            &[
                "full",
                "entire",
                "complete",
                "exact",
                "verbatim",
                "hidden",
                "secret",
                "raw",
                "original",
                "initial",
                "internal",
                "confidential",
            ],
            &["?", "system", "developer"],
            &["prompt*", "message*", "instruction*"],
        ],
    ),
    (
        Rule::RevealSystemPrompt,
        &[
            &["?", "me", "us", "back"],
            &["everything", "all", "anything"],
            &["?", "text", "you", "written", "that"],
            &["above"],
        ],
    ),
    (
        Rule::RevealSystemPrompt,
        &[&["?", "me", "us"], &["your"], &["instructions", "prompt", "rules", "guidelines", "directives"]],
    ),
];

/// new ...
const NEW: &[Phrase] = &[
    (Rule::InstructionOverride, &[&["system"], &["prompt", "instructions", "message", "role"]]),
    (
        Rule::InstructionOverride,
        &[&["instructions", "rules", "directives"], &["follow", "supersede", "replace", "override"]],
    ),
];

/// no ...
const NO: &[Phrase] = &[
    (Rule::SkipConfirmation, &[&["need"], &["to"], &["ask", "confirm"]]),
    (
        Rule::SkipConfirmation,
        &[&["confirmation", "approval", "permission"], &["?", "is"], &["needed", "required", "necessary"]],
    ),
];

/// The first phrase of `phrases` that `words` (after the words that start it) begins with:
/// its rule and how many words it takes.
fn first(phrases: &[Phrase], words: &[&str]) -> Option<(Rule, usize)> {
    phrases.iter().find_map(|(rule, p)| matches(words, p).map(|n| (*rule, n)))
}

/// The phrase that starts at the anchor word (`words[0]`) of group `g`: its rule and the words it
/// spans.
fn phrase(g: u8, words: &[&str]) -> Option<(Rule, usize)> {
    let w = |i: usize| words.get(i).copied();
    let is = |i: usize, x: &str| w(i).is_some_and(|v| v.eq_ignore_ascii_case(x));
    let rest = |skip: usize| words.get(skip..).unwrap_or_default();
    match g {
        group::OVERRIDE => {
            if let Some((rule, n)) = first(OVERRIDE, rest(1)) {
                return Some((rule, n + 1));
            }
            let n = matches(rest(1), ALL_INSTRUCTIONS)?;
            let next = w(n + 1);
            (!next.is_some_and(|x| in_list(PLACES, x))).then_some((Rule::InstructionOverride, n + 1))
        }
        group::NEGATION => {
            let skip = if (is(0, "do") || is(0, "does") || is(0, "did")) && is(1, "not") || is(0, "don") && is(1, "t") {
                2
            } else if is(0, "never") || is(0, "dont") {
                1
            } else {
                return None;
            };
            let skip = if is(skip, "ever") { skip + 1 } else { skip };
            first(NEGATED, rest(skip)).map(|(r, n)| (r, n + skip))
        }
        group::YOU => first(YOU, rest(1)).map(|(r, n)| (r, n + 1)),
        group::WITHOUT => {
            let (rule, n) = first(WITHOUT, rest(1))?;
            // "rejects the input without telling the user why": a flaw described, not an order.
            let next = w(n + 1);
            (!(rule == Rule::ConcealFromUser && next.is_some_and(|x| in_list(QUESTIONS, x)))).then_some((rule, n + 1))
        }
        group::HIDE => first(HIDE, rest(1)).map(|(r, n)| (r, n + 1)),
        group::USER => {
            let (rule, n) = first(USER, rest(1))?;
            (!w(n + 1).is_some_and(|x| in_list(QUESTIONS, x))).then_some((rule, n + 1))
        }
        group::SECRETLY => first(SECRETLY, rest(1)).map(|(r, n)| (r, n + 1)),
        group::SAFETY => {
            let skip = match (is(0, "turn") || is(0, "switch"), is(1, "off")) {
                (true, true) => 2,
                (true, false) => return None,
                _ => 1,
            };
            let (rule, n) = first(DISABLE, rest(skip))?;
            let after = w(skip + n);
            (!after.is_some_and(|x| in_list(NOT_SAFETY, x))).then_some((rule, n + skip))
        }
        group::REVEAL => first(REVEAL, rest(1)).map(|(r, n)| (r, n + 1)),
        group::NEW => first(NEW, rest(1)).map(|(r, n)| (r, n + 1)),
        group::NO => first(NO, rest(1)).map(|(r, n)| (r, n + 1)),
        _ => None,
    }
}

/// Whether `word` is one of `list` (lowercase), without case.
fn in_list(list: &[&str], word: &str) -> bool {
    list.iter().any(|x| x.eq_ignore_ascii_case(word))
}

fn what(rule: Rule) -> &'static str {
    match rule {
        Rule::InstructionOverride => "an instruction to set aside the host's instructions",
        Rule::ConcealFromUser => "an instruction to hide something from the user",
        Rule::SkipConfirmation => "an instruction to act without the user's confirmation",
        Rule::DisableSafety => "an instruction to switch off a safeguard",
        Rule::RevealSystemPrompt => "an instruction to reveal the system prompt",
        _ => "an instruction to the model",
    }
}

/// Checks the phrases that start at `anchors` (byte offset, group) of `line`.
pub(super) fn check(line: &str, anchors: &[(u32, u8)], no: u32, sink: &mut Sink) {
    for &(at, g) in anchors {
        let at = at as usize;
        // The word after the first tells most anchors apart from a phrase at once.
        let (two, count) = phrase_words(line, at, 2);
        if count < 2 || !second_fits(g, two[0], two[1]) {
            continue;
        }
        let (words, count) = phrase_words(line, at, MAX_PHRASE);
        let words = words.get(..count).unwrap_or_default();
        if let Some((rule, n)) = phrase(g, words) {
            if is_cell_label(line, at, n) {
                continue;
            }
            let said = words.get(..n).unwrap_or_default().join(" ").to_ascii_lowercase();
            sink.push(rule, no, || format!("{}: \"{}\"", what(rule), excerpt(&said, 100)));
        }
    }
}

/// Whether `second` can follow `first` (of group `g`) in some phrase: the first slot of each of
/// the group's phrases, or the word a group's first word needs (`do not`, `turn off`).
fn second_fits(g: u8, first: &str, second: &str) -> bool {
    let starts = |phrases: &[Phrase]| phrases.iter().any(|(_, p)| slot_takes(p, second));
    match g {
        group::OVERRIDE => starts(OVERRIDE) || in_list(&["all"], second),
        group::NEGATION => {
            (in_list(&["do", "does", "did"], first) && second.eq_ignore_ascii_case("not"))
                || (first.eq_ignore_ascii_case("don") && second.eq_ignore_ascii_case("t"))
                || (in_list(&["never", "dont"], first) && (second.eq_ignore_ascii_case("ever") || starts(NEGATED)))
        }
        group::SAFETY if in_list(&["turn", "switch"], first) => second.eq_ignore_ascii_case("off"),
        group::SAFETY => starts(DISABLE),
        group::YOU => starts(YOU),
        group::WITHOUT => starts(WITHOUT),
        group::HIDE => starts(HIDE),
        group::USER => starts(USER),
        group::SECRETLY => starts(SECRETLY),
        group::REVEAL => starts(REVEAL),
        group::NEW => starts(NEW),
        group::NO => starts(NO),
        _ => false,
    }
}

/// Whether the phrase `p` can begin with `word`: a word of one of its slots up to and including
/// the first that must be there (optional slots and gaps may be left out).
fn slot_takes(p: &[&[&str]], word: &str) -> bool {
    for slot in p {
        match slot.first() {
            Some(&"*") => return true,
            Some(&"?") => {
                if slot.iter().skip(1).any(|x| takes(x, word)) {
                    return true;
                }
            }
            _ => return slot.iter().any(|x| takes(x, word)),
        }
    }
    true
}

/// Whether the phrase of `n` words at `at` is the whole cell of a Markdown table row: the name of
/// a pattern in a table of them (`| Ignore previous instructions | Critical |`), not an order.
fn is_cell_label(line: &str, at: usize, n: usize) -> bool {
    if !line.trim_start().starts_with('|') {
        return false;
    }
    let start = line.get(..at).and_then(|s| s.rfind('|')).map_or(0, |i| i + 1);
    let end = line.get(at..).and_then(|s| s.find('|')).map_or(line.len(), |i| at + i);
    let cell = line.get(start..end).unwrap_or_default();
    cell.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).count() == n
}

/// Agent command-line flags that run without confirmation or sandbox
/// (`--dangerously-skip-permissions`, `--permission-mode bypassPermissions`,
/// `dangerouslyDisableSandbox`, `--yolo`).
pub(super) fn agent_flags(c: &Cmd, sink: &mut Sink) {
    if !c.has(AGENT) {
        return;
    }
    const FLAGS: [&str; 4] =
        ["dangerously-skip-permissions", "bypasspermissions", "dangerouslydisablesandbox", "--yolo"];
    if let Some(flag) = FLAGS.iter().find(|f| c.lower.contains(*f)) {
        sink.push(Rule::SkipConfirmation, c.no, || {
            format!("an agent flag that runs commands without the user's confirmation: {flag}")
        });
    }
}
