//! Bringing a stored run back without a long task: its trace is read
//! (`view::export::slices`) and its views built (`RunViews::extend`) a
//! slice of events at a time, handing the event loop back whenever
//! [`BUDGET_MS`] have passed, so a 100,000-event run restores while the
//! page stays responsive (and a browser driver waiting on it is answered).
//!
//! A run under a protocol file of its own records the file in its trace:
//! the file is loaded first, through the loader's split point
//! (`ui::split::load_protocol_file`, not in the first screen's module),
//! and handed to the reader (`preload_recorded`).
//!
//! Owns the pacing and that hand-over. What a stored run holds is `ui::state::storage`'s;
//! showing it is the `Session`'s. The protocol check `read_json` makes (a
//! replay) is the views' own replay here: a run that breaks the rules is
//! refused with the same error.

use crate::protocol::recorded_file::Preloaded;
use crate::protocol::trace_file::ImportError;
use crate::protocol::Trace;
use crate::view::derived::RunViews;
use crate::view::export::slices::{SliceReader, Start};

/// The longest stretch of work between two hand-backs to the event loop,
/// in ms (a "long task" is one over 50 ms).
pub const BUDGET_MS: f64 = 12.0;

/// Events read and taken in between two looks at the clock.
const STEP: usize = 64;

/// Hands the event loop back (a zero timeout: input, paint and other
/// tasks run first).
async fn yield_now() {
    gloo_timers::future::TimeoutFuture::new(0).await;
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// The trace in `text` (as `trace_json` writes it) and its views, read
/// and built a slice at a time; refused as `read_json` would refuse it.
pub async fn trace_and_views(text: &str) -> Result<(Trace, RunViews), ImportError> {
    let preloaded = preload_recorded(text).await;
    let load = |t: &str| Preloaded::load(preloaded.as_ref(), t);
    let mut since = now();
    let mut reader = match SliceReader::start(text, &load)? {
        Start::Whole(trace) => {
            let views = RunViews::of(&trace);
            return Ok((trace, views));
        }
        Start::Slices(reader) => reader,
    };
    let mut views = RunViews::of(reader.trace());
    loop {
        let done = reader.read(STEP)?;
        let entries = reader.trace().entries();
        views.extend(&entries[views.len().min(entries.len())..]);
        if done {
            break;
        }
        if now() - since > BUDGET_MS {
            yield_now().await;
            since = now();
        }
    }
    let trace = reader.into_trace();
    // The replay `read_json` would have made: the views made it.
    views.state_at(trace.entries(), None).map_err(ImportError::BreaksProtocol)?;
    Ok((trace, views))
}

/// The protocol file the trace in `text` records, loaded through the
/// loader's split point (fetched the first time); `None` when it records
/// none.
pub async fn preload_recorded(text: &str) -> Option<Preloaded> {
    let recorded = crate::protocol::recorded_file::recorded_text(text)?;
    let loaded = crate::ui::split::load_protocol_file(recorded.to_string()).await;
    Some(Preloaded::new(recorded, loaded))
}
