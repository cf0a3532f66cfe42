//! The YAML parser of record for this module: the package's second module has serde_yaml, this
//! one asks it (through `loadYaml` in boundary.js, which extra.js points at the second module's
//! `__sw_loadYaml`) for frontmatter the core's fast path does not take, and reads the answer
//! (`skillwasm::parse::yaml_wire`). A call that throws (no second module, or one that trapped)
//! is an error value: the file gets a diagnostic, the other files are parsed as ever.

use skillwasm::parse::yaml::{self, Yaml, YamlError};
use skillwasm::parse::yaml_wire;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = loadYaml)]
    fn load_yaml(text: &str) -> Result<Vec<u8>, JsValue>;
}

fn load(text: &str) -> Result<Yaml, YamlError> {
    match load_yaml(text) {
        Ok(answer) => yaml_wire::decode(&answer),
        Err(e) => Err(YamlError::unavailable(format!(
            "the YAML parser (in skillwasm_extra_bg.wasm) failed: {}",
            super::convert::describe_error(e)
        ))),
    }
}

/// Makes the core parse YAML through the second module.
pub(crate) fn install() {
    yaml::set_loader(load);
}
