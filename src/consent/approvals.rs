//! The host's approvals of skills, each for one content digest, and the hook that gives them.

use crate::store::LocalFuture;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

#[cfg(feature = "tsify")]
use tsify::Tsify;

/// The most approvals a registry keeps or restores (one per skill of a large registry).
pub const MAX_APPROVALS: usize = 1_000_000;

/// The longest name, scope or digest an approval may have, in bytes.
const MAX_FIELD_BYTES: usize = 4096;

/// One approval: the skill `name` of `scope`, approved for the content whose digest is `digest`
/// (see [`super::digest`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
pub struct Approval {
    /// The skill's name.
    pub name: String,
    /// The scope it was approved in.
    pub scope: String,
    /// The content digest approved, `sha256:<hex>`.
    pub digest: String,
}

/// Why the host is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "lowercase")]
pub enum ApprovalReason {
    /// The model activates the skill through the skill tool.
    Activate,
    /// The model reads a file of the skill through the skill tool.
    Read,
    /// The user invokes the skill (`/name`, `$name`) in a message.
    Invoke,
}

/// What the host's `approve` hook is asked: may this skill, with this content, be used?
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "tsify", derive(Tsify))]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    /// The skill's name.
    pub name: String,
    /// Its scope.
    pub scope: String,
    /// Where the skill came from, as its store says (the index URL's origin for a discovery
    /// index, `mcp:<server>` for an MCP server); null for a local store.
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub origin: Option<String>,
    /// The content digest the approval is for, `sha256:<hex>`.
    pub digest: String,
    /// The skill's `allowed-tools`: what an approval lets it pre-approve.
    pub allowed_tools: Vec<String>,
    /// Why the host is asked now.
    pub reason: ApprovalReason,
    /// The digest approved before, when the skill was approved for other content (it changed).
    #[cfg_attr(feature = "tsify", tsify(type = "string | null"))]
    pub previous: Option<String>,
}

/// The host's hook: `Ok(true)` approves, `Ok(false)` refuses; an error (a throw, a rejection, an
/// answer that is no boolean, none in time) refuses too.
pub type Approver = Rc<dyn Fn(ApprovalRequest) -> LocalFuture<'static, Result<bool, String>>>;

/// The approvals a registry holds: per skill (scope and name) the one digest approved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Approvals {
    by_skill: BTreeMap<(String, String), String>,
}

impl Approvals {
    /// Whether `name` of `scope` is approved with the content `digest`.
    pub fn approved(&self, scope: &str, name: &str, digest: &str) -> bool {
        self.previous(scope, name) == Some(digest)
    }

    /// The digest `name` of `scope` is approved for, if any.
    pub fn previous(&self, scope: &str, name: &str) -> Option<&str> {
        self.by_skill.get(&(scope.to_string(), name.to_string())).map(String::as_str)
    }

    /// Records an approval (it replaces one for other content of the same skill). Refused when
    /// the registry holds [`MAX_APPROVALS`] approvals of other skills already.
    pub fn approve(&mut self, a: Approval) -> Result<(), String> {
        let key = (a.scope, a.name);
        if self.by_skill.len() >= MAX_APPROVALS && !self.by_skill.contains_key(&key) {
            return Err(format!("more than {MAX_APPROVALS} approvals"));
        }
        self.by_skill.insert(key, a.digest);
        Ok(())
    }

    /// Every approval, by scope then name.
    pub fn list(&self) -> Vec<Approval> {
        self.by_skill
            .iter()
            .map(|((scope, name), digest)| Approval {
                name: name.clone(),
                scope: scope.clone(),
                digest: digest.clone(),
            })
            .collect()
    }

    /// How many approvals there are.
    pub fn len(&self) -> usize {
        self.by_skill.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.by_skill.is_empty()
    }
}

pub use crate::store::sha256::is_sha256_digest as is_content_digest;

/// Reads approvals as a host restores them (`approvals: [{ name, scope, digest }]`, what
/// `registry.approvals()` returned): an array of at most [`MAX_APPROVALS`] objects with exactly
/// those three string keys, each digest `sha256:<64 lowercase hex>`. The error says which entry
/// is wrong and why.
pub fn approvals_from_json(v: &Value) -> Result<Approvals, String> {
    let list = match v {
        Value::Null => return Ok(Approvals::default()),
        Value::Array(list) => list,
        _ => return Err("must be an array of { name, scope, digest }".into()),
    };
    if list.len() > MAX_APPROVALS {
        return Err(format!("has {} entries, more than {MAX_APPROVALS}", list.len()));
    }
    let mut out = Approvals::default();
    for (i, item) in list.iter().enumerate() {
        let Value::Object(o) = item else { return Err(format!("[{i}] must be an object {{ name, scope, digest }}")) };
        if let Some(k) = o.keys().find(|k| !["name", "scope", "digest"].contains(&k.as_str())) {
            return Err(format!("[{i}].{k}: unknown field `{k}`, expected one of `name`, `scope`, `digest`"));
        }
        let field = |k: &str| match o.get(k) {
            Some(Value::String(s)) if !s.is_empty() && s.len() <= MAX_FIELD_BYTES => Ok(s.clone()),
            _ => Err(format!("[{i}].{k} must be a non-empty string")),
        };
        let a = Approval { name: field("name")?, scope: field("scope")?, digest: field("digest")? };
        if !is_content_digest(&a.digest) {
            return Err(format!("[{i}].digest must be sha256:<64 lowercase hex>"));
        }
        out.approve(a)?;
    }
    Ok(out)
}

/// Where a registry's approvals come from, as its `approvals` option says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovalsOption {
    /// These (what `registry.approvals()` returned; none when the option is absent).
    Given(Approvals),
    /// Those a snapshot holds (`approvals: "snapshot"`, for `fromSnapshot` only): the host says
    /// that whoever can write its snapshots may decide its approvals.
    FromSnapshot,
}

/// Reads the `approvals` option: [`approvals_from_json`], or the string `"snapshot"`.
pub fn approvals_option(v: &Value) -> Result<ApprovalsOption, String> {
    match v {
        Value::String(s) if s == "snapshot" => Ok(ApprovalsOption::FromSnapshot),
        Value::String(_) => Err("must be an array of { name, scope, digest } or \"snapshot\"".into()),
        _ => approvals_from_json(v).map(ApprovalsOption::Given),
    }
}

/// The approvals a snapshot held, `(scope, name, digest)` each, checked as the option's are.
pub fn approvals_from_stored(stored: Vec<(String, String, String)>) -> Result<Approvals, String> {
    let mut out = Approvals::default();
    for (i, (scope, name, digest)) in stored.into_iter().enumerate() {
        let fits = |s: &str| !s.is_empty() && s.len() <= MAX_FIELD_BYTES;
        if !fits(&scope) || !fits(&name) || !is_content_digest(&digest) {
            return Err(format!("approval {i} is not a name, a scope and a content digest"));
        }
        out.approve(Approval { name, scope, digest })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const D1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";
    const D2: &str = "sha256:2222222222222222222222222222222222222222222222222222222222222222";

    fn a(name: &str, scope: &str, digest: &str) -> Approval {
        Approval { name: name.into(), scope: scope.into(), digest: digest.into() }
    }

    #[test]
    fn an_approval_holds_for_its_digest_only() {
        let mut ap = Approvals::default();
        assert!(!ap.approved("user", "pdf", D1));
        ap.approve(a("pdf", "user", D1)).unwrap();
        assert!(ap.approved("user", "pdf", D1));
        assert!(!ap.approved("user", "pdf", D2), "other content");
        assert!(!ap.approved("org", "pdf", D1), "the same name in another scope");
        assert!(!ap.approved("user", "pdfx", D1));
        // New content approved: the old digest no longer holds.
        ap.approve(a("pdf", "user", D2)).unwrap();
        assert!(ap.approved("user", "pdf", D2) && !ap.approved("user", "pdf", D1));
        assert_eq!(ap.previous("user", "pdf"), Some(D2));
        ap.approve(a("csv", "org", D1)).unwrap();
        assert_eq!(ap.list(), [a("csv", "org", D1), a("pdf", "user", D2)]);
        assert_eq!(ap.len(), 2);
    }

    #[test]
    fn the_option_takes_a_list_or_the_snapshot_and_stored_ones_are_checked() {
        assert_eq!(approvals_option(&json!("snapshot")), Ok(ApprovalsOption::FromSnapshot));
        assert_eq!(approvals_option(&Value::Null), Ok(ApprovalsOption::Given(Approvals::default())));
        assert!(approvals_option(&json!("all")).unwrap_err().contains("\"snapshot\""));
        let t = |scope: &str, name: &str, digest: &str| (scope.to_string(), name.to_string(), digest.to_string());
        let ok = approvals_from_stored(vec![t("user", "pdf", D1)]).unwrap();
        assert!(ok.approved("user", "pdf", D1));
        for bad in
            [t("user", "pdf", "sha256:00"), t("", "pdf", D1), t("user", "", D1), t("user", &"n".repeat(5000), D1)]
        {
            assert!(approvals_from_stored(vec![bad.clone()]).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn approvals_round_trip_and_bad_ones_are_refused() {
        let mut ap = Approvals::default();
        ap.approve(a("pdf", "user", D1)).unwrap();
        ap.approve(a("csv", "org", D2)).unwrap();
        let restored = approvals_from_json(&serde_json::to_value(ap.list()).unwrap()).unwrap();
        assert_eq!(restored, ap);
        assert!(approvals_from_json(&Value::Null).unwrap().is_empty());
        for (bad, why) in [
            (json!({}), "must be an array"),
            (json!([1]), "[0] must be an object"),
            (json!([{ "name": "x", "scope": "u" }]), "[0].digest must be a non-empty string"),
            (json!([{ "name": "x", "scope": "u", "digest": "sha256:abc" }]), "sha256:<64 lowercase hex>"),
            (json!([{ "name": "x", "scope": "u", "digest": D1, "extra": 1 }]), "unknown field `extra`"),
            (json!([{ "name": 1, "scope": "u", "digest": D1 }]), "[0].name"),
        ] {
            let e = approvals_from_json(&bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
