//! The page: prompt and scenarios, settings, the controls bar, the diagram
//! and the panels, the error banner, and keyboard shortcuts.
//!
//! Owns layout and controls. Drawing the diagram is `diagram_view`, the
//! panels are `panels`, and every action goes through the `Session`.

use leptos::ev;
use leptos::prelude::*;

use super::caption_box::CaptionBox;
use super::diagram_view::DiagramView;
use super::error_words;
use super::explore_gallery::Gallery;
use super::explore_panel::{ExploreFinding, ExplorePanel, ExploreUi};
use super::fork_view::ForkView;
use super::i18n::{tr, Catalog};
use super::i18n_view::{lang, Lang, LanguageSwitcher};
use super::panels::Panels;
use super::session::Session;
use super::tour_view::{TourCard, TourList, TourState};
use super::{download, export, share, web};
use crate::model::provider_settings::Provider;
use crate::protocol::{AgentName, FaultAction, FaultRule, MessageType};
use crate::runtime::scenarios;
use crate::runtime::scheduler::Mode;

/// Opens what a link's fragment asks for. False when it asks for nothing
/// or cannot be opened (the banner then says what is wrong with it, and the
/// run on screen stays).
fn open_link(s: Session, l: Lang, hash: &str) -> bool {
    match share::parse_fragment(hash) {
        Ok(Some(share::SharedRun::Scenario { id, seed, faults })) => match scenarios::by_id(&id) {
            Some(sc) => {
                // A scenario link replays on the scripted model.
                s.settings.provider.set(Provider::Scripted);
                s.settings.load_remembered_key();
                if let Some(seed) = seed {
                    s.settings.seed.set(seed);
                    s.settings.mark("seed", None);
                }
                s.settings.faults.set(faults);
                s.run_scenario(sc);
                true
            }
            None => {
                s.error(tr!(l.cat_untracked(), "ui-link-unknown-scenario", id = id.chars().take(40).collect::<String>()));
                false
            }
        },
        Ok(Some(share::SharedRun::Trace(trace))) => {
            s.load(trace, None);
            s.keep_current();
            true
        }
        Ok(Some(share::SharedRun::Explore(link))) => expect_context::<ExploreUi>().open_link(s, *link),
        Ok(None) => false,
        Err(e) => {
            s.error(tr!(l.cat_untracked(), "ui-link-bad", error = error_words::share(l.cat_untracked(), &e)));
            false
        }
    }
}

/// Speeds offered for playback and Live pacing.
pub const SPEEDS: [f64; 5] = [0.25, 0.5, 1.0, 2.0, 4.0];

/// The whole page. `pace_ms` overrides Live mode's pacing at 1x (tests use
/// 0 to run at full speed).
#[component]
pub fn App(
    /// Live mode's pacing at 1x in milliseconds per event (tests use 0).
    #[prop(optional)]
    pace_ms: Option<u64>,
) -> impl IntoView {
    let l = Lang::from_browser();
    provide_context(l);
    let s = Session::new(pace_ms.map_or(super::session::BASE_PACE_MS, |p| p as f64)).speaking(l);
    provide_context(s);
    let tours = TourState::new();
    provide_context(tours);
    provide_context(ExploreUi::new());
    s.reset();
    // A share link reruns its scenario or shows its trace; otherwise the run
    // from before a reload comes back for replay. A bad link says so, and
    // its banner stays over the restored run.
    let hash = window().location().hash().unwrap_or_default();
    if !open_link(s, l, &hash) {
        s.restore_current();
    }
    // A link pasted into this open tab.
    let hash_listener = window_event_listener(ev::hashchange, move |_| {
        let hash = window().location().hash().unwrap_or_default();
        if !hash.trim_start_matches('#').is_empty() {
            open_link(s, l, &hash);
        }
    });
    on_cleanup(move || hash_listener.remove());
    s.refresh_saved();
    // A language whose messages could not be fetched: the banner says so.
    super::i18n_view::report_problems(move |text| s.banner.set(Some(text)));

    // Play: advance the cursor through the recording; at its end in Step
    // mode, release the next event of the run.
    Effect::new(move |_| {
        if !s.playback.playing.get() {
            return;
        }
        let delay = super::playback::step_interval(s.playback.speed.get());
        let handle = set_interval_with_handle(
            move || {
                if s.playback.cursor.get_untracked().is_none()
                    && (s.playback.mode.get_untracked() == Mode::Live || !s.run.running.get_untracked())
                {
                    s.playback.playing.set(false);
                } else {
                    s.next();
                }
            },
            delay,
        );
        if let Ok(h) = handle {
            on_cleanup(move || h.clear());
        }
    });

    // The side panels: columns on a wide screen, drawers behind buttons on
    // a narrow one (at most one open); Escape closes the open one.
    let drawer = Drawers::default();
    provide_context(drawer);
    let shortcuts = NodeRef::<leptos::html::Dialog>::new();
    let open_shortcuts = move || {
        if let Some(d) = shortcuts.get_untracked() {
            if !d.open() {
                let _ = d.show_modal();
            }
        }
    };

    let keys = window_event_listener(ev::keydown, move |e| {
        let target = e.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok());
        let tag = target.as_ref().map(|el| el.tag_name()).unwrap_or_default();
        let typing = matches!(tag.as_str(), "INPUT" | "TEXTAREA" | "SELECT");
        let dialog_open = shortcuts.get_untracked().is_some_and(|d| d.open());
        if typing || dialog_open || e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        match e.key().as_str() {
            // Space on a focused button or link presses it, as everywhere.
            " " if matches!(tag.as_str(), "BUTTON" | "A" | "SUMMARY") => return,
            " " => s.playback.playing.update(|p| *p = !*p),
            "ArrowLeft" => s.back(),
            "ArrowRight" => s.next(),
            "Home" => s.seek(0),
            "End" => s.seek(usize::MAX),
            "?" => open_shortcuts(),
            "Escape" if drawer.0.get_untracked().is_some() => drawer.close(true),
            // As the shortcuts dialog says: Escape ends a guided tour.
            "Escape" if tours.active.get_untracked().is_some() => super::tour_view::end(s, tours),
            _ => return,
        }
        e.prevent_default();
    });
    on_cleanup(move || keys.remove());

    view! {
        <div class="app">
            <nav class="skip-links" aria-label=move || l.t("ui-skip-links")>
                <a class="skip" href="#controls" on:click=move |e| skip_to(e, "controls")>{move || l.t("ui-skip-controls")}</a>
                <a class="skip" href="#diagram" on:click=move |e| skip_to(e, "diagram")>{move || l.t("ui-skip-diagram")}</a>
                <a class="skip" href="#setup" on:click=move |e| if web::narrow() { e.prevent_default(); drawer.open(Drawer::Setup) } else { skip_to(e, "prompt") }>{move || l.t("ui-skip-setup")}</a>
            </nav>
            <header class="app-header">
                <h1>{move || l.t("ui-title")}</h1>
                <p class="tagline">{move || l.t("ui-tagline")}</p>
                <p class="model-label">{move || {
                    // The model of the run on screen: its team's, or its snapshot's.
                    let snapshot = s.run.snapshot.get();
                    let label = s.model_label();
                    let label = if label.is_empty() { snapshot.map(|snap| snap.describe()).unwrap_or_else(|| l.t("ui-recorded-trace")) } else { label };
                    tr!(l.cat(), "ui-model", label = model_words(l.cat(), label))
                }}</p>
                <div class="header-actions">
                    <DrawerToggle which=Drawer::Setup/>
                    <DrawerToggle which=Drawer::Panels/>
                    <LanguageSwitcher/>
                    <button class="shortcuts-button" aria-haspopup="dialog" on:click=move |_| open_shortcuts()><span class="shortcuts-text">{move || l.t("ui-shortcuts")}" "</span><kbd aria-hidden="true">"?"</kbd></button>
                </div>
            </header>
            <Banner/>
            <div class="layout">
                // The diagram comes first in reading and tab order; on a wide
                // screen the grid puts the setup column to its left.
                <main id="main" class=move || if s.run.stopped.get() && s.playback.cursor.get().is_none() { "centre stopped" } else { "centre" }>
                    <Controls/>
                    <CaptionBox/>
                    <TourCard/>
                    <ExploreFinding/>
                    <ForkView/>
                    {move || s.run.trace.with(|t| t.is_empty()).then(|| view! {
                        <p class="empty-hint">{move || l.t("ui-empty-hint")}<span class="narrow-only">{move || l.t("ui-empty-hint-narrow")}</span>{move || l.t("ui-empty-hint-end")}</p>
                    })}
                    <DiagramView/>
                </main>
                <aside id="setup" class=move || drawer.class(Drawer::Setup, "left") aria-label=move || l.t("ui-drawer-setup-title")>
                    <DrawerHead which=Drawer::Setup/>
                    <PromptBox/>
                    <ScenarioList/>
                    <TourList on_start=Callback::new(move |()| drawer.close(false))/>
                    <TracePanel/>
                    <Settings/>
                    <FaultsPanel/>
                    <ExplorePanel/>
                    <Gallery/>
                </aside>
                <aside id="panels" class=move || drawer.class(Drawer::Panels, "right") aria-label=move || l.t("ui-drawer-panels-title")>
                    <DrawerHead which=Drawer::Panels/>
                    <Panels/>
                </aside>
                <div class="scrim" hidden=move || drawer.0.get().is_none() on:click=move |_| drawer.close(true)></div>
            </div>
            <ShortcutsHelp dialog=shortcuts/>
        </div>
    }
}

/// Moves focus to the element with `id` without touching the URL (a
/// fragment would be read as a share link).
fn skip_to(e: ev::MouseEvent, id: &str) {
    e.prevent_default();
    if let Some(el) = document().get_element_by_id(id) {
        let el: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(el);
        let _ = el.focus();
        el.scroll_into_view();
    }
}

/// A side panel that is a drawer on a narrow screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Drawer {
    /// Prompt, scenarios, trace, settings and faults (the left column).
    Setup,
    /// The protocol check, requests, team, inboxes and the rest (the right column).
    Panels,
}

impl Drawer {
    /// The toggle button's id, where focus returns when the drawer closes.
    fn toggle_id(self) -> &'static str {
        match self {
            Drawer::Setup => "setup-toggle",
            Drawer::Panels => "panels-toggle",
        }
    }
    /// The drawer's element id.
    fn id(self) -> &'static str {
        match self {
            Drawer::Setup => "setup",
            Drawer::Panels => "panels",
        }
    }
    /// The toggle's label's message key.
    fn label(self) -> &'static str {
        match self {
            Drawer::Setup => "ui-drawer-setup",
            Drawer::Panels => "ui-drawer-panels",
        }
    }
    /// The drawer's title's message key.
    fn title(self) -> &'static str {
        match self {
            Drawer::Setup => "ui-drawer-setup-title",
            Drawer::Panels => "ui-drawer-panels-title",
        }
    }
}

/// Which drawer is open on a narrow screen (ignored on a wide one, where
/// both columns show).
#[derive(Clone, Copy, Default)]
struct Drawers(RwSignal<Option<Drawer>>);

impl Drawers {
    /// Opens `which` (closing the other) and moves focus into it.
    fn open(self, which: Drawer) {
        self.0.set(Some(which));
        request_animation_frame(move || focus_id(&format!("{}-close", which.id())));
    }
    /// Closes the open drawer; `restore` returns focus to its toggle.
    fn close(self, restore: bool) {
        let Some(was) = self.0.get_untracked() else { return };
        self.0.set(None);
        if restore && web::narrow() {
            focus_id(was.toggle_id());
        }
    }
    /// The aside's classes: `side` plus `drawer` and `open`.
    fn class(self, which: Drawer, side: &str) -> String {
        if self.0.get() == Some(which) {
            format!("{side} drawer open")
        } else {
            format!("{side} drawer")
        }
    }
}

/// Focuses the element with `id`, if there is one.
fn focus_id(id: &str) {
    if let Some(el) = document().get_element_by_id(id) {
        let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
    }
}

/// The button that opens or closes a drawer (shown on narrow screens only).
#[component]
fn DrawerToggle(which: Drawer) -> impl IntoView {
    let drawer = expect_context::<Drawers>();
    let open = move || drawer.0.get() == Some(which);
    let l = lang();
    view! {
        <button id=which.toggle_id() class="drawer-toggle" aria-controls=which.id() aria-expanded=move || open().to_string()
            on:click=move |_| if open() { drawer.close(false) } else { drawer.open(which) }>
            {move || l.t(which.label())}
        </button>
    }
}

/// A drawer's title bar with its Close button (narrow screens only).
#[component]
fn DrawerHead(which: Drawer) -> impl IntoView {
    let drawer = expect_context::<Drawers>();
    let l = lang();
    let close_label = match which {
        Drawer::Setup => "ui-close-setup",
        Drawer::Panels => "ui-close-panels",
    };
    view! {
        <div class="drawer-head">
            <h2 class="drawer-title">{move || l.t(which.title())}</h2>
            <button id=format!("{}-close", which.id()) class="drawer-close" aria-label=move || l.t(close_label) on:click=move |_| drawer.close(true)>{move || l.t("ui-close")}</button>
        </div>
    }
}

/// The keyboard shortcuts, in a modal dialog (opened with `?` or its button).
#[component]
fn ShortcutsHelp(dialog: NodeRef<leptos::html::Dialog>) -> impl IntoView {
    let l = lang();
    let keys: [(&str, &str); 9] = [
        ("Space", "ui-key-space"),
        ("←", "ui-key-left"),
        ("→", "ui-key-right"),
        ("Home", "ui-key-home"),
        ("End", "ui-key-end"),
        ("↑ ↓", "ui-key-updown"),
        ("?", "ui-key-help"),
        ("Esc", "ui-key-esc"),
        ("Esc", "ui-key-esc-tour"),
    ];
    view! {
        <dialog class="shortcuts" node_ref=dialog aria-labelledby="shortcuts-title">
            <h2 id="shortcuts-title">{move || l.t("ui-shortcuts")}</h2>
            <dl class="shortcut-list">
                {keys.into_iter().map(|(key, what)| view! { <div><dt><kbd>{key}</kbd></dt><dd>{move || l.t(what)}</dd></div> }).collect_view()}
            </dl>
            <p class="muted small">{move || l.t("ui-shortcuts-note")}</p>
            <button class="primary" on:click=move |_| { if let Some(d) = dialog.get_untracked() { d.close(); } }>{move || l.t("ui-close")}</button>
        </dialog>
    }
}

#[component]
fn Banner() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    // A failed model call surfaces here as well as on the agent's lifeline.
    Effect::new(move |seen: Option<usize>| {
        let errors = s.run.views.with(|v| v.model_errors());
        if errors > seen.unwrap_or(0) {
            let last = s.run.trace.with(super::views::last_model_error);
            if let Some((agent, error)) = last {
                s.banner.set(Some(tr!(l.cat_untracked(), "ui-model-failed", agent = agent.to_string(), error = error.to_string())));
            }
        }
        errors
    });
    move || {
        s.banner.get().map(|text| {
            view! {
                <div class="banner-error" role="alert">
                    <span>{text}</span>
                    <button class="dismiss" aria-label=move || l.t("ui-dismiss") on:click=move |_| s.banner.set(None)>"×"</button>
                </div>
            }
        })
    }
}

#[component]
fn PromptBox() -> impl IntoView {
    let s = expect_context::<Session>();
    let drawer = expect_context::<Drawers>();
    let prompt = RwSignal::new(String::new());
    let l = lang();
    let run = move || {
        let p = prompt.get_untracked();
        if p.trim().is_empty() {
            s.banner.set(Some(l.cat_untracked().t("ui-prompt-empty")));
            return;
        }
        s.submit(&p);
        drawer.close(true);
    };
    let on_key = move |ev: ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            run();
        }
    };
    view! {
        <section class="panel" aria-labelledby="prompt-title">
            <h2 id="prompt-title">{move || l.t("ui-prompt")}</h2>
            <textarea id="prompt" rows="3" aria-label=move || l.t("ui-prompt-label") placeholder=move || l.t("ui-prompt-placeholder")
                prop:value=move || prompt.get() on:input=move |ev| prompt.set(event_target_value(&ev))
                on:keydown=on_key></textarea>
            <div class="row">
                <button class="primary" on:click=move |_| run() disabled=move || s.run.running.get()
                    title=move || if s.run.running.get() { l.t("ui-run-busy") } else { String::new() }>{move || l.t("ui-run")}</button>
                <button on:click=move |_| { s.reset(); }>{move || l.t("ui-new-team")}</button>
            </div>
            <p class="will-run small" aria-live="polite">
                {move || tr!(l.cat(), "ui-will-run", provider = model_words(l.cat(), s.settings.team().provider.describe()))}
                {move || {
                    let changed = !s.settings_match_team() && !s.run.trace.with(|t| t.is_empty()) && !s.run.imported.get();
                    changed.then(|| view! { <span class="unapplied">{move || l.t("ui-settings-changed")}</span> })
                }}
                {move || s.settings.invalid.with(|m| m.values().next().cloned()).map(|why| view! { <span class="unapplied">{tr!(l.cat(), "ui-fix-settings", why = why)}</span> })}
            </p>
        </section>
    }
}

#[component]
fn ScenarioList() -> impl IntoView {
    let s = expect_context::<Session>();
    // On a narrow screen the drawer closes so the run shows.
    let drawer = expect_context::<Drawers>();
    let l = lang();
    view! {
        <section class="panel" aria-labelledby="scenarios-title">
            <h2 id="scenarios-title">{move || l.t("ui-scenarios")}</h2>
            <ul class="scenarios">
                {scenarios::PAGE.into_iter().map(|sc| view! {
                    <li>
                        <button class="scenario" data-scenario=sc.id on:click=move |_| { s.run_scenario(sc); drawer.close(true); }>
                            <strong>{move || super::i18n::scenario_title(l.cat(), sc.id, sc.title)}</strong>
                            <span class="scenario-prompt">{sc.prompts.join(" → ")}</span>
                        </button>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn Settings() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let set_seed = move |ev: ev::Event| {
        let text = event_target_value(&ev);
        match text.trim().parse::<u64>() {
            Ok(v) => {
                s.settings.seed.set(v);
                s.settings.mark("seed", None);
            }
            Err(_) => {
                let why = tr!(l.cat_untracked(), "ui-seed-bad", seed = text.trim().chars().take(40).collect::<String>());
                s.settings.mark("seed", Some(why.clone()));
                s.error(why);
            }
        }
    };
    let set_provider = move |ev: ev::Event| {
        if let Ok(p) = Provider::parse(&event_target_value(&ev)) {
            s.settings.provider.set(p);
            s.settings.load_remembered_key();
        }
    };
    let set_key = move |ev: ev::Event| {
        s.settings.api_key.set(event_target_value(&ev));
        if let Err(e) = s.settings.store_key() {
            s.storage_error(&e);
        }
    };
    let set_remember = move |ev: ev::Event| {
        s.settings.remember_key.set(event_target_checked(&ev));
        if let Err(e) = s.settings.store_key() {
            s.storage_error(&e);
        }
    };
    let set_base = move |ev: ev::Event| s.settings.base_url.set(event_target_value(&ev));
    let set_model = move |ev: ev::Event| s.settings.model_name.set(event_target_value(&ev));
    let set_max_tokens = move |ev: ev::Event| {
        let text = event_target_value(&ev);
        match text.trim().parse::<u32>() {
            Ok(v) if (1..=crate::model::provider_settings::MAX_TOKENS_LIMIT).contains(&v) => {
                s.settings.max_tokens.set(v);
                s.settings.mark("max tokens", None);
            }
            _ => {
                let why = tr!(
                    l.cat_untracked(),
                    "ui-max-tokens-bad",
                    limit = crate::model::provider_settings::MAX_TOKENS_LIMIT,
                    value = text.trim().chars().take(40).collect::<String>()
                );
                s.settings.mark("max tokens", Some(why.clone()));
                s.error(why);
            }
        }
    };
    let scripted = move || s.settings.provider.get() == Provider::Scripted;
    view! {
        <section class="panel" aria-labelledby="settings-title">
            <h2 id="settings-title">{move || l.t("ui-settings")}</h2>
            <label class="field">{move || l.t("ui-provider")}
                <select aria-label=move || l.t("ui-provider") on:change=set_provider>
                    {Provider::ALL.into_iter().map(|p| view! {
                        <option value=p.id() selected=move || s.settings.provider.get() == p>{move || l.t(&format!("provider-{}", p.id()))}</option>
                    }).collect_view()}
                </select>
            </label>
            <p class="muted small">{move || if scripted() { l.t("ui-scripted-note") } else { l.t("ui-provider-note") }}</p>
            <label class="field">{move || l.t("ui-api-key")}
                <input type="password" aria-label=move || l.t("ui-api-key") autocomplete="off" spellcheck="false" disabled=scripted prop:value=move || s.settings.api_key.get() on:change=set_key/>
            </label>
            <label class="inline small">
                <input type="checkbox" disabled=scripted prop:checked=move || s.settings.remember_key.get() on:change=set_remember/>
                {move || l.t("ui-remember-key")}
            </label>
            <label class="field">{move || l.t("ui-base-url")}
                <input type="url" aria-label=move || l.t("ui-base-url") disabled=scripted placeholder=move || s.settings.provider.get().default_base_url() prop:value=move || s.settings.base_url.get() on:change=set_base/>
            </label>
            <label class="field">{move || l.t("ui-model-name")}
                <input type="text" aria-label=move || l.t("ui-model-name") disabled=scripted placeholder=move || s.settings.provider.get().default_model() prop:value=move || s.settings.model_name.get() on:change=set_model/>
            </label>
            <label class="field">{move || l.t("ui-max-tokens")}
                <input type="number" aria-label=move || l.t("ui-max-tokens") min="1" max="200000" disabled=scripted aria-invalid=move || s.settings.invalid.with(|m| m.contains_key("max tokens")).to_string() prop:value=move || s.settings.max_tokens.get().to_string() on:change=set_max_tokens/>
            </label>
            <label class="field">{move || l.t("ui-seed")}
                <input type="number" aria-label=move || l.t("ui-seed") min="0" aria-invalid=move || s.settings.invalid.with(|m| m.contains_key("seed")).to_string() prop:value=move || s.settings.seed.get().to_string() on:change=set_seed/>
            </label>
            <p class="muted small">{move || l.t("ui-settings-note")}</p>
        </section>
    }
}

/// Export the trace (JSON, Mermaid, SVG) and import a JSON trace to replay.
#[component]
fn TracePanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let copy_status = RwSignal::new(String::new());
    let confirm_clear = RwSignal::new(false);
    let links = NodeRef::<leptos::html::Div>::new();
    let l = lang();
    // Each export fills its link with a Blob object URL (`download::offer`)
    // that the click then follows and tests read.
    let export = move |format: &'static str| {
        let (text, name, mime) = s.run.trace.with_untracked(|t| match format {
            "json" => (export::trace_json(t), "trace.json", "application/json"),
            "mermaid" => (export::mermaid(t), "trace.mmd", "text/plain"),
            _ => (
                export::svg_of_run(l.cat_untracked(), t, s.playback.cursor.get_untracked(), "Team Protocols Playground"),
                "diagram.svg",
                "image/svg+xml",
            ),
        });
        let Some(holder) = links.get() else { return };
        let Ok(Some(a)) = holder.query_selector(&format!("a[data-format={format}]")) else {
            return;
        };
        let a: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(a);
        if let Err(e) = download::offer(&a, &text, name, mime) {
            s.error(tr!(l.cat_untracked(), "ui-export-failed", format = format, error = error_words::download(l.cat_untracked(), &e)));
        }
    };
    let import = move |ev: ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        if let Err(e) = export::check_import_size(file.size() as u64) {
            s.banner.set(Some(tr!(l.cat_untracked(), "ui-error", error = error_words::import(l.cat_untracked(), &e))));
            input.set_value("");
            return;
        }
        input.set_value("");
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            match text.map(|t| export::import_json(&t)) {
                Some(Ok(trace)) => {
                    s.load(trace, None);
                    s.keep_current();
                }
                Some(Err(e)) => {
                    s.banner.set(Some(tr!(l.cat_untracked(), "ui-import-failed", error = error_words::import(l.cat_untracked(), &e))))
                }
                None => s.banner.set(Some(l.cat_untracked().t("ui-import-unreadable"))),
            }
        });
    };
    view! {
        <section class="panel" aria-labelledby="trace-title">
            <h2 id="trace-title">{move || l.t("ui-trace")}</h2>
            <div class="row wrap">
                <button on:click=move |_| export("json")>{move || l.t("ui-export-json")}</button>
                <button on:click=move |_| export("mermaid")>{move || l.t("ui-export-mermaid")}</button>
                <button on:click=move |_| export("svg")>{move || l.t("ui-export-svg")}</button>
            </div>
            <div class="export-links" node_ref=links hidden=true>
                <a data-format="json" aria-hidden="true">"json"</a>
                <a data-format="mermaid" aria-hidden="true">"mermaid"</a>
                <a data-format="svg" aria-hidden="true">"svg"</a>
            </div>
            <label class="field">{move || l.t("ui-import")}
                <input type="file" accept="application/json,.json" aria-label=move || l.t("ui-import") on:change=import/>
            </label>
            <p class="muted small">{move || if s.run.imported.get() { l.t("ui-imported-note") } else { String::new() }}</p>
            <div class="row wrap">
                <button on:click=move |_| s.save_run()>{move || l.t("ui-save-run")}</button>
            </div>
            {move || match s.share_link() {
                Ok(link) => {
                    let copied = link.clone();
                    view! {
                        <label class="field">{move || l.t("ui-share-link")}
                            <input type="text" readonly=true aria-label=move || l.t("ui-share-link") prop:value=link/>
                        </label>
                        <div class="row">
                            <button on:click=move |_| web::copy_to_clipboard(l, copied.clone(), copy_status)>{move || l.t("ui-copy")}</button>
                            <span class="copy-status small" role="status">{move || copy_status.get()}</span>
                        </div>
                    }.into_any()
                }
                Err(why) => view! { <p class="muted small">{move || error_words::share_link(l.cat(), &why)}</p> }.into_any(),
            }}
            {move || s.library.damaged.get().map(|why| view! { <p class="saved-damaged small" role="alert">{why}</p> })}
            {move || (s.library.damaged.with(Option::is_some) || !s.library.saved.with(Vec::is_empty)).then(|| view! {
                <div class="row wrap">
                    {move || if confirm_clear.get() {
                        view! {
                            <span class="small">{move || l.t("ui-clear-confirm")}</span>
                            <button class="danger" on:click=move |_| { confirm_clear.set(false); s.clear_saved(); }>{move || l.t("ui-clear-yes")}</button>
                            <button on:click=move |_| confirm_clear.set(false)>{move || l.t("ui-cancel")}</button>
                        }.into_any()
                    } else {
                        view! { <button on:click=move |_| confirm_clear.set(true)>{move || l.t("ui-clear-saved")}</button> }.into_any()
                    }}
                </div>
            })}
            <ul class="saved-runs" aria-label=move || l.t("ui-saved-runs")>
                {move || s.library.saved.get().into_iter().map(|(id, title)| view! {
                    <li>
                        <button class="saved-open" on:click=move |_| s.open_saved(id)>{title.clone()}</button>
                        <button class="saved-delete" aria-label=tr!(l.cat(), "ui-delete-saved", title = title.clone()) on:click=move |_| s.delete_saved(id)>{move || l.t("ui-delete")}</button>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}

/// Fault rules for the bus, applied to the next team: drop, delay,
/// duplicate or reorder messages, filtered by type, sender and recipient,
/// drawn from the run's seed so a faulty run replays exactly.
#[component]
fn FaultsPanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let action = RwSignal::new("drop".to_string());
    // Number fields keep what was typed: a rejected value stays on screen,
    // marked, and "Add fault rule" refuses it rather than using an older one.
    let delay = RwSignal::new("500".to_string());
    let msg_type = RwSignal::new(String::new());
    let from = RwSignal::new(String::new());
    let to = RwSignal::new(String::new());
    let probability = RwSignal::new("1".to_string());
    let parse_delay = move || -> Result<u64, String> {
        let text = delay.get_untracked();
        let ms = text.trim().parse::<u64>().map_err(|_| tr!(l.cat_untracked(), "ui-fault-delay-bad", value = text.trim()))?;
        FaultRule::new(FaultAction::Delay { ms }).validate().map_err(|e| e.to_string())?;
        Ok(ms)
    };
    let parse_probability = move || -> Result<f64, String> {
        let text = probability.get_untracked();
        let bad = || tr!(l.cat_untracked(), "ui-fault-probability-bad", value = text.trim());
        let p = crate::protocol::text::parse_decimal(text.trim()).ok_or_else(bad)?;
        FaultRule { probability: p, ..FaultRule::new(FaultAction::Drop) }.validate().map_err(|_| bad())?;
        Ok(p)
    };
    let add = move |_| {
        let name = |v: String| -> Result<Option<AgentName>, String> {
            let v = v.trim().to_string();
            if v.is_empty() {
                Ok(None)
            } else {
                AgentName::parse(&v).map(Some).map_err(|e| e.to_string())
            }
        };
        let rule = (|| -> Result<FaultRule, String> {
            let action = match action.get_untracked().as_str() {
                "delay" => FaultAction::Delay { ms: parse_delay()? },
                "duplicate" => FaultAction::Duplicate,
                "reorder" => FaultAction::Reorder,
                _ => FaultAction::Drop,
            };
            let mut rule = FaultRule::new(action);
            let t = msg_type.get_untracked();
            rule.msg_type = if t.is_empty() { None } else { Some(t.parse().map_err(|e: crate::protocol::MessageError| e.to_string())?) };
            rule.from = name(from.get_untracked())?;
            rule.to = name(to.get_untracked())?;
            rule.probability = parse_probability()?;
            rule.validate().map_err(|e| e.to_string())?;
            Ok(rule)
        })();
        match rule {
            Ok(rule) => s.settings.faults.update(|p| p.rules.push(rule)),
            Err(e) => s.error(tr!(l.cat_untracked(), "ui-fault-not-added", error = e)),
        }
    };
    let on = |sig: RwSignal<String>| move |ev: ev::Event| sig.set(event_target_value(&ev));
    let set_delay = move |ev: ev::Event| {
        delay.set(event_target_value(&ev));
        if let Err(e) = parse_delay() {
            s.error(e);
        }
    };
    let set_probability = move |ev: ev::Event| {
        probability.set(event_target_value(&ev));
        if let Err(e) = parse_probability() {
            s.error(e);
        }
    };
    let delay_bad = move || {
        delay.track();
        parse_delay().is_err().to_string()
    };
    let probability_bad = move || {
        probability.track();
        parse_probability().is_err().to_string()
    };
    view! {
        <section class="panel" aria-labelledby="faults-title">
            <h2 id="faults-title">{move || l.t("ui-faults")}</h2>
            <p class="muted small">{move || l.t("ui-faults-note")}</p>
            <div class="fault-form">
                <label class="field">{move || l.t("ui-fault-action")}
                    <select aria-label=move || l.t("ui-fault-action-label") on:change=on(action)>
                        <option value="drop">"drop"</option>
                        <option value="delay">"delay"</option>
                        <option value="duplicate">"duplicate"</option>
                        <option value="reorder">"reorder"</option>
                    </select>
                </label>
                <label class="field">{move || l.t("ui-fault-delay")}
                    <input type="number" min="0" aria-label=move || l.t("ui-fault-delay-label") aria-invalid=delay_bad prop:value=move || delay.get() on:change=set_delay/>
                </label>
                <label class="field">{move || l.t("ui-fault-type")}
                    <select aria-label=move || l.t("ui-fault-type-label") on:change=on(msg_type)>
                        <option value="">{move || l.t("ui-any")}</option>
                        {MessageType::ALL.into_iter().map(|t| view! { <option value=t.as_str()>{t.as_str()}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">{move || l.t("ui-fault-from")}
                    <input type="text" aria-label=move || l.t("ui-fault-from-label") placeholder=move || l.t("ui-any") prop:value=move || from.get() on:change=on(from)/>
                </label>
                <label class="field">{move || l.t("ui-fault-to")}
                    <input type="text" aria-label=move || l.t("ui-fault-to-label") placeholder=move || l.t("ui-any") prop:value=move || to.get() on:change=on(to)/>
                </label>
                <label class="field">{move || l.t("ui-fault-probability")}
                    <input type="number" min="0" max="1" step="0.05" aria-label=move || l.t("ui-fault-probability-label") aria-invalid=probability_bad prop:value=move || probability.get() on:change=set_probability/>
                </label>
                <button on:click=add>{move || l.t("ui-fault-add")}</button>
            </div>
            <ul class="fault-rules" aria-label=move || l.t("ui-fault-rules")>
                {move || s.settings.faults.get().rules.into_iter().enumerate().map(|(i, r)| {
                    let what = match &r.action {
                        FaultAction::Drop => "drop".to_string(),
                        FaultAction::Delay { ms } => tr!(l.cat(), "ui-fault-delay-ms", ms = *ms),
                        FaultAction::Duplicate => "duplicate".to_string(),
                        FaultAction::Reorder => "reorder".to_string(),
                    };
                    let cat = l.cat();
                    let filter = tr!(
                        cat,
                        "ui-fault-rule",
                        action = what,
                        msg_type = r.msg_type.map_or_else(|| cat.t("ui-fault-any-message"), |t| t.to_string()),
                        from = r.from.as_ref().map_or_else(|| cat.t("ui-fault-anyone"), |n| n.to_string()),
                        to = r.to.as_ref().map_or_else(|| cat.t("ui-fault-anyone"), |n| n.to_string()),
                        p = r.probability.to_string()
                    );
                    view! {
                        <li>
                            <span>{filter.clone()}</span>
                            <button aria-label=tr!(l.cat(), "ui-fault-remove-label", rule = filter.clone()) on:click=move |_| s.settings.faults.update(|p| { p.rules.remove(i); })>{move || l.t("ui-remove")}</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
        </section>
    }
}

#[component]
fn Controls() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    let len = move || s.run.trace.with(|t| t.len());
    let scrub = move |ev: ev::Event| {
        if let Ok(v) = event_target_value(&ev).parse::<usize>() {
            s.seek(v)
        }
    };
    let speed = move |ev: ev::Event| {
        if let Some(v) = crate::protocol::text::parse_decimal(&event_target_value(&ev)) {
            s.set_speed(v)
        }
    };
    let follow = move |ev: ev::Event| {
        if event_target_checked(&ev) {
            s.seek(usize::MAX)
        } else {
            s.playback.cursor.set(Some(s.shown()))
        }
    };
    view! {
        <div class="controls" id="controls" tabindex="-1" role="toolbar" aria-label=move || l.t("ui-controls")>
            <div class="mode" role="group" aria-label=move || l.t("ui-mode")>
                <button aria-pressed=move || (s.playback.mode.get() == Mode::Live).to_string() on:click=move |_| s.set_mode(Mode::Live)>{move || l.t("ui-live")}</button>
                <button aria-pressed=move || (s.playback.mode.get() == Mode::Step).to_string() on:click=move |_| s.set_mode(Mode::Step)>{move || l.t("ui-step")}</button>
            </div>
            <button on:click=move |_| s.back() disabled=move || s.shown() == 0 aria-keyshortcuts="ArrowLeft" title=move || l.t("ui-back-title")>{move || l.t("ui-back")}</button>
            <button class="play" on:click=move |_| s.playback.playing.update(|p| *p = !*p) aria-keyshortcuts="Space" title=move || l.t("ui-play-title")>{move || if s.playback.playing.get() { l.t("ui-pause") } else { l.t("ui-play") }}</button>
            <button on:click=move |_| s.next() aria-keyshortcuts="ArrowRight" title=move || l.t("ui-next-title")>{move || l.t("ui-next")}</button>
            <input class="scrubber" type="range" min="0" aria-label=move || l.t("ui-scrub")
                prop:max=move || len().to_string() prop:value=move || s.shown().to_string() on:input=scrub/>
            <span class="position" aria-live="polite">{move || format!("{} / {}", s.shown(), len())}</span>
            <label class="field inline">{move || l.t("ui-speed")}
                <select aria-label=move || l.t("ui-speed") on:change=speed>
                    {SPEEDS.into_iter().map(|v| view! { <option value=v.to_string() selected=v == 1.0>{format!("{v}×")}</option> }).collect_view()}
                </select>
            </label>
            <label class="inline"><input type="checkbox" aria-label=move || l.t("ui-follow") prop:checked=move || s.playback.cursor.get().is_none() on:change=follow/>{move || l.t("ui-follow")}</label>
            <button class="stop" on:click=move |_| s.stop() disabled=move || s.run.stopped.get()>{move || l.t("ui-stop")}</button>
            <span class="next-up" aria-live="polite">{move || {
                let waiting = s.run.next_up.get();
                if s.playback.mode.get() == Mode::Step && !waiting.is_empty() { tr!(l.cat(), "ui-next-up", events = waiting.join(" · ")) } else { String::new() }
            }}</span>
        </div>
    }
}

/// A model's name as the line under the title shows it: the built-in
/// scripted model's in the page's language, a real model's as it is.
fn model_words(cat: &Catalog, label: String) -> String {
    if label == crate::model::scripted::LABEL {
        cat.t("provider-scripted")
    } else if label == super::snapshot::UNKNOWN_PROVIDER {
        cat.t("provider-unknown")
    } else {
        label
    }
}
