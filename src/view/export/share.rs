//! Share links: the URL fragment that reopens a run. A scripted scenario run
//! is named by scenario, seed and fault rules (it replays exactly); any other
//! run carries its trace, deflated and base64url-encoded (the `base64`
//! crate), when that fits.
//!
//! An explorer link carries the Explore panel's settings and, optionally, a
//! run of the search to open (its path of choices): `explore=` + base64url
//! of its JSON; the run is rebuilt from the path, so the link stays short.
//!
//! An explorer link that names a property (and, for a gallery run, its
//! entry) reopens that finding: the run and its card (`finding_of_link`),
//! so a shared finding shows what it breaks, not just a trace.
//!
//! A scenario link carries the run's budget when it had one
//! (`&budget=tokens:1500`, `&budget=usd:0.5`), read as the Settings form
//! reads a typed one; a run a budget stopped is carried by its trace,
//! whose `budget_reached` brings the banner back.
//!
//! Owns the link format and its errors. Pure: no DOM, no storage.

use crate::explore::file_team::scenario_of;
use crate::explore::job::ExploreLink;
use crate::explore::{replay_finding, ExploreError};
use crate::protocol::{Event, FaultPlan, Trace};
use crate::runtime::budget::{Budget, BudgetError};
use crate::view::export::{import_json, import_json_with, ImportError, MAX_IMPORT_BYTES};
use crate::view::words::explorer::Card;

/// Longest fragment offered as a link (browsers and chat apps cut longer).
pub const MAX_LINK_CHARS: usize = 16_000;

/// Errors reading a share link, phrased for the banner.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ShareError {
    /// Not base64url.
    #[error("the link is damaged (not base64url text); copy the whole link")]
    BadEncoding,
    /// Not deflate data.
    #[error("the link's trace could not be unpacked (it is not deflate data); copy the whole link")]
    BadCompression,
    /// The packed trace grows past the import limit (a deflate bomb).
    #[error("the link's trace could not be unpacked: it grows past {} MB, more than any trace a link can carry", MAX_IMPORT_BYTES / (1024 * 1024))]
    TooBig,
    /// The unpacked trace is not UTF-8 text.
    #[error("the link's trace could not be unpacked: it is not text")]
    NotText,
    /// The seed is not a whole number from 0 to 2^64-1.
    #[error("the link's seed '{0}' is not a whole number from 0 to 18446744073709551615")]
    BadSeed(String),
    /// The unpacked trace is not a valid trace.
    #[error("the link's trace is not valid: {0}")]
    BadTrace(#[from] ImportError),
    /// The fault rules in the link are not valid.
    #[error("the link's fault rules are not valid: {0}")]
    BadFaults(String),
    /// The budget in the link is not valid.
    #[error("the link's budget is not valid: {0}")]
    BadBudget(BudgetError),
    /// The explorer settings or path in the link are not valid.
    #[error("the link's explorer settings are not valid: {0}")]
    BadExplore(String),
    /// The trace is too big for a link.
    #[error("this run is too large to share as a link ({0} characters); export it as JSON instead")]
    TooLong(usize),
}

/// Why the run on screen has no share link (yet).
#[derive(Debug, thiserror::Error)]
pub enum ShareLinkError {
    /// The run is still going.
    #[error("the share link appears when the run ends")]
    Running,
    /// Nothing has run.
    #[error("the share link appears once something has run")]
    Empty,
    /// The page's own address cannot be read.
    #[error("the page's address cannot be read, so no link can be made")]
    NoAddress,
    /// The run cannot be carried by a link.
    #[error(transparent)]
    Share(#[from] ShareError),
}

/// What a link asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum SharedRun {
    /// Rerun a scenario with this seed and these faults (scripted model).
    Scenario {
        /// Scenario id.
        id: String,
        /// Seed.
        seed: Option<u64>,
        /// Fault rules.
        faults: FaultPlan,
    },
    /// Show this recorded trace.
    Trace(Trace),
    /// Set up the Explore panel, and open a run of its search.
    Explore(Box<ExploreLink>),
}

/// base64url without padding, as links carry it.
const BASE64URL: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// base64url without padding.
pub fn base64url(bytes: &[u8]) -> String {
    base64::Engine::encode(&BASE64URL, bytes)
}

/// Decodes base64url without padding.
pub fn from_base64url(text: &str) -> Result<Vec<u8>, ShareError> {
    base64::Engine::decode(&BASE64URL, text).map_err(|_| ShareError::BadEncoding)
}

/// The fragment for a trace: `trace=` + base64url(deflate(JSON)).
pub fn trace_fragment(trace: &Trace) -> Result<String, ShareError> {
    let packed = miniz_oxide::deflate::compress_to_vec(trace.to_json().as_bytes(), 9);
    let fragment = format!("trace={}", base64url(&packed));
    if fragment.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong(fragment.len()));
    }
    Ok(fragment)
}

/// The fragment for a scenario run.
pub fn scenario_fragment(id: &str, seed: u64, faults: &FaultPlan) -> String {
    let mut fragment = format!("scenario={id}&seed={seed}");
    if !faults.rules.is_empty() {
        fragment.push_str("&faults=");
        fragment.push_str(&base64url(serde_json::to_string(faults).expect("faults serialise").as_bytes()));
    }
    fragment
}

/// The part of a scenario link that carries its budget, to follow
/// `scenario_fragment` after a `&`: `budget=tokens:1500`, `budget=usd:0.5`.
pub fn budget_part(budget: &Budget) -> String {
    match budget {
        Budget::Tokens(_) => format!("budget=tokens:{}", budget.typed()),
        Budget::Dollars(_) => format!("budget=usd:{}", budget.typed()),
    }
}

/// The budget a link's fragment carries (`None`: none), checked as the
/// Settings form checks a typed one.
pub fn parse_budget(fragment: &str) -> Result<Option<Budget>, ShareError> {
    let Some(value) = fragment.trim_start_matches('#').split('&').find_map(|part| part.strip_prefix("budget=")) else {
        return Ok(None);
    };
    let read = match value.split_once(':') {
        Some(("tokens", n)) => Budget::tokens(n),
        Some(("usd", d)) => Budget::dollars(d),
        _ => Err(BudgetError::NotANumber(value.chars().take(20).collect())),
    };
    match read.map_err(ShareError::BadBudget)? {
        Some(budget) => Ok(Some(budget)),
        None => Err(ShareError::BadBudget(BudgetError::NotPositive)),
    }
}

/// The fragment for an explorer link: `explore=` + base64url(deflate(JSON)).
pub fn explore_fragment(link: &ExploreLink) -> Result<String, ShareError> {
    let json = serde_json::to_string(link).map_err(|e| ShareError::BadExplore(e.to_string()))?;
    let fragment = format!("explore={}", base64url(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9)));
    if fragment.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLong(fragment.len()));
    }
    Ok(fragment)
}

/// An explorer link's settings and path, checked as the panel checks them.
fn parse_explore(data: &str) -> Result<ExploreLink, ShareError> {
    let text = inflate_text(data)?;
    let link: ExploreLink = serde_json::from_str(&text).map_err(|e| ShareError::BadExplore(e.to_string()))?;
    link.settings.validate().map_err(|e| ShareError::BadExplore(e.to_string()))?;
    if link.property.is_some() && link.property().is_none() {
        return Err(ShareError::BadExplore(format!(
            "no property is called '{}'",
            link.property.as_deref().unwrap_or_default().chars().take(40).collect::<String>()
        )));
    }
    if link.entry.is_some() && link.entry().is_none() {
        return Err(ShareError::BadExplore(format!(
            "no gallery entry is called '{}'",
            link.entry.as_deref().unwrap_or_default().chars().take(40).collect::<String>()
        )));
    }
    Ok(link)
}

/// A finding an explorer link reopens: its run, rebuilt from the link's
/// path, the card over the diagram, and the event it breaks at.
#[derive(Debug, Clone, PartialEq)]
pub struct FindingRun {
    /// The run.
    pub trace: Trace,
    /// What its card says: the property, what the explorer found, the
    /// gallery entry it reproduces.
    pub card: Card,
    /// The event where it breaks (or shows) the property, if found.
    pub seq: Option<u64>,
}

/// The finding `link` names, rebuilt: `None` when it names no run (only
/// settings); an error when its run cannot be rebuilt.
pub fn finding_of_link(link: &ExploreLink) -> Option<Result<FindingRun, ExploreError>> {
    let (Some(path), Some(property)) = (link.path.as_ref(), link.property()) else { return None };
    let config = link.settings.config();
    let rebuilt = scenario_of(&config).and_then(|scenario| replay_finding(scenario, &config, path, property));
    Some(rebuilt.map(|(trace, finding)| {
        let faults = trace.entries().iter().filter(|e| matches!(e.event, Event::FaultApplied { rule: None, .. })).count();
        let card = Card::Finding {
            property,
            detail: finding.as_ref().map(|f| f.detail.clone()),
            faults,
            choices: path.len(),
            entry: link.entry().map(|e| e.id),
        };
        FindingRun { trace, card, seq: finding.map(|f| f.seq) }
    }))
}

/// What the fragment (with or without `#`) asks for; `None` for none.
/// Reads every kind of link: the protocol-file loader reads an explorer
/// link's file and a trace's recorded one (on the page, in a split point:
/// `parse_fragment_first` reads the rest without it).
pub fn parse_fragment(fragment: &str) -> Result<Option<SharedRun>, ShareError> {
    match parse_parts(fragment, |data| unpack(data).map(Some), |data| parse_explore(data).map(Some))? {
        FirstRead::Read(run) => Ok(run),
        FirstRead::NeedsLoader => unreachable!("both readers above read every part"),
    }
}

/// What [`parse_fragment_first`] makes of a fragment.
#[derive(Debug, Clone, PartialEq)]
pub enum FirstRead {
    /// Read: what it asks for (`None` for nothing).
    Read(Option<SharedRun>),
    /// Reading it needs the protocol-file loader (an explorer link, or a
    /// trace that records its protocol file): `parse_fragment` reads it.
    NeedsLoader,
}

/// [`parse_fragment`] without the protocol-file loader (the page's first
/// screen, whose module does not hold it): scenario links and traces of
/// the lesson's protocols are read; a link that needs the loader says so;
/// errors are `parse_fragment`'s for every link read here.
pub fn parse_fragment_first(fragment: &str) -> Result<FirstRead, ShareError> {
    let trace = |data: &str| {
        let json = inflate_text(data)?;
        if crate::protocol::recorded_file::recorded_text(&json).is_some() {
            return Ok(None);
        }
        let refuse = |_: &str| Err(crate::protocol::recorded_file::not_loaded());
        Ok(Some(import_json_with(&json, &refuse)?))
    };
    parse_parts(fragment, trace, |_| Ok(None))
}

/// The fragment's parts read, a trace's by `trace` and an explorer link's
/// by `explore` (`None` from either: it needs the loader).
fn parse_parts(
    fragment: &str,
    trace: impl Fn(&str) -> Result<Option<Trace>, ShareError>,
    explore: impl Fn(&str) -> Result<Option<ExploreLink>, ShareError>,
) -> Result<FirstRead, ShareError> {
    let mut scenario = None;
    let mut seed = None;
    let mut faults = FaultPlan::default();
    for part in fragment.trim_start_matches('#').split('&') {
        match part.split_once('=') {
            Some(("trace", data)) => return Ok(trace(data)?.map_or(FirstRead::NeedsLoader, |t| FirstRead::Read(Some(SharedRun::Trace(t))))),
            Some(("explore", data)) => {
                return Ok(explore(data)?.map_or(FirstRead::NeedsLoader, |l| FirstRead::Read(Some(SharedRun::Explore(Box::new(l))))))
            }
            Some(("scenario", id)) => scenario = Some(id.to_string()),
            Some(("seed", n)) => seed = Some(n.parse().map_err(|_| ShareError::BadSeed(n.chars().take(40).collect()))?),
            Some(("faults", data)) => faults = parse_faults(data)?,
            _ => {}
        }
    }
    Ok(FirstRead::Read(scenario.map(|id| SharedRun::Scenario { id, seed, faults })))
}

/// Fault rules from a link, checked as the form checks them.
fn parse_faults(data: &str) -> Result<FaultPlan, ShareError> {
    let json = from_base64url(data).map_err(|_| ShareError::BadFaults("they are not base64url text".into()))?;
    let faults: FaultPlan = serde_json::from_slice(&json).map_err(|e| ShareError::BadFaults(e.to_string()))?;
    faults.validate().map_err(|e| ShareError::BadFaults(e.to_string()))?;
    Ok(faults)
}

fn unpack(data: &str) -> Result<Trace, ShareError> {
    Ok(import_json(&inflate_text(data)?)?)
}

/// Unpacks base64url(deflate(text)), refusing a deflate bomb.
fn inflate_text(data: &str) -> Result<String, ShareError> {
    use miniz_oxide::inflate::TINFLStatus;
    let packed = from_base64url(data)?;
    let limit = MAX_IMPORT_BYTES as usize;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, limit).map_err(|e| match e.status {
        TINFLStatus::HasMoreOutput => ShareError::TooBig,
        _ => ShareError::BadCompression,
    })?;
    String::from_utf8(json).map_err(|_| ShareError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{FaultAction, FaultRule, Millis, Team};
    use crate::view::synthetic::busy_trace;

    #[test]
    fn base64url_round_trips_every_length() {
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let text = base64url(&bytes);
            assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'), "{text}");
            assert_eq!(text.len(), (len as usize * 4).div_ceil(3), "no padding");
            assert_eq!(from_base64url(&text).unwrap(), bytes);
        }
        assert_eq!(base64url(b"hello"), "aGVsbG8");
    }

    #[test]
    fn a_damaged_link_is_refused_with_its_reason() {
        assert_eq!(from_base64url("ab$c"), Err(ShareError::BadEncoding));
        assert_eq!(from_base64url("aGVsbG8="), Err(ShareError::BadEncoding), "padding is not base64url as links carry it");
        assert_eq!(from_base64url("a"), Err(ShareError::BadEncoding), "a lone character holds no byte");
        assert!(matches!(parse_fragment("#trace=AAAA"), Err(ShareError::BadCompression)));
        let not_a_trace = base64url(&miniz_oxide::deflate::compress_to_vec(b"{\"hello\": 1}", 9));
        assert!(matches!(parse_fragment(&format!("trace={not_a_trace}")), Err(ShareError::BadTrace(_))));
        assert!(matches!(parse_fragment(&format!("scenario=x&faults={}", base64url(b"[1]"))), Err(ShareError::BadFaults(_))));
    }

    fn faults_link(json: &str) -> String {
        format!("scenario=shutdown&faults={}", base64url(json.as_bytes()))
    }

    fn rule(action: &str, probability: &str) -> String {
        format!(r#"{{"rules":[{{"action":{action},"msg_type":null,"from":null,"to":null,"probability":{probability}}}]}}"#)
    }

    #[test]
    fn every_kind_of_damaged_link_says_what_is_wrong_in_words() {
        let cases: Vec<(String, &str)> = vec![
            ("trace=@@garbage@@".into(), "not base64url"),
            ("trace=AAAA".into(), "not deflate"),
            (format!("trace={}", base64url(&miniz_oxide::deflate::compress_to_vec(&[0xff, 0xfe, 0x00], 9))), "not text"),
            (format!("trace={}", base64url(&miniz_oxide::deflate::compress_to_vec(b"not json at all", 9))), "not valid"),
            (
                format!(
                    "trace={}",
                    base64url(&miniz_oxide::deflate::compress_to_vec(
                        br#"{"version":1,"team_name":"x","seed":1,"entries":[{"seq":5}]}"#,
                        9
                    ))
                ),
                "not valid",
            ),
            ("scenario=shutdown&faults=garbage!".into(), "fault rules"),
            (faults_link("[1]"), "fault rules"),
            (faults_link(&rule(r#"{"kind":"drop"}"#, "5")), "probability"),
            (faults_link(&rule(r#"{"kind":"drop"}"#, "NaN")), "fault rules"),
            (faults_link(&rule(r#"{"kind":"delay","ms":-1}"#, "1")), "fault rules"),
            (faults_link(&rule(r#"{"kind":"delay","ms":18446744073709551615}"#, "1")), "too long"),
            ("scenario=shutdown&seed=-1".into(), "seed '-1'"),
            ("scenario=shutdown&seed=99999999999999999999999".into(), "seed '99999999999999999999999'"),
            ("scenario=shutdown&seed=".into(), "seed ''"),
        ];
        for (link, says) in cases {
            let first = parse_fragment_first(&link).expect_err(&link);
            assert_eq!(Err(first), parse_fragment(&link), "{link}: read first, refused as read whole");
            let error = parse_fragment(&link).expect_err(&link).to_string();
            assert!(error.contains(says), "{link}: {error}");
            for raw in ["HasMoreOutput", "Failed", "JsValue", "Err("] {
                assert!(!error.contains(raw), "{link}: {error}");
            }
        }
    }

    #[test]
    fn scenario_links_and_traces_of_the_lessons_protocols_are_read_without_the_loader() {
        let trace = busy_trace(40, 2, 3);
        assert!(trace.recorded_file().is_none());
        for link in
            [trace_fragment(&trace).unwrap(), scenario_fragment("shutdown", 7, &FaultPlan::default()), "#other=1".into(), String::new()]
        {
            let Ok(FirstRead::Read(first)) = parse_fragment_first(&link) else { panic!("{link}: read without the loader") };
            assert_eq!(Ok(first), parse_fragment(&link), "{link}");
        }
    }

    #[test]
    fn a_deflate_bomb_is_refused_without_unpacking_it_all() {
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; MAX_IMPORT_BYTES as usize + 1024], 9);
        assert!(bomb.len() < MAX_LINK_CHARS * 3, "{}", bomb.len());
        assert_eq!(parse_fragment(&format!("trace={}", base64url(&bomb))), Err(ShareError::TooBig));
    }

    #[test]
    fn a_trace_link_reopens_the_same_trace() {
        let mut team = Team::new("d", 3);
        team.spawn(&crate::protocol::AgentName::parse("alice").unwrap(), "coder", false, Millis(1)).unwrap();
        let fragment = trace_fragment(team.trace()).unwrap();
        assert_eq!(parse_fragment(&format!("#{fragment}")).unwrap(), Some(SharedRun::Trace(team.trace().clone())));
    }

    #[test]
    fn a_scenario_link_carries_seed_and_faults() {
        let faults = FaultPlan { rules: vec![FaultRule::new(FaultAction::Delay { ms: 40 })] };
        let fragment = scenario_fragment("shutdown", 7, &faults);
        assert_eq!(parse_fragment(&fragment).unwrap(), Some(SharedRun::Scenario { id: "shutdown".into(), seed: Some(7), faults }));
        assert_eq!(scenario_fragment("shutdown", 7, &FaultPlan::default()), "scenario=shutdown&seed=7");
    }

    #[test]
    fn a_scenario_links_budget_comes_back_as_typed_and_a_bad_one_is_refused() {
        for budget in [Budget::Tokens(1_500), Budget::Dollars(0.5), Budget::Dollars(12.25)] {
            let fragment = format!("#{}&{}", scenario_fragment("shutdown", 7, &FaultPlan::default()), budget_part(&budget));
            assert_eq!(parse_budget(&fragment), Ok(Some(budget)), "{fragment}");
            assert!(matches!(parse_fragment(&fragment), Ok(Some(SharedRun::Scenario { .. }))), "the rest of the link reads as before");
        }
        assert_eq!(budget_part(&Budget::Tokens(1_500)), "budget=tokens:1500");
        assert_eq!(parse_budget("scenario=shutdown&seed=7"), Ok(None), "no budget: none");
        for bad in ["budget=tokens:0", "budget=usd:-1", "budget=tokens:12.5", "budget=tokens:", "budget=lots", "budget=usd:1e9"] {
            assert!(matches!(parse_budget(&format!("scenario=shutdown&{bad}")), Err(ShareError::BadBudget(_))), "{bad}");
        }
        assert_eq!(parse_fragment("").unwrap(), None);
    }

    #[test]
    fn an_explorer_link_carries_the_settings_and_the_path_of_a_run() {
        use crate::explore::job::ExploreSettings;
        use crate::explore::{explore, Property};
        let settings = ExploreSettings { fault_kinds: vec![FaultAction::Drop], workers: 2, ..ExploreSettings::default() };
        let report = explore(&settings.config()).unwrap();
        let example = report.property(Property::NoAnswerLost).and_then(|p| p.example.clone()).expect("a dropped answer is found");
        let link = ExploreLink { settings, path: Some(example.path.clone()), property: Some("no_answer_lost".into()), entry: None };
        let fragment = explore_fragment(&link).unwrap();
        assert!(fragment.len() < 2_000, "a path keeps the link short: {}", fragment.len());
        assert_eq!(parse_fragment(&fragment).unwrap(), Some(SharedRun::Explore(Box::new(link))));
    }

    #[test]
    fn a_damaged_explorer_link_says_what_is_wrong() {
        let pack = |json: &str| format!("explore={}", base64url(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9)));
        let settings = serde_json::to_value(crate::explore::job::ExploreSettings::default()).unwrap();
        let mut bad_workers = settings.clone();
        bad_workers["workers"] = 9.into();
        for (link, says) in [
            (pack("{}"), "explorer settings are not valid"),
            (pack(&serde_json::json!({ "settings": bad_workers }).to_string()), "9 workers"),
            (pack(&serde_json::json!({ "settings": settings, "property": "nonsense" }).to_string()), "no property is called 'nonsense'"),
            ("explore=@@".into(), "not base64url"),
        ] {
            let error = parse_fragment(&link).expect_err(&link).to_string();
            assert!(error.contains(says), "{link}: {error}");
        }
    }

    #[test]
    fn an_explorer_link_asking_for_a_search_beyond_the_panels_bounds_is_refused_naming_the_bound() {
        use crate::explore::job::{MAX_DECISIONS, MAX_DEPTH, MAX_RUNS, MAX_STATES};
        let pack = |json: &str| format!("explore={}", base64url(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9)));
        let settings = serde_json::to_value(crate::explore::job::ExploreSettings::default()).unwrap();
        let with = |key: &str, value: serde_json::Value| {
            let mut s = settings.clone();
            s[key] = value;
            pack(&serde_json::json!({ "settings": s }).to_string())
        };
        let huge = u64::MAX;
        for (link, says) in [
            (with("max_depth", huge.into()), format!("the depth bound is {huge}: choose at most {MAX_DEPTH}")),
            (with("max_states", huge.into()), format!("the state bound is {huge}: choose at most {MAX_STATES}")),
            (with("max_decisions", huge.into()), format!("the off-script decisions bound is {huge}: choose at most {MAX_DECISIONS}")),
            (with("max_faults", huge.into()), format!("{huge} faults per run")),
            (
                with("strategy", serde_json::to_value(crate::explore::Strategy::Simulate { runs: huge, seed: 1 }).unwrap()),
                format!("the number of random runs is {huge}: choose at most {MAX_RUNS}"),
            ),
        ] {
            let error = parse_fragment(&link).expect_err(&says);
            assert!(matches!(&error, ShareError::BadExplore(why) if why.contains(&says)), "{says}: {error}");
        }
        assert!(parse_fragment(&with("max_depth", MAX_DEPTH.into())).is_ok(), "a bound at its most is taken");
    }

    #[test]
    fn an_explorer_link_of_a_files_team_carries_the_file_and_reopens_its_counterexample() {
        use crate::explore::job::ExploreSettings;
        use crate::explore::{explore, Property};
        let file = std::sync::Arc::new(crate::protocol::file::load(crate::view::protocol_file::TEMPLATE).unwrap());
        let settings = ExploreSettings { max_faults: 1, fault_kinds: vec![FaultAction::Drop], ..ExploreSettings::default() };
        let settings = settings.for_file(file).unwrap();
        let report = explore(&settings.config()).unwrap();
        let lost = report.property(Property::NoAnswerLost).unwrap().example.clone().expect("a dropped answer is lost");
        let link = ExploreLink {
            settings: ExploreSettings { max_faults: lost.bound, ..settings },
            path: Some(lost.path.clone()),
            property: Some("no_answer_lost".into()),
            entry: None,
        };
        let fragment = explore_fragment(&link).unwrap();
        let Ok(Some(SharedRun::Explore(back))) = parse_fragment(&fragment) else { panic!("the link reads back") };
        assert_eq!(*back, link);
        assert_eq!(parse_fragment_first(&fragment), Ok(FirstRead::NeedsLoader), "an explorer link's file needs the loader");
        let run = finding_of_link(&back).unwrap().unwrap();
        assert_eq!(run.trace, lost.trace, "the same run");
        assert!(run.trace.recorded_file().is_some(), "its trace records the file");
        let trace_link = trace_fragment(&run.trace).unwrap();
        assert_eq!(parse_fragment_first(&trace_link), Ok(FirstRead::NeedsLoader), "so does a trace that records its file");
        assert_eq!(parse_fragment(&trace_link), Ok(Some(SharedRun::Trace(run.trace.clone()))), "which the loader reads");
        // A link whose file no longer loads says why.
        let json = serde_json::to_string(&link).unwrap().replace("name = \\\"review\\\"", "name = \\\"Review\\\"");
        let broken = format!("explore={}", base64url(&miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9)));
        let Err(ShareError::BadExplore(why)) = parse_fragment(&broken) else { panic!("a broken file is refused") };
        assert!(why.contains("the protocol file does not load") && why.contains("Review"), "{why}");
    }

    #[test]
    fn a_trace_too_big_for_a_link_says_so() {
        assert!(matches!(trace_fragment(&busy_trace(20_000, 8, 1)), Err(ShareError::TooLong(_))));
        assert!(trace_fragment(&busy_trace(200, 4, 1)).is_ok());
    }
}
