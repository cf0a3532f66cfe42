//! Consent bound to content: one digest per skill over its files ([`digest`]), the host's
//! approvals of skills by that digest ([`Approvals`]), and the planned gathering of a skill's
//! files into its digest ([`gather`]). An approval holds for the digest it was given for only:
//! when the content changes, the digest changes and the host is asked again. The rules that use
//! them (the skill tool asks before it serves, `allowed-tools` of remote skills count only once
//! approved) are [`crate::host`]'s.

mod approvals;
#[cfg(feature = "digest")]
pub mod digest;
#[cfg(feature = "digest")]
pub mod gather;

pub use approvals::*;
