//! Frontmatter beyond the fast path for this module: the package's second module has serde_yaml
//! and the repairs (`skillwasm::parse::beyond`), and this one asks it (through
//! `readFrontmatter` in boundary.js, which extra.js points at the second module's
//! `__sw_readFrontmatter`) for frontmatter its fast path refuses, and reads the answer
//! (`skillwasm::parse::beyond_wire`). A call that throws (no second module, or one that trapped)
//! or answers damaged bytes refuses that file with a diagnostic; the other files are parsed as
//! ever.

use skillwasm::parse::beyond::{self, Answer};
use skillwasm::parse::{beyond_wire, Mode};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = readFrontmatter)]
    fn read_frontmatter(text: &str, first_line: u32, strict: bool, invalid: bool) -> Result<Vec<u8>, JsValue>;
}

fn read(text: &str, first_line: u32, mode: Mode, invalid: bool) -> Answer {
    match read_frontmatter(text, first_line, mode == Mode::Strict, invalid) {
        Ok(answer) => beyond_wire::decode(&answer, first_line),
        Err(e) => Err(beyond::unavailable(
            &format!("the YAML parser (in skillwasm_extra_bg.wasm) failed: {}", super::convert::describe_error(e)),
            first_line,
        )),
    }
}

/// Makes the core read frontmatter beyond its fast path through the second module.
pub(crate) fn install() {
    beyond::set_reader(read);
}
