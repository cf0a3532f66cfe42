//! Parse results handed to JS a batch at a time. Building result objects field by field from wasm
//! (one crossing per key and per value) was most of a metadata-only parse; here the results of a
//! batch become one JSON text (written by `skillwasm::parse::result_json`: one flat array of every
//! result's values), which `boundary.js` reads with one `JSON.parse` and builds into the result
//! objects.
//!
//! The inputs of a `parseSkills` batch cross into wasm memory a run at a time, in one copy
//! (`batch::skill_batch`): without bodies only their first bytes (the core's prefix-read policy
//! decides from them; an input whose frontmatter does not end there is copied whole, alone), with
//! bodies all of them. A body that is a range of its input unchanged (valid UTF-8, no `\r`,
//! trimmed: the core decides) is not serialised: its range in the run's buffer goes to JS with the
//! text, where the body is made from those very bytes. Any other body (line endings normalised) is
//! the core's own string, in the JSON.

use super::batch::{self, SkillBatch, SkillItem};
use js_sys::Array;
use skillwasm::store::{limits, PREFIX_BYTES};
use skillwasm::{ParseOptions, ParseResult};
use wasm_bindgen::prelude::*;

/// Input bytes a run of a batch holds in wasm memory before its results are handed over (one
/// input may take more: up to the cap of a SKILL.md).
const BATCH_BYTES: usize = 8 << 20;
/// JSON text a batch holds before its results are handed over.
const BATCH_JSON: usize = 4 << 20;
/// A result without a body range.
const NO_RANGE: u32 = u32::MAX;

#[wasm_bindgen(raw_module = "./boundary.js")]
extern "C" {
    #[wasm_bindgen(js_name = takeResults)]
    fn take_results(json: &str, bytes: &[u8], ranges: &[u32], out: &Array) -> bool;
}

/// An error for JS with `message`.
pub(crate) fn js_error(message: &str) -> JsValue {
    JsError::new(message).into()
}

/// Closes the JSON array written so far in `json` (its values, after an opening bracket) and
/// gives its text.
pub(crate) fn closed_array(json: &mut Vec<u8>) -> Result<&str, JsValue> {
    json.push(b']');
    std::str::from_utf8(json).map_err(|e| js_error(&e.to_string()))
}

/// How much of each input is copied: its first bytes when only the frontmatter is needed (0: all).
pub fn prefix_for(opts: &ParseOptions) -> u32 {
    if !opts.include_body() && !opts.partial {
        PREFIX_BYTES
    } else {
        0
    }
}

/// The first bytes of each input a metadata-only batch copies, fewer than [`prefix_for`]: nearly
/// every real frontmatter ends in them (all but 8 of the corpus's 776), and copying them is most
/// of what the batch costs in JS. An input whose frontmatter does not end there is copied again up
/// to [`prefix_for`]'s bytes, then whole, as a single input is: the same results.
const FIRST_BYTES: u32 = 1536;

/// How much of each input a batch copies first (0: all).
fn first_for(opts: &ParseOptions) -> u32 {
    prefix_for(opts).min(FIRST_BYTES)
}

/// Results in the making: JSON text and body ranges of the current handover, and the array of the
/// objects already made (none at first: `Results::default()`).
#[derive(Default)]
pub struct Results {
    out: Array,
    json: Vec<u8>,
    count: usize,
    ranges: Vec<u32>,
}

impl Results {
    /// Parses one input whose bytes (all of them, or its first bytes, at most [`prefix_for`] of
    /// an input of `size`) are `buf[at..at + len]`, and adds its result. `more(n)` gives the first
    /// `n` bytes of the input (every byte for 0) when the first ones do not decide it.
    pub fn parse(
        &mut self,
        buf: &[u8],
        at: usize,
        len: usize,
        size: usize,
        opts: &ParseOptions,
        more: impl Fn(u32) -> Result<Vec<u8>, JsValue>,
    ) -> Result<(), JsValue> {
        let bytes = buf.get(at..at + len).ok_or_else(|| js_error("an input is not where it was copied"))?;
        let prefix = prefix_for(opts);
        if prefix > 0 {
            // A read of `len` bytes: a prefix when the input has more.
            if let Some(result) = limits::parse_prefix(bytes, len as u32, Some(size as u64), opts) {
                return self.push(&result, None, buf);
            }
            if len < size {
                if len < prefix as usize {
                    let first = more(prefix)?;
                    if let Some(result) = limits::parse_prefix(&first, first.len() as u32, Some(size as u64), opts) {
                        return self.push(&result, None, buf);
                    }
                }
                return self.push(&skillwasm::parse_skill(&more(0)?, opts), None, buf);
            }
        }
        if opts.include_body() && !opts.partial {
            let (result, range) = skillwasm::parse_skill_in_place(bytes, opts);
            return self.push(&result, range.map(|r| (at + r.start, at + r.end)), buf);
        }
        self.push(&skillwasm::parse_skill(bytes, opts), None, buf)
    }

    /// Adds a result; `range` is where its body is in `buf`, the bytes of the current run.
    pub fn push(&mut self, result: &ParseResult, range: Option<(usize, usize)>, buf: &[u8]) -> Result<(), JsValue> {
        self.json.push(if self.count == 0 { b'[' } else { b',' });
        skillwasm::parse::result_json::write_result(&mut self.json, result);
        self.count += 1;
        let (start, end) = match range {
            Some((s, e)) => (u32::try_from(s).unwrap_or(NO_RANGE), u32::try_from(e).unwrap_or(NO_RANGE)),
            None => (NO_RANGE, NO_RANGE),
        };
        self.ranges.extend([start, end]);
        if self.json.len() >= BATCH_JSON {
            self.flush(buf)?;
        }
        Ok(())
    }

    /// Hands the results so far over to JS; `buf` holds the bytes their body ranges are in.
    pub fn flush(&mut self, buf: &[u8]) -> Result<(), JsValue> {
        if self.count == 0 {
            return Ok(());
        }
        let text = closed_array(&mut self.json)?;
        if !take_results(text, buf, &self.ranges, &self.out) {
            return Err(js_error("the parse results could not be handed over"));
        }
        self.json.clear();
        self.ranges.clear();
        self.count = 0;
        Ok(())
    }

    /// Every result, in order, once the last ones are handed over from `buf`.
    pub fn finish(mut self, buf: &[u8]) -> Result<Array, JsValue> {
        self.flush(buf)?;
        Ok(self.out)
    }
}

/// Parses every item of `batch`, a run of at most `BATCH_BYTES` (8 MiB) of copied bytes (at least one
/// item) at a time; `other` makes the result of an item without bytes.
pub fn parse_batch(
    batch: &mut SkillBatch,
    opts: &ParseOptions,
    other: impl Fn(&SkillItem) -> ParseResult,
) -> Result<Array, JsValue> {
    let prefix = first_for(opts);
    let mut results = Results::default();
    let mut buf = Vec::new();
    // One set of options for every item: an item's `dirName` is moved in, not copied.
    let mut item_opts = opts.clone();
    let mut from = 0;
    while from < batch.items.len() {
        let (mut to, mut span) = (from, 0);
        while let Some(item) = batch.items.get(to) {
            let n = batch::copied(item, prefix);
            if to > from && span + n > BATCH_BYTES {
                break;
            }
            span += n;
            to += 1;
        }
        // A zeroed allocation (one `memory.fill`, or none for fresh pages), not `resize`: built
        // for size, `resize` zeroes the run a byte at a time, most of what a batch with bodies cost.
        // The previous run's buffer (its results handed over) is freed first, so that two runs'
        // bytes are never held at once: wasm memory never shrinks.
        drop(std::mem::take(&mut buf));
        buf = vec![0; span];
        batch.fill(&mut buf, from, to, prefix).map_err(|e| js_error(&e))?;
        let mut at = 0;
        for i in from..to {
            let Some(item) = batch.items.get_mut(i) else { break };
            let len = batch::copied(item, prefix);
            let size = match item {
                SkillItem::Bytes { size, dir_name } => {
                    item_opts.dir_name = dir_name.take().or_else(|| opts.dir_name.clone());
                    *size as usize
                }
                item => {
                    results.push(&other(item), None, &buf)?;
                    continue;
                }
            };
            let batch = &*batch;
            let more = |n: u32| {
                let mut first = vec![0; if n > 0 { size.min(n as usize) } else { size }];
                batch.fill(&mut first, i, i + 1, n).map_err(|e| js_error(&e))?;
                Ok(first)
            };
            results.parse(&buf, at, len, size, &item_opts, more)?;
            at += len;
        }
        results.flush(&buf)?;
        from = to;
    }
    results.finish(&buf)
}
