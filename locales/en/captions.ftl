# Captions: each step of a run in the lesson's words (src/ui/captions.rs).
# Protocol identifiers (message types, tool names, request_id, pending,
# approved, rejected, field names) stay exactly as written here.

quote = “{ $text }”
list-sep = {", "}
list-and = { $init } and { $last }
who-lead = the lead
who-lead-start = The lead
whose-lead = the lead's
whose-lead-start = The lead's
whose-name = { $name }'s

cap-said = { $field }: “{ $text }”.
cap-said-ended = { $field }: “{ $text }”
cap-no-text = (no text)
cap-messages = { $count ->
    [0] no messages
    [1] one message
    [2] two messages
    [3] three messages
    [4] four messages
    [5] five messages
    [6] six messages
    [7] seven messages
    [8] eight messages
    [9] nine messages
    [10] ten messages
   *[other] { $count } messages
}
cap-more = { $messages } more
cap-msg-with-id = the { $msg_type } { $id } from { $from }
cap-msg = a { $msg_type } from { $from }

cap-nothing-title = Nothing yet
cap-nothing-text = Pick a scenario or type a prompt for the lead. Each step of the run is told here.
cap-before-title = Before the first event
cap-before-text = The run has { $count } events. Press Next to watch the lead and its teammates step by step.

cap-run-started-title = Run started
cap-run-started-text = The user gives the lead a prompt: { $prompt }. The lead starts its agent loop.
cap-run-finished-title = Run finished
cap-run-finished-text = The team is quiet: no agent has a turn left to take.
cap-run-finished-quiet = The team is quiet: nobody is working.
cap-run-finished-working = The team is quiet, yet the roster still shows { $names } as working.
cap-run-finished-read = No inbox holds an unread message.
cap-run-finished-inbox = { $messages } in { $whose } inbox
cap-run-finished-unread = Still unread: { $inboxes }.
cap-run-finished-settled = Every request has its final state in the tracker.
cap-run-finished-pending = { $count ->
    [1] One request is still pending in the tracker.
   *[other] { $count } requests are still pending in the tracker.
}

cap-plan-mode = It works in plan mode: the runtime gates execution — { $name } must get a plan approved by the lead before changing the workspace.
cap-restarts-title = { $name } restarts
cap-restarts-text = The lead starts { $name } again as { $role }: a new run of its loop (a new incarnation). Requests addressed to its previous run can no longer be answered by it.
cap-spawned-title = { $name } spawned
cap-spawned-text = The lead spawns { $name } as { $role }; { $name } is working and gets its own inbox.

cap-status-shutdown-title = { $name } shuts down
cap-status-shutdown-text = { $name } leaves its loop: status { $from } → shutdown. Its lifeline ends (×); a message sent to { $name } from now on is never read.
cap-status-idle-title = { $name } idle
cap-status-idle-text = { $name } has nothing left to do this turn: { $from } → idle. It waits for a message in its inbox to wake it.
cap-status-working-title = { $name } working
cap-status-working-text = { $name } has work again: { $from } → working.

cap-inbox-title = Inbox read
cap-inbox-one = , { $item }
cap-inbox-many = : { $items }
cap-inbox-text = { $who_start } reads the inbox: { $messages }{ $what }. The inbox is empty again.
cap-inbox-text-lead = { $who_start } reads its inbox: { $messages }{ $what }. The inbox is empty again.
cap-inbox-next = { $who_start } handles each by its request_id.

cap-shutdown-requested-title = Shutdown requested
cap-shutdown-requested-text = { $who_start } asks { $addressee } to shut down. Request { $id } is created and is pending until { $addressee } answers: shutdown_requests[{ $id }] = {"{"}target: { $addressee }, status: pending{"}"}.
cap-plan-submitted-title = Plan submitted
cap-plan-submitted-text = { $requester } submits a plan for approval: { $plan }. Request { $id } is pending until { $reviewer } reviews it; until then { $requester } must not carry the plan out.

cap-moved = the tracker moves it { $from } → { $to }
cap-shutdown-approved-title = Shutdown approved
cap-shutdown-approved-text = { $by_start } approves { $id }: { $moved }. { $by_start } finishes this turn, then leaves its loop.
cap-shutdown-rejected-title = Shutdown rejected
cap-shutdown-rejected-text = { $by_start } rejects { $id }: { $moved }. { $by_start } keeps working; the lead can ask again with a new request.
cap-plan-approved-title = Plan approved
cap-plan-approved-text = { $by_start } approves { $whose } plan { $id }: { $moved }. The gate opens: { $requester } may now carry out the plan.
cap-plan-approved-text-anon = { $by_start } approves the plan { $id }: { $moved }. The teammate may now go ahead.
cap-plan-rejected-title = Plan rejected
cap-plan-rejected-text = { $by_start } rejects { $whose } plan { $id }: { $moved }. { $requester } must not carry it out; it can revise and submit a new plan.
cap-plan-rejected-text-anon = { $by_start } rejects the plan { $id }: { $moved }. The teammate must not carry it out.
cap-stale-transition = Careful: { $id } was addressed to { $whose } previous run, before its restart — a stale answer.

cap-model-called-title = Model called
cap-model-called-text = { $who_start } calls its model with the conversation so far and waits for the reply (the activation bar on its lifeline).
cap-model-replied-title = Model replied
cap-model-replied-text = { $whose_start } model answers ({ $tokens } tokens, { $stop_reason }): { $next }.
cap-model-next-tools = it asks for tool calls, which the loop runs next
cap-model-next-end = its turn ends
cap-model-says = It says: { $quote }.
cap-model-failed-title = Model call failed
cap-model-failed-text = { $whose_start } model call failed: { $error }. { $who_start } stops this turn.

cap-tool-refused-title = Tool refused
cap-tool-refused-text = The runtime refuses { $whose } { $tool }: { $output }. The model reads the error and can try again.
cap-tool-returned-title = Tool returned
cap-tool-returned-text = { $whose_start } { $tool } returns: { $output }.

cap-fault-rule = Fault rule { $rule }
cap-fault-rule-any = A fault rule
cap-fault-dropped-title = Fault: dropped
cap-fault-dropped-text = { $by } drops { $what } on its way to { $to }: it never reaches { $whose_to } inbox (×).
cap-fault-dropped-response = The tracker has moved, but the requester never learns the answer.
cap-fault-delayed-title = Fault: delayed
cap-fault-delayed-text = { $by } holds { $what } on the bus for { $ms } ms; it reaches { $whose_to } inbox later.
cap-fault-duplicated-title = Fault: duplicated
cap-fault-duplicated-text = { $by } duplicates { $what }: { $whose_to } inbox gets it twice. The request_id shows the copy answers nothing new.
cap-fault-reordered-title = Fault: reordered
cap-fault-reordered-text = { $by } holds { $what } back until the next message to { $to } is delivered, so it arrives out of order. The request_id still matches it to its request.
cap-released-title = Held message released
cap-released-text = { $what_start } reaches { $whose_to } inbox at last (held since event #{ $held }). It is matched by its request_id, whatever the order.
cap-released-unknown = The message held by event #{ $held } reaches its recipient's inbox.

cap-sent-copy = This is the copy a duplicate fault made.
cap-sent-waits = It waits in { $whose_to } inbox until { $to } reads it.
cap-stale-answer = It answers { $id }, addressed to { $whose } previous run: a stale answer across a restart.
cap-sent-message-title = Message sent
cap-sent-message-text = { $from_start } sends { $to } a message: { $content }.
cap-sent-broadcast-title = Broadcast
cap-sent-broadcast-text = { $from_start } broadcasts to { $to }: { $content }.
cap-sent-shutdown-request-title = shutdown_request sent
cap-sent-shutdown-request-text = { $from_start } sends the shutdown_request with request_id { $id } to { $to }: { $content }.
cap-sent-shutdown-response-title = shutdown_response sent
cap-sent-shutdown-response-text = { $from_start } answers { $id } with a shutdown_response ({ $approve }), correlated by request_id.
cap-sent-plan-request-title = plan_approval_request sent
cap-sent-plan-request-text = { $from_start } sends the plan to { $to } as a plan_approval_request with request_id { $id }.
cap-sent-plan-response-title = plan_approval_response sent
cap-sent-plan-response-text = { $from_start } answers plan { $id } with a plan_approval_response ({ $approve }), correlated by request_id.

cap-tool-title = Tool: { $tool }
cap-tool-spawn = { $who_start } calls spawn_teammate to start { $name } as { $role }.
cap-tool-shutdown-request = { $who_start } calls shutdown_request for { $teammate }: the handler will create a request_id and send the request.
cap-tool-shutdown-approve = { $who_start } calls shutdown_response to approve { $id }.
cap-tool-shutdown-reject = { $who_start } calls shutdown_response to reject { $id }.
cap-tool-shutdown-about = { $who_start } calls shutdown_response about { $id }.
cap-tool-plan-approve = { $who_start } calls plan_approval to approve plan { $id } (review mode, with the request_id).
cap-tool-plan-reject = { $who_start } calls plan_approval to reject plan { $id } (review mode, with the request_id).
cap-tool-plan-submit = { $who_start } calls plan_approval to submit a plan (submit mode, no request_id yet): { $plan }.
cap-tool-read-inbox = { $who_start } calls read_inbox to read the messages waiting for it.
cap-tool-send = { $who_start } calls send_message to write to { $to }.
cap-tool-broadcast = { $who_start } calls broadcast to write to every teammate.
cap-tool-list = { $who_start } calls list_teammates to see each member's status in config.json.
cap-tool-file = { $who_start } calls { $tool } on { $path }.
cap-tool-other = { $who_start } calls the tool { $tool }.

# What a model call cost. Counts are tokens; "≈" marks the scripted model's estimate.
cost-tokens = { $tokens } tokens
cost-tokens-priced = { $tokens } tokens · { $money }
cost-tokens-estimate = ≈{ $tokens } tokens (estimate)
cost-in-out = { $input } in, { $output } out
cost-cache = cache { $read } read and { $write } written
cost-call = Usage: { $usage }.
cost-call-priced = Usage: { $usage } ({ $money }).
cost-call-estimate = Usage ≈ { $usage } (estimate).
cost-protocol-share = of which { $tokens } on protocol handshakes
cap-budget-reached-title = Budget reached
cap-budget-reached-text = { $whose_start } next model call could take up to { $expected } (its prompt, and its max_tokens for the reply), which would pass the run's budget of { $limit } ({ $spent } spent so far). The run stops here, as Stop does: the call is not made and no agent goes on.
cap-budget-unpriced-text = The run's budget is { $limit }, but the price table has no price for this model, so no call's cost can be told. { $whose_start } model call is not made and the run stops here.
cost-budget-banner = The budget of { $limit } stopped the run at event #{ $seq }, before { $who }'s next model call, which could take up to { $expected } ({ $spent } spent).
cost-budget-banner-unpriced = The budget of { $limit } stopped the run at event #{ $seq }, before { $who }'s model call: the price table has no price for this model.
cap-file-request-text = { $requester_start } asks { $addressee } with the { $protocol } protocol: request { $id } is { $status }.
cap-file-answered-text = { $by_start } answers { $protocol } request { $id }: { $moved }.
cap-file-expired-text = Nobody answered { $protocol } request { $id } before its deadline: { $moved } (expired).
