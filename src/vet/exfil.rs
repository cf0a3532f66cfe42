//! Exfiltration shapes: a secret (SSH and cloud keys, `.env` files, credential stores, the whole
//! environment) and a network send (curl, wget, nc, scp, `/dev/tcp`, `fetch(`, `requests.post(`
//! …) on one line, or within a few lines of each other in code; and scripts fetched from the
//! network into a shell (`curl … | sh`, `bash <(curl …)`, `iex (iwr …)`), high when the address
//! is a bare IP or plain `http://`.

use super::excerpt;
use super::scan::{Cmd, Rule, Sink};
use super::words::{commands, is_word, Command, EXEC, NET, SECRET};

/// Lines of code between a secret and a send that still count as one sending the other.
pub const WINDOW: u32 = 3;

/// What the exfiltration check keeps between lines of code.
#[derive(Default)]
pub(super) struct Window {
    /// The last line of code that named a secret, and the secret.
    secret: Option<(u32, &'static str)>,
    /// The last line of code that sent something over the network.
    send: Option<u32>,
}

impl Window {
    /// Forgets what was seen (a fence opens or closes).
    pub fn reset(&mut self) {
        *self = Window::default();
    }
}

/// Files and stores that hold secrets, as they appear in a lowercased line; a path counts when no
/// word character runs into its start.
const SECRET_PATHS: [&str; 24] = [
    "~/.ssh",
    "$home/.ssh",
    "${home}/.ssh",
    "/.ssh/",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "id_dsa",
    "~/.aws",
    ".aws/credentials",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".docker/config.json",
    ".kube/config",
    "/etc/shadow",
    "/etc/passwd",
    ".gnupg",
    "application_default_credentials",
    ".config/gh/hosts",
    "gh auth token",
    "login data",
    "wallet.dat",
];

/// What follows a key path that makes it no secret: the public key, known hosts, the config.
const NOT_SECRET: [&str; 4] = [".pub", "known_hosts", "config", "authorized_keys"];

/// `.env` files that hold no secrets.
const ENV_EXAMPLES: [&str; 5] = [".example", ".sample", ".template", ".dist", ".defaults"];

/// The secret a line names, if any.
fn secret(lower: &str) -> Option<&'static str> {
    let b = lower.as_bytes();
    let bounded = |at: usize| at == 0 || !b.get(at - 1).is_some_and(|&c| is_word(c));
    for p in SECRET_PATHS {
        for (at, _) in lower.match_indices(p) {
            let after = lower.get(at + p.len()..).unwrap_or_default();
            let after = after.trim_start_matches('/');
            if bounded(at) && !NOT_SECRET.iter().any(|n| after.starts_with(n)) {
                return Some(p);
            }
        }
    }
    for (at, _) in lower.match_indices(".env") {
        let before = at.checked_sub(1).and_then(|i| b.get(i)).copied();
        let after = lower.get(at + 4..).unwrap_or_default();
        let ends = after.bytes().next().is_none_or(|c| !is_word(c) && c != b'-');
        let example = ENV_EXAMPLES.iter().any(|e| after.starts_with(e));
        if before.is_none_or(|c| !is_word(c) && c != b'.' && c != b'-' && c != b'$') && ends && !example {
            return Some(".env");
        }
    }
    // The whole environment: printenv, env as a command, os.environ or process.env whole.
    if lower.contains("printenv") && commands(lower).iter().any(|c| c.name == "printenv") {
        return Some("the environment (printenv)");
    }
    if commands(lower).iter().any(|c| c.name == "env" && c.args.is_empty()) {
        return Some("the environment (env)");
    }
    for (name, label) in
        [("os.environ", "the environment (os.environ)"), ("process.env", "the environment (process.env)")]
    {
        for (at, _) in lower.match_indices(name) {
            let next = lower.as_bytes().get(at + name.len()).copied();
            let rest = lower.get(at + name.len()..).unwrap_or_default();
            if next.is_none_or(|c| matches!(c, b')' | b',' | b' ' | b';' | b'}')) || rest.starts_with(".items()") {
                return Some(label);
            }
        }
    }
    if lower.contains("get-childitem env:") || lower.contains("gci env:") || lower.contains("dump-keychain") {
        return Some("the environment or keychain");
    }
    if lower.contains("find-generic-password") || lower.contains("find-internet-password") {
        return Some("the keychain");
    }
    None
}

/// Commands that send over the network.
const SENDERS: [&str; 11] = ["curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "scp", "sftp", "ftp", "rsync"];

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
fn send(lower: &str) -> Option<String> {
    if let Some(c) = commands(lower).into_iter().find(|c| {
        SENDERS.contains(&c.name)
            && !c.args.is_empty()
            && !((c.name == "scp" || c.name == "rsync") && !c.args.iter().any(|a| a.contains(':')))
    }) {
        return Some(c.name.to_string());
    }
    if let Some(call) = SEND_CALLS.iter().find(|s| lower.contains(*s)) {
        return Some(call.trim_end_matches('(').to_string());
    }
    for c in commands(lower) {
        if matches!(c.name, "iwr" | "irm" | "nslookup" | "dig") && !c.args.is_empty() {
            return Some(c.name.to_string());
        }
    }
    None
}

/// Checks a line for a secret sent over the network, and for a script fetched into a shell.
pub(super) fn check(c: &Cmd, window: &mut Window, sink: &mut Sink) {
    if c.has(NET) && c.has(EXEC) {
        remote_script(c, sink);
    }
    if !c.has(SECRET | NET) {
        return;
    }
    let found = if c.has(SECRET) { secret(c.lower) } else { None };
    let sent = if c.has(NET) { send(c.lower) } else { None };
    let near = |line: u32| c.no.saturating_sub(line) <= WINDOW;
    let pair = match (found, &sent) {
        (Some(s), Some(n)) => Some((s, n.clone(), None)),
        (Some(s), None) => {
            // A `.env` file is loaded by most programs that call an API: only a shell's line
            // that reads it counts a few lines away.
            let carried = !c.prose && !c.comment && (s != ".env" || c.shell);
            let earlier = window.send.filter(|&l| near(l) && carried);
            if carried {
                window.secret = Some((c.no, s));
            }
            earlier.map(|l| (s, "a network send".to_string(), Some(l)))
        }
        (None, Some(n)) => {
            let earlier = window.secret.filter(|&(l, _)| near(l) && !c.prose && !c.comment);
            if !c.prose && !c.comment {
                window.send = Some(c.no);
            }
            earlier.map(|(l, s)| (s, n.clone(), Some(l)))
        }
        (None, None) => None,
    };
    let Some((s, n, other)) = pair else { return };
    if c.documented {
        return;
    }
    sink.push(Rule::Exfiltration, c.no, || match other {
        Some(l) => format!("{s} (line {l}) and a network send ({n}) a few lines apart: {:?}", excerpt(c.line, 120)),
        None => format!("{s} sent over the network ({n}): {:?}", excerpt(c.line, 120)),
    });
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
