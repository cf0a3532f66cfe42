//! The package's bindings: the only code that knows about JsValue, over the skillwasm core.
//! One crate built twice, a feature choosing which of the package's two wasm modules it is:
//!
//! - `core-module` (the default): the module every host loads, `skillwasm_bg.wasm`
//!   (`core_module`): parsing, discovery, registries, catalogs, the skill tool;
//! - `second-module`: `skillwasm_extra_bg.wasm` (`second_module`), what only some hosts use:
//!   transcripts, user invocation and permissions, the network standards, serde_yaml.
//!
//! Both hold [`boundary`], the Rust half of the package's `boundary.js`: the bounded conversion
//! of caller values and the handover of results. Typed options in, typed results out (TypeScript
//! declarations from tsify); bad skill input is a diagnostic, never an exception. Only a call with
//! arguments of the wrong type (a programming error) throws.

#![warn(missing_docs)]

#[cfg(all(feature = "core-module", feature = "second-module"))]
compile_error!("the features core-module and second-module build two different modules: choose one");
#[cfg(not(any(feature = "core-module", feature = "second-module")))]
compile_error!("choose the module to build: the feature core-module or second-module");

pub mod boundary;
#[cfg(feature = "core-module")]
mod core_module;
#[cfg(feature = "second-module")]
mod second_module;
// The start function: the host's text tables, then the module's hooks.
mod start;

// The boundary's parts both modules' code names.
pub(crate) use boundary::js::{options_error, to_js};
pub(crate) use boundary::{convert, served_types};
