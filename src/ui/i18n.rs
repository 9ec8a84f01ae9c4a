//! The lesson's languages: English, 中文, 日本語 and Italiano. A `Locale`
//! names one (its BCP 47 tag and its own name for itself); a `Catalog` holds
//! its Fluent messages (`locales/<tag>/*.ftl`, embedded at build time and
//! parsed once per language, on first use) and formats a message by key
//! with named arguments (`{ $name }`), falling back to English for a key a
//! translation lacks, and to a visible marker (`⟦key⟧`) for a key nobody
//! has. Formatting never panics.
//!
//! Owns the languages, the message files and message lookup. Pure and
//! native: it must not touch the DOM, signals or storage (the page picks
//! the language; `storage` remembers it). Protocol identifiers
//! (`shutdown_request`, `request_id`, `pending`, agent names, request ids)
//! are written as they are in every file, or passed in as arguments.

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

/// One of the lesson's languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Locale {
    /// English, the lesson's first language and every key's fallback.
    #[default]
    En,
    /// Simplified Chinese (中文).
    Zh,
    /// Japanese (日本語).
    Ja,
    /// Italian (Italiano).
    It,
}

impl Locale {
    /// Every language, in the switcher's order.
    pub const ALL: [Locale; 4] = [Locale::En, Locale::Zh, Locale::Ja, Locale::It];

    /// The BCP 47 tag (`<html lang>`, the storage value): `en`, `zh`, `ja`, `it`.
    pub fn tag(self) -> &'static str {
        match self {
            Locale::En => "en",
            Locale::Zh => "zh",
            Locale::Ja => "ja",
            Locale::It => "it",
        }
    }

    /// The language's own name for itself, as the switcher lists it.
    pub fn native_name(self) -> &'static str {
        match self {
            Locale::En => "English",
            Locale::Zh => "中文",
            Locale::Ja => "日本語",
            Locale::It => "Italiano",
        }
    }

    /// The language of a tag by its primary subtag (`ja-JP` → Japanese,
    /// `zh-Hans-CN` → Chinese), any case; `None` for a language not offered.
    pub fn from_tag(tag: &str) -> Option<Locale> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Locale::ALL.into_iter().find(|l| l.tag() == primary)
    }

    /// The first of the browser's preferred languages that is offered
    /// (`navigator.languages`, most preferred first), else English.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Locale {
        preferred.into_iter().find_map(Locale::from_tag).unwrap_or_default()
    }

    /// The message files of this language: (file name, text).
    pub fn sources(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Locale::En => &[
                ("ui.ftl", include_str!("../../locales/en/ui.ftl")),
                ("captions.ftl", include_str!("../../locales/en/captions.ftl")),
                ("tours.ftl", include_str!("../../locales/en/tours.ftl")),
                ("explore.ftl", include_str!("../../locales/en/explore.ftl")),
                ("findings.ftl", include_str!("../../locales/en/findings.ftl")),
                ("diagram.ftl", include_str!("../../locales/en/diagram.ftl")),
                ("shell.ftl", include_str!("../../locales/en/shell.ftl")),
                ("errors.ftl", include_str!("../../locales/en/errors.ftl")),
            ],
            Locale::Zh => &[
                ("ui.ftl", include_str!("../../locales/zh/ui.ftl")),
                ("captions.ftl", include_str!("../../locales/zh/captions.ftl")),
                ("tours.ftl", include_str!("../../locales/zh/tours.ftl")),
                ("explore.ftl", include_str!("../../locales/zh/explore.ftl")),
                ("findings.ftl", include_str!("../../locales/zh/findings.ftl")),
                ("diagram.ftl", include_str!("../../locales/zh/diagram.ftl")),
                ("shell.ftl", include_str!("../../locales/zh/shell.ftl")),
                ("errors.ftl", include_str!("../../locales/zh/errors.ftl")),
            ],
            Locale::Ja => &[
                ("ui.ftl", include_str!("../../locales/ja/ui.ftl")),
                ("captions.ftl", include_str!("../../locales/ja/captions.ftl")),
                ("tours.ftl", include_str!("../../locales/ja/tours.ftl")),
                ("explore.ftl", include_str!("../../locales/ja/explore.ftl")),
                ("findings.ftl", include_str!("../../locales/ja/findings.ftl")),
                ("diagram.ftl", include_str!("../../locales/ja/diagram.ftl")),
                ("shell.ftl", include_str!("../../locales/ja/shell.ftl")),
                ("errors.ftl", include_str!("../../locales/ja/errors.ftl")),
            ],
            Locale::It => &[
                ("ui.ftl", include_str!("../../locales/it/ui.ftl")),
                ("captions.ftl", include_str!("../../locales/it/captions.ftl")),
                ("tours.ftl", include_str!("../../locales/it/tours.ftl")),
                ("explore.ftl", include_str!("../../locales/it/explore.ftl")),
                ("findings.ftl", include_str!("../../locales/it/findings.ftl")),
                ("diagram.ftl", include_str!("../../locales/it/diagram.ftl")),
                ("shell.ftl", include_str!("../../locales/it/shell.ftl")),
                ("errors.ftl", include_str!("../../locales/it/errors.ftl")),
            ],
        }
    }

    fn index(self) -> usize {
        match self {
            Locale::En => 0,
            Locale::Zh => 1,
            Locale::Ja => 2,
            Locale::It => 3,
        }
    }
}

/// What can go wrong with a message file or a message.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum I18nError {
    /// A message file does not parse (the rest of it is still used).
    #[error("{locale}/{file} does not parse: {errors}")]
    Parse {
        /// The language's tag.
        locale: &'static str,
        /// The file's name.
        file: &'static str,
        /// What the parser said.
        errors: String,
    },
    /// Two messages of one language have the same key.
    #[error("{locale}: {errors}")]
    Duplicate {
        /// The language's tag.
        locale: &'static str,
        /// What the bundle said.
        errors: String,
    },
    /// The language has no message with this key.
    #[error("{locale} has no message '{key}'")]
    Missing {
        /// The language's tag.
        locale: &'static str,
        /// The key.
        key: String,
    },
    /// The message formatted with errors (an unknown variable, say).
    #[error("{locale} '{key}' formats with errors: {errors}")]
    Format {
        /// The language's tag.
        locale: &'static str,
        /// The key.
        key: String,
        /// What the resolver said.
        errors: String,
    },
}

/// A value for a message's variable: text or a whole number (numbers pick
/// plural forms, `{ $count -> [one] … *[other] … }`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Text, shown as it is.
    Text(String),
    /// A whole number.
    Number(i64),
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Text(s.to_string())
    }
}
impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Text(s)
    }
}
impl From<&String> for Arg {
    fn from(s: &String) -> Arg {
        Arg::Text(s.clone())
    }
}
impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}
impl From<u64> for Arg {
    fn from(n: u64) -> Arg {
        Arg::Number(i64::try_from(n).unwrap_or(i64::MAX))
    }
}
impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Number(i64::from(n))
    }
}

/// One language's messages, parsed once. Get one with [`Catalog::get`].
pub struct Catalog {
    locale: Locale,
    bundle: FluentBundle<FluentResource>,
    keys: Vec<String>,
    errors: Vec<I18nError>,
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Catalog").field("locale", &self.locale).field("keys", &self.keys.len()).finish()
    }
}

static CATALOGS: [OnceLock<Catalog>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];

impl Catalog {
    /// The catalog of `locale`, parsed on first use and kept.
    pub fn get(locale: Locale) -> &'static Catalog {
        CATALOGS[locale.index()].get_or_init(|| Catalog::load(locale))
    }

    /// English, the fallback (the native tests' language).
    pub fn en() -> &'static Catalog {
        Catalog::get(Locale::En)
    }

    fn load(locale: Locale) -> Catalog {
        let mut errors = Vec::new();
        let mut keys = Vec::new();
        let mut bundle = FluentBundle::new_concurrent(vec![locale.tag().parse().unwrap_or_default()]);
        bundle.set_use_isolating(false);
        for (file, text) in locale.sources() {
            let resource = match FluentResource::try_new((*text).to_string()) {
                Ok(r) => r,
                Err((r, errs)) => {
                    errors.push(I18nError::Parse { locale: locale.tag(), file, errors: format!("{errs:?}") });
                    r
                }
            };
            for entry in resource.entries() {
                if let fluent_syntax::ast::Entry::Message(m) = entry {
                    keys.push(m.id.name.to_string());
                }
            }
            if let Err(errs) = bundle.add_resource(resource) {
                errors.push(I18nError::Duplicate { locale: locale.tag(), errors: format!("{errs:?}") });
            }
        }
        Catalog { locale, bundle, keys, errors }
    }

    /// The language.
    pub fn locale(&self) -> Locale {
        self.locale
    }

    /// Every message key of this language, in file order.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// What went wrong loading the files (empty when all is well).
    pub fn load_errors(&self) -> &[I18nError] {
        &self.errors
    }

    /// Whether this language has a message `key`.
    pub fn has(&self, key: &str) -> bool {
        self.bundle.has_message(key)
    }

    /// The message `key` with no arguments.
    pub fn t(&self, key: &str) -> String {
        self.f(key, &[])
    }

    /// The message `key` with `args`; English when this language lacks it
    /// or formats it with errors, `⟦key⟧` when English lacks it too.
    pub fn f(&self, key: &str, args: &[(&str, Arg)]) -> String {
        match self.try_format(key, args) {
            Ok(s) => s,
            Err(_) if self.locale != Locale::En => Catalog::en().f(key, args),
            Err(_) => format!("⟦{key}⟧"),
        }
    }

    /// The message `key` with `args` in this language only: an error when
    /// it is missing or formats with errors (the tests' strict form).
    pub fn try_format(&self, key: &str, args: &[(&str, Arg)]) -> Result<String, I18nError> {
        let missing = || I18nError::Missing { locale: self.locale.tag(), key: key.to_string() };
        let pattern = self.bundle.get_message(key).and_then(|m| m.value()).ok_or_else(missing)?;
        let mut fargs = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Text(s) => fargs.set(*name, FluentValue::from(s.clone())),
                Arg::Number(n) => fargs.set(*name, FluentValue::from(*n)),
            }
        }
        let mut errs = Vec::new();
        let out = self.bundle.format_pattern(pattern, Some(&fargs), &mut errs).into_owned();
        if errs.is_empty() {
            Ok(out)
        } else {
            Err(I18nError::Format { locale: self.locale.tag(), key: key.to_string(), errors: format!("{errs:?}") })
        }
    }

    /// The variables message `key` uses (`$name`), sorted, without
    /// duplicates; empty for a missing key.
    pub fn variables(&self, key: &str) -> Vec<String> {
        let mut vars = std::collections::BTreeSet::new();
        for (_, text) in self.locale.sources() {
            let Ok(resource) = fluent_syntax::parser::parse(*text) else { continue };
            for entry in resource.body {
                if let fluent_syntax::ast::Entry::Message(m) = entry {
                    if m.id.name == key {
                        if let Some(p) = &m.value {
                            collect_vars(p, &mut vars);
                        }
                    }
                }
            }
        }
        vars.into_iter().collect()
    }
}

fn collect_vars(pattern: &fluent_syntax::ast::Pattern<&str>, out: &mut std::collections::BTreeSet<String>) {
    use fluent_syntax::ast::{Expression, InlineExpression, PatternElement};
    fn inline(e: &InlineExpression<&str>, out: &mut std::collections::BTreeSet<String>) {
        match e {
            InlineExpression::VariableReference { id } => {
                out.insert(id.name.to_string());
            }
            InlineExpression::Placeable { expression } => expr(expression, out),
            InlineExpression::FunctionReference { arguments, .. } => {
                arguments.positional.iter().for_each(|a| inline(a, out));
                arguments.named.iter().for_each(|a| inline(&a.value, out));
            }
            _ => {}
        }
    }
    fn expr(e: &Expression<&str>, out: &mut std::collections::BTreeSet<String>) {
        match e {
            Expression::Inline(i) => inline(i, out),
            Expression::Select { selector, variants } => {
                inline(selector, out);
                for v in variants {
                    collect_vars(&v.value, out);
                }
            }
        }
    }
    for el in &pattern.elements {
        if let PatternElement::Placeable { expression } = el {
            expr(expression, out);
        }
    }
}

/// `cat.f(key, &[("name", value.into()), …])` written as
/// `tr!(cat, key, name = value, …)`.
macro_rules! tr {
    ($cat:expr, $key:expr $(, $name:ident = $val:expr)* $(,)?) => {
        $cat.f($key, &[$((stringify!($name), $crate::ui::i18n::Arg::from($val))),*])
    };
}
pub(crate) use tr;

/// The message `key` in `cat`'s language, or `own` (text that carries its
/// own English, such as a scenario's or a gallery entry's title) when no
/// catalog has the key.
pub fn or_own(cat: &Catalog, key: &str, own: &str) -> String {
    if cat.has(key) || Catalog::en().has(key) {
        cat.t(key)
    } else {
        own.to_string()
    }
}

/// A scenario's title in the page's language (`scenario-<id>-title`), or
/// its own title when the catalog has none for it.
pub fn scenario_title(cat: &Catalog, id: &str, own: &str) -> String {
    or_own(cat, &format!("scenario-{id}-title"), own)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_browser_language_is_matched_by_its_primary_subtag_and_english_is_the_default() {
        assert_eq!(Locale::negotiate(["ja-JP", "en-US"]), Locale::Ja);
        assert_eq!(Locale::negotiate(["de-DE", "zh-Hans-CN", "en"]), Locale::Zh);
        assert_eq!(Locale::negotiate(["IT"]), Locale::It);
        assert_eq!(Locale::negotiate(["de", "fr"]), Locale::En);
        assert_eq!(Locale::negotiate([]), Locale::En);
        for l in Locale::ALL {
            assert_eq!(Locale::from_tag(l.tag()), Some(l));
        }
    }

    #[test]
    fn a_missing_key_falls_back_to_english_then_to_a_visible_marker() {
        let ja = Catalog::get(Locale::Ja);
        assert_eq!(ja.f("no-such-key", &[]), "⟦no-such-key⟧");
        assert!(matches!(ja.try_format("no-such-key", &[]), Err(I18nError::Missing { .. })));
        // A variable left out is a formatting error: the strict form says so.
        assert!(matches!(Catalog::en().try_format("ui-model", &[]), Err(I18nError::Format { .. })));
    }

    /// A sample value for a variable: numbers for the ones that count.
    fn sample(var: &str) -> Arg {
        match var {
            "count" | "n" | "shown" | "len" | "held" | "ms" | "tokens" | "rule" | "missing" | "limit" => Arg::Number(2),
            other => Arg::Text(format!("<{other}>")),
        }
    }

    #[test]
    fn every_language_has_every_key_of_every_other_and_each_message_formats_with_the_english_variables() {
        let mut problems = Vec::new();
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            problems.extend(cat.load_errors().iter().map(|e| e.to_string()));
        }
        let all: std::collections::BTreeSet<&str> =
            Locale::ALL.iter().flat_map(|l| Catalog::get(*l).keys().iter().map(String::as_str)).collect();
        for l in Locale::ALL {
            let cat = Catalog::get(l);
            for key in &all {
                if !cat.has(key) {
                    problems.push(format!("{}: missing '{key}'", l.tag()));
                    continue;
                }
                let vars = Catalog::en().variables(key);
                let args: Vec<(&str, Arg)> = vars.iter().map(|v| (v.as_str(), sample(v))).collect();
                match cat.try_format(key, &args) {
                    Ok(text) => {
                        if text.trim().is_empty() {
                            problems.push(format!("{}: '{key}' is empty", l.tag()));
                        }
                        if text.contains("{$") || text.contains('⟦') {
                            problems.push(format!("{}: '{key}' leaves a placeholder: {text}", l.tag()));
                        }
                    }
                    Err(e) => problems.push(e.to_string()),
                }
                let own = cat.variables(key);
                for v in &vars {
                    if !own.contains(v) {
                        problems.push(format!("{}: '{key}' does not use ${v}", l.tag()));
                    }
                }
                for v in &own {
                    if !vars.contains(v) {
                        problems.push(format!("{}: '{key}' uses ${v}, which English does not pass", l.tag()));
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    }

    #[test]
    fn protocol_identifiers_are_written_the_same_in_every_language() {
        // Where English names a message type, a tool or request_id, every
        // translation names it too, unchanged.
        const IDS: [&str; 12] = [
            "shutdown_request",
            "shutdown_response",
            "plan_approval_request",
            "plan_approval_response",
            "plan_approval",
            "request_id",
            "spawn_teammate",
            "list_teammates",
            "read_inbox",
            "send_message",
            "config.json",
            "shutdown_requests",
        ];
        let mut problems = Vec::new();
        for key in Catalog::en().keys() {
            let vars = Catalog::en().variables(key);
            let args: Vec<(&str, Arg)> = vars.iter().map(|v| (v.as_str(), sample(v))).collect();
            let en = Catalog::en().try_format(key, &args).unwrap_or_default();
            for l in Locale::ALL {
                let text = Catalog::get(l).try_format(key, &args).unwrap_or_default();
                for id in IDS {
                    if en.matches(id).count() > 0 && text.matches(id).count() == 0 {
                        problems.push(format!("{}: '{key}' lost {id}", l.tag()));
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
