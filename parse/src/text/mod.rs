//! Text helpers shared by every stage: neutralising per output format, the token estimate used
//! by every budget, code regions of Markdown, and NFKC normalisation.
//!
//! Every value that goes into output passes one function of its format, so no value can open or
//! close markup, start another entry, or hide what it says:
//! - [`xml_text`] (element text: the XML catalog, the lines of the `<skill_content>` wrapper) and
//!   [`xml_attr`] (attribute values, the reference layout);
//! - [`markdown_text`] (Markdown text) and [`crate::content::markdown_code`] (inside a code span);
//! - [`json_for_markup`] (JSON that stands in a prompt);
//! - every single-line field first goes through [`one_line`]; multi-line text (bodies, files)
//!   through [`clean_lines`] and the protocol's tag neutralisation ([`neutralize_tags`],
//!   `content::neutralize_markup`).
//!
//! One rule says which characters no output shows as they are ([`hides`]): the format characters
//! (general category Cf: bidi marks, embeddings, overrides and isolates, zero-width characters,
//! tag characters, the invisible operators), the other default-ignorable characters that show
//! nothing (fillers, the combining grapheme joiner), C0/C1 controls, and a variation selector that
//! varies nothing (one after another, or after nothing visible: hidden data, not presentation).
//! They are made visible as U+FFFD rather than removed: removing them would join what they
//! separated (`pd\u{200B}f` would read as `pdf`).

mod code;
mod escape;
mod hidden;
mod tables;
mod tokens;

pub use code::*;
pub use escape::*;
pub use hidden::*;
pub use tables::*;
pub use tokens::*;

#[cfg(test)]
mod tests;
