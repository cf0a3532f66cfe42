//! The lockfile's types, declared once: serde reads and writes them, tsify gives their
//! TypeScript. [`lockfile_from_json`] reads one with bounds and says what is wrong.

use serde::{Deserialize, Serialize};
use serde_json::Value;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The version this module reads and writes.
pub const LOCKFILE_VERSION: u32 = 1;

/// The file name a project keeps its lockfile under.
pub const LOCKFILE_NAME: &str = "skills-lock.json";

/// The most entries a lockfile may hold (one per skill of a large registry).
pub const MAX_LOCK_ENTRIES: usize = 100_000;

/// The longest string a lockfile entry may hold, in bytes.
const MAX_FIELD_BYTES: usize = 4096;

/// A lockfile: the pinned skills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Lockfile {
    /// The format's version: 1.
    pub lockfile_version: u32,
    /// The pinned skills, sorted by scope, then name.
    pub skills: Vec<LockEntry>,
}

/// One pinned skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LockEntry {
    /// The skill's name.
    pub name: String,
    /// The scope it is found in (`project`, `user` … or one the host names).
    pub scope: String,
    /// Where it came from.
    pub source: LockSource,
    /// Where it was put, as the registry shows its directory (e.g. `.agents/skills/pdf`).
    pub location: String,
    /// Its content digest, `sha256:<64 lowercase hex>`.
    pub digest: String,
}

/// Where a pinned skill came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(tag = "type", rename_all = "camelCase", deny_unknown_fields)]
pub enum LockSource {
    /// A directory on disk.
    Directory {
        /// Its path, as it was given.
        path: String,
    },
    /// A zip or tar.gz archive.
    Archive {
        /// Its URL or path.
        url: String,
    },
    /// An entry of an Agent Skills Discovery index.
    Discovery {
        /// The index's URL.
        url: String,
        /// The entry's name.
        name: String,
    },
    /// A skill of an MCP server (the Skills extension).
    Mcp {
        /// The host's label for the server.
        server: String,
        /// The skill's `skill://` URI.
        uri: String,
        /// How the server is reached, so that a tool can fetch the skill again:
        /// `mcp+http://…` or `mcp+https://…` (Streamable HTTP at that URL) or
        /// `mcp+stdio:<command line>` (the command spawned, speaking MCP on stdio). Absent when
        /// the host connects by its own configuration.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "tsify", tsify(optional))]
        connection: Option<String>,
    },
    /// A folder of an npm package.
    Npm {
        /// The package, with its version (`name@1.2.3`).
        package: String,
        /// The skill's folder within it.
        path: String,
    },
    /// A folder of a git repository.
    Git {
        /// The repository (a URL or a local path).
        repository: String,
        /// The ref asked for (a branch, a tag), `HEAD` when none was.
        #[serde(rename = "ref")]
        reference: String,
        /// The commit it resolved to.
        commit: String,
        /// The skill's folder within it (empty for the repository's root).
        path: String,
    },
}

impl LockSource {
    /// Every string the source holds, to bound them.
    fn strings(&self) -> Vec<&str> {
        match self {
            LockSource::Directory { path } => vec![path],
            LockSource::Archive { url } => vec![url],
            LockSource::Discovery { url, name } => vec![url, name],
            LockSource::Mcp { server, uri, connection } => {
                let mut all = vec![server.as_str(), uri.as_str()];
                all.extend(connection.as_deref());
                all
            }
            LockSource::Npm { package, path } => vec![package, path],
            LockSource::Git { repository, reference, commit, path } => vec![repository, reference, commit, path],
        }
    }
}

impl Lockfile {
    /// A lockfile of `skills`, sorted as the format wants.
    pub fn new(mut skills: Vec<LockEntry>) -> Lockfile {
        skills.sort_by(|a, b| (&a.scope, &a.name).cmp(&(&b.scope, &b.name)));
        Lockfile { lockfile_version: LOCKFILE_VERSION, skills }
    }

    /// The entry of `name` in `scope`.
    pub fn entry(&self, scope: &str, name: &str) -> Option<&LockEntry> {
        self.skills
            .binary_search_by(|e| (e.scope.as_str(), e.name.as_str()).cmp(&(scope, name)))
            .ok()
            .and_then(|i| self.skills.get(i))
    }
}

/// Reads a lockfile (the parsed JSON of `skills-lock.json`): version 1, at most
/// [`MAX_LOCK_ENTRIES`] entries, each string non-empty where it names something and at most 4 KiB,
/// each digest `sha256:<64 lowercase hex>`, each (scope, name) once. The entries may come in any
/// order; they are sorted. The error says which entry is wrong and why.
pub fn lockfile_from_json(v: &Value) -> Result<Lockfile, String> {
    let version = v.get("lockfileVersion").and_then(Value::as_u64);
    if version != Some(u64::from(LOCKFILE_VERSION)) {
        return Err(match version {
            Some(n) => format!("lockfileVersion {n} is not {LOCKFILE_VERSION}, the version this package reads"),
            None => "is not a lockfile: lockfileVersion is missing".into(),
        });
    }
    if let Some(n) = v.get("skills").and_then(Value::as_array).map(Vec::len).filter(|&n| n > MAX_LOCK_ENTRIES) {
        return Err(format!("has {n} skills, more than {MAX_LOCK_ENTRIES}"));
    }
    // Read from the value in place (no copy of a lockfile of 100,000 entries).
    let lock = Lockfile::deserialize(v).map_err(|e| e.to_string())?;
    for (i, e) in lock.skills.iter().enumerate() {
        let named = [e.name.as_str(), &e.scope, &e.location];
        if named.iter().any(|s| s.is_empty()) {
            return Err(format!("skills[{i}]: name, scope and location must not be empty"));
        }
        if named.iter().chain(e.source.strings().iter()).any(|s| s.len() > MAX_FIELD_BYTES) {
            return Err(format!("skills[{i}]: a field is longer than {MAX_FIELD_BYTES} bytes"));
        }
        if !crate::consent::is_content_digest(&e.digest) {
            return Err(format!("skills[{i}].digest must be sha256:<64 lowercase hex>"));
        }
    }
    let lock = Lockfile::new(lock.skills);
    if let Some(w) = lock.skills.windows(2).find(|w| (&w[0].scope, &w[0].name) == (&w[1].scope, &w[1].name)) {
        return Err(format!("the skill '{}' of scope '{}' is pinned twice", w[0].name, w[0].scope));
    }
    Ok(lock)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const D: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";

    fn entry(scope: &str, name: &str) -> Value {
        json!({ "name": name, "scope": scope, "location": format!(".agents/skills/{name}"), "digest": D,
                "source": { "type": "git", "repository": "https://example.com/s.git", "ref": "main", "commit": "abc", "path": name } })
    }

    #[test]
    fn a_lockfile_round_trips_sorted() {
        let v = json!({ "lockfileVersion": 1, "skills": [entry("user", "b"), entry("project", "z"), entry("project", "a")] });
        let lock = lockfile_from_json(&v).expect("read");
        let order: Vec<_> = lock.skills.iter().map(|e| (e.scope.as_str(), e.name.as_str())).collect();
        assert_eq!(order, [("project", "a"), ("project", "z"), ("user", "b")]);
        assert_eq!(lock.entry("project", "z").map(|e| e.digest.as_str()), Some(D));
        assert!(lock.entry("user", "a").is_none());
        let again = lockfile_from_json(&serde_json::to_value(&lock).expect("json")).expect("again");
        assert_eq!(again, lock);
        let text = serde_json::to_string(&lock.skills[0].source).expect("json");
        assert!(text.contains("\"type\":\"git\"") && text.contains("\"ref\":\"main\""), "{text}");
    }

    #[test]
    fn bad_lockfiles_say_what_is_wrong() {
        let with = |f: &dyn Fn(&mut Value)| {
            let mut v = json!({ "lockfileVersion": 1, "skills": [entry("project", "a")] });
            f(&mut v);
            lockfile_from_json(&v).expect_err("refused")
        };
        assert!(with(&|v| v["lockfileVersion"] = json!(2)).contains("lockfileVersion 2"));
        assert!(with(&|v| v["lockfileVersion"] = Value::Null).contains("missing"));
        assert!(with(&|v| v["skills"][0]["digest"] = json!("sha256:xy")).contains("skills[0].digest"));
        assert!(with(&|v| v["skills"][0]["extra"] = json!(1)).contains("extra"));
        assert!(with(&|v| v["skills"][0]["source"] = json!({ "type": "ftp", "url": "x" })).contains("ftp"));
        assert!(with(&|v| v["skills"][0]["name"] = json!("")).contains("empty"));
        assert!(with(&|v| v["skills"][0]["location"] = json!("x".repeat(5000))).contains("longer"));
        assert!(with(&|v| v["skills"] = json!([entry("project", "a"), entry("project", "a")])).contains("twice"));
        assert!(lockfile_from_json(&json!([])).is_err());
    }

    #[test]
    fn an_mcp_source_keeps_its_connection_when_it_has_one() {
        let mcp = |source: Value| {
            let mut e = entry("project", "a");
            e["source"] = source;
            lockfile_from_json(&json!({ "lockfileVersion": 1, "skills": [e] }))
        };
        let without = mcp(json!({ "type": "mcp", "server": "acme", "uri": "skill://a/SKILL.md" })).expect("read");
        let text = serde_json::to_string(&without.skills[0].source).expect("json");
        assert!(!text.contains("connection"), "{text}");
        let stdio = "mcp+stdio:node serve.mjs";
        let with = mcp(json!({ "type": "mcp", "server": "acme", "uri": "skill://a/SKILL.md", "connection": stdio }))
            .expect("read");
        let LockSource::Mcp { connection, .. } = &with.skills[0].source else { panic!("not mcp") };
        assert_eq!(connection.as_deref(), Some(stdio));
        let again = lockfile_from_json(&serde_json::to_value(&with).expect("json")).expect("again");
        assert_eq!(again, with);
        let long =
            json!({ "type": "mcp", "server": "acme", "uri": "skill://a/SKILL.md", "connection": "x".repeat(5000) });
        assert!(mcp(long).expect_err("refused").contains("longer"));
    }
}
