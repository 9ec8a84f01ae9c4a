# The Explore panel, its finding card, forks, the gallery of real failures
# and the protective rules (src/ui/explore_*.rs, src/ui/fork_view.rs).
# Property names (no_answer_lost…), rule names (incarnation_binding…),
# always/sometimes/eventually, fault kinds, agent names, request ids and
# issue references are never translated.

## The panel
explore-title = Explore every run
explore-intro = A model checker: it tries every order in which agents act, every decision the protocol lets them make and every fault up to the bound, and judges each run. Each broken property comes with the run that breaks it with the fewest faults, and of those the shortest.
explore-scenario = Scenario
explore-scenario-label = Scenario to explore
explore-faults-per-run = Faults per run
explore-fault-kinds = Fault kinds
explore-depth = Depth bound
explore-decisions = Off-script decisions
explore-decisions-label = Off-script decisions per run
explore-withhold = Answers may be withheld
explore-search = Search
explore-search-label = Search strategy
explore-bfs = breadth first (shortest examples)
explore-dfs = depth first
explore-simulate = random runs (2,000)
explore-workers = Workers
explore-workers-all-cores = { $count } workers take every core this device has: the page may answer more slowly while they search.
explore-start = Start
explore-stop = Stop
explore-fork-on-screen = Fork the run on screen
explore-faults-not-whole = the number of faults must be a whole number
explore-depth-not-whole = the depth bound must be a whole number
explore-decisions-not-whole = the decisions bound must be a whole number

## Counters and state
explore-state-running = Searching… { $done } of { $count } workers done
explore-state-shrinking = Shrinking the examples to the fewest faults: searching again (limit: { $faults })… { $done } of { $count } workers done
explore-state-done = Done: every run within the bounds was explored.
explore-state-done-cut = Done, but the depth or state bound cut the search: unknown verdicts mean no example in the part explored.
explore-state-stopped = Stopped: the workers were ended; no verdicts.
explore-state-failed = The search failed: { $error }
explore-progress = Search progress
explore-counter-states = states
explore-counter-rate = states/s
explore-counter-distinct = distinct
explore-counter-depth = depth
explore-counter-frontier = frontier
explore-counter-seconds = seconds

## Verdicts
explore-outcomes = { $runs } runs end in { $count } distinct ways.
explore-verdicts = Property verdicts
verdict-holds = holds
verdict-fails = fails
verdict-unknown = unknown
explore-counterexample = counterexample
explore-witness = witness
explore-faults = { $count ->
    [0] no fault
    [one] 1 fault
   *[other] { $count } faults
}
explore-open-example = Open { $kind }
explore-open-example-label = Open { $kind } of { $property } ({ $choices } choices, { $faults })
explore-which-properties = Which properties to list

## The finding card
explore-broken-title = Broken: { $property }
explore-shown-title = Shown: sometimes { $property }
explore-finding-text = What happened: { $detail }. The property: { $statement } The shortest run found takes { $choices } choices and { $faults }.
explore-reported-as = Reported against a production agent-team tool as { $issues }.
explore-not-found-on-rebuilt = The run was rebuilt, but this version does not find the property broken on it
explore-marked = The event where it happens, #{ $seq }, is at the cursor.
explore-path-summary = The run's { $count } choices (fork any of them)
explore-link = Link to this run
explore-copy-link = Copy link
explore-on-screen-title = This run, as the explorer's path: { $count } choices
explore-on-screen-text = Each step below is a choice the run made: who went next, or what a model answered. Fork any of them to take another branch and see both runs side by side.

## Choices of a run
choice-turn = { $agent } goes next
choice-turn-fault = { $agent } goes next, and its message is hit by { $fault }
choice-reply = { $agent }'s model: { $label }
choice-expire = request { $request } expires unanswered (its deadline passes)

## Errors in the banner
explore-not-started = { $error }. The search did not start
explore-err-scenario = no scenario '{ $id }' can be explored
explore-err-workers = { $count } workers: choose from 1 to { $max }
explore-err-faults = { $count } faults per run: choose from 0 to { $max }
explore-err-no-fault-kind = faults are allowed but no kind is ticked: tick drop, duplicate, delay or reorder, or set faults to 0
explore-err-zero = { $bound } must be at least 1
explore-err-too-large = { $bound } is { $count }: choose at most { $max }
explore-bound-depth = the depth bound
explore-bound-states = the state bound
explore-bound-decisions = the off-script decisions bound
explore-bound-runs = the number of random runs
explore-err-bad-message = a worker sent a message that cannot be read: { $error }
explore-link-not-rebuilt = this link's run could not be rebuilt: { $error }. The run on screen is unchanged
explore-link-bad-settings = the link's explorer settings are not valid: { $error }
explore-fork-no-snapshot = only a run of a scenario on the scripted model can be forked; this one was imported or has no record of how it started
explore-fork-not-reproducible = only an untouched run of a scenario on the scripted model can be forked (no other model, nothing by hand)
explore-fork-file-run = only an untouched run of a protocol file's team on the scripted model can be forked (the team's own prompts, nothing by hand, no other model); press Run the team in the Protocols view and fork that run
explore-fork-fault-rules = a run with fault rules cannot be forked: the explorer places faults itself (set Faults per run in Explore)
explore-fork-failed = the fork could not be played out: { $error }

## Forks
fork-button = Fork…
fork-at-label = Fork at choice { $n }: { $choice }
fork-none-open = No other choice was open here.
fork-others-label = Other choices at step { $n }
fork-instead = Instead: { $choice }
fork-title = Fork at choice { $n }
fork-summary = Original: “{ $original }”. Branch: “{ $branch }”. { $summary }
fork-share = They share { $count } events, then part.
fork-same = The two runs are the same: this choice changes nothing that is recorded.
fork-table-caption = The original run and the branch, event by event, aligned by request
fork-original = Original
fork-branch = Branch
fork-no-counterpart = no counterpart
fork-mark-header = Difference
fork-first-difference = first difference ▶
fork-open-original = Open the original on the diagram
fork-open-branch = Open the branch on the diagram
fork-side-original = original
fork-side-branch = branch
fork-side-title = The { $side } of the fork at choice { $n }
fork-side-text = At choice { $n } the { $side } took “{ $choice }”. The cursor is at the first event where the two runs differ.

## The gallery of real failures
gallery-title = Gallery of real failures
gallery-intro = Failures reported against Claude Code's agent teams, reproduced here with the rule that prevents them switched off. Reproduce finds the shortest run; then switch the rule on to see what it does instead.
gallery-breaks = Breaks:
gallery-reproduce = Reproduce
gallery-rule-on = Rule on:
gallery-rule-summary = The rule that prevents it
gallery-reproduced-title = Reproduced: { $title }
gallery-prevented-title = Prevented: { $title }
gallery-prevented-text = With the rule { $rule } on, the same choices no longer break { $property }. { $description } A search of every run with the rule on follows in the Explore panel.
gallery-not-reproduced = the search did not reproduce “{ $title }” within its bounds
gallery-rule-on-failed = the run with the rule on could not be played: { $error }

## Gallery entries and protective rules (the CLI keeps the English in src/explore/gallery.rs and src/protocol/rules.rs)
gallery-stale-shutdown-after-respawn-title = A stale shutdown request shuts down a respawned teammate
gallery-stale-shutdown-after-respawn-caption = Reported: a shutdown request sent to a teammate was still unanswered when the teammate was respawned, and the new teammate read the old request and shut down. The request was addressed to a run that no longer existed, and a different run answered it: this breaks "no answer crosses a restart". Here alice holds back her answer, the lead spawns her again, and the restarted alice finds the old request and approves it.
gallery-acting-after-approving-shutdown-title = A teammate keeps acting after approving its shutdown
gallery-acting-after-approving-shutdown-caption = Reported: teammates approved a shutdown request and then did not terminate; they stayed alive and kept taking turns. Approving a shutdown is a promise to stop: this breaks "a teammate that approved its shutdown makes no new model call" (and, at the end, "every approved shutdown reaches shutdown"). Here alice approves the lead's request and, with nothing making her leave her loop, calls her model again.
gallery-lead-answers-its-own-request-title = The lead approves a shutdown request it sent
gallery-lead-answers-its-own-request-caption = Reported: a shutdown request ended up answered by the lead instead of the teammate it was meant for, and the lead approved its own termination. Only the agent a request is addressed to may answer it: this breaks "only the addressee answers". Here the lead asks alice to shut down, then answers that request itself instead of waiting for alice.
gallery-shutdown-never-answered-title = A shutdown request is never answered
gallery-shutdown-never-answered-caption = Reported: a teammate finished its work and went idle; the lead's shutdown request reached it, but it never answered, and the team sat idle with the request pending (sometimes, not always). This breaks "no run goes quiet while a request is pending". Here alice finishes and idles before the lead's request arrives; nothing wakes her to read it, so everyone goes quiet waiting.
rule-incarnation_binding-description = Each request records the incarnation of its addressee when it was made, and the team refuses an answer from a later incarnation as a stale request (TeamState::check_answer in src/protocol/team.rs).
rule-addressee_only-description = The tracker accepts an answer only from the agent the request is addressed to and refuses anyone else's (Tracker::check_answer in src/protocol/tracker.rs).
rule-exit_after_approval-description = A teammate that approved its shutdown (or whose shutdown was approved for it by hand) finishes the turn it is in and then leaves its loop instead of calling its model again (teammate_after and teammate_leaves in src/runtime/loops.rs).
rule-wake_on_message-description = A message that arrives for an idle teammate wakes it, and it drains its inbox before its next model call, so a request sent to an idle teammate is read and answered (World::wake in src/runtime/world.rs).

## What each property says
property-no_answer_to_unknown_request = No response names a request_id that nobody created.
property-no_second_answer = No request is answered twice: once approved or rejected, it stays so.
property-only_the_addressee_answers = Only the agent a request was addressed to answers it.
property-no_answer_across_restart = No answer crosses a restart: a request addressed to a teammate's earlier run is never answered by its new one.
property-no_request_across_restart = No request crosses a restart: a teammate started again never reads a request addressed to its earlier run (incarnation_binding refuses its answer, but the request should not reach it at all).
property-no_message_to_exited_teammate = Nobody sends a message to a teammate that has shut down.
property-no_answer_lost = No answer the tracker recorded is lost on its way to the requester.
property-no_duplicate_delivered = No reply is read twice.
property-no_action_after_shutdown_approved = A teammate that approved its shutdown makes no new model call: it finishes its turn, then leaves its loop.
property-no_work_before_plan_approval = A teammate in plan mode changes no file before its plan is approved.
property-every_request_has_a_responder = Every request is addressed to someone with the tool to answer it.
property-some_request_approved = Some run reaches an approved request.
property-some_request_rejected = Some run reaches a rejected request.
property-requests_settle = Every request settles: it ends approved or rejected, never pending.
property-approved_shutdowns_exit = Every teammate that approved its shutdown reaches shutdown.
property-no_quiet_while_pending = No run goes quiet — every agent idle — while a request is still pending.
property-runs_end = Every run ends: no state where nothing can move while the run is still on.
property-no_gated_tool_while_closed = No tool a gate holds runs while that gate is closed for the agent: the runtime refuses it until a protocol opens the gate.
property-no_answer_after_expiry = No request is answered after its deadline passed: an expired request is rejected, and answered by no one.

## Scenarios only the explorer lists (their titles, looked up as scenario-<id>-title like the others)
scenario-without-protocols-title = Without protocols, then with
scenario-twins-title = Twins: two coders, both shut down
scenario-respawn-title = Respawn: alice asked to shut down, then spawned again
explore-err-file = the protocol file's team cannot be explored: { $error }
explore-file-team = { $name } (your file)
explore-file-broken-title = The file's property { $property } breaks in this run
explore-file-shown-title = The file's property { $property } happens in this run
explore-file-finding-text = { $detail } ({ $faults }, { $count } choices.)
explore-file-verdicts = The file's own properties
explore-capped-answers = The protocol '{ $name }' has { $count } answers (approve or reject × each enum field of its response): the explorer tries at most { $cap } of them per answer besides the scripted one, those with the fewest changes first, so a search under this file covers only part of them.
gallery-files-title = Protocol files that answer them
gallery-files-intro = Protocols written as files (open them in the Protocols view): each runs its team on the diagram and searches it in one click.
gallery-file-breaks = The search breaks:
gallery-file-holds = The search shows it holding:
gallery-file-show = Run and search
gallery-file-show-label = Run and search: { $title }
gallery-file-deadline-retry-title = A lost shutdown answer leaves the request pending for ever
gallery-file-deadline-retry-caption = Reported: a shutdown request was never answered and the team sat idle with the request pending. In the lesson's protocol a dropped answer does exactly that. This file gives the request a deadline and one retry: its team drops every answer, and the search (one more dropped message per run) shows "every_shutdown_settles" holding in every run: unanswered, the request expires and is asked again.
gallery-file-permission-no-responder-title = A permission request nobody can answer
gallery-file-permission-no-responder-caption = Reported: a teammate had to ask permission before editing, but nothing could grant it, and the request stayed pending for ever. The loader refuses such a protocol (responder_required); this file switches that rule off, and the search finds the run where carol asks and everyone goes quiet while her request is pending: it breaks "no run goes quiet while a request is pending".
gallery-file-task-claim-title = Two teammates own the same task
gallery-file-task-claim-caption = Reported in many teams: two agents both believed a task was theirs and did the same work. Here ann and ben claim tasks from the lead; nothing in the claim protocol refuses a second approval, so the property "one_owner_per_task" rests on the lead. The search lets the lead leave its script once and finds the run where it approves ben's claim of the parser too.
