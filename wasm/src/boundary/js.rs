//! What both façades return alike: the one way results become JS values, and the TypeError of a
//! call with options of the wrong shape.

use serde::Serialize;
use wasm_bindgen::prelude::*;

/// Results become plain objects (maps as objects, absent values as null, bytes as Uint8Array). Parse
/// results, many to a call, go over as one JSON text instead (see [`super::parsed`]): measured on
/// the corpus, that is faster once bodies are not in the text.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsError> {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_maps_as_objects(true).serialize_missing_as_null(true);
    value.serialize(&serializer).map_err(|e| JsError::new(&e.to_string()))
}

/// A TypeError for a call with options of the wrong shape (a programming error, so it throws).
pub fn options_error(message: &str) -> JsValue {
    super::convert::type_error(message)
}
