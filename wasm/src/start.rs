//! The start function of the module: the host's text tables for the core
//! ([`crate::boundary::text`]), then what the module's `install_hooks` installs.

#[cfg(feature = "core-module")]
use crate::core_module::install_hooks;
#[cfg(feature = "second-module")]
use crate::second_module::install_hooks;
use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated.
#[wasm_bindgen(start, private)]
fn start() {
    crate::boundary::text::install_host_text();
    install_hooks();
}
