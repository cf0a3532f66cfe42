//! Exfiltration shapes: a secret (SSH and cloud keys, `.env` files, credential stores, the whole
//! environment) and a network send (curl, wget, nc, scp, `/dev/tcp`, `fetch(`, `requests.post(`
//! …) on one line, or within a few lines of each other in code; and scripts fetched from the
//! network into a shell (`curl … | sh`, `bash <(curl …)`, `iex (iwr …)`), high when the address
//! is a bare IP or plain `http://`.

use super::finding::excerpt;
use super::shell::{commands, Command};
use super::sink::{Cmd, Rule, Sink};
use super::words::{is_word, Families, AWS_KEY, CLOUD, CRED_FILE, ENV_VARS, EXEC, KEYCHAIN, NET, SECRET, SSH_KEY};

/// Lines of code between a secret and a send that still count as one sending the other.
pub const WINDOW: u32 = 3;

/// What the exfiltration check keeps between lines of code: the last few that named a secret and
/// the last few that named a network send (line, the lowercased line, its secret families, a
/// shell's line), read again only when the other kind follows within [`WINDOW`] lines.
#[derive(Default)]
pub(super) struct Window {
    secrets: Vec<(u32, String, Families, bool)>,
    sends: Vec<(u32, String)>,
}

impl Window {
    /// Forgets what was seen (a fence opens or closes).
    pub fn reset(&mut self) {
        self.secrets.clear();
        self.sends.clear();
    }
}

/// Where an SSH key is, as a lowercased line names it; what follows `/.ssh/` that is no secret.
const SSH_KEYS: [&str; 4] = ["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"];
const NOT_SECRET: [&str; 4] = [".pub", "known_hosts", "config", "authorized_keys"];
/// Credential files, as a lowercased line names them.
const CRED_FILES: [&str; 9] = [
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    "/etc/shadow",
    "/etc/passwd",
    ".gnupg",
    "application_default_credentials",
    "wallet.dat",
];
/// Cloud and container tools' credentials.
const CLOUD_FILES: [&str; 5] =
    [".docker/config.json", ".kube/config", ".config/gh/hosts", "gh auth token", "print-access-token"];
/// `.env` files that hold no secrets.
const ENV_EXAMPLES: [&str; 5] = [".example", ".sample", ".template", ".dist", ".defaults"];

/// Whether `lower` names `p` with no word character running into its start.
fn names(lower: &str, p: &str) -> bool {
    let b = lower.as_bytes();
    lower.match_indices(p).any(|(at, _)| at == 0 || !b.get(at - 1).is_some_and(|&c| is_word(c)))
}

/// The secret a line names (`families`: the secret words its first reading found), if any.
fn secret(lower: &str, cmds: &[Command], families: Families) -> Option<&'static str> {
    if families & SSH_KEY != 0 {
        for (at, _) in lower.match_indices("/.ssh") {
            let after = lower.get(at + 5..).unwrap_or_default().trim_start_matches('/');
            if !NOT_SECRET.iter().any(|n| after.starts_with(n)) {
                return Some("~/.ssh");
            }
        }
        for key in SSH_KEYS {
            for (at, _) in lower.match_indices(key) {
                if !lower.get(at + key.len()..).unwrap_or_default().starts_with(".pub") {
                    return Some("an SSH private key");
                }
            }
        }
    }
    if families & AWS_KEY != 0 && (lower.contains("/.aws") || lower.contains(".aws/credentials")) {
        return Some("~/.aws");
    }
    if families & CRED_FILE != 0 {
        if let Some(f) = CRED_FILES.iter().find(|f| names(lower, f)) {
            return Some(f);
        }
    }
    if families & CLOUD != 0 {
        if let Some(f) = CLOUD_FILES.iter().find(|f| lower.contains(*f)) {
            return Some(f);
        }
    }
    if families & KEYCHAIN != 0
        && ["dump-keychain", "find-generic-password", "find-internet-password"].iter().any(|k| lower.contains(k))
    {
        return Some("the keychain");
    }
    if families & ENV_VARS != 0 {
        return environment(lower, cmds);
    }
    None
}

/// A `.env` file, or the whole environment (printenv, env as a command, os.environ or
/// process.env whole).
fn environment(lower: &str, cmds: &[Command]) -> Option<&'static str> {
    let b = lower.as_bytes();
    for (at, _) in lower.match_indices(".env") {
        let before = at.checked_sub(1).and_then(|i| b.get(i)).copied();
        let after = lower.get(at + 4..).unwrap_or_default();
        let ends = after.bytes().next().is_none_or(|c| !is_word(c) && c != b'-');
        let example = ENV_EXAMPLES.iter().any(|e| after.starts_with(e));
        if before.is_none_or(|c| !is_word(c) && c != b'.' && c != b'-' && c != b'$') && ends && !example {
            return Some(".env");
        }
    }
    if cmds.iter().any(|c| c.name == "printenv" || (c.name == "env" && c.args.is_empty())) {
        return Some("the environment");
    }
    for name in ["os.environ", "process.env"] {
        for (at, _) in lower.match_indices(name) {
            let rest = lower.get(at + name.len()..).unwrap_or_default();
            if rest.bytes().next().is_none_or(|c| matches!(c, b')' | b',' | b' ' | b';' | b'}'))
                || rest.starts_with(".items()")
            {
                return Some("the environment");
            }
        }
    }
    (lower.contains("get-childitem env:") || lower.contains("gci env:")).then_some("the environment")
}

/// Commands that send over the network.
const SENDERS: [&str; 15] = [
    "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "ftp", "rsync", "iwr", "irm", "nslookup",
    "dig",
];

/// Calls that send over the network, as they appear in a lowercased line.
const SEND_CALLS: [&str; 26] = [
    "/dev/tcp/",
    "/dev/udp/",
    "fetch(",
    "requests.post(",
    "requests.put(",
    "requests.get(",
    "requests.patch(",
    "requests.request(",
    "httpx.post(",
    "httpx.put(",
    "httpx.get(",
    "urlopen(",
    "urllib.request",
    "http.client",
    "axios.post(",
    "axios.put(",
    "axios(",
    "xmlhttprequest",
    "sendbeacon(",
    "invoke-webrequest",
    "invoke-restmethod",
    ".uploadstring(",
    ".uploadfile(",
    "smtplib",
    "socket.connect",
    "net.connect(",
];

/// How a line sends over the network, if it does.
fn send(lower: &str, cmds: &[Command]) -> Option<&'static str> {
    let by_command = cmds.iter().find_map(|c| {
        let remote = !matches!(c.name, "scp" | "rsync") || c.args.iter().any(|a| a.contains(':'));
        SENDERS.iter().find(|s| **s == c.name && !c.args.is_empty() && remote).copied()
    });
    by_command.or_else(|| SEND_CALLS.iter().find(|s| lower.contains(*s)).map(|s| s.trim_end_matches('(')))
}

/// Checks a line for a secret sent over the network, and for a script fetched into a shell.
pub(super) fn check(c: &Cmd, window: &mut Window, sink: &mut Sink) {
    if c.has(NET) && c.has(EXEC) && c.lower.bytes().any(|x| matches!(x, b'|' | b'(' | b'&' | b';')) {
        remote_script(c, sink);
    }
    if !c.has(SECRET | NET) || c.documented {
        return;
    }
    let secrets = c.families & SECRET;
    if c.has(SECRET) && c.has(NET) {
        if let Some(s) = secret(c.lower, c.commands(), secrets) {
            if let Some(n) = send(c.lower, c.commands()) {
                sink.push(Rule::Exfiltration, c.no, || {
                    format!("{s} sent over the network ({n}): {:?}", excerpt(c.line, 120))
                });
                return;
            }
        }
    }
    // Code carries a secret to a send a few lines on through a variable.
    if c.prose || c.comment {
        return;
    }
    let near = |l: u32| c.no.saturating_sub(l) <= WINDOW;
    window.secrets.retain(|(l, ..)| near(*l));
    window.sends.retain(|(l, _)| near(*l));
    let mut found: Option<(&'static str, &'static str, u32)> = None;
    if c.has(NET) && !window.secrets.is_empty() {
        if let Some(n) = send(c.lower, c.commands()) {
            found = window.secrets.iter().find_map(|(l, text, fam, shell)| {
                let s = secret(text, &commands(text), *fam)?;
                // A `.env` file is loaded by most programs that call an API: only a shell's
                // line that reads it counts a few lines away.
                (s != ".env" || *shell).then_some((s, n, *l))
            });
        }
    }
    if found.is_none() && c.has(SECRET) && !window.sends.is_empty() {
        if let Some(s) = secret(c.lower, c.commands(), secrets).filter(|s| *s != ".env" || c.shell) {
            found = window.sends.iter().find_map(|(l, text)| send(text, &commands(text)).map(|n| (s, n, *l)));
        }
    }
    if let Some((s, n, l)) = found {
        sink.push(Rule::Exfiltration, c.no, || {
            format!("{s} (line {l}) and a network send ({n}) a few lines apart: {:?}", excerpt(c.line, 120))
        });
    }
    if c.has(SECRET) {
        window.secrets.truncate(WINDOW as usize - 1);
        window.secrets.insert(0, (c.no, c.lower.to_string(), secrets, c.shell));
    }
    if c.has(NET) {
        window.sends.truncate(WINDOW as usize - 1);
        window.sends.insert(0, (c.no, c.lower.to_string()));
    }
}

/// What fetches a script.
const FETCHERS: [&str; 6] = ["curl", "wget", "iwr", "irm", "invoke-webrequest", "invoke-restmethod"];
/// What runs the script it is given.
const SHELLS: [&str; 17] = [
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "python",
    "python2",
    "python3",
    "perl",
    "ruby",
    "node",
    "php",
    "iex",
    "invoke-expression",
    "pwsh",
    "powershell",
];

/// A script fetched from the network and run: piped into a shell, or its output given to one
/// (`bash <(curl …)`, `sh -c "$(curl …)"`, `eval "$(curl …)"`, `iex (iwr …)`), or downloaded and
/// run in the same line.
fn remote_script(c: &Cmd, sink: &mut Sink) {
    let cmds = commands(c.code);
    // PowerShell's download cradle: `iex (New-Object Net.WebClient).DownloadString(…)`.
    let cradle = (c.code.contains("downloadstring(") || c.code.contains("downloaddata("))
        && cmds.iter().any(|x| matches!(x.name, "iex" | "invoke-expression"));
    let fetched = cmds.iter().position(|x| FETCHERS.contains(&x.name));
    let Some(first) = fetched.or(cradle.then_some(0)) else { return };
    // A shell piped into runs what it reads unless it is given a script, a command or a module
    // (`| python3 -m json.tool` formats, `| sh -s -- --flag` runs).
    let runs_input = |x: &Command| {
        x.args.iter().all(|a| a.starts_with('-') && !matches!(*a, "-c" | "-m" | "-e" | "-r" | "-command" | "-file"))
            || x.args.first() == Some(&"-")
    };
    let piped = cmds.iter().skip(first + 1).any(|x| x.piped && SHELLS.contains(&x.name) && runs_input(x));
    // The fetch inside `<( )` or `$( )` handed to a shell or eval.
    let wrapped = cmds
        .get(..first)
        .unwrap_or_default()
        .iter()
        .any(|x| SHELLS.contains(&x.name) || matches!(x.name, "eval" | "source" | "." | "iex"))
        && (c.lower.contains("<(") || c.lower.contains("$(") || c.lower.contains("iex (") || c.lower.contains("iex(("));
    let downloaded =
        cmds.get(first).is_some_and(|f| f.args.iter().any(|a| matches!(*a, "-o" | "--output" | "-outfile")))
            && cmds
                .iter()
                .skip(first + 1)
                .any(|x| !x.piped && ((SHELLS.contains(&x.name) && !x.args.is_empty()) || x.name.starts_with("./")));
    if !(piped || wrapped || downloaded || cradle) || c.documented {
        return;
    }
    let insecure = insecure_address(c.lower);
    let rule = if insecure.is_some() { Rule::RemoteScriptInsecure } else { Rule::RemoteScript };
    sink.push(rule, c.no, || match insecure {
        Some(why) => format!("a script fetched from {why} and run: {:?}", excerpt(c.line, 120)),
        None => format!("a script fetched from the network and run unseen: {:?}", excerpt(c.line, 120)),
    });
}

/// Why the address a line fetches from is not to be trusted: plain `http://`, or a bare IPv4
/// address.
fn insecure_address(lower: &str) -> Option<&'static str> {
    for (at, _) in lower.match_indices("http://") {
        let host = lower.get(at + 7..).unwrap_or_default();
        if !(host.starts_with("localhost") || host.starts_with("127.0.0.1")) {
            return Some("plain http");
        }
    }
    for token in lower.split(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | ')' | '/' | '@')) {
        let host = token.split(':').next().unwrap_or_default();
        let parts: Vec<&str> = host.split('.').collect();
        if parts.len() == 4
            && parts.iter().all(|p| !p.is_empty() && p.len() <= 3 && p.bytes().all(|b| b.is_ascii_digit()))
            && !host.starts_with("127.")
            && !host.starts_with("0.")
        {
            return Some("a bare IP address");
        }
    }
    None
}
