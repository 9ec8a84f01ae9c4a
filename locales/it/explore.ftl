# Il pannello Esplora, la scheda del risultato, le biforcazioni, la galleria
# dei guasti reali e le regole protettive (src/ui/explore_*.rs, src/ui/fork_view.rs).
# Nomi delle proprietà (no_answer_lost…), nomi delle regole (incarnation_binding…),
# always/sometimes/eventually, tipi di guasto, nomi degli agenti, ID delle
# richieste e riferimenti alle issue non si traducono.

## Il pannello
explore-title = Esplora ogni esecuzione
explore-intro = Un model checker: prova ogni ordine in cui gli agenti agiscono, ogni decisione che il protocollo permette loro e ogni guasto fino al limite, e giudica ogni esecuzione. Ogni proprietà violata arriva con l'esecuzione che la viola con meno guasti e, tra queste, la più breve.
explore-scenario = Scenario
explore-scenario-label = Scenario da esplorare
explore-faults-per-run = Guasti per esecuzione
explore-fault-kinds = Tipi di guasto
explore-depth = Limite di profondità
explore-decisions = Decisioni fuori copione
explore-decisions-label = Decisioni fuori copione per esecuzione
explore-withhold = Le risposte possono essere trattenute
explore-search = Ricerca
explore-search-label = Strategia di ricerca
explore-bfs = in ampiezza (esempi più brevi)
explore-dfs = in profondità
explore-simulate = esecuzioni casuali (2.000)
explore-workers = Worker
explore-workers-all-cores = { $count } worker occupano tutti i core di questo dispositivo: durante la ricerca la pagina può rispondere più lentamente.
explore-start = Avvia
explore-stop = Ferma
explore-fork-on-screen = Biforca questa esecuzione
explore-faults-not-whole = il numero di guasti deve essere un numero intero
explore-depth-not-whole = il limite di profondità deve essere un numero intero
explore-decisions-not-whole = il limite di decisioni deve essere un numero intero

## Contatori e stato
explore-state-running = Ricerca in corso… { $done } worker su { $count } hanno finito
explore-state-shrinking = Riduzione degli esempi al minimo di guasti: nuova ricerca (limite: { $faults })… { $done } worker su { $count } hanno finito
explore-state-done = Fatto: ogni esecuzione entro i limiti è stata esplorata.
explore-state-done-cut = Fatto, ma il limite di profondità o di stati ha interrotto la ricerca: un verdetto ignoto significa che nella parte esplorata non c'è alcun esempio.
explore-state-stopped = Fermato: i worker sono stati terminati; nessun verdetto.
explore-state-failed = La ricerca è fallita: { $error }
explore-progress = Avanzamento della ricerca
explore-counter-states = stati
explore-counter-rate = stati/s
explore-counter-distinct = distinti
explore-counter-depth = profondità
explore-counter-frontier = frontiera
explore-counter-seconds = secondi

## Verdetti
explore-outcomes = { $runs } esecuzioni finiscono in { $count } modi distinti.
explore-verdicts = Verdetti delle proprietà
verdict-holds = vale
verdict-fails = fallisce
verdict-unknown = ignoto
explore-counterexample = controesempio
explore-witness = testimone
explore-faults = { $count ->
    [0] nessun guasto
    [one] 1 guasto
   *[other] { $count } guasti
}
explore-open-example = Apri { $kind }
explore-open-example-label = Apri { $kind } di { $property } ({ $choices } scelte, { $faults })
explore-which-properties = Quali proprietà elencare

## La scheda del risultato
explore-broken-title = Violata: { $property }
explore-shown-title = Mostrata: sometimes { $property }
explore-finding-text = Cosa è successo: { $detail }. La proprietà: { $statement } L'esecuzione più breve trovata conta { $choices } scelte e { $faults }.
explore-reported-as = Segnalato come { $issues } per uno strumento di team di agenti usato in produzione.
explore-not-found-on-rebuilt = L'esecuzione è stata ricostruita, ma questa versione non vi trova la proprietà violata
explore-marked = L'evento in cui accade, #{ $seq }, è sotto il cursore.
explore-path-summary = Le { $count } scelte dell'esecuzione (biforcane una qualsiasi)
explore-link = Link a questa esecuzione
explore-copy-link = Copia il link
explore-on-screen-title = Questa esecuzione come percorso dell'esploratore: { $count } scelte
explore-on-screen-text = Ogni passo qui sotto è una scelta fatta dall'esecuzione: chi ha agito dopo, o cosa ha risposto un modello. Biforcane una qualsiasi per prendere un altro ramo e vedere le due esecuzioni affiancate.

## Le scelte di un'esecuzione
choice-turn = tocca a { $agent }
choice-turn-fault = tocca a { $agent }, e il suo messaggio subisce { $fault }
choice-reply = modello di { $agent }: { $label }
choice-expire = la richiesta { $request } scade senza risposta (la sua scadenza passa)

## Errori nel banner
explore-not-started = { $error }. La ricerca non è partita
explore-err-scenario = nessuno scenario '{ $id }' si può esplorare
explore-err-workers = { $count } worker: scegli da 1 a { $max }
explore-err-faults = { $count } guasti per esecuzione: scegli da 0 a { $max }
explore-err-no-fault-kind = i guasti sono ammessi ma nessun tipo è spuntato: spunta drop, duplicate, delay o reorder, oppure imposta i guasti a 0
explore-err-zero = { $bound } deve essere almeno 1
explore-err-too-large = { $bound } è { $count }: scegli al massimo { $max }
explore-bound-depth = il limite di profondità
explore-bound-states = il limite di stati
explore-bound-decisions = il limite di decisioni fuori copione
explore-bound-runs = il numero di esecuzioni casuali
explore-err-bad-message = un worker ha inviato un messaggio che non si può leggere: { $error }
explore-link-not-rebuilt = non è stato possibile ricostruire l'esecuzione di questo link: { $error }. L'esecuzione sullo schermo non cambia
explore-link-bad-settings = le impostazioni dell'esploratore nel link non sono valide: { $error }
explore-fork-no-snapshot = si può biforcare solo un'esecuzione di uno scenario sul modello scriptato; questa è stata importata o non ha traccia di come è iniziata
explore-fork-not-reproducible = si può biforcare solo un'esecuzione intatta di uno scenario sul modello scriptato (nessun altro modello, niente a mano)
explore-fork-file-run = si può biforcare solo un'esecuzione intatta del team di un file di protocollo sul modello scriptato (i prompt del team, niente a mano, nessun altro modello): premi Esegui il team nella vista Protocolli e biforca quell'esecuzione
explore-fork-fault-rules = un'esecuzione con regole di guasto non si può biforcare: l'esploratore colloca i guasti da solo (imposta Guasti per esecuzione in Esplora)
explore-fork-failed = non è stato possibile portare a termine la biforcazione: { $error }

## Biforcazioni
fork-button = Biforca…
fork-at-label = Biforca alla scelta { $n }: { $choice }
fork-none-open = Qui non c'era nessun'altra scelta aperta.
fork-others-label = Altre scelte al passo { $n }
fork-instead = Invece: { $choice }
fork-title = Biforcazione alla scelta { $n }
fork-summary = Originale: “{ $original }”. Ramo: “{ $branch }”. { $summary }
fork-share = Condividono { $count } eventi, poi si separano.
fork-same = Le due esecuzioni sono uguali: questa scelta non cambia nulla di ciò che viene registrato.
fork-table-caption = L'esecuzione originale e il ramo, evento per evento, allineati per richiesta
fork-original = Originale
fork-branch = Ramo
fork-no-counterpart = nessuna controparte
fork-mark-header = Differenza
fork-first-difference = prima differenza ▶
fork-open-original = Apri l'originale sul diagramma
fork-open-branch = Apri il ramo sul diagramma
fork-side-original = l'originale
fork-side-branch = il ramo
fork-side-title = Biforcazione alla scelta { $n }: { $side }
fork-side-text = Alla scelta { $n } { $side } ha preso “{ $choice }”. Il cursore è sul primo evento in cui le due esecuzioni differiscono.

## La galleria dei guasti reali
gallery-title = Galleria di guasti reali
gallery-intro = Guasti segnalati nei team di agenti di Claude Code, riprodotti qui con la regola che li previene disattivata. Ricrea trova l'esecuzione più breve; poi attiva la regola per vedere che cosa succede invece.
gallery-breaks = Viola:
gallery-reproduce = Ricrea
gallery-rule-on = Regola attiva:
gallery-rule-summary = La regola che lo previene
gallery-reproduced-title = Riprodotto: { $title }
gallery-prevented-title = Prevenuto: { $title }
gallery-prevented-text = Con la regola { $rule } attiva, le stesse scelte non violano più { $property }. { $description } Segue nel pannello Esplora una ricerca di ogni esecuzione con la regola attiva.
gallery-not-reproduced = la ricerca non ha riprodotto “{ $title }” entro i suoi limiti
gallery-rule-on-failed = non è stato possibile riprodurre l'esecuzione con la regola attiva: { $error }

## Voci della galleria e regole protettive
gallery-stale-shutdown-after-respawn-title = Una richiesta di shutdown scaduta spegne un compagno rigenerato
gallery-stale-shutdown-after-respawn-caption = Segnalato: una richiesta di shutdown inviata a un compagno era ancora senza risposta quando il compagno è stato rigenerato, e il nuovo compagno ha letto la vecchia richiesta e si è spento. La richiesta era indirizzata a un'esecuzione che non esisteva più, e un'altra esecuzione le ha risposto: questo viola “nessuna risposta attraversa un riavvio”. Qui alice trattiene la sua risposta, il lead la genera di nuovo, e alice riavviata trova la vecchia richiesta e la approva.
gallery-acting-after-approving-shutdown-title = Un compagno continua ad agire dopo aver approvato il proprio shutdown
gallery-acting-after-approving-shutdown-caption = Segnalato: dei compagni hanno approvato una richiesta di shutdown e poi non sono terminati; sono rimasti vivi e hanno continuato a prendere turni. Approvare uno shutdown è una promessa di fermarsi: questo viola “un compagno che ha approvato il proprio shutdown non fa nuove chiamate al modello” (e, alla fine, “ogni shutdown approvato arriva allo shutdown”). Qui alice approva la richiesta del lead e, senza nulla che la faccia uscire dal suo ciclo, chiama di nuovo il suo modello.
gallery-lead-answers-its-own-request-title = Il lead approva una richiesta di shutdown che ha inviato lui
gallery-lead-answers-its-own-request-caption = Segnalato: una richiesta di shutdown ha finito per ricevere risposta dal lead invece che dal compagno a cui era destinata, e il lead ha approvato la propria terminazione. Solo l'agente a cui una richiesta è indirizzata può rispondere: questo viola “risponde solo il destinatario”. Qui il lead chiede ad alice di spegnersi, poi risponde lui stesso a quella richiesta invece di aspettare alice.
gallery-shutdown-never-answered-title = Una richiesta di shutdown non riceve mai risposta
gallery-shutdown-never-answered-caption = Segnalato: un compagno ha finito il suo lavoro ed è rimasto inattivo; la richiesta di shutdown del lead gli è arrivata, ma non ha mai risposto, e il team è rimasto inattivo con la richiesta pending (a volte, non sempre). Questo viola “nessuna esecuzione si ferma in silenzio mentre una richiesta è pending”. Qui alice finisce e resta inattiva prima che arrivi la richiesta del lead; nulla la sveglia per leggerla, così tutti restano in silenzio ad aspettare.
rule-incarnation_binding-description = Ogni richiesta registra l'incarnazione del suo destinatario al momento in cui viene fatta, e il team rifiuta una risposta da un'incarnazione successiva come richiesta scaduta (TeamState::check_answer in src/protocol/team.rs).
rule-addressee_only-description = Il tracker accetta una risposta solo dall'agente a cui la richiesta è indirizzata e rifiuta quella di chiunque altro (Tracker::check_answer in src/protocol/tracker.rs).
rule-exit_after_approval-description = Un compagno che ha approvato il proprio shutdown (o per cui qualcuno l'ha approvato a mano) finisce il turno in cui si trova e poi esce dal suo ciclo invece di chiamare di nuovo il modello (teammate_after e teammate_leaves in src/runtime/loops.rs).
rule-wake_on_message-description = Un messaggio che arriva a un compagno inattivo lo sveglia, e lui svuota la sua inbox prima della prossima chiamata al modello, così una richiesta inviata a un compagno inattivo viene letta e riceve risposta (World::wake in src/runtime/world.rs).

## Cosa dice ogni proprietà
property-no_answer_to_unknown_request = Nessuna risposta nomina un request_id che nessuno ha creato.
property-no_second_answer = Nessuna richiesta riceve risposta due volte: una volta approvata o rifiutata, resta così.
property-only_the_addressee_answers = Solo l'agente a cui una richiesta è indirizzata le risponde.
property-no_answer_across_restart = Nessuna risposta attraversa un riavvio: a una richiesta indirizzata a un'esecuzione precedente di un compagno non risponde mai quella nuova.
property-no_request_across_restart = Nessuna richiesta attraversa un riavvio: un compagno avviato di nuovo non legge mai una richiesta indirizzata alla sua esecuzione precedente (incarnation_binding ne rifiuta la risposta, ma la richiesta non dovrebbe proprio arrivargli).
property-no_message_to_exited_teammate = Nessuno invia un messaggio a un compagno che si è spento.
property-no_answer_lost = Nessuna risposta registrata dal tracker si perde lungo la strada verso chi ha fatto la richiesta.
property-no_duplicate_delivered = Nessuna risposta viene letta due volte.
property-no_action_after_shutdown_approved = Un compagno che ha approvato il proprio shutdown non fa nuove chiamate al modello: finisce il turno, poi esce dal suo ciclo.
property-no_work_before_plan_approval = Un compagno in modalità piano non modifica alcun file prima che il suo piano sia approvato.
property-every_request_has_a_responder = Ogni richiesta è indirizzata a qualcuno che ha lo strumento per rispondere.
property-some_request_approved = Qualche esecuzione arriva a una richiesta approvata.
property-some_request_rejected = Qualche esecuzione arriva a una richiesta rifiutata.
property-requests_settle = Ogni richiesta si risolve: finisce approvata o rifiutata, mai pending.
property-approved_shutdowns_exit = Ogni compagno che ha approvato il proprio shutdown arriva allo shutdown.
property-no_quiet_while_pending = Nessuna esecuzione si ferma in silenzio — tutti gli agenti inattivi — mentre una richiesta è ancora pending.
property-runs_end = Ogni esecuzione finisce: nessuno stato in cui nulla può muoversi mentre l'esecuzione è ancora in corso.
property-no_gated_tool_while_closed = Nessuno strumento protetto da un gate viene eseguito mentre quel gate è chiuso: il runtime lo rifiuta finché un protocollo non apre il gate.
property-no_answer_after_expiry = Nessuna richiesta riceve risposta dopo la sua scadenza: una richiesta scaduta è rifiutata e nessuno vi risponde.

## Scenarios only the explorer lists (their titles, looked up as scenario-<id>-title like the others)
scenario-without-protocols-title = Senza protocolli, poi con
scenario-twins-title = Gemelli: due programmatori, entrambi spenti
scenario-respawn-title = Rigenerazione: ad alice si chiede di spegnersi, poi viene generata di nuovo
explore-err-file = il team del file di protocollo non si può esplorare: { $error }
explore-file-team = { $name } (il tuo file)
explore-file-broken-title = La proprietà del file { $property } si rompe in questa esecuzione
explore-file-shown-title = La proprietà del file { $property } accade in questa esecuzione
explore-file-finding-text = { $detail } ({ $faults }, { $count } scelte.)
explore-file-verdicts = Le proprietà del file
explore-capped-answers = Il protocollo '{ $name }' ha { $count } risposte (approva o rifiuta × ogni campo enum della sua risposta): l'esploratore ne prova al massimo { $cap } per risposta oltre a quella del copione, prima quelle con meno cambiamenti, quindi una ricerca con questo file ne copre solo una parte.
gallery-files-title = File di protocollo che rispondono
gallery-files-intro = Protocolli scritti come file (aprili nella vista Protocolli): ognuno esegue il suo team sul diagramma e lo esplora con un clic.
gallery-file-breaks = La ricerca rompe:
gallery-file-holds = La ricerca mostra che vale:
gallery-file-show = Esegui ed esplora
gallery-file-show-label = Esegui ed esplora: { $title }
gallery-file-deadline-retry-title = Una risposta di arresto persa lascia la richiesta in sospeso per sempre
gallery-file-deadline-retry-caption = Segnalato: una richiesta di arresto non ha mai avuto risposta e il team è rimasto inattivo con la richiesta in sospeso. Nel protocollo della lezione una risposta persa fa proprio questo. Questo file dà alla richiesta una scadenza e un nuovo tentativo: il suo team perde ogni risposta, e la ricerca (un messaggio perso in più per esecuzione) mostra che "every_shutdown_settles" vale in ogni esecuzione: senza risposta, la richiesta scade e viene ripetuta.
gallery-file-permission-no-responder-title = Una richiesta di permesso a cui nessuno può rispondere
gallery-file-permission-no-responder-caption = Segnalato: un compagno di team doveva chiedere il permesso prima di modificare, ma niente poteva concederlo, e la richiesta è rimasta in sospeso per sempre. Il caricatore rifiuta un protocollo così (responder_required); questo file spegne quella regola, e la ricerca trova l'esecuzione in cui carol chiede e tutti tacciono mentre la sua richiesta è in sospeso: rompe "nessuna esecuzione tace mentre una richiesta è in sospeso".
gallery-file-task-claim-title = Due compagni di team possiedono lo stesso compito
gallery-file-task-claim-caption = Segnalato in molti team: due agenti credevano entrambi che un compito fosse loro e hanno fatto lo stesso lavoro. Qui ann e ben chiedono compiti al lead; niente nel protocollo di richiesta rifiuta una seconda approvazione, quindi la proprietà "one_owner_per_task" dipende dal lead. La ricerca lascia che il lead esca una volta dal copione e trova l'esecuzione in cui approva anche la richiesta del parser di ben.
