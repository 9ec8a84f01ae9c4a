//! The page: its header, the error banner, the layout of the diagram and
//! the two side columns (the setup column in two tabs, the lesson's and
//! the engineer's tools; the "Start here" card over the controls
//! while nothing is loaded), skip links, opening a share link, the
//! keyboard shortcuts and presenter mode's layout.
//!
//! Owns layout and what the page does on its own (Play's timer, the keys,
//! links). Each part is its own module: the diagram, its controls and
//! caption in `ui::diagram`, the forms in `ui::setup`, the side panels and
//! the trace box in `ui::panels`, the drawers `drawers`, the shortcuts'
//! help `shortcuts`; every action goes through the `Session`. The parts the
//! first screen does not need (the tours, the explorer's cards, the Tools
//! tab) come through `ui::split`'s split points, rendered with `Suspend`.

use leptos::ev;
use leptos::prelude::*;

use crate::model::provider_settings::Provider;
use crate::runtime::scenarios;
use crate::runtime::scheduler::Mode;
use crate::ui::browser::lang::{lang, Lang, LanguageSwitcher};
use crate::ui::browser::web;
use crate::ui::diagram::canvas::DiagramView;
use crate::ui::diagram::caption_box::CaptionBox;
use crate::ui::diagram::controls::Controls;
use crate::ui::diagram::tour::TourState;
use crate::ui::explore::state::ExploreUi;
use crate::ui::panels::side::Panels;
use crate::ui::protocols::{Protocols, ProtocolsButton, ProtocolsView};
use crate::ui::setup::prompt_box::{model_words, PromptBox, ScenarioList};
use crate::ui::setup::start_card::StartCard;
use crate::ui::shell::drawers::{Drawer, DrawerHead, DrawerToggle, Drawers, SetupTab, SetupTabList, SetupTabs, ToolsButton};
use crate::ui::shell::presenter::PresenterToggle;
use crate::ui::shell::shortcuts::ShortcutsHelp;
use crate::ui::split;
use crate::ui::state::presenter::Presenter;
use crate::ui::state::session::Session;
use crate::view::export::share;
use crate::view::i18n::tr;
use crate::view::words::errors;

/// Opens what a link's fragment asks for. False when it asks for nothing
/// or cannot be opened (the banner then says what is wrong with it, and the
/// run on screen stays).
/// `ui` and `protocols` are passed in, not looked up: a link pasted into the
/// open tab arrives in an event listener, outside the page's owner.
/// A link that needs the protocol-file loader (an explorer link, a trace
/// recording its protocol file) is read once the loader's module has
/// arrived (`ui::split::read_link`): true then, and if it turns out not to
/// open, `or_else` runs (at start-up: the run from before a reload comes
/// back, as for any link that does not open).
fn open_link(s: Session, l: Lang, ui: ExploreUi, protocols: Protocols, hash: &str, or_else: fn(Session)) -> bool {
    let read = match share::parse_fragment_first(hash) {
        Ok(share::FirstRead::Read(run)) => Ok(run),
        Ok(share::FirstRead::NeedsLoader) => {
            let hash = hash.to_string();
            leptos::task::spawn_local(async move {
                let read = crate::ui::split::read_link(hash.clone()).await;
                if !show_link(s, l, ui, protocols, &hash, read) {
                    or_else(s);
                }
            });
            return true;
        }
        Err(e) => Err(e),
    };
    show_link(s, l, ui, protocols, hash, read)
}

/// Shows a link read by `open_link`; false when it asks for nothing or
/// cannot be opened.
fn show_link(
    s: Session,
    l: Lang,
    ui: ExploreUi,
    protocols: Protocols,
    hash: &str,
    read: Result<Option<share::SharedRun>, share::ShareError>,
) -> bool {
    match read {
        Ok(Some(share::SharedRun::Scenario { id, seed, faults })) => match (scenarios::by_id(&id), share::parse_budget(hash)) {
            (_, Err(e)) => {
                s.error(tr!(l.cat_untracked(), "ui-link-bad", error = errors::share(l.cat_untracked(), &e)));
                false
            }
            (Some(sc), Ok(budget)) => {
                // A scenario link replays on the scripted model.
                s.settings.provider.set(Provider::Scripted);
                s.settings.load_remembered_key();
                if let Some(seed) = seed {
                    s.settings.seed.set(seed);
                    s.settings.mark("seed", None);
                }
                s.settings.faults.set(faults);
                s.settings.budget.set(budget);
                s.settings.mark("budget", None);
                s.run_scenario(sc);
                true
            }
            (None, Ok(_)) => {
                s.error(tr!(l.cat_untracked(), "ui-link-unknown-scenario", id = id.chars().take(40).collect::<String>()));
                false
            }
        },
        Ok(Some(share::SharedRun::Trace(trace))) => {
            protocols.adopt(&trace);
            s.load(trace, None);
            s.keep_current();
            true
        }
        Ok(Some(share::SharedRun::Explore(link))) => {
            if let Some(file) = link.settings.team.as_ref() {
                protocols.adopt_file(file.name(), &file.text);
            }
            ui.open_link(s, *link)
        }
        Ok(None) => false,
        Err(e) => {
            s.error(tr!(l.cat_untracked(), "ui-link-bad", error = errors::share(l.cat_untracked(), &e)));
            false
        }
    }
}

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
    let s = Session::new(pace_ms.map_or(crate::ui::state::session::BASE_PACE_MS, |p| p as f64)).speaking(l);
    // Runs are kept through a queue of the session's own on the page's
    // database, or through the one a context shares (a browser test's page).
    if let Some(queue) = use_context::<crate::ui::state::storage::SharedQueue>().and_then(|q| q.0.try_get_value()) {
        s.keep_runs_through(queue);
    }
    provide_context(s);
    // Unmounted (a test's page, or the tab going away): the team stops.
    on_cleanup(move || s.end());
    let tours = TourState::new();
    provide_context(tours);
    let explore_ui = ExploreUi::new();
    provide_context(explore_ui);
    // Here rather than in the Explore panel, which loads with the Tools tab.
    explore_ui.follow_runs(s);
    on_cleanup(move || explore_ui.close());
    // The Protocols view (a modal drawer), opened from the header or with
    // F; a link's run that carries its file adds the file to it.
    let protocols = Protocols::new();
    provide_context(protocols);
    s.reset();
    // A share link reruns its scenario or shows its trace; otherwise the run
    // from before a reload comes back for replay. A bad link says so, and
    // its banner stays over the restored run.
    let hash = window().location().hash().unwrap_or_default();
    if !open_link(s, l, explore_ui, protocols, &hash, |s| s.restore_current()) {
        s.restore_current();
    }
    // A link pasted into this open tab.
    let hash_listener = window_event_listener(ev::hashchange, move |_| {
        let hash = window().location().hash().unwrap_or_default();
        if !hash.trim_start_matches('#').is_empty() {
            open_link(s, l, explore_ui, protocols, &hash, |_| {});
        }
    });
    on_cleanup(move || hash_listener.remove());
    s.refresh_saved();
    // A language whose messages could not be fetched: the banner says so.
    crate::ui::browser::lang::report_problems(move |text| s.banner.set(Some(text)));

    // Play: advance the cursor through the recording; at its end in Step
    // mode, release the next event of the run.
    Effect::new(move |_| {
        if !s.playback.playing.get() {
            return;
        }
        let delay = crate::ui::state::playback::step_interval(s.playback.speed.get());
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
    // Presenter mode: the controls, caption and diagram alone, large (the
    // canvas scales the diagram up while it is on).
    let presenter = Presenter::new();
    provide_context(presenter);
    let enter_presenter = Callback::new(move |()| {
        if drawer.which_untracked().is_some() {
            drawer.close(false);
        }
    });
    // The setup column's tabs: the lesson's way in, or the engineer's tools.
    let tabs = SetupTabs::new();
    provide_context(tabs);
    // True from the first time an explorer's finding or fork is on screen,
    // for good.
    let cards_opened = Memo::new(move |was: Option<&bool>| {
        was.copied().unwrap_or(false) || explore_ui.opened.with(Option::is_some) || explore_ui.fork.with(Option::is_some)
    });
    // True from the first time the Tools tab shows, for good.
    let tools_opened = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || tabs.0.get() == SetupTab::Tools);
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
        let dialog_open = shortcuts.get_untracked().is_some_and(|d| d.open()) || protocols.is_open();
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
            "f" | "F" => protocols.show(),
            "p" | "P" => {
                presenter.toggle();
                if presenter.on_untracked() {
                    enter_presenter.run(());
                }
            }
            "Escape" if drawer.which_untracked().is_some() => drawer.close(true),
            // As the shortcuts dialog says: Escape ends a guided tour, then
            // leaves presenter mode.
            "Escape" if tours.active.get_untracked().is_some() => crate::ui::diagram::tour::end(s, tours),
            "Escape" if presenter.on_untracked() => presenter.leave(),
            _ => return,
        }
        e.prevent_default();
    });
    on_cleanup(move || keys.remove());

    view! {
        <div class=move || if presenter.on() { "app presenter" } else { "app" }>
            <nav class="skip-links" aria-label=move || l.t("ui-skip-links")>
                <a class="skip" href="#controls" on:click=move |e| skip_to(e, "controls")>{move || l.t("ui-skip-controls")}</a>
                <a class="skip" href="#diagram" on:click=move |e| skip_to(e, "diagram")>{move || l.t("ui-skip-diagram")}</a>
                <a class="skip" href="#setup" hidden=move || presenter.on() on:click=move |e| { tabs.0.set(SetupTab::Learn); if web::narrow() { e.prevent_default(); drawer.open(Drawer::Setup) } else { skip_to(e, "prompt") } }>{move || l.t("ui-skip-setup")}</a>
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
                    <ToolsButton/>
                    <ProtocolsButton/>
                    <LanguageSwitcher/>
                    <PresenterToggle presenter=presenter on_enter=enter_presenter/>
                    <button class="shortcuts-button" aria-haspopup="dialog" on:click=move |_| open_shortcuts()><span class="shortcuts-text">{move || l.t("ui-shortcuts")}" "</span><kbd aria-hidden="true">"?"</kbd></button>
                </div>
            </header>
            <Banner/>
            <BudgetBanner/>
            <div class=move || if tabs.0.get() == SetupTab::Tools { "layout tools" } else { "layout" }>
                // The diagram comes first in reading and tab order; on a wide
                // screen the grid puts the setup column to its left.
                <main id="main" class=move || if s.run.stopped.get() && s.playback.cursor.get().is_none() { "centre stopped" } else { "centre" }>
                    <StartCard/>
                    <Controls/>
                    <CaptionBox/>
                    // Split points (`ui::split`): their own wasm modules in
                    // the release build, loaded once the page is up (the
                    // explorer's cards when the first finding or fork opens).
                    {Suspend::new(split::tour_card())}
                    {move || cards_opened.get().then(|| Suspend::new(split::explore_cards()))}
                    <DiagramView/>
                </main>
                <aside id="setup" class=move || drawer.class(Drawer::Setup, "left") hidden=move || presenter.on() aria-label=move || l.t("ui-drawer-setup-title")>
                    <DrawerHead which=Drawer::Setup/>
                    <SetupTabList/>
                    <div id="setup-tab-learn-panel" class="setup-panel" role="tabpanel" aria-labelledby=SetupTab::Learn.id() hidden=move || tabs.0.get() != SetupTab::Learn>
                        <PromptBox/>
                        {Suspend::new(split::tour_list(Callback::new(move |()| drawer.close(false))))}
                        <ScenarioList/>
                    </div>
                    <div id="setup-tab-tools-panel" class="setup-panel" role="tabpanel" aria-labelledby=SetupTab::Tools.id() hidden=move || tabs.0.get() != SetupTab::Tools>
                        // Built (and, split, loaded) when the tab first opens,
                        // then kept: its state survives switching tabs.
                        {move || tools_opened.get().then(|| Suspend::new(split::tools_tab()))}
                    </div>
                </aside>
                <aside id="panels" class=move || drawer.class(Drawer::Panels, "right") hidden=move || presenter.on() aria-label=move || l.t("ui-drawer-panels-title")>
                    <DrawerHead which=Drawer::Panels/>
                    <Panels/>
                </aside>
                <div class="scrim" hidden=move || drawer.which().is_none() on:click=move |_| drawer.close(true)></div>
            </div>
            <ShortcutsHelp dialog=shortcuts/>
            <ProtocolsView/>
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

/// The budget's banner: which limit stopped the run at which event, for as
/// long as the cursor is at or past that event (the trace says so: a
/// reloaded, imported or saved run shows it too).
#[component]
fn BudgetBanner() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    move || {
        let cursor = s.playback.cursor.get();
        s.run.trace.with(|t| crate::view::cost::budget_banner(l.cat(), t, cursor)).map(|text| {
            view! { <div class="banner-budget" role="status"><span>{text}</span></div> }
        })
    }
}

/// The error banner: the last error the page or a model call raised, in
/// the page's language, until dismissed.
#[component]
fn Banner() -> impl IntoView {
    let s = expect_context::<Session>();
    let l = lang();
    // A failed model call surfaces here as well as on the agent's lifeline.
    Effect::new(move |seen: Option<usize>| {
        let errors = s.run.views.with(|v| v.model_errors());
        if errors > seen.unwrap_or(0) {
            let last = s.run.trace.with(crate::view::panel_data::last_model_error);
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
