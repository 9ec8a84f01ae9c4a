# Didascalie: ogni passo di un'esecuzione con le parole della lezione (src/ui/captions.rs).
# Gli identificatori del protocollo (tipi di messaggio, nomi degli strumenti,
# request_id, pending, approved, rejected, nomi dei campi) restano come sono.

quote = “{ $text }”
list-sep = {", "}
list-and = { $init } e { $last }
who-lead = il lead
who-lead-start = Il lead
whose-lead = del lead
whose-lead-start = del lead
whose-name = di { $name }

cap-said = { $field }: “{ $text }”.
cap-said-ended = { $field }: “{ $text }”
cap-no-text = (nessun testo)
cap-messages = { $count ->
    [0] nessun messaggio
    [1] un messaggio
    [2] due messaggi
    [3] tre messaggi
   *[other] { $count } messaggi
}
cap-more = altri { $messages }
cap-msg-with-id = la { $msg_type } { $id } (mittente: { $from })
cap-msg = un { $msg_type } (mittente: { $from })

cap-nothing-title = Ancora niente
cap-nothing-text = Scegli uno scenario o scrivi un prompt per il lead. Ogni passo dell'esecuzione è raccontato qui.
cap-before-title = Prima del primo evento
cap-before-text = L'esecuzione ha { $count } eventi. Premi Avanti per seguire il lead e i compagni passo dopo passo.

cap-run-started-title = Esecuzione avviata
cap-run-started-text = L'utente dà al lead un prompt: { $prompt }. Il lead avvia il suo ciclo di agente.
cap-run-finished-title = Esecuzione finita
cap-run-finished-text = Il team è fermo: nessun agente ha più un turno da fare.
cap-run-finished-quiet = Il team è fermo: nessuno lavora.
cap-run-finished-working = Il team è fermo, eppure il roster mostra ancora { $names } al lavoro.
cap-run-finished-read = Nessuna inbox contiene messaggi non letti.
cap-run-finished-inbox = { $messages } nella inbox { $whose }
cap-run-finished-unread = Ancora da leggere: { $inboxes }.
cap-run-finished-settled = Ogni richiesta ha il suo stato finale nel tracker.
cap-run-finished-pending = { $count ->
    [1] Una richiesta è ancora pending nel tracker.
   *[other] { $count } richieste sono ancora pending nel tracker.
}

cap-plan-mode = Lavora in modalità piano: il runtime blocca l'esecuzione con un gate — { $name } deve farsi approvare un piano dal lead prima di modificare il workspace.
cap-restarts-title = { $name } riparte
cap-restarts-text = Il lead avvia di nuovo { $name } come { $role }: una nuova esecuzione del suo ciclo (una nuova incarnazione). Alle richieste rivolte all'esecuzione precedente non può più rispondere.
cap-spawned-title = { $name } creato
cap-spawned-text = Il lead crea { $name } come { $role }; { $name } passa a working e riceve una propria inbox.

cap-status-shutdown-title = { $name } si spegne
cap-status-shutdown-text = { $name } esce dal suo ciclo: stato { $from } → shutdown. La sua linea di vita finisce (×); da ora in poi nessun messaggio inviato a { $name } verrà letto.
cap-status-idle-title = { $name } idle
cap-status-idle-text = { $name } non ha più niente da fare in questo turno: { $from } → idle. Aspetta che un messaggio nella sua inbox lo svegli.
cap-status-working-title = { $name } working
cap-status-working-text = { $name } ha di nuovo lavoro: { $from } → working.

cap-inbox-title = Inbox letta
cap-inbox-one = , { $item }
cap-inbox-many = {" "}— { $items }
cap-inbox-text = { $who_start } legge l'inbox: { $messages }{ $what }. L'inbox è di nuovo vuota.
cap-inbox-text-lead = { $who_start } legge la propria inbox: { $messages }{ $what }. L'inbox è di nuovo vuota.
cap-inbox-next = { $who_start } gestisce ciascun messaggio in base al suo request_id.

cap-shutdown-requested-title = Shutdown richiesto
cap-shutdown-requested-text = { $who_start } chiede a { $addressee } di spegnersi. La richiesta { $id } viene creata ed è pending finché { $addressee } non risponde: shutdown_requests[{ $id }] = {"{"}target: { $addressee }, status: pending{"}"}.
cap-plan-submitted-title = Piano inviato
cap-plan-submitted-text = { $requester } sottopone un piano per l'approvazione: { $plan }. La richiesta { $id } è pending finché { $reviewer } non lo rivede; fino ad allora { $requester } non deve eseguire il piano.

cap-moved = il tracker la sposta { $from } → { $to }
cap-shutdown-approved-title = Shutdown approvato
cap-shutdown-approved-text = { $by_start } approva { $id }: { $moved }. { $by_start } finisce questo turno, poi esce dal suo ciclo.
cap-shutdown-rejected-title = Shutdown rifiutato
cap-shutdown-rejected-text = { $by_start } rifiuta { $id }: { $moved }. { $by_start } continua a lavorare; il lead può chiedere di nuovo con una nuova richiesta.
cap-plan-approved-title = Piano approvato
cap-plan-approved-text = { $by_start } approva il piano { $id } { $whose }: { $moved }. Il gate si apre: { $requester } ora può eseguire il piano.
cap-plan-approved-text-anon = { $by_start } approva il piano { $id }: { $moved }. Il compagno ora può procedere.
cap-plan-rejected-title = Piano rifiutato
cap-plan-rejected-text = { $by_start } rifiuta il piano { $id } { $whose }: { $moved }. { $requester } non deve eseguirlo; può rivederlo e sottoporre un nuovo piano.
cap-plan-rejected-text-anon = { $by_start } rifiuta il piano { $id }: { $moved }. Il compagno non deve eseguirlo.
cap-stale-transition = Attenzione: { $id } era rivolta all'esecuzione precedente { $whose }, prima del riavvio — una risposta obsoleta.

cap-model-called-title = Modello chiamato
cap-model-called-text = { $who_start } chiama il suo modello con la conversazione fin qui e aspetta la risposta (la barra di attivazione sulla sua linea di vita).
cap-model-replied-title = Il modello risponde
cap-model-replied-text = Il modello { $whose_start } risponde ({ $tokens } token, { $stop_reason }): { $next }.
cap-model-next-tools = chiede di chiamare degli strumenti, che il ciclo esegue subito dopo
cap-model-next-end = il suo turno finisce
cap-model-says = Dice: { $quote }.
cap-model-failed-title = Chiamata al modello fallita
cap-model-failed-text = La chiamata al modello { $whose_start } è fallita: { $error }. { $who_start } interrompe questo turno.

cap-tool-refused-title = Strumento rifiutato
cap-tool-refused-text = Il runtime rifiuta la chiamata a { $tool } { $whose }: { $output }. Il modello legge l'errore e può riprovare.
cap-tool-returned-title = Strumento eseguito
cap-tool-returned-text = La chiamata a { $tool } { $whose_start } restituisce: { $output }.

cap-fault-rule = La regola di guasto { $rule }
cap-fault-rule-any = Una regola di guasto
cap-fault-dropped-title = Guasto: scartato
cap-fault-dropped-text = { $by } scarta { $what } in viaggio verso { $to }: non arriverà mai nell'inbox { $whose_to } (×).
cap-fault-dropped-response = Il tracker è cambiato, ma chi ha fatto la richiesta non saprà mai la risposta.
cap-fault-delayed-title = Guasto: ritardato
cap-fault-delayed-text = { $by } trattiene { $what } sul bus per { $ms } ms; arriverà più tardi nell'inbox { $whose_to }.
cap-fault-duplicated-title = Guasto: duplicato
cap-fault-duplicated-text = { $by } duplica { $what }: nell'inbox { $whose_to } ne arrivano due copie. Il request_id mostra che la copia non risponde a nulla di nuovo.
cap-fault-reordered-title = Guasto: riordinato
cap-fault-reordered-text = { $by } trattiene { $what } finché non viene consegnato il messaggio successivo per { $to }, così arriva fuori ordine. Grazie al request_id, l'abbinamento con la sua richiesta resta corretto.
cap-released-title = Messaggio trattenuto rilasciato
cap-released-text = { $what_start } arriva finalmente nell'inbox { $whose_to } (in attesa dall'evento #{ $held }). L'abbinamento avviene tramite il suo request_id, qualunque sia l'ordine.
cap-released-unknown = Il messaggio trattenuto dall'evento #{ $held } arriva nell'inbox del destinatario.

cap-sent-copy = Questa è la copia creata da un guasto di duplicazione.
cap-sent-waits = Resta nell'inbox { $whose_to } finché { $to } non la legge.
cap-stale-answer = Risponde a { $id }, rivolta all'esecuzione precedente { $whose }: una risposta obsoleta dopo un riavvio.
cap-sent-message-title = Messaggio inviato
cap-sent-message-text = { $from_start } invia un messaggio per { $to }: { $content }.
cap-sent-broadcast-title = Broadcast
cap-sent-broadcast-text = { $from_start } invia un broadcast per { $to }: { $content }.
cap-sent-shutdown-request-title = shutdown_request inviata
cap-sent-shutdown-request-text = { $from_start } invia la shutdown_request con request_id { $id } per { $to }: { $content }.
cap-sent-shutdown-response-title = shutdown_response inviata
cap-sent-shutdown-response-text = { $from_start } risponde a { $id } con una shutdown_response ({ $approve }), riferendo a quel request_id.
cap-sent-plan-request-title = plan_approval_request inviata
cap-sent-plan-request-text = { $from_start } invia il piano per { $to } come plan_approval_request con request_id { $id }.
cap-sent-plan-response-title = plan_approval_response inviata
cap-sent-plan-response-text = { $from_start } risponde al piano { $id } con una plan_approval_response ({ $approve }), riferendo a quel request_id.

cap-tool-title = Strumento: { $tool }
cap-tool-spawn = { $who_start } chiama spawn_teammate per avviare { $name } come { $role }.
cap-tool-shutdown-request = { $who_start } chiama shutdown_request per { $teammate }: l'handler creerà un request_id e invierà la richiesta.
cap-tool-shutdown-approve = { $who_start } chiama shutdown_response per approvare { $id }.
cap-tool-shutdown-reject = { $who_start } chiama shutdown_response per rifiutare { $id }.
cap-tool-shutdown-about = { $who_start } chiama shutdown_response su { $id }.
cap-tool-plan-approve = { $who_start } chiama plan_approval per approvare il piano { $id } (modalità revisione, con il request_id).
cap-tool-plan-reject = { $who_start } chiama plan_approval per rifiutare il piano { $id } (modalità revisione, con il request_id).
cap-tool-plan-submit = { $who_start } chiama plan_approval per sottoporre un piano (modalità invio, ancora nessun request_id): { $plan }.
cap-tool-read-inbox = { $who_start } chiama read_inbox per leggere i messaggi che lo aspettano.
cap-tool-send = { $who_start } chiama send_message per scrivere a { $to }.
cap-tool-broadcast = { $who_start } chiama broadcast per scrivere a ogni compagno.
cap-tool-list = { $who_start } chiama list_teammates per vedere lo stato di ogni membro in config.json.
cap-tool-file = { $who_start } chiama { $tool } su { $path }.
cap-tool-other = { $who_start } chiama lo strumento { $tool }.

# Quanto è costata una chiamata al modello. I conteggi sono token; "≈" indica la stima del modello scriptato.
cost-tokens = { $tokens } token
cost-tokens-priced = { $tokens } token · { $money }
cost-tokens-estimate = ≈{ $tokens } token (stima)
cost-in-out = { $input } in ingresso, { $output } in uscita
cost-cache = cache: { $read } letti e { $write } scritti
cost-call = Consumo: { $usage }.
cost-call-priced = Consumo: { $usage } ({ $money }).
cost-call-estimate = Consumo ≈ { $usage } (stima).
cost-protocol-share = di cui { $tokens } per gli handshake del protocollo
cap-budget-reached-title = Budget raggiunto
cap-budget-reached-text = La prossima chiamata al modello { $whose_start } potrebbe usare fino a { $expected } (il suo prompt e il max_tokens della risposta) e supererebbe il budget dell'esecuzione, { $limit } ({ $spent } spesi finora). L'esecuzione si ferma qui, come con Ferma: la chiamata non viene fatta e nessun agente prosegue.
cap-budget-unpriced-text = Il budget dell'esecuzione è di { $limit }, ma la tabella dei prezzi non ha un prezzo per questo modello, quindi il costo di una chiamata non si può stabilire. La chiamata al modello { $whose_start } non viene fatta e l'esecuzione si ferma qui.
cost-budget-banner = Il budget di { $limit } ha fermato l'esecuzione all'evento #{ $seq }, prima della prossima chiamata al modello ({ $who }; fino a { $expected }; { $spent } spesi).
cost-budget-banner-unpriced = Il budget di { $limit } ha fermato l'esecuzione all'evento #{ $seq }, prima della chiamata al modello ({ $who }): la tabella dei prezzi non ha un prezzo per questo modello.
cap-file-request-text = { $requester_start } chiede a { $addressee } con il protocollo { $protocol }: la richiesta { $id } è { $status }.
cap-file-answered-text = { $by_start } risponde alla richiesta { $protocol } { $id }: { $moved }.
cap-file-expired-text = Nessuno ha risposto alla richiesta { $protocol } { $id } entro la scadenza: { $moved } (scaduta).
