//! The phrase families aimed at the model ([`super::instructions`] matches them), by the word
//! that starts them: each phrase the rule it breaks and its slots, a list of the words each slot
//! takes (`"?"` first: may be left out; `"*"` first: a gap of a few words; a word ending in `*`:
//! any word it begins). The word lists the phrases share come first.

use super::sink::Rule;

/// A phrase: the rule it breaks and its slots (see `matches` in [`super::instructions`]).
pub(super) type Phrase = (Rule, &'static [&'static [&'static str]]);

/// Who a concealed thing is kept from.
const USERS: &[&str] = &["user*", "human", "operator", "owner", "anyone", "anybody"];
/// Verbs of telling.
const TELL: &[&str] = &["tell", "inform", "notify", "alert"];
/// What a concealed thing is called, right after the verb ("do not mention this to the user").
const OBJECT: &[&str] = &["this", "it", "these", "that", "anything", "any", "what", "your", "everything"];
/// What follows "tell the user" when something is kept from them ("about", "that" ...).
const CONCEALED: &[&str] =
    &["about", "that", "what", "anything", "of", "this", "these", "where", "how", "why", "you", "we", "any"];
/// What the instructions set aside came before, or from ("previous", "system" ...).
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
/// What instructions are called.
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
/// What "without" leaves out when it skips the user's confirmation.
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
/// What asking the user gets.
const CONSENT: &[&str] = &["confirmation*", "permission*", "approval*", "consent"];
/// What a safeguard is called.
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
pub(super) const OVERRIDE: &[Phrase] = &[
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
pub(super) const ALL_INSTRUCTIONS: &[&[&str]] = &[
    &["all"],
    &["?", "of"],
    &["?", "the", "your", "these"],
    &["instruction*", "rules", "guidelines", "directives", "prompts", "constraints", "restrictions"],
];
/// Words after "ignore all instructions" that say where those instructions are.
pub(super) const PLACES: &[&str] = &[
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
pub(super) const QUESTIONS: &[&str] = &["why", "how", "when", "where", "whether", "which", "if"];

/// After a negation: do not, don't, never.
pub(super) const NEGATED: &[Phrase] = &[
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
pub(super) const YOU: &[Phrase] = &[
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
pub(super) const WITHOUT: &[Phrase] = &[
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
pub(super) const HIDE: &[Phrase] = &[(
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
pub(super) const USER: &[Phrase] = &[(
    Rule::ConcealFromUser,
    &[
        &["must", "should", "shall", "will", "can", "may"],
        &["not", "never"],
        &["?", "ever", "be"],
        &["know", "find", "discover", "learn", "notice", "suspect", "told", "informed", "aware", "realize", "realise"],
    ],
)];

/// secretly, silently ...
pub(super) const SECRETLY: &[Phrase] = &[(
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
pub(super) const DISABLE: &[Phrase] = &[(
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
pub(super) const NOT_SAFETY: &[&str] = &["proxy", "mitm", "network", "directory", "folder", "path"];

/// reveal, print, repeat ...
pub(super) const REVEAL: &[Phrase] = &[
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
pub(super) const NEW: &[Phrase] = &[
    (Rule::InstructionOverride, &[&["system"], &["prompt", "instructions", "message", "role"]]),
    (
        Rule::InstructionOverride,
        &[&["instructions", "rules", "directives"], &["follow", "supersede", "replace", "override"]],
    ),
];

/// no ...
pub(super) const NO: &[Phrase] = &[
    (Rule::SkipConfirmation, &[&["need"], &["to"], &["ask", "confirm"]]),
    (
        Rule::SkipConfirmation,
        &[&["confirmation", "approval", "permission"], &["?", "is"], &["needed", "required", "necessary"]],
    ),
];
