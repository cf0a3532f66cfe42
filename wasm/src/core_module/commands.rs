//! The host's `commands` runner (`` !`command` `` preprocessing of skill bodies) as the core wants
//! it: a JS function called through the boundary's catching, time-bounded call, its answer read
//! with a bound. A throw, a rejection, an answer that is no string or none in time is an error
//! the core turns into `[command failed: ...]` and a diagnostic; nothing unwinds through Rust.
//!
//! The commands of a body are found by the package's second module (`__sw_findCommands`, through
//! `findCommands` in boundary.js), only when the host gave a runner: a finder that throws (no
//! second module) or answers damaged spans leaves that body's commands as written, with a
//! warning.

use super::convert;
use super::{hook, to_js};
use js_sys::JsString;
use skillwasm::activate::command_scan::{self, CommandSpan};
use skillwasm::activate::{CommandRequest, CommandRunner, MAX_OUTPUT_CHARS};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = findCommands)]
    fn find_commands_js(body: &str) -> Result<Vec<u32>, JsValue>;
}

fn find(body: &str) -> Result<Vec<CommandSpan>, String> {
    let wire = find_commands_js(body)
        .map_err(|e| format!("the second module (skillwasm_extra_bg.wasm) failed: {}", convert::describe_error(e)))?;
    command_scan::decode(body, &wire)
}

/// Makes the core find the commands of bodies through the second module.
pub(crate) fn install_finder() {
    command_scan::set_finder(find);
}

#[wasm_bindgen(typescript_custom_section)]
const TS_COMMANDS: &'static str = r#"
/**
 * Runs one `` !`command` `` of a skill's body (Claude Code's dynamic context injection) and gives
 * the text that replaces it. The library never runs anything itself: without this function the
 * commands stay as written. A throw, a rejection, an answer that is not a string or none within
 * `timeoutMs` replaces the command with `[command failed: …]` (and a `command-failed`
 * diagnostic); an answer longer than 65,536 characters is cut.
 */
export type CommandRunner = (request: CommandRequest) => string | Promise<string>;
"#;

/// The `commands` function among the values an options conversion left unread; each call waits at
/// most `timeout_ms`.
pub(crate) fn runner(taken: &convert::Taken, what: &str, timeout_ms: u32) -> Result<Option<CommandRunner>, JsValue> {
    let Some(f) = hook::taken_function(taken, "commands", what)? else { return Ok(None) };
    Ok(Some(Rc::new(move |request: CommandRequest| {
        let f = f.clone();
        Box::pin(async move {
            let arg = to_js(&request).map_err(|_| "the request could not be converted".to_string())?;
            output(&hook::call(&f, &arg, timeout_ms).await?)
        })
    })))
}

/// A runner's answer as text: a string, of which at most a little more than the core keeps is
/// copied out of JS (the core cuts it at [`MAX_OUTPUT_CHARS`] with a note).
fn output(v: &JsValue) -> Result<String, String> {
    if !v.is_string() {
        return Err(format!("answered with {} instead of a string", convert::kind_of(v)));
    }
    let s: &JsString = v.unchecked_ref();
    // UTF-16 units: two per character at most, one more to tell a cut answer from a whole one.
    let most = (MAX_OUTPUT_CHARS as u32).saturating_mul(2).saturating_add(1);
    let s = if s.length() > most { s.slice(0, most) } else { s.clone() };
    Ok(String::from(s))
}
