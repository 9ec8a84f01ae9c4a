//! Marks the page's release build for wasm code splitting (issue 28 §2).
//!
//! For the page's wasm32 release build (profile wasm-release, what
//! `trunk build --release` builds; not the bench page's, which has the
//! `bench-fixtures` feature and stays one module), this sets the
//! `wasm_split` cfg, which turns `ui::split`'s split points into Leptos
//! `#[lazy]` functions, and links the page's binary with `--emit-relocs`,
//! which the splitter (`wasm-split-cli`, run by `scripts/split-wasm.mjs`
//! from Trunk's post_build hook) needs to cut it into modules. Every other
//! build (`trunk serve`, the wasm tests, native) keeps plain async
//! functions and one module. Owns nothing else: no code generation, no
//! files written.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(wasm_split)");
    println!("cargo::rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let bench = std::env::var_os("CARGO_FEATURE_BENCH_FIXTURES").is_some();
    if wasm && release && !bench {
        println!("cargo::rustc-cfg=wasm_split");
        println!("cargo::rustc-link-arg-bin=team-protocols=--emit-relocs");
    }
}
