//! `explore`: the model checker on the command line, for CI.
//!
//! `cargo run --release --bin explore -- --scenario shutdown --faults 2 [--json]`
//! explores every run of the scenario within the bounds, prints each
//! property's verdict (and the shortest counterexample's choices), and exits
//! non-zero when a property fails. `--list` names the scenarios.
//! `--rule-off NAME` switches a protective rule off (`protocol::rules`), to
//! reproduce the failure it prevents.
//!
//! `--check FILE` validates a protocol file (`protocol::file`) and prints
//! what it holds, or every refusal as `FILE:LINE:COL: path: sentence` on
//! stderr with exit status 2. `--scenario ID --file FILE` also checks the
//! file's `[[property]]` entries on the built-in scenario
//! (`protocol::file::monitor`; a file without `[team]` or protocols of its
//! own; the lesson's protocols are implied), each with its verdict and its
//! shortest counterexample or witness; exit 1 when one fails. `--file FILE`
//! without `--scenario` explores the file's own `[team]`
//! (`ExploreConfig::team`; `--team ID` optional, a file has one team) with
//! the same search over turn orders, faults (on the file's protocols'
//! messages too) and the decisions off script, which vary the file's
//! protocols as the lesson's (another answer or enum value, a withheld
//! answer, a tool called without asking at a closed gate, a request's
//! deadline passing at any turn), judged by the built-in properties and
//! the file's own `[[property]]` entries over its own protocols. `--help`
//! says all of it.
//!
//! `--scenario team-3` explores a built-in team file (the `team-N`
//! benchmark) as `--file` explores a file's team. `--slice I/N` explores
//! slice I of N (from 1) as the page's workers share a search, and
//! `explore merge [--json] REPORT.json…` joins the slices' `--json`
//! reports (refusing reports of different searches, a missing or a
//! duplicate slice). `--max-memory SIZE` bounds the search's own
//! structures; a search cut short says which bound stopped it, what it
//! covered, and suggests `--strategy simulate`.
//!
//! Owns argument parsing (clap) and the commands; what is printed is
//! `output`, joining slices' reports `merge`; the search is
//! `team_protocols::explore`, the loading of files `protocol::file`.
#![forbid(unsafe_code)]

mod merge;
mod output;

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser};
use std::time::Instant;

use team_protocols::explore::{explore, ExploreConfig, Slice, Strategy, Verdict};
use team_protocols::model::scripted::answer_points;

/// The search allocates a state's parts at every step, on every core:
/// mimalloc's per-thread heaps, not the system allocator's shared arenas.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use team_protocols::protocol::file::monitor::PropertySet;
use team_protocols::protocol::{file, FaultAction, Rule};
use team_protocols::runtime::scenarios;

use merge::merge_command;
use output::{emit, file_digest, finish, peak_rss, Comparison, Extras};

/// The command line (clap, derive). Numbers and words are read by the
/// value parsers below, so a refusal says which flag and why.
#[derive(Debug, Parser)]
#[command(
    name = "explore",
    about = "The model checker on the command line: explores every run of a scenario within bounds and prints each property's verdict.",
    after_help = "Exit status: 0 when every property holds, 1 when one fails, 2 on a refused command line or file.\n\
                  Protocol files: `explore --check FILE` validates a protocol file (docs/protocol-files.md); \
                  `explore --scenario ID --file FILE` also checks its [[property]] entries on the scenario (a file without [team]); \
                  `explore --file FILE [--team ID]` explores the file's own [team]: every turn order and fault within the bounds, \
                  judged by the built-in properties and the file's [[property]] entries (over its own protocols too); \
                  its replies are the file's scripted model's, and each decision off script \
                  (at most --decisions per run) varies a file protocol as the lesson's: the other answer and each other value of an \
                  enum field of an answer, a withheld answer (--withhold), a tool called without asking while its gate is closed, \
                  a pending request's deadline passing at any turn (after which the asker asks again within its retries). \
                  \n\
                  Across machines: `explore ... --slice I/N --json > part-I.json` on each of N machines, then \
                  `explore merge [--json] part-*.json` gives the single search's completeness, verdicts and shortest \
                  counterexamples (its counters are summed and over-count where slices meet)."
)]
struct Cli {
    /// The scenario to explore (`--list` names them).
    #[arg(long, value_name = "ID")]
    scenario: Option<String>,
    /// At most this many injected faults per run.
    #[arg(long, value_name = "K", value_parser = number::<usize>)]
    faults: Option<usize>,
    /// The kinds of fault injected, comma-separated: drop, duplicate, delay, reorder.
    #[arg(long, value_name = "KINDS", value_parser = kinds)]
    kinds: Option<Kinds>,
    /// Explore runs up to this many steps deep.
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    depth: Option<usize>,
    /// Stop after this many states.
    #[arg(long = "max-states", value_name = "N", value_parser = number::<usize>)]
    max_states: Option<usize>,
    /// The search order: bfs, dfs or simulate (random runs).
    #[arg(long, value_name = "bfs|dfs|simulate", default_value = "bfs", value_parser = strategy_name)]
    strategy: String,
    /// Random runs for `--strategy simulate`.
    #[arg(long, value_name = "N", default_value = "1000", value_parser = number::<u64>)]
    runs: u64,
    /// The seed of the team's ids (and of the simulated runs).
    #[arg(long, value_name = "N", value_parser = number::<u64>)]
    seed: Option<u64>,
    /// Worker threads.
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    threads: Option<usize>,
    /// At most this many decisions off the script per run.
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    decisions: Option<usize>,
    /// Also explore withholding an answer.
    #[arg(long)]
    withhold: bool,
    /// Also explore the lead answering for an addressee.
    #[arg(long = "lead-answers")]
    lead_answers: bool,
    /// Switch a protective rule off (repeatable), to reproduce the failure it prevents.
    #[arg(long = "rule-off", value_name = "NAME", value_parser = rule)]
    rule_off: Vec<Rule>,
    /// Do not merge states that differ only by teammates configured alike.
    #[arg(long = "no-symmetry")]
    no_symmetry: bool,
    /// Explore every order of turns that commute (no partial-order reduction: the full search).
    #[arg(long = "no-reduction")]
    no_reduction: bool,
    /// Also run the search in the other mode (full if reduced, reduced if full) and report the
    /// reduction factor: states (transitions) and distinct states with the reduction / without.
    #[arg(long = "compare-reduction")]
    compare_reduction: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// Name the scenarios and exit.
    #[arg(long)]
    list: bool,
    /// Write each failing property's shortest counterexample trace into DIR.
    #[arg(long = "trace-out", value_name = "DIR")]
    trace_out: Option<String>,
    /// Validate a protocol file and print what it holds, without searching.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "list", "file"])]
    check: Option<PathBuf>,
    /// Without --scenario: explore the protocol file's own [team]. With --scenario: also check a
    /// protocol file's [[property]] entries on it (a file without [team]).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["list"])]
    file: Option<PathBuf>,
    /// With --file: the id of the file's team to explore (optional: a file has one team).
    #[arg(long, value_name = "ID", requires = "file", conflicts_with_all = ["scenario"])]
    team: Option<String>,
    /// Explore only slice I of N (counted from 1: 1/3, 2/3, 3/3), as one of N machines does;
    /// `explore merge REPORT.json…` joins the N slices' --json reports.
    #[arg(long, value_name = "I/N", value_parser = slice)]
    slice: Option<Slice>,
    /// Stop once the search's own structures (visited set and frontier) hold this much:
    /// bytes, or with a unit (KiB, MiB, GiB, KB, MB, GB), e.g. 2GiB.
    #[arg(long = "max-memory", value_name = "SIZE", value_parser = bytes)]
    max_memory: Option<u64>,
}

/// `--slice I/N`: slice I of N, counted from 1 (the search's `Slice`
/// counts from 0).
fn slice(value: &str) -> Result<Slice, String> {
    let (i, n) = value.split_once('/').ok_or_else(|| format!("'{value}' is not I/N (slice I of N, e.g. 1/3)"))?;
    let i: usize = number(i.trim())?;
    let n: usize = number(n.trim())?;
    if n == 0 || i == 0 || i > n {
        return Err(format!("slice {i} of {n} does not exist: slices are counted from 1 to N (1/{n} … {n}/{n}), and N is at least 1"));
    }
    Ok(Slice { index: i - 1, of: n })
}

/// `--max-memory SIZE`: bytes, or a number with a unit.
fn bytes(value: &str) -> Result<u64, String> {
    let v = value.trim();
    let split = v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len());
    let (digits, unit) = v.split_at(split);
    let n: u64 = digits.parse().map_err(|_| format!("'{value}' is not a size (bytes, or e.g. 512MiB, 2GiB)"))?;
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kib" | "k" => 1 << 10,
        "mib" | "m" => 1 << 20,
        "gib" | "g" => 1 << 30,
        "kb" => 1_000,
        "mb" => 1_000_000,
        "gb" => 1_000_000_000,
        other => return Err(format!("unknown unit '{other}' in '{value}' (KiB, MiB, GiB, KB, MB, GB)")),
    };
    n.checked_mul(scale).filter(|b| *b > 0).ok_or_else(|| format!("'{value}' is not a size above zero that fits in 64 bits"))
}

/// `--kinds`' list (a type of its own, so clap takes it as one value).
#[derive(Debug, Clone)]
struct Kinds(Vec<FaultAction>);

fn number<T: std::str::FromStr>(value: &str) -> Result<T, String> {
    value.parse().map_err(|_| format!("'{value}' is not a number"))
}

fn kinds(value: &str) -> Result<Kinds, String> {
    value
        .split(',')
        .map(|k| match k.trim() {
            "drop" => Ok(FaultAction::Drop),
            "duplicate" => Ok(FaultAction::Duplicate),
            "delay" => Ok(FaultAction::Delay { ms: 1_000 }),
            "reorder" => Ok(FaultAction::Reorder),
            other => Err(format!("unknown fault kind '{other}' (drop, duplicate, delay, reorder)")),
        })
        .collect::<Result<_, _>>()
        .map(Kinds)
}

fn strategy_name(value: &str) -> Result<String, String> {
    match value {
        "bfs" | "dfs" | "simulate" => Ok(value.to_string()),
        other => Err(format!("unknown strategy '{other}' (bfs, dfs, simulate)")),
    }
}

fn rule(value: &str) -> Result<Rule, String> {
    Rule::by_name(value).map_err(|e| e.to_string())
}

/// What the command line asks for.
enum Command {
    /// Explore a built-in scenario (with a protocol file's properties), or
    /// with `team` a protocol file's own team.
    Explore {
        config: Box<ExploreConfig>,
        json: bool,
        trace_out: Option<String>,
        file: Option<PathBuf>,
        team: Option<TeamAsked>,
        /// `--compare-reduction`: run the other mode too.
        compare: bool,
    },
    /// Name the scenarios.
    List,
    /// Validate a protocol file.
    Check(PathBuf),
}

/// `--file FILE` without `--scenario`: its own team, by id if `--team` named one.
struct TeamAsked(Option<String>);

/// Why the command line was refused, in the words CI logs show.
#[derive(Debug, thiserror::Error)]
enum ArgError {
    #[error("{flag}: {reason}")]
    Value { flag: String, reason: String },
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("unknown option '{arg}' (did you mean '{tip}'?)")]
    UnknownNear { arg: String, tip: String },
    #[error("{0} needs a value")]
    Missing(String),
    #[error("--scenario is required")]
    NoScenario,
    #[error("{0}")]
    Other(String),
}

/// clap's refusal in this command's words: the flag and the reason.
fn arg_error(e: &clap::Error) -> ArgError {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let context = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => v.first().cloned(),
        _ => None,
    };
    let flag = || context(ContextKind::InvalidArg).map(|a| a.split(' ').next().unwrap_or_default().to_string()).unwrap_or_default();
    match e.kind() {
        ErrorKind::ValueValidation | ErrorKind::InvalidValue => {
            use std::error::Error as _;
            let reason = e
                .source()
                .map(|s| s.to_string())
                .unwrap_or_else(|| format!("'{}' is not allowed", context(ContextKind::InvalidValue).unwrap_or_default()));
            if context(ContextKind::InvalidValue).is_some_and(|v| v.is_empty()) && e.source().is_none() {
                return ArgError::Missing(flag());
            }
            ArgError::Value { flag: flag(), reason }
        }
        ErrorKind::UnknownArgument => {
            let arg = context(ContextKind::InvalidArg).unwrap_or_default();
            match context(ContextKind::SuggestedArg) {
                Some(tip) => ArgError::UnknownNear { arg, tip },
                None => ArgError::Unknown(arg),
            }
        }
        ErrorKind::NoEquals | ErrorKind::TooFewValues | ErrorKind::WrongNumberOfValues => ArgError::Missing(flag()),
        _ => ArgError::Other(e.render().to_string().trim_start_matches("error: ").trim().to_string()),
    }
}

/// What `--help` prints, or why the command line was refused.
enum Refused {
    /// `--help`: print this and exit 0.
    Help(String),
    /// A mistake: print it with the usage and exit 2.
    Arg(ArgError),
}

fn parse(args: impl Iterator<Item = String>) -> Result<Command, Refused> {
    let cli = Cli::try_parse_from(std::iter::once("explore".to_string()).chain(args)).map_err(|e| match e.kind() {
        clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => Refused::Help(e.render().to_string()),
        _ => Refused::Arg(arg_error(&e)),
    })?;
    if cli.list {
        return Ok(Command::List);
    }
    if let Some(path) = cli.check {
        return Ok(Command::Check(path));
    }
    let mut config = ExploreConfig::new("");
    if let Some(k) = cli.faults {
        config.max_faults = k;
    }
    if let Some(n) = cli.depth {
        config.max_depth = n;
    }
    if let Some(n) = cli.max_states {
        config.max_states = n;
    }
    config.max_memory = cli.max_memory;
    config.slice = cli.slice;
    if let Some(n) = cli.threads {
        config.threads = n;
    }
    if let Some(n) = cli.decisions {
        config.max_decisions = n;
    }
    if let Some(k) = cli.kinds {
        config.fault_kinds = k.0;
    }
    let sim_seed = cli.seed.unwrap_or(1);
    if let Some(seed) = cli.seed {
        config.seed = seed;
    }
    config.decisions.withhold_answers |= cli.withhold;
    config.decisions.answer_for_addressee |= cli.lead_answers;
    config.symmetry &= !cli.no_symmetry;
    // Partial-order reduction is on unless asked off (breadth first, whole
    // space only: `Pass` switches it off otherwise and the report says so).
    config.reduction = !cli.no_reduction;
    for r in cli.rule_off {
        config.rules = config.rules.with(r, false);
    }
    config.strategy = match cli.strategy.as_str() {
        "dfs" => Strategy::Dfs,
        "simulate" => Strategy::Simulate { runs: cli.runs, seed: sim_seed },
        _ => Strategy::Bfs,
    };
    // The file's own team is named once the file is loaded.
    let team = cli.file.as_ref().filter(|_| cli.scenario.is_none()).map(|_| TeamAsked(cli.team));
    let Some(scenario) = cli.scenario.or_else(|| team.as_ref().map(|_| String::new())) else {
        return Err(Refused::Arg(ArgError::NoScenario));
    };
    config.scenario = scenario;
    Ok(Command::Explore {
        config: Box::new(config),
        json: cli.json,
        trace_out: cli.trace_out,
        file: cli.file,
        team,
        compare: cli.compare_reduction,
    })
}

/// Reads and loads a protocol file; on failure, says why on stderr (every
/// refusal as `FILE:LINE:COL: path: sentence`) and gives exit status 2.
fn load_file(path: &std::path::Path) -> Result<file::ProtocolFile, ExitCode> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| {
        eprintln!("explore: cannot read {shown}: {e}");
        ExitCode::from(2)
    })?;
    file::load(&text).map_err(|refusals| {
        eprint!("{}", refusals.render(&shown));
        eprintln!("explore: {shown} was refused ({} error{})", refusals.0.len(), if refusals.0.len() == 1 { "" } else { "s" });
        ExitCode::from(2)
    })
}

/// `--check FILE`: what loaded, or every refusal as `FILE:LINE:COL: path: sentence`.
fn check_file(path: &std::path::Path) -> ExitCode {
    match load_file(path) {
        Ok(f) => emit(&file_summary(&path.display().to_string(), &f)).unwrap_or(ExitCode::SUCCESS),
        Err(code) => code,
    }
}

/// Says on stderr that a file with its own team is explored on its team,
/// not on a built-in scenario (exit 2).
fn team_not_on_a_scenario(path: &std::path::Path) -> ExitCode {
    eprintln!(
        "explore: {} has its own [team]: explore it with `explore --file FILE` (without --scenario); \
         `--scenario ID --file FILE` checks the [[property]] entries of a file without [team] on a built-in scenario",
        path.display()
    );
    ExitCode::from(2)
}

/// `--file FILE` without `--scenario`: the config explores the file's own
/// team (its id, its rules with the command line's `--rule-off` on top,
/// and its `[[property]]` entries, compiled over the file's protocols).
/// A file without a team, or another team than `--team` names, is refused
/// with exit status 2.
fn file_team(path: &std::path::Path, asked: &TeamAsked, config: &mut ExploreConfig) -> Result<(), ExitCode> {
    let f = load_file(path)?;
    team_of(f, &path.display().to_string(), asked, config)
}

/// The config explores loaded file `f`'s own team (shown as `shown`):
/// `--file FILE`'s, or a built-in team file's (`--scenario team-3`), one
/// path for both.
fn team_of(f: file::ProtocolFile, shown: &str, asked: &TeamAsked, config: &mut ExploreConfig) -> Result<(), ExitCode> {
    let path = shown;
    let Some(team) = &f.team else {
        eprintln!(
            "explore: --file {path} has no [team] to explore; it checks its properties on a built-in scenario: --scenario is required"
        );
        return Err(ExitCode::from(2));
    };
    if let Some(id) = asked.0.as_ref().filter(|id| **id != team.id) {
        eprintln!("explore: {path} has no team '{id}' (its team is '{}')", team.id);
        return Err(ExitCode::from(2));
    }
    config.scenario = team.id.clone();
    let mut rules = team.rules.rules;
    for r in config.rules.off().collect::<Vec<_>>() {
        rules = rules.with(r, false);
    }
    config.rules = rules;
    config.file_properties = PropertySet::compile(&f).map_err(|e| {
        eprintln!("explore: {path}: {e}");
        ExitCode::from(2)
    })?;
    eprint!("{}", capped_answers(path, &f));
    config.team = Some(std::sync::Arc::new(f));
    Ok(())
}

/// One line per protocol of `f` whose answers off the script outnumber
/// what the explorer offers per answer (`answer_points::MAX_ANSWER_POINTS`):
/// the search tries only the first of them, and says so.
fn capped_answers(shown: &str, f: &file::ProtocolFile) -> String {
    let cap = answer_points::MAX_ANSWER_POINTS;
    answer_points::capped_protocols(f)
        .into_iter()
        .map(|(name, n)| {
            format!(
                "explore: {shown}: protocol '{name}' has {n} answers (approve x its enum fields); \
                 the explorer offers at most {cap} off the script per answer, the fewest changes first\n"
            )
        })
        .collect()
}

/// `--file FILE` with `--scenario`: the file's properties, compiled for a
/// built-in scenario's team, which runs the lesson's protocols (a file with
/// a `[team]`, or protocols of its own, is refused with exit status 2).
fn file_properties(path: &std::path::Path) -> Result<PropertySet, ExitCode> {
    let f = load_file(path)?;
    if f.team.is_some() {
        return Err(team_not_on_a_scenario(path));
    }
    PropertySet::compile_for_lesson(&f).map_err(|e| {
        eprintln!("explore: {}: {e}", path.display());
        ExitCode::from(2)
    })
}

/// A short account of a loaded protocol file.
fn file_summary(shown: &str, f: &file::ProtocolFile) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{shown}: ok{}", if f.uses_lesson { " (with the lesson's protocols)" } else { "" });
    let names = |v: Vec<&str>| if v.is_empty() { "(none)".to_string() } else { v.join(", ") };
    let _ = writeln!(out, "gates: {}", names(f.gates.iter().map(|g| g.name.as_str()).collect()));
    let _ = writeln!(out, "protocols:");
    for p in &f.protocols {
        let mut tools: Vec<&str> = Vec::new();
        for t in [Some(&p.tools.request), p.tools.respond.as_ref(), p.tools.status.as_ref()].into_iter().flatten() {
            if !tools.contains(&t.name.as_str()) {
                tools.push(&t.name);
            }
        }
        let answers = if p.tools.respond.is_some() { "answers" } else { "should answer (no answer tool)" };
        let mut extra = String::new();
        if let Some(ms) = p.deadline_ms {
            let _ = write!(extra, ", deadline {ms} ms, {} retr{}", p.retries, if p.retries == 1 { "y" } else { "ies" });
        }
        let _ = writeln!(
            out,
            "  {:<12} {} -> {} (from {}, {} {answers}; tools {}{extra})",
            p.name,
            p.request_type,
            p.response_type,
            p.from.name(),
            p.to.name(),
            tools.join(", ")
        );
    }
    match &f.team {
        Some(t) => {
            let _ = writeln!(
                out,
                "team: {} \"{}\": {} teammate(s), {} step(s), {} fault rule(s)",
                t.id,
                t.title,
                t.teammates.len(),
                t.steps.len(),
                t.faults.len()
            );
            let mut off: Vec<&str> = t.rules.rules.off().map(|r| r.name()).collect();
            if !t.rules.responder_required {
                off.push("responder_required");
            }
            if !off.is_empty() {
                let _ = writeln!(out, "protective rules off: {}", off.join(", "));
            }
        }
        None => {
            let _ = writeln!(out, "team: (none)");
        }
    }
    let _ = writeln!(out, "properties: {}", names(f.properties.iter().map(|p| p.name.as_str()).collect()));
    out.push_str(&capped_answers(shown, f));
    out
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "merge") {
        return merge_command(&args[1..]);
    }
    let (mut config, json, trace_out, file, mut team, compare) = match parse(args.into_iter()) {
        Ok(Command::Explore { config, json, trace_out, file, team, compare }) => (config, json, trace_out, file, team, compare),
        Ok(Command::List) => {
            let mut list: String =
                scenarios::PAGE.iter().chain([&scenarios::TWINS]).map(|s| format!("{:<22} {}\n", s.id, s.title)).collect();
            for (id, text) in file::builtin::TEAMS.iter().filter(|(id, _)| scenarios::explorable(id).is_none()) {
                let title = file::load(text).ok().and_then(|f| f.team.map(|t| t.title)).unwrap_or_default();
                let _ = writeln!(list, "{id:<22} {title} (built-in team file)");
            }
            return emit(&list).unwrap_or(ExitCode::SUCCESS);
        }
        Ok(Command::Check(path)) => return check_file(&path),
        Err(Refused::Help(text)) => return emit(&text).unwrap_or(ExitCode::SUCCESS),
        Err(Refused::Arg(e)) => {
            eprintln!("explore: {e}\n{}", Cli::command().render_usage());
            return ExitCode::from(2);
        }
    };
    let mut digest = None;
    if let (Some(path), Some(asked)) = (&file, &team) {
        if let Ok(text) = std::fs::read_to_string(path) {
            digest = Some(file_digest(&text));
        }
        if let Err(code) = file_team(path, asked, &mut config) {
            return code;
        }
    } else if let Some(text) = file::builtin::team(&config.scenario).filter(|_| scenarios::explorable(&config.scenario).is_none()) {
        // A built-in team file (`team-3`): explored as `--file` explores a file's team.
        if let Some(path) = &file {
            eprintln!(
                "explore: --scenario {} is a built-in team file; --file {} checks [[property]] entries on a built-in scenario only",
                config.scenario,
                path.display()
            );
            return ExitCode::from(2);
        }
        let loaded = match file::load(text) {
            Ok(f) => f,
            Err(refusals) => {
                eprint!("{}", refusals.render(&config.scenario));
                return ExitCode::from(2);
            }
        };
        digest = Some(file_digest(text));
        let shown = format!("built-in team file {}", config.scenario);
        if let Err(code) = team_of(loaded, &shown, &TeamAsked(None), &mut config) {
            return code;
        }
        team = Some(TeamAsked(None));
    } else if let Some(path) = &file {
        match file_properties(path) {
            Ok(set) => config.file_properties = set,
            Err(code) => return code,
        }
        if let Ok(text) = std::fs::read_to_string(path) {
            digest = Some(file_digest(&text));
        }
    }
    let started = Instant::now();
    let report = match explore(&config) {
        Ok(r) => r.timed(started.elapsed().as_secs_f64()),
        Err(e) => {
            eprintln!("explore: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &trace_out {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("explore: cannot create {dir}: {e}");
            return ExitCode::from(2);
        }
        for p in report.properties.iter().filter(|p| p.verdict == Verdict::Fails) {
            if let Some(ex) = &p.example {
                let path = format!("{dir}/{}.{}.json", report.config.scenario, p.property.name());
                let written = serde_json::to_string_pretty(&ex.trace)
                    .map_err(|e| e.to_string())
                    .and_then(|t| std::fs::write(&path, t).map_err(|e| e.to_string()));
                if let Err(e) = written {
                    eprintln!("explore: cannot write {path}: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        for p in report.file_properties.iter().filter(|p| p.verdict == Verdict::Fails) {
            if let Some(ex) = &p.example {
                let path = format!("{dir}/{}.file.{}.json", report.config.scenario, p.name);
                let written = serde_json::to_string_pretty(&ex.trace)
                    .map_err(|e| e.to_string())
                    .and_then(|t| std::fs::write(&path, t).map_err(|e| e.to_string()));
                if let Err(e) = written {
                    eprintln!("explore: cannot write {path}: {e}");
                    return ExitCode::from(2);
                }
            }
        }
    }
    // The other mode's search, after this one (so the peak resident
    // memory reported is the larger of the two).
    let compared = if compare {
        let other = ExploreConfig { reduction: !config.reduction, ..(*config).clone() };
        let started = Instant::now();
        match explore(&other) {
            Ok(r) => Some(Comparison::of(&report, &r.timed(started.elapsed().as_secs_f64()))),
            Err(e) => {
                eprintln!("explore: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        None
    };
    let extras = Extras { file: file.is_some(), team: team.is_some(), digest, peak_rss: peak_rss(), merged_from: None, compared };
    finish(&report, &extras, json)
}
