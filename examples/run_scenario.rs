//! Runs one prompt with the scripted model and prints the trace, one event a
//! line: `cargo run --example run_scenario -- "Spawn alice as a coder. Then request her shutdown."`

use std::rc::Rc;

use team_protocols::model::scripted::ScriptedModel;
use team_protocols::model::sleep::NoSleep;
use team_protocols::protocol::{check, Event};
use team_protocols::runtime::executor::LocalExecutor;
use team_protocols::runtime::{Host, Runtime, RuntimeConfig};

fn main() {
    let mut args = std::env::args().skip(1);
    let prompt = args.next().unwrap_or_else(|| "Spawn alice as a coder. Then request her shutdown.".into());
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(2026);
    let ex = LocalExecutor::new();
    let host = Host { spawner: Rc::new(ex.clone()), clock: None, sleeper: Rc::new(NoSleep) };
    let rt = Runtime::new(RuntimeConfig { seed, ..RuntimeConfig::default() }, Rc::new(ScriptedModel), host);
    for p in prompt.split(" || ") {
        if let Err(e) = rt.submit_prompt(p) {
            eprintln!("Error: {e}");
            std::process::exit(1);
        }
        ex.run_until_stalled();
    }
    let trace = rt.trace();
    for e in trace.entries() {
        let line = match &e.event {
            Event::MessageSent { message } => format!(
                "{} -> {} {} {} {}",
                message.from,
                message.to,
                message.msg_type,
                message.request_id.as_ref().map(|r| r.to_string()).unwrap_or_default(),
                message.content
            ),
            Event::ToolCalled { agent, tool, input, .. } => format!("{agent} calls {tool} {input}"),
            Event::ToolReturned { agent, tool, output, .. } => format!("{agent} {tool} => {}", output.replace('\n', " | ")),
            Event::ModelReplied { agent, text, stop_reason, .. } => format!("{agent} model: {stop_reason} {}", text.replace('\n', " | ")),
            other => format!("{other:?}"),
        };
        println!("#{:<3} {:>7} {line}", e.seq, e.time.to_string());
    }
    println!("violations: {:?}", check(&trace));
    rt.with_team(|t| println!("roster: {:?}", t.roster().members.iter().map(|m| (m.name.to_string(), m.status)).collect::<Vec<_>>()));
    println!("live tasks: {}", rt.live_tasks());
}
