//! A fork on screen: the original run and the one that took another branch,
//! side by side in a table aligned by what happened and to which request,
//! the first difference marked (and scrolled to); either run opens on the
//! diagram at that point.
//!
//! Owns the fork's view. The runs come from `explore::fork`, the rows from
//! `fork_align`, the words from `captions`.

use leptos::prelude::*;

use super::captions::caption_of;
use super::explore_panel::{ExploreUi, Opened};
use super::fork_align::{request_of, Alignment, RowKind};
use super::i18n::Catalog;
use super::i18n_view::lang;
use super::session::Session;
use crate::explore::fork::Branch;
use crate::explore::Choice;
use crate::protocol::Trace;

/// A fork to show.
#[derive(Debug, Clone, PartialEq)]
pub struct ForkShown {
    /// The step (from 0) where the runs take different choices.
    pub at: usize,
    /// The run forked from.
    pub original: Branch,
    /// The run that took `choice` there.
    pub forked: Branch,
    /// The other choice.
    pub choice: Choice,
    /// The two runs' rows.
    pub alignment: Alignment,
    /// Where the original came from (its card), to reopen either run.
    pub from: Opened,
}

/// One side of a row: the event's sequence number, its caption's title and
/// its request.
fn cell(cat: &Catalog, trace: &Trace, index: Option<usize>) -> impl IntoView {
    let Some(i) = index else { return view! { <td class="fork-gap" aria-label="no counterpart"></td> }.into_any() };
    let entries = trace.entries();
    let entry = &entries[i];
    let title = caption_of(cat, entries, None, entry).title;
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
        let f = ui.fork.get()?;
        let cat = l.cat();
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
            let caption = (
                format!("The {} of the fork at choice {}", if side == 1 { "branch" } else { "original" }, f.at + 1),
                format!(
                    "At choice {} the {} took “{}”. The cursor is at the first event where the two runs differ.",
                    f.at + 1,
                    if side == 1 { "branch" } else { "original" },
                    if side == 1 { f.choice.to_string() } else { f.original.path.get(f.at).map(ToString::to_string).unwrap_or_default() }
                ),
            );
            ui.fork.set(None);
            ui.show(
                s,
                branch.trace.clone(),
                Opened { property: None, caption, seq, path: branch.path.clone(), settings: f.from.settings.clone() },
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
                        <th scope="row" class="fork-mark">{if is_first { "first difference ▶" } else { "" }}</th>
                        {cell(cat, &f.original.trace, row.left)}
                        {cell(cat, &f.forked.trace, row.right)}
                    </tr>
                }
            })
            .collect_view();
        let own = f.original.path.get(f.at).map(ToString::to_string).unwrap_or_default();
        let summary = match first {
            Some(r) => format!("They share {r} events, then part."),
            None => "The two runs are the same: this choice changes nothing that is recorded.".to_string(),
        };
        // Bring the first difference into view once drawn.
        request_animation_frame(move || {
            if let Some(el) = document().get_element_by_id("fork-first-difference") {
                el.scroll_into_view_with_bool(false);
            }
        });
        Some(view! {
            <section class="fork-view" aria-labelledby="fork-title">
                <h2 id="fork-title">{format!("Fork at choice {}", f.at + 1)}</h2>
                <p class="small">{format!("Original: “{own}”. Branch: “{}”. {summary}", f.choice)}</p>
                <div class="fork-scroll">
                    <table class="fork-table">
                        <caption class="visually-hidden">"The original run and the branch, event by event, aligned by request"</caption>
                        <thead><tr><th scope="col"></th><th scope="col">"Original"</th><th scope="col">"Branch"</th></tr></thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
                <div class="row wrap">
                    <button on:click=move |_| open("original")>"Open the original on the diagram"</button>
                    <button on:click=move |_| open("fork")>"Open the branch on the diagram"</button>
                    <button on:click=move |_| ui.fork.set(None)>"Close"</button>
                </div>
            </section>
        })
    }
}
