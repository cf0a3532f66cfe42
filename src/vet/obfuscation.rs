//! Obfuscation: decoded text run (`echo … | base64 -d | sh`, `eval "$(… | base64 -d)"`,
//! `exec(base64.b64decode(…))`, `eval(atob(…))`, `powershell -enc …`, a variable of decoded text
//! run a few lines later), and long encoded runs (base64, hex, `\x` escapes) outside data: data
//! files, fences whose language is data and `data:` URIs are left alone.

use super::finding::excerpt;
use super::shell::Command;
use super::sink::{Cmd, Rule, Sink};
use super::words::{is_word, DECODE, EXEC};

/// The shortest base64 run that is a blob.
pub const MIN_BLOB: usize = 120;
/// The fewest `\x` escapes on a line that are a blob.
pub const MIN_ESCAPES: usize = 32;
/// The shortest hex run that is a blob (longer than a SHA-512 digest).
const MIN_HEX: usize = 160;
/// Lines after a variable of decoded text within which running it counts.
const WINDOW: u32 = 5;

/// Decoders, as they appear in a lowercased line.
const DECODERS: [&str; 28] = [
    "decode_base64",
    "base64 -d",
    "base64 --decode",
    "base64 -i -d",
    "base64 -di",
    "base64 -id",
    "b64decode",
    "b32decode",
    "b85decode",
    "decodebytes",
    "atob(",
    "decode64",
    "base64_decode",
    "frombase64string",
    "unhexlify",
    "fromhex",
    "xxd -r",
    "xxd -p -r",
    "codecs.decode",
    "rot13",
    "rot_13",
    "marshal.loads",
    "gzinflate",
    "zlib.decompress",
    "'base64')",
    "\"base64\")",
    "openssl enc -d",
    "openssl base64 -d",
];

/// What runs text handed to it, as it appears before the decoder in a lowercased line.
const RUNNERS: [&str; 20] = [
    "eval",
    "exec(",
    "exec ",
    "compile(",
    "function(",
    "system(",
    "popen(",
    "execsync(",
    "spawnsync(",
    "iex",
    "invoke-expression",
    "sh -c",
    "bash -c",
    "zsh -c",
    "source <(",
    ". <(",
    "subprocess.run(",
    "subprocess.call(",
    "check_output(",
    "child_process",
];

const SHELLS: [&str; 11] = ["sh", "bash", "zsh", "dash", "ksh", "python", "python3", "perl", "ruby", "node", "iex"];

/// Variables that hold decoded text: their name and line.
#[derive(Default)]
pub(super) struct Decoded {
    vars: Vec<(String, u32)>,
}

impl Decoded {
    /// Whether a variable of decoded text was set (a later line may run it).
    pub fn pending(&self) -> bool {
        !self.vars.is_empty()
    }
}

/// The closing word of a heredoc a script's line opens (`<<EOF`, `<<-'END'`), if any.
pub(super) fn heredoc_start(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = line.get(at + 2..)?;
    if rest.starts_with('<') {
        return None;
    }
    let rest = rest.trim_start_matches('-').trim_start().trim_start_matches(['\'', '"']);
    let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!word.is_empty()).then_some(word)
}

/// The name a line assigns to (`name=…`, `name = …`, `const name = …`), if it starts with one.
fn assigned(lower: &str) -> Option<&str> {
    let t = lower.trim_start();
    let t = ["export ", "local ", "const ", "let ", "var ", "readonly "]
        .iter()
        .find_map(|k| t.strip_prefix(k))
        .unwrap_or(t);
    let eq = t.find('=')?;
    if t.as_bytes().get(eq + 1) == Some(&b'=') {
        return None;
    }
    let name = t.get(..eq)?.trim_end();
    (!name.is_empty() && name.bytes().all(is_word)).then_some(name)
}

/// Checks a line for decoded text that is run, on it or from a variable set a few lines before.
pub(super) fn check(c: &Cmd, decoded: &mut Decoded, sink: &mut Sink) {
    if c.has(EXEC) && (c.lower.contains("powershell") || c.lower.contains("pwsh")) {
        if let Some(how) = powershell_encoded(c.commands()) {
            return found(c, sink, how);
        }
    }
    if c.has(DECODE) {
        let Some((at, d)) = DECODERS.iter().filter_map(|d| c.lower.find(d).map(|at| (at, *d))).min() else { return };
        let before = c.lower.get(..at).unwrap_or_default();
        let cmds = c.commands();
        let first = cmds.iter().position(|x| x.name.contains("base64") || x.name == "xxd" || x.name == "openssl");
        let piped = first.is_some_and(|f| cmds.iter().skip(f + 1).any(|x| x.piped && SHELLS.contains(&x.name)));
        if piped || RUNNERS.iter().any(|r| runs(before, r)) {
            return found(c, sink, d);
        }
        if let Some(name) = assigned(c.lower) {
            if decoded.vars.len() >= 8 {
                decoded.vars.remove(0);
            }
            decoded.vars.push((name.to_string(), c.no));
        }
        return;
    }
    if !c.has(EXEC) || decoded.vars.is_empty() {
        return;
    }
    decoded.vars.retain(|(_, l)| c.no.saturating_sub(*l) <= WINDOW);
    let run = decoded.vars.iter().find(|(name, _)| {
        let shell_var = [format!("${name}"), format!("${{{name}}}")];
        let shell = shell_var.iter().any(|v| c.lower.contains(v.as_str()))
            && (c.lower.contains("eval")
                || c.lower.contains("sh -c")
                || c.lower.contains("| sh")
                || c.lower.contains("| bash"));
        let call = ["exec(", "eval(", "function(", "compile("].iter().any(|r| c.lower.contains(&format!("{r}{name}")));
        shell || call
    });
    if let Some((name, l)) = run {
        let how = format!("decoded text in {name} (line {l})");
        found(c, sink, &how);
    }
}

/// Whether `runner` occurs in `before` as a word of its own (not inside `evaluate` or `.exec`).
fn runs(before: &str, runner: &str) -> bool {
    before.match_indices(runner).any(|(at, _)| {
        let pre = at.checked_sub(1).and_then(|i| before.as_bytes().get(i)).copied();
        let post = before.as_bytes().get(at + runner.len()).copied();
        pre.is_none_or(|p| !is_word(p) && p != b'.')
            && (runner.ends_with(['(', ' ']) || post.is_none_or(|p| !is_word(p)))
    })
}

/// `powershell -enc <base64>` and its spellings.
fn powershell_encoded(cmds: &[Command]) -> Option<&'static str> {
    cmds.iter().find_map(|c| {
        let ps = matches!(c.name, "powershell" | "powershell.exe" | "pwsh");
        let mut args = c.args.iter();
        let flag = args.by_ref().position(|a| matches!(*a, "-enc" | "-encodedcommand" | "-e" | "-ec"));
        let encoded =
            |a: &str| a.len() >= 16 && a.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='));
        (ps && flag.is_some() && args.next().is_some_and(|a| encoded(a))).then_some("powershell -encodedcommand")
    })
}

fn found(c: &Cmd, sink: &mut Sink, how: &str) {
    if c.documented {
        return;
    }
    sink.push(Rule::ExecDecoded, c.no, || format!("decoded text is run ({how}): {:?}", excerpt(c.line, 120)));
}

/// Whether a base64 run looks like encoded data rather than a path or a name: letters of both
/// cases and digits throughout, few slashes and dashes.
fn looks_encoded(run: &[u8]) -> bool {
    let n = run.len();
    let count = |f: fn(&u8) -> bool| run.iter().filter(|b| f(b)).count();
    let upper = count(u8::is_ascii_uppercase);
    let lower = count(u8::is_ascii_lowercase);
    let digits = count(u8::is_ascii_digit);
    let slashes = count(|b| *b == b'/');
    let dashes = count(|b| *b == b'-' || *b == b'_');
    upper * 100 >= n * 8 && lower * 100 >= n * 8 && digits * 100 >= n * 3 && slashes * 16 <= n && dashes * 20 <= n
}

/// Whether a run is hex: hex digits only, with letters and digits both.
fn looks_hex(run: &[u8]) -> bool {
    let digits = run.iter().filter(|b| b.is_ascii_digit()).count();
    run.len() >= MIN_HEX
        && run.iter().all(u8::is_ascii_hexdigit)
        && digits * 5 >= run.len()
        && digits * 10 <= run.len() * 9
}

/// Long encoded runs on a line (not in a `data:` URI).
pub(super) fn blobs(line: &str, no: u32, sink: &mut Sink) {
    let b = line.as_bytes();
    let escapes = line.matches("\\x").count();
    if escapes >= MIN_ESCAPES {
        sink.push(Rule::EncodedBlob, no, || {
            format!("{escapes} \\x escapes in a row of encoded bytes: {:?}", excerpt(line, 60))
        });
        return;
    }
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && (is_word(b[i]) || matches!(b[i], b'+' | b'/' | b'=' | b'-')) {
            i += 1;
        }
        let run = b.get(start..i).unwrap_or_default();
        if run.len() >= MIN_BLOB {
            let before = line.get(start.saturating_sub(48)..start).unwrap_or_default().to_ascii_lowercase();
            let uri = before.contains("data:") || before.contains("base64,");
            let kind = if looks_hex(run) {
                Some("hex")
            } else if looks_encoded(run) {
                Some("base64")
            } else {
                None
            };
            if let (Some(kind), false) = (kind, uri) {
                let shown = line.get(start..(start + 32).min(i)).unwrap_or_default();
                sink.push(Rule::EncodedBlob, no, || format!("a {}-character {kind} run: \"{shown}…\"", run.len()));
                return;
            }
        }
        i = i.max(start + 1);
    }
}
