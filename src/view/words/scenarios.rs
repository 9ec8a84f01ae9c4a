//! Scenarios in the reader's language: a scenario's title, its prompts
//! and the line under its button, looked up in `i18n`'s catalogs by the
//! scenario's id and the prompt's place (`scenario-<id>-title`,
//! `scenario-<id>-prompt-<n>`). A prompt typed by the user is shown as it
//! is; what the model is given stays the prompt itself, in English.
//!
//! Words only: it must not decide which scenarios the page offers (the
//! runtime's `scenarios` and the page do) or read the page's state.

use crate::view::i18n::{or_own, Catalog};

/// A scenario's title in the page's language (`scenario-<id>-title`), or
/// its own title when the catalog has none for it.
pub fn scenario_title(cat: &Catalog, id: &str, own: &str) -> String {
    or_own(cat, &format!("scenario-{id}-title"), own)
}

/// Every scenario whose prompts the page shows (its buttons, the tours,
/// the explorer), in the order a prompt's message key is looked up: a
/// prompt two scenarios share is keyed by the first that has it.
const PROMPTED: [crate::runtime::scenarios::Scenario; 10] = {
    use crate::runtime::scenarios::*;
    [SHUTDOWN, LIST_AFTER_SHUTDOWN, REJECT_PLAN, APPROVE_PLAN, REJECT_THEN_ACCEPT, OUT_OF_ORDER, SCALE, WITHOUT_PROTOCOLS, TWINS, RESPAWN]
};

/// The message key of the first scenario prompt `is` picks
/// (`scenario-<id>-prompt-<n>`, n counted from 1), if any.
fn prompt_key(is: impl Fn(&str) -> bool) -> Option<String> {
    PROMPTED.iter().find_map(|sc| {
        let n = sc.prompts.iter().position(|p| is(p))?;
        Some(format!("scenario-{}-prompt-{}", sc.id, n + 1))
    })
}

/// Every scenario prompt's message key, once each (for the tests that
/// check each language has them).
pub fn prompt_keys() -> Vec<String> {
    let mut keys: Vec<String> = Vec::new();
    for sc in PROMPTED {
        for p in sc.prompts {
            let key = prompt_key(|q| q == *p).expect("a scenario's own prompt has a key");
            if !keys.contains(&key) {
                keys.push(key);
            }
        }
    }
    keys
}

/// A prompt as the page shows it: a scenario's prompt in `cat`'s language,
/// anything else (a prompt typed) as it is. What the model is given stays
/// the prompt itself, in English.
pub fn prompt_words(cat: &Catalog, prompt: &str) -> String {
    prompt_words_where(cat, prompt, |p| p == prompt)
}

/// The prompt `is` picks among the scenarios' in `cat`'s language, or
/// `own` when it picks none (the diagram's banner, which holds a prompt
/// already cut to its room, finds the prompt it was cut from so).
pub fn prompt_words_where(cat: &Catalog, own: &str, is: impl Fn(&str) -> bool) -> String {
    match prompt_key(is) {
        Some(key) => or_own(cat, &key, own),
        None => own.to_string(),
    }
}

/// What a scenario asks the lead, as the line under its button shows it:
/// its prompts in `cat`'s language, joined by arrows.
pub fn scenario_description(cat: &Catalog, scenario: &crate::runtime::scenarios::Scenario) -> String {
    scenario.prompts.iter().map(|p| prompt_words(cat, p)).collect::<Vec<_>>().join(" → ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::i18n::Locale;

    #[test]
    fn every_scenario_prompt_is_shown_as_written_in_english_and_translated_in_every_other_language() {
        use crate::runtime::scenarios;
        let keys = prompt_keys();
        assert_eq!(keys.len(), 11, "{keys:?}");
        for sc in PROMPTED {
            for p in sc.prompts {
                assert_eq!(prompt_words(Catalog::en(), p), *p, "English shows {} as the model is given it", sc.id);
                for l in [Locale::Zh, Locale::Ja, Locale::It] {
                    let shown = prompt_words(Catalog::get(l), p);
                    assert!(Catalog::get(l).has(&prompt_key(|q| q == *p).unwrap()), "{l:?} has {}'s prompt", sc.id);
                    assert_ne!(shown, *p, "{l:?} shows {}'s prompt translated", sc.id);
                }
            }
        }
        let zh = Catalog::get(Locale::Zh);
        assert_eq!(
            scenario_description(zh, &scenarios::LIST_AFTER_SHUTDOWN),
            format!("{} → {}", zh.t("scenario-shutdown-prompt-1"), zh.t("scenario-list-after-shutdown-prompt-2")),
            "a prompt two scenarios share is told once, under the first's key"
        );
        assert_eq!(prompt_words(zh, "Spawn bob."), "Spawn bob.", "a prompt typed is shown as it is");
    }
}
