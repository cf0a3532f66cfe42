//! Words: the trigger table that tells, word by word, which checks a line needs.
//!
//! A word is a run of ASCII letters, digits and `_`, compared without case. Each trigger word
//! names the families of checks it calls for ([`INSTR`], [`NET`] ...) and, for a word that starts
//! phrases aimed at the model, its phrase group ([`super::instructions`]). The table is an open
//! addressing hash table built at compile time: a word that is no trigger costs one hash (taken
//! as the word is read) and one probe.

/// A set of families of checks, one bit each.
pub type Families = u32;

/// Phrases aimed at the model ([`super::instructions`]).
pub const INSTR: Families = 1;
/// Network sends (curl, wget, nc, requests ...).
pub const NET: Families = 1 << 1;
/// Secrets: SSH keys.
pub const SSH_KEY: Families = 1 << 16;
/// Secrets: AWS credentials.
pub const AWS_KEY: Families = 1 << 17;
/// Secrets: `.env` files and the environment.
pub const ENV_VARS: Families = 1 << 18;
/// Secrets: credential files (`.netrc`, `.npmrc`, `/etc/shadow` ...).
pub const CRED_FILE: Families = 1 << 19;
/// Secrets: cloud and container tools' credentials (kube, docker, gcloud, gh).
pub const CLOUD: Families = 1 << 20;
/// Secrets: the macOS keychain.
pub const KEYCHAIN: Families = 1 << 21;
/// Secrets of any kind.
pub const SECRET: Families = SSH_KEY | AWS_KEY | ENV_VARS | CRED_FILE | CLOUD | KEYCHAIN;
/// Deletes (rm, rmtree, find -delete, mkfs, dd).
pub const DELETE: Families = 1 << 3;
/// Permission changes (chmod, chown, sudoers).
pub const PERM: Families = 1 << 4;
/// Persistence: shell startup files.
pub const PROFILE_FILE: Families = 1 << 22;
/// Persistence: places programs start from (launch agents, systemd units, cron, autostart).
pub const AUTOSTART: Families = 1 << 23;
/// Persistence: commands that install a program to start by itself (crontab, launchctl ...).
pub const PERSIST_CMD: Families = 1 << 24;
/// Persistence of any kind.
pub const PERSIST: Families = PROFILE_FILE | AUTOSTART | PERSIST_CMD;
/// Shell history: the variables that switch it off.
pub const HIST_VAR: Families = 1 << 25;
/// Shell history: the command and its files.
pub const HIST_CMD: Families = 1 << 26;
/// Shell history of any kind.
pub const HIST: Families = HIST_VAR | HIST_CMD;
/// What runs text (eval, exec, sh, bash, iex ...).
pub const EXEC: Families = 1 << 7;
/// Decoders (base64, atob, unhexlify ...).
pub const DECODE: Families = 1 << 8;
/// A word that says the line documents a danger rather than does it (never, avoid, blocked ...).
pub const CUE: Families = 1 << 9;
/// Output (echo, print ...): a script's quoted text on such a line is what the model reads.
pub const OUTPUT: Families = 1 << 10;
/// Agent flags that switch confirmation off (`--dangerously-skip-permissions`).
pub const AGENT: Families = 1 << 11;

/// The families whose checks read commands.
pub const COMMANDS: Families = NET | SECRET | DELETE | PERM | PERSIST | HIST | EXEC | DECODE | AGENT;

/// Phrase groups: the words that start phrases, by what follows them ([`super::instructions`]).
pub mod group {
    /// ignore, disregard, forget, override, discard.
    pub const OVERRIDE: u8 = 1;
    /// you (are now ..., must not tell ...).
    pub const YOU: u8 = 2;
    /// do (not), don('t), never, dont.
    pub const NEGATION: u8 = 3;
    /// without.
    pub const WITHOUT: u8 = 4;
    /// keep, hide (... from the user).
    pub const HIDE: u8 = 5;
    /// user (must not know).
    pub const USER: u8 = 6;
    /// secretly, silently, covertly, stealthily, quietly.
    pub const SECRETLY: u8 = 7;
    /// disable, bypass, circumvent, deactivate, evade, turn (off), switch (off).
    pub const SAFETY: u8 = 8;
    /// reveal, print, output, repeat, show, display, dump, leak, disclose, share, recite.
    pub const REVEAL: u8 = 9;
    /// new (system prompt).
    pub const NEW: u8 = 10;
    /// no (need to ask).
    pub const NO: u8 = 11;
}

/// Every trigger word, lowercase: its families and its phrase group (0: none).
const TRIGGERS: &[(&str, Families, u8)] = &[
    // Phrases aimed at the model.
    ("ignore", INSTR, group::OVERRIDE),
    ("disregard", INSTR, group::OVERRIDE),
    ("forget", INSTR, group::OVERRIDE),
    ("override", INSTR, group::OVERRIDE),
    ("discard", INSTR, group::OVERRIDE),
    ("you", INSTR, group::YOU),
    ("do", INSTR, group::NEGATION),
    ("don", INSTR | CUE, group::NEGATION),
    ("dont", INSTR | CUE, group::NEGATION),
    ("never", INSTR | CUE, group::NEGATION),
    ("without", INSTR, group::WITHOUT),
    ("keep", INSTR, group::HIDE),
    ("hide", INSTR, group::HIDE),
    ("user", INSTR, group::USER),
    ("secretly", INSTR, group::SECRETLY),
    ("silently", INSTR, group::SECRETLY),
    ("covertly", INSTR, group::SECRETLY),
    ("stealthily", INSTR, group::SECRETLY),
    ("quietly", INSTR, group::SECRETLY),
    ("disable", INSTR, group::SAFETY),
    ("bypass", INSTR, group::SAFETY),
    ("circumvent", INSTR, group::SAFETY),
    ("deactivate", INSTR, group::SAFETY),
    ("evade", INSTR, group::SAFETY),
    ("turn", INSTR, group::SAFETY),
    ("switch", INSTR, group::SAFETY),
    ("reveal", INSTR, group::REVEAL),
    ("print", INSTR | OUTPUT, group::REVEAL),
    ("output", INSTR, group::REVEAL),
    ("repeat", INSTR, group::REVEAL),
    ("show", INSTR, group::REVEAL),
    ("display", INSTR, group::REVEAL),
    ("dump", INSTR, group::REVEAL),
    ("leak", INSTR, group::REVEAL),
    ("disclose", INSTR, group::REVEAL),
    ("share", INSTR, group::REVEAL),
    ("recite", INSTR, group::REVEAL),
    ("new", INSTR, group::NEW),
    ("no", INSTR, group::NO),
    // Network sends.
    ("curl", NET, 0),
    ("wget", NET, 0),
    ("nc", NET, 0),
    ("ncat", NET, 0),
    ("netcat", NET, 0),
    ("socat", NET, 0),
    ("telnet", NET, 0),
    ("scp", NET, 0),
    ("sftp", NET, 0),
    ("ftp", NET, 0),
    ("rsync", NET, 0),
    ("fetch", NET, 0),
    ("requests", NET, 0),
    ("httpx", NET, 0),
    ("urllib", NET, 0),
    ("urlopen", NET, 0),
    ("axios", NET, 0),
    ("tcp", NET, 0),
    ("udp", NET, 0),
    ("iwr", NET, 0),
    ("irm", NET, 0),
    ("webrequest", NET, 0),
    ("restmethod", NET, 0),
    ("webclient", NET, 0),
    ("downloadstring", NET, 0),
    ("sendbeacon", NET, 0),
    ("smtplib", NET, 0),
    ("nslookup", NET, 0),
    ("dig", NET, 0),
    // Secrets.
    ("ssh", SSH_KEY, 0),
    ("id_rsa", SSH_KEY, 0),
    ("id_ed25519", SSH_KEY, 0),
    ("id_ecdsa", SSH_KEY, 0),
    ("id_dsa", SSH_KEY, 0),
    ("aws", AWS_KEY, 0),
    ("env", ENV_VARS, 0),
    ("netrc", CRED_FILE, 0),
    ("credentials", CRED_FILE, 0),
    ("printenv", ENV_VARS, 0),
    ("environ", ENV_VARS, 0),
    ("passwd", CRED_FILE, 0),
    ("shadow", CRED_FILE, 0),
    ("npmrc", CRED_FILE, 0),
    ("pypirc", CRED_FILE, 0),
    ("kube", CLOUD, 0),
    ("gnupg", CRED_FILE, 0),
    ("keychain", KEYCHAIN, 0),
    ("gcloud", CLOUD, 0),
    ("docker", CLOUD, 0),
    ("wallet", CRED_FILE, 0),
    ("generic", KEYCHAIN, 0),
    ("gh", CLOUD, 0),
    // Deletes.
    ("rm", DELETE, 0),
    ("rmtree", DELETE, 0),
    ("rmsync", DELETE, 0),
    ("rimraf", DELETE, 0),
    ("delete", DELETE, 0),
    ("mkfs", DELETE, 0),
    ("dd", DELETE, 0),
    ("recurse", DELETE, 0),
    ("rd", DELETE, 0),
    ("del", DELETE, 0),
    // Permissions.
    ("chmod", PERM, 0),
    ("chown", PERM, 0),
    ("chgrp", PERM, 0),
    ("sudoers", PERM, 0),
    ("nopasswd", PERM, 0),
    ("icacls", PERM, 0),
    // Persistence.
    ("crontab", PERSIST_CMD, 0),
    ("cron", AUTOSTART, 0),
    ("bashrc", PROFILE_FILE, 0),
    ("bash_profile", PROFILE_FILE, 0),
    ("bash_login", PROFILE_FILE, 0),
    ("zshrc", PROFILE_FILE, 0),
    ("zprofile", PROFILE_FILE, 0),
    ("zshenv", PROFILE_FILE, 0),
    ("zlogin", PROFILE_FILE, 0),
    ("profile", PROFILE_FILE, 0),
    ("fish", PROFILE_FILE | EXEC, 0),
    ("environment", PROFILE_FILE, 0),
    ("launchagents", AUTOSTART, 0),
    ("launchdaemons", AUTOSTART, 0),
    ("launchctl", PERSIST_CMD, 0),
    ("systemctl", PERSIST_CMD, 0),
    ("systemd", AUTOSTART, 0),
    ("autostart", AUTOSTART, 0),
    ("rc", AUTOSTART, 0),
    ("init", AUTOSTART, 0),
    ("authorized_keys", AUTOSTART, 0),
    ("schtasks", PERSIST_CMD, 0),
    ("currentversion", PERSIST_CMD, 0),
    ("scheduledtask", PERSIST_CMD, 0),
    ("reboot", PERSIST_CMD, 0),
    // History.
    ("histfile", HIST_VAR, 0),
    ("histsize", HIST_VAR, 0),
    ("histfilesize", HIST_VAR, 0),
    ("savehist", HIST_VAR, 0),
    ("history", HIST_CMD, 0),
    ("bash_history", HIST_CMD, 0),
    ("zsh_history", HIST_CMD, 0),
    ("consolehost_history", HIST_CMD, 0),
    // What runs text.
    ("eval", EXEC, 0),
    ("exec", EXEC, 0),
    ("execsync", EXEC, 0),
    ("iex", EXEC, 0),
    ("expression", EXEC, 0),
    ("function", EXEC, 0),
    ("compile", EXEC, 0),
    ("system", EXEC, 0),
    ("popen", EXEC, 0),
    ("subprocess", EXEC, 0),
    ("sh", EXEC, 0),
    ("bash", EXEC, 0),
    ("zsh", EXEC, 0),
    ("dash", EXEC, 0),
    ("ksh", EXEC, 0),
    ("source", EXEC, 0),
    ("python", EXEC, 0),
    ("python3", EXEC, 0),
    ("perl", EXEC, 0),
    ("ruby", EXEC, 0),
    ("node", EXEC, 0),
    ("php", EXEC, 0),
    ("powershell", EXEC | DECODE, 0),
    ("pwsh", EXEC | DECODE, 0),
    // Decoders.
    ("base64", DECODE, 0),
    ("b64decode", DECODE, 0),
    ("b32decode", DECODE, 0),
    ("b85decode", DECODE, 0),
    ("decodebytes", DECODE, 0),
    ("atob", DECODE, 0),
    ("decode64", DECODE, 0),
    ("base64_decode", DECODE, 0),
    ("decode_base64", DECODE, 0),
    ("frombase64string", DECODE, 0),
    ("unhexlify", DECODE, 0),
    ("fromhex", DECODE, 0),
    ("xxd", DECODE, 0),
    ("codecs", DECODE, 0),
    ("rot13", DECODE, 0),
    ("rot_13", DECODE, 0),
    ("marshal", DECODE, 0),
    ("gzinflate", DECODE, 0),
    ("decompress", DECODE, 0),
    ("encodedcommand", DECODE, 0),
    ("enc", DECODE, 0),
    // Cues that a line documents a danger.
    ("avoid", CUE, 0),
    ("dangerous", CUE, 0),
    ("danger", CUE, 0),
    ("destructive", CUE, 0),
    ("malicious", CUE, 0),
    ("attacker", CUE, 0),
    ("attack", CUE, 0),
    ("exploit", CUE, 0),
    ("blocked", CUE, 0),
    ("block", CUE, 0),
    ("blocks", CUE, 0),
    ("deny", CUE, 0),
    ("denied", CUE, 0),
    ("forbidden", CUE, 0),
    ("prohibited", CUE, 0),
    ("refuse", CUE, 0),
    ("reject", CUE, 0),
    ("unsafe", CUE, 0),
    ("bad", CUE, 0),
    ("wrong", CUE, 0),
    ("vulnerable", CUE, 0),
    ("risky", CUE, 0),
    ("warning", CUE, 0),
    // Output.
    ("echo", OUTPUT, 0),
    ("printf", OUTPUT, 0),
    ("puts", OUTPUT, 0),
    ("log", OUTPUT, 0),
    ("write", OUTPUT, 0),
    ("cat", OUTPUT, 0),
    // Agent flags.
    ("dangerously", AGENT, 0),
    ("bypasspermissions", AGENT, 0),
    ("dangerouslydisablesandbox", AGENT, 0),
    ("yolo", AGENT, 0),
];

/// Slots of the table: a power of two, about four per trigger word.
const SLOTS: usize = 1024;

/// The lowercase form of an ASCII byte (others unchanged).
#[inline(always)]
pub const fn lower(b: u8) -> u8 {
    if b.is_ascii_uppercase() {
        b + 32
    } else {
        b
    }
}

/// The hash of a word, one byte at a time (FNV-1a over the lowercase bytes): `step` from
/// [`HASH_START`] over each byte.
#[inline(always)]
pub const fn step(h: u32, b: u8) -> u32 {
    (h ^ lower(b) as u32).wrapping_mul(16_777_619)
}

/// The hash of the empty word.
pub const HASH_START: u32 = 2_166_136_261;

const fn hash(word: &[u8]) -> u32 {
    let mut h = HASH_START;
    let mut i = 0;
    while i < word.len() {
        h = step(h, word[i]);
        i += 1;
    }
    h
}

/// Slot -> 1 + the index of its trigger (0: empty).
const TABLE: [u16; SLOTS] = build();

const fn build() -> [u16; SLOTS] {
    let mut t = [0u16; SLOTS];
    let mut i = 0;
    while i < TRIGGERS.len() {
        let mut s = hash(TRIGGERS[i].0.as_bytes()) as usize & (SLOTS - 1);
        while t[s] != 0 {
            s = (s + 1) & (SLOTS - 1);
        }
        t[s] = (i + 1) as u16;
        i += 1;
    }
    t
}

/// Whether `c` is a byte of a word.
#[inline(always)]
pub fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The index of a word's first or last byte in [`SHAPES`]: a letter's place in the alphabet,
/// 26 for anything else.
const fn letter(b: u8) -> usize {
    LETTERS[b as usize] as usize
}

const LETTERS: [u8; 256] = {
    let mut t = [26u8; 256];
    let mut b = 0;
    while b < 256 {
        let l = lower(b as u8);
        if l.is_ascii_lowercase() {
            t[b] = l - b'a';
        }
        b += 1;
    }
    t
};

/// A bit per shape of a trigger word: its first, second, second-to-last and last letters and its
/// length, mixed into one of 16,384 bits (a word of another shape lands on a set bit about once in
/// 70). A word whose shape has no bit is passed over without a hash or a probe: most words of a
/// text.
const SHAPES: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < TRIGGERS.len() {
        let b = shape(TRIGGERS[i].0.as_bytes());
        t[b >> 6] |= 1 << (b & 63);
        i += 1;
    }
    t
};

/// The bit of `word`'s shape in [`SHAPES`] (a word of 1 to 31 bytes).
#[inline(always)]
const fn shape(word: &[u8]) -> usize {
    let n = word.len();
    let (a, z) = if n > 2 { (1, n - 2) } else { (0, n - 1) };
    let key = ((((letter(word[0]) * 27 + letter(word[a])) * 27 + letter(word[z])) * 27 + letter(word[n - 1])) << 5) | n;
    ((key as u32).wrapping_mul(2_654_435_761) >> 18) as usize
}

/// Whether some trigger word may have the shape of `word`.
#[inline(always)]
pub fn may_trigger(word: &[u8]) -> bool {
    if word.is_empty() || word.len() >= 32 {
        return false;
    }
    let b = shape(word);
    SHAPES[b >> 6] & (1 << (b & 63)) != 0
}

/// The hash of `word` (see [`step`]).
#[inline]
pub fn hash_of(word: &[u8]) -> u32 {
    word.iter().fold(HASH_START, |h, &b| step(h, b))
}

/// The families and phrase group of `word` (whose hash is `h`): `(0, 0)` for a word that is no
/// trigger.
#[inline]
pub fn lookup(word: &[u8], h: u32) -> (Families, u8) {
    let mut s = h as usize & (SLOTS - 1);
    loop {
        let Some(&e) = TABLE.get(s) else { return (0, 0) };
        let Some(&(w, families, group)) = (e as usize).checked_sub(1).and_then(|i| TRIGGERS.get(i)) else {
            return (0, 0);
        };
        if w.len() == word.len() && w.as_bytes().eq_ignore_ascii_case(word) {
            return (families, group);
        }
        s = (s + 1) & (SLOTS - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trigger_is_found_and_others_are_not() {
        for (w, f, g) in TRIGGERS {
            assert_eq!(lookup(w.as_bytes(), hash(w.as_bytes())), (*f, *g), "{w}");
            let upper = w.to_ascii_uppercase();
            assert_eq!(lookup(upper.as_bytes(), hash(upper.as_bytes())), (*f, *g), "{upper}");
        }
        for w in ["the", "skill", "instructions", "curls", "r", ""] {
            assert_eq!(lookup(w.as_bytes(), hash(w.as_bytes())), (0, 0), "{w}");
        }
        let mut seen = std::collections::HashSet::new();
        assert!(TRIGGERS
            .iter()
            .all(|(w, _, _)| seen.insert(*w) && w.bytes().all(|b| is_word(b) && !b.is_ascii_uppercase())));
        assert!(TRIGGERS.len() * 3 < SLOTS);
        assert!(TRIGGERS.iter().all(|(w, _, _)| may_trigger(w.as_bytes()) && w.len() < 32));
        let common =
            ["the", "skill", "what", "have", "then", "could", "while", "where", "format", "report", "and", "with"];
        for w in common {
            assert!(!may_trigger(w.as_bytes()), "{w}");
        }
    }
}
