//! The ready-made scenarios: the lesson's four prompts and two harder ones.
//! Each is only a prompt; what happens is decided by the model and the
//! runtime, so the same button works with the scripted model and a real one.
//!
//! Owns the scenario list, nothing else.

/// A one-click scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scenario {
    /// A stable id (for tests and links).
    pub id: &'static str,
    /// A short title for the button.
    pub title: &'static str,
    /// The prompts, submitted one after another (each waits for the team to
    /// go quiet).
    pub prompts: &'static [&'static str],
}

/// The lesson's first prompt.
pub const SHUTDOWN: Scenario =
    Scenario { id: "shutdown", title: "Graceful shutdown", prompts: &["Spawn alice as a coder. Then request her shutdown."] };

/// The lesson's second prompt, after the first.
pub const LIST_AFTER_SHUTDOWN: Scenario = Scenario {
    id: "list-after-shutdown",
    title: "Status after shutdown",
    prompts: &["Spawn alice as a coder. Then request her shutdown.", "List teammates to see alice's status after shutdown approval"],
};

/// The lesson's third prompt.
pub const REJECT_PLAN: Scenario = Scenario {
    id: "reject-plan",
    title: "Reject a risky plan",
    prompts: &["Spawn bob with a risky refactoring task. Review and reject his plan."],
};

/// The lesson's fourth prompt.
pub const APPROVE_PLAN: Scenario =
    Scenario { id: "approve-plan", title: "Approve a plan", prompts: &["Spawn charlie, have him submit a plan, then approve it."] };

/// Harder: a shutdown rejected mid-task, then accepted.
pub const REJECT_THEN_ACCEPT: Scenario = Scenario {
    id: "reject-then-accept",
    title: "Busy teammate: reject, then accept",
    prompts: &[
        "Spawn dave to migrate three config files. Request his shutdown while he is mid-task, then request it again when he reports done.",
    ],
};

/// Harder: two requests in flight, answered out of order.
pub const OUT_OF_ORDER: Scenario = Scenario {
    id: "out-of-order",
    title: "Two requests, answered out of order",
    prompts: &["Spawn erin to write release notes in two parts and frank to stand by, then request both shutdowns; watch the answers arrive out of order."],
};

/// The lesson's opening contrast, for the "Without protocols" tour: first
/// the lead just sends alice a plain message ("please stop") and cannot know
/// whether she stopped; then the same with the shutdown handshake. Not a
/// scenario button (the tour runs it), so not in `ALL` or `PAGE`.
pub const WITHOUT_PROTOCOLS: Scenario = Scenario {
    id: "without-protocols",
    title: "Without protocols, then with",
    prompts: &["Spawn alice as a coder. Then send her a message: \"Hey alice, please stop.\"", "Now request alice's shutdown."],
};

/// The lesson's scenarios and the two harder ones, in the order the UI
/// shows them.
pub const ALL: [Scenario; 6] = [SHUTDOWN, LIST_AFTER_SHUTDOWN, REJECT_PLAN, APPROVE_PLAN, REJECT_THEN_ACCEPT, OUT_OF_ORDER];

/// The scale demo: 50 teammates, 20 shutdown requests each (1,000 requests,
/// about 15,000 events). With the scripted model its policy is
/// `model::scripted::scale`; a real model gets the same instructions.
pub const SCALE: Scenario = Scenario {
    id: "scale",
    title: "Scale: 50 teammates × 20 requests",
    prompts: &[
        "Scale: spawn 50 teammates, then request each one's shutdown until it agrees; each rejects 19 times and approves request 20.",
    ],
};

/// Every scenario the page offers: `ALL`, then the scale demo.
pub const PAGE: [Scenario; 7] = [SHUTDOWN, LIST_AFTER_SHUTDOWN, REJECT_PLAN, APPROVE_PLAN, REJECT_THEN_ACCEPT, OUT_OF_ORDER, SCALE];

/// Two teammates configured alike, both asked to shut down: the explorer's
/// case for symmetry reduction (which of the twins answers first does not
/// matter to any property).
pub const TWINS: Scenario = Scenario {
    id: "twins",
    title: "Twins: two coders, both shut down",
    prompts: &["Spawn alice as a coder and bob as a coder. Then request both shutdowns."],
};

/// A teammate asked to shut down, then spawned again: the explorer's case
/// for requests that outlive the run they were addressed to (a stale
/// shutdown request reaching the respawned teammate:
/// anthropics/claude-code#45874).
pub const RESPAWN: Scenario = Scenario {
    id: "respawn",
    title: "Respawn: alice asked to shut down, then spawned again",
    prompts: &["Spawn alice as a coder. Then request her shutdown.", "Spawn alice as a coder."],
};

/// The scenario with this id the explorer can take: any on the page,
/// `TWINS` or `RESPAWN`.
pub fn explorable(id: &str) -> Option<Scenario> {
    by_id(id).or_else(|| [TWINS, RESPAWN].into_iter().find(|s| s.id == id))
}

/// The scenario with this id: one on the page, or the tours' own
/// `WITHOUT_PROTOCOLS` (so its runs restore and share like the others).
pub fn by_id(id: &str) -> Option<Scenario> {
    PAGE.into_iter().chain([WITHOUT_PROTOCOLS]).find(|s| s.id == id)
}
