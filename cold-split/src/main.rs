//! `skillwasm-cold-split`: splits the package's core wasm module in two by a profile of the work
//! every host does (parse, discover, render catalogs, answer the skill tool).
//!
//! - `instrument IN OUT` writes a copy of the module that calls the import `__sw_profile.hit(i)`
//!   the first time function `i` runs, and prints the line the profile of a run must start with.
//! - `split IN PROFILE PRIMARY COLD` keeps the functions the profile names in the primary module
//!   and moves every other one into the cold module. A moved function's body in the primary
//!   becomes a stub: on the first call of any of them it calls `./boundary.js`'s `loadColdCode`
//!   (which instantiates the cold module over the primary's memory, tables, globals and
//!   functions; the cold module's element segment puts its functions into the primary's table),
//!   then calls the function through the table. Memory and state are shared, so a function runs
//!   the same in either module.
//!
//! The profile is the list of the functions that ran, with the length and a hash of the module it
//! was taken of: a profile of another build is refused, never applied.

mod profile;
mod split;

use std::process::ExitCode;

fn run(args: &[String]) -> Result<(), String> {
    let read = |path: &String| std::fs::read(path).map_err(|e| format!("{path}: {e}"));
    let write = |path: &String, bytes: &[u8]| std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"));
    match args {
        [cmd, input, output] if cmd == "instrument" => {
            let bytes = read(input)?;
            write(output, &profile::instrument(&bytes)?)?;
            // The line a profile of this module starts with, for the run that writes it.
            println!("{}", profile::module_line(&bytes));
            Ok(())
        }
        [cmd, input, profile, primary, cold] if cmd == "split" => {
            let bytes = read(input)?;
            let text = std::fs::read_to_string(profile).map_err(|e| format!("{profile}: {e}"))?;
            let keep = profile::parse(&text, &bytes)?;
            let out = split::split(&bytes, &keep)?;
            write(primary, &out.primary)?;
            write(cold, &out.cold)?;
            eprintln!(
                "cold-split: {} of {} functions moved to the cold module ({} kept by the profile; {} stubs)",
                out.moved, out.functions, out.kept, out.stubbed
            );
            Ok(())
        }
        _ => Err("usage: skillwasm-cold-split instrument IN OUT | split IN PROFILE PRIMARY COLD".to_string()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cold-split: {e}");
            ExitCode::FAILURE
        }
    }
}
