# The page (src/ui/*.rs): header, controls, panels, settings, dialogs.

# Header, drawers, shortcuts (src/ui/app.rs)
ui-skip-links = Skip links
ui-skip-controls = Skip to playback controls
ui-skip-diagram = Skip to diagram
ui-skip-setup = Skip to run setup
ui-title = Team Protocols Playground
ui-tagline = Watch a lead and its teammates negotiate shutdown and plan approval — one state machine, correlated by request_id.
ui-recorded-trace = (recorded trace)
ui-model = Model: { $label }
ui-shortcuts = Keyboard shortcuts
ui-presenter = Presenter
ui-presenter-title = Presenter mode: the controls, the caption and the diagram fill the screen, large enough for a room (P)
ui-presenter-leave-title = Leave presenter mode (P or Esc)
ui-language = Language
ui-drawer-setup = Setup
ui-drawer-panels = Panels
ui-drawer-setup-title = Run setup
ui-drawer-panels-title = Team and protocol
ui-close-setup = Close run setup
ui-close-panels = Close panels
ui-close = Close
ui-more = More
ui-less = Less
ui-said-open = Read in full: { $said }
ui-said-title = { $field } in request { $id } (step { $step })
ui-key-space = Play or pause
ui-key-left = Back one event
ui-key-right = Next event (in Step mode at the end: release the next one)
ui-key-home = First event
ui-key-end = Latest event (follow the run)
ui-key-updown = In the event log, the requests and the inboxes: the row above or below (Home, End there: the first or last row)
ui-key-help = This help
ui-key-esc = Close this help or an open panel drawer
ui-key-esc-tour = End the guided tour (while it is on)
ui-key-presenter = Presenter mode on or off: the controls, the caption and the diagram alone, large
ui-key-esc-presenter = Leave presenter mode (after closing a drawer or ending a tour)
ui-shortcuts-note = Shortcuts work anywhere on the page except while typing in a field; Space on a focused button presses that button.
ui-model-failed = { $agent }'s model call failed: { $error }. Check the provider, key and base URL in Settings, or switch to the offline scripted model; then run again.
ui-dismiss = Dismiss

# Links, clipboard
ui-link-unknown-scenario = this link names a scenario this version does not have: '{ $id }'
ui-link-bad = this link could not be opened: { $error }. The run on screen is unchanged
ui-copy-refused = The browser refused to copy: select the link and copy it by hand.
ui-copy-none = This browser has no clipboard access here: select the link and copy it by hand.
ui-copying = Copying…
ui-copied = Link copied.

# Prompt and scenarios
ui-prompt-empty = Error: type a prompt for the lead first, or pick a scenario
ui-prompt = Prompt
ui-prompt-label = Prompt for the lead
ui-prompt-placeholder = Spawn alice as a coder. Then request her shutdown.
ui-run-busy = A run is in progress: wait for it to finish, or press Stop
ui-run = Run
ui-new-team = New team
ui-will-run = Will run: { $provider }
ui-settings-changed = {" "}· settings changed: Run starts a new team
ui-fix-settings = {" "}· fix Settings: { $why }
ui-scenarios = Scenarios

# Settings
ui-seed-bad = the seed '{ $seed }' is not a whole number from 0 to 18446744073709551615
ui-max-tokens-bad = max tokens must be a whole number from 1 to { $limit }, not '{ $value }'
ui-settings = Settings
ui-provider = Provider
ui-scripted-note = The scripted model runs offline in this tab: a rule-based policy that plays the scenarios and reacts to what happens. It is not a language model.
ui-provider-note = Requests go from this tab straight to the server. The key stays in memory unless you tick the box; it is never put in a trace, an export, a log or a URL.
ui-api-key = API key
ui-base-url = Base URL
ui-model-name = Model
ui-max-tokens = Max tokens
ui-seed = Seed
ui-remember-key = Remember on this device
ui-settings-note = Run, New team and the scenarios use these settings as shown; Run continues the team on screen only while they are unchanged.

# Trace panel: export, import, share, saved runs
ui-export-failed = the { $format } export failed: { $error }
ui-error = Error: { $error }
ui-import-failed = Error: { $error }. Nothing was changed.
ui-import-unreadable = Error: the file could not be read. Nothing was changed.
ui-trace = Trace
ui-export-json = Export JSON
ui-export-mermaid = Export Mermaid
ui-export-svg = Export SVG (this frame)
ui-export-svg-run = Export SVG (whole run)
ui-import = Import a JSON trace
ui-imported-note = Showing a recorded trace: step through it with Back, Next and the scrubber; Run starts a new team.
ui-save-run = Save run
ui-share-link = Share link
ui-copy = Copy
ui-clear-confirm = Delete every saved run?
ui-clear-yes = Yes, delete every saved run
ui-cancel = Cancel
ui-clear-saved = Clear saved runs
ui-saved-runs = Saved runs
ui-delete-saved = Delete saved run { $title }
ui-delete = Delete

# Faults on the bus
ui-fault-delay-bad = the delay '{ $value }' is not a whole number of milliseconds
ui-fault-probability-bad = the probability '{ $value }' is not a number from 0 to 1
ui-fault-not-added = { $error }. No rule was added
ui-faults = Faults on the bus
ui-faults-note = Rules apply when a team starts (Run after a change, New team, or a scenario). Decisions come from the seed, so a faulty run replays exactly.
ui-fault-action = Action
ui-fault-action-label = Fault action
ui-fault-delay = Delay (ms)
ui-fault-delay-label = Fault delay in milliseconds
ui-fault-type = Message type
ui-fault-type-label = Fault message type
ui-fault-from = From
ui-fault-from-label = Fault sender
ui-fault-to = To
ui-fault-to-label = Fault recipient
ui-fault-probability = Probability
ui-fault-probability-label = Fault probability
ui-any = any
ui-fault-add = Add fault rule
ui-fault-rules = Fault rules
ui-fault-delay-ms = delay { $ms } ms
ui-fault-rule = { $action } { $msg_type } from { $from } to { $to }, p={ $p }
ui-fault-any-message = any message
ui-fault-anyone = anyone
ui-fault-remove-label = Remove rule: { $rule }
ui-remove = Remove

# Playback controls
ui-controls = Playback controls
ui-mode = Mode
ui-live = Live
ui-step = Step
ui-back-title = Back one event (←)
ui-back = Back
ui-play-title = Play or pause (Space)
ui-pause = Pause
ui-play = Play
ui-next-title = Next event (→)
ui-next = Next
ui-scrub = Scrub through events
ui-position-title = Events shown / events recorded
ui-speed = Speed
ui-speed-title = Live pace and replay speed: 2× or 4× to go faster, 0.5× or 0.25× for more time to read
ui-follow = Follow latest
ui-stop = Stop
ui-next-up = Next: { $events }

# Caption box (src/ui/caption_box.rs)
ui-caption-heading = What just happened
ui-caption-start = Start
ui-caption-step = Event { $number }
ui-legend = Legend

# Guided tours on the page (src/ui/tour_view.rs)
ui-tour-announce = Tour stop { $n } of { $count }: { $title }. { $text }
ui-tours = Guided tours
ui-tours-note = Runs a scenario and stops at the moments that matter, saying why.
ui-tour-title = Tour: { $title }
ui-tour-progress = Stop { $n } of { $count }
ui-tour-waiting = Running the scenario… the tour starts when the run ends.
ui-tour-none = None of this tour's moments happened in this run (another model or fault rules changed what happened). End the tour, or run the scenario again on the scripted model.
ui-tour-skipped = { $missing } of the tour's { $count } moments did not happen in this run and were skipped.
ui-tour-previous = Previous stop
ui-tour-next = Next stop
ui-tour-end = End tour
ui-tour-over-title = The run is over
ui-tour-over = That was the run's last event, step { $len }: the tour has shown every moment it looks for. Step back through the run with Back, or end the tour.

# Scenario titles (src/runtime/scenarios.rs ids; the prompts stay as written)
scenario-shutdown-title = Graceful shutdown
scenario-list-after-shutdown-title = Status after shutdown
scenario-reject-plan-title = Reject a risky plan
scenario-approve-plan-title = Approve a plan
scenario-reject-then-accept-title = Busy teammate: reject, then accept
scenario-out-of-order-title = Two requests, answered out of order
scenario-scale-title = Scale: 50 teammates × 20 requests

# The first screen (src/ui/setup/start_card.rs) and the setup column's tabs (src/ui/shell/drawers.rs)
ui-start-title = Start here
ui-start-lead = A lead asks a teammate to stop. With a plain message it cannot know whether she did; with a protocol every request gets an answer matched to it by request_id.
ui-start-tour = Start the lesson: without protocols, then with
ui-start-scenarios = Or run one of the lesson's scenarios
ui-start-tools = Explore every run, inject faults, use a real model, import and export traces:
ui-start-tools-button = Open the tools
ui-setup-tabs = Run setup sections
ui-tab-learn = Learn
ui-tab-tools = Tools
ui-tools = Tools
ui-tools-title = The engineer's tools: explore every run, faults on the bus, model providers, trace import and export

# Scenario prompts as the page shows them (keyed by the first scenario that has the prompt; the model is always given the English)
scenario-shutdown-prompt-1 = Spawn alice as a coder. Then request her shutdown.
scenario-list-after-shutdown-prompt-2 = List teammates to see alice's status after shutdown approval
scenario-reject-plan-prompt-1 = Spawn bob with a risky refactoring task. Review and reject his plan.
scenario-approve-plan-prompt-1 = Spawn charlie, have him submit a plan, then approve it.
scenario-reject-then-accept-prompt-1 = Spawn dave to migrate three config files. Request his shutdown while he is mid-task, then request it again when he reports done.
scenario-out-of-order-prompt-1 = Spawn erin to write release notes in two parts and frank to stand by, then request both shutdowns; watch the answers arrive out of order.
scenario-scale-prompt-1 = Scale: spawn 50 teammates, then request each one's shutdown until it agrees; each rejects 19 times and approves request 20.
scenario-without-protocols-prompt-1 = Spawn alice as a coder. Then send her a message: "Hey alice, please stop."
scenario-without-protocols-prompt-2 = Now request alice's shutdown.
scenario-twins-prompt-1 = Spawn alice as a coder and bob as a coder. Then request both shutdowns.
scenario-respawn-prompt-2 = Spawn alice as a coder.

# Panels (src/ui/panels.rs)
ui-check-title = Protocol check ({ $count })
ui-cut-findings = Showing { $shown } of { $total } findings
ui-check-ok = No violation: every answer matched a pending request from its addressee.
ui-check-at = {" "}at #{ $seq }: { $detail }
ui-team = Team
ui-lead-stopped = lead · stopped
ui-lead-role = lead
ui-plan-mode = {" "}· plan mode
ui-requests = Requests
ui-no-replay = The trace cannot be replayed.
ui-no-requests = No requests yet.
ui-request-filter = Find a request: id or agent
ui-request-filter-label = Find a request by id or agent
ui-cut-requests = Showing { $shown } of { $total } requests
ui-latency = latency { $latency }
ui-waiting = waiting
ui-created-at = created at { $at } · { $latency }
ui-transition = { $from } → { $to } at { $at } by { $by }
ui-answer-label = { $field } from { $addressee } for { $id }
ui-answer-optional = { $field } (optional)
ui-approve-as = Approve as { $name }
ui-reject = Reject
ui-answer-form-label = Answer { $id } as { $addressee }
ui-answer-required = Fill in { $field }: this answer needs it.
ui-answer-whole-number = { $field } must be a whole number, such as 3.
ui-answer-not-listed = { $field } must be one of { $values }.
ui-answer-choose = Choose…
ui-answer-none = (none)
ui-answer-not-sent = Nothing was sent. What you typed is kept:
ui-inboxes = Inboxes
ui-inbox-request = { $msg_type } from { $from } [{ $id }]
ui-inbox-message = { $msg_type } from { $from }: { $content }
ui-inbox-unread = { $name } ({ $count } unread)
ui-and-more = … and { $count } more
ui-download-failed = { $path } could not be downloaded: { $error }
ui-workspace = Workspace
ui-no-files = No files yet.
ui-download-label = Download { $path }
ui-download = Download
ui-send-pick = Error: pick a sender and a recipient
ui-send-title = Send a message as…
ui-from = From
ui-to = To
ui-message-text = Message text
ui-message-placeholder = message
ui-send = Send
ui-log = Event log
ui-log-raw = Show raw events
ui-log-label = Event log, newest first

# The messages table (src/ui/message_table.rs, src/ui/machinery_view.rs)
ui-fate-by-fault = by a fault
ui-fate-by-rule = by fault rule { $rule }
ui-fate-unread = unread
ui-fate-read-at = read at #{ $seq }
ui-fate-delivered = delivered, { $read }
ui-fate-dropped = dropped { $by }
ui-fate-held = held { $by } ({ $how }), not arrived yet
ui-fate-released = { $how } { $by }, arrived at #{ $at }, { $read }
ui-fate-duplicate = duplicated { $by } (this is the copy), { $read }
ui-fate-delayed = delayed
ui-fate-reordered = reordered

# The machinery (src/ui/machinery_view.rs)
ui-machinery = The machinery
ui-machinery-intro = One state machine for both protocols; two trackers keyed by request_id; the roster as config.json. Pick a tracker entry to put it on the FSM.
ui-machinery-intro-file = One state machine for every protocol of the file; one tracker per protocol, keyed by request_id; the roster as config.json. Pick a tracker entry to put it on the FSM.
ui-trackers = Trackers
ui-fsm-label = The one state machine, pending → approved | rejected, with request { $id } on it: { $state }
ui-fsm-label-empty = The one state machine, pending → approved | rejected; no request yet
ui-fsm-empty = No request yet: the lead's shutdown_request or a teammate's plan_approval creates one, pending.
ui-fsm-last = { $fsm } (the request touched last)
ui-tracker-label = { $name } tracker
ui-cut-members = Showing { $shown } of { $total } members
ui-cut-messages = Showing { $shown } of { $total } messages
ui-sentence = { $text }.
ui-messages-caption = Messages so far, newest first: { $total } as of step { $shown } of { $len }.
ui-col-seq = Seq
ui-col-time = Time
ui-col-from = From
ui-col-to = To
ui-col-type = Type
ui-col-said = What was said
ui-col-fate = Fate
ui-no-messages = No messages yet.

# The diagram (src/ui/diagram_view.rs)
ui-diagram-label = Sequence diagram: { $agents } agents, { $messages } messages, { $requests } requests; showing { $shown } of { $len } events
ui-zoom-out = Zoom out
ui-zoom-in = Zoom in
ui-fit = Fit to width
ui-diagram-region = Diagram (scrolls)
ui-table-toggle = Messages as a table
ui-zoom-group = Diagram zoom
ui-fsm-moved = Request { $id } ({ $kind }, { $requester } → { $addressee }): { $from } → { $to } by { $by } at { $at }.
ui-fsm-waiting = Request { $id } ({ $kind }, { $requester } → { $addressee }): { $state }, waiting for { $addressee }'s answer.
ui-run-cost = The run so far: { $calls } model calls, { $spend }.
ui-budget = Budget per run
ui-budget-amount = Budget amount
ui-budget-unit = Budget unit
ui-budget-none = none
ui-budget-tokens = tokens
ui-budget-dollars = US dollars
ui-budget-note = Before each model call, the most it could spend — its prompt (about four characters a token) and its max_tokens for the reply — is added to what the run spent; if that would pass the budget, the call is not made and the run stops, as Stop does. So a run never spends more than its budget. A dollar budget needs the model's price below; the scripted model's counts are estimates and have no price.
ui-budget-not-a-number = the budget '{ $value }' is not a number; write a whole number of tokens or an amount of dollars, or leave it empty for no budget
ui-budget-not-positive = a budget must be more than zero (leave it empty for no budget)
ui-budget-not-whole = a token budget is a whole number of tokens, like 50000
ui-budget-too-large = a budget this large caps nothing; leave it empty for no budget
ui-prices = Prices (US dollars per million tokens)
ui-prices-note = Kept in this browser. A model not listed shows its tokens only, never a price.
ui-price-input = Input
ui-price-output = Output
ui-price-cache-read = Cache read
ui-price-cache-write = Cache write
ui-price-taken = price taken { $date }
ui-price-remove = Remove
ui-price-model = Model id
ui-price-add = Add a price
ui-price-reset = Reset prices to defaults
ui-price-no-model = a price needs the model's id (for example claude-sonnet-4-5)
ui-price-not-a-number = the { $field } price '{ $value }' is not a number of dollars per million tokens
ui-price-out-of-range = the { $field } price must be between 0 and 1000 dollars per million tokens
ui-price-bad-date = the date a price was taken must be written YYYY-MM-DD, like 2026-11-27
