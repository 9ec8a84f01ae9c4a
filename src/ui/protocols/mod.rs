//! The Protocols view: a modal drawer (opened from the header's Protocols
//! button or the `F` key) listing the built-in lesson file, teams and
//! examples (read only, with Edit a copy) and the user's own files (named,
//! kept in this browser, deletable with an undo; New file starts from the
//! commented template), and an editor: a plain textarea with a line-number
//! gutter kept in step with its scrolling, the file checked a moment
//! after typing stops (`CHECK_DELAY_MS`), every error listed with its line,
//! column, field path and sentence (a click puts the caret on it), and the
//! previews of a file that loads (the check runs in the loader's split
//! module, `ui::split::check_protocol_file`: its result arrives a moment
//! later, and only while the text it checked is still the one shown).
//!
//! Owns the view's signals and the browser calls (timer, caret, scroll,
//! storage via `store`). What is shown is computed in
//! `view::protocol_file`. File text only ever reaches the DOM as text
//! nodes and the textarea's value: never as markup.

pub mod store;

use leptos::prelude::*;
use leptos::{ev, html};

use crate::protocol::file::builtin;
use crate::ui::browser::lang::lang;
use crate::view::i18n::tr;
use std::sync::Arc;

use crate::protocol::Trace;
use crate::ui::explore::state::ExploreUi;
use crate::ui::shell::drawers::{Drawers, SetupTabs};
use crate::ui::state::session::Session;
use crate::view::protocol_file::store::{adopt, free_name, next_id, UserFile, DAMAGED_KEY};
use crate::view::protocol_file::{self as pf, Checked};
use crate::view::words::explorer;

/// How long after the last keystroke the file is checked, in ms: typing
/// never waits on the loader.
pub const CHECK_DELAY_MS: u64 = 200;

/// The editor's vertical padding in CSS pixels, top and bottom together
/// (style/main.css `.pf-editor textarea`): what the textarea's scroll
/// height holds beyond its lines.
const PADDING_PX: f64 = 12.0;

/// Which file is on show.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Pick {
    /// Nothing yet.
    None,
    /// The lesson's protocols.
    Lesson,
    /// A built-in team, by its place in `builtin::TEAMS`.
    Team(usize),
    /// An example, by its place in `builtin::EXAMPLES`.
    Example(usize),
    /// One of the user's files, by id.
    Mine(u64),
}

impl Pick {
    /// A built-in file's name and text.
    fn builtin(self) -> Option<(&'static str, &'static str)> {
        match self {
            Pick::Lesson => Some(("lesson", builtin::LESSON)),
            Pick::Team(i) => builtin::TEAMS.get(i).copied(),
            Pick::Example(i) => builtin::EXAMPLES.get(i).copied(),
            Pick::None | Pick::Mine(_) => None,
        }
    }
}

/// The view's state. `Copy`: signals only.
#[derive(Clone, Copy)]
pub struct Protocols {
    /// The dialog element.
    pub dialog: NodeRef<html::Dialog>,
    /// Open (its content is only built while open).
    pub open: RwSignal<bool>,
    files: RwSignal<Vec<UserFile>>,
    writable: RwSignal<bool>,
    loaded: RwSignal<bool>,
    pick: RwSignal<Pick>,
    /// The text in the editor (the textarea's value; not tracked per keystroke by the view).
    text: RwSignal<String>,
    /// The lines the gutter numbers.
    lines: RwSignal<usize>,
    checked: RwSignal<Option<Checked>>,
    notice: RwSignal<Option<String>>,
    deleted: RwSignal<Option<(usize, UserFile)>>,
    timer: StoredValue<Option<TimeoutHandle>>,
}

impl Protocols {
    /// A closed view.
    pub fn new() -> Self {
        Protocols {
            dialog: NodeRef::new(),
            open: RwSignal::new(false),
            files: RwSignal::new(Vec::new()),
            writable: RwSignal::new(false),
            loaded: RwSignal::new(false),
            pick: RwSignal::new(Pick::None),
            text: RwSignal::new(String::new()),
            lines: RwSignal::new(1),
            checked: RwSignal::new(None),
            notice: RwSignal::new(None),
            deleted: RwSignal::new(None),
            timer: StoredValue::new(None),
        }
    }

    /// Opens the view (reading the stored files the first time).
    pub fn show(self) {
        self.ensure_loaded();
        self.open.set(true);
        if let Some(d) = self.dialog.get_untracked() {
            if !d.open() {
                let _ = d.show_modal();
            }
        }
    }

    /// Reads the stored files, the first time only.
    fn ensure_loaded(self) {
        if !self.loaded.get_untracked() {
            let got = store::load();
            self.files.set(got.files);
            self.writable.set(got.writable);
            self.loaded.set(true);
            if let Some(problem) = got.problem {
                let cat = lang().cat_untracked();
                let words = match problem {
                    store::FilesError::Damaged(e) => tr!(cat, "ui-pf-store-damaged", error = e, key = DAMAGED_KEY),
                    other => tr!(cat, "ui-pf-store-write", error = other.to_string()),
                };
                self.notice.set(Some(words));
            }
        }
    }

    /// The run on screen came with a protocol file (a shared link, an
    /// imported trace): the file joins the user's list — the one of the
    /// same text if there is one, else a new file, renamed rather than
    /// written over one of the same name — and is the file on show when
    /// the view opens. True when it was added.
    pub fn adopt(self, trace: &Trace) -> bool {
        let Some(recorded) = trace.recorded_file() else { return false };
        self.adopt_file(&recorded.name, &recorded.text)
    }

    /// `adopt` for a file named `name` with `text` (an explorer link's
    /// file, say).
    pub fn adopt_file(self, name: &str, text: &str) -> bool {
        self.ensure_loaded();
        let mut added = (0, false);
        self.files.update(|files| added = adopt(files, name, text));
        let (id, new) = added;
        if new {
            self.save();
            self.notice.set(Some(tr!(lang().cat_untracked(), "ui-pf-adopted", name = name)));
        }
        self.select(Pick::Mine(id), text.to_string());
        new
    }

    /// Runs the file on show's team (the view closes onto the diagram), if
    /// it loads and has a team with a prompt.
    fn run(self, s: Session) {
        self.flush();
        let text = self.text.get_untracked();
        let Ok(file) = crate::protocol::file::load(&text) else { return };
        if s.run_file(Arc::new(file)) {
            self.hide();
        }
    }

    /// Sets the Explore panel on the file on show's team (its properties
    /// searched in the workers) and brings the panel into view; the view
    /// closes. The search starts from the panel's Explore.
    fn explore(self, s: Session, ui: ExploreUi) {
        self.flush();
        let text = self.text.get_untracked();
        let Ok(file) = crate::protocol::file::load(&text) else { return };
        match ui.settings.get_untracked().for_file(Arc::new(file)) {
            Ok(settings) => ui.settings.set(settings),
            Err(e) => return s.error(crate::view::words::explorer::job_error(lang().cat_untracked(), &e)),
        }
        self.hide();
        if let (Some(tabs), Some(drawer)) = (use_context::<SetupTabs>(), use_context::<Drawers>()) {
            tabs.open_tools(drawer);
        }
    }

    /// Closes the view (keeping what was just typed).
    pub fn hide(self) {
        self.flush();
        if let Some(d) = self.dialog.get_untracked() {
            d.close();
        }
        self.open.set(false);
    }

    /// Opens or closes the view.
    pub fn toggle(self) {
        if self.open.get_untracked() {
            self.hide();
        } else {
            self.show();
        }
    }

    /// True while the view is open (untracked, for key handlers).
    pub fn is_open(self) -> bool {
        self.dialog.get_untracked().is_some_and(|d| d.open())
    }

    /// Shows `pick` with `text`, its check started at once (what was typed
    /// into the file on show before is kept first).
    fn select(self, pick: Pick, text: String) {
        self.flush();
        self.lines.set(line_count(&text));
        self.checked.set(None);
        self.text.set(text.clone());
        self.pick.set(pick);
        self.check(text);
    }

    /// Checks `text` with the loader, in the loader's module (fetched the
    /// first time: `ui::split::check_protocol_file`, so the first screen's
    /// module does not hold it), and shows what it finds unless the
    /// editor's text has changed since (that text's own check follows).
    fn check(self, text: String) {
        let cat = lang().cat_untracked();
        leptos::task::spawn_local(async move {
            let checked = crate::ui::split::check_protocol_file(cat, text.clone()).await;
            if self.text.try_get_untracked().is_some_and(|now| now == text) {
                self.checked.try_set(Some(checked));
            }
        });
    }

    /// Checks and keeps at once what is waiting for typing to pause.
    fn flush(self) {
        if self.timer.get_value().is_some() {
            self.cancel_timer();
            self.settle();
        }
    }

    fn cancel_timer(self) {
        if let Some(h) = self.timer.get_value() {
            h.clear();
        }
        self.timer.set_value(None);
    }

    /// Keeps the user's list, saying why when the browser refuses.
    fn save(self) {
        if !self.writable.get_untracked() {
            return;
        }
        if let Err(e) = self.files.with_untracked(|f| store::save(f)) {
            self.notice.set(Some(tr!(lang().cat_untracked(), "ui-pf-store-write", error = e.to_string())));
        }
    }

    /// A new file of the user's with `name` and `text`, shown.
    fn add(self, name: &str, text: &str) {
        let mut id = 0;
        self.files.update(|files| {
            id = next_id(files);
            let name = free_name(files, name);
            files.push(UserFile { id, name, text: text.to_string() });
        });
        self.save();
        self.select(Pick::Mine(id), text.to_string());
    }

    /// After a keystroke: the gutter follows at once, the check and the
    /// save once typing pauses.
    fn typed(self, value: String) {
        let n = line_count(&value);
        if n != self.lines.get_untracked() {
            self.lines.set(n);
        }
        self.text.set(value);
        self.cancel_timer();
        let handle = set_timeout_with_handle(move || self.settle(), std::time::Duration::from_millis(CHECK_DELAY_MS));
        self.timer.set_value(handle.ok());
    }

    /// Checks and keeps the text in the editor.
    fn settle(self) {
        self.timer.set_value(None);
        let text = self.text.get_untracked();
        self.check(text.clone());
        if let Pick::Mine(id) = self.pick.get_untracked() {
            self.files.update(|files| {
                if let Some(f) = files.iter_mut().find(|f| f.id == id) {
                    f.text = text;
                }
            });
            self.save();
        }
    }

    fn delete(self, id: u64) {
        let mut gone = None;
        self.files.update(|files| {
            if let Some(at) = files.iter().position(|f| f.id == id) {
                gone = Some((at, files.remove(at)));
            }
        });
        if gone.is_some() {
            self.save();
            self.deleted.set(gone);
            if self.pick.get_untracked() == Pick::Mine(id) {
                self.cancel_timer();
                self.pick.set(Pick::None);
                self.checked.set(None);
            }
        }
    }

    fn undo_delete(self) {
        if let Some((at, file)) = self.deleted.get_untracked() {
            self.files.update(|files| files.insert(at.min(files.len()), file));
            self.deleted.set(None);
            self.save();
        }
    }
}

impl Default for Protocols {
    fn default() -> Self {
        Protocols::new()
    }
}

/// The lines of `text` (a trailing newline starts one more).
fn line_count(text: &str) -> usize {
    text.bytes().filter(|b| *b == b'\n').count() + 1
}

/// The header's button that opens the view.
#[component]
pub fn ProtocolsButton() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    view! {
        <button id="protocols-toggle" class="protocols-button" aria-haspopup="dialog" aria-controls="protocols"
            aria-keyshortcuts="F" on:click=move |_| p.show()>
            {move || l.t("ui-protocols")}
        </button>
    }
}

/// The view: a modal drawer whose content is built only while open.
#[component]
pub fn ProtocolsView() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    // A reload or a closed tab inside the pause after a keystroke keeps
    // what was typed: the page going away settles it at once.
    let leaving = window_event_listener(leptos::ev::pagehide, move |_| p.flush());
    on_cleanup(move || leaving.remove());
    view! {
        <dialog id="protocols" class="protocols" node_ref=p.dialog aria-labelledby="protocols-title"
            on:close=move |_| { p.flush(); p.open.set(false) }>
            <div class="pf-head">
                <h2 id="protocols-title">{move || l.t("ui-protocols-title")}</h2>
                <button id="protocols-close" aria-label=move || l.t("ui-protocols-close") on:click=move |_| p.hide()>{move || l.t("ui-close")}</button>
            </div>
            // The content is its own wasm module in the release build
            // (`ui::split`), fetched the first time the view opens.
            {move || p.open.get().then(|| Suspend::new(crate::ui::split::protocols_body()))}
        </dialog>
    }
}

/// The view's content, for its split point (`ui::split::protocols_body`).
pub(crate) fn body() -> AnyView {
    view! { <Body/> }.into_any()
}

/// The list and the editor.
#[component]
fn Body() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    view! {
        {move || p.notice.get().map(|n| view! {
            <p class="pf-notice" role="alert">{n}" "<button class="dismiss" aria-label=move || l.t("ui-dismiss") on:click=move |_| p.notice.set(None)>"×"</button></p>
        })}
        <div class="pf-body">
            <FileList/>
            <Editor/>
        </div>
    }
}

/// The files: built in, then the user's.
#[component]
fn FileList() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    let item = move |pick: Pick, name: &'static str| {
        let current = move || p.pick.get() == pick;
        view! {
            <li><button class="pf-item" aria-current=move || current().then_some("true")
                on:click=move |_| p.select(pick, pick.builtin().map(|(_, t)| t.to_string()).unwrap_or_default())>{name}</button></li>
        }
    };
    view! {
        <nav class="pf-list" aria-label=move || l.t("ui-protocols-title")>
            <h3>{move || l.t("ui-pf-mine")}</h3>
            <button class="primary" id="pf-new" on:click=move |_| p.add(&lang().cat_untracked().t("ui-pf-new-name"), pf::TEMPLATE)>{move || l.t("ui-pf-new")}</button>
            {move || p.deleted.get().map(|(_, f)| view! {
                <p class="pf-deleted" role="status">{tr!(l.cat(), "ui-pf-deleted", name = f.name)}" "
                    <button on:click=move |_| p.undo_delete()>{move || l.t("ui-pf-undo")}</button></p>
            })}
            <ul class="pf-mine">
                <For each=move || p.files.get() key=|f| (f.id, f.name.clone()) let:f>
                    {
                        let id = f.id;
                        let current = move || p.pick.get() == Pick::Mine(id);
                        let text = f.text.clone();
                        view! {
                            <li><button class="pf-item" aria-current=move || current().then_some("true")
                                on:click=move |_| p.select(Pick::Mine(id), p.files.with_untracked(|fs| fs.iter().find(|f| f.id == id).map(|f| f.text.clone())).unwrap_or_else(|| text.clone()))>{f.name.clone()}</button></li>
                        }
                    }
                </For>
            </ul>
            {move || p.files.with(|f| f.is_empty()).then(|| view! { <p class="muted small">{move || l.t("ui-pf-none")}</p> })}
            <h3>{move || l.t("ui-pf-lesson")}</h3>
            <ul>{item(Pick::Lesson, "lesson")}</ul>
            <h3>{move || l.t("ui-pf-teams")}</h3>
            <ul>{builtin::TEAMS.iter().enumerate().map(|(i, (name, _))| item(Pick::Team(i), name)).collect_view()}</ul>
            <h3>{move || l.t("ui-pf-examples")}</h3>
            <ul>{builtin::EXAMPLES.iter().enumerate().map(|(i, (name, _))| item(Pick::Example(i), name)).collect_view()}</ul>
        </nav>
    }
}

/// The file on show: its name or Edit a copy, the textarea with its
/// gutter, the errors and the previews.
#[component]
fn Editor() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    let area = NodeRef::<html::Textarea>::new();
    let gutter = NodeRef::<html::Pre>::new();
    let read_only = move || !matches!(p.pick.get(), Pick::Mine(_));
    let on_scroll = move |_| {
        if let (Some(a), Some(g)) = (area.get_untracked(), gutter.get_untracked()) {
            g.set_scroll_top(a.scroll_top());
        }
    };
    let on_input = move |e: ev::Event| p.typed(event_target_value(&e));
    // The caret on an error: its range selected, its line scrolled into view.
    let go_to = move |(from, to): (u32, u32), line: usize| {
        if let Some(a) = area.get_untracked() {
            let _ = a.focus();
            let _ = a.set_selection_range(from, to);
            // One line's height, as laid out (it grows with the page's font on a 4K screen).
            let lines = p.lines.get_untracked().max(1) as f64;
            let line_px = (f64::from(a.scroll_height()) - PADDING_PX).max(0.0) / lines;
            let top = (line.saturating_sub(1) as f64) * line_px - f64::from(a.client_height()) / 3.0;
            a.set_scroll_top(top.max(0.0) as i32);
            if let Some(g) = gutter.get_untracked() {
                g.set_scroll_top(a.scroll_top());
            }
        }
    };
    let head = move || {
        let pick = p.pick.get();
        match (pick, pick.builtin()) {
            (Pick::None, _) => view! { <p class="muted">{move || l.t("ui-pf-pick")}</p> }.into_any(),
            (_, Some((name, text))) => view! {
                <div class="pf-file-head">
                    <h3 class="pf-name">{name}</h3>
                    <p class="muted small">{move || l.t("ui-pf-read-only")}</p>
                    <button class="primary" id="pf-edit-copy" on:click=move |_| p.add(&tr!(lang().cat_untracked(), "ui-pf-copy-name", name = name), text)>{move || l.t("ui-pf-edit-copy")}</button>
                </div>
            }
            .into_any(),
            (Pick::Mine(id), None) => {
                let name = p.files.with_untracked(|fs| fs.iter().find(|f| f.id == id).map(|f| f.name.clone())).unwrap_or_default();
                let rename = move |e: ev::Event| {
                    let to = event_target_value(&e).trim().to_string();
                    if !to.is_empty() {
                        p.files.update(|fs| {
                            if let Some(f) = fs.iter_mut().find(|f| f.id == id) {
                                f.name = to;
                            }
                        });
                        p.save();
                    }
                };
                view! {
                    <div class="pf-file-head">
                        <label class="pf-rename">{move || l.t("ui-pf-name")}" "<input type="text" id="pf-name" prop:value=name on:change=rename/></label>
                        <button class="danger" id="pf-delete" aria-label=move || tr!(l.cat(), "ui-pf-delete-named", name = p.files.with(|fs| fs.iter().find(|f| f.id == id).map(|f| f.name.clone())).unwrap_or_default())
                            on:click=move |_| p.delete(id)>{move || l.t("ui-pf-delete")}</button>
                    </div>
                }
                .into_any()
            }
            _ => ().into_any(),
        }
    };
    // The textarea's value follows the file picked, not each keystroke.
    let value = move || {
        p.pick.track();
        p.text.get_untracked()
    };
    view! {
        <section class="pf-editor-pane" aria-labelledby="pf-text-label" hidden=move || p.pick.get() == Pick::None>
            {head}
            <div class="pf-editor">
                <pre class="pf-gutter" node_ref=gutter aria-hidden="true">{move || gutter_text(p.lines.get())}</pre>
                <textarea id="pf-text" node_ref=area spellcheck="false" wrap="off" autocomplete="off" autocapitalize="off"
                    aria-describedby="pf-status" readonly=read_only
                    prop:value=value on:input=on_input on:scroll=on_scroll></textarea>
            </div>
            <label id="pf-text-label" for="pf-text" class="visually-hidden">{move || l.t("ui-pf-text")}</label>
            <Status go_to=go_to/>
            <RunRow/>
            <Previews/>
        </section>
    }
}

/// "1\n2\n…" for `n` lines.
fn gutter_text(n: usize) -> String {
    let mut s = String::with_capacity(n * 4);
    for i in 1..=n {
        s.push_str(&i.to_string());
        s.push('\n');
    }
    s
}

/// Whether the file loads, and its errors as buttons that put the caret on them.
#[component]
fn Status(go_to: impl Fn((u32, u32), usize) + Copy + Send + Sync + 'static) -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    move || {
        let checked = p.checked.get();
        // A search under the file covers only part of a capped protocol's
        // answers: the check says so beside "The file loads."
        let capped = match &checked {
            Some(Checked::Loaded(preview)) => explorer::capped_answers(l.cat(), &preview.capped),
            _ => Vec::new(),
        };
        let (status, list) = match checked {
            None => (String::new(), Vec::new()),
            Some(Checked::Loaded(_)) => (l.t("ui-pf-loads"), Vec::new()),
            Some(Checked::Refused(why)) => (why, Vec::new()),
            Some(Checked::Errors(list)) => (tr!(l.cat(), "ui-pf-errors", count = list.len()), list),
        };
        let bad = !list.is_empty();
        let english = l.cat().locale() != crate::view::i18n::Locale::En && list.iter().any(|e| e.english);
        view! {
            <p id="pf-status" class=if bad { "pf-status bad" } else { "pf-status" } role="status">{status}</p>
            {capped.into_iter().map(|note| view! { <p class="pf-capped small">{note}</p> }).collect_view()}
            <ol class="pf-errors" hidden=!bad>
                {list.into_iter().map(|e| {
                    let at = tr!(l.cat(), "ui-pf-at", line = e.line, column = e.column);
                    let path = if e.path.is_empty() { l.t("ui-pf-whole-file") } else { e.path.clone() };
                    let (caret, line) = (e.caret, e.line);
                    view! {
                        <li><button class="pf-error" on:click=move |_| go_to(caret, line)>
                            <span class="pf-at">{at}</span>" "<code>{path}</code>" "<span>{e.sentence}</span>
                        </button></li>
                    }
                }).collect_view()}
            </ol>
            <p class="muted small" hidden=!english>{move || l.t("ui-pf-english-note")}</p>
        }
    }
}

/// Run the team: disabled, with the reason beside it, while the file
/// cannot run (`pf::run_blocked`).
#[component]
fn RunRow() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let blocked = Memo::new(move |_| p.checked.with(|c| pf::run_blocked(l.cat(), c.as_ref())));
    let busy = move || ui.job.with(|j| j.as_ref().is_some_and(|j| j.is_running()));
    view! {
        <div class="pf-run row wrap">
            <button class="primary" id="pf-run" disabled=move || blocked.with(Option::is_some)
                aria-describedby="pf-run-why" on:click=move |_| p.run(s)>{move || l.t("ui-pf-run")}</button>
            <button id="pf-explore" disabled=move || blocked.with(Option::is_some) || busy()
                aria-describedby="pf-run-why" on:click=move |_| p.explore(s, ui)>{move || l.t("ui-pf-explore")}</button>
            <p id="pf-run-why" class="muted small" hidden=move || blocked.with(Option::is_none)>{move || blocked.get().unwrap_or_default()}</p>
        </div>
    }
}

/// The previews of a file that loads.
#[component]
fn Previews() -> impl IntoView {
    let p = expect_context::<Protocols>();
    let l = lang();
    move || {
        let Some(Checked::Loaded(preview)) = p.checked.get() else { return None };
        let pf::Preview { protocols, tools, config, .. } = *preview;
        Some(view! {
            <section class="pf-previews" aria-labelledby="pf-previews-title">
                <h3 id="pf-previews-title">{move || l.t("ui-pf-previews")}</h3>
                {protocols.into_iter().map(|pr| view! {
                    <div class="pf-protocol">
                        <h4><code>{pr.name}</code></h4>
                        <p class="pf-label">{move || l.t("ui-pf-fsm")}</p>
                        <pre class="pf-code" tabindex="0">{pr.fsm.join("\n")}</pre>
                        <p class="pf-label">{move || l.t("ui-pf-tracker")}</p>
                        <pre class="pf-code" tabindex="0">{pr.tracker}</pre>
                    </div>
                }).collect_view()}
                {tools.into_iter().map(|t| {
                    let key = if t.role == "lead" { "ui-pf-tools-lead" } else { "ui-pf-tools-teammate" };
                    let json = if t.schemas.is_empty() { l.t("ui-pf-no-tools") } else { t.json };
                    view! {
                        <details class="pf-tools">
                            <summary>{move || l.t(key)}" ("{t.schemas.len()}")"</summary>
                            <pre class="pf-code" tabindex="0">{json}</pre>
                        </details>
                    }
                }).collect_view()}
                <p class="pf-label">{move || l.t("ui-pf-config")}</p>
                {match config {
                    Some(c) => view! { <pre class="pf-code" tabindex="0">{c}</pre> }.into_any(),
                    None => view! { <p class="muted small">{move || l.t("ui-pf-no-team")}</p> }.into_any(),
                }}
            </section>
        })
    }
}
