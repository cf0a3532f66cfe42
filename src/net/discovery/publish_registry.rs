//! Publishing what a registry offers as a discovery index: the skills the model is offered (the
//! catalog's skills, hidden ones and those offered under a qualified name left out), each with every file of its directory
//! read through its scope's store, published under its name by [`publish_well_known`].
//!
//! A skill's files are gathered as the MCP server gathers them ([`SkillSource::files`]): skipped
//! directories left out, at most 512 files and 16 MiB, a nested skill's files part of the skill
//! that encloses it. A skill over those limits, or whose store fails, is left out with a
//! diagnostic; the others are published.

use super::publish::{publish_well_known, PublishOptions, Published};
use crate::diagnostic::Diagnostic;
use crate::host::{ServedSkills, SkillSource};
use crate::net::mcp::{RpcError, MAX_SKILL_BYTES};

/// Every file of `source`, keyed `<name>/<path>`.
async fn gather(source: &SkillSource) -> Result<Vec<(String, Vec<u8>)>, RpcError> {
    let mut out = Vec::new();
    let mut left = MAX_SKILL_BYTES;
    for file in source.files().await? {
        let bytes = source.read(&file, left).await?;
        left = left.saturating_sub(bytes.len() as u64);
        out.push((format!("{}/{}", source.name, file.path), bytes));
    }
    Ok(out)
}

/// The index and artifacts of the skills `served` offers the model (a host's registry, or one
/// read through another module), in name order; an error only when the registry behind it cannot
/// be read.
pub async fn publish_registry(served: &dyn ServedSkills, options: &PublishOptions) -> Result<Published, String> {
    // Taken before the first await: nothing holds the registry while stores are read.
    let mut sources = Vec::new();
    for name in served.offered_names()? {
        // An index holds one skill per name: a same-named skill offered under a qualified name
        // (`user:pdf`) is not published.
        if name.contains(crate::discover::QUALIFIER) {
            continue;
        }
        sources.extend(served.source(&name)?);
    }
    let mut files = Vec::new();
    let mut left_out: Vec<Diagnostic> = Vec::new();
    for source in &sources {
        match gather(source).await {
            Ok(mut got) => files.append(&mut got),
            Err(e) => left_out.push(e.to_diagnostic(&source.name)),
        }
    }
    let mut published = publish_well_known(&files, options);
    left_out.append(&mut published.diagnostics);
    published.diagnostics = left_out;
    Ok(published)
}
