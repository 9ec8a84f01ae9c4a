# Tour guidati (src/ui/tours.rs): titolo e introduzione di ogni tour, poi
# titolo e perché di ogni tappa. { $id } è l'id di una richiesta, { $name } un compagno.

tour-the-request = la richiesta
tour-the-teammate = il compagno

tour-without-protocols-title = Senza protocolli
tour-without-protocols-intro = Da dove parte la lezione: il lead può solo dire “per favore fermati” e sperare. Poi lo stesso team, con l'handshake di shutdown.

tour-without-protocols-1-title = Solo un messaggio: “per favore fermati”
tour-without-protocols-1-why = Il lead chiede a { $name } di fermarsi come nella lezione 9, con un semplice messaggio. Il messaggio non ha request_id e non chiede risposta, quindi nulla di ciò che torna indietro potrà esservi abbinato.
tour-without-protocols-2-title = Il lead non può saperlo
tour-without-protocols-2-why = Il turno del lead finisce senza nulla da attendere né da controllare: nessuna voce nel tracker, nessuno stato pending. { $name } si è fermato? Non ha modo di saperlo.
tour-without-protocols-3-title = { $name } legge “per favore fermati”
tour-without-protocols-3-why = { $name } legge quelle parole, ma nessun protocollo dice che cosa debba fare di conseguenza, e nessuna risposta è attesa. Continua a lavorare, e il lead non viene informato in nessun caso.
tour-without-protocols-4-title = { $name } non si è fermato
tour-without-protocols-4-why = { $name } ha finito il suo lavoro ed è idle — ancora nel suo ciclo, pronto a svegliarsi al prossimo messaggio. “Per favore fermati” non ha cambiato nulla, e nessuno l'ha detto al lead.
tour-without-protocols-5-title = Con l'handshake: un request_id
tour-without-protocols-5-why = Ora il lead chiama shutdown_request: il tracker registra { $id } per { $name } come pending, e il messaggio porta { $id }. Qualunque cosa { $name } risponda nominerà { $id }, così il lead può abbinarla.
tour-without-protocols-6-title = Una risposta che nomina la sua richiesta
tour-without-protocols-6-why = { $name } risponde con una shutdown_response per { $id }. È la conferma che il messaggio semplice non potrebbe mai avere.
tour-without-protocols-7-title = Il lead lo sa con certezza
tour-without-protocols-7-why = Il tracker dice che { $id } è approved e config.json dice che { $name } è shutdown: { $name } ha confermato, ha finito il suo turno ed è uscito dal ciclo. Stesso team, stessa richiesta di fermarsi — la differenza è il protocollo.

tour-shutdown-title = Shutdown ordinato
tour-shutdown-intro = L'handshake di shutdown dalla richiesta alla conferma: perché un request_id, e perché alice finisce il suo turno prima di uscire.

tour-shutdown-1-title = Perché un request_id
tour-shutdown-1-why = La richiesta riceve un suo id, { $id }, ed entra in shutdown_requests come pending. Un semplice “sì” potrebbe rispondere a qualsiasi cosa; una risposta che porta { $id } risponde esattamente a questa richiesta, per quante ce ne siano in volo.
tour-shutdown-2-title = Chiedere non è fermarsi
tour-shutdown-2-why = { $name } legge la richiesta solo al giro successivo del suo ciclo, prima della prossima chiamata al modello. Finché { $name } non risponde, { $id } resta pending: il lead ha chiesto, e niente si è ancora fermato.
tour-shutdown-3-title = L'ultimo turno
tour-shutdown-3-why = Questa è l'ultima chiamata al modello di { $name }. Lo shutdown è gestito dentro un turno normale: { $name } risponde, la chiamata allo strumento si completa, e solo allora il ciclo finisce.
tour-shutdown-4-title = pending → approved, una volta sola
tour-shutdown-4-why = { $name } approva { $id }: l'unica FSM passa da pending ad approved. approved è terminale; nessuna risposta successiva può cambiarlo.
tour-shutdown-5-title = Perché finire il turno prima di uscire
tour-shutdown-5-why = Solo dopo aver inviato la risposta { $name } esce dal suo ciclo (working → shutdown in config.json). È questa la parte ordinata: il compagno finisce il lavoro in corso invece di essere interrotto a metà, come accadrebbe uccidendo il suo thread.
tour-shutdown-6-title = Abbinata tramite request_id
tour-shutdown-6-why = Il lead legge la shutdown_response per { $id } e trova { $id } nel suo tracker: sa con certezza che { $name } ha confermato — la conferma che un semplice “per favore fermati” non ottiene mai.

tour-list-after-shutdown-title = Stato dopo lo shutdown
tour-list-after-shutdown-intro = Cosa lascia un handshake concluso: una richiesta approvata nel tracker e uno stato in config.json.

tour-list-after-shutdown-1-title = L'handshake si completa
tour-list-after-shutdown-1-why = { $name } approva { $id }. Il tracker ora contiene ciò che è stato concordato; config.json sta per contenere ciò che è successo.
tour-list-after-shutdown-2-title = Registrato in config.json
tour-list-after-shutdown-2-why = Lo stato di { $name } diventa shutdown nel roster, il config.json della lezione. Chiunque può leggerlo più tardi senza chiedere a { $name }, che non legge più messaggi.
tour-list-after-shutdown-3-title = Più tardi, un nuovo prompt
tour-list-after-shutdown-3-why = L'utente chiede al lead lo stato del team. È lo stesso team: i tracker e il roster sopravvivono al prompt che li ha riempiti.
tour-list-after-shutdown-4-title = Stato dopo l'approvazione dello shutdown
tour-list-after-shutdown-4-why = list_teammates legge config.json: { $name } è shutdown. Il lead può fidarsene perché il valore è stato scritto quando { $name } è uscito dal ciclo dopo aver approvato, non dedotto dal silenzio.

tour-reject-plan-title = Rifiutare un piano rischioso
tour-reject-plan-intro = Approvazione piano: lo stesso pattern del request_id al contrario, e un gate che il runtime tiene chiuso finché un piano non è approvato.

tour-reject-plan-1-title = Modalità piano: un gate gestito dal runtime
tour-reject-plan-1-why = { $name } viene creato in modalità piano. Il gate è imposto dal runtime, non solo dal prompt: finché un piano di { $name } non è approvato, write_file ed edit_file restituiscono un errore, quindi nemmeno un modello che ignora le istruzioni può modificare il workspace.
tour-reject-plan-2-title = Lo stesso pattern, al contrario
tour-reject-plan-2-why = { $name } sottopone un piano: plan_requests riceve { $id }, pending, e il piano viaggia verso il lead portando { $id }. È l'handshake di shutdown rovesciato: il compagno chiede, il lead risponde.
tour-reject-plan-3-title = Rifiutato, con feedback
tour-reject-plan-3-why = Il lead rifiuta { $id } e dice perché. rejected è terminale: { $name } non può riportare { $id } a pending, quindi per andare avanti lo rivede e lo sottopone di nuovo.
tour-reject-plan-4-title = Un nuovo piano, un nuovo request_id
tour-reject-plan-4-why = Il piano rivisto è una nuova richiesta, { $id }. Quella rifiutata resta rejected nel tracker, così ogni verdetto resta legato al piano a cui si riferiva.
tour-reject-plan-5-title = Il gate si apre
tour-reject-plan-5-why = Il lead approva { $id }. Da ora il runtime lascia che { $name } modifichi i file, perché il tracker dice approved.
tour-reject-plan-6-title = Ora la scrittura passa
tour-reject-plan-6-why = La scrittura di { $name } riesce: il runtime ha verificato che un piano di { $name } è approvato. Prima che { $id } fosse approvato, la stessa chiamata sarebbe stata rifiutata.

tour-approve-plan-title = Approvare un piano
tour-approve-plan-intro = Un piano sottoposto, rivisto e approvato — e perché è il runtime, non il prompt, a decidere quando charlie può scrivere.

tour-approve-plan-1-title = Perché è il runtime a gestire il gate
tour-approve-plan-1-why = { $name } lavora in modalità piano. Un prompt può solo chiedere a un modello di aspettare l'approvazione; qui è il runtime stesso a rifiutare le modifiche al workspace finché il tracker non contiene un piano approvato di { $name }.
tour-approve-plan-2-title = Il piano riceve un request_id
tour-approve-plan-2-why = Il piano di { $name } diventa la richiesta { $id } in plan_requests, pending. Il verdetto del lead porterà { $id }, così { $name } sa di quale piano si tratta.
tour-approve-plan-3-title = Aspettare, non lavorare
tour-approve-plan-3-why = Con { $id } pending non c'è nulla che { $name } possa fare: diventa idle. La plan_approval_response del lead lo sveglierà.
tour-approve-plan-4-title = Il lead rivede
tour-approve-plan-4-why = Il piano arriva nell'inbox del lead come plan_approval_request con { $id }; il lead risponde con plan_approval nominando { $id }. (La lezione invia i piani come plan_approval_response, un errore di nome corretto qui.)
tour-approve-plan-5-title = Approvato
tour-approve-plan-5-why = Il lead approva { $id }: pending → approved in plan_requests, e la risposta torna a { $name } con lo stesso id.
tour-approve-plan-6-title = Il runtime lo lascia passare
tour-approve-plan-6-why = { $name } scrive il suo file, e la scrittura riesce perché il runtime ha trovato nel tracker il piano approvato di { $name } — non perché un prompt gli abbia detto che poteva farlo.

tour-reject-then-accept-title = Compagno impegnato: rifiuta, poi approva
tour-reject-then-accept-intro = Un compagno può dire di no. Perché allora il lead chiede con una nuova richiesta invece di una seconda risposta alla vecchia.

tour-reject-then-accept-1-title = Chiesto a metà lavoro
tour-reject-then-accept-1-why = Il lead chiede a { $name } di spegnersi ({ $id }) mentre { $name } ha ancora file da migrare. Uno shutdown ordinato è una richiesta, non un ordine: { $name } può dire di no.
tour-reject-then-accept-2-title = No — con una ragione
tour-reject-then-accept-2-why = { $name } rifiuta { $id }, dà la sua ragione e continua a lavorare. Il lead scopre che { $name } è occupato e perché; un semplice “per favore fermati” non gli avrebbe detto nulla.
tour-reject-then-accept-3-title = Perché una seconda risposta viene rifiutata
tour-reject-then-accept-3-why = Il lead chiede di nuovo con una nuova richiesta, { $id }. La prima resta rejected: gli stati terminali sono definitivi, quindi una seconda risposta verrebbe rifiutata con un errore (il codice della lezione la sovrascriverebbe in silenzio).
tour-reject-then-accept-4-title = L'ultimo turno
tour-reject-then-accept-4-why = L'ultima chiamata al modello di { $name }: ha appena letto la nuova richiesta e risponde in questo turno. La chiamata allo strumento si completa prima che il ciclo finisca, quindi niente resta scritto a metà.
tour-reject-then-accept-5-title = approved, stavolta
tour-reject-then-accept-5-why = { $name } approva { $id }: il suo lavoro è finito, quindi ora fermarsi è sicuro. Il tracker conserva entrambe le richieste, una rejected e una approved.
tour-reject-then-accept-6-title = Poi esce
tour-reject-then-accept-6-why = Inviata la risposta, { $name } esce dal suo ciclo: working → shutdown. Il compagno ha finito il suo turno prima di uscire.

tour-out-of-order-title = Due richieste, risposte fuori ordine
tour-out-of-order-intro = Due richieste in volo, con risposte nell'ordine inverso — e ogni risposta arriva comunque alla sua richiesta.

tour-out-of-order-1-title = Due richieste in volo: la prima
tour-out-of-order-1-why = Il lead chiede prima a { $name }, con la richiesta { $id }, e non aspetta la risposta prima di chiedere al compagno successivo.
tour-out-of-order-2-title = …e la seconda
tour-out-of-order-2-why = Poi a { $name }, con la richiesta { $id }. Due richieste di shutdown sono pending insieme, quindi ogni risposta deve dire a quale richiesta risponde.
tour-out-of-order-3-title = Una risposta fuori ordine
tour-out-of-order-3-why = { $name } risponde per primo a { $id }, anche se è stato interpellato per secondo: l'altro compagno sta ancora finendo il suo lavoro. L'ordine in cui arrivano le risposte non dice nulla sulla richiesta a cui appartengono.
tour-out-of-order-4-title = Abbinata tramite request_id, non per ordine
tour-out-of-order-4-why = Il lead cerca { $id } in shutdown_requests e trova la voce di { $name }. Se abbinasse le risposte per ordine di arrivo, l'avrebbe presa per la risposta del primo compagno.
tour-out-of-order-5-title = L'altra risposta, più tardi
tour-out-of-order-5-why = { $name } risponde a { $id } per ultimo, dopo aver finito il suo lavoro. Arriva comunque alla voce giusta: decide l'id, non l'ordine.
tour-out-of-order-6-title = Entrambi gli handshake conclusi
tour-out-of-order-6-why = Anche { $name } esce dal suo ciclo. Entrambe le richieste sono approvate, ognuna abbinata al proprio compagno tramite il suo request_id.
