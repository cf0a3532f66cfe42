//! Risky commands: recursive deletes of the root, the home directory or a system directory (not
//! of a path below them: cleaning `~/.cache/tool` is ordinary), disks overwritten; permission
//! changes (world-writable modes, setuid, recursive changes of system paths, sudoers); persistence
//! (shell profiles written, crontab, launch agents, systemd units, autostart, authorized keys);
//! shell history switched off or erased. A line that says it documents the danger (never, avoid,
//! blocked … on it or the line before) is not a finding.

use super::finding::excerpt;
use super::shell::{commands, unquoted, Command};
use super::sink::{Cmd, Rule, Sink};
use super::words::{AUTOSTART, DELETE, HIST, HIST_CMD, HIST_VAR, PERM, PERSIST, PERSIST_CMD, PROFILE_FILE};

/// Checks a line's commands.
pub(super) fn check(c: &Cmd, sink: &mut Sink) {
    if c.documented || !c.has(DELETE | PERM | PERSIST | HIST) {
        return;
    }
    let l = c.lower;
    if c.has(DELETE) {
        if let Some(what) = destructive(l, c.commands()) {
            sink.push(Rule::DestructiveDelete, c.no, || format!("{what}: {:?}", excerpt(c.line, 120)));
        }
    }
    if c.has(PERM) {
        if let Some(what) = permission(l, c.commands()) {
            sink.push(Rule::PermissionChange, c.no, || format!("{what}: {:?}", excerpt(c.line, 120)));
        }
    }
    if c.has(PERSIST) {
        if let Some(what) = persistence(c) {
            sink.push(Rule::Persistence, c.no, || format!("{what}: {:?}", excerpt(c.line, 120)));
        }
    }
    let history_shape =
        || ["history -", "o history", "_history", "clear-history", "historysavepath"].iter().any(|h| l.contains(h));
    if c.has(HIST_VAR) || (c.has(HIST_CMD) && history_shape()) {
        if let Some(what) = history(l, c.commands()) {
            sink.push(Rule::HistoryTampering, c.no, || format!("{what}: {:?}", excerpt(c.line, 120)));
        }
    }
}

/// Directories a recursive delete or change must never take whole.
const TOP: [&str; 24] = [
    "/",
    "~",
    "$home",
    "${home}",
    "/home",
    "/users",
    "/root",
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib64",
    "/boot",
    "/var",
    "/opt",
    "/system",
    "/library",
    "/private",
    "c:",
    "c:\\",
    "$userprofile",
    "%userprofile%",
    "$env:userprofile",
];

/// Whether `arg` names the root, the home directory or a system directory itself (or all that is
/// in it: `/*`, `~/*`).
pub(super) fn is_top(arg: &str) -> bool {
    let a: String = arg.chars().filter(|c| !matches!(c, '"' | '\'' | '\\')).collect();
    let a = a.as_str();
    let a = a.strip_suffix('*').unwrap_or(a);
    let a = if a.len() > 1 { a.strip_suffix('/').or_else(|| a.strip_suffix('\\')).unwrap_or(a) } else { a };
    TOP.contains(&a)
}

/// Whether `arg` is a system path or below one.
fn is_system(arg: &str) -> bool {
    let a = unquoted(arg);
    is_top(a)
        || ["/etc/", "/usr/", "/bin/", "/sbin/", "/lib/", "/boot/", "/system/", "/library/", "/var/"]
            .iter()
            .any(|p| a.starts_with(p))
}

fn flags<'a>(c: &'a Command) -> impl Iterator<Item = &'a str> {
    c.args.iter().copied().filter(|a| a.starts_with('-'))
}

fn recursive(c: &Command) -> bool {
    flags(c).any(|f| f == "--recursive" || (!f.starts_with("--") && (f.contains('r'))))
}

/// What a line deletes that it must not.
fn destructive(lower: &str, cmds: &[Command]) -> Option<&'static str> {
    for c in cmds {
        let targets = || c.args.iter().filter(|a| !a.starts_with('-'));
        match c.name {
            "rm" if c.args.contains(&"--no-preserve-root") => return Some("a delete of the root (--no-preserve-root)"),
            "rm" if recursive(c) && targets().any(|a| is_top(a)) => {
                return Some("a recursive delete of the root, the home directory or a system directory")
            }
            "find"
                if c.args.first().is_some_and(|a| is_top(a))
                    && c.args.iter().any(|a| *a == "-delete" || *a == "rm") =>
            {
                return Some("a find that deletes under the root or the home directory")
            }
            "dd" if c.args.iter().any(|a| a.starts_with("of=/dev/") && !a.starts_with("of=/dev/null")) => {
                return Some("a disk overwritten with dd")
            }
            name if name.starts_with("mkfs") => return Some("a disk formatted (mkfs)"),
            "remove-item" | "ri" | "rd" | "rmdir" | "del"
                if (c.args.iter().any(|a| matches!(*a, "-recurse" | "/s" | "-r"))) && targets().any(|a| is_top(a)) =>
            {
                return Some("a recursive delete of a drive or the home directory")
            }
            _ => {}
        }
    }
    const HOME_EXPRS: [&str; 9] = [
        "expanduser(\"~\")",
        "expanduser('~')",
        "path.home()",
        "homedir()",
        "environ[\"home\"]",
        "environ['home']",
        "getenv(\"home\")",
        "(\"/\")",
        "('/')",
    ];
    let deletes = ["rmtree(", "rmsync(", "rimraf", "fs.rm(", "remove-item"].iter().any(|d| lower.contains(d));
    if deletes && HOME_EXPRS.iter().any(|h| lower.contains(h)) {
        return Some("a recursive delete of the root or the home directory");
    }
    if lower.contains(":(){") && lower.contains(":|:") {
        return Some("a fork bomb");
    }
    None
}

/// What a line changes of permissions that it must not.
fn permission(lower: &str, cmds: &[Command]) -> Option<&'static str> {
    for c in cmds {
        match c.name {
            "chmod" => {
                let mode =
                    c.args.iter().copied().find(|a| !a.starts_with('-') || a.starts_with("-w")).unwrap_or_default();
                let mode = unquoted(mode);
                let targets = c.args.iter().skip_while(|a| a.starts_with('-')).skip(1);
                if matches!(
                    mode,
                    "777" | "0777" | "666" | "0666" | "a+rwx" | "ugo+rwx" | "a+w" | "o+w" | "o+rwx" | "go+w"
                ) {
                    return Some("a world-writable permission");
                }
                let octal = mode.len() == 4 && mode.bytes().all(|b| (b'0'..=b'7').contains(&b));
                if mode.contains("+s") || (octal && matches!(mode.as_bytes().first(), Some(b'2' | b'4' | b'6'))) {
                    return Some("a setuid or setgid permission");
                }
                if recursive(c) && targets.clone().any(|a| is_system(a)) {
                    return Some("a recursive permission change of a system or home directory");
                }
            }
            "chown" | "chgrp" => {
                let targets = c.args.iter().filter(|a| !a.starts_with('-')).skip(1);
                if targets.clone().any(|a| is_system(a) && (recursive(c) || !is_top(a))) {
                    return Some("an ownership change of a system path");
                }
            }
            "icacls" if lower.contains("everyone:") => return Some("a permission granted to everyone"),
            _ => {}
        }
    }
    if lower.contains("nopasswd") {
        return Some("sudo without a password (NOPASSWD)");
    }
    if lower.contains("/etc/sudoers") && writes(lower, "/etc/sudoers") {
        return Some("the sudoers file written");
    }
    None
}

/// Whether the line writes to `path`: a redirect into it, a command that writes it (tee, cp, mv,
/// ln, install, sed -i, PowerShell's content cmdlets), or a file opened for writing or appending.
pub(super) fn writes(lower: &str, path: &str) -> bool {
    let redirected = lower.match_indices(path).any(|(at, _)| {
        // The text before the word that holds the path.
        let start = lower.get(..at).and_then(|s| s.rfind(|c: char| c.is_whitespace() || c == '>')).map_or(0, |i| i + 1);
        lower.get(..start).unwrap_or_default().trim_end().ends_with('>')
    });
    const WRITERS: [&str; 12] = [
        "tee",
        "cp",
        "mv",
        "ln",
        "install",
        "rsync",
        "add-content",
        "set-content",
        "out-file",
        "copy-item",
        "move-item",
        "ditto",
    ];
    let written = || {
        commands(lower).iter().any(|c| {
            let writer = WRITERS.contains(&c.name) || (c.name == "sed" && c.args.iter().any(|a| a.starts_with("-i")));
            writer && c.args.iter().any(|a| a.contains(path))
        })
    };
    let opened = || {
        (lower.contains("open(")
            && ["'a'", "\"a\"", "'w'", "\"w\"", "'a+'", "\"a+\""].iter().any(|m| lower.contains(m)))
            || ["appendfile", "writefile", "write_text(", "appendfilesync", "writefilesync"]
                .iter()
                .any(|w| lower.contains(w))
    };
    redirected || written() || opened()
}

/// Shell startup files: a line written to one runs in every shell.
const PROFILES: [&str; 14] = [
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    "/.profile",
    "config.fish",
    "/etc/profile",
    "/etc/bash.bashrc",
    "/etc/environment",
    "$profile",
    "powershell_profile.ps1",
];

/// Places from which a program starts again by itself.
const AUTOSTART_PLACES: [&str; 10] = [
    "library/launchagents",
    "library/launchdaemons",
    "/etc/systemd/system",
    ".config/systemd/user",
    ".config/autostart",
    "/etc/rc.local",
    "/etc/init.d/",
    "/etc/cron",
    "/var/spool/cron",
    "authorized_keys",
];

/// How a line makes something start again by itself.
fn persistence(c: &Cmd) -> Option<&'static str> {
    let lower = c.code;
    if c.has(PROFILE_FILE) && PROFILES.iter().any(|p| lower.contains(*p) && writes(lower, p)) {
        return Some("a shell startup file written");
    }
    if c.has(AUTOSTART) {
        if let Some(p) = AUTOSTART_PLACES.iter().find(|p| lower.contains(*p) && writes(lower, p)) {
            return Some(if p.contains("authorized_keys") {
                "a key added to authorized_keys"
            } else {
                "a program installed to start by itself"
            });
        }
    }
    if !c.has(PERSIST_CMD) {
        return None;
    }
    for x in c.commands() {
        match x.name {
            "crontab" if !x.args.iter().all(|a| matches!(*a, "-l" | "-r" | "-u")) || x.piped || x.args.is_empty() => {
                return Some("a crontab installed")
            }
            "launchctl" if x.args.first().is_some_and(|a| matches!(*a, "load" | "bootstrap" | "enable" | "submit")) => {
                return Some("a launch agent loaded")
            }
            "systemctl" if x.args.contains(&"enable") => return Some("a systemd unit enabled"),
            "schtasks" if x.args.contains(&"/create") => return Some("a scheduled task created"),
            "reg" if lower.contains("currentversion\\run") => return Some("a Run key added"),
            "register-scheduledtask" | "new-scheduledtask" => return Some("a scheduled task created"),
            _ => {}
        }
    }
    lower.contains("@reboot").then_some("a cron entry run at every boot")
}

/// How a line switches the shell's history off or erases it.
fn history(lower: &str, cmds: &[Command]) -> Option<&'static str> {
    const SETTINGS: [&str; 8] = [
        "unset histfile",
        "histfile=/dev/null",
        "histsize=0",
        "histfilesize=0",
        "savehist=0",
        "set +o history",
        "clear-history",
        "histfile=\"\"",
    ];
    if let Some(s) = SETTINGS.iter().find(|s| lower.contains(*s)) {
        return Some(if s.contains("clear") { "the shell history cleared" } else { "the shell history switched off" });
    }
    for c in cmds {
        if c.name == "history" && c.args.first().is_some_and(|a| matches!(*a, "-c" | "-w" | "-cw")) {
            return Some("the shell history cleared");
        }
        let erases = matches!(c.name, "rm" | "shred" | "truncate" | "ln" | "unlink");
        if erases && c.args.iter().any(|a| a.contains("_history") || a.contains("historysavepath")) {
            return Some("the shell history erased");
        }
    }
    if ["_history", "historysavepath"].iter().any(|h| lower.contains(h) && lower.contains("> ~/") && writes(lower, h)) {
        return Some("the shell history erased");
    }
    None
}
