# Parole disegnate nel diagramma di sequenza, nella sua legenda e nei messaggi in movimento
# (src/ui/geometry.rs, src/ui/motion_draw.rs), nella pagina e nell'esportazione SVG. Nomi
# degli agenti, tipi di messaggio, ID delle richieste e stati (pending, approved, rejected,
# working, idle, shutdown) non si traducono.

diagram-run-finished = ■ esecuzione finita
diagram-budget-reached = ■ budget raggiunto: { $limit }
diagram-head-tokens = { $tokens } token
diagram-spawn = avvia { $name }
diagram-shut-down = { $name } si è spento
# The word under an earlier head of a teammate spawned again: that run of it was replaced by a new one.
diagram-replaced = sostituito
diagram-dropped = scartato
diagram-fault-dropped = (scartato)
diagram-fault-duplicate = (duplicato)
diagram-fault-delayed = (ritardato)
diagram-fault-reordered = (riordinato)
diagram-tool-running = in esecuzione…
diagram-violations = violazione: { $kinds }
diagram-inbox = inbox di { $name }: { $count } in attesa
diagram-held = fermo ({ $hold })
diagram-held-label = { $from } → { $to }: { $msg_type }, fermo ({ $hold })
diagram-hold-delayed = ritardo
diagram-hold-reordered = riordino

## La legenda
legend-read = continua: letto; colore = il suo request_id
legend-waiting = punteggiata: inviato, ancora in attesa nell'inbox
legend-plain = tratteggiata: un messaggio semplice o un broadcast
legend-dropped = × in fondo: scartato da un guasto, non arriva mai
legend-fault-word = sotto: ritardato, riordinato o duplicato
legend-pending = richiesta pending: in attesa della risposta (FSM)
legend-tool = una chiamata a uno strumento (rosso: rifiutata; tratteggiato: in corso)
legend-model = barra su una linea di vita: in attesa del modello
legend-shut-down = × su una linea di vita: il compagno si è spento
legend-violation = una violazione del protocollo (passaci sopra per i dettagli)
legend-in-flight = messaggio in viaggio lungo la sua freccia
legend-inbox = in attesa nell'inbox (quanti), finché non viene letto
legend-held = trattenuto in viaggio da un guasto finché non viene rilasciato
legend-summary = Legenda: freccia continua colorata, una richiesta o risposta letta dal destinatario, colorata secondo il suo request_id; freccia punteggiata, un messaggio ancora in attesa in un'inbox; freccia tratteggiata, un messaggio semplice o un broadcast; freccia che finisce con ×, scartata da un guasto; una parola sotto la freccia, (ritardato), (riordinato) o (duplicato), colpita da un guasto; badge, lo stato di ogni richiesta pending, approved o rejected; riquadro giallo, una chiamata a uno strumento; barra su una linea di vita, un agente in attesa del modello; × su una linea di vita, un compagno spento; ⚠, una violazione del protocollo; una busta, un messaggio in viaggio; buste impilate con un numero su una linea di vita, messaggi in attesa nella sua inbox; una busta ferma su una linea punteggiata, un messaggio trattenuto da un guasto finché non viene rilasciato.

## L'esportazione SVG
svg-label = { $title }: diagramma di sequenza di { $agents ->
    [one] { $agents } agente
   *[other] { $agents } agenti
}, { $messages ->
    [one] { $messages } messaggio
   *[other] { $messages } messaggi
}, { $requests ->
    [one] { $requests } richiesta
   *[other] { $requests } richieste
}
