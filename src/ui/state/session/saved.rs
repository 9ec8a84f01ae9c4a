//! The session's saved runs: the run kept across a reload, the library of
//! saved runs (save, open, delete, clear) and the share link of the run on
//! screen.
//!
//! Owns those actions only; the storage jobs are `storage`'s, restoring a
//! stored run a slice at a time is `restore`'s.

use std::future::Future;

use leptos::prelude::*;

use super::Session;
use crate::explore::job::ExploreLink;
use crate::protocol::Trace;
use crate::ui::state::restore;
use crate::ui::state::storage;
use crate::ui::state::storage::StorageError;
use crate::view::derived::RunViews;
use crate::view::export::{self, share};
use crate::view::i18n::tr;
use crate::view::words::errors;

/// Saved runs and the run kept across a reload.
impl Session {
    fn stored(&self) -> storage::StoredRun {
        let id = js_sys::Date::now() as u64;
        storage::StoredRun {
            id,
            title: self.run.title(),
            settings: self.run.snapshot.get_untracked(),
            trace: self.run.trace.with_untracked(export::trace_json),
        }
    }

    /// Queues `job` on browser storage, after the jobs asked for before it
    /// (see [`storage::StorageQueue`]); nothing once the session is gone.
    /// A job that touches the page checks first that it is still there.
    fn storage_job<F>(&self, job: impl FnOnce(storage::Runs) -> F + 'static)
    where
        F: Future<Output = ()> + 'static,
    {
        let _ = self.storage.try_with_value(|queue| queue.push(Box::new(move |runs| Box::pin(job(runs)))));
    }

    /// Runs `job` on browser storage in the background; what it refused is
    /// shown in the banner, unless the page is gone by then.
    fn in_storage<F>(&self, job: impl FnOnce(storage::Runs) -> F + 'static)
    where
        F: Future<Output = Result<(), StorageError>> + 'static,
    {
        let session = *self;
        self.storage_job(move |runs| async move {
            if let Err(e) = job(runs).await {
                if !session.banner.is_disposed() {
                    session.storage_error(&e);
                }
            }
        });
    }

    /// Keeps the run on screen as the one a reload restores (written in
    /// the background).
    pub fn keep_current(&self) {
        let run = self.stored();
        self.in_storage(move |runs| async move { runs.save_current(&run).await });
    }

    /// Reads a stored run's trace and builds its views, a slice at a time
    /// (`ui::state::restore`: no long task, even at 100,000 events).
    async fn read_stored(run: &storage::StoredRun) -> Result<(Trace, RunViews), StorageError> {
        restore::trace_and_views(&run.trace).await.map_err(|e| StorageError::Corrupt(e.to_string()))
    }

    /// Shows a stored run, read by [`Session::read_stored`]: its settings
    /// go on the form only if they pass validation; a bad value is dropped
    /// and the banner says so.
    fn show_stored(&self, run: storage::StoredRun, trace: Trace, views: RunViews) {
        let applied = run.settings.as_ref().map(|snap| self.settings.apply(snap));
        let snapshot = match applied {
            Some(Ok(())) => run.settings.clone(),
            _ => None,
        };
        self.load_built(views, trace, snapshot);
        if let Some(Err(e)) = applied {
            self.error(tr!(self.cat(), "session-settings-not-used", error = errors::snapshot(self.cat(), &e)));
        }
    }

    /// Brings back the run from before the reload, if there was one, once
    /// browser storage has read it (IndexedDB answers later). A run started
    /// or shown before then (a click on a scenario, a link pasted, an
    /// import) wins: the stored run is not shown over it, and is replaced
    /// when that run is kept. A banner already up (a bad link) stays.
    pub fn restore_current(&self) {
        let banner = self.banner.get_untracked();
        let runs_shown = self.runs_shown.get_value();
        let session = *self;
        self.storage_job(move |runs| async move {
            let stored = runs.load_current().await;
            if session.banner.is_disposed() || session.runs_shown.try_get_value() != Some(runs_shown) {
                return;
            }
            let forget = match stored {
                Ok(Some(run)) => {
                    let read = Session::read_stored(&run).await;
                    // Read a slice at a time: a run started meanwhile wins.
                    if session.banner.is_disposed() || session.runs_shown.try_get_value() != Some(runs_shown) {
                        return;
                    }
                    match read {
                        Ok((trace, views)) => {
                            session.show_stored(run, trace, views);
                            false
                        }
                        Err(e) => {
                            session.error(tr!(session.cat(), "session-not-restored", error = storage::words(session.cat(), &e)));
                            true
                        }
                    }
                }
                Ok(None) => false,
                Err(e) => {
                    session.storage_error(&e);
                    true
                }
            };
            if let Some(first) = banner {
                let later = session.banner.get_untracked();
                session.banner.set(Some(match later {
                    Some(later) if later != first => tr!(session.cat(), "session-also", first = first, later = later),
                    _ => first,
                }));
            }
            if forget {
                runs.forget_current().await;
            }
        });
    }

    /// Adds the run on screen to the saved runs.
    pub fn save_run(&self) {
        let run = self.stored();
        let session = *self;
        self.in_storage(move |runs| async move {
            runs.save(run).await?;
            session.refresh_saved();
            Ok(())
        });
    }

    /// Re-reads the saved runs list (in the background).
    pub fn refresh_saved(&self) {
        let session = *self;
        self.storage_job(move |runs| async move {
            let saved = runs.saved().await;
            if session.banner.is_disposed() {
                return;
            }
            match saved {
                Ok(runs) => {
                    session.library.saved.set(runs.into_iter().map(|r| (r.id, r.title)).collect());
                    session.library.damaged.set(None);
                }
                Err(e) => {
                    session.library.saved.set(Vec::new());
                    session.library.damaged.set(Some(storage::words(session.cat(), &e)));
                }
            }
        });
    }

    /// Opens a saved run for replay.
    pub fn open_saved(&self, id: u64) {
        let session = *self;
        self.in_storage(move |runs| async move {
            let run = runs.saved().await?.into_iter().find(|r| r.id == id).ok_or(StorageError::Gone)?;
            let (trace, views) = Session::read_stored(&run).await?;
            if session.banner.is_disposed() {
                return Ok(());
            }
            session.show_stored(run, trace, views);
            session.keep_current();
            Ok(())
        });
    }

    /// Deletes a saved run.
    pub fn delete_saved(&self, id: u64) {
        let session = *self;
        self.in_storage(move |runs| async move {
            let deleted = runs.delete(id).await;
            session.refresh_saved();
            deleted
        });
    }

    /// Deletes every saved run (after the user confirmed).
    pub fn clear_saved(&self) {
        let session = *self;
        self.in_storage(move |runs| async move {
            let cleared = runs.clear_saved().await;
            session.refresh_saved();
            cleared
        });
    }

    /// A link that reopens the run on screen, from its snapshot: a scripted
    /// scenario run that nobody touched is named by scenario, seed and fault
    /// rules (it replays exactly); an explorer's finding on screen is its
    /// explorer link (`finding`: the run comes back with its card); any
    /// other run carries its trace.
    pub fn share_link(&self, finding: Option<&ExploreLink>) -> Result<String, share::ShareLinkError> {
        if self.run.running.get() {
            return Err(share::ShareLinkError::Running);
        }
        if self.run.trace.with(Trace::is_empty) {
            return Err(share::ShareLinkError::Empty);
        }
        let location = web_sys::window().ok_or(share::ShareLinkError::NoAddress)?.location();
        let base = format!(
            "{}{}",
            location.origin().map_err(|_| share::ShareLinkError::NoAddress)?,
            location.pathname().map_err(|_| share::ShareLinkError::NoAddress)?
        );
        // A run stopped by hand did not play out as its scenario does.
        let snapshot = if self.run.stopped_by_user.get() { None } else { self.run.snapshot.get() };
        let fragment = match (finding, snapshot.as_ref().and_then(|snap| snap.reproducible_scenario().map(|sc| (sc, snap)))) {
            (Some(link), _) => share::explore_fragment(link)?,
            (None, Some((sc, snap))) => {
                let fragment = share::scenario_fragment(sc.id, snap.seed, &snap.faults);
                match snap.budget().ok().flatten() {
                    Some(budget) => format!("{fragment}&{}", share::budget_part(&budget)),
                    None => fragment,
                }
            }
            (None, None) => self.run.trace.with(share::trace_fragment)?,
        };
        Ok(format!("{base}#{fragment}"))
    }
}
