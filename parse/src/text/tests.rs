use super::hidden::is_other_line_break;
use super::*;
use std::borrow::Cow;

/// `one_line` as one character at a time: what the run-copying loop must equal.
fn one_line_by_chars(s: &str) -> String {
    let mut out = String::new();
    let mut space = false;
    let mut prev = None;
    for c in s.chars() {
        let before = prev.replace(c);
        if c.is_whitespace() || is_other_line_break(c) {
            space = !out.is_empty();
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(if hides(before, c) { HIDDEN_CHAR } else { c });
    }
    out
}

proptest::proptest! {
    #[test]
    fn one_line_copies_runs_as_it_would_copy_characters(
        s in "[a-z .,\t\n\r\u{b}\u{85}\u{a0}\u{2028}\u{200b}\u{202e}\u{7f}\u{1}é中\u{fe0f}\u{e0041}\u{e0100}\u{200e}]{0,40}"
    ) {
        proptest::prop_assert_eq!(one_line(&s), one_line_by_chars(&s));
    }

    #[test]
    fn token_counts_by_bytes_are_counts_of_characters(s in "\\PC{0,60}") {
        let ascii = s.chars().filter(char::is_ascii).count() as u64;
        let other = s.chars().count() as u64 - ascii;
        proptest::prop_assert_eq!(TokenCount::of(&s), TokenCount { ascii, other });
    }
}

#[test]
fn one_line_and_escaping_give_the_same_text_on_the_quick_path_and_the_long_one() {
    let cases = [
        ("a plain description.", "a plain description."),
        ("", ""),
        (" lead", "lead"),
        ("trail ", "trail"),
        ("two  spaces", "two spaces"),
        ("tab\there", "tab here"),
        ("line\nbreak\r\n", "line break"),
        ("caf\u{e9} \u{200B}x", "caf\u{e9} \u{FFFD}x"),
        ("del\u{7f}", "del\u{FFFD}"),
    ];
    for (input, want) in cases {
        assert_eq!(one_line(input), want, "{input:?}");
    }
    assert_eq!(xml_attr("a<b & 'c' \"d\">"), "a&lt;b &amp; &#x27;c&#x27; &quot;d&quot;&gt;");
    assert_eq!(xml_text("a<b & 'c'\n>"), "a&lt;b &amp; 'c' &gt;");
    assert_eq!(xml_attr("\u{e9}&\u{e9}"), "\u{e9}&amp;\u{e9}");
}

#[test]
fn code_ranges_fences_and_spans() {
    let t = "a `b` c\n```js\nx\n```\nd ``e ` f`` g";
    let r = code_ranges(t);
    let parts: Vec<&str> = r.iter().map(|&(a, b)| &t[a..b]).collect();
    assert_eq!(parts, vec!["`b`", "```js\nx\n```\n", "``e ` f``"]);
}

#[test]
fn code_ranges_tilde_indented_unclosed_and_longer_close() {
    let t = "x\n   ~~~~ info\n~~~\nstill\n~~~~~\ny";
    let r = code_ranges(t);
    assert_eq!(r.len(), 1);
    assert_eq!(&t[r[0].0..r[0].1], "   ~~~~ info\n~~~\nstill\n~~~~~\n");
    let t = "x\n```\nnever closed $pdf";
    let r = code_ranges(t);
    assert_eq!(&t[r[0].0..r[0].1], "```\nnever closed $pdf");
    // Four spaces: not a fence.
    assert!(code_ranges("    ```\nx").is_empty());
}

#[test]
fn code_ranges_unmatched_and_escaped_backticks() {
    assert!(code_ranges("a `b c").is_empty());
    assert!(code_ranges("a ``b` c").is_empty());
    // Escaped opening backtick: the span starts at the next one.
    let t = r"\``x`";
    let r = code_ranges(t);
    assert_eq!(r.iter().map(|&(a, b)| &t[a..b]).collect::<Vec<_>>(), vec!["`x`"]);
    // A blank line ends the paragraph: no span across it.
    assert!(code_ranges("a `b\n\nc` d").is_empty());
    assert_eq!(code_ranges("a `b\nc` d").len(), 1);
}

#[test]
fn code_ranges_many_backticks_is_linear() {
    let t: String = (1..2000).map(|n| "`".repeat(n % 50 + 1) + " x ").collect();
    let _ = code_ranges(&t);
}

#[test]
fn neutralisers_per_format() {
    assert_eq!(xml_text(" a <b>\n& c "), "a &lt;b&gt; &amp; c");
    assert_eq!(xml_attr("it's \"x\""), "it&#x27;s &quot;x&quot;");
    assert_eq!(markdown_text("- **x** [y](z) <b> & 1."), "\\- \\*\\*x\\*\\* \\[y\\](z) &lt;b&gt; &amp; 1.");
    assert_eq!(markdown_text("12. item | `c`"), "12\\. item \\| \\`c\\`");
    assert_eq!(crate::content::markdown_code("a`b</skill_content>"), "a'b&lt;/skill_content&gt;");
    assert_eq!(json_for_markup("\"<a>&\u{2028}\""), "\"\\u003ca\\u003e\\u0026\\u2028\"");
    assert_eq!(one_line("p\u{200B}d\u{202E}f"), "p\u{FFFD}d\u{FFFD}f");
    assert_eq!(clean_hidden("a\r\nb\u{0}"), "a\r\nb\u{FFFD}");
    let tags = &["skill_content"];
    assert_eq!(neutralize_tags("x </Skill_Content > y", tags), "x &lt;/Skill_Content &gt; y");
    assert_eq!(neutralize_tags("<skill_content name=\"a\">", tags), "&lt;skill_content name=\"a\">");
    assert!(matches!(neutralize_tags("<skill_contents> a < b", tags), Cow::Borrowed(_)));
}

/// One character of each kind no output shows, with what it is.
const INVISIBLE_KINDS: [(char, &str); 44] = [
    ('\u{AD}', "soft hyphen"),
    ('\u{34F}', "combining grapheme joiner"),
    ('\u{600}', "Arabic number sign"),
    ('\u{61C}', "Arabic letter mark"),
    ('\u{6DD}', "Arabic end of ayah"),
    ('\u{70F}', "Syriac abbreviation mark"),
    ('\u{890}', "Arabic pound mark above"),
    ('\u{8E2}', "Arabic disputed end of ayah"),
    ('\u{115F}', "Hangul choseong filler"),
    ('\u{1160}', "Hangul jungseong filler"),
    ('\u{17B4}', "Khmer inherent vowel"),
    ('\u{180E}', "Mongolian vowel separator"),
    ('\u{200B}', "zero-width space"),
    ('\u{200C}', "zero-width non-joiner"),
    ('\u{200D}', "zero-width joiner"),
    ('\u{200E}', "left-to-right mark"),
    ('\u{200F}', "right-to-left mark"),
    ('\u{202A}', "left-to-right embedding"),
    ('\u{202B}', "right-to-left embedding"),
    ('\u{202C}', "pop directional formatting"),
    ('\u{202D}', "left-to-right override"),
    ('\u{202E}', "right-to-left override"),
    ('\u{2060}', "word joiner"),
    ('\u{2062}', "invisible times"),
    ('\u{2066}', "left-to-right isolate"),
    ('\u{2067}', "right-to-left isolate"),
    ('\u{2068}', "first strong isolate"),
    ('\u{2069}', "pop directional isolate"),
    ('\u{206A}', "inhibit symmetric swapping"),
    ('\u{3164}', "Hangul filler"),
    ('\u{FEFF}', "zero-width no-break space"),
    ('\u{FFA0}', "halfwidth Hangul filler"),
    ('\u{FFF9}', "interlinear annotation anchor"),
    ('\u{110BD}', "Kaithi number sign"),
    ('\u{13430}', "Egyptian hieroglyph vertical joiner"),
    ('\u{1BCA0}', "shorthand format letter overlap"),
    ('\u{1D173}', "musical symbol begin beam"),
    ('\u{E0001}', "language tag"),
    ('\u{E0041}', "tag Latin capital letter A"),
    ('\u{E007F}', "cancel tag"),
    ('\u{1}', "C0 control"),
    ('\u{7F}', "delete"),
    ('\u{9B}', "C1 control"),
    ('\u{E0FFF}', "unassigned default-ignorable"),
];

#[test]
fn every_kind_of_invisible_character_is_shown_as_the_replacement_character() {
    for (c, what) in INVISIBLE_KINDS {
        let text = format!("p{c}df");
        let want = format!("p{HIDDEN_CHAR}df");
        assert_eq!(one_line(&text), want, "{what}");
        assert_eq!(clean_lines(&text), want, "{what}");
        assert_eq!(clean_hidden(&text), want, "{what}");
        assert_eq!(xml_text(&text), want, "{what}");
        assert_eq!(markdown_text(&text), want, "{what}");
    }
    // A variation selector stays after what it varies; a run of them, or one after nothing
    // visible, carries data nobody sees.
    assert_eq!(one_line("ok \u{2764}\u{FE0F}"), "ok \u{2764}\u{FE0F}");
    assert_eq!(clean_lines("\u{845B}\u{E0100}"), "\u{845B}\u{E0100}");
    assert_eq!(one_line("x\u{FE0F}\u{FE0E}\u{E0100}"), "x\u{FE0F}\u{FFFD}\u{FFFD}");
    assert_eq!(clean_hidden("\u{FE0F}a \u{FE0F}"), "\u{FFFD}a \u{FFFD}");
    assert_eq!(one_line("\u{200B}\u{FE0F}"), "\u{FFFD}\u{FFFD}");
}

#[test]
fn token_estimate() {
    assert_eq!(estimate_tokens(""), 0);
    assert_eq!(estimate_tokens("abcd"), 1);
    assert_eq!(estimate_tokens("abcde"), 2);
    assert_eq!(estimate_tokens("日本語"), 3);
    let parts = TokenCount::of("ab") + TokenCount::of("cd日");
    assert_eq!(parts, TokenCount::of("abcd日"));
    assert_eq!(parts.tokens(), 2);
}
