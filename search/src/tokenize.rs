//! The search's words: text cut into terms the same way for skills and for queries. English
//! words are lowercased, stop words dropped and suffixes stripped by a light stemmer; code
//! identifiers are split at `-`, `_`, `.`, `/` and camelCase humps (the whole identifier is kept
//! too); CJK runs (Han, kana, Hangul), which have no spaces, become overlapping character pairs.

use skillwasm_parse::text::nfkc;

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

/// The longest stop word, in bytes: each fits a `u64`.
const STOP_WORD_BYTES: usize = 8;

/// `word`'s first [`STOP_WORD_BYTES`] bytes as a number, big-endian and padded with zeros, so
/// that numbers order as their words do (a word's bytes are never zero).
const fn packed(word: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut i = 0;
    while i < STOP_WORD_BYTES {
        v <<= 8;
        if i < word.len() {
            v |= word[i] as u64;
        }
        i += 1;
    }
    v
}

/// [`STOP_WORDS`] packed ([`packed`]), in the same (ascending) order: a stop-word check is a
/// binary search over numbers, not over strings.
const STOP_KEYS: [u64; STOP_WORDS.len()] = {
    let mut keys = [0; STOP_WORDS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = packed(STOP_WORDS[i].as_bytes());
        i += 1;
    }
    keys
};

/// Whether the lowercased `word` is a stop word.
fn is_stop_word(word: &str) -> bool {
    word.len() <= STOP_WORD_BYTES && STOP_KEYS.binary_search(&packed(word.as_bytes())).is_ok()
}

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
    each_term(text, &mut |t| out.push(t.to_string()));
}

/// The terms of `text` as a new list.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    tokenize(text, &mut out);
    out
}

/// Calls `f` with each term of `text` in order (repeats kept), as [`tokenize`] lists them. Runs
/// are cut as slices of the text and terms made in one buffer reused from word to word.
pub fn each_term(text: &str, f: &mut impl FnMut(&str)) {
    let mut term = String::new();
    each_run(text, &mut |run, cjk| run_terms(run, cjk, &mut term, f));
}

/// Calls `f` with each run of `text` (after NFKC) that gives terms, in order: a run of letters
/// and digits (`false`) or of CJK characters (`true`). [`run_terms`] makes a run's terms; the
/// index's builder keeps what it made per distinct run, so a word met again costs one lookup.
pub fn each_run(text: &str, f: &mut impl FnMut(&str, bool)) {
    let text = nfkc(text);
    if text.is_ascii() {
        // The usual text: runs of ASCII letters and digits, cut byte by byte.
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let from = i;
            while bytes.get(i).is_some_and(u8::is_ascii_alphanumeric) {
                i += 1;
            }
            if i > from {
                f(text.get(from..i).unwrap_or_default(), false);
            }
            i += 1;
        }
        return;
    }
    // Where the current run began, and whether it is CJK.
    let mut run: Option<(usize, bool)> = None;
    for (i, c) in text.char_indices() {
        let kind = if c.is_ascii() {
            c.is_ascii_alphanumeric().then_some(false)
        } else if is_cjk(c) {
            Some(true)
        } else {
            c.is_alphanumeric().then_some(false)
        };
        match (run, kind) {
            (Some((_, was)), Some(now)) if was == now => {}
            _ => {
                if let Some((from, cjk)) = run {
                    f(text.get(from..i).unwrap_or_default(), cjk);
                }
                run = kind.map(|cjk| (i, cjk));
            }
        }
    }
    if let Some((from, cjk)) = run {
        f(text.get(from..).unwrap_or_default(), cjk);
    }
}

/// The terms of one run ([`each_run`]), given to `f` in order, `term` the buffer they are made
/// in: a CJK run as its characters in overlapping pairs (a lone character alone); an
/// alphanumeric run as its camelCase parts (and the whole, when it has several), stemmed, stop
/// words left out.
pub fn run_terms(run: &str, cjk: bool, term: &mut String, f: &mut impl FnMut(&str)) {
    if cjk {
        let mut chars = run.char_indices().peekable();
        while let Some((i, _)) = chars.next() {
            let end = chars.peek().map(|(j, c)| j + c.len_utf8()).unwrap_or(run.len());
            if chars.peek().is_some() || i == 0 {
                f(run.get(i..end).unwrap_or_default());
            }
        }
    } else if humped(run) {
        // A hump needs a capital after the first character; most words have none.
        let parts = camel_parts(run);
        if parts.len() > 1 {
            push_term(run, term, f);
        }
        for p in parts {
            push_term(p, term, f);
        }
    } else {
        push_term(run, term, f);
    }
}

/// Whether `run` has a capital after its first character (else it has no hump).
fn humped(run: &str) -> bool {
    if run.is_ascii() {
        run.bytes().skip(1).any(|b| b.is_ascii_uppercase())
    } else {
        run.chars().skip(1).any(char::is_uppercase)
    }
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

/// `word` lowercased into `term`, then (unless a stop word) stemmed, cut to [`MAX_TERM_BYTES`]
/// and given to `f`.
fn push_term(word: &str, term: &mut String, f: &mut impl FnMut(&str)) {
    term.clear();
    if word.is_ascii() {
        term.push_str(word);
        term.make_ascii_lowercase();
    } else {
        term.push_str(&skillwasm_parse::text::lowercase(word));
    }
    if is_stop_word(term) {
        return;
    }
    stem_in_place(term);
    if term.len() > MAX_TERM_BYTES {
        let mut cut = MAX_TERM_BYTES;
        while !term.is_char_boundary(cut) {
            cut -= 1;
        }
        term.truncate(cut);
    }
    if !term.is_empty() {
        f(term);
    }
}

/// A light English stemmer: plurals, `-ing`, `-ed`, `-er`, `-ation`, `-ment`, `-ly` and a final
/// `e` come off, so `merging`, `merged`, `merges` and `merge` meet. Only ASCII words are stemmed.
pub fn stem(word: &str) -> String {
    let mut w = word.to_string();
    stem_in_place(&mut w);
    w
}

/// [`stem`], in place.
fn stem_in_place(w: &mut String) {
    if !w.is_ascii() || w.len() <= 3 || w.bytes().any(|b| b.is_ascii_digit()) {
        return;
    }
    if w.len() >= 5 && ends(w, b"ies") {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if ends(w, b"sses") {
        w.truncate(w.len() - 2);
    } else if ends(w, b"s") && !ends(w, b"ss") && !ends(w, b"us") && !ends(w, b"is") {
        w.pop();
    }
    for (suffix, min_rest) in [("ation", 3), ("ment", 4), ("ing", 3), ("ed", 3), ("er", 4), ("ly", 4)] {
        if ends(w, suffix.as_bytes()) && w.len() - suffix.len() >= min_rest {
            w.truncate(w.len() - suffix.len());
            // generation, generating and generate meet at `generat`.
            if suffix == "ation" {
                w.push_str("at");
            }
            // running -> runn -> run; but keep a double s or l (process, install).
            if let [.., x, y] = w.as_bytes() {
                if x == y && !matches!(x, b's' | b'l' | b'z') && !b"aeiou".contains(x) {
                    w.pop();
                }
            }
            break;
        }
    }
    if w.len() > 4 && ends(w, b"e") {
        w.pop();
    }
}

/// Whether `w` ends with `suffix` (compared byte by byte: the suffixes are a few bytes long).
fn ends(w: &str, suffix: &[u8]) -> bool {
    w.len() >= suffix.len() && w.bytes().rev().zip(suffix.iter().rev()).all(|(a, b)| a == *b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| w.len() <= STOP_WORD_BYTES));
        assert!(STOP_KEYS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOP_WORDS.iter().all(|w| is_stop_word(w)));
        assert!(!["abou", "aboutt", "whenevers", "yours", "b"].iter().any(|w| is_stop_word(w)));
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
