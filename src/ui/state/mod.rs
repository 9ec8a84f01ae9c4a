//! The page's state, one concern per module: `settings` (being edited, for
//! the next team), `run` (the run on screen, its derived views and the
//! snapshot that built it), `playback` (cursor, mode, speed), `library`
//! (saved runs), `storage` (what outlives a reload), `restore` (a stored
//! run brought back a slice at a time), `presenter` (whether
//! presenter mode is on), and the `session`
//! that holds them and is the only link to the runtime.
//!
//! Signals and browser storage only: nothing here draws.

pub mod library;
pub mod playback;
pub mod presenter;
pub mod restore;
pub mod run;
pub mod session;
pub mod settings;
pub mod storage;
