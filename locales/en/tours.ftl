# Guided tours (src/ui/tours.rs): each tour's title and intro, then each
# stop's title and why. { $id } is a request id, { $name } a teammate.

tour-the-request = the request
tour-the-teammate = the teammate

tour-without-protocols-title = Without protocols
tour-without-protocols-intro = Where the lesson starts: the lead can only say “please stop” and hope. Then the same team, with the shutdown handshake.

tour-without-protocols-1-title = Just a message: “please stop”
tour-without-protocols-1-why = The lead asks { $name } to stop the Lesson 9 way, with a plain message. It has no request_id and asks for no answer, so nothing that comes back could be matched to it.
tour-without-protocols-2-title = The lead cannot know
tour-without-protocols-2-why = The lead's turn ends with nothing to wait for and nothing to check: no tracker entry, no pending state. Did { $name } stop? It has no way to tell.
tour-without-protocols-3-title = { $name } reads “please stop”
tour-without-protocols-3-why = { $name } sees the words, but no protocol says what they oblige it to do, and no answer is expected. It carries on, and the lead is not told either way.
tour-without-protocols-4-title = { $name } did not stop
tour-without-protocols-4-why = { $name } finished its work and went idle — still in its loop, ready to wake on the next message. “Please stop” changed nothing, and nobody told the lead.
tour-without-protocols-5-title = With the handshake: a request_id
tour-without-protocols-5-why = Now the lead calls shutdown_request: the tracker records { $id } for { $name } as pending, and the message carries { $id }. Whatever { $name } answers will name { $id }, so the lead can match it.
tour-without-protocols-6-title = An answer that names its request
tour-without-protocols-6-why = { $name } answers with a shutdown_response for { $id }. This is the confirmation the plain message could never get.
tour-without-protocols-7-title = The lead knows for certain
tour-without-protocols-7-why = The tracker says { $id } is approved and config.json says { $name } is shutdown: { $name } acknowledged, finished its turn and left its loop. Same team, same request to stop — the protocol is the difference.

tour-shutdown-title = Graceful shutdown
tour-shutdown-intro = The shutdown handshake from request to confirmation: why a request_id, and why alice finishes her turn before she exits.

tour-shutdown-1-title = Why a request_id
tour-shutdown-1-why = The request gets its own id, { $id }, and enters shutdown_requests as pending. A bare “yes” could answer anything; an answer that carries { $id } answers exactly this request, however many are in flight.
tour-shutdown-2-title = Asking is not stopping
tour-shutdown-2-why = { $name } reads the request only at the next round of its loop, before its next model call. Until { $name } answers, { $id } stays pending: the lead has asked, and nothing has stopped yet.
tour-shutdown-3-title = The last turn
tour-shutdown-3-why = This is { $name }'s last model call. The shutdown is handled inside an ordinary turn: { $name } answers, the tool call completes, and only then does the loop end.
tour-shutdown-4-title = pending → approved, once
tour-shutdown-4-why = { $name } approves { $id }: the one FSM moves pending → approved. approved is terminal; no later answer can change it.
tour-shutdown-5-title = Why finish the turn before exiting
tour-shutdown-5-why = Only after its response is sent does { $name } leave its loop (working → shutdown in config.json). That is the graceful part: the teammate finishes its current work instead of being cut off half-way, as killing its thread would.
tour-shutdown-6-title = Matched by request_id
tour-shutdown-6-why = The lead reads the shutdown_response for { $id } and finds { $id } in its tracker: it knows for certain that { $name } acknowledged — the confirmation a plain “please stop” never gets.

tour-list-after-shutdown-title = Status after shutdown
tour-list-after-shutdown-intro = What a finished handshake leaves behind: an approved request in the tracker and a status in config.json.

tour-list-after-shutdown-1-title = The handshake completes
tour-list-after-shutdown-1-why = { $name } approves { $id }. The tracker now holds what was agreed; config.json is about to hold what happened.
tour-list-after-shutdown-2-title = Recorded in config.json
tour-list-after-shutdown-2-why = { $name }'s status becomes shutdown in the roster, the lesson's config.json. Anyone can read it later without asking { $name }, who reads no more messages.
tour-list-after-shutdown-3-title = Later, a new prompt
tour-list-after-shutdown-3-why = The user asks the lead for the team's status. It is the same team: the trackers and the roster outlive the prompt that filled them.
tour-list-after-shutdown-4-title = Status after shutdown approval
tour-list-after-shutdown-4-why = list_teammates reads config.json: { $name } is shutdown. The lead can trust it because it was set when { $name } left its loop after approving, not guessed from silence.

tour-reject-plan-title = Reject a risky plan
tour-reject-plan-intro = Plan approval: the same request_id pattern the other way round, and a gate the runtime keeps shut until a plan is approved.

tour-reject-plan-1-title = Plan mode: a gate the runtime keeps
tour-reject-plan-1-why = { $name } is spawned in plan mode. The gate is enforced by the runtime, not only by the prompt: until one of { $name }'s plans is approved, write_file and edit_file return an error, so even a model that ignores its instructions cannot change the workspace.
tour-reject-plan-2-title = The same pattern, the other way round
tour-reject-plan-2-why = { $name } submits a plan: plan_requests gets { $id }, pending, and the plan travels to the lead carrying { $id }. It is the shutdown handshake turned around: the teammate asks, the lead answers.
tour-reject-plan-3-title = Rejected, with feedback
tour-reject-plan-3-why = The lead rejects { $id } and says why. rejected is terminal: { $name } cannot argue { $id } back to pending, so to go on it revises and submits again.
tour-reject-plan-4-title = A new plan, a new request_id
tour-reject-plan-4-why = The revised plan is a new request, { $id }. The rejected one stays rejected in the tracker, so each verdict stays with the plan it was about.
tour-reject-plan-5-title = The gate opens
tour-reject-plan-5-why = The lead approves { $id }. From now on the runtime lets { $name } change files, because the tracker says approved.
tour-reject-plan-6-title = Now the write goes through
tour-reject-plan-6-why = { $name }'s write succeeds: the runtime checked that one of { $name }'s plans is approved. Before { $id } was approved, the same call would have been refused.

tour-approve-plan-title = Approve a plan
tour-approve-plan-intro = A plan submitted, reviewed and approved — and why the runtime, not the prompt, decides when charlie may write.

tour-approve-plan-1-title = Why the runtime keeps the gate
tour-approve-plan-1-why = { $name } works in plan mode. A prompt can only ask a model to wait for approval; here the runtime itself refuses workspace changes until the tracker holds an approved plan from { $name }.
tour-approve-plan-2-title = The plan gets a request_id
tour-approve-plan-2-why = { $name }'s plan becomes request { $id } in plan_requests, pending. The lead's verdict will carry { $id }, so { $name } knows which plan it is about.
tour-approve-plan-3-title = Waiting, not working
tour-approve-plan-3-why = With { $id } pending there is nothing { $name } may do: it goes idle. The lead's plan_approval_response will wake it.
tour-approve-plan-4-title = The lead reviews
tour-approve-plan-4-why = The plan reaches the lead's inbox as a plan_approval_request with { $id }; the lead answers with plan_approval naming { $id }. (The lesson sends plans under plan_approval_response, a naming bug fixed here.)
tour-approve-plan-5-title = Approved
tour-approve-plan-5-why = The lead approves { $id }: pending → approved in plan_requests, and the response goes back to { $name } with the same id.
tour-approve-plan-6-title = The runtime lets it through
tour-approve-plan-6-why = { $name } writes its file, and the write succeeds because the runtime found { $name }'s approved plan in the tracker — not because a prompt said it may.

tour-reject-then-accept-title = Busy teammate: reject, then accept
tour-reject-then-accept-intro = A teammate may say no. Why the lead then asks with a new request instead of a second answer to the old one.

tour-reject-then-accept-1-title = Asked mid-task
tour-reject-then-accept-1-why = The lead asks { $name } to shut down ({ $id }) while { $name } still has files to migrate. A graceful shutdown is a request, not an order: { $name } may say no.
tour-reject-then-accept-2-title = No — with a reason
tour-reject-then-accept-2-why = { $name } rejects { $id }, gives its reason and keeps working. The lead learns that { $name } is busy and why; a plain “please stop” would have told it nothing.
tour-reject-then-accept-3-title = Why a second answer is refused
tour-reject-then-accept-3-why = The lead asks again with a new request, { $id }. The first stays rejected: terminal states are final, so a second answer to it would be refused with an error (the lesson's code would silently overwrite it).
tour-reject-then-accept-4-title = The last turn
tour-reject-then-accept-4-why = { $name }'s last model call: it has just read the new request and answers it in this turn. The tool call completes before the loop ends, so nothing is left half-written.
tour-reject-then-accept-5-title = approved, this time
tour-reject-then-accept-5-why = { $name } approves { $id }: its work is done, so stopping is safe now. The tracker keeps both requests, one rejected and one approved.
tour-reject-then-accept-6-title = Then it exits
tour-reject-then-accept-6-why = Its answer sent, { $name } leaves its loop: working → shutdown. The teammate finished its turn before exiting.

tour-out-of-order-title = Two requests, answered out of order
tour-out-of-order-intro = Two requests in flight, answered in the other order — and still each answer lands on its own request.

tour-out-of-order-1-title = Two requests in flight: the first
tour-out-of-order-1-why = The lead asks { $name } first, with request { $id }, and does not wait for the answer before asking the next teammate.
tour-out-of-order-2-title = …and the second
tour-out-of-order-2-why = Then { $name }, with request { $id }. Two shutdown requests are pending at once, so every answer must say which request it answers.
tour-out-of-order-3-title = An answer out of order
tour-out-of-order-3-why = { $name } answers { $id } first, although { $name } was asked second: the other teammate is still finishing its work. The order answers arrive in says nothing about which request they belong to.
tour-out-of-order-4-title = Matched by request_id, not by order
tour-out-of-order-4-why = The lead looks { $id } up in shutdown_requests and finds { $name }'s entry. Had it matched answers by arrival, it would have taken this for the first teammate's answer.
tour-out-of-order-5-title = The other answer, later
tour-out-of-order-5-why = { $name } answers { $id } last, after finishing its work. It still lands on the right entry: the id decides, not the order.
tour-out-of-order-6-title = Both handshakes done
tour-out-of-order-6-why = { $name } leaves its loop too. Both requests are approved, each matched to its own teammate by its request_id.
