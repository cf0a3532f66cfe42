//! The consent gate of the skill tool and of user invocation: before a skill is served, its
//! content digest is computed (once per refresh) and, when the host gave an `approve` hook, the
//! host's approval of that digest is looked up, or asked for. Without a hook, local skills are
//! served as they are and no digest is computed; a remote skill's digest is computed so that an
//! approval the host restored can make its `allowed-tools` count (see
//! [`SkillHost::allowed_tools_apply`]).

use super::skills::SkillHost;
use crate::consent::{ApprovalReason, Approver};
use crate::content::plain_line;
use crate::diagnostic::{codes, Diagnostic};
use std::cell::RefCell;

/// The refusal of `name`, saying why.
pub fn not_approved(name: &str, why: &str) -> Diagnostic {
    Diagnostic::error(
        codes::SKILL_NOT_APPROVED,
        format!(
            "The skill '{}' is not approved for use with its current content ({}). Do not use it; tell the user if it is needed.",
            plain_line(name),
            plain_line(why)
        ),
    )
}

/// Decides whether `name` may be served now: `Ok` with the skill's content digest when one was
/// computed, or the `skill-not-approved` diagnostic. A skill the registry does not hold passes
/// (the call answers it as unknown). The host is borrowed only between the awaits.
#[cfg(feature = "digest")]
pub async fn gate(
    cell: &RefCell<SkillHost>,
    approver: Option<&Approver>,
    name: &str,
    reason: ApprovalReason,
) -> Result<Option<String>, Diagnostic> {
    use crate::consent::{gather, Approval, ApprovalRequest};
    let (src, origin, allowed_tools, known) = {
        let host = cell.borrow();
        let Some(src) = host.registry().skill_source(name) else { return Ok(None) };
        let (remote, origin) = host.scope_origin(&src.scope);
        if approver.is_none() && !remote {
            return Ok(None);
        }
        let allowed = host.registry().get(name).map(|m| m.skill.allowed_tools.clone()).unwrap_or_default();
        let known = host.known_digest(&src.scope, name).map(str::to_string);
        (src, origin, allowed, known)
    };
    let digest = match known {
        Some(d) => d,
        None => match gather::compute(&src).await {
            Ok((d, _, _)) => {
                cell.borrow_mut().remember_digest(&src.scope, name, &d);
                d
            }
            Err(e) if approver.is_some() => {
                return Err(not_approved(name, &format!("its content digest could not be computed: {}", e.message)))
            }
            Err(_) => return Ok(None),
        },
    };
    let Some(approver) = approver else { return Ok(Some(digest)) };
    let previous = {
        let host = cell.borrow();
        if host.approvals().approved(&src.scope, name, &digest) {
            return Ok(Some(digest));
        }
        host.approvals().previous(&src.scope, name).map(str::to_string)
    };
    let request = ApprovalRequest {
        name: name.to_string(),
        scope: src.scope.clone(),
        origin,
        digest: digest.clone(),
        allowed_tools,
        reason,
        previous,
    };
    match approver(request).await {
        Ok(true) => {
            let approval = Approval { name: name.to_string(), scope: src.scope.clone(), digest: digest.clone() };
            cell.borrow_mut().approvals_mut().approve(approval).map_err(|e| not_approved(name, &e))?;
            Ok(Some(digest))
        }
        Ok(false) => Err(not_approved(name, "the host's approval hook refused it")),
        Err(why) => Err(not_approved(name, &format!("the host's approval hook failed, which refuses: {why}"))),
    }
}

/// Without content digests in the build: a host that asks for approvals is refused every skill
/// (nothing can be approved by content), any other is served as without consent.
#[cfg(not(feature = "digest"))]
pub async fn gate(
    _cell: &RefCell<SkillHost>,
    approver: Option<&Approver>,
    name: &str,
    _reason: ApprovalReason,
) -> Result<Option<String>, Diagnostic> {
    match approver {
        Some(_) => Err(not_approved(name, "this build computes no content digests")),
        None => Ok(None),
    }
}

/// The content digest of the skill that wins `name`, computed now (it replaces the one kept since
/// the last refresh); an unknown skill or one beyond the per-skill limits has an `error`.
#[cfg(feature = "digest")]
pub async fn content_digest(cell: &RefCell<SkillHost>, name: &str) -> crate::consent::gather::ContentDigest {
    use crate::consent::gather::{compute, ContentDigest};
    let src = cell.borrow().registry().skill_source(name);
    let Some(src) = src else {
        let message = format!("no skill named '{}'", plain_line(name));
        return ContentDigest {
            name: name.to_string(),
            error: Some(Diagnostic::error(codes::SKILL_UNKNOWN, message)),
            ..ContentDigest::default()
        };
    };
    let mut out = ContentDigest { name: name.to_string(), scope: Some(src.scope.clone()), ..ContentDigest::default() };
    match compute(&src).await {
        Ok((digest, files, size)) => {
            cell.borrow_mut().remember_digest(&src.scope, name, &digest);
            (out.digest, out.files, out.size) = (Some(digest), files, size);
        }
        Err(e) => out.error = Some(e),
    }
    out
}
