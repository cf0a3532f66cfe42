//! Catalogs handed to JS. A budgeted catalog of 100,000 skills reports nearly every one as
//! dropped; made one JS string at a time (a crossing and a decode each), that list cost more than
//! the catalog. It crosses as one string of the names joined by line breaks, split in JS into the
//! same array when `dropped` is first read (`boundary.js`'s `lazyLines`), whenever no name holds a
//! line break itself (then as a list, like the rest).

use super::js::to_js;
use skillwasm::disclose::CatalogResult;
use wasm_bindgen::prelude::*;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    /// Gives `object` the list of `text`'s lines as `key`, split when first read.
    #[wasm_bindgen(js_name = lazyLines, catch)]
    fn lazy_lines(object: &JsValue, key: &str, text: &str) -> Result<(), JsValue>;
}

/// `catalog` as a plain object, as [`to_js`] makes it, with `dropped` split from one string when
/// it is read.
pub fn catalog_to_js(mut catalog: CatalogResult) -> Result<JsValue, JsValue> {
    let dropped = std::mem::take(&mut catalog.dropped);
    let Some(lines) = dropped.lines().filter(|_| !dropped.is_empty()) else {
        catalog.dropped = dropped;
        return to_js(&catalog).map_err(JsValue::from);
    };
    let object = to_js(&catalog).map_err(JsValue::from)?;
    lazy_lines(&object, "dropped", lines)?;
    Ok(object)
}
