//! Compiles the parts of binaryen that wasm-opt-sys leaves out of its library: the module splitter
//! (`src/ir/module-splitting.cpp`), the path helpers it uses (`src/support/path.cpp`) and the wasm-split tool (`src/tools/wasm-split/`), whose
//! `main` is the program's (`src/main.rs` is `#![no_main]`). The include directories are the ones
//! wasm-opt-sys exports (binaryen's `src/` and `src/tools/`, and the directory of its generated
//! `config.h`), read from the `DEP_BINARYEN_CXXBRIDGE_DIR*` variables cargo sets for a crate that
//! depends on a `links = "binaryen"` package.

use std::env;
use std::path::PathBuf;

fn main() {
    let dirs: Vec<PathBuf> =
        (0..).map_while(|i| env::var_os(format!("DEP_BINARYEN_CXXBRIDGE_DIR{i}"))).map(PathBuf::from).collect();
    let src = dirs
        .iter()
        .find(|d| d.join("wasm.h").is_file())
        .expect("wasm-opt-sys exports binaryen's src/ directory")
        .clone();
    let tool = src.join("tools").join("wasm-split");
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .opt_level(1)
        .warnings(false)
        .define("THROW_ON_FATAL", None)
        .define("NDEBUG", None)
        .includes(&dirs)
        .file(src.join("ir").join("module-splitting.cpp"))
        .file(src.join("support").join("path.cpp"))
        .file(tool.join("wasm-split.cpp"))
        .file(tool.join("split-options.cpp"))
        .file(tool.join("instrumenter.cpp"));
    build.compile("binaryen-wasm-split");
}
