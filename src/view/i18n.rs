//! The lesson's languages: English, 中文, 日本語 and Italiano. A `Locale`
//! names one (its BCP 47 tag and its own name for itself); a `Catalog` holds
//! its Fluent messages (`locales/<tag>/*.ftl`, parsed once per language)
//! and formats a message by key
//! with named arguments (`{ $name }`), falling back to English for a key a
//! translation lacks, and to a visible marker (`⟦key⟧`) for a key nobody
//! has. Formatting never panics. English is built into the program; in the
//! browser the other languages are fetched when wanted (`ui::browser::lang`) and
//! installed here once, natively all four are built in.
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

    /// The names of this language's message files, in load order (the same
    /// for every language).
    pub fn files(self) -> &'static [&'static str] {
        FILES
    }

    /// Where the page fetches one of this language's message files, relative
    /// to the page (Trunk copies `locales/` next to it).
    pub fn url(self, file: &str) -> String {
        format!("locales/{}/{file}", self.tag())
    }

    /// The message files built into the program: (file name, text). English
    /// is always built in (it is every key's fallback); natively (the tests,
    /// the command line) every language is. In the browser the others are
    /// fetched when wanted ([`Catalog::install`]), so the page's wasm does
    /// not carry them.
    pub fn embedded(self) -> Option<&'static [(&'static str, &'static str)]> {
        match self {
            Locale::En => Some(EN),
            #[cfg(not(target_arch = "wasm32"))]
            Locale::Zh => Some(ZH),
            #[cfg(not(target_arch = "wasm32"))]
            Locale::Ja => Some(JA),
            #[cfg(not(target_arch = "wasm32"))]
            Locale::It => Some(IT),
            #[cfg(target_arch = "wasm32")]
            _ => None,
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

/// Declares the message files, once for every language: `FILES` (their
/// names) and, for each language, the embedded texts (`include_str!`).
macro_rules! message_files {
    ($($stem:literal),+ $(,)?) => {
        const FILES: &[&str] = &[$(concat!($stem, ".ftl")),+];
        const EN: &[(&str, &str)] = &[$((concat!($stem, ".ftl"), include_str!(concat!("../../locales/en/", $stem, ".ftl")))),+];
        #[cfg(not(target_arch = "wasm32"))]
        const ZH: &[(&str, &str)] = &[$((concat!($stem, ".ftl"), include_str!(concat!("../../locales/zh/", $stem, ".ftl")))),+];
        #[cfg(not(target_arch = "wasm32"))]
        const JA: &[(&str, &str)] = &[$((concat!($stem, ".ftl"), include_str!(concat!("../../locales/ja/", $stem, ".ftl")))),+];
        #[cfg(not(target_arch = "wasm32"))]
        const IT: &[(&str, &str)] = &[$((concat!($stem, ".ftl"), include_str!(concat!("../../locales/it/", $stem, ".ftl")))),+];
    };
}

// Every language's message files (`locales/<tag>/<name>.ftl`), in load
// order. A new file is one more name here.
message_files!("ui", "captions", "tours", "explore", "findings", "diagram", "shell", "errors", "language", "protocols");

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
    /// A message file holds no message.
    #[error("{locale}/{file} holds no message")]
    Empty {
        /// The language's tag.
        locale: &'static str,
        /// The file's name.
        file: &'static str,
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

/// The parsed catalogs, one write-once cell per language (in `Locale::ALL`
/// order): a built-in language is parsed on first use, a fetched one when
/// it is installed.
static CATALOGS: [OnceLock<Catalog>; 4] = [OnceLock::new(), OnceLock::new(), OnceLock::new(), OnceLock::new()];

impl Catalog {
    /// The catalog of `locale` if it is available: a built-in language
    /// always is, a fetched one once installed.
    pub fn ready(locale: Locale) -> Option<&'static Catalog> {
        let cell = &CATALOGS[locale.index()];
        match locale.embedded() {
            Some(sources) => Some(cell.get_or_init(|| Catalog::parse(locale, sources.iter().map(|(f, t)| (*f, (*t).to_string()))))),
            None => cell.get(),
        }
    }

    /// The catalog of `locale`, or English while that language is not
    /// available (the words the page shows meanwhile).
    pub fn get(locale: Locale) -> &'static Catalog {
        Catalog::ready(locale).unwrap_or_else(Catalog::en)
    }

    /// English, the fallback (the native tests' language).
    pub fn en() -> &'static Catalog {
        CATALOGS[Locale::En.index()].get_or_init(|| Catalog::parse(Locale::En, EN.iter().map(|(f, t)| (*f, (*t).to_string()))))
    }

    /// Makes `locale` available from its fetched message files (name, text),
    /// once: a second install keeps the first. An error, and nothing
    /// installed, when a file holds no message (a server's error page, say).
    pub fn install(locale: Locale, texts: impl IntoIterator<Item = (&'static str, String)>) -> Result<&'static Catalog, I18nError> {
        if let Some(cat) = Catalog::ready(locale) {
            return Ok(cat);
        }
        let cat = Catalog::checked(locale, texts)?;
        Ok(CATALOGS[locale.index()].get_or_init(|| cat))
    }

    /// The catalog of fetched files, refused when a file holds no message.
    fn checked(locale: Locale, texts: impl IntoIterator<Item = (&'static str, String)>) -> Result<Catalog, I18nError> {
        let cat = Catalog::parse(locale, texts);
        match cat.errors.iter().find(|e| matches!(e, I18nError::Empty { .. })) {
            Some(empty) => Err(empty.clone()),
            None => Ok(cat),
        }
    }

    fn parse(locale: Locale, texts: impl IntoIterator<Item = (&'static str, String)>) -> Catalog {
        let mut errors = Vec::new();
        let mut keys = Vec::new();
        let mut bundle = FluentBundle::new_concurrent(vec![locale.tag().parse().unwrap_or_default()]);
        bundle.set_use_isolating(false);
        for (file, text) in texts {
            let resource = match FluentResource::try_new(text) {
                Ok(r) => r,
                Err((r, errs)) => {
                    errors.push(I18nError::Parse { locale: locale.tag(), file, errors: format!("{errs:?}") });
                    r
                }
            };
            let before = keys.len();
            for entry in resource.entries() {
                if let fluent_syntax::ast::Entry::Message(m) = entry {
                    keys.push(m.id.name.to_string());
                }
            }
            if keys.len() == before {
                errors.push(I18nError::Empty { locale: locale.tag(), file });
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
        if let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) {
            collect_vars(pattern, &mut vars);
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
        $cat.f($key, &[$((stringify!($name), $crate::view::i18n::Arg::from($val))),*])
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
    fn every_message_file_in_locales_is_in_the_file_list_and_built_in_natively() {
        for l in Locale::ALL {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("locales").join(l.tag());
            let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
                .map(|entries| entries.filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.ends_with(".ftl")).collect())
                .unwrap_or_default();
            on_disk.sort();
            let mut listed: Vec<String> = l.files().iter().map(|f| f.to_string()).collect();
            listed.sort();
            assert_eq!(on_disk, listed, "{}: the files in {} and the list in i18n.rs", l.tag(), dir.display());
            let built_in: Vec<&str> = l.embedded().unwrap_or_default().iter().map(|(f, _)| *f).collect();
            assert_eq!(built_in, l.files(), "{}: natively every language is built in", l.tag());
        }
    }

    #[test]
    fn a_fetched_file_without_messages_is_refused() {
        let page = "<!DOCTYPE html>\n<html><body>Not found</body></html>\n".to_string();
        let refused = Catalog::checked(Locale::Ja, [("ui.ftl", "ui-run = 実行\n".to_string()), ("captions.ftl", page)]);
        assert!(matches!(refused, Err(I18nError::Empty { file: "captions.ftl", .. })), "{refused:?}");
        let fine = Catalog::checked(Locale::Ja, [("ui.ftl", "ui-run = 実行\n".to_string())]);
        assert_eq!(fine.map(|c| c.t("ui-run")), Ok("実行".to_string()));
    }

    #[test]
    fn a_language_is_installed_once_and_the_first_catalog_stays() {
        let first: *const Catalog = Catalog::get(Locale::It);
        let again = Catalog::install(Locale::It, [("ui.ftl", "ui-run = Altro\n".to_string())]);
        assert!(again.is_ok_and(|c| std::ptr::eq(c, first) && c.t("ui-run") != "Altro"));
        assert_eq!(Catalog::get(Locale::It).locale(), Locale::It);
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

    /// Every Chinese and Japanese message, each of its variables given 1
    /// and then 2 (the others sample text): those languages have one
    /// plural form (CLDR: `other` only), so the two renderings differ in
    /// that digit and nothing else — no `[one]` variant, no "(s)".
    #[test]
    fn chinese_and_japanese_messages_read_the_same_for_one_and_two_but_for_the_number() {
        let mut problems = Vec::new();
        for l in [Locale::Zh, Locale::Ja] {
            let cat = Catalog::get(l);
            for key in cat.keys() {
                let vars = cat.variables(key);
                for counted in &vars {
                    let render = |n: i64| {
                        let args: Vec<(&str, Arg)> = vars
                            .iter()
                            .map(|v| (v.as_str(), if v == counted { Arg::Number(n) } else { Arg::Text(format!("<{v}>")) }))
                            .collect();
                        cat.try_format(key, &args).unwrap_or_default()
                    };
                    let (one, two) = (render(1), render(2));
                    // Place by place the same, but where the number stands
                    // (once or more).
                    let same_but_number = one.chars().count() == two.chars().count()
                        && one.chars().zip(two.chars()).all(|(a, b)| a == b || (a, b) == ('1', '2'))
                        && one != two;
                    if !same_but_number {
                        problems.push(format!("{}: '{key}' with ${counted} = 1 / 2: {one:?} / {two:?}", l.tag()));
                    }
                    if one.contains("(s)") || two.contains("(s)") {
                        problems.push(format!("{}: '{key}' writes (s): {two}", l.tag()));
                    }
                }
            }
        }
        assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    }

    #[test]
    fn counted_things_take_their_counter_in_chinese_and_japanese() {
        let zh = Catalog::get(Locale::Zh);
        let ja = Catalog::get(Locale::Ja);
        let n = |v: i64| Arg::Number(v);
        let t = |v: &str| Arg::Text(v.to_string());
        for (count, zh_words, ja_words) in [(1, "1 条消息", "メッセージ 1 件"), (2, "2 条消息", "メッセージ 2 件")] {
            assert_eq!(zh.f("cap-messages", &[("count", n(count))]), zh_words);
            assert_eq!(ja.f("cap-messages", &[("count", n(count))]), ja_words);
        }
        assert_eq!(zh.f("explore-faults", &[("count", n(1))]), "1 个故障");
        assert_eq!(ja.f("explore-faults", &[("count", n(1))]), "障害 1 件");
        assert_eq!(zh.f("ui-pf-errors", &[("count", n(1))]), "1 个错误");
        assert_eq!(ja.f("ui-pf-errors", &[("count", n(2))]), "エラー 2 件");
        assert_eq!(zh.f("ui-inbox-unread", &[("name", t("alice")), ("count", n(1))]), "alice（1 条未读）");
        assert_eq!(ja.f("ui-inbox-unread", &[("name", t("alice")), ("count", n(1))]), "alice（未読 1 件）");
        let svg = [("title", t("run")), ("agents", n(2)), ("messages", n(1)), ("requests", n(1))];
        assert_eq!(zh.f("svg-label", &svg), "run：序列图，2 个智能体、1 条消息、1 个请求");
        assert_eq!(ja.f("svg-label", &svg), "run：シーケンス図（エージェント 2 人、メッセージ 1 件、リクエスト 1 件）");
        let diagram = [("agents", n(2)), ("messages", n(1)), ("requests", n(1)), ("len", n(2)), ("shown", n(1))];
        assert_eq!(
            ja.f("ui-diagram-label", &diagram),
            "シーケンス図：エージェント 2 人、メッセージ 1 件、リクエスト 1 件。イベント 2 件中 1 件を表示"
        );
        assert_eq!(zh.f("ui-diagram-label", &diagram), "时序图：2 个智能体，1 条消息，1 个请求；显示 2 个事件中的 1 个");
    }
}
