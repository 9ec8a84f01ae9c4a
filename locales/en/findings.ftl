# What the invariant checker and the explorer found, worded from their facts
# (src/ui/finding_words.rs). Request ids, agent names, message types, tool
# names, statuses (pending, approved, rejected, working, idle, shutdown) and
# event numbers (#12) are never translated.

## The kinds of violation
violation-answer-to-unknown-request = answer to unknown request
violation-second-answer = second answer
violation-answer-from-wrong-agent = answer from wrong agent
violation-answer-across-restart = answer across a restart
violation-request-across-restart = request across a restart
violation-message-to-exited-teammate = message to exited teammate
violation-left-pending = request left pending
violation-answer-lost = answer lost
violation-duplicate-delivered = duplicate delivered
violation-act-after-shutdown = act after approved shutdown
violation-gated-tool-while-closed = gated tool while closed
violation-answer-after-expiry = answer after expiry
violation-mark = Protocol violation: { $kind }: { $detail }

## Pieces
finding-fault-rule = fault rule { $rule }
finding-fault-any = a fault
finding-request = request { $id }
finding-request-no-id = a request with no id
finding-kind = { $kind ->
    [shutdown] shutdown
    [plan] plan
   *[other] { $kind }
}

## The checker's findings
finding-answer-unknown = { $from } answered { $request }, which no { $kind } request has
finding-answer-wrong-agent = { $from } answered { $request }, which is addressed to { $addressee }
finding-answer-across-restart = { $from } (incarnation { $incarnation }) answered { $kind } { $request }, which was addressed to its previous run (incarnation { $addressed })
finding-request-across-restart = { $agent } (incarnation { $incarnation }) read { $kind } { $request }, which was addressed to its previous run (incarnation { $addressed })
finding-second-answer = { $from } answered { $request } a second time
finding-duplicate = { $fault } duplicated { $whose } reply to { $request } (#{ $seq }): { $to } received the same answer twice; { $tracker }
finding-duplicate-recorded = the tracker recorded one answer ({ $status }) and ignored the copy
finding-duplicate-unrecorded = the tracker recorded no answer
finding-to-exited = { $from } sent a { $msg_type } to '{ $to }', which had already shut down
finding-arrival-released = ; { $fault } had held it back (#{ $seq }) until then
finding-arrival-copy = ; it is the copy { $fault } made (#{ $seq })
finding-pending = { $kind } { $request } to { $addressee } was still pending when the run finished
finding-pending-dropped = : { $fault } dropped the request (#{ $seq }), so { $addressee } never saw it
finding-pending-held = : { $fault } held the request back (#{ $seq }) and { $addressee } never answered it
finding-pending-restarted = : { $addressee } restarted (incarnation { $incarnation }) before answering, and its new run cannot answer for the old one
finding-pending-unrecorded = ; a reply arrived but the tracker never recorded an answer
finding-pending-exited = ; { $addressee } shut down without answering it
finding-pending-answered-later = ; later { $by } answered it, and the tracker now holds it { $status }
finding-answer-lost-approved-exits = { $from } approved { $kind } { $request } and exits; { $fault } dropped the reply (#{ $seq }), so { $to } never learned it
finding-answer-lost-approved = { $from } approved { $kind } { $request }; { $fault } dropped the reply (#{ $seq }), so { $to } never learned it
finding-answer-lost-rejected = { $from } rejected { $kind } { $request }; { $fault } dropped the reply (#{ $seq }), so { $to } never learned it
finding-act-after-shutdown = { $agent } approved { $kind } { $request } (#{ $seq }), then { $act } instead of finishing its turn and exiting
finding-act-model-call = called its model again
finding-act-tool-call = ran { $tool }
finding-act-message = sent a { $msg_type } to { $to }
finding-gated-tool = { $agent } ran { $tool } while its gate '{ $gate }' was closed
finding-answer-after-expiry = { $from } answered { $kind } { $request } after it had expired

## The explorer's own findings
finding-no-responder = { $request } ({ $kind }) goes to { $addressee }, who has no tool to answer it
finding-approved = { $by } approved { $request }
finding-rejected = { $by } rejected { $request }
finding-work-before-approval = { $agent } is in plan mode and changed the workspace with { $tool } before its plan was approved
finding-quiet-pending = every agent went idle while { $kind } { $request } from { $requester } to { $addressee } was still pending: nobody will answer it
finding-ended-pending = the run ended with { $kind } { $request } to { $addressee } still pending
finding-approved-not-exited = { $agent } approved its shutdown but the run ended with it { $status }, not shutdown
finding-stuck = nothing can move, yet the run has not ended: the team is stuck
