//! What the next run is: the `prompt_box` (a prompt, the scenarios), the
//! `settings_form` (provider, model, seed) and the `faults_form`.
//!
//! Forms only: the values live in `state::settings`; running goes through
//! the `Session`.

pub mod faults_form;
pub mod prompt_box;
pub mod settings_form;
