//! The Explore panel: choose a scenario, the bounds and the properties to
//! show; Start and Stop; live counters while Web Workers search; each
//! property's verdict, and each example (a counterexample, or a
//! `sometimes` property's witness) opened on the diagram, with a card saying
//! what broke and why, the run's choices in words, and its link.
//!
//! Owns the panel's views (the form, the counters, the verdicts, the card
//! over the diagram). What they do is `ExploreUi` (`state`); the words
//! are `view::words::explorer`. They must not start workers or load runs
//! themselves.

use leptos::ev;
use leptos::prelude::*;

use crate::explore::job::{ExploreSettings, Job, JobState, MAX_DECISIONS, MAX_DEPTH, MAX_FAULTS, MAX_RUNS, MAX_WORKERS};
use crate::explore::{fork, Choice, FilePropertyReport, PathExample, Property, PropertyReport, Quantifier, Strategy, Verdict};
use crate::protocol::{FaultAction, Trace};
use crate::runtime::scenarios;
use crate::ui::browser::lang::lang;
use crate::ui::diagram::more::{Clamp, ClampedText, MoreButton};
use crate::ui::explore::state::{now, ExploreUi};
use crate::ui::explore::workers::cores;
use crate::ui::state::session::Session;
use crate::view::export::share;
use crate::view::i18n::tr;
use crate::view::words::explorer;

/// A snake_case name that may wrap after its underscores (never inside a
/// word): the parts with `<wbr>` between them; copying it gives the name.
fn breakable(name: &str) -> impl IntoView {
    let parts: Vec<String> = name.split_inclusive('_').map(str::to_string).collect();
    parts.into_iter().enumerate().map(|(i, part)| view! { {(i > 0).then(|| view! { <wbr/> })}{part} }).collect_view()
}

/// Thousands separated, for counters.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

const FAULT_KINDS: [(&str, FaultAction); 4] = [
    ("drop", FaultAction::Drop),
    ("duplicate", FaultAction::Duplicate),
    ("delay", FaultAction::Delay { ms: 1_000 }),
    ("reorder", FaultAction::Reorder),
];

/// The Explore panel.
#[component]
pub fn ExplorePanel() -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let max_workers = cores(MAX_WORKERS);
    let all_cores = cores(usize::MAX);
    // The panel's settings follow the run on screen (`ExploreUi::follow_runs`,
    // from the page, whether or not the panel has loaded yet), and its
    // workers end with the page (`ExploreUi::close`, likewise).
    // Spare workers follow the number chosen (`ExploreUi::warm` starts them
    // once the user comes to the panel).
    Effect::new(move |first: Option<()>| {
        ui.settings.with(|x| x.workers);
        if first.is_some() && ui.has_spare() {
            ui.warm();
        }
    });
    let set = move |f: &dyn Fn(&mut ExploreSettings)| ui.settings.update(|x| f(x));
    let number = move |ev: &ev::Event| event_target_value(ev).trim().parse::<usize>().ok();
    let running = move || ui.job.with(|j| j.as_ref().is_some_and(Job::is_running));
    let kind_checked = move |name: &'static str| move || ui.settings.with(|x| x.fault_kinds.iter().any(|k| k.name() == name));
    let toggle_kind = move |name: &'static str, action: FaultAction| {
        move |ev: ev::Event| {
            let on = event_target_checked(&ev);
            ui.settings.update(|x| {
                x.fault_kinds.retain(|k| k.name() != name);
                if on {
                    x.fault_kinds.push(action.clone());
                }
            });
        }
    };
    let not_whole = move |key: &'static str| s.error(l.cat_untracked().t(key));
    view! {
        <section class="panel explore" aria-labelledby="explore-title" on:pointerenter=move |_| ui.warm() on:focusin=move |_| ui.warm()>
            <h2 id="explore-title">{move || l.t("explore-title")}</h2>
            <p class="muted small">{move || l.t("explore-intro")}</p>
            <div class="explore-form">
                <label class="field">{move || l.t("explore-scenario")}
                    <select aria-label=move || l.t("explore-scenario-label") prop:value=move || ui.settings.with(|x| x.scenario.clone()) on:change=move |ev| {
                        let v = event_target_value(&ev);
                        set(&|x| {
                            // A built-in scenario leaves the file's team.
                            if x.team.is_some() && x.scenario != v {
                                x.team = None;
                                x.rules = Default::default();
                            }
                            x.scenario = v.clone();
                        })
                    }>
                        // A protocol file's own team, set from the Protocols view.
                        {move || ui.settings.with(|x| x.team.is_some().then(|| x.scenario.clone())).map(|id| {
                            let label = tr!(l.cat(), "explore-file-team", name = id.as_str());
                            view! { <option value=id.clone() selected=true>{label}</option> }
                        })}
                        {scenarios::ALL.into_iter().chain([scenarios::TWINS, scenarios::RESPAWN, scenarios::WITHOUT_PROTOCOLS]).map(|sc| view! { <option value=sc.id>{move || crate::view::words::scenarios::scenario_title(l.cat(), sc.id, sc.title)}</option> }).collect_view()}
                    </select>
                </label>
                <label class="field">{move || l.t("explore-faults-per-run")}
                    <input type="number" min="0" max=MAX_FAULTS.to_string() aria-label=move || l.t("explore-faults-per-run") prop:value=move || ui.settings.with(|x| x.max_faults.to_string())
                        on:change=move |ev| match number(&ev) { Some(n) => set(&|x| x.max_faults = n), None => not_whole("explore-faults-not-whole") }/>
                </label>
                <fieldset class="explore-kinds">
                    <legend>{move || l.t("explore-fault-kinds")}</legend>
                    {FAULT_KINDS.into_iter().map(|(name, action)| view! {
                        <label class="inline"><input type="checkbox" prop:checked=kind_checked(name) on:change=toggle_kind(name, action)/>{name}</label>
                    }).collect_view()}
                </fieldset>
                <label class="field">{move || l.t("explore-depth")}
                    <input type="number" min="1" max=MAX_DEPTH.to_string() aria-label=move || l.t("explore-depth") prop:value=move || ui.settings.with(|x| x.max_depth.to_string())
                        on:change=move |ev| match number(&ev) { Some(n) => set(&|x| x.max_depth = n), None => not_whole("explore-depth-not-whole") }/>
                </label>
                <label class="field">{move || l.t("explore-decisions")}
                    <input type="number" min="0" max=MAX_DECISIONS.to_string() aria-label=move || l.t("explore-decisions-label") prop:value=move || ui.settings.with(|x| x.max_decisions.to_string())
                        on:change=move |ev| match number(&ev) { Some(n) => set(&|x| x.max_decisions = n), None => not_whole("explore-decisions-not-whole") }/>
                </label>
                <label class="inline"><input type="checkbox" prop:checked=move || ui.settings.with(|x| x.decisions.withhold_answers) on:change=move |ev| { let on = event_target_checked(&ev); set(&|x| x.decisions.withhold_answers = on) }/>{move || l.t("explore-withhold")}</label>
                <label class="field">{move || l.t("explore-search")}
                    <select aria-label=move || l.t("explore-search-label") on:change=move |ev| {
                        let v = event_target_value(&ev);
                        set(&|x| x.strategy = match v.as_str() { "dfs" => Strategy::Dfs, "simulate" => Strategy::Simulate { runs: MAX_RUNS, seed: 1 }, _ => Strategy::Bfs })
                    }>
                        <option value="bfs">{move || l.t("explore-bfs")}</option>
                        <option value="dfs">{move || l.t("explore-dfs")}</option>
                        <option value="simulate">{move || l.t("explore-simulate")}</option>
                    </select>
                </label>
                <label class="field">{move || l.t("explore-workers")}
                    <select aria-label=move || l.t("explore-workers") on:change=move |ev| { if let Some(n) = number(&ev) { set(&|x| x.workers = n) } }>
                        {(1..=max_workers).map(|n| view! { <option value=n.to_string() selected=move || ui.settings.with(|x| x.workers == n)>{n.to_string()}</option> }).collect_view()}
                    </select>
                </label>
            </div>
            // Workers on every core leave none to the page: it may respond
            // later while they search (measured: the browser benchmark).
            {move || {
                let n = ui.settings.with(|x| x.workers);
                (n > 1 && n >= all_cores).then(|| view! { <p class="small muted">{tr!(l.cat(), "explore-workers-all-cores", count = n)}</p> })
            }}
            <div class="row wrap">
                <button class="primary" disabled=running on:click=move |_| ui.start(s)>{move || l.t("explore-start")}</button>
                <button disabled=move || !running() on:click=move |_| ui.stop()>{move || l.t("explore-stop")}</button>
                <button disabled=move || s.run.running.get() || s.run.trace.with(Trace::is_empty) on:click=move |_| ui.fork_on_screen(s)>{move || l.t("explore-fork-on-screen")}</button>
            </div>
            <Counters/>
            <CappedAnswers/>
            <Verdicts/>
        </section>
    }
}

/// The live counters and the job's state.
#[component]
fn Counters() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    // Fine-grained: a worker's message changes the numbers' text nodes only;
    // the status line and the bar change when the job's state does.
    let has_job = Memo::new(move |_| ui.job.with(Option::is_some));
    let running = Memo::new(move |_| ui.job.with(|j| j.as_ref().is_some_and(Job::is_running)));
    let counters = Memo::new(move |_| ui.job.with(|j| j.as_ref().map(|j| j.counters(now()))).unwrap_or_default());
    let status = Memo::new(move |_| {
        let cat = l.cat();
        ui.job.with(|job| {
            let Some(job) = job.as_ref() else { return String::new() };
            match &job.state {
                JobState::Running => {
                    let c = job.counters(0.0);
                    match c.shrinking {
                        Some(faults) => {
                            let faults = explorer::faults(cat, faults);
                            tr!(cat, "explore-state-shrinking", faults = faults.as_str(), done = c.finished, count = c.workers)
                        }
                        None => tr!(cat, "explore-state-running", done = c.finished, count = c.workers),
                    }
                }
                JobState::Done(r) if r.complete => cat.t("explore-state-done"),
                JobState::Done(_) => cat.t("explore-state-done-cut"),
                JobState::Stopped => cat.t("explore-state-stopped"),
                JobState::Failed(why) => tr!(cat, "explore-state-failed", error = why.as_str()),
            }
        })
    });
    let counter = move |key: &'static str, name: &'static str, value: fn(&crate::explore::job::Counters) -> String| {
        view! { <div><dt>{move || l.t(key)}</dt><dd data-counter=name>{move || counters.with(value)}</dd></div> }
    };
    move || {
        has_job.get().then(|| {
            view! {
                <div class="explore-status">
                    {move || {
                        let progress = l.t("explore-progress");
                        if running.get() {
                            view! { <progress class="explore-progress" aria-label=progress></progress> }.into_any()
                        } else {
                            view! { <progress class="explore-progress" aria-label=progress max="1" value="1"></progress> }.into_any()
                        }
                    }}
                    <p class="small" role="status">{move || status.get()}</p>
                    <dl class="explore-counters">
                        {counter("explore-counter-states", "states", |c| grouped(c.states))}
                        {counter("explore-counter-rate", "rate", |c| grouped(c.states_per_second.round() as u64))}
                        {counter("explore-counter-distinct", "distinct", |c| grouped(c.distinct_states))}
                        {counter("explore-counter-depth", "depth", |c| c.depth.to_string())}
                        {counter("explore-counter-frontier", "frontier", |c| grouped(c.frontier as u64))}
                        {counter("explore-counter-seconds", "seconds", |c| format!("{:.1}", c.seconds))}
                    </dl>
                </div>
            }
        })
    }
}

/// The note under the counters when the search reported (or, when that was
/// not under a file, the one the form would start) runs a protocol file's team with a
/// protocol whose answers the explorer caps: the search covers only part
/// of them (`explorer::capped_answers_in`).
#[component]
fn CappedAnswers() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let notes = Memo::new(move |_| {
        let team = ui.job.with(|j| j.as_ref().and_then(|j| j.settings.team.clone())).or_else(|| ui.settings.with(|x| x.team.clone()));
        team.map(|f| explorer::capped_answers_in(l.cat(), &f)).unwrap_or_default()
    });
    move || notes.get().into_iter().map(|note| view! { <p class="explore-capped small">{note}</p> }).collect_view()
}

/// Verdict rows drawn in the frame a report arrives; the rest follow in the
/// next frame, so no frame draws the whole list (the browser benchmark's
/// frame budget).
const FIRST_ROWS: usize = 8;

/// Each property's verdict, with a button that opens its example, and the
/// choice of which properties the list shows. The list is drawn once per
/// report, in two frames (`aria-busy` until its last rows are in); ticking
/// a property shows or hides its row, so the ticked box keeps its focus and
/// the choice stays open (the choice itself is drawn once, with the panel,
/// not with each report).
#[component]
fn Verdicts() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let done = Memo::new(move |_| ui.job.with(|job| matches!(job, Some(Job { state: JobState::Done(_), .. }))));
    let rest = RwSignal::new(false);
    let list = move || {
        let cat = l.cat();
        let (report, settings) = ui.job.with(|job| match job {
            Some(Job { state: JobState::Done(report), settings, .. }) => Some((report.clone(), settings.clone())),
            _ => None,
        })?;
        let outcomes = report.outcomes.len();
        let runs: u64 = report.outcomes.values().sum();
        let own = report.file_properties.clone();
        let own_rows = (!own.is_empty()).then(|| {
            let settings = settings.clone();
            view! {
                <ul class="verdicts file-verdicts" aria-label=cat.t("explore-file-verdicts")>
                    {own.into_iter().enumerate().map(|(index, p)| view! { <FileVerdictRow report=p index=index settings=settings.clone()/> }).collect_view()}
                </ul>
            }
        });
        let mut first = report.properties;
        let later = first.split_off(FIRST_ROWS.min(first.len()));
        rest.update_untracked(|r| *r = later.is_empty());
        if !later.is_empty() {
            request_animation_frame(move || rest.set(true));
        }
        let rows = {
            let settings = settings.clone();
            move || first.iter().map(|p| view! { <VerdictRow report=p.clone() settings=settings.clone()/> }).collect_view()
        };
        let more = move || {
            rest.get().then(|| later.iter().map(|p| view! { <VerdictRow report=p.clone() settings=settings.clone()/> }).collect_view())
        };
        Some(view! {
            <p class="small">{tr!(cat, "explore-outcomes", runs = grouped(runs), count = outcomes)}</p>
            <ul class="verdicts" aria-label=cat.t("explore-verdicts") aria-busy=move || (!rest.get()).to_string()>
                {rows()}
                {more}
            </ul>
            {own_rows}
        })
    };
    view! {
        {list}
        <details class="small" hidden=move || !done.get()>
            <summary>{move || l.t("explore-which-properties")}</summary>
            {Property::ALL.into_iter().map(|p| view! {
                <label class="inline"><input type="checkbox" prop:checked=move || ui.shown.with(|v| v.contains(&p))
                    on:change=move |ev| { let on = event_target_checked(&ev); ui.shown.update(|v| { v.retain(|x| *x != p); if on { v.push(p) } }) }/>
                    <code>{breakable(p.name())}</code></label>
            }).collect_view()}
        </details>
    }
}

/// One property's verdict, its statement when it fails (or a `sometimes`
/// one is not shown), and the button that opens its example.
#[component]
fn VerdictRow(
    /// The property's result.
    report: PropertyReport<PathExample>,
    /// The settings of the search it came from (to open its example).
    settings: ExploreSettings,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let cat = lang().cat_untracked();
    let property = report.property;
    let name = property.name();
    let button = report.example.as_ref().map(|e| {
        let kind = explorer::example_kind(cat, property);
        let faults = explorer::faults(cat, e.faults);
        let label = tr!(cat, "explore-open-example-label", kind = kind.as_str(), property = name, choices = e.path.len(), faults = faults);
        let opening = report.clone();
        view! { <button class="small" aria-label=label on:click=move |_| ui.open(s, settings.clone(), &opening)>{tr!(cat, "explore-open-example", kind = kind)}</button> }
    });
    let class = format!("verdict verdict-{}", explorer::verdict_class(report.verdict));
    let highlight =
        report.verdict == Verdict::Fails || (property.quantifier() == Quantifier::Sometimes && report.verdict != Verdict::Holds);
    view! {
        <li class=class data-property=name hidden=move || !ui.shown.with(|v| v.contains(&property))>
            <span class="verdict-badge">{explorer::verdict(cat, report.verdict)}</span>
            <span class="verdict-name"><code>{explorer::quantifier(property)}" "{breakable(name)}</code>
                {highlight.then(|| view! { <span class="small muted">{format!(" — {}", explorer::statement(cat, property))}</span> })}
            </span>
            {button}
        </li>
    }
}

/// One of a protocol file's own properties: its verdict, and the button
/// that opens its example on the diagram (a run to fork like any other).
#[component]
fn FileVerdictRow(
    /// The property's result.
    report: FilePropertyReport,
    /// Its place in the file's `[[property]]` list.
    index: usize,
    /// The settings of the search it came from.
    settings: ExploreSettings,
) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let cat = lang().cat_untracked();
    let written = format!("{} {}", explorer::quantifier_word(report.quantifier), report.name);
    let button = report.example.clone().map(|e| {
        let kind = if report.quantifier == Quantifier::Sometimes { cat.t("explore-witness") } else { cat.t("explore-counterexample") };
        let faults = explorer::faults(cat, e.faults);
        let label = tr!(
            cat,
            "explore-open-example-label",
            kind = kind.as_str(),
            property = report.name.as_str(),
            choices = e.path.len(),
            faults = faults
        );
        let opening = report.clone();
        let open = move |_| ui.open_file(s, settings.clone(), index, &opening);
        view! { <button class="small" aria-label=label on:click=open>{tr!(cat, "explore-open-example", kind = kind)}</button> }
    });
    let class = format!("verdict verdict-{}", explorer::verdict_class(report.verdict));
    view! {
        <li class=class data-file-property=report.name.clone()>
            <span class="verdict-badge">{explorer::verdict(cat, report.verdict)}</span>
            <span class="verdict-name"><code>{breakable(&written)}</code></span>
            {button}
        </li>
    }
}

/// The card over the diagram for a run of a search: what it breaks and
/// why, its choices in words (each one can be forked), its link; Close
/// returns to plain replay.
#[component]
pub fn ExploreFinding() -> impl IntoView {
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let copy_status = RwSignal::new(String::new());
    move || {
        let cat = l.cat();
        let opened = ui.opened.get()?;
        let href = opened.link().and_then(|link| {
            let f = share::explore_fragment(&link).ok()?;
            let location = web_sys::window()?.location();
            Some(format!("{}{}#{f}", location.origin().ok()?, location.pathname().ok()?))
        });
        let (title, text) = opened.card.words(cat);
        let marked = opened.seq.map(|seq| tr!(cat, "explore-marked", seq = seq.to_string()));
        let steps = opened.path.len();
        // A phone or a short screen keeps the story to a few lines (More
        // shows the rest) and the path folded, so the diagram keeps room.
        let clamp = Clamp::new("finding-text");
        let roomy = !crate::ui::browser::web::narrow();
        Some(view! {
            <section class="explore-finding" class:explore-example=opened.property.is_some() aria-labelledby="finding-title" aria-live="polite">
                <h2 id="finding-title">{title}</h2>
                <ClampedText clamp=clamp class="finding-text" text=Signal::stored(text)/>
                <MoreButton clamp=clamp/>
                {marked.filter(|_| opened.property.is_some()).map(|m| view! { <p class="small">{m}</p> })}
                <details open=opened.property.is_none() && roomy>
                    <summary>{tr!(cat, "explore-path-summary", count = steps)}</summary>
                    <ol class="explore-path small">
                        {opened.path.iter().enumerate().map(|(at, c)| view! { <PathStep at=at choice=c.clone()/> }).collect_view()}
                    </ol>
                </details>
                <div class="row wrap">
                    {href.map(|h| {
                        let copied = h.clone();
                        view! {
                            <a class="explore-link" href=h>{cat.t("explore-link")}</a>
                            <button on:click=move |_| crate::ui::browser::web::copy_to_clipboard(l, copied.clone(), copy_status)>{cat.t("explore-copy-link")}</button>
                            <span class="copy-status small" role="status">{move || copy_status.get()}</span>
                        }
                    })}
                    <button on:click=move |_| ui.opened.set(None)>{cat.t("ui-close")}</button>
                </div>
            </section>
        })
    }
}

/// One choice of an opened run, with a Fork button that lists the other
/// choices open there.
#[component]
fn PathStep(at: usize, choice: Choice) -> impl IntoView {
    let s = expect_context::<Session>();
    let ui = expect_context::<ExploreUi>();
    let l = lang();
    let others = RwSignal::new(None::<Vec<Choice>>);
    let list = move |_| {
        if others.get_untracked().is_some() {
            return others.set(None);
        }
        let Some(from) = ui.opened.get_untracked() else { return };
        let config = from.settings.config();
        let Ok(scenario) = crate::explore::file_team::scenario_of(&config) else { return };
        match fork::open_choices(scenario, &config, &from.path, at) {
            Ok(open) => others.set(Some(open.into_iter().skip(1).collect())),
            Err(e) => s.error(e),
        }
    };
    let words = {
        let choice = choice.clone();
        move || explorer::choice(l.cat(), &choice)
    };
    let label = {
        let choice = choice.clone();
        move || tr!(l.cat(), "fork-at-label", n = at + 1, choice = explorer::choice(l.cat(), &choice))
    };
    view! {
        <li>
            <span>{words}</span>" "
            <button class="link-button" aria-label=label aria-expanded=move || others.with(Option::is_some).to_string() on:click=list>{move || l.t("fork-button")}</button>
            {move || others.get().map(|open| if open.is_empty() {
                view! { <p class="muted">{l.t("fork-none-open")}</p> }.into_any()
            } else {
                let cat = l.cat();
                view! {
                    <ul class="fork-choices" aria-label=tr!(cat, "fork-others-label", n = at + 1)>
                        {open.into_iter().map(|c| {
                            let text = explorer::choice(cat, &c);
                            view! { <li><button on:click=move |_| ui.fork_at(s, at, c.clone())>{tr!(cat, "fork-instead", choice = text)}</button></li> }
                        }).collect_view()}
                    </ul>
                }.into_any()
            })}
        </li>
    }
}
