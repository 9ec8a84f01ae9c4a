//! A fork on screen: the original run and the one that took another branch,
//! side by side in a table aligned by what happened and to which request,
//! the first difference marked (and scrolled to); either run opens on the
//! diagram at that point.
//!
//! Owns the fork's view. The runs come from `explore::fork`, the rows from
//! `fork_align`, the words from `captions` and `view::words::explorer`.

use leptos::prelude::*;

use crate::protocol::Trace;
use crate::ui::browser::lang::lang;
use crate::ui::explore::state::{ExploreUi, Opened};
use crate::ui::state::session::Session;
use crate::view::fork_align::{request_of, RowKind};
use crate::view::i18n::{tr, Catalog};
use crate::view::words::captions::caption_of;
use crate::view::words::explorer::{self, Card};

/// One side of a row: the event's sequence number, its caption's title and
/// its request.
fn cell(cat: &Catalog, trace: &Trace, index: Option<usize>) -> impl IntoView {
    let Some(entry) = index.and_then(|i| trace.entries().get(i)) else {
        return view! { <td class="fork-gap" aria-label=cat.t("fork-no-counterpart")></td> }.into_any();
    };
    let title = caption_of(cat, trace.entries(), None, entry).title;
    let request = request_of(&entry.event);
    view! {
        <td>
            <span class="fork-seq">{format!("#{}", entry.seq)}</span>" "
            <span>{title}</span>
            {request.map(|r| view! { " " <code class="fork-request">{r}</code> })}
        </td>
    }
    .into_any()
}

/// The fork, side by side.
#[component]
pub fn ForkView() -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    move || {
        let cat = l.cat();
        let f = ui.fork.get()?;
        let first = f.alignment.first_difference;
        let open = move |which: &'static str| {
            let Some(f) = ui.fork.get_untracked() else { return };
            let (branch, side) = if which == "fork" { (f.forked.clone(), 1) } else { (f.original.clone(), 0) };
            let at = f.alignment.first_difference.and_then(|r| {
                let row = f.alignment.rows[r];
                if side == 1 {
                    row.right.or(row.left)
                } else {
                    row.left.or(row.right)
                }
            });
            let seq = at.and_then(|i| branch.trace.entries().get(i).map(|e| e.seq));
            let choice = if side == 1 { Some(f.choice.clone()) } else { f.original.path.get(f.at).cloned() };
            let card = Card::ForkSide { branch: side == 1, at: f.at, choice };
            ui.fork.set(None);
            ui.show(
                s,
                branch.trace.clone(),
                Opened { property: None, card, seq, path: branch.path.clone(), settings: f.from.settings.clone() },
            );
        };
        let rows = f
            .alignment
            .rows
            .iter()
            .enumerate()
            .map(|(n, row)| {
                let class = match row.kind {
                    RowKind::Same => "fork-same",
                    RowKind::Matched => "fork-matched",
                    RowKind::LeftOnly => "fork-left-only",
                    RowKind::RightOnly => "fork-right-only",
                };
                let is_first = Some(n) == first;
                view! {
                    <tr class=class class:fork-first=is_first id=is_first.then_some("fork-first-difference")>
                        <td class="fork-mark">{is_first.then(|| cat.t("fork-first-difference"))}</td>
                        {cell(cat, &f.original.trace, row.left)}
                        {cell(cat, &f.forked.trace, row.right)}
                    </tr>
                }
            })
            .collect_view();
        let own = f.original.path.get(f.at).map(|c| explorer::choice(cat, c)).unwrap_or_default();
        let summary = match first {
            Some(r) => tr!(cat, "fork-share", count = r),
            None => cat.t("fork-same"),
        };
        // Bring the first difference into view once drawn.
        request_animation_frame(move || {
            if let Some(el) = document().get_element_by_id("fork-first-difference") {
                el.scroll_into_view_with_bool(false);
            }
        });
        Some(view! {
            <section class="fork-view" aria-labelledby="fork-title">
                <h2 id="fork-title">{tr!(cat, "fork-title", n = f.at + 1)}</h2>
                <p class="small">{tr!(cat, "fork-summary", original = own, branch = explorer::choice(cat, &f.choice), summary = summary)}</p>
                <div class="fork-scroll" tabindex="0" role="group" aria-label=cat.t("fork-table-caption")>
                    <table class="fork-table">
                        <caption class="visually-hidden">{cat.t("fork-table-caption")}</caption>
                        <thead><tr><th scope="col"><span class="visually-hidden">{cat.t("fork-mark-header")}</span></th><th scope="col">{cat.t("fork-original")}</th><th scope="col">{cat.t("fork-branch")}</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <div class="row wrap">
                    <button on:click=move |_| open("original")>{cat.t("fork-open-original")}</button>
                    <button on:click=move |_| open("fork")>{cat.t("fork-open-branch")}</button>
                    <button on:click=move |_| ui.fork.set(None)>{cat.t("ui-close")}</button>
                </div>
            </section>
        })
    }
}
