//! The browser entry point: mounts the app. Native builds have no UI and say so.

#[cfg(target_arch = "wasm32")]
fn main() {
    // Debug builds report a panic's message and place in the console. A
    // release build aborts on panic (Cargo.toml) and leaves the hook and
    // its formatting out of the bundle; the trap still shows in the console.
    #[cfg(debug_assertions)]
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(|| leptos::view! { <team_protocols::ui::App/> });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("team-protocols is a browser app: run `trunk serve` (see README.md) and open the page it prints.");
    std::process::exit(2);
}
