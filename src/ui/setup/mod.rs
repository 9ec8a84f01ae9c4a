//! What the next run is: the `prompt_box` (a prompt, the scenarios), the
//! `settings_form` (provider, model, seed), the `cost_form` (budget,
//! prices), the `faults_form`, and the
//! first screen's `start_card` (the lesson's tour and core scenarios).
//!
//! Forms only: the values live in `state::settings`; running goes through
//! the `Session`.

pub mod cost_form;
pub mod faults_form;
pub mod prompt_box;
pub mod settings_form;
pub mod start_card;
