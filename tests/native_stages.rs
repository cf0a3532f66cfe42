//! Where the native parse spends its time on the corpus, stage by stage, and which frontmatters
//! miss the fast YAML path. Not a test: run with
//! `cargo test --release --test native_stages -- --ignored --nocapture`.

mod common;

use skillwasm::parse::{fast, fence, parse_frontmatter, validate};
use skillwasm::{Mode, ParseOptions};

#[test]
#[ignore]
fn stage_timings() {
    let Some(shared) = common::shared_dir() else { return };
    let files: Vec<(Vec<u8>, String)> = common::skill_files(&shared.join("corpus/skills"))
        .iter()
        .filter_map(|p| Some((std::fs::read(p).ok()?, p.parent()?.file_name()?.to_string_lossy().into_owned())))
        .collect();
    let fms: Vec<(String, u32)> = files
        .iter()
        .filter_map(|(b, _)| fence::split(b, false).ok().map(|s| (s.frontmatter().to_string(), s.first_line)))
        .collect();
    let runs = 50;
    let time = |label: &str, f: &dyn Fn()| {
        let t = std::time::Instant::now();
        for _ in 0..runs {
            f()
        }
        println!("{label:<28} {:>10.3?} per pass over {} files", t.elapsed() / runs, files.len());
    };
    time("parse_skill (no body)", &|| {
        for (b, d) in &files {
            let opts = ParseOptions { dir_name: Some(d.clone()), include_body: Some(false), ..Default::default() };
            std::hint::black_box(skillwasm::parse_skill(b, &opts));
        }
    });
    time("fence::split", &|| {
        for (b, _) in &files {
            std::hint::black_box(fence::split(b, false).is_ok());
        }
    });
    time("fast::parse", &|| {
        for (f, _) in &fms {
            std::hint::black_box(fast::parse(f));
        }
    });
    time("parse_frontmatter", &|| {
        for (f, l) in &fms {
            std::hint::black_box(parse_frontmatter(f, *l, Mode::Lenient).is_ok());
        }
    });
    // The frontmatters with their directory names (`fms` leaves out the files that do not split).
    let dirs: Vec<(String, u32, &str)> = files
        .iter()
        .filter_map(|(b, d)| {
            fence::split(b, false).ok().map(|s| (s.frontmatter().to_string(), s.first_line, d.as_str()))
        })
        .collect();
    time("parse_frontmatter + build", &|| {
        for (f, l, d) in &dirs {
            if let Ok((mut fields, _)) = parse_frontmatter(f, *l, Mode::Lenient) {
                let mut diags = Vec::new();
                std::hint::black_box(validate::build_skill(&mut fields, Some(d), Mode::Lenient, &mut diags));
            }
        }
    });
    for (f, _) in fms.iter().filter(|(f, _)| fast::parse(f).is_none()) {
        println!("not in the fast subset:\n{}\n", f.chars().take(300).collect::<String>());
    }
}
