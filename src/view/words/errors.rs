//! The page's own errors in the reader's language: a bad share link, a
//! file that is not a trace, a stored run's settings, a run with no share
//! link yet — each variant worded from the catalog's `error-*` messages
//! (`locales/*/errors.ftl`). The errors of the browser's own services
//! (storage, downloads) are worded beside them, in `ui`.
//!
//! Pure: a function of (catalog, error). It must not decide what is an
//! error (each module's `thiserror` enum does, and its English `Display`
//! stays what logs and models read). What an error carries from below — a
//! JSON parser's detail, a protocol refusal, a provider's reply — is
//! passed through as it is, as are identifiers, names and numbers.

use crate::model::provider_settings::MAX_TOKENS_LIMIT;
use crate::protocol::trace_file::ImportError;
use crate::runtime::budget::BudgetError;
use crate::view::export::share::{ShareError, ShareLinkError};
use crate::view::export::snapshot::SnapshotError;
use crate::view::i18n::{tr, Catalog};

/// A share link that could not be opened.
pub fn share(cat: &Catalog, e: &ShareError) -> String {
    match e {
        ShareError::BadEncoding => cat.t("error-link-encoding"),
        ShareError::BadCompression => cat.t("error-link-compression"),
        ShareError::TooBig => tr!(cat, "error-link-too-big", limit = crate::view::export::MAX_IMPORT_BYTES / (1024 * 1024)),
        ShareError::NotText => cat.t("error-link-not-text"),
        ShareError::BadSeed(seed) => tr!(cat, "error-link-seed", seed = seed.as_str()),
        ShareError::BadTrace(e) => tr!(cat, "error-link-trace", error = import(cat, e)),
        ShareError::BadFaults(why) => tr!(cat, "error-link-faults", error = why.as_str()),
        ShareError::BadBudget(e) => tr!(cat, "error-link-budget", error = budget(cat, e)),
        ShareError::BadExplore(why) => tr!(cat, "explore-link-bad-settings", error = why.as_str()),
        ShareError::TooLong(n) => tr!(cat, "error-link-too-long", count = *n),
    }
}

/// Why the run on screen has no share link.
pub fn share_link(cat: &Catalog, e: &ShareLinkError) -> String {
    match e {
        ShareLinkError::Running => cat.t("error-share-running"),
        ShareLinkError::Empty => cat.t("error-share-empty"),
        ShareLinkError::NoAddress => cat.t("error-share-no-address"),
        ShareLinkError::Share(e) => share(cat, e),
    }
}

/// A stored run's settings that could not be used.
pub fn snapshot(cat: &Catalog, e: &SnapshotError) -> String {
    match e {
        SnapshotError::Provider(e) => e.to_string(),
        SnapshotError::Faults(e) => tr!(cat, "error-snapshot-faults", error = e.to_string()),
        SnapshotError::MaxTokens(n) => tr!(cat, "ui-max-tokens-bad", limit = MAX_TOKENS_LIMIT, value = n.to_string()),
        SnapshotError::UnknownScenario(id) => tr!(cat, "error-snapshot-scenario", id = id.as_str()),
        SnapshotError::TooManyPrompts(n) => {
            tr!(cat, "error-snapshot-prompts", count = *n, limit = crate::view::export::snapshot::MAX_PROMPTS)
        }
        SnapshotError::Budget(e) => budget(cat, e),
    }
}

/// A refused budget (typed in Settings, or read from a snapshot or a link).
pub fn budget(cat: &Catalog, e: &BudgetError) -> String {
    match e {
        BudgetError::NotANumber(text) => tr!(cat, "ui-budget-not-a-number", value = text.as_str()),
        BudgetError::NotPositive => cat.t("ui-budget-not-positive"),
        BudgetError::NotWhole => cat.t("ui-budget-not-whole"),
        BudgetError::TooLarge => cat.t("ui-budget-too-large"),
    }
}

/// "event 3", or "the trace".
fn location(cat: &Catalog, entry: Option<u64>) -> String {
    match entry {
        Some(i) => tr!(cat, "error-import-event", entry = i),
        None => cat.t("error-import-the-trace"),
    }
}

/// A file (or a link's trace) that is not a trace this build reads.
pub fn import(cat: &Catalog, e: &ImportError) -> String {
    let versions = || crate::protocol::trace_file::SUPPORTED_VERSIONS.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    let mib = |bytes: u64| format!("{:.1}", bytes as f64 / (1024.0 * 1024.0));
    match e {
        ImportError::TooLarge { size, cap } => tr!(cat, "error-import-too-large", size = mib(*size), cap = mib(*cap)),
        ImportError::Empty => cat.t("error-import-empty"),
        ImportError::NotJson { line, column, detail } => {
            tr!(cat, "error-import-not-json", detail = detail.as_str(), line = *line, column = *column)
        }
        ImportError::NotATrace { found } => tr!(cat, "error-import-not-trace", found = found.as_str()),
        ImportError::MissingVersion => tr!(cat, "error-import-no-version", versions = versions()),
        ImportError::UnsupportedVersion { found } => tr!(cat, "error-import-version", found = found.as_str(), versions = versions()),
        ImportError::MissingField { entry, field } => {
            tr!(cat, "error-import-missing-field", place = location(cat, *entry), field = field.as_str())
        }
        ImportError::BadField { entry, field, problem } => {
            tr!(cat, "error-import-bad-field", place = location(cat, *entry), field = field.as_str(), problem = problem.as_str())
        }
        ImportError::UnknownEventKind { entry, kind, expected } => {
            tr!(cat, "error-import-kind", entry = *entry, kind = kind.as_str(), expected = expected.as_str())
        }
        ImportError::BadSequence { index, seq } => tr!(cat, "error-import-sequence", index = *index, seq = *seq),
        ImportError::TimeWentBackwards { seq, at, previous } => {
            tr!(cat, "error-import-time", seq = *seq, at = at.to_string(), previous = previous.to_string())
        }
        ImportError::BreaksProtocol(e) => tr!(cat, "error-import-protocol", seq = e.seq, error = e.source.to_string()),
        ImportError::RecordedFileRefused { name, refusal: r } => {
            let error = if r.path.is_empty() { r.error.to_string() } else { format!("{}: {}", r.path, r.error) };
            tr!(cat, "error-import-recorded-file", name = name.as_str(), line = r.line, column = r.column, error = error)
        }
        ImportError::DifferentFile(m) => tr!(
            cat,
            "error-import-different-file",
            recorded = m.recorded.as_str(),
            summary = m.summary.as_str(),
            difference = m.difference.to_string()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Millis, ReplayError, TeamError};
    use crate::view::i18n::Locale;

    fn imports() -> Vec<ImportError> {
        vec![
            ImportError::TooLarge { size: 30 << 20, cap: 20 << 20 },
            ImportError::Empty,
            ImportError::NotJson { line: 3, column: 7, detail: "expected `,`".into() },
            ImportError::NotATrace { found: "an array".into() },
            ImportError::MissingVersion,
            ImportError::UnsupportedVersion { found: "9".into() },
            ImportError::MissingField { entry: Some(4), field: "at".into() },
            ImportError::BadField { entry: None, field: "seed".into(), problem: "not a number".into() },
            ImportError::UnknownEventKind { entry: 2, kind: "teleported".into(), expected: "expected one of …".into() },
            ImportError::BadSequence { index: 3, seq: 5 },
            ImportError::TimeWentBackwards { seq: 6, at: Millis(10), previous: Millis(20) },
            // A replay refusal, here one where the state refused an event
            // its checks passed: the page shows it, never crashes on it.
            ImportError::BreaksProtocol(ReplayError {
                seq: 7,
                source: TeamError::Inconsistent {
                    event: "message_released",
                    problem: "event 3 holds no message on the bus; nothing to release".into(),
                },
            }),
            ImportError::RecordedFileRefused {
                name: "task-claim".into(),
                refusal: Box::new(crate::protocol::file::Refusal {
                    line: 12,
                    column: 8,
                    path: "protocol[0].to".into(),
                    error: crate::protocol::file::FileError::Invalid("say lead or teammate".into()),
                }),
            },
            ImportError::DifferentFile(Box::new(crate::protocol::file::diff::FileMismatch {
                recorded: "protocol file 'task-claim'".into(),
                summary: "protocol claim with fields task, note".into(),
                difference: crate::protocol::file::diff::Difference::MissingProtocol("claim".into()),
            })),
        ]
    }

    fn shares() -> Vec<ShareError> {
        vec![
            ShareError::BadEncoding,
            ShareError::BadCompression,
            ShareError::TooBig,
            ShareError::NotText,
            ShareError::BadSeed("x".into()),
            ShareError::BadTrace(ImportError::Empty),
            ShareError::BadFaults("rule 1".into()),
            ShareError::BadExplore("workers".into()),
            ShareError::TooLong(90_000),
        ]
    }

    #[test]
    fn the_english_words_of_each_error_say_what_its_own_message_says() {
        let en = Catalog::en();
        for e in imports() {
            // The words give sizes in MiB and versions as a list; the
            // message is otherwise the same.
            if !matches!(e, ImportError::TooLarge { .. }) {
                assert_eq!(import(en, &e), e.to_string());
            }
        }
        for e in shares() {
            if !matches!(e, ShareError::BadExplore(_)) {
                assert_eq!(share(en, &e), e.to_string());
            }
        }
    }

    #[test]
    fn every_error_is_worded_in_every_language_keeping_what_it_carries() {
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            for words in imports().iter().map(|e| import(cat, e)).chain(shares().iter().map(|e| share(cat, e))) {
                assert!(!words.contains('⟦') && !words.contains("{ $"), "{}: {words}", l.tag());
            }
            for e in
                [ShareLinkError::Running, ShareLinkError::Empty, ShareLinkError::NoAddress, ShareLinkError::Share(ShareError::TooLong(9))]
            {
                let words = share_link(cat, &e);
                assert!(!words.is_empty() && !words.contains('⟦'), "{}: {words}", l.tag());
            }
            let e = ImportError::NotJson { line: 3, column: 7, detail: "expected `,`".into() };
            let words = import(cat, &e);
            assert!(words.contains("expected `,`") && words.contains('3') && words.contains('7'), "{}: {words}", l.tag());
            let words = import(cat, &ImportError::MissingField { entry: Some(4), field: "at".into() });
            assert!(words.contains("'at'") || words.contains("“at”") || words.contains("「at」"), "{}: {words}", l.tag());
            if l != Locale::En {
                assert_ne!(import(cat, &ImportError::Empty), ImportError::Empty.to_string(), "{}", l.tag());
            }
        }
    }
}
