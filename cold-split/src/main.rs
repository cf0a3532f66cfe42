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
//! - `datamap LINKED MAP STRIPPED` reads a module linked with `--emit-relocs` and writes its data
//!   map (where each data symbol lies, and every place code or data names one) and the module
//!   without the linker's sections. Given the map, `split ... MAP` moves the read-only data only
//!   moved functions name into the cold module as well, at the same addresses.
//!
//! The profile is the list of the functions that ran, with the length and a hash of the module it
//! was taken of: a profile of another build is refused, never applied; so is a data map whose
//! read-only bytes differ from the module's.

mod calls;
mod data;
mod datamap;
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
        [cmd, linked, map, stripped] if cmd == "datamap" => {
            let bytes = read(linked)?;
            let data = datamap::read(&bytes)?;
            write(map, data.to_text().as_bytes())?;
            write(stripped, &datamap::strip(&bytes)?)?;
            eprintln!(
                "cold-split: data map of {} symbols, {} addresses in code, {} pointers in data",
                data.symbols.len(),
                data.code.len(),
                data.pointers.len()
            );
            Ok(())
        }
        [cmd, input, profile, primary, cold, rest @ ..] if cmd == "split" && rest.len() <= 1 => {
            let bytes = read(input)?;
            let text = std::fs::read_to_string(profile).map_err(|e| format!("{profile}: {e}"))?;
            let keep = profile::parse(&text, &bytes)?;
            let map = match rest.first() {
                Some(path) => {
                    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                    Some(datamap::DataMap::parse(&text)?)
                }
                None => None,
            };
            let out = split::split(&bytes, &keep, map.as_ref())?;
            write(primary, &out.primary)?;
            write(cold, &out.cold)?;
            eprintln!(
                "cold-split: {} of {} functions moved to the cold module ({} kept by the profile; {} stubs)",
                out.moved, out.functions, out.kept, out.stubbed
            );
            if map.is_some() {
                eprintln!(
                    "cold-split: {} bytes of read-only data moved with them ({} segments; {} constants no relocation wrote)",
                    out.data.bytes, out.data.segments, out.data.unknown
                );
            }
            Ok(())
        }
        _ => Err(
            "usage: skillwasm-cold-split instrument IN OUT | datamap LINKED MAP STRIPPED | split IN PROFILE PRIMARY COLD [MAP]"
                .to_string(),
        ),
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
