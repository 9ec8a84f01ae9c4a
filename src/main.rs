//! The browser entry point: fetches the page's language and mounts the app. Native builds have no UI and say so.
#![forbid(unsafe_code)]

#[cfg(target_arch = "wasm32")]
fn main() {
    // Debug builds report a panic's message and place in the console. A
    // release build aborts on panic (Cargo.toml) and leaves the hook and
    // its formatting out of the bundle; the trap still shows in the console.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    // The page comes up in the visitor's language: its messages are fetched
    // first (English is built in), so a Japanese browser never sees English
    // words flash by. A language that does not arrive in time leaves the
    // page in English, and the banner says so.
    wasm_bindgen_futures::spawn_local(async {
        let start = team_protocols::ui::browser::lang::Start::prepare().await;
        leptos::mount::mount_to_body(move || {
            leptos::prelude::provide_context(start);
            leptos::view! { <team_protocols::ui::App/> }
        });
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("team-protocols is a browser app: run `trunk serve` (see README.md) and open the page it prints.");
    std::process::exit(2);
}
