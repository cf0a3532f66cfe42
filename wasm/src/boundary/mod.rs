//! The Rust half of `boundary.js`, the JS file shipped beside the wasm-bindgen glue: what both
//! of the package's modules (the core one and the second one) use to take values from callers
//! and hand parse results back.
//!
//! - [`convert`]: every caller-supplied value read once, with bounds on depth, size and count, and
//!   no JS exception unwinding through a Rust frame.
//! - [`batch`]: the items of a batch, read once; their bytes copied into the module in one pass.
//! - [`parsed`]: parse results handed to JS a batch at a time, as one JSON text and the body
//!   ranges of the caller's own bytes.
//! - [`metas`]: a registry's lists of skills' metadata handed to JS the same way, a few MiB of
//!   JSON text at a time.
//! - `grow` (wasm32 only): the allocator of both modules, growing the memory in steps.
//! - [`js`]: results as JS values and the options TypeError; [`text`]: the host's text tables
//!   each start function installs; [`served_types`]: what the core module hands the second about
//!   a served skill.

pub mod batch;
pub mod catalog;
pub mod convert;
#[cfg(target_arch = "wasm32")]
pub mod grow;
pub mod js;
pub mod metas;
pub mod parsed;
pub mod served_types;
pub mod text;
