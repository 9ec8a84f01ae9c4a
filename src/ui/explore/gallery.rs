//! The gallery of real failures: one-click runs reproducing failures
//! reported against Claude Code's agent teams (`explore::gallery`). Each
//! entry says what failed in production and which invariant it breaks;
//! Reproduce searches its scenario in a worker with the protective rule
//! that prevents it switched off and opens the shortest counterexample; the
//! rule's switch then shows the same choices with the rule on (what the
//! rule does instead) and searches every run with it on, where the property
//! holds.
//!
//! Owns the gallery's view. Searches and opened runs go through
//! `ExploreUi` like any other; the entries are data in `explore::gallery`.

use leptos::prelude::*;

use crate::explore::gallery::{self, Entry, FileEntry, Watch, FILE_GALLERY, GALLERY};
use crate::explore::job::{ExploreSettings, JobState, GALLERY_WORKERS};
use crate::explore::Choice;
use crate::ui::browser::lang::lang;
use crate::ui::explore::state::{ExploreUi, GalleryRun, Opened};
use crate::ui::state::session::Session;
use crate::view::i18n::tr;
use crate::view::words::explorer::{self, Card};

/// The web address of `owner/repo#N`.
fn issue_url(reference: &str) -> Option<String> {
    let (repo, n) = reference.split_once('#')?;
    Some(format!("https://github.com/{repo}/issues/{n}"))
}

/// The links to the issues an entry cites, each followed by a space.
fn issue_links(issues: &'static [&'static str]) -> impl IntoView {
    issues
        .iter()
        .map(|r| view! { <a href=issue_url(r).unwrap_or_default() target="_blank" rel="noopener">{r.to_string()}</a>" " })
        .collect_view()
}

/// Opens the counterexample of the entry's search once it is done.
fn open_when_done(s: Session, ui: ExploreUi) {
    let Some(run) = ui.gallery.get() else { return };
    if !run.pending {
        return;
    }
    let Some(entry) = gallery::by_id(run.entry) else { return };
    let (report, settings) = match ui.job.with(|j| j.as_ref().map(|j| (j.state.clone(), j.settings.clone()))) {
        Some((JobState::Done(report), settings)) => (report, settings),
        Some((JobState::Running, _)) | None => return,
        Some(_) => {
            // Stopped or failed: the panel says why.
            ui.gallery.update(|g| {
                if let Some(g) = g {
                    g.pending = false
                }
            });
            return;
        }
    };
    let Some(found) = report.property(entry.property).cloned() else { return };
    if run.rule_on {
        ui.gallery.update(|g| {
            if let Some(g) = g {
                g.pending = false
            }
        });
        return;
    }
    match found.example.as_ref() {
        Some(example) => {
            let path = example.path.clone();
            ui.open(s, settings, &found);
            ui.opened.update(|o| {
                if let Some(Opened { card: Card::Finding { entry: e, .. }, .. }) = o {
                    *e = Some(entry.id);
                }
            });
            ui.gallery.set(Some(GalleryRun { path: Some(path), pending: false, ..run }));
        }
        None => {
            ui.gallery.update(|g| {
                if let Some(g) = g {
                    g.pending = false
                }
            });
            let cat = lang().cat_untracked();
            s.error(tr!(cat, "gallery-not-reproduced", title = explorer::gallery_title(cat, entry)));
        }
    }
}

/// Shows the counterexample's choices with the entry's rule on, and
/// searches every run with it on.
fn rule_on(s: Session, ui: ExploreUi, entry: &'static Entry, path: Vec<Choice>) {
    match gallery::with_rule_on(entry, &path) {
        Ok(trace) => {
            let settings = ExploreSettings::of_entry(entry, true);
            let card = Card::Prevented { entry: entry.id };
            ui.show(s, trace, Opened { property: None, card, seq: None, path, settings: settings.clone() });
            ui.settings.set(settings);
            ui.gallery.set(Some(GalleryRun {
                entry: entry.id,
                rule_on: true,
                path: ui.gallery.get_untracked().and_then(|g| g.path),
                pending: true,
            }));
            ui.start(s);
        }
        Err(e) => s.error(tr!(lang().cat_untracked(), "gallery-rule-on-failed", error = e.to_string())),
    }
}

/// The protocol file entry whose search is under way, waiting to open
/// its example (`FILE_GALLERY`).
#[derive(Clone, Copy)]
struct FilePending(RwSignal<Option<&'static FileEntry>>);

/// Opens the watched property's example of a file entry's search once it
/// is done (an entry whose file makes it hold opens nothing: its verdict
/// and the team's run on screen say so).
fn open_file_when_done(s: Session, ui: ExploreUi, pending: FilePending) {
    let Some(entry) = pending.0.get() else { return };
    let (report, settings) = match ui.job.with(|j| j.as_ref().map(|j| (j.state.clone(), j.settings.clone()))) {
        Some((JobState::Done(report), settings)) => (report, settings),
        Some((JobState::Running, _)) | None => return,
        Some(_) => return pending.0.set(None),
    };
    pending.0.set(None);
    if !entry.breaks {
        return;
    }
    match entry.watch {
        Watch::Builtin(p) => {
            if let Some(found) = report.property(p).filter(|r| r.example.is_some()) {
                ui.open(s, settings, found);
            }
        }
        Watch::Own(name) => {
            if let Some((index, p)) = report.file_properties.iter().enumerate().find(|(_, p)| p.name == name) {
                ui.open_file(s, settings, index, p);
            }
        }
    }
}

/// The gallery.
#[component]
pub fn Gallery() -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let pending = FilePending(RwSignal::new(None));
    provide_context(pending);
    Effect::new(move |_| open_when_done(s, ui));
    Effect::new(move |_| open_file_when_done(s, ui, pending));
    view! {
        <section class="panel gallery" aria-labelledby="gallery-title" on:pointerenter=move |_| ui.warm_for(GALLERY_WORKERS) on:focusin=move |_| ui.warm_for(GALLERY_WORKERS)>
            <h2 id="gallery-title">{move || l.t("gallery-title")}</h2>
            <p class="muted small">{move || l.t("gallery-intro")}</p>
            {GALLERY.iter().map(|entry| view! { <GalleryEntry entry=entry/> }).collect_view()}
            <h3 class="gallery-files-title">{move || l.t("gallery-files-title")}</h3>
            <p class="muted small">{move || l.t("gallery-files-intro")}</p>
            {FILE_GALLERY.iter().map(|entry| view! { <FileGalleryEntry entry=entry/> }).collect_view()}
        </section>
    }
}

#[component]
fn GalleryEntry(entry: &'static Entry) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let heading = format!("gallery-{}", entry.id);
    let labelled_by = heading.clone();
    let mine = move || ui.gallery.with(|g| g.as_ref().filter(|g| g.entry == entry.id).cloned());
    let busy = move || ui.job.with(|j| j.as_ref().is_some_and(|j| j.is_running()));
    let reproduce = move |_| {
        let settings = ExploreSettings::of_entry(entry, false);
        ui.settings.set(settings);
        ui.gallery.set(Some(GalleryRun { entry: entry.id, rule_on: false, path: None, pending: true }));
        ui.start(s);
    };
    let toggle = move |ev: leptos::ev::Event| {
        let on = event_target_checked(&ev);
        let Some(run) = mine() else { return };
        let Some(path) = run.path.clone() else { return };
        if on {
            rule_on(s, ui, entry, path);
        } else {
            // Back to the failure: search again with the rule off.
            ui.settings.set(ExploreSettings::of_entry(entry, false));
            ui.gallery.set(Some(GalleryRun { entry: entry.id, rule_on: false, path: None, pending: true }));
            ui.start(s);
        }
    };
    let issues = issue_links(entry.issues);
    view! {
        <article class="gallery-entry" aria-labelledby=labelled_by>
            <h3 id=heading>{move || explorer::gallery_title(l.cat(), entry)}</h3>
            <p class="small">{issues}</p>
            <p class="small">{move || explorer::gallery_caption(l.cat(), entry)}</p>
            <p class="small">{move || l.t("gallery-breaks")}" "<code>{format!("{} {}", explorer::quantifier(entry.property), entry.property.name())}</code></p>
            <div class="row wrap">
                <button disabled=busy on:click=reproduce>{move || l.t("gallery-reproduce")}</button>
                <label class="inline gallery-rule">
                    <input type="checkbox" role="switch"
                        disabled=move || busy() || mine().and_then(|g| g.path).is_none()
                        prop:checked=move || mine().is_some_and(|g| g.rule_on)
                        on:change=toggle/>
                    {move || l.t("gallery-rule-on")}" "<code>{entry.rule.name()}</code>
                </label>
            </div>
            <details class="small">
                <summary>{move || l.t("gallery-rule-summary")}</summary>
                <p>{move || explorer::rule_description(l.cat(), entry.rule)}</p>
            </details>
        </article>
    }
}

/// A protocol file's entry: what failed in production, and one click that
/// runs the file's team on the diagram and searches it (the example of
/// the property it breaks opens when the search is done).
#[component]
fn FileGalleryEntry(entry: &'static FileEntry) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let pending = expect_context::<FilePending>();
    let l = lang();
    let heading = format!("gallery-file-{}", entry.id);
    let labelled_by = heading.clone();
    let busy = move || ui.job.with(|j| j.as_ref().is_some_and(|j| j.is_running()));
    let show = move |_| {
        let settings = match ExploreSettings::of_file_entry(entry) {
            Ok(settings) => settings,
            Err(e) => return s.error(e),
        };
        if let Some(file) = settings.team.clone() {
            s.run_file(file);
        }
        ui.settings.set(settings);
        ui.gallery.set(None);
        pending.0.set(Some(entry));
        ui.start(s);
    };
    let issues = issue_links(entry.issues);
    let watched = match entry.watch {
        Watch::Own(name) => name.to_string(),
        Watch::Builtin(p) => format!("{} {}", explorer::quantifier(p), p.name()),
    };
    let search = if entry.breaks { "gallery-file-breaks" } else { "gallery-file-holds" };
    view! {
        <article class="gallery-entry gallery-file" aria-labelledby=labelled_by>
            <h3 id=heading>{move || explorer::file_gallery_title(l.cat(), entry)}</h3>
            <p class="small">{issues}<code>{format!("{}.toml", entry.example)}</code></p>
            <p class="small">{move || explorer::file_gallery_caption(l.cat(), entry)}</p>
            <p class="small">{move || l.t(search)}" "<code>{watched.clone()}</code></p>
            <div class="row wrap">
                <button disabled=busy on:click=show aria-label=move || tr!(l.cat(), "gallery-file-show-label", title = explorer::file_gallery_title(l.cat(), entry))>
                    {move || l.t("gallery-file-show")}
                </button>
            </div>
        </article>
    }
}
