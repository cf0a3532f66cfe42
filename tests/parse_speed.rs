//! How long the corpus takes to parse natively, split into the parse itself and the JSON text the
//! wasm façade hands to JS: the native half of `bench/parse.mjs`'s measures. Ignored by default
//! (it prints numbers and asserts nothing about time); run it with
//! `cargo test --release --test parse_speed -- --ignored --nocapture`.

mod common;

use skillwasm::store::{limits, PREFIX_BYTES};
use skillwasm::ParseOptions;
use std::time::{Duration, Instant};

fn best_of(rounds: usize, mut f: impl FnMut() -> usize) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut out = 0;
    for _ in 0..rounds {
        let t = Instant::now();
        out = f();
        best = best.min(t.elapsed());
    }
    (best, out)
}

#[test]
#[ignore = "prints timings; run by hand"]
fn corpus_parse_speed() {
    let Some(shared) = common::shared_dir() else {
        eprintln!("../shared is not beside the repository; skipped");
        return;
    };
    let files: Vec<(Vec<u8>, Option<String>)> = common::skill_files(&shared.join("corpus/skills"))
        .iter()
        .map(|p| {
            let dir = p.parent().and_then(|d| d.file_name()).map(|n| n.to_string_lossy().into_owned());
            (std::fs::read(p).unwrap_or_default(), dir)
        })
        .collect();
    let total: usize = files.iter().map(|(b, _)| b.len()).sum();
    println!("{} files, {} bytes", files.len(), total);
    // PARSE_SPEED_BODY=0 or 1 times one of the two (for a profiler); both by default.
    let only = std::env::var("PARSE_SPEED_BODY").ok();
    for include_body in [false, true] {
        if only.as_deref().is_some_and(|o| (o == "1") != include_body) {
            continue;
        }
        let opts = |dir: &Option<String>| ParseOptions {
            dir_name: dir.clone(),
            include_body: Some(include_body),
            ..ParseOptions::default()
        };
        let parse_all = || -> Vec<skillwasm::ParseResult> {
            files
                .iter()
                .map(|(bytes, dir)| {
                    let opts = opts(dir);
                    if !include_body {
                        let n = bytes.len().min(PREFIX_BYTES as usize);
                        if let Some(r) =
                            limits::parse_prefix(&bytes[..n], PREFIX_BYTES, Some(bytes.len() as u64), &opts)
                        {
                            return r;
                        }
                    }
                    skillwasm::parse_skill(bytes, &opts)
                })
                .collect()
        };
        let (parse, n) = best_of(20, || parse_all().len());
        let results = parse_all();
        let (json, len) = best_of(20, || serde_json::to_vec(&results).map(|v| v.len()).unwrap_or(0));
        println!(
            "includeBody {include_body}: parse {:.2} ms ({n} results), serde_json {:.2} ms ({len} bytes of JSON)",
            parse.as_secs_f64() * 1e3,
            json.as_secs_f64() * 1e3
        );
    }
}
