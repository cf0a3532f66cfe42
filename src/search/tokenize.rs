//! The search's words: text cut into terms the same way for skills and for queries. English
//! words are lowercased, stop words dropped and suffixes stripped by a light stemmer; code
//! identifiers are split at `-`, `_`, `.`, `/` and camelCase humps (the whole identifier is kept
//! too); CJK runs (Han, kana, Hangul), which have no spaces, become overlapping character pairs.

use crate::text::nfkc;

/// Longest term kept, in bytes; longer words are cut (a base64 blob is not a word).
pub const MAX_TERM_BYTES: usize = 48;

/// Words too common in skill descriptions and requests to tell skills apart.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "ask", "asks", "at", "be", "been", "before",
    "being", "but", "by", "can", "could", "did", "do", "does", "doing", "each", "either", "etc", "for", "from", "get",
    "gets", "give", "had", "has", "have", "he", "help", "helps", "her", "here", "him", "his", "how", "i", "if", "in",
    "into", "is", "it", "its", "just", "let", "like", "me", "mention", "mentions", "might", "more", "most", "must",
    "my", "need", "needs", "no", "not", "of", "on", "one", "or", "other", "our", "out", "over", "please", "should",
    "skill", "skills", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "to", "triggers", "up", "us", "use", "used", "user", "users", "uses", "using", "via",
    "want", "wants", "was", "we", "were", "what", "when", "whenever", "where", "whether", "which", "while", "who",
    "why", "will", "with", "within", "without", "would", "you", "your",
];

/// Whether `c` belongs to a script written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3400..=0x4DBF    // CJK Extension A
        | 0x4E00..=0x9FFF    // CJK Unified Ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B-F, compatibility supplement
}

/// The terms of `text`, appended to `out` in order (repeats kept: they are term frequencies).
pub fn tokenize(text: &str, out: &mut Vec<String>) {
    let text = nfkc(text);
    let mut word = String::new();
    let mut cjk: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_cjk(c) {
            flush_word(&mut word, out);
            cjk.push(c);
        } else if c.is_alphanumeric() {
            flush_cjk(&mut cjk, out);
            word.push(c);
        } else {
            flush_word(&mut word, out);
            flush_cjk(&mut cjk, out);
        }
    }
    flush_word(&mut word, out);
    flush_cjk(&mut cjk, out);
}

/// The terms of `text` as a new list.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    tokenize(text, &mut out);
    out
}

fn flush_cjk(run: &mut Vec<char>, out: &mut Vec<String>) {
    match run.len() {
        0 => {}
        1 => out.extend(run.first().map(|c| c.to_string())),
        _ => out.extend(run.windows(2).map(|w| w.iter().collect::<String>())),
    }
    run.clear();
}

/// One alphanumeric run: its camelCase parts (and the whole, when it has several), stemmed.
fn flush_word(word: &mut String, out: &mut Vec<String>) {
    if word.is_empty() {
        return;
    }
    let parts = camel_parts(word);
    if parts.len() > 1 {
        push_term(&crate::text::lowercase(word), out);
    }
    for p in parts {
        push_term(&crate::text::lowercase(p), out);
    }
    word.clear();
}

/// `parseHTTPResponse` -> `parse`, `HTTP`, `Response`; digits stay with their letters.
fn camel_parts(word: &str) -> Vec<&str> {
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let mut parts = Vec::new();
    let mut start = 0;
    for k in 1..chars.len() {
        let (i, c) = chars[k];
        let prev = chars[k - 1].1;
        let next_lower = chars.get(k + 1).is_some_and(|(_, n)| n.is_lowercase());
        // `PDFs`, `APIs`: a plural of an acronym, not a hump.
        let plural = chars.len() == k + 2 && chars.get(k + 1).is_some_and(|(_, n)| *n == 's');
        let hump = c.is_uppercase() && (prev.is_lowercase() || (prev.is_uppercase() && next_lower && !plural));
        if hump {
            parts.push(&word[start..i]);
            start = i;
        }
    }
    parts.push(&word[start..]);
    parts
}

fn push_term(lower: &str, out: &mut Vec<String>) {
    if STOP_WORDS.binary_search(&lower).is_ok() {
        return;
    }
    let mut t = stem(lower);
    if t.len() > MAX_TERM_BYTES {
        let mut cut = MAX_TERM_BYTES;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        t.truncate(cut);
    }
    if !t.is_empty() {
        out.push(t);
    }
}

/// A light English stemmer: plurals, `-ing`, `-ed`, `-er`, `-ation`, `-ment`, `-ly` and a final
/// `e` come off, so `merging`, `merged`, `merges` and `merge` meet. Only ASCII words are stemmed.
pub fn stem(word: &str) -> String {
    if !word.is_ascii() || word.len() <= 3 || word.bytes().any(|b| b.is_ascii_digit()) {
        return word.to_string();
    }
    let mut w = word.to_string();
    if let Some(s) = w.strip_suffix("ies").filter(|s| s.len() >= 2) {
        w = format!("{s}y");
    } else if let Some(s) = w.strip_suffix("sses") {
        w = format!("{s}ss");
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") && w.len() > 3 {
        w.pop();
    }
    for (suffix, min_rest) in [("ation", 3), ("ment", 4), ("ing", 3), ("ed", 3), ("er", 4), ("ly", 4)] {
        if let Some(rest) = w.strip_suffix(suffix).filter(|r| r.len() >= min_rest) {
            // generation, generating and generate meet at `generat`.
            w = if suffix == "ation" { format!("{rest}at") } else { rest.to_string() };
            // running -> runn -> run; but keep a double s or l (process, install).
            let b = w.as_bytes();
            if let [.., x, y] = b {
                if x == y && !matches!(x, b's' | b'l' | b'z') && !b"aeiou".contains(x) {
                    w.pop();
                }
            }
            break;
        }
    }
    if w.len() > 4 && w.ends_with('e') {
        w.pop();
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn english_words_meet_their_forms() {
        assert_eq!(terms("Merging PDFs"), ["merg", "pdf"]);
        assert_eq!(terms("merge the pdf files"), ["merg", "pdf", "file"]);
        assert_eq!(stem("merged"), "merg");
        assert_eq!(stem("generation"), stem("generating"));
        assert_eq!(stem("automation"), stem("automate"));
        assert_eq!(stem("running"), "run");
        assert_eq!(stem("process"), "process");
        assert_eq!(stem("queries"), "query");
        assert_eq!(stem("formatter"), "format");
        assert_eq!(terms("Use this when the user wants to"), Vec::<String>::new());
    }

    #[test]
    fn code_identifiers_split() {
        assert_eq!(terms("pdf-forms"), ["pdf", "form"]);
        assert_eq!(terms("snake_case_name"), ["snak", "case", "name"]);
        assert_eq!(terms("camelCase"), ["camelcas", "camel", "case"]);
        assert_eq!(terms("parseHTTPResponse"), ["parsehttprespons", "pars", "http", "respons"]);
        assert_eq!(terms("mp3 v2"), ["mp3", "v2"]);
        assert_eq!(terms("PDFs and URLs"), ["pdf", "url"]);
        assert_eq!(terms("src/main.rs"), ["src", "main", "rs"]);
    }

    #[test]
    fn cjk_runs_become_pairs() {
        assert_eq!(terms("合并PDF文件"), ["合并", "pdf", "文件"]);
        assert_eq!(terms("数据分析报告"), ["数据", "据分", "分析", "析报", "报告"]);
        assert_eq!(terms("表"), ["表"]);
        assert_eq!(terms("データ"), ["デー", "ータ"]);
        assert_eq!(terms("한국어"), ["한국", "국어"]);
    }

    #[test]
    fn full_width_and_long_words() {
        assert_eq!(terms("ＰＤＦ"), ["pdf"]);
        let long = "x".repeat(200);
        assert_eq!(terms(&long)[0].len(), MAX_TERM_BYTES);
        assert!(terms("— … !!").is_empty());
    }
}
