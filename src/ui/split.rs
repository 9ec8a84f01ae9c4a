//! The page's split points (issue 28 §2): the parts of the page that the
//! first screen does not need, each behind an async function that, in the
//! release build, loads its own wasm module the first time it is called.
//!
//! Under the `wasm_split` cfg (the page's release build: `build.rs`) each
//! split point is a Leptos `#[lazy]` function, and `scripts/split-wasm.mjs`
//! (Trunk's post_build hook) moves the code only it reaches into a module
//! of its own. Every other build gets the same function as a plain `async`
//! one over the same body, so `trunk serve`, the wasm tests and the page
//! behave the same, in one module: there the future is ready at its first
//! poll, and `Suspend` builds the view at once, as the component did.
//!
//! Owns only the split points: each returns the view of a component that
//! lives in its own module (the callers render it with `Suspend` where and
//! when they used to render the component), or the result of code the
//! first screen does not need (the protocol-file loader). Must not hold
//! state or logic.
//! The only unsafe code of the crate is what `#[lazy]` expands to here.
#![allow(unsafe_code)]

use leptos::prelude::*;

/// Declares an async split point `fn NAME(ARGS) -> RET` over `BODY`
/// (`-> AnyView` when no type is given): a `#[lazy]` function in the split
/// build, a plain async one otherwise. Arguments must be concrete types
/// (what `#[lazy]` can pass across).
macro_rules! split_point {
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) -> $ret:ty => $body:expr) => {
        $(#[$doc])*
        #[cfg(wasm_split)]
        #[leptos::lazy]
        pub fn $name($($arg: $ty),*) -> $ret {
            $body
        }

        $(#[$doc])*
        #[cfg(not(wasm_split))]
        pub async fn $name($($arg: $ty),*) -> $ret {
            $body
        }
    };
    ($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*) => $body:expr) => {
        split_point! { $(#[$doc])* $name($($arg: $ty),*) -> AnyView => $body }
    };
}

split_point! {
    /// The Protocols view's content: the file list, the editor, the
    /// validator's errors and the previews (built when the view opens).
    protocols_body() => crate::ui::protocols::body()
}

split_point! {
    /// The setup column's Tools tab: the Explore panel, the trace box and
    /// its exports, the settings, the faults and the gallery (built, and
    /// loaded, when the tab first opens; kept from then on).
    tools_tab() => {
        use crate::ui::explore::gallery::Gallery;
        use crate::ui::explore::panel::ExplorePanel;
        use crate::ui::panels::trace_box::TracePanel;
        use crate::ui::setup::faults_form::FaultsPanel;
        use crate::ui::setup::settings_form::Settings;
        view! {
            <ExplorePanel/>
            <TracePanel/>
            <Settings/>
            <FaultsPanel/>
            <Gallery/>
        }
        .into_any()
    }
}

split_point! {
    /// The explorer's cards over the diagram: a finding opened from a
    /// search, and a fork side by side (built, and loaded, when the first
    /// of them opens; kept from then on).
    explore_cards() => {
        use crate::ui::explore::fork::ForkView;
        use crate::ui::explore::panel::ExploreFinding;
        view! {
            <ExploreFinding/>
            <ForkView/>
        }
        .into_any()
    }
}

split_point! {
    /// The guided tours' list (`on_start` runs once a tour has started).
    tour_list(on_start: Callback<()>) => {
        use crate::ui::diagram::tour::TourList;
        view! { <TourList on_start=on_start/> }.into_any()
    }
}

split_point! {
    /// The guided tour's card over the diagram.
    tour_card() => {
        use crate::ui::diagram::tour::TourCard;
        view! { <TourCard/> }.into_any()
    }
}

split_point! {
    /// The protocol-file loader (the TOML reader, validation, name
    /// resolution: `protocol::file::load`), for a file a restored run's
    /// trace records (loaded before the trace is read).
    load_protocol_file(text: String) -> Result<crate::protocol::file::ProtocolFile, crate::protocol::file::Refusals> => {
        crate::protocol::file::load(&text)
    }
}

split_point! {
    /// A share link that needs the protocol-file loader (an explorer link,
    /// or a trace that records its protocol file), read whole.
    read_link(fragment: String) -> Result<Option<crate::view::export::share::SharedRun>, crate::view::export::share::ShareError> => {
        crate::view::export::share::parse_fragment(&fragment)
    }
}

split_point! {
    /// The Protocols view's check of a file (the loader, its refusals as
    /// the error list's lines, the previews), in the language of `cat`.
    check_protocol_file(cat: &'static crate::view::i18n::Catalog, text: String) -> crate::view::protocol_file::Checked => {
        crate::view::protocol_file::check(cat, &text)
    }
}
