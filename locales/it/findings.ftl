# Ciò che il verificatore e l'esploratore hanno trovato (src/ui/finding_words.rs). ID delle
# richieste, nomi degli agenti, tipi di messaggio, nomi degli strumenti, stati (pending,
# approved, rejected, working, idle, shutdown) e numeri di evento (#12) non si traducono.

## I tipi di violazione
violation-answer-to-unknown-request = risposta a una richiesta sconosciuta
violation-second-answer = seconda risposta
violation-answer-from-wrong-agent = risposta dall'agente sbagliato
violation-answer-across-restart = risposta attraverso un riavvio
violation-request-across-restart = richiesta attraverso un riavvio
violation-message-to-exited-teammate = messaggio a un compagno uscito
violation-left-pending = richiesta rimasta pending
violation-answer-lost = risposta persa
violation-duplicate-delivered = duplicato consegnato
violation-act-after-shutdown = azione dopo lo shutdown approvato
violation-gated-tool-while-closed = strumento eseguito a gate chiuso
violation-answer-after-expiry = risposta dopo la scadenza
violation-mark = Violazione del protocollo: { $kind }: { $detail }

## Pezzi
finding-fault-rule = la regola di guasto { $rule }
finding-fault-any = un guasto
finding-request = richiesta { $id }
finding-request-no-id = richiesta senza ID
finding-kind = { $kind ->
    [shutdown] di shutdown
    [plan] di piano
   *[other] { $kind }
}

## Ciò che ha trovato il verificatore
finding-answer-unknown = { $from } ha risposto alla { $request }, ma non esiste alcuna richiesta { $kind } con quell'ID
finding-answer-wrong-agent = { $from } ha risposto alla { $request }, che è indirizzata a { $addressee }
finding-answer-across-restart = { $from } (incarnazione { $incarnation }) ha risposto alla { $request } { $kind }, che era indirizzata alla sua esecuzione precedente (incarnazione { $addressed })
finding-request-across-restart = { $agent } (incarnazione { $incarnation }) ha letto la { $request } { $kind }, che era indirizzata alla sua esecuzione precedente (incarnazione { $addressed })
finding-second-answer = { $from } ha risposto una seconda volta alla { $request }
finding-duplicate = { $fault } ha duplicato la risposta { $whose } alla { $request } (#{ $seq }): { $to } ha ricevuto due volte la stessa risposta; { $tracker }
finding-duplicate-recorded = il tracker ha registrato una sola risposta ({ $status }) e ha ignorato la copia
finding-duplicate-unrecorded = il tracker non ha registrato alcuna risposta
finding-to-exited = { $from } ha inviato un { $msg_type } a { $to }, che si era già spento
finding-arrival-released = ; { $fault } lo aveva trattenuto (#{ $seq }) fino ad allora
finding-arrival-copy = ; è la copia che { $fault } ha creato (#{ $seq })
finding-pending = la { $request } { $kind } per { $addressee } era ancora pending quando l'esecuzione è finita
finding-pending-dropped = : { $fault } ha scartato la richiesta (#{ $seq }), quindi { $addressee } non l'ha mai vista
finding-pending-held = : { $fault } ha trattenuto la richiesta (#{ $seq }) e { $addressee } non ha mai risposto
finding-pending-restarted = : { $addressee } si è riavviato (incarnazione { $incarnation }) prima di rispondere, e la sua nuova esecuzione non può rispondere per la vecchia
finding-pending-unrecorded = ; è arrivata una risposta, ma il tracker non l'ha mai registrata
finding-pending-exited = ; { $addressee } si è spento senza rispondere
finding-pending-answered-later = ; più tardi { $by } ha risposto, e il tracker ora la registra come { $status }
finding-answer-lost-approved-exits = { $from } ha approvato la { $request } { $kind } ed esce; { $fault } ha scartato la risposta (#{ $seq }), quindi { $to } non l'ha mai saputo
finding-answer-lost-approved = { $from } ha approvato la { $request } { $kind }; { $fault } ha scartato la risposta (#{ $seq }), quindi { $to } non l'ha mai saputo
finding-answer-lost-rejected = { $from } ha rifiutato la { $request } { $kind }; { $fault } ha scartato la risposta (#{ $seq }), quindi { $to } non l'ha mai saputo
finding-act-after-shutdown = { $agent } ha approvato la { $request } { $kind } (#{ $seq }), poi { $act } invece di finire il turno e uscire
finding-act-model-call = ha chiamato di nuovo il modello
finding-act-tool-call = ha eseguito { $tool }
finding-act-message = ha inviato un { $msg_type } a { $to }
finding-gated-tool = { $agent } ha eseguito { $tool } mentre il suo gate '{ $gate }' era chiuso
finding-answer-after-expiry = { $from } ha risposto alla { $request } { $kind } dopo che era scaduta

## Ciò che ha trovato l'esploratore
finding-no-responder = la { $request } { $kind } va a { $addressee }, che non ha alcuno strumento per rispondere
finding-approved = { $by } ha approvato la { $request }
finding-rejected = { $by } ha rifiutato la { $request }
finding-work-before-approval = { $agent } è in modalità piano e ha modificato il workspace con { $tool } prima che il suo piano fosse approvato
finding-quiet-pending = tutti gli agenti sono diventati idle mentre la { $request } { $kind } da { $requester } a { $addressee } era ancora pending: nessuno risponderà
finding-ended-pending = l'esecuzione è finita con la { $request } { $kind } per { $addressee } ancora pending
finding-approved-not-exited = { $agent } ha approvato il proprio shutdown, ma l'esecuzione è finita con lo stato { $status }, non shutdown
finding-stuck = niente può muoversi, eppure l'esecuzione non è finita: il team è bloccato
