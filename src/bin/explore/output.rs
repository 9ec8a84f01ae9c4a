//! What `explore` prints: the text report, the JSON report with what it
//! adds to the search's `Report` (`Extras`), the memory lines, and the exit
//! status its verdicts give.
//!
//! Owns formatting only; it must not search or read files.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use team_protocols::explore::{Quantifier, Report, Verdict};

/// A verdict as the JSON report writes it.
pub(crate) fn verdict_word(v: Verdict) -> &'static str {
    match v {
        Verdict::Holds => "holds",
        Verdict::Fails => "fails",
        Verdict::Unknown => "unknown",
    }
}

/// A verdict as the terminal report writes it: a failure stands out.
pub(crate) fn verdict_shouted(v: Verdict) -> &'static str {
    match v {
        Verdict::Fails => "FAILS",
        other => verdict_word(other),
    }
}

/// The report as text for a terminal.
pub(crate) fn text_report(report: &Report) -> String {
    let mut out = String::new();
    let c = &report.config;
    let _ = writeln!(
        out,
        "{} {} · faults ≤ {} · decisions off script ≤ {} · {:?}",
        if c.team.is_some() { "file team" } else { "scenario" },
        c.scenario,
        c.max_faults,
        c.max_decisions,
        c.strategy
    );
    let _ = writeln!(out, "reduction: {}", reduction_word(c.reduction));
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
    let _ = writeln!(
        out,
        "visited set: one 64-bit hash per distinct state; chance that two of them shared one ≤ {:.1e}",
        report.hash_collision_bound()
    );
    let _ = writeln!(out, "outcomes:");
    for (outcome, n) in &report.outcomes {
        let _ = writeln!(out, "  {n:>6}  {outcome}");
    }
    let _ = writeln!(out, "properties:");
    for p in &report.properties {
        let verdict = verdict_shouted(p.verdict);
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
    if !report.file_properties.is_empty() {
        let _ = writeln!(out, "file properties:");
    }
    for p in &report.file_properties {
        let q = match p.quantifier {
            Quantifier::Always => "always",
            Quantifier::Sometimes => "sometimes",
            Quantifier::Eventually => "eventually",
        };
        let verdict = verdict_shouted(p.verdict);
        let _ = writeln!(out, "  {verdict:<7} {q} {}", p.name);
        if let Some(ex) = &p.example {
            let what = if p.quantifier == Quantifier::Sometimes { "witness" } else { "counterexample" };
            let _ = writeln!(
                out,
                "          {what}: {} (event #{}, {} choices, {} fault(s))",
                ex.finding.detail,
                ex.finding.seq,
                ex.path.len(),
                ex.faults
            );
            for (i, choice) in ex.path.iter().enumerate() {
                let _ = writeln!(out, "          {:>3}. {choice}", i + 1);
            }
        }
    }
    out
}

/// What the JSON report says beyond the search's `Report`.
pub(crate) struct Extras {
    /// A protocol file was given (`--file`): its properties are reported.
    pub(crate) file: bool,
    /// A file's own team was explored (`--file` or a built-in team file).
    pub(crate) team: bool,
    /// The digest of the protocol file searched (`file_digest`).
    pub(crate) digest: Option<String>,
    /// The process's peak resident memory (Linux's VmHWM), in bytes.
    pub(crate) peak_rss: Option<u64>,
    /// For a merged report: how many slices' reports it joins.
    pub(crate) merged_from: Option<usize>,
    /// `--compare-reduction`: the same search with and without the
    /// partial-order reduction.
    pub(crate) compared: Option<Comparison>,
}

/// One search run with and without the partial-order reduction
/// (`--compare-reduction`): the reduction factor is states with / without.
/// Each side's `reduction` says whether it really ran reduced (breadth
/// first on the whole space only: with `--strategy dfs|simulate` or
/// `--slice` both sides are the full search and the factor is 1).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Comparison {
    /// The reduced search's (states, distinct states, seconds, complete).
    pub(crate) with: (u64, u64, f64, bool),
    /// The full search's.
    pub(crate) without: (u64, u64, f64, bool),
    /// Whether the reduced side ran reduced.
    pub(crate) reduced_ran: bool,
}

impl Comparison {
    /// The comparison of two reports of one search in the two modes, in
    /// either order.
    pub(crate) fn of(a: &Report, b: &Report) -> Comparison {
        let (with, without) = if a.config.reduction || !b.config.reduction { (a, b) } else { (b, a) };
        let side = |r: &Report| (r.states, r.distinct_states, r.seconds, r.complete);
        Comparison { with: side(with), without: side(without), reduced_ran: with.config.reduction }
    }

    /// States (transitions) with the reduction over states without.
    pub(crate) fn factor(&self) -> f64 {
        ratio(self.with.0, self.without.0)
    }

    /// Distinct states with the reduction over distinct states without.
    pub(crate) fn distinct_factor(&self) -> f64 {
        ratio(self.with.1, self.without.1)
    }

    fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "factor": self.factor(),
            "distinct_factor": self.distinct_factor(),
            "reduction_ran": self.reduced_ran,
            "with": { "states": self.with.0, "distinct_states": self.with.1, "seconds": self.with.2, "complete": self.with.3 },
            "without": { "states": self.without.0, "distinct_states": self.without.1, "seconds": self.without.2, "complete": self.without.3 },
        })
    }

    fn line(&self) -> String {
        format!(
            "reduction factor (states with / without): {:.3} ({} / {}), distinct {:.3} ({} / {}), {:.2} s / {:.2} s{}\n",
            self.factor(),
            self.with.0,
            self.without.0,
            self.distinct_factor(),
            self.with.1,
            self.without.1,
            self.with.2,
            self.without.2,
            if self.with.3 && self.without.3 { "" } else { " (a side was cut short by a bound: the factor compares what each covered)" }
        )
    }
}

/// `a / b`, 1 when both are 0.
fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        1.0
    } else {
        a as f64 / b as f64
    }
}

/// Prints the report (JSON or text) and gives the exit status its
/// verdicts say.
pub(crate) fn finish(report: &Report, extras: &Extras, json: bool) -> ExitCode {
    let text = if json { json_line(report, extras) } else { text_report(report) + &memory_lines(report, extras) };
    if let Some(failed) = emit(&text) {
        return failed;
    }
    if report.any_fails() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The JSON report (`json_report`) with the whole `Report` under
/// `report` (what `explore merge` joins), as one line of compact JSON,
/// keys sorted (a `Value`'s maps are). Written into a byte buffer
/// (`serde_json::to_string`), not through `Display`, which pushes every
/// token through a formatter: the same bytes, for less.
fn json_line(report: &Report, extras: &Extras) -> String {
    let mut value = json_report(report, extras);
    value["report"] = serde_json::to_value(report).unwrap_or(serde_json::Value::Null);
    // A `Value`'s map keys are strings, so writing it cannot fail; were it
    // to, `Display` writes the same text.
    let mut line = serde_json::to_string(&value).unwrap_or_else(|_| value.to_string());
    line.push('\n');
    line
}

/// What the text report adds: the bound that stopped the search, what it
/// covered and the fallback; the memory counted and the process's.
pub(crate) fn memory_lines(report: &Report, extras: &Extras) -> String {
    let mut out = String::new();
    if let Some(why) = stopped_sentence(report) {
        let _ = writeln!(out, "{why}");
    }
    let _ = write!(out, "peak memory: {} counted (visited set and frontier)", mib(report.peak_memory));
    match extras.peak_rss {
        Some(rss) => {
            let _ = writeln!(out, ", {} process peak resident (VmHWM)", mib(rss));
        }
        None => out.push('\n'),
    }
    if let Some(n) = extras.merged_from {
        let _ = writeln!(out, "merged from {n} slices: {MERGE_NOTE}");
    }
    if let Some(c) = &extras.compared {
        out.push_str(&c.line());
    }
    out
}

pub(crate) fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
}

/// The sentence a search cut short ends with: which bound, what it
/// covered, and random runs as the fallback.
pub(crate) fn stopped_sentence(report: &Report) -> Option<String> {
    let bound = report.stopped_by?;
    let c = &report.config;
    let limit = match bound {
        team_protocols::explore::Bound::States => format!("{} distinct states", c.max_states),
        team_protocols::explore::Bound::Depth => format!("{} choices deep", c.max_depth),
        team_protocols::explore::Bound::Memory => mib(c.max_memory.unwrap_or_default()),
    };
    Some(format!(
        "stopped by the {} bound ({} = {limit}): covered {} states ({} distinct) up to depth {}; verdicts without a counterexample are unknown. \
         For a space this large, random runs sample it: --strategy simulate --runs N",
        bound.name(),
        bound.flag(),
        report.states,
        report.distinct_states,
        report.depth
    ))
}

/// What `explore merge` says of the fields it merges.
pub(crate) const MERGE_NOTE: &str =
    "complete, stopped_by, each verdict and each counterexample's faults and length are the single search's; \
     states, distinct_states and outcomes are summed over slices that did not share their visited sets, so where their subtrees \
     meet a state is counted by each (at least the single search's); depth is the deepest slice's (a slice may reach a state by a \
     longer path); seconds, peak memory and peak RSS are the largest slice's (each slice runs on its own machine).";

/// The search's mode in words: with the partial-order reduction (sleep
/// sets: `states` counts the transitions it ran, fewer than the full
/// search's; `distinct` the same states) or without it.
pub(crate) fn reduction_word(on: bool) -> &'static str {
    if on {
        "sleep sets"
    } else {
        "none"
    }
}

/// The report as one JSON object: the keys CI reads (`json_line` adds the
/// whole `Report` under `report`, what `explore merge` joins).
pub(crate) fn json_report(report: &Report, extras: &Extras) -> serde_json::Value {
    let properties: serde_json::Map<String, serde_json::Value> =
        report.properties.iter().map(|p| (p.property.name().to_string(), serde_json::Value::from(verdict_word(p.verdict)))).collect();
    let file_properties: serde_json::Map<String, serde_json::Value> =
        report.file_properties.iter().map(|p| (p.name.clone(), serde_json::Value::from(verdict_word(p.verdict)))).collect();
    let file_examples: Vec<serde_json::Value> = report
        .file_properties
        .iter()
        .filter_map(|p| {
            p.example.as_ref().map(|e| {
                serde_json::json!({
                    "property": p.name, "verdict": verdict_word(p.verdict), "witness": p.quantifier == Quantifier::Sometimes,
                    "detail": e.finding.detail, "seq": e.finding.seq, "faults": e.faults, "path": e.path,
                })
            })
        })
        .collect();
    let mut out = serde_json::json!({
        "scenario": report.config.scenario,
        "faults": report.config.max_faults,
        "states": report.states,
        "distinct_states": report.distinct_states,
        "depth": report.depth,
        "complete": report.complete,
        "stopped_by": report.stopped_by.map(|b| b.name()),
        "reduction": reduction_word(report.config.reduction),
        "seconds": report.seconds,
        "states_per_second": report.states_per_second,
        "peak_memory_bytes": report.peak_memory,
        "peak_rss_bytes": extras.peak_rss,
        "hash_collision_bound": report.hash_collision_bound(),
        "outcomes": report.outcomes,
        "properties": properties,
        "counterexamples": report.properties.iter().filter(|p| p.verdict == Verdict::Fails).filter_map(|p| p.example.as_ref().map(|e| serde_json::json!({
            "property": p.property.name(), "detail": e.finding.detail.to_string(), "seq": e.finding.seq, "faults": e.faults, "path": e.path,
        }))).collect::<Vec<_>>(),
    });
    if let Some(why) = stopped_sentence(report) {
        out["stopped"] = serde_json::Value::from(why);
        out["fallback"] = serde_json::Value::from("--strategy simulate");
    }
    if let Some(s) = report.config.slice {
        out["slice"] = serde_json::json!({ "number": s.index + 1, "of": s.of });
    }
    if let Some(n) = extras.merged_from {
        out["merged_from"] = serde_json::Value::from(n);
        out["merge_note"] = serde_json::Value::from(MERGE_NOTE);
    }
    if let Some(c) = &extras.compared {
        out["reduction_factor"] = c.json();
    }
    if extras.file {
        out["file_properties"] = serde_json::Value::Object(file_properties);
        out["file_examples"] = serde_json::Value::Array(file_examples);
    }
    if extras.team {
        out["team"] = serde_json::Value::from(report.config.scenario.clone());
    }
    if let Some(d) = &extras.digest {
        out["file_digest"] = serde_json::Value::from(d.clone());
    }
    out
}

/// A protocol file's digest, so reports of searches of different files do
/// not merge: FNV-1a, 64 bits, of its text (not cryptographic: it tells
/// files apart, it does not authenticate them).
pub(crate) fn file_digest(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}")
}

/// The process's peak resident memory (`VmHWM` in `/proc/self/status`),
/// where Linux says it.
pub(crate) fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.trim_start_matches("VmHWM:").trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Writes `text` to standard output. A reader that went away (a closed
/// pipe, as in `| head`) is not an error; any other failure is, with exit
/// status 2.
pub(crate) fn emit(text: &str) -> Option<ExitCode> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("explore: cannot write the report: {e}");
            Some(ExitCode::from(2))
        }
        _ => None,
    }
}
