//! Protocol files (`protocol::file`): the lesson file matches what the
//! runtime offers today, every built-in team and example loads (or is
//! refused, for the permission request nobody answers), and each refusal of
//! the contract is placed at its line, column and field path with words
//! that say what is wrong.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::protocol::file::{self, builtin, FileError, ProtocolFile, Role};

fn loads(name: &str, text: &str) -> ProtocolFile {
    match file::load(text) {
        Ok(f) => f,
        Err(e) => panic!("{name} was refused:\n{}", e.render(name)),
    }
}

#[test]
fn every_built_in_team_loads_with_the_lesson_protocols() {
    for (id, text) in builtin::TEAMS {
        let f = loads(id, text);
        let team = f.team.as_ref().expect("a team");
        assert_eq!(team.id, id);
        assert!(f.uses_lesson, "{id} names only a team, so it uses the lesson");
        assert_eq!(f.protocols.len(), 2, "{id}");
        assert!(!team.steps.is_empty() && !team.prompts.is_empty(), "{id}");
    }
}

#[test]
fn the_examples_load_except_the_permission_request_nobody_answers() {
    for (name, text) in builtin::EXAMPLES {
        let got = file::load(text);
        if name == "permission-no-responder" {
            let e = got.expect_err("refused");
            assert!(e.0.iter().any(|r| matches!(r.error, FileError::NoResponder { .. })), "{}", e.render(name));
        } else {
            loads(name, text);
        }
    }
}

#[test]
fn the_lesson_loads_alone() {
    let f = builtin::lesson().unwrap();
    assert_eq!(f.protocols.len(), 2);
    assert!(f.protocols.iter().all(|p| p.builtin));
    assert_eq!(f.protocol_tools(Role::Lead).len(), 3);
}

// ---- The lesson file is today's runtime, tool for tool ----------------

mod golden {
    use serde_json::Value;
    use team_protocols::protocol::file::{builtin, Role, BUILTIN_TOOLS};
    use team_protocols::protocol::{AgentName, MessageType, Millis, RequestKind, Team, TeamError};
    use team_protocols::runtime::tools::{schemas, tool_names, AgentRole, ToolCall};

    fn role_of(r: AgentRole) -> Role {
        match r {
            AgentRole::Lead => Role::Lead,
            AgentRole::Teammate => Role::Teammate,
        }
    }

    fn keys(v: &Value) -> Vec<String> {
        let mut k: Vec<String> = v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
        k.sort();
        k
    }

    #[test]
    fn the_lesson_file_gives_each_role_the_protocol_tools_the_runtime_offers_today() {
        let lesson = builtin::lesson().unwrap();
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let names = tool_names(role);
            let builtin_count = names.iter().take_while(|n| BUILTIN_TOOLS.contains(n)).count();
            let from_file: Vec<&str> = lesson.protocol_tools(role_of(role)).iter().map(|t| t.name.as_str()).collect();
            assert_eq!(from_file, names[builtin_count..], "{role:?}: the protocol tools follow the built-in ones");
            let runtime = schemas(role);
            for t in lesson.protocol_tools(role_of(role)) {
                let s = runtime.iter().find(|s| s.name == t.name).unwrap();
                assert_eq!(t.description, s.description, "{role:?} {}", t.name);
            }
        }
    }

    #[test]
    fn the_lesson_files_fields_are_the_runtime_tools_inputs() {
        let lesson = builtin::lesson().unwrap();
        for role in [AgentRole::Lead, AgentRole::Teammate] {
            let runtime = schemas(role);
            for p in &lesson.protocols {
                let schema = |name: &str| runtime.iter().find(|s| s.name == name).unwrap().input_schema.clone();
                let names = |fields: &[team_protocols::protocol::file::Field]| fields.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
                if p.from.allows(role_of(role)) {
                    let s = schema(&p.tools.request.name);
                    let mut want = names(&p.request_fields);
                    if p.to == Role::Teammate {
                        want.push("teammate".into());
                    }
                    want.sort();
                    assert_eq!(keys(&s["properties"]), want, "{role:?} {} request", p.name);
                    let required: Vec<&str> = s["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
                    let mut want_required: Vec<&str> = if p.to == Role::Teammate { vec!["teammate"] } else { Vec::new() };
                    want_required.extend(p.request_fields.iter().filter(|f| f.required).map(|f| f.name.as_str()));
                    assert_eq!(required, want_required, "{} request required", p.name);
                    if let Some(status) = &p.tools.status {
                        assert_eq!(keys(&schema(&status.name)["properties"]), ["request_id"], "{} status", p.name);
                    }
                }
                if p.to == role_of(role) {
                    let s = schema(&p.tools.respond.as_ref().unwrap().name);
                    let mut want = names(&p.response_fields);
                    want.extend(["request_id".to_string(), "approve".to_string()]);
                    want.sort();
                    assert_eq!(keys(&s["properties"]), want, "{role:?} {} respond", p.name);
                    let required: Vec<&str> = s["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
                    let mut want_required = vec!["request_id", "approve"];
                    want_required.extend(p.response_fields.iter().filter(|f| f.required).map(|f| f.name.as_str()));
                    assert_eq!(required, want_required, "{} respond required", p.name);
                }
            }
        }
    }

    #[test]
    fn the_lesson_files_message_types_are_the_runtimes_protocol_types() {
        let lesson = builtin::lesson().unwrap();
        let runtime: Vec<&str> = MessageType::ALL.iter().filter(|t| t.is_request() || t.is_response()).map(|t| t.as_str()).collect();
        assert_eq!(lesson.message_types(), runtime);
        let kinds: Vec<String> = [RequestKind::SHUTDOWN, RequestKind::PLAN].iter().map(|k| k.to_string()).collect();
        assert_eq!(lesson.protocols.iter().map(|p| p.name.clone()).collect::<Vec<_>>(), kinds, "protocol names are the tracker's kinds");
    }

    #[test]
    fn the_lesson_files_plan_gate_closes_the_tools_the_runtime_gates() {
        let lesson = builtin::lesson().unwrap();
        let gate = &lesson.gates[0];
        for (name, call) in [
            ("list_files", ToolCall::ListFiles),
            ("read_file", ToolCall::ReadFile { path: "a".into(), limit: None }),
            ("write_file", ToolCall::WriteFile { path: "a".into(), content: String::new() }),
            ("edit_file", ToolCall::EditFile { path: "a".into(), old_text: "x".into(), new_text: "y".into() }),
        ] {
            assert_eq!(gate.tools.iter().any(|t| t == name), call.changes_workspace(), "{name}");
        }
    }

    #[test]
    fn the_lesson_files_effects_and_one_pending_rule_are_the_teams() {
        let lesson = builtin::lesson().unwrap();
        let shutdown = &lesson.protocols[0];
        let alice = AgentName::parse("alice").unwrap();
        let mut team = Team::new("t", 1);
        team.spawn(&alice, "coder", false, Millis(0)).unwrap();
        let id = team.request_shutdown(&AgentName::lead(), &alice, Millis(1)).unwrap();
        let second = team.request_shutdown(&AgentName::lead(), &alice, Millis(2));
        assert_eq!(shutdown.one_pending_per_addressee, matches!(second, Err(TeamError::ShutdownPending { .. })));
        team.answer(RequestKind::SHUTDOWN, &id, &alice, true, "done", Millis(3)).unwrap();
        assert!(team.is_exiting(&alice));
        use team_protocols::protocol::file::{Effect, Party};
        assert_eq!(shutdown.on_approve, [Effect::Exit(Party::Addressee)]);
        let plan = &lesson.protocols[1];
        let bob = AgentName::parse("bob").unwrap();
        team.spawn(&bob, "coder", true, Millis(4)).unwrap();
        assert!(team.plan_gate_closed(&bob));
        let id = team.submit_plan(&bob, "a plan", Millis(5)).unwrap();
        team.answer(RequestKind::PLAN, &id, &AgentName::lead(), true, "ok", Millis(6)).unwrap();
        assert!(!team.plan_gate_closed(&bob));
        assert!(matches!(plan.on_approve[..], [Effect::OpenGate(_, Party::Requester)]));
    }
}

// ---- Each refusal, on a tiny file ---------------------------------------

mod refusals {
    use team_protocols::protocol::file::{self, Refusal};

    /// A protocol a teammate asks and the lead answers (lines 2 to 9).
    const REVIEW: &str = r#"format = 1
[[protocol]]
name = "review"
request = "review_request"
response = "review_response"
from = "teammate"
to = "lead"
tools.request = { name = "request_review", description = "Ask for a review." }
tools.respond = { name = "review", description = "Answer a review." }
"#;

    /// `REVIEW` with `from` replaced by `to_text`.
    fn review_with(from: &str, to_text: &str) -> String {
        assert!(REVIEW.contains(from), "{from}");
        REVIEW.replacen(from, to_text, 1)
    }

    /// The refusal of `text` at `path` (the load must fail, and name it).
    fn refusal(text: &str, path: &str) -> Refusal {
        let all = file::load(text).expect_err("the file is refused").0;
        all.iter().find(|r| r.path == path).cloned().unwrap_or_else(|| panic!("no refusal at {path}; got:\n{all:#?}"))
    }

    /// The refusal at `path` is at `line`:`column` and its sentence has `words`.
    fn refused(text: &str, path: &str, line: usize, column: usize, words: &[&str]) {
        let r = refusal(text, path);
        assert_eq!((r.line, r.column), (line, column), "{r}");
        let sentence = r.error.to_string();
        for w in words {
            assert!(sentence.contains(w), "'{w}' in: {sentence}");
        }
    }

    #[test]
    fn a_syntax_error_is_refused_at_its_place() {
        let r = file::load("format = 1\nname = \n").unwrap_err().0;
        assert_eq!(r.len(), 1, "{r:?}");
        assert_eq!(r[0].line, 2);
        assert!(r[0].error.to_string().contains("not valid TOML"), "{}", r[0]);
    }

    #[test]
    fn an_unknown_key_is_refused_with_the_keys_there_are() {
        refused("format = 1\ncolour = \"red\"\n", "colour", 2, 1, &["unknown key 'colour'", "protocol", "team"]);
        refused(&review_with("to = \"lead\"", "to = \"lead\"\nanswerer = 1"), "protocol[0].answerer", 8, 1, &["unknown key 'answerer'"]);
    }

    #[test]
    fn a_missing_key_is_refused_at_the_header_of_its_table() {
        refused(&review_with("request = \"review_request\"\n", ""), "protocol[0].request", 2, 1, &["'request' is missing", "message type"]);
    }

    #[test]
    fn a_value_of_the_wrong_type_is_refused() {
        refused(&review_with("name = \"review\"", "name = 3"), "protocol[0].name", 3, 8, &["expected a string", "an integer"]);
    }

    #[test]
    fn a_file_without_a_format_is_told_what_to_write() {
        refused("use = [\"lesson\"]\n", "format", 1, 1, &["add `format = 1`"]);
    }

    #[test]
    fn another_format_number_is_refused() {
        refused("format = 2\n", "format", 1, 10, &["format 2", "format = 1"]);
    }

    #[test]
    fn use_names_only_the_lesson() {
        refused("format = 1\nuse = [\"lessons\"]\n", "use[0]", 2, 8, &["'lessons'", "\"lesson\""]);
    }

    #[test]
    fn a_name_must_be_lowercase_and_short() {
        refused(&review_with("name = \"review\"", "name = \"Review\""), "protocol[0].name", 3, 8, &["not a valid name"]);
        let long = format!("name = \"{}\"", "a".repeat(33));
        refused(&review_with("name = \"review\"", &long), "protocol[0].name", 3, 8, &["at most 31"]);
    }

    #[test]
    fn a_protocol_name_used_twice_is_refused_at_the_second() {
        let second = REVIEW.replace("format = 1\n", "").replace("review_", "second_").replace("\"review\" }", "\"second\" }");
        let text = format!("{REVIEW}{second}");
        refused(&text, "protocol[1].name", 11, 8, &["protocol name 'review' is used twice", "line 3"]);
    }

    #[test]
    fn a_protocol_may_not_take_a_lesson_protocols_name() {
        let text = review_with("format = 1\n", "format = 1\nuse = [\"lesson\"]\n").replace("name = \"review\"", "name = \"shutdown\"");
        refused(&text, "protocol[0].name", 4, 8, &["lesson's protocol"]);
    }

    #[test]
    fn a_tool_name_providers_refuse_is_refused() {
        refused(
            &review_with("\"request_review\"", "\"request review\""),
            "protocol[0].tools.request.name",
            8,
            26,
            &["not a valid tool name", "1 to 64"],
        );
        let long = format!("\"{}\"", "r".repeat(65));
        refused(&review_with("\"request_review\"", &long), "protocol[0].tools.request.name", 8, 26, &["not a valid tool name"]);
    }

    #[test]
    fn a_tool_named_like_a_built_in_tool_is_refused() {
        refused(&review_with("\"request_review\"", "\"read_inbox\""), "protocol[0].tools.request.name", 8, 26, &["built-in tool"]);
    }

    #[test]
    fn a_tool_named_like_another_protocols_tool_of_the_same_role_is_refused() {
        let text = review_with("format = 1\n", "format = 1\nuse = [\"lesson\"]\n").replace("\"request_review\"", "\"plan_approval\"");
        refused(&text, "protocol[0].tools.request.name", 9, 26, &["the teammate already has a tool named 'plan_approval'", "'plan'"]);
    }

    #[test]
    fn one_tool_name_may_serve_two_roles_as_in_the_lesson() {
        let text = review_with("\"request_review\"", "\"review\"");
        let f = file::load(&text).unwrap();
        assert_eq!(f.protocols[0].tools.request.name, f.protocols[0].tools.respond.as_ref().unwrap().name);
        let same_role = review_with("to = \"lead\"", "to = \"lead\"\ntools.status = { name = \"request_review\", description = \"s\" }");
        refused(&same_role, "protocol[0].tools.status.name", 8, 25, &["already has a tool named 'request_review'"]);
    }

    #[test]
    fn a_message_type_named_message_or_broadcast_is_refused() {
        refused(&review_with("\"review_request\"", "\"broadcast\""), "protocol[0].request", 4, 11, &["built-in message type"]);
    }

    #[test]
    fn a_message_type_of_another_protocol_is_refused() {
        let text = review_with("format = 1\n", "format = 1\nuse = [\"lesson\"]\n").replace("\"review_response\"", "\"shutdown_response\"");
        refused(&text, "protocol[0].response", 6, 12, &["already used by protocol 'shutdown'"]);
        refused(
            &review_with("\"review_response\"", "\"review_request\""),
            "protocol[0].response",
            5,
            12,
            &["already used by protocol 'review'"],
        );
    }

    #[test]
    fn a_field_named_like_a_message_key_is_refused() {
        for reserved in ["type", "from", "to", "content", "timestamp", "request_id", "approve"] {
            let text =
                review_with("to = \"lead\"", &format!("to = \"lead\"\nrequest_fields = [{{ name = \"{reserved}\", type = \"string\" }}]"));
            refused(&text, "protocol[0].request_fields[0].name", 8, 28, &["every protocol message already uses", reserved]);
        }
    }

    #[test]
    fn a_field_type_outside_string_bool_enum_int_is_refused() {
        let text = review_with("to = \"lead\"", "to = \"lead\"\nrequest_fields = [{ name = \"size\", type = \"float\" }]");
        refused(&text, "protocol[0].request_fields[0].type", 8, 43, &["'float'", "string, bool, enum, int"]);
    }

    #[test]
    fn enum_values_may_not_be_empty_or_listed_twice() {
        let empty = review_with("to = \"lead\"", "to = \"lead\"\nresponse_fields = [{ name = \"size\", type = \"enum\", values = [] }]");
        refused(&empty, "protocol[0].response_fields[0].values", 8, 61, &["at least one value"]);
        let twice = review_with(
            "to = \"lead\"",
            "to = \"lead\"\nresponse_fields = [{ name = \"size\", type = \"enum\", values = [\"s\", \"s\"] }]",
        );
        refused(&twice, "protocol[0].response_fields[0].values[1]", 8, 67, &["'s' is listed twice"]);
        let missing = review_with("to = \"lead\"", "to = \"lead\"\nresponse_fields = [{ name = \"size\", type = \"enum\" }]");
        refused(&missing, "protocol[0].response_fields[0].values", 8, 20, &["lists its values"]);
    }

    /// A team of one teammate, appended to a protocol file.
    const TEAM: &str = "[team]\nid = \"t\"\n[[team.teammate]]\nname = \"ann\"\nrole = \"coder\"\ntask = \"work\"\n";

    #[test]
    fn a_protocol_the_lead_would_ask_itself_is_refused_unless_responder_required_is_off() {
        let text = review_with("from = \"teammate\"", "from = \"lead\"");
        refused(&text, "protocol[0].to", 7, 6, &["nobody can answer a 'review' request", "ask itself", "responder_required"]);
        let off = format!("{text}{}", TEAM.replace("id = \"t\"\n", "id = \"t\"\nrules_off = [\"responder_required\"]\n"));
        assert!(file::load(&off).is_ok(), "{:?}", file::load(&off).err());
    }

    #[test]
    fn a_protocol_answered_by_a_teammate_in_a_team_without_teammates_is_refused() {
        let text = format!(
            "{}[team]\nid = \"t\"\n",
            review_with("to = \"lead\"", "to = \"teammate\"").replace("from = \"teammate\"", "from = \"lead\"")
        );
        refused(&text, "protocol[0].to", 7, 6, &["the team has none", "responder_required"]);
    }

    #[test]
    fn a_protocol_without_an_answer_tool_is_refused() {
        let text = review_with("tools.respond = { name = \"review\", description = \"Answer a review.\" }\n", "");
        refused(&text, "protocol[0].tools.respond", 8, 1, &["no answer tool", "tools.respond", "rules_off"]);
    }

    #[test]
    fn a_gate_no_protocol_opens_is_refused() {
        let text = format!("{REVIEW}[[gate]]\nname = \"deploy\"\ntools = [\"write_file\"]\n");
        refused(&text, "gate[0].name", 11, 8, &["no protocol opens the gate 'deploy'", "open_gate"]);
    }

    #[test]
    fn an_exit_of_the_lead_is_refused() {
        let text = review_with("to = \"lead\"", "to = \"lead\"\non_approve = [{ effect = \"exit\", who = \"addressee\" }]");
        refused(&text, "protocol[0].on_approve[0].who", 8, 40, &["the lead never exits"]);
    }

    #[test]
    fn retries_without_a_deadline_or_too_many_are_refused() {
        let text = review_with("to = \"lead\"", "to = \"lead\"\nretries = 1");
        refused(&text, "protocol[0].retries", 8, 11, &["no deadline", "deadline_ms"]);
        let text = review_with("to = \"lead\"", "to = \"lead\"\ndeadline_ms = 1000\nretries = 9");
        refused(&text, "protocol[0].retries", 9, 11, &["at most 5"]);
    }

    #[test]
    fn a_step_asking_with_a_protocol_the_lead_may_not_use_is_refused() {
        let text = format!("{REVIEW}{TEAM}[[team.step]]\nask = \"review\"\n");
        refused(&text, "team.step[0].ask", 17, 7, &["the lead may not ask with protocol 'review'"]);
    }

    #[test]
    fn a_property_naming_an_unknown_protocol_event_field_or_agent_is_refused() {
        let prop = |m: &str| format!("{REVIEW}{TEAM}[[property]]\nname = \"p\"\nexpect = \"always\"\npattern = \"absence\"\nmatch = {m}\n");
        refused(
            &prop("{ event = \"created\", protocol = \"audit\" }"),
            "property[0].match.protocol",
            20,
            41,
            &["no protocol named 'audit'", "review"],
        );
        refused(&prop("{ event = \"born\" }"), "property[0].match.event", 20, 19, &["'born'", "created"]);
        refused(
            &prop("{ event = \"created\", protocol = \"review\", size = 3 }"),
            "property[0].match.size",
            20,
            51,
            &["no field named 'size'"],
        );
        refused(&prop("{ event = \"created\", agent = \"zed\" }"), "property[0].match.agent", 20, 38, &["no agent named 'zed'", "ann"]);
    }

    #[test]
    fn a_step_answering_a_protocol_the_lead_does_not_answer_is_refused() {
        let text = format!("format = 1\n{TEAM}[[team.step]]\nanswer = \"shutdown\"\nfrom = \"ann\"\napprove = true\n");
        refused(&text, "team.step[0].answer", 9, 10, &["the lead does not answer protocol 'shutdown'"]);
    }

    #[test]
    fn a_step_does_one_thing_and_names_a_teammate_of_the_team() {
        let two = format!("format = 1\n{TEAM}[[team.step]]\nspawn = \"ann\"\nlist = true\n");
        refused(&two, "team.step[0]", 8, 1, &["exactly one thing"]);
        let unknown = format!("format = 1\n{TEAM}[[team.step]]\nspawn = \"bo\"\n");
        refused(&unknown, "team.step[0].spawn", 9, 9, &["no teammate named 'bo'", "ann"]);
    }

    /// A protocol the lead asks and a teammate answers, whose scripted
    /// answer is `answer` (lines 2 to 10), then `TEAM` (lines 11 to 16).
    fn check_answered(answer: &str) -> String {
        format!(
            "format = 1\n[[protocol]]\nname = \"check\"\nrequest = \"check_request\"\nresponse = \"check_response\"\nfrom = \"lead\"\nto = \"teammate\"\ntools.request = {{ name = \"request_check\", description = \"Ask.\" }}\ntools.respond = {{ name = \"check\", description = \"Answer.\" }}\nscripted = {{ answer = \"{answer}\" }}\n{TEAM}"
        )
    }

    #[test]
    fn asking_until_approved_a_teammate_whose_scripted_answer_is_always_reject_is_refused_as_an_unbounded_retry() {
        let step = "[[team.step]]\nspawn = \"ann\"\n[[team.step]]\nask = \"check\"\nto = \"ann\"\nuntil = \"approved\"\n";
        // The protocol's answer.
        let text = format!("{}{step}", check_answered("reject"));
        refused(&text, "team.step[1].until", 22, 9, &["ann always rejects 'check'", "never end", "remove `until`"]);
        // The teammate's own answer overrides the protocol's, either way.
        let own = |answer: &str| format!("task = \"work\"\nscripted = {{ check = {{ answer = \"{answer}\" }} }}\n");
        let text = format!("{}{step}", check_answered("approve").replace("task = \"work\"\n", &own("reject")));
        refused(&text, "team.step[1].until", 23, 9, &["ann always rejects 'check'"]);
        let text = format!("{}{step}", check_answered("reject").replace("task = \"work\"\n", &own("reject_first")));
        assert!(file::load(&text).is_ok(), "{:?}", file::load(&text).err());
        // Asked once, a no is an answer like any other.
        let once = format!("{}{}", check_answered("reject"), step.replace("until = \"approved\"\n", ""));
        assert!(file::load(&once).is_ok(), "{:?}", file::load(&once).err());
    }

    #[test]
    fn a_teammate_name_used_twice_is_refused() {
        let text = format!("format = 1\n{TEAM}[[team.teammate]]\nname = \"ann\"\nrole = \"r\"\ntask = \"t\"\n");
        refused(&text, "team.teammate[1].name", 9, 8, &["teammate name 'ann' is used twice", "line 5"]);
    }

    #[test]
    fn an_unknown_rule_is_refused_with_the_rules_there_are() {
        let text = format!("format = 1\n{}", TEAM.replace("id = \"t\"\n", "id = \"t\"\nrules_off = [\"melt\"]\n"));
        refused(&text, "team.rules_off[0]", 4, 14, &["no rule named 'melt'", "responder_required", "addressee_only"]);
    }

    #[test]
    fn a_fault_names_a_known_message_type_and_only_a_delay_takes_ms() {
        let text = format!("format = 1\n{TEAM}[[team.fault]]\naction = \"drop\"\ntype = \"nudge\"\nms = 5\n");
        refused(&text, "team.fault[0].type", 10, 8, &["no message type named 'nudge'", "shutdown_request"]);
        refused(&text, "team.fault[0].ms", 11, 6, &["only a delay takes `ms`"]);
    }

    #[test]
    fn an_effect_on_a_gate_that_does_not_exist_is_refused() {
        let text = review_with(
            "to = \"lead\"",
            "to = \"lead\"\non_approve = [{ effect = \"open_gate\", gate = \"deploy\", who = \"requester\" }]",
        );
        refused(&text, "protocol[0].on_approve[0].gate", 8, 46, &["no gate named 'deploy'"]);
    }

    #[test]
    fn a_load_returns_every_refusal_in_file_order() {
        let text = review_with("name = \"review\"", "name = \"Review\"")
            .replace("\"read", "\"x")
            .replace("to = \"lead\"", "to = \"lead\"\nbogus = 1");
        let all = file::load(&text).unwrap_err().0;
        assert!(all.len() >= 2, "{all:#?}");
        assert!(all.windows(2).all(|w| (w[0].line, w[0].column) <= (w[1].line, w[1].column)), "{all:#?}");
        assert!(all.iter().any(|r| r.path == "protocol[0].name") && all.iter().any(|r| r.path == "protocol[0].bogus"), "{all:#?}");
    }
}

// ---- The issue's examples -------------------------------------------------

mod examples {
    use team_protocols::protocol::file::{
        self, builtin, EventKind, Expect, FieldType, FileError, MessageTypeRef, Pattern, ProtocolIx, Scope, Side, StepAction,
    };
    use team_protocols::protocol::FaultAction as Action;

    fn example(name: &str) -> &'static str {
        builtin::EXAMPLES.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).unwrap()
    }

    #[test]
    fn a_deadline_and_one_retry_bound_the_lessons_shutdown() {
        let f = file::load(example("deadline-retry")).unwrap();
        let p = &f.protocols[0];
        assert_eq!((p.name.as_str(), p.deadline_ms, p.retries), ("shutdown", Some(30_000), 1));
        let team = f.team.unwrap();
        assert!(matches!(team.steps[1].action, StepAction::Ask { until_approved: true, .. }));
        assert_eq!(team.faults[0].action, Action::Drop);
        assert_eq!(team.faults[0].message_type, Some(MessageTypeRef::Protocol(ProtocolIx(0), Side::Response)));
        let prop = &f.properties[0];
        assert_eq!((prop.expect, &prop.scope), (Expect::Eventually, &Scope::PerRequest));
        assert!(
            matches!(&prop.pattern, Pattern::Response { trigger, reply } if trigger.event == EventKind::Created && reply.event == EventKind::Settled)
        );
    }

    #[test]
    fn a_permission_request_nobody_answers_is_refused_with_the_responder_rule() {
        let text = example("permission-no-responder");
        let refusals = file::load(text).unwrap_err();
        assert_eq!(refusals.0.len(), 1, "{}", refusals.render("permission-no-responder.toml"));
        let r = &refusals.0[0];
        assert_eq!((r.line, r.path.as_str()), (21, "protocol[0].tools.respond"), "{r}");
        assert!(matches!(&r.error, FileError::NoResponder { protocol, .. } if protocol == "permission"));
        assert!(r.error.to_string().contains("responder_required"));
    }

    #[test]
    fn the_permission_request_loads_with_responder_required_off() {
        let f = file::load(example("permission-rule-off")).unwrap();
        let team = f.team.unwrap();
        assert!(!team.rules.responder_required);
        assert!(team.rules.rules.is_default(), "only the file's own rule is off");
        let permission = f.protocols.iter().find(|p| p.name == "permission").unwrap();
        assert!(permission.tools.respond.is_none());
    }

    #[test]
    fn a_task_claim_allows_at_most_one_approved_claim_per_task() {
        let f = file::load(example("task-claim")).unwrap();
        let claim = &f.protocols[0];
        assert_eq!(claim.request_fields[0].field_type, FieldType::Enum(vec!["parser".into(), "lexer".into(), "docs".into()]));
        let prop = &f.properties[0];
        assert!(
            matches!(&prop.pattern, Pattern::AtMost { n: 1, count } if count.event == EventKind::Approved && count.protocol == Some(ProtocolIx(0)))
        );
        assert_eq!(prop.scope, Scope::PerKey(vec![(ProtocolIx(0), Side::Request, file::FieldIx(0))]));
    }

    #[test]
    fn a_status_report_has_typed_answers_and_a_deadline_next_to_the_lesson() {
        let f = file::load(example("status-report")).unwrap();
        assert!(f.uses_lesson);
        let status = f.protocol(f.protocol_named("status").unwrap());
        assert_eq!(status.deadline_ms, Some(10_000));
        assert_eq!(status.response_fields[1].field_type, FieldType::Int);
        assert_eq!(f.properties.iter().map(|p| p.expect).collect::<Vec<_>>(), [Expect::Eventually, Expect::Sometimes, Expect::Always]);
    }

    #[test]
    fn the_contracts_own_example_loads() {
        let f = file::load(example("review-gate")).unwrap();
        let review = f.protocol(f.protocol_named("review").unwrap());
        let write = f.gates.iter().position(|g| g.name == "write").unwrap();
        assert!(matches!(review.on_approve[..], [file::Effect::OpenGate(g, file::Party::Requester)] if usize::from(g.0) == write));
    }
}
