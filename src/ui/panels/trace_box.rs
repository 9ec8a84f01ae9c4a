//! The trace box: export the run (JSON, Mermaid, SVG of the frame at the
//! cursor or of the whole run), import a JSON trace to replay, save runs in
//! the browser and reopen or delete them, and the run's share link (an
//! explorer link when a finding's card is on screen, so it comes back).
//!
//! Owns those controls; the formats are `export` and `share`, the saved
//! runs `library` (through the `Session`).

use leptos::ev;
use leptos::prelude::*;

use crate::ui::browser::lang::lang;
use crate::ui::browser::{download, web};
use crate::ui::explore::state::ExploreUi;
use crate::ui::state::session::Session;
use crate::view::export;
use crate::view::i18n::tr;
use crate::view::words::errors;

/// Export the trace (JSON, Mermaid, SVG) and import a JSON trace to replay.
#[component]
pub fn TracePanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let copy_status = RwSignal::new(String::new());
    let confirm_clear = RwSignal::new(false);
    let links = NodeRef::<leptos::html::Div>::new();
    let l = lang();
    // A finding's card on screen (its run loaded as recorded, no run since):
    // the link reopens the finding, card and all, not just its trace.
    let explore = use_context::<ExploreUi>();
    let finding = move || {
        let recorded = s.run.snapshot.with(Option::is_none);
        explore.filter(|_| recorded).and_then(|ui| ui.opened.with(|o| o.as_ref().and_then(|o| o.link())))
    };
    // Each export fills its link with a Blob object URL (`download::offer`)
    // that the click then follows and tests read.
    let export = move |format: &'static str| {
        // The diagram's costs at the run's model's price, as the page shows them.
        let price = s
            .run
            .snapshot
            .with_untracked(|snap| crate::view::cost::run_model(snap.as_ref()))
            .and_then(|m| s.settings.prices.with_untracked(|t| t.price_of(&m).cloned()));
        let svg = |t: &crate::protocol::Trace, cursor| {
            export::svg_of_run_priced(l.cat_untracked(), t, cursor, "Team Protocols Playground", price.as_ref())
        };
        let (text, name, mime) = s.run.trace.with_untracked(|t| match format {
            "json" => (export::trace_json(t), "trace.json", "application/json"),
            "mermaid" => (export::mermaid(t), "trace.mmd", "text/plain"),
            // The whole run: every event, as the diagram stands at its end.
            "svg-run" => (svg(t, None), "diagram-run.svg", "image/svg+xml"),
            _ => (svg(t, s.playback.cursor.get_untracked()), "diagram.svg", "image/svg+xml"),
        });
        let Some(holder) = links.get() else { return };
        let Ok(Some(a)) = holder.query_selector(&format!("a[data-format={format}]")) else {
            return;
        };
        let a: web_sys::HtmlElement = wasm_bindgen::JsCast::unchecked_into(a);
        if let Err(e) = download::offer(&a, &text, name, mime) {
            s.error(tr!(l.cat_untracked(), "ui-export-failed", format = format, error = download::words(l.cat_untracked(), &e)));
        }
    };
    let protocols = use_context::<crate::ui::protocols::Protocols>();
    let import = move |ev: ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        if let Err(e) = export::check_import_size(file.size() as u64) {
            s.banner.set(Some(tr!(l.cat_untracked(), "ui-error", error = errors::import(l.cat_untracked(), &e))));
            input.set_value("");
            return;
        }
        input.set_value("");
        leptos::task::spawn_local(async move {
            let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|v| v.as_string());
            match text.map(|t| export::import_json(&t)) {
                Some(Ok(trace)) => {
                    if let Some(p) = protocols {
                        p.adopt(&trace);
                    }
                    s.load(trace, None);
                    s.keep_current();
                }
                Some(Err(e)) => {
                    s.banner.set(Some(tr!(l.cat_untracked(), "ui-import-failed", error = errors::import(l.cat_untracked(), &e))))
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
                <button on:click=move |_| export("svg-run")>{move || l.t("ui-export-svg-run")}</button>
            </div>
            <div class="export-links" node_ref=links hidden=true>
                <a data-format="json" aria-hidden="true">"json"</a>
                <a data-format="mermaid" aria-hidden="true">"mermaid"</a>
                <a data-format="svg" aria-hidden="true">"svg"</a>
                <a data-format="svg-run" aria-hidden="true">"svg-run"</a>
            </div>
            <label class="field">{move || l.t("ui-import")}
                <input type="file" accept="application/json,.json" aria-label=move || l.t("ui-import") on:change=import/>
            </label>
            <p class="muted small">{move || if s.run.imported.get() { l.t("ui-imported-note") } else { String::new() }}</p>
            <div class="row wrap">
                <button on:click=move |_| s.save_run()>{move || l.t("ui-save-run")}</button>
            </div>
            {move || match s.share_link(finding().as_ref()) {
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
                Err(why) => view! { <p class="muted small">{move || errors::share_link(l.cat(), &why)}</p> }.into_any(),
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
