//! The rule every skill tool's name follows, whoever names it: the configuration, a tool's options.

/// The most characters a tool name may have (what model APIs take).
pub const MAX_TOOL_NAME_CHARS: usize = 64;

/// The tool-name rule: 1 to 64 characters, each an ASCII letter, digit, `_` or `-` (what the
/// model APIs accept; OpenAI, Anthropic and Gemini refuse other names when the tool is offered).
pub fn check_tool_name(name: &str) -> Result<(), String> {
    let n = name.chars().count();
    let bad = name.chars().find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'));
    let why = if n == 0 {
        "is empty".to_string()
    } else if n > MAX_TOOL_NAME_CHARS {
        format!("has {n} characters")
    } else if let Some(c) = bad {
        format!("contains {}", if c == ' ' { "a space".to_string() } else { format!("{c:?}") })
    } else {
        return Ok(());
    };
    Err(format!(
        "the tool name {name:?} {why}: a tool name is 1 to {MAX_TOOL_NAME_CHARS} of the characters a-z, A-Z, 0-9, _ and - (model APIs refuse others)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names() {
        for ok in ["view_skill", "activate-skill", "A1", &"x".repeat(64)] {
            assert_eq!(check_tool_name(ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            ("", "is empty"),
            ("view skill", "contains a space"),
            ("skills.view", "contains '.'"),
            ("выбор", "contains 'в'"),
            (&"x".repeat(65), "has 65 characters"),
        ] {
            let e = check_tool_name(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(e.contains("1 to 64 of the characters a-z, A-Z, 0-9, _ and -"), "{e}");
        }
    }
}
