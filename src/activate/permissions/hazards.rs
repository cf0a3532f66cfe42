//! Programs and options that make an allowed command run another program.
//!
//! A pattern allows what it names. `Bash(git:*)` names git, not what git runs for `-c
//! alias.x='!cmd'`; `Bash(* --version)` names no program at all, so it does not allow
//! `sh -c 'rm -rf ~' --version`. Each hazard below is a word that must appear in the pattern
//! itself for a command that has it to be allowed.

/// Programs (and builtins) that run their arguments, or code given in them, as commands.
const RUNNERS: &[&str] = &[
    ".",
    "bash",
    "builtin",
    "bun",
    "bunx",
    "busybox",
    "chroot",
    "chrt",
    "command",
    "csh",
    "dash",
    "deno",
    "doas",
    "enable",
    "env",
    "eval",
    "exec",
    "expect",
    "fish",
    "flock",
    "ionice",
    "ksh",
    "ltrace",
    "lua",
    "mksh",
    "nice",
    "node",
    "nohup",
    "nsenter",
    "npx",
    "osascript",
    "parallel",
    "perl",
    "php",
    "pkexec",
    "pnpx",
    "python",
    "python2",
    "python3",
    "ruby",
    "runuser",
    "script",
    "setsid",
    "sh",
    "source",
    "stdbuf",
    "strace",
    "su",
    "sudo",
    "taskset",
    "tcsh",
    "time",
    "timeout",
    "trap",
    "unshare",
    "uvx",
    "watch",
    "xargs",
    "zsh",
];

/// Per program: options (a word equal to one, or starting with one followed by `=` or, for a
/// short option, anything) that make it run another program or write where it was not asked to.
const OPTIONS: &[(&str, &[&str])] = &[
    ("fd", &["-x", "--exec", "-X", "--exec-batch"]),
    ("fdfind", &["-x", "--exec", "-X", "--exec-batch"]),
    ("find", &["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]),
    ("man", &["-P", "--pager", "-H", "--html"]),
    ("npm", &["exec", "x", "explore", "-c", "--call"]),
    ("nvim", &["-c", "--cmd", "-S"]),
    ("rg", &["--pre", "-z", "--search-zip"]),
    ("rsync", &["-e", "--rsh", "--rsync-path"]),
    ("scp", &["-o", "-F", "-S"]),
    ("sftp", &["-o", "-F", "-S"]),
    ("ssh", &["-o", "-F"]),
    (
        "tar",
        &[
            "--to-command",
            "--use-compress-program",
            "-I",
            "--checkpoint-action",
            "--info-script",
            "--new-volume-script",
            "-F",
            "--rsh-command",
            "--rmt-command",
        ],
    ),
    ("vi", &["-c", "--cmd", "-S"]),
    ("vim", &["-c", "--cmd", "-S"]),
    ("zip", &["-TT", "--unzip-command"]),
];

/// git's options before its subcommand that configure what it runs, or page its output.
const GIT_GLOBAL: &[&str] = &["-c", "--config-env", "--exec-path=", "-p", "--paginate", "--help"];
/// git's global options that take the next word as their value.
const GIT_GLOBAL_WITH_VALUE: &[&str] = &["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"];
/// git subcommands that run other programs by design.
const GIT_RUNNING_SUBCOMMANDS: &[&str] = &["difftool", "mergetool", "filter-branch", "instaweb", "web--browse", "help"];
/// Options of git subcommands that run a command given to them.
const GIT_OPTIONS: &[(&str, &[&str])] = &[
    ("archive", &["--exec", "--remote"]),
    ("bisect", &["run"]),
    ("clone", &["-u", "--upload-pack", "--template", "-c", "--config"]),
    ("fetch", &["--upload-pack"]),
    ("grep", &["-O", "--open-files-in-pager"]),
    ("init", &["--template"]),
    ("ls-remote", &["--upload-pack"]),
    ("pull", &["--upload-pack"]),
    ("push", &["--receive-pack", "--exec"]),
    ("rebase", &["-x", "--exec"]),
    ("send-pack", &["--receive-pack", "--exec"]),
    ("submodule", &["foreach"]),
];

/// The program a command runs, by the last segment of its first word.
fn program(words: &[String]) -> &str {
    let first = words.first().map(String::as_str).unwrap_or("");
    first.rsplit('/').next().unwrap_or(first)
}

/// Whether `word` is `option` or carries its value (`--opt=value`, `-Xvalue` for short options).
fn is_option(word: &str, option: &str) -> bool {
    if word == option || option.ends_with('=') && word.starts_with(option) {
        return true;
    }
    if option.starts_with("--") {
        return word.strip_prefix(option).is_some_and(|r| r.starts_with('='));
    }
    // `-c` matches `-cfoo`; a word like `-abc` with the option's letter inside is not read as a
    // bundle: the hazards' short options take values, which ends a bundle.
    option.len() == 2 && option.starts_with('-') && word.starts_with(option)
}

/// The hazards of one command (its words after quote removal): each a word that the pattern must
/// name for the command to be allowed.
pub(super) fn hazards(words: &[String]) -> Vec<String> {
    let prog = program(words);
    let mut out = Vec::new();
    if RUNNERS.contains(&prog) {
        out.push(prog.to_string());
    }
    let args = words.get(1..).unwrap_or(&[]);
    if let Some((_, opts)) = OPTIONS.iter().find(|(p, _)| *p == prog) {
        for w in args {
            if let Some(o) = opts.iter().find(|o| is_option(w, o)) {
                out.push(o.trim_end_matches('=').to_string());
            }
        }
    }
    if prog == "git" {
        git_hazards(args, &mut out);
    }
    out
}

fn git_hazards(args: &[String], out: &mut Vec<String>) {
    let mut i = 0;
    let mut sub: Option<&str> = None;
    while let Some(w) = args.get(i) {
        if !w.starts_with('-') {
            sub = Some(w);
            break;
        }
        if let Some(o) = GIT_GLOBAL.iter().find(|o| is_option(w, o)) {
            out.push(o.trim_end_matches('=').to_string());
        }
        i += if GIT_GLOBAL_WITH_VALUE.contains(&w.as_str()) { 2 } else { 1 };
    }
    let Some(sub) = sub else {
        return;
    };
    if GIT_RUNNING_SUBCOMMANDS.contains(&sub) {
        out.push(sub.to_string());
    }
    let rest = args.get(i + 1..).unwrap_or(&[]);
    if rest.iter().any(|w| w == "--help") {
        out.push("--help".to_string());
    }
    if let Some((_, opts)) = GIT_OPTIONS.iter().find(|(s, _)| *s == sub) {
        for w in rest {
            if let Some(o) = opts.iter().find(|o| if o.starts_with('-') { is_option(w, o) } else { w == *o }) {
                out.push(o.to_string());
            }
        }
    }
}

/// Whether a pattern's literal words name `hazard`: a word equal to it (a program also by a
/// path ending in it), or, for an option, a word that starts with it.
pub(super) fn named(pattern_words: &[String], hazard: &str) -> bool {
    pattern_words.iter().any(|w| {
        w == hazard
            || (!hazard.starts_with('-') && w.rsplit('/').next() == Some(hazard))
            || (hazard.starts_with('-') && w.starts_with(hazard))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(cmd: &str) -> Vec<String> {
        hazards(&cmd.split(' ').map(str::to_string).collect::<Vec<_>>())
    }

    #[test]
    fn git_options_that_run_programs() {
        assert_eq!(h("git -c alias.x=!cmd x"), ["-c"]);
        assert_eq!(h("git -c core.pager=cmd -p log"), ["-c", "-p"]);
        assert_eq!(h("git --config-env=core.pager=X log"), ["--config-env"]);
        assert_eq!(h("git -C dir fetch --upload-pack=cmd"), ["--upload-pack"]);
        assert_eq!(h("git clone -u cmd url"), ["-u"]);
        assert_eq!(h("git rebase -x cmd main"), ["-x"]);
        assert_eq!(h("git bisect run cmd"), ["run"]);
        assert_eq!(h("git submodule foreach cmd"), ["foreach"]);
        assert_eq!(h("git difftool"), ["difftool"]);
        assert_eq!(h("git status --help"), ["--help"]);
        assert!(h("git status").is_empty());
        assert!(h("git log --oneline -5").is_empty());
        assert!(h("git add -u").is_empty(), "-u of add is not clone's");
        assert!(h("git cherry-pick -x abc").is_empty(), "-x of cherry-pick is not rebase's");
        assert!(h("git -C -c status").is_empty(), "the value of -C is not an option");
    }

    #[test]
    fn runners_and_other_programs() {
        assert_eq!(h("xargs rm"), ["xargs"]);
        assert_eq!(h("/usr/bin/env rm"), ["env"]);
        assert_eq!(h("sh -c x"), ["sh"]);
        assert_eq!(h("find . -name x -exec rm {} ;"), ["-exec"]);
        assert_eq!(h("find . -delete"), ["-delete"]);
        assert_eq!(h("rg --pre=cmd x"), ["--pre"]);
        assert_eq!(h("ssh -oProxyCommand=x host"), ["-o"]);
        assert!(h("find . -name x").is_empty());
        assert!(h("ls -la").is_empty());
    }

    #[test]
    fn patterns_name_hazards() {
        let p = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert!(named(&p("git -c:*"), "-c"));
        assert!(named(&p("find . -exec"), "-exec"));
        assert!(named(&p("/usr/bin/env"), "env"));
        assert!(!named(&p("git"), "-c"));
        assert!(!named(&p("* --version"), "sh"));
    }
}
