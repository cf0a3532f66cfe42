//! Skills over the network, in the two standards a host may speak; the network itself is the
//! host's: these modules take and return bytes and JSON.
//!
//! - [`discovery`]: the Agent Skills Discovery index (the well-known URI RFC), read as a client,
//!   its artifacts verified and unpacked, and published for a registry
//! - [`mcp`]: the MCP Skills extension (SEP-2640), the server's answers and the client's checks
//! - [`archive`]: gzip'd tar and zip, read under entry and size bounds and (tar) written
//! - shared: [`digest`] (`sha256:` digests), [`url`] (RFC 3986 references), [`origin`] (the host's
//!   origin policy for every URL a store requests), [`frontmatter`] (a SKILL.md's frontmatter as
//!   JSON)

pub mod archive;
pub mod digest;
pub mod discovery;
pub mod frontmatter;
pub mod mcp;
pub mod origin;
pub mod url;

pub use origin::{OriginPolicy, Target, MAX_REDIRECTS};
