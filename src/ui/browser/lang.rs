//! The page's language: the `Lang` context every component reads its words
//! through, chosen from the browser's languages (`navigator.languages`) or
//! the choice remembered on this device, the switcher in the header, and
//! `<html lang>` kept equal to it. English is built in; another language's
//! messages are fetched (`locales/<tag>/*.ftl`, next to the page) before
//! the page shows it: before mounting ([`Start::prepare`]) or when picked
//! in the switcher. A language that cannot be fetched leaves the page in
//! the one it speaks, and the banner says why ([`report_problems`]).
//!
//! Owns the language signal, fetching catalogs and the switcher's markup.
//! The messages are `i18n`'s; remembering the choice is `storage`'s. It
//! must not touch the run, the cursor or the runtime: switching only
//! re-renders.

use leptos::prelude::*;

use crate::ui::state::storage;
use crate::view::i18n::{tr, Catalog, I18nError, Locale};

/// How long the page waits for its language's messages before it shows
/// itself in English instead (and says so).
pub const START_WAIT_MS: u32 = 5_000;

/// How long a switch waits for a language's messages.
pub const SWITCH_WAIT_MS: u32 = 15_000;

/// Why a language's messages could not be fetched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// The server answered with an error status.
    #[error("{url}: the server answered {status}")]
    Status {
        /// The file's address.
        url: String,
        /// The HTTP status.
        status: u16,
    },
    /// The request or reading its body failed.
    #[error("{url}: {reason}")]
    Network {
        /// The file's address.
        url: String,
        /// What the browser said.
        reason: String,
    },
    /// No complete answer in time.
    #[error("no answer within {ms} ms")]
    Timeout {
        /// The time waited.
        ms: u32,
    },
    /// A file arrived but is not a message file.
    #[error(transparent)]
    Catalog(#[from] I18nError),
}

impl FetchError {
    /// The reason in `cat`'s language, for the banner.
    pub fn words(&self, cat: &Catalog) -> String {
        match self {
            FetchError::Status { status, .. } => tr!(cat, "lang-error-status", status = status.to_string()),
            FetchError::Network { .. } => cat.t("lang-error-network"),
            FetchError::Timeout { ms } => tr!(cat, "lang-error-timeout", seconds = (ms.div_ceil(1000)).to_string()),
            FetchError::Catalog(I18nError::Empty { file, .. }) => tr!(cat, "lang-error-empty", file = *file),
            FetchError::Catalog(other) => other.to_string(),
        }
    }
}

/// Fetches `locale`'s message files (all at once) and installs them; at
/// once when the language is already available.
pub async fn load(locale: Locale) -> Result<&'static Catalog, FetchError> {
    if let Some(cat) = Catalog::ready(locale) {
        return Ok(cat);
    }
    let texts = futures_util::future::try_join_all(locale.files().iter().map(|file| fetch_text(locale.url(file), file))).await?;
    Ok(Catalog::install(locale, texts)?)
}

/// [`load`], given up after `ms` milliseconds.
pub async fn load_within(locale: Locale, ms: u32) -> Result<&'static Catalog, FetchError> {
    if let Some(cat) = Catalog::ready(locale) {
        return Ok(cat);
    }
    let fetch = std::pin::pin!(load(locale));
    match futures_util::future::select(fetch, gloo_timers::future::TimeoutFuture::new(ms)).await {
        futures_util::future::Either::Left((result, _)) => result,
        futures_util::future::Either::Right(_) => Err(FetchError::Timeout { ms }),
    }
}

async fn fetch_text(url: String, file: &'static str) -> Result<(&'static str, String), FetchError> {
    let network = |e: gloo_net::Error, url: &str| FetchError::Network { url: url.to_string(), reason: e.to_string() };
    let response = gloo_net::http::Request::get(&url).send().await.map_err(|e| network(e, &url))?;
    if !response.ok() {
        return Err(FetchError::Status { url, status: response.status() });
    }
    let text = response.text().await.map_err(|e| network(e, &url))?;
    Ok((file, text))
}

/// The language the visitor wants: the one remembered on this device,
/// else the first of the browser's languages that is offered, else English.
pub fn wanted_locale() -> Locale {
    storage::remembered_locale().unwrap_or_else(|| Locale::negotiate(browser_languages().iter().map(String::as_str)))
}

/// The page's language decided before the page is mounted, its messages
/// fetched: provide it as a context around the page (`main`).
#[derive(Clone, Debug)]
pub struct Start {
    locale: Locale,
    problem: Option<(Locale, FetchError)>,
}

impl Start {
    /// The wanted language with its messages fetched, or English when they
    /// could not be fetched within [`START_WAIT_MS`] (and why).
    pub async fn prepare() -> Start {
        let wanted = wanted_locale();
        match load_within(wanted, START_WAIT_MS).await {
            Ok(_) => Start { locale: wanted, problem: None },
            Err(e) => Start { locale: Locale::En, problem: Some((wanted, e)) },
        }
    }

    /// The language the page starts in.
    pub fn locale(&self) -> Locale {
        self.locale
    }
}

/// The latest language that could not be loaded, in words (a context the
/// page provides with its `Lang`).
#[derive(Clone, Copy, Debug)]
struct Problems(RwSignal<Option<String>>);

/// The banner's words for `wanted` not loading, in `current`'s language.
fn unavailable(wanted: Locale, current: Locale, e: &FetchError) -> String {
    let cat = Catalog::get(current);
    tr!(cat, "lang-unavailable", language = wanted.native_name(), error = e.words(cat), current = current.native_name())
}

/// Calls `report` with the words each time a language could not be loaded
/// (the page shows them in its banner). Call it inside the page, after
/// [`Lang::from_browser`].
pub fn report_problems(report: impl Fn(String) + 'static) {
    if let Some(problems) = use_context::<Problems>() {
        Effect::new(move |_| {
            if let Some(text) = problems.0.get() {
                report(text);
            }
        });
    }
}

/// The language the page speaks. `Copy`: provided once by the page.
#[derive(Clone, Copy, Debug)]
pub struct Lang(pub RwSignal<Locale>);

impl Lang {
    /// The page's language, `<html lang>` set to it: the [`Start`] the page
    /// was mounted in, else (a page mounted without one, as in the browser
    /// tests) the wanted language if it is available, else English until
    /// its messages arrive.
    pub fn from_browser() -> Lang {
        let problems = Problems(RwSignal::new(None));
        provide_context(problems);
        let (locale, pending) = match use_context::<Start>() {
            Some(start) => {
                if let Some((wanted, e)) = &start.problem {
                    problems.0.set(Some(unavailable(*wanted, start.locale, e)));
                }
                (start.locale, None)
            }
            None => {
                let wanted = wanted_locale();
                if Catalog::ready(wanted).is_some() {
                    (wanted, None)
                } else {
                    (Locale::En, Some(wanted))
                }
            }
        };
        set_document_lang(locale);
        let l = Lang(RwSignal::new(locale));
        if let Some(wanted) = pending {
            leptos::task::spawn_local(async move {
                match load_within(wanted, START_WAIT_MS).await {
                    Ok(_) => {
                        l.show(wanted);
                    }
                    Err(e) => problems.0.set(Some(unavailable(wanted, Locale::En, &e))),
                }
            });
        }
        l
    }

    /// The catalog of the language on screen (tracked: a view that calls it
    /// re-renders when the language changes).
    pub fn cat(self) -> &'static Catalog {
        Catalog::get(self.0.get())
    }

    /// The catalog, untracked (for event handlers).
    pub fn cat_untracked(self) -> &'static Catalog {
        Catalog::get(self.0.get_untracked())
    }

    /// The message `key` in the language on screen (tracked).
    pub fn t(self, key: &str) -> String {
        self.cat().t(key)
    }

    /// Switches the page to `locale` once its messages are here (fetching
    /// them first if need be), remembers it and sets `<html lang>`. A
    /// refusal to remember is not an error the user can act on: the page
    /// still switches. When the messages cannot be fetched the page stays
    /// as it is and the error says why.
    /// A page unmounted while the messages were on their way changes
    /// nothing: neither the document's language nor the remembered one.
    pub async fn set(self, locale: Locale) -> Result<(), FetchError> {
        load_within(locale, SWITCH_WAIT_MS).await?;
        if self.show(locale) {
            let _ = storage::remember_locale(locale);
        }
        Ok(())
    }

    /// Shows the page in `locale` (available) and sets `<html lang>`.
    /// False (and nothing touched) when the page is gone.
    fn show(self, locale: Locale) -> bool {
        if self.0.try_set(locale).is_some() {
            return false;
        }
        set_document_lang(locale);
        true
    }
}

/// The page's language: the one the page provided, or English where no
/// page provided one (a component mounted on its own in a test).
pub fn lang() -> Lang {
    use_context::<Lang>().unwrap_or_else(|| Lang(RwSignal::new(Locale::En)))
}

/// `navigator.languages`, most preferred first (empty when unavailable).
fn browser_languages() -> Vec<String> {
    let navigator = js_sys::Reflect::get(&window(), &"navigator".into()).unwrap_or_default();
    let langs = js_sys::Reflect::get(&navigator, &"languages".into()).unwrap_or_default();
    if js_sys::Array::is_array(&langs) {
        js_sys::Array::from(&langs).iter().filter_map(|v| v.as_string()).collect()
    } else {
        js_sys::Reflect::get(&navigator, &"language".into()).ok().and_then(|v| v.as_string()).into_iter().collect()
    }
}

/// Sets `<html lang>` to `locale`'s tag.
fn set_document_lang(locale: Locale) {
    if let Some(root) = document().document_element() {
        let _ = root.set_attribute("lang", locale.tag());
    }
}

/// The language switcher: a labelled `<select>` listing each language by
/// its own name (each option marked with its `lang`). While a language's
/// messages are being fetched the select is busy; when they cannot be, it
/// goes back to the language on screen and the banner says why.
#[component]
pub fn LanguageSwitcher() -> impl IntoView {
    let l = lang();
    let problems = use_context::<Problems>();
    let busy = RwSignal::new(false);
    let select = NodeRef::<leptos::html::Select>::new();
    let on_change = move |ev: leptos::ev::Event| {
        let Some(locale) = Locale::from_tag(&event_target_value(&ev)) else { return };
        busy.set(true);
        leptos::task::spawn_local(async move {
            let result = l.set(locale).await;
            busy.set(false);
            if let Err(e) = result {
                // The page may be gone by now: then there is nothing to say.
                let Some(current) = l.0.try_get_untracked() else { return };
                if let Some(el) = select.get_untracked() {
                    el.set_value(current.tag());
                }
                if let Some(p) = problems {
                    p.0.set(Some(unavailable(locale, current, &e)));
                }
            }
        });
    };
    view! {
        <label class="lang-switch">
            <span class="lang-switch-label">{move || l.t("ui-language")}</span>
            <select id="lang-select" node_ref=select aria-busy=move || busy.get().then_some("true") on:change=on_change>
                {Locale::ALL.into_iter().map(|locale| view! {
                    <option value=locale.tag() lang=locale.tag() selected=move || l.0.get() == locale>{locale.native_name()}</option>
                }).collect_view()}
            </select>
        </label>
    }
}
