//! `wasm-split`: binaryen's module splitter, with the command line binaryen gives it
//! (`--instrument`, `--split --profile=...`). `make build` uses it to split the core module by a
//! profile of the usual work (see docs/internals/ARCHITECTURE.md).
//!
//! The program's `main` is binaryen's own (`src/tools/wasm-split/wasm-split.cpp`, compiled by
//! build.rs); nothing of Rust runs. binaryen is built with `THROW_ON_FATAL`, so a fatal error ends
//! the program by an uncaught exception, its message printed, and a non-zero status.
#![no_main]

// wasm-opt-sys is linked for the binaryen library it builds; nothing of its Rust side is used.
use wasm_opt_sys as _;
