//! Why an exploration could not run: the explorer's one error type, whose
//! text a driver shows as it is (the command line prints it; the page
//! words it).

/// Why an exploration could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExploreError {
    /// No scenario has this id.
    #[error("no scenario '{0}'; try --list")]
    UnknownScenario(String),
    /// A path names a choice that is not open at its state.
    #[error("step {step} of the path cannot be taken: {choice} is not one of the open choices ({open})")]
    BadPath {
        /// The step, from 1.
        step: usize,
        /// The choice, in words.
        choice: String,
        /// What was open there.
        open: String,
    },
    /// The world refused a prompt of the scenario.
    #[error("the scenario's prompt was refused: {0}")]
    Refused(String),
    /// A recorded run that no path of the explorer reproduces.
    #[error("this run cannot be forked: from event #{seq} on (choice {step}) it is not a run of its scenario on the scripted model with no fault rules and nobody's hand in it")]
    Unforkable {
        /// The choice where the paths part, from 1.
        step: usize,
        /// The first recorded entry not reproduced.
        seq: u64,
    },
    /// A recorded run read under another protocol file than the one it
    /// ran under.
    #[error(transparent)]
    DifferentFile(Box<crate::protocol::file::diff::FileMismatch>),
}
