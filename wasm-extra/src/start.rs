//! The start function of this façade's module: the host's text tables for the core (shared with
//! the other façade, `skillwasm_boundary::text`), then what this module's `install_hooks` installs.

use wasm_bindgen::prelude::*;

/// Runs once when the module is instantiated.
#[wasm_bindgen(start, private)]
fn start() {
    skillwasm_boundary::text::install_host_text();
    super::install_hooks();
}
