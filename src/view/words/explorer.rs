//! The explorer in words, for the page: what each property says, why it
//! matters (and which failure reported against a production agent-team
//! tool it stands for), each verdict and each choice of a run told plainly,
//! the gallery's entries and the protective rules, and the card over the
//! diagram — all in the page's language (`locales/<lang>/explore.ftl`).
//!
//! Owns these sentences only. Pure and native: no DOM; the search is
//! `explore`, the panel `ui::explore::panel`, the messages `view::i18n`.
//! Property names, rule names, agent names and issue references are passed
//! in unchanged.

use crate::explore::gallery::{self, Entry};
use crate::explore::job::ExploreJobError;
use crate::explore::{Choice, Detail, Property, Quantifier, Verdict};
use crate::protocol::Rule;
use crate::view::i18n::{or_own, tr, Catalog};
use crate::view::words::findings;

/// `first` then `next`, one sentence after another: a space between them,
/// none after a CJK full stop (Chinese and Japanese set none).
fn then(first: &str, next: &str) -> String {
    if first.ends_with(['。', '！', '？']) {
        format!("{first}{next}")
    } else {
        format!("{first} {next}")
    }
}

/// What the property says, in one sentence.
pub fn statement(cat: &Catalog, p: Property) -> String {
    cat.t(&format!("property-{}", p.name()))
}

/// The failure reported against Claude Code's agent teams that the
/// property stands for, if any (`anthropics/claude-code#N`).
pub fn reported(p: Property) -> &'static [u32] {
    match p {
        Property::OnlyTheAddresseeAnswers => &[81464],
        Property::NoAnswerAcrossRestart | Property::NoRequestAcrossRestart => &[45874],
        Property::NoActionAfterShutdownApproved => &[37895, 60199],
        Property::NoWorkBeforePlanApproval => &[65458],
        Property::EveryRequestHasAResponder => &[50310],
        Property::NoQuietWhilePending => &[51556],
        _ => &[],
    }
}

/// `always`, `sometimes` or `eventually`: part of the property's written
/// form (`always no_answer_lost`), the same in every language.
pub fn quantifier(p: Property) -> &'static str {
    quantifier_word(p.quantifier())
}

/// A quantifier's written form, the same in every language.
pub fn quantifier_word(q: Quantifier) -> &'static str {
    match q {
        Quantifier::Always => "always",
        Quantifier::Sometimes => "sometimes",
        Quantifier::Eventually => "eventually",
    }
}

/// The verdict's stable name (`holds`, `fails`, `unknown`), for classes.
pub fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::Unknown => "unknown",
    }
}

/// The verdict, as a badge says it.
pub fn verdict(cat: &Catalog, v: Verdict) -> String {
    cat.t(&format!("verdict-{}", verdict_class(v)))
}

/// What the example of a property is called: a counterexample breaks an
/// `always` or `eventually` property; a witness shows a `sometimes` one.
pub fn example_kind(cat: &Catalog, p: Property) -> String {
    match p.quantifier() {
        Quantifier::Sometimes => cat.t("explore-witness"),
        _ => cat.t("explore-counterexample"),
    }
}

/// `no fault`, `1 fault`, `3 faults`.
pub fn faults(cat: &Catalog, n: usize) -> String {
    tr!(cat, "explore-faults", count = n)
}

/// The caption of an opened example: what broke (or was shown), and why it
/// matters. `detail` is the explorer's own finding (`None`: the run was
/// rebuilt but this version does not find the property broken on it).
pub fn finding_caption(cat: &Catalog, p: Property, detail: Option<&Detail>, faults_n: usize, choices: usize) -> (String, String) {
    let name = p.name();
    let title = match p.quantifier() {
        Quantifier::Sometimes => tr!(cat, "explore-shown-title", property = name),
        q => {
            tr!(cat, "explore-broken-title", property = format!("{} {name}", if q == Quantifier::Always { "always" } else { "eventually" }))
        }
    };
    let detail = detail.map_or_else(|| cat.t("explore-not-found-on-rebuilt"), |d| findings::detail(cat, d));
    let mut text =
        tr!(cat, "explore-finding-text", detail = detail, statement = statement(cat, p), choices = choices, faults = faults(cat, faults_n));
    let issues = reported(p);
    if !issues.is_empty() {
        let refs: Vec<String> = issues.iter().map(|n| format!("anthropics/claude-code#{n}")).collect();
        text = then(&text, &tr!(cat, "explore-reported-as", issues = refs.join(", ")));
    }
    (title, text)
}

/// A choice of a run, as a step of its story.
pub fn choice(cat: &Catalog, c: &Choice) -> String {
    match c {
        Choice::Turn { agent, fault: None } => tr!(cat, "choice-turn", agent = agent.to_string()),
        Choice::Turn { agent, fault: Some(a) } => tr!(cat, "choice-turn-fault", agent = agent.to_string(), fault = a.name()),
        Choice::Reply { agent, label, .. } => tr!(cat, "choice-reply", agent = agent.to_string(), label = label.as_str()),
        Choice::Expire { request } => tr!(cat, "choice-expire", request = request.to_string()),
    }
}

/// A gallery entry's title (`gallery-<id>-title`), else its own.
pub fn gallery_title(cat: &Catalog, e: &Entry) -> String {
    or_own(cat, &format!("gallery-{}-title", e.id), e.title)
}

/// A gallery entry's caption (`gallery-<id>-caption`), else its own.
pub fn gallery_caption(cat: &Catalog, e: &Entry) -> String {
    or_own(cat, &format!("gallery-{}-caption", e.id), e.caption)
}

/// A protocol file's gallery entry's title (`gallery-file-<id>-title`), else its own.
pub fn file_gallery_title(cat: &Catalog, e: &gallery::FileEntry) -> String {
    or_own(cat, &format!("gallery-file-{}-title", e.id), e.title)
}

/// A protocol file's gallery entry's caption (`gallery-file-<id>-caption`), else its own.
pub fn file_gallery_caption(cat: &Catalog, e: &gallery::FileEntry) -> String {
    or_own(cat, &format!("gallery-file-{}-caption", e.id), e.caption)
}

/// A protective rule's description (`rule-<name>-description`), else its own.
pub fn rule_description(cat: &Catalog, r: Rule) -> String {
    or_own(cat, &format!("rule-{}-description", r.name()), r.description())
}

/// Why a search cannot start, or a worker's message cannot be read.
pub fn job_error(cat: &Catalog, e: &ExploreJobError) -> String {
    use crate::explore::job::{MAX_FAULTS, MAX_WORKERS};
    match e {
        ExploreJobError::UnknownScenario(id) => tr!(cat, "explore-err-scenario", id = id.as_str()),
        ExploreJobError::Workers(n) => tr!(cat, "explore-err-workers", count = *n, max = MAX_WORKERS),
        ExploreJobError::Faults(n) => tr!(cat, "explore-err-faults", count = *n, max = MAX_FAULTS),
        ExploreJobError::NoFaultKind => cat.t("explore-err-no-fault-kind"),
        ExploreJobError::Zero(what) => tr!(cat, "explore-err-zero", bound = bound_name(cat, what)),
        // Digits, not a number: a link's value may be past what a float
        // (Fluent's number) holds exactly.
        ExploreJobError::TooLarge { bound, value, max } => {
            tr!(cat, "explore-err-too-large", bound = bound_name(cat, bound), count = value.to_string().as_str(), max = *max)
        }
        ExploreJobError::BadMessage(why) => tr!(cat, "explore-err-bad-message", error = why.as_str()),
        ExploreJobError::File(why) => tr!(cat, "explore-err-file", error = why.as_str()),
    }
}

/// A bound named by `ExploreJobError::Zero` or `TooLarge`, in words.
fn bound_name(cat: &Catalog, what: &str) -> String {
    match what {
        "the depth bound" => cat.t("explore-bound-depth"),
        "the state bound" => cat.t("explore-bound-states"),
        "the off-script decisions bound" => cat.t("explore-bound-decisions"),
        "the number of random runs" => cat.t("explore-bound-runs"),
        other => other.to_string(),
    }
}

/// What the card over the diagram says about a run of a search; worded
/// when drawn, so a language switch rewords it.
#[derive(Debug, Clone, PartialEq)]
pub enum Card {
    /// An example of a property (a gallery entry's, when `entry` is set).
    Finding {
        /// The property broken or shown.
        property: Property,
        /// What the explorer found, as facts (`None`: not found on the
        /// rebuilt run).
        detail: Option<Detail>,
        /// Faults in the run.
        faults: usize,
        /// Choices in the run.
        choices: usize,
        /// The gallery entry it reproduces.
        entry: Option<&'static str>,
    },
    /// A gallery entry's choices replayed with its rule on.
    Prevented {
        /// The gallery entry.
        entry: &'static str,
    },
    /// An example of a protocol file's own property: its name as the file
    /// writes it, and what the monitor saw, in its words.
    FileFinding {
        /// The property's name in the file.
        name: String,
        /// `always`, `eventually` or `sometimes`.
        quantifier: Quantifier,
        /// What happened (the monitor's sentence).
        detail: String,
        /// Faults in the run.
        faults: usize,
        /// Choices in the run.
        choices: usize,
    },
    /// The run on screen recovered as the explorer's path.
    OnScreen {
        /// Its choices.
        choices: usize,
    },
    /// One side of a fork opened on the diagram.
    ForkSide {
        /// The branch (else the original).
        branch: bool,
        /// The step (from 0) where the runs part.
        at: usize,
        /// The choice this side took there.
        choice: Option<Choice>,
    },
}

impl Card {
    /// The card's title and text in `cat`'s language.
    pub fn words(&self, cat: &Catalog) -> (String, String) {
        match self {
            Card::Finding { property, detail, faults, choices, entry } => {
                let (title, text) = finding_caption(cat, *property, detail.as_ref(), *faults, *choices);
                match entry.and_then(gallery::by_id) {
                    Some(e) => (tr!(cat, "gallery-reproduced-title", title = gallery_title(cat, e)), then(&gallery_caption(cat, e), &text)),
                    None => (title, text),
                }
            }
            Card::Prevented { entry } => match gallery::by_id(entry) {
                Some(e) => (
                    tr!(cat, "gallery-prevented-title", title = gallery_title(cat, e)),
                    tr!(
                        cat,
                        "gallery-prevented-text",
                        rule = e.rule.name(),
                        property = format!("{} {}", quantifier(e.property), e.property.name()),
                        description = rule_description(cat, e.rule)
                    ),
                ),
                None => (entry.to_string(), String::new()),
            },
            Card::FileFinding { name, quantifier: q, detail, faults: f, choices } => {
                let key = if *q == Quantifier::Sometimes { "explore-file-shown-title" } else { "explore-file-broken-title" };
                (
                    tr!(cat, key, property = format!("{} {name}", quantifier_word(*q))),
                    tr!(cat, "explore-file-finding-text", detail = detail.as_str(), faults = faults(cat, *f), count = *choices),
                )
            }
            Card::OnScreen { choices } => (tr!(cat, "explore-on-screen-title", count = *choices), cat.t("explore-on-screen-text")),
            Card::ForkSide { branch, at, choice: c } => {
                let side = if *branch { cat.t("fork-side-branch") } else { cat.t("fork-side-original") };
                let took = c.as_ref().map(|c| choice(cat, c)).unwrap_or_default();
                (
                    tr!(cat, "fork-side-title", side = side.as_str(), n = at + 1),
                    tr!(cat, "fork-side-text", side = side.as_str(), n = at + 1, choice = took),
                )
            }
        }
    }
}

/// One sentence per protocol of a file whose answers outnumber what the
/// explorer offers per answer (`capped`, as
/// `model::scripted::answer_points::capped_protocols` names them, with how
/// many answers each has): a search under the file covers only the first
/// `MAX_ANSWER_POINTS` of them, and the reader is told so. Empty when no
/// protocol is capped.
pub fn capped_answers(cat: &Catalog, capped: &[(String, u128)]) -> Vec<String> {
    let cap = crate::model::scripted::answer_points::MAX_ANSWER_POINTS;
    capped.iter().map(|(name, n)| tr!(cat, "explore-capped-answers", name = name.as_str(), count = n.to_string(), cap = cap)).collect()
}

/// `capped_answers` of the protocols of `file` the explorer caps.
pub fn capped_answers_in(cat: &Catalog, file: &crate::protocol::file::ProtocolFile) -> Vec<String> {
    capped_answers(cat, &crate::model::scripted::answer_points::capped_protocols(file))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::i18n::Locale;

    #[test]
    fn every_property_has_a_statement_that_is_a_sentence() {
        for p in Property::ALL {
            let s = statement(Catalog::en(), p);
            assert!(s.len() > 20 && s.ends_with('.'), "{}: {s}", p.name());
        }
    }

    #[test]
    fn a_finding_caption_names_the_property_the_fault_count_and_the_reported_issue() {
        let en = Catalog::en();
        let alice = crate::protocol::AgentName::parse("alice").unwrap();
        let id = crate::protocol::RequestId::parse("4607cc28").unwrap();
        let breach = crate::protocol::Breach::AnswerAcrossRestart {
            from: alice.clone(),
            incarnation: 2,
            request: Some(id.clone()),
            kind: crate::protocol::RequestKind::SHUTDOWN,
            addressed: 1,
        };
        let (title, text) = finding_caption(en, Property::NoAnswerAcrossRestart, Some(&Detail::Checker { breach }), 1, 9);
        assert_eq!(title, "Broken: always no_answer_across_restart");
        assert!(text.contains("9 choices and 1 fault.") && text.contains("anthropics/claude-code#45874"), "{text}");
        assert!(text.starts_with("What happened: alice (incarnation 2) answered shutdown request 4607cc28"), "{text}");
        let (title, text) = finding_caption(en, Property::SomeRequestApproved, Some(&Detail::Approved { by: alice, request: id }), 0, 4);
        assert_eq!(title, "Shown: sometimes some_request_approved");
        assert!(text.contains("no fault") && !text.contains("claude-code"), "{text}");
    }

    #[test]
    fn english_words_of_the_explorer_are_the_ones_the_e2e_tests_find() {
        let en = Catalog::en();
        assert_eq!(verdict(en, Verdict::Fails), "fails");
        assert_eq!(example_kind(en, Property::NoAnswerLost), "counterexample");
        assert_eq!(example_kind(en, Property::SomeRequestApproved), "witness");
        let alice = crate::protocol::AgentName::parse("alice").unwrap_or_else(|_| unreachable!());
        assert_eq!(choice(en, &Choice::Turn { agent: alice.clone(), fault: None }), "alice goes next");
        assert_eq!(
            choice(en, &Choice::Turn { agent: alice, fault: Some(crate::protocol::FaultAction::Drop) }),
            "alice goes next, and its message is hit by drop"
        );
    }

    #[test]
    fn every_property_verdict_gallery_entry_and_rule_is_worded_in_every_language() {
        let mut missing = Vec::new();
        let mut keys: Vec<String> = Property::ALL.iter().map(|p| format!("property-{}", p.name())).collect();
        keys.extend(["holds", "fails", "unknown"].map(|v| format!("verdict-{v}")));
        for e in gallery::GALLERY {
            keys.push(format!("gallery-{}-title", e.id));
            keys.push(format!("gallery-{}-caption", e.id));
        }
        for e in gallery::FILE_GALLERY {
            keys.push(format!("gallery-file-{}-title", e.id));
            keys.push(format!("gallery-file-{}-caption", e.id));
            assert_eq!(file_gallery_caption(Catalog::en(), e), e.caption, "{}: the English caption is the entry's own", e.id);
        }
        keys.extend(
            ["gallery-files-title", "gallery-files-intro", "gallery-file-breaks", "gallery-file-holds", "gallery-file-show"]
                .map(String::from),
        );
        keys.extend(Rule::ALL.iter().map(|r| format!("rule-{}-description", r.name())));
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            missing.extend(keys.iter().filter(|k| !cat.has(k)).map(|k| format!("{}: {k}", l.tag())));
        }
        assert!(missing.is_empty(), "missing:\n{}", missing.join("\n"));
    }

    #[test]
    fn job_errors_in_english_say_what_the_error_itself_says() {
        let all = [
            ExploreJobError::UnknownScenario("nope".into()),
            ExploreJobError::Workers(9),
            ExploreJobError::Faults(7),
            ExploreJobError::NoFaultKind,
            ExploreJobError::Zero("the depth bound"),
            ExploreJobError::Zero("the state bound"),
            ExploreJobError::TooLarge { bound: "the depth bound", value: 5_000, max: 1_000 },
            ExploreJobError::TooLarge { bound: "the state bound", value: u64::MAX, max: 300_000 },
            ExploreJobError::TooLarge { bound: "the off-script decisions bound", value: 11, max: 10 },
            ExploreJobError::TooLarge { bound: "the number of random runs", value: 2_001, max: 2_000 },
            ExploreJobError::BadMessage("eof".into()),
            ExploreJobError::File("the protocol file has no [team] to run".into()),
        ];
        for e in all {
            assert_eq!(job_error(Catalog::en(), &e), e.to_string());
            for l in Locale::ALL {
                assert!(!job_error(Catalog::get(l), &e).contains('⟦'), "{}: {e}", l.tag());
            }
        }
    }

    #[test]
    fn every_bound_a_job_error_names_has_its_own_words_in_every_language() {
        for bound in ["the depth bound", "the state bound", "the off-script decisions bound", "the number of random runs"] {
            for l in Locale::ALL {
                let words = bound_name(Catalog::get(l), bound);
                assert!(!words.is_empty() && !words.contains('⟦'), "{}: {bound}", l.tag());
                if l != Locale::En {
                    assert_ne!(words, bound, "{}: {bound} is worded", l.tag());
                }
            }
        }
    }

    #[test]
    fn cards_keep_rule_property_and_agent_names_unchanged_in_every_language() {
        let e = &gallery::GALLERY[0];
        let alice = crate::protocol::AgentName::parse("alice").unwrap_or_else(|_| unreachable!());
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            let (title, text) = Card::Prevented { entry: e.id }.words(cat);
            assert!(title.contains(&gallery_title(cat, e)), "{}: {title}", l.tag());
            assert!(text.contains(e.rule.name()) && text.contains(e.property.name()), "{}: {text}", l.tag());
            let card = Card::Finding { property: e.property, detail: None, faults: 0, choices: 3, entry: Some(e.id) };
            let (_, text) = card.words(cat);
            assert!(text.contains("anthropics/claude-code#45874") && text.contains('3'), "{}: {text}", l.tag());
            let side = Card::ForkSide { branch: true, at: 1, choice: Some(Choice::Turn { agent: alice.clone(), fault: None }) };
            let (title, text) = side.words(cat);
            assert!(title.contains('2') && text.contains("alice"), "{}: {title} / {text}", l.tag());
        }
    }

    #[test]
    fn in_chinese_and_japanese_a_sentence_follows_a_full_stop_without_a_space() {
        for e in gallery::GALLERY {
            let card = Card::Finding { property: e.property, detail: Some(Detail::Stuck), faults: 1, choices: 3, entry: Some(e.id) };
            for l in [Locale::Zh, Locale::Ja] {
                let (_, text) = card.words(Catalog::get(l));
                assert!(!text.contains("。 "), "{}: {text}", l.tag());
            }
            assert!(
                card.words(Catalog::en())
                    .1
                    .contains(". What happened: nothing can move, yet the run has not ended: the team is stuck. The property:"),
                "{}",
                card.words(Catalog::en()).1
            );
        }
    }

    #[test]
    fn no_explorer_button_is_named_like_the_pages_play_or_run_in_any_language() {
        // Play and Run are found by their exact names (by people and tests).
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            for page in ["ui-play", "ui-run"] {
                for mine in ["gallery-reproduce", "explore-start", "fork-button", "explore-fork-on-screen"] {
                    assert_ne!(cat.t(page), cat.t(mine), "{}: {mine} reads like {page}", l.tag());
                }
            }
        }
    }

    #[test]
    fn the_english_gallery_and_rules_say_what_the_cli_says() {
        let en = Catalog::en();
        for e in gallery::GALLERY {
            assert_eq!(gallery_title(en, e), e.title);
            assert_eq!(gallery_caption(en, e), e.caption);
        }
        for r in Rule::ALL {
            assert_eq!(rule_description(en, r), r.description());
        }
    }
}
