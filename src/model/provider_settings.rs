//! Choosing and building a model from plain settings: which provider, which
//! key, base URL, model id and token limit. The page edits these settings;
//! `build` turns them into a `Model` the runtime can drive.
//!
//! Owns the provider menu and the rules for what settings are complete. It
//! must not know about the page, storage or the team: the transport and the
//! sleeper come from the caller (`FetchTransport` in the browser, a fake in
//! tests).

use std::fmt;
use std::rc::Rc;

use super::anthropic::{self, AnthropicConfig, AnthropicModel};
use super::http::{ApiKey, HttpTransport};
use super::openai::{self, OpenAiConfig, OpenAiModel};
use super::scripted::{self, ScriptedModel};
use super::sleep::Sleeper;
use super::Model;

/// The largest `max_tokens` the settings accept.
pub const MAX_TOKENS_LIMIT: u32 = 200_000;

/// Which model the team runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Provider {
    /// The offline scripted model.
    #[default]
    Scripted,
    /// The Anthropic Messages API (or a proxy).
    Anthropic,
    /// Any OpenAI-compatible Chat Completions server.
    OpenAi,
}

impl Provider {
    /// Every provider, in menu order.
    pub const ALL: [Provider; 3] = [Provider::Scripted, Provider::Anthropic, Provider::OpenAi];

    /// A stable id (the `<option>` value, the storage key, the link).
    pub fn id(self) -> &'static str {
        match self {
            Provider::Scripted => "scripted",
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
        }
    }

    /// What the menu says.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Scripted => scripted::LABEL,
            Provider::Anthropic => "Anthropic (your key)",
            Provider::OpenAi => "OpenAI-compatible (base URL)",
        }
    }

    /// A short family name ("Anthropic").
    pub fn family(self) -> &'static str {
        match self {
            Provider::Scripted => scripted::LABEL,
            Provider::Anthropic => "Anthropic",
            Provider::OpenAi => "OpenAI-compatible",
        }
    }

    /// The provider with this id, or why there is none.
    pub fn parse(id: &str) -> Result<Provider, BuildError> {
        Provider::ALL.into_iter().find(|p| p.id() == id).ok_or_else(|| BuildError::UnknownProvider(id.chars().take(40).collect()))
    }

    /// The default base URL, shown as a placeholder.
    pub fn default_base_url(self) -> &'static str {
        match self {
            Provider::Scripted => "",
            Provider::Anthropic => anthropic::DEFAULT_BASE_URL,
            Provider::OpenAi => "http://127.0.0.1:11434/v1",
        }
    }

    /// The default model id, shown as a placeholder.
    pub fn default_model(self) -> &'static str {
        match self {
            Provider::Scripted => "",
            Provider::Anthropic => anthropic::DEFAULT_MODEL,
            Provider::OpenAi => openai::DEFAULT_MODEL,
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// Why settings cannot build a model, phrased for the banner.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    /// A real provider was chosen but no key was given.
    #[error("enter your {0} API key in Settings, or choose the offline scripted model")]
    MissingKey(&'static str),
    /// The provider id is not one this version knows.
    #[error("unknown model provider '{0}' (known: scripted, anthropic, openai)")]
    UnknownProvider(String),
    /// `max_tokens` is out of range.
    #[error("max tokens must be a whole number from 1 to {MAX_TOKENS_LIMIT}, not {0}")]
    BadMaxTokens(u32),
}

/// Everything needed to build a model. Its `Debug` never shows the key.
#[derive(Clone, PartialEq, Eq)]
pub struct ProviderSettings {
    /// Which provider.
    pub provider: Provider,
    /// The API key (empty for none).
    pub api_key: String,
    /// Base URL override (empty: the provider's default).
    pub base_url: String,
    /// Model id override (empty: the provider's default).
    pub model: String,
    /// `max_tokens` of each model call.
    pub max_tokens: u32,
    /// Seeds the retry backoff's jitter.
    pub jitter_seed: u64,
}

impl fmt::Debug for ProviderSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderSettings")
            .field("provider", &self.provider)
            .field("api_key", &if self.api_key.is_empty() { "(none)" } else { "(set)" })
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("max_tokens", &self.max_tokens)
            .finish_non_exhaustive()
    }
}

impl Default for ProviderSettings {
    fn default() -> Self {
        ProviderSettings {
            provider: Provider::Scripted,
            api_key: String::new(),
            base_url: String::new(),
            model: String::new(),
            max_tokens: anthropic::DEFAULT_MAX_TOKENS,
            jitter_seed: 0,
        }
    }
}

fn or_default(value: &str, default: &str) -> String {
    let value = value.trim();
    if value.is_empty() {
        default.to_string()
    } else {
        value.to_string()
    }
}

impl ProviderSettings {
    /// The base URL that will be used (the override, or the default).
    pub fn effective_base_url(&self) -> String {
        or_default(&self.base_url, self.provider.default_base_url())
    }

    /// The model id that will be used (the override, or the default).
    pub fn effective_model(&self) -> String {
        or_default(&self.model, self.provider.default_model())
    }

    /// What will run, for the page: "Scripted (offline)" or
    /// "Anthropic · claude-sonnet-4-5".
    pub fn describe(&self) -> String {
        match self.provider {
            Provider::Scripted => scripted::LABEL.to_string(),
            p => format!("{} · {}", p.family(), self.effective_model()),
        }
    }
}

/// Builds the model `settings` describe, sending through `transport` and
/// waiting between retries with `sleeper`.
pub fn build<T: HttpTransport + 'static>(
    settings: &ProviderSettings,
    transport: T,
    sleeper: Rc<dyn Sleeper>,
) -> Result<Rc<dyn Model>, BuildError> {
    if settings.max_tokens == 0 || settings.max_tokens > MAX_TOKENS_LIMIT {
        return Err(BuildError::BadMaxTokens(settings.max_tokens));
    }
    let key = ApiKey::new(settings.api_key.trim());
    let (base_url, model) = (settings.effective_base_url(), settings.effective_model());
    Ok(match settings.provider {
        Provider::Scripted => Rc::new(ScriptedModel),
        Provider::Anthropic => {
            if key.is_empty() {
                return Err(BuildError::MissingKey("Anthropic"));
            }
            let config = AnthropicConfig { base_url, model, api_key: key, max_tokens: settings.max_tokens, ..AnthropicConfig::default() };
            Rc::new(AnthropicModel::new(config, transport, sleeper).with_jitter_seed(settings.jitter_seed))
        }
        Provider::OpenAi => {
            let config = OpenAiConfig { api_key: key, max_tokens: settings.max_tokens, ..OpenAiConfig::new(base_url, model) };
            Rc::new(OpenAiModel::new(config, transport, sleeper).with_jitter_seed(settings.jitter_seed))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::http::HttpReply;
    use crate::model::sleep::NoSleep;
    use crate::model::{CancelToken, LocalBoxFuture, ModelError};

    struct Refuse;

    impl HttpTransport for Refuse {
        fn post<'a>(
            &'a self,
            _: &'a str,
            _: &'a crate::model::http::Headers,
            _: String,
            _: CancelToken,
        ) -> LocalBoxFuture<'a, Result<HttpReply, ModelError>> {
            Box::pin(std::future::ready(Err(ModelError::Cancelled)))
        }
    }

    fn settings(provider: Provider) -> ProviderSettings {
        ProviderSettings { provider, ..ProviderSettings::default() }
    }

    #[test]
    fn every_provider_id_round_trips_and_an_unknown_one_is_refused() {
        for p in Provider::ALL {
            assert_eq!(Provider::parse(p.id()), Ok(p));
        }
        assert_eq!(Provider::parse("gemini"), Err(BuildError::UnknownProvider("gemini".into())));
    }

    #[test]
    fn a_real_provider_without_a_key_is_refused_and_says_which_key() {
        let error = build(&settings(Provider::Anthropic), Refuse, Rc::new(NoSleep)).err();
        assert_eq!(error, Some(BuildError::MissingKey("Anthropic")));
        assert!(error.unwrap().to_string().contains("Anthropic API key"));
    }

    #[test]
    fn the_model_name_typed_is_the_model_built() {
        let s = ProviderSettings { api_key: "k".into(), model: " claude-test-1 ".into(), ..settings(Provider::Anthropic) };
        let model = build(&s, Refuse, Rc::new(NoSleep)).unwrap();
        assert!(model.label().contains("claude-test-1"), "{}", model.label());
        assert_eq!(s.describe(), "Anthropic · claude-test-1");
        let defaulted = ProviderSettings { api_key: "k".into(), ..settings(Provider::OpenAi) };
        assert!(build(&defaulted, Refuse, Rc::new(NoSleep)).unwrap().label().contains(openai::DEFAULT_MODEL));
    }

    #[test]
    fn the_scripted_provider_is_described_as_offline() {
        let s = settings(Provider::Scripted);
        assert_eq!(s.describe(), "Scripted (offline)");
        assert_eq!(build(&s, Refuse, Rc::new(NoSleep)).unwrap().label(), scripted::LABEL);
    }

    #[test]
    fn max_tokens_out_of_range_is_refused() {
        for bad in [0, MAX_TOKENS_LIMIT + 1] {
            let s = ProviderSettings { max_tokens: bad, ..settings(Provider::Scripted) };
            assert_eq!(build(&s, Refuse, Rc::new(NoSleep)).err(), Some(BuildError::BadMaxTokens(bad)));
        }
    }

    #[test]
    fn debug_never_shows_the_key() {
        let s = ProviderSettings { api_key: "sk-secret".into(), ..settings(Provider::Anthropic) };
        assert!(!format!("{s:?}").contains("sk-secret"));
    }
}
