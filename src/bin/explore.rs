//! `explore`: the model checker on the command line, for CI.
//!
//! `cargo run --release --bin explore -- --scenario shutdown --faults 2 [--json]`
//! explores every run of the scenario within the bounds, prints each
//! property's verdict (and the shortest counterexample's choices), and exits
//! non-zero when a property fails. `--list` names the scenarios.
//! `--rule-off NAME` switches a protective rule off (`protocol::rules`), to
//! reproduce the failure it prevents.
//!
//! Owns argument parsing and printing; the search is `team_protocols::explore`.
#![forbid(unsafe_code)]

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;
use std::time::Instant;

use team_protocols::explore::{explore, ExploreConfig, Quantifier, Report, Strategy, Verdict};

/// The search allocates a state's parts at every step, on every core:
/// mimalloc's per-thread heaps, not the system allocator's shared arenas.
#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use team_protocols::protocol::FaultAction;
use team_protocols::runtime::scenarios;

const USAGE: &str = "usage: explore --scenario ID [--faults K] [--kinds drop,duplicate,delay,reorder] [--depth N] [--max-states N]
               [--strategy bfs|dfs|simulate] [--runs N] [--seed N] [--threads N] [--decisions N] [--withhold] [--no-symmetry]
               [--lead-answers] [--rule-off NAME]... [--json] [--trace-out DIR]
       explore --list";

/// Why the command line was refused.
#[derive(Debug, thiserror::Error)]
enum ArgError {
    #[error("{0} needs a value")]
    Missing(String),
    #[error("{flag}: '{value}' is not a number")]
    NotANumber { flag: String, value: String },
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("unknown fault kind '{0}' (drop, duplicate, delay, reorder)")]
    Kind(String),
    #[error("unknown strategy '{0}' (bfs, dfs, simulate)")]
    Strategy(String),
    #[error("--scenario is required")]
    NoScenario,
    #[error("--rule-off: {0}")]
    Rule(#[from] team_protocols::protocol::RulesError),
}

struct Args {
    config: ExploreConfig,
    json: bool,
    list: bool,
    trace_out: Option<String>,
}

fn number<T: std::str::FromStr>(flag: &str, value: Option<String>) -> Result<T, ArgError> {
    let value = value.ok_or_else(|| ArgError::Missing(flag.into()))?;
    value.parse().map_err(|_| ArgError::NotANumber { flag: flag.into(), value })
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, ArgError> {
    let mut config = ExploreConfig::new("");
    let (mut json, mut list, mut trace_out, mut scenario) = (false, false, None, None);
    let (mut strategy, mut runs, mut sim_seed) = ("bfs".to_string(), 1_000u64, 1u64);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--scenario" => scenario = Some(it.next().ok_or_else(|| ArgError::Missing(flag.clone()))?),
            "--faults" => config.max_faults = number(&flag, it.next())?,
            "--depth" => config.max_depth = number(&flag, it.next())?,
            "--max-states" => config.max_states = number(&flag, it.next())?,
            "--threads" => config.threads = number(&flag, it.next())?,
            "--seed" => {
                let seed: u64 = number(&flag, it.next())?;
                config.seed = seed;
                sim_seed = seed;
            }
            "--runs" => runs = number(&flag, it.next())?,
            "--strategy" => strategy = it.next().ok_or_else(|| ArgError::Missing(flag.clone()))?,
            "--withhold" => config.decisions.withhold_answers = true,
            "--lead-answers" => config.decisions.answer_for_addressee = true,
            "--rule-off" => {
                let name = it.next().ok_or_else(|| ArgError::Missing(flag.clone()))?;
                config.rules = config.rules.with(team_protocols::protocol::Rule::by_name(&name)?, false);
            }
            "--no-symmetry" => config.symmetry = false,
            "--decisions" => config.max_decisions = number(&flag, it.next())?,
            "--kinds" => {
                let value = it.next().ok_or_else(|| ArgError::Missing(flag.clone()))?;
                config.fault_kinds = value
                    .split(',')
                    .map(|k| match k.trim() {
                        "drop" => Ok(FaultAction::Drop),
                        "duplicate" => Ok(FaultAction::Duplicate),
                        "delay" => Ok(FaultAction::Delay { ms: 1_000 }),
                        "reorder" => Ok(FaultAction::Reorder),
                        other => Err(ArgError::Kind(other.into())),
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--json" => json = true,
            "--list" => list = true,
            "--trace-out" => trace_out = Some(it.next().ok_or_else(|| ArgError::Missing(flag.clone()))?),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(ArgError::Unknown(other.into())),
        }
    }
    config.strategy = match strategy.as_str() {
        "bfs" => Strategy::Bfs,
        "dfs" => Strategy::Dfs,
        "simulate" => Strategy::Simulate { runs, seed: sim_seed },
        other => return Err(ArgError::Strategy(other.into())),
    };
    if !list {
        config.scenario = scenario.ok_or(ArgError::NoScenario)?;
    }
    Ok(Args { config, json, list, trace_out })
}

/// The report as text for a terminal.
fn text_report(report: &Report) -> String {
    let mut out = String::new();
    let c = &report.config;
    let _ = writeln!(
        out,
        "scenario {} · faults ≤ {} · decisions off script ≤ {} · {:?}",
        c.scenario, c.max_faults, c.max_decisions, c.strategy
    );
    let off: Vec<&str> = c.rules.off().map(|r| r.name()).collect();
    if !off.is_empty() {
        let _ = writeln!(out, "protective rules off: {}", off.join(", "));
    }
    let _ = writeln!(
        out,
        "{} states, {} distinct, depth {}, {:.2} s, {:.0} states/s{}",
        report.states,
        report.distinct_states,
        report.depth,
        report.seconds,
        report.states_per_second,
        if report.complete { "" } else { " (bounded: not every state was explored)" }
    );
    let _ = writeln!(out, "outcomes:");
    for (outcome, n) in &report.outcomes {
        let _ = writeln!(out, "  {n:>6}  {outcome}");
    }
    let _ = writeln!(out, "properties:");
    for p in &report.properties {
        let verdict = match p.verdict {
            Verdict::Holds => "holds",
            Verdict::Fails => "FAILS",
            Verdict::Unknown => "unknown",
        };
        let _ = writeln!(out, "  {verdict:<7} {}", p.property);
        if let Some(ex) = &p.example {
            if p.verdict == Verdict::Fails || p.property.quantifier() == Quantifier::Sometimes && ex.path.len() < 8 {
                let _ = writeln!(
                    out,
                    "          {} (event #{}, {} choices, {} fault(s))",
                    ex.finding.detail,
                    ex.finding.seq,
                    ex.path.len(),
                    ex.faults
                );
                if p.verdict == Verdict::Fails {
                    for (i, choice) in ex.path.iter().enumerate() {
                        let _ = writeln!(out, "          {:>3}. {choice}", i + 1);
                    }
                }
            }
        }
    }
    out
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("explore: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    if args.list {
        let list: String = scenarios::PAGE.iter().chain([&scenarios::TWINS]).map(|s| format!("{:<22} {}\n", s.id, s.title)).collect();
        return emit(&list).unwrap_or(ExitCode::SUCCESS);
    }
    let started = Instant::now();
    let report = match explore(&args.config) {
        Ok(r) => r.timed(started.elapsed().as_secs_f64()),
        Err(e) => {
            eprintln!("explore: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(dir) = &args.trace_out {
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
    }
    if args.json {
        let properties: serde_json::Map<String, serde_json::Value> = report
            .properties
            .iter()
            .map(|p| {
                let v = match p.verdict {
                    Verdict::Holds => "holds",
                    Verdict::Fails => "fails",
                    Verdict::Unknown => "unknown",
                };
                (p.property.name().to_string(), serde_json::Value::from(v))
            })
            .collect();
        let out = serde_json::json!({
            "scenario": report.config.scenario,
            "faults": report.config.max_faults,
            "states": report.states,
            "distinct_states": report.distinct_states,
            "depth": report.depth,
            "complete": report.complete,
            "seconds": report.seconds,
            "states_per_second": report.states_per_second,
            "outcomes": report.outcomes,
            "properties": properties,
            "counterexamples": report.properties.iter().filter(|p| p.verdict == Verdict::Fails).filter_map(|p| p.example.as_ref().map(|e| serde_json::json!({
                "property": p.property.name(), "detail": e.finding.detail.to_string(), "seq": e.finding.seq, "faults": e.faults, "path": e.path,
            }))).collect::<Vec<_>>(),
        });
        if let Some(failed) = emit(&format!("{out}\n")) {
            return failed;
        }
    } else if let Some(failed) = emit(&text_report(&report)) {
        return failed;
    }
    if report.any_fails() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Writes `text` to standard output. A reader that went away (a closed
/// pipe, as in `| head`) is not an error; any other failure is, with exit
/// status 2.
fn emit(text: &str) -> Option<ExitCode> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("explore: cannot write the report: {e}");
            Some(ExitCode::from(2))
        }
        _ => None,
    }
}
