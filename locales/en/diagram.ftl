# Words drawn inside the sequence diagram, its legend and its moving
# messages (src/ui/geometry.rs, src/ui/motion_draw.rs), in the page and in
# the SVG export. Agent names, message types, request ids and the statuses
# (pending, approved, rejected, working, idle, shutdown) are never translated.

diagram-run-finished = ■ run finished
diagram-budget-reached = ■ budget reached: { $limit }
diagram-head-tokens = { $tokens } tok
diagram-spawn = spawn { $name }
diagram-shut-down = { $name } shut down
# The word under an earlier head of a teammate spawned again: that run of it was replaced by a new one.
diagram-replaced = replaced
diagram-dropped = dropped
diagram-fault-dropped = (dropped)
diagram-fault-duplicate = (duplicate)
diagram-fault-delayed = (delayed)
diagram-fault-reordered = (reordered)
diagram-tool-running = running…
diagram-violations = violation: { $kinds }
diagram-inbox = { $name }'s inbox: { $count } waiting
diagram-held = held ({ $hold })
diagram-held-label = { $from } → { $to }: { $msg_type }, held ({ $hold })
diagram-hold-delayed = delayed
diagram-hold-reordered = reordered

## The legend
legend-read = solid: read; colour = its request_id
legend-waiting = dotted: sent, still waiting in the inbox
legend-plain = dashed: a plain message or broadcast
legend-dropped = × at the end: dropped by a fault, never arrives
legend-fault-word = under it: delayed, reordered or copied
legend-pending = request pending: waiting for its answer (FSM)
legend-tool = a tool call (red: refused; dashed: running)
legend-model = bar on a lifeline: waiting on its model
legend-shut-down = × on a lifeline: the teammate shut down
legend-violation = a protocol violation (hover it for details)
legend-in-flight = message in flight, moving along its arrow
legend-inbox = waiting in the inbox (how many), until read
legend-held = held in flight by a fault until released
legend-summary = Legend: solid coloured arrow, a request or response read by its recipient, coloured by its request_id; dotted arrow, a message still waiting in an inbox; dashed arrow, a plain message or broadcast; arrow ending in ×, dropped by a fault; a word under the arrow, (delayed), (reordered) or (duplicate), hit by a fault; badges, each request's state pending, approved or rejected; yellow box, a tool call; bar on a lifeline, an agent waiting on its model; × on a lifeline, a teammate shut down; ⚠, a protocol violation; an envelope, a message in flight; stacked envelopes with a count on a lifeline, messages waiting in its inbox; an envelope parked on a dotted line, a message held by a fault until released.

## The SVG export
svg-label = { $title }: sequence diagram of { $agents ->
    [one] { $agents } agent
   *[other] { $agents } agents
}, { $messages ->
    [one] { $messages } message
   *[other] { $messages } messages
}, { $requests ->
    [one] { $requests } request
   *[other] { $requests } requests
}
