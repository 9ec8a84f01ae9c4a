# La pagina (src/ui/*.rs): intestazione, controlli, pannelli, impostazioni, finestre.

# Intestazione, cassetti, scorciatoie (src/ui/app.rs)
ui-skip-links = Collegamenti rapidi
ui-skip-controls = Vai ai controlli di riproduzione
ui-skip-diagram = Vai al diagramma
ui-skip-setup = Vai alla configurazione
ui-title = Protocolli di Team — Playground
ui-tagline = Guarda un lead e i suoi compagni negoziare lo shutdown e l'approvazione piano: una sola macchina a stati, e ogni risposta si riferisce al request_id della sua richiesta.
ui-recorded-trace = (traccia registrata)
ui-model = Modello: { $label }
ui-shortcuts = Scorciatoie da tastiera
ui-presenter = Presentazione
ui-presenter-title = Modalità presentazione: i controlli, la didascalia e il diagramma riempiono lo schermo, abbastanza grandi per una sala (P)
ui-presenter-leave-title = Esci dalla modalità presentazione (P o Esc)
ui-language = Lingua
ui-drawer-setup = Configura
ui-drawer-panels = Pannelli
ui-drawer-setup-title = Configurazione
ui-drawer-panels-title = Team e protocollo
ui-close-setup = Chiudi la configurazione
ui-close-panels = Chiudi i pannelli
ui-close = Chiudi
ui-more = Altro
ui-less = Meno
ui-said-open = Leggi per intero: { $said }
ui-said-title = { $field } nella richiesta { $id } (passo { $step })
ui-key-space = Riproduci o metti in pausa
ui-key-left = Indietro di un evento
ui-key-right = Evento successivo (in modalità Passo, alla fine: rilascia il prossimo)
ui-key-home = Primo evento
ui-key-end = Ultimo evento (segui l'esecuzione)
ui-key-updown = Nel registro eventi, nelle richieste e nelle inbox: la riga sopra o sotto (lì Home e Fine portano alla prima o all'ultima riga)
ui-key-help = Questo aiuto
ui-key-esc = Chiudi questo aiuto o un pannello laterale aperto
ui-key-esc-tour = Termina il tour guidato (mentre è in corso)
ui-key-presenter = Attiva o disattiva la modalità presentazione: solo i controlli, la didascalia e il diagramma, in grande
ui-key-esc-presenter = Esci dalla modalità presentazione (dopo aver chiuso un pannello laterale o terminato un tour)
ui-shortcuts-note = Le scorciatoie funzionano ovunque nella pagina, tranne mentre scrivi in un campo; premere Spazio su un pulsante selezionato lo attiva.
ui-model-failed = La chiamata al modello di { $agent } è fallita: { $error }. Controlla provider, chiave e URL di base nelle Impostazioni, oppure passa al modello scriptato offline; poi esegui di nuovo.
ui-dismiss = Chiudi avviso

# Link, appunti
ui-link-unknown-scenario = questo link indica uno scenario che questa versione non ha: '{ $id }'
ui-link-bad = non è stato possibile aprire questo link: { $error }. L'esecuzione sullo schermo non cambia
ui-copy-refused = Il browser ha rifiutato di copiare: seleziona il link e copialo a mano.
ui-copy-none = Qui questo browser non ha accesso agli appunti: seleziona il link e copialo a mano.
ui-copying = Copia in corso…
ui-copied = Link copiato.

# Prompt e scenari
ui-prompt-empty = Errore: prima scrivi un prompt per il lead, o scegli uno scenario
ui-prompt = Prompt
ui-prompt-label = Prompt per il lead
ui-prompt-placeholder = Spawn alice as a coder. Then request her shutdown.
ui-run-busy = Un'esecuzione è in corso: aspetta che finisca, o premi Ferma
ui-run = Esegui
ui-new-team = Nuovo team
ui-will-run = Userà: { $provider }
ui-settings-changed = {" "}· impostazioni cambiate: Esegui avvia un nuovo team
ui-fix-settings = {" "}· correggi le Impostazioni: { $why }
ui-scenarios = Scenari

# Impostazioni
ui-seed-bad = il seed '{ $seed }' non è un numero intero da 0 a 18446744073709551615
ui-max-tokens-bad = i token massimi devono essere un numero intero da 1 a { $limit }, non '{ $value }'
ui-settings = Impostazioni
ui-provider = Provider
ui-scripted-note = Il modello scriptato gira offline in questa scheda: una politica a regole che recita gli scenari e reagisce a ciò che accade. Non è un modello linguistico.
ui-provider-note = Le richieste vanno da questa scheda direttamente al server. La chiave resta in memoria a meno che tu non spunti la casella; non finisce mai in una traccia, un export, un log o un URL.
ui-api-key = Chiave API
ui-base-url = URL di base
ui-model-name = Modello
ui-max-tokens = Token massimi
ui-seed = Seed
ui-remember-key = Ricorda su questo dispositivo
ui-settings-note = Esegui, Nuovo team e gli scenari usano queste impostazioni come mostrate; Esegui continua il team sullo schermo solo finché non cambiano.

# Pannello traccia: export, import, condivisione, esecuzioni salvate
ui-export-failed = l'export { $format } è fallito: { $error }
ui-error = Errore: { $error }
ui-import-failed = Errore: { $error }. Non è cambiato nulla.
ui-import-unreadable = Errore: non è stato possibile leggere il file. Non è cambiato nulla.
ui-trace = Traccia
ui-export-json = Esporta JSON
ui-export-mermaid = Esporta Mermaid
ui-export-svg = Esporta SVG (questo fotogramma)
ui-export-svg-run = Esporta SVG (tutta l'esecuzione)
ui-import = Importa una traccia JSON
ui-imported-note = Stai guardando una traccia registrata: scorrila con Indietro, Avanti e il cursore; Esegui avvia un nuovo team.
ui-save-run = Salva esecuzione
ui-share-link = Link di condivisione
ui-copy = Copia
ui-clear-confirm = Eliminare tutte le esecuzioni salvate?
ui-clear-yes = Sì, elimina tutte
ui-cancel = Annulla
ui-clear-saved = Cancella esecuzioni salvate
ui-saved-runs = Esecuzioni salvate
ui-delete-saved = Elimina l'esecuzione salvata { $title }
ui-delete = Elimina

# Guasti sul bus
ui-fault-delay-bad = il ritardo '{ $value }' non è un numero intero di millisecondi
ui-fault-probability-bad = la probabilità '{ $value }' non è un numero da 0 a 1
ui-fault-not-added = { $error }. Nessuna regola aggiunta
ui-faults = Guasti sul bus
ui-faults-note = Le regole si applicano quando un team parte (Esegui dopo una modifica, Nuovo team o uno scenario). Le decisioni dipendono dal seed, così un'esecuzione con guasti si ripete identica.
ui-fault-action = Azione
ui-fault-action-label = Azione del guasto
ui-fault-delay = Ritardo (ms)
ui-fault-delay-label = Ritardo del guasto in millisecondi
ui-fault-type = Tipo di messaggio
ui-fault-type-label = Tipo di messaggio del guasto
ui-fault-from = Da
ui-fault-from-label = Mittente del guasto
ui-fault-to = A
ui-fault-to-label = Destinatario del guasto
ui-fault-probability = Probabilità
ui-fault-probability-label = Probabilità del guasto
ui-any = qualsiasi
ui-fault-add = Aggiungi regola
ui-fault-rules = Regole di guasto
ui-fault-delay-ms = ritardo { $ms } ms
ui-fault-rule = { $action } { $msg_type } da { $from } a { $to }, p={ $p }
ui-fault-any-message = qualsiasi messaggio
ui-fault-anyone = chiunque
ui-fault-remove-label = Rimuovi regola: { $rule }
ui-remove = Rimuovi

# Controlli di riproduzione
ui-controls = Controlli di riproduzione
ui-mode = Modalità
ui-live = Live
ui-step = Passo
ui-back-title = Indietro di un evento (←)
ui-back = Indietro
ui-play-title = Riproduci o metti in pausa (Spazio)
ui-pause = Pausa
ui-play = Riproduci
ui-next-title = Evento successivo (→)
ui-next = Avanti
ui-scrub = Scorri gli eventi
ui-position-title = Eventi mostrati / eventi registrati
ui-speed = Velocità
ui-speed-title = Velocità di Live e della riproduzione: 2× o 4× per andare più veloce, 0.5× o 0.25× per avere più tempo per leggere
ui-follow = Segui l'ultimo
ui-stop = Ferma
ui-next-up = Prossimo: { $events }

# Riquadro didascalia (src/ui/caption_box.rs)
ui-caption-heading = Cosa è appena successo
ui-caption-start = Inizio
ui-caption-step = Evento { $number }
ui-legend = Legenda

# Tour guidati sulla pagina (src/ui/tour_view.rs)
ui-tour-announce = Tappa { $n } di { $count } del tour: { $title }. { $text }
ui-tours = Tour guidati
ui-tours-note = Esegue uno scenario e si ferma nei momenti che contano, spiegando perché.
ui-tour-title = Tour: { $title }
ui-tour-progress = Tappa { $n } di { $count }
ui-tour-waiting = Esecuzione dello scenario… il tour parte quando finisce.
ui-tour-none = Nessuno dei momenti di questo tour è avvenuto in questa esecuzione (un altro modello o le regole di guasto hanno cambiato lo svolgimento). Termina il tour, oppure esegui di nuovo lo scenario con il modello scriptato.
ui-tour-skipped = { $missing } dei { $count } momenti del tour non sono avvenuti in questa esecuzione e sono stati saltati.
ui-tour-previous = Tappa precedente
ui-tour-next = Tappa successiva
ui-tour-end = Termina tour
ui-tour-over-title = L'esecuzione è finita
ui-tour-over = Questo era l'ultimo evento dell'esecuzione, il passo { $len }: il tour ha mostrato tutti i momenti che cerca. Ripercorri l'esecuzione con Indietro, oppure termina il tour.

# Titoli degli scenari (i prompt restano come sono)
scenario-shutdown-title = Shutdown ordinato
scenario-list-after-shutdown-title = Stato dopo lo shutdown
scenario-reject-plan-title = Rifiutare un piano rischioso
scenario-approve-plan-title = Approvare un piano
scenario-reject-then-accept-title = Compagno impegnato: rifiuta, poi approva
scenario-out-of-order-title = Due richieste, risposte fuori ordine
scenario-scale-title = Scala: 50 compagni × 20 richieste

# La prima schermata (src/ui/setup/start_card.rs) e le schede della colonna di configurazione (src/ui/shell/drawers.rs)
ui-start-title = Inizia da qui
ui-start-lead = Il lead chiede a un compagno di fermarsi. Con un semplice messaggio non può sapere se si è fermata; con un protocollo ogni richiesta riceve una risposta abbinata a essa tramite request_id.
ui-start-tour = Inizia la lezione: senza protocolli, poi con
ui-start-scenarios = Oppure esegui uno degli scenari della lezione
ui-start-tools = Esplora ogni esecuzione, inietta guasti, usa un modello reale, importa ed esporta tracce:
ui-start-tools-button = Apri gli strumenti
ui-setup-tabs = Sezioni della configurazione
ui-tab-learn = Impara
ui-tab-tools = Strumenti
ui-tools = Strumenti
ui-tools-title = Gli strumenti per chi sviluppa: esplora ogni esecuzione, guasti sul bus, provider di modelli, importa ed esporta tracce

# I prompt degli scenari come li mostra la pagina (con la chiave del primo scenario che ha il prompt; il modello riceve sempre l'inglese)
scenario-shutdown-prompt-1 = Spawn alice come coder. Poi richiedi il suo shutdown.
scenario-list-after-shutdown-prompt-2 = Elenca i compagni per vedere lo stato di alice dopo l'approvazione dello shutdown
scenario-reject-plan-prompt-1 = Spawn bob con un task di refactoring rischioso. Rivedi e rifiuta il suo piano.
scenario-approve-plan-prompt-1 = Spawn charlie, fagli sottomettere un piano, poi approvalo.
scenario-reject-then-accept-prompt-1 = Spawn dave per migrare tre file di configurazione. Richiedi il suo shutdown a metà del lavoro, poi richiedilo di nuovo quando dice di aver finito.
scenario-out-of-order-prompt-1 = Spawn erin per scrivere le note di rilascio in due parti e frank in attesa, poi richiedi entrambi gli shutdown; guarda le risposte arrivare fuori ordine.
scenario-scale-prompt-1 = Scala: spawn 50 compagni, poi richiedi lo shutdown di ognuno finché accetta; ognuno rifiuta 19 volte e approva la richiesta 20.
scenario-without-protocols-prompt-1 = Spawn alice come coder. Poi mandale un messaggio: "Hey alice, please stop."
scenario-without-protocols-prompt-2 = Ora richiedi lo shutdown di alice.
scenario-twins-prompt-1 = Spawn alice e bob, entrambi come coder. Poi richiedi entrambi gli shutdown.
scenario-respawn-prompt-2 = Spawn alice come coder.

# Pannelli (src/ui/panels.rs)
ui-check-title = Controllo del protocollo ({ $count })
ui-cut-findings = { $shown } di { $total } segnalazioni mostrate
ui-check-ok = Nessuna violazione: ogni risposta è arrivata dal destinatario di una richiesta pending e corrisponde a quella richiesta.
ui-check-at = {" "}a #{ $seq }: { $detail }
ui-team = Team
ui-lead-stopped = lead · fermato
ui-lead-role = lead
ui-plan-mode = {" "}· modalità piano
ui-requests = Richieste
ui-no-replay = Non è possibile riprodurre la traccia.
ui-no-requests = Ancora nessuna richiesta.
ui-request-filter = Trova una richiesta: id o agente
ui-request-filter-label = Trova una richiesta per id o agente
ui-cut-requests = { $shown } di { $total } richieste mostrate
ui-latency = latenza { $latency }
ui-waiting = in attesa
ui-created-at = creata a { $at } · { $latency }
ui-transition = { $from } → { $to } a { $at }, per mano di { $by }
ui-answer-label = { $field } di { $addressee } per { $id }
ui-answer-optional = { $field } (facoltativo)
ui-approve-as = Approva come { $name }
ui-reject = Rifiuta
ui-answer-form-label = Rispondi a { $id } come { $addressee }
ui-answer-required = Compila { $field }: questa risposta lo richiede.
ui-answer-whole-number = { $field } deve essere un numero intero, per esempio 3.
ui-answer-not-listed = { $field } deve essere uno tra { $values }.
ui-answer-choose = Scegli…
ui-answer-none = (nessuno)
ui-answer-not-sent = Non è stato inviato nulla. Quanto hai scritto resta:
ui-inboxes = Inbox
ui-inbox-request = { $msg_type } da { $from } [{ $id }]
ui-inbox-message = { $msg_type } da { $from }: { $content }
ui-inbox-unread = { $name } ({ $count } non letti)
ui-and-more = … e altri { $count }
ui-download-failed = non è stato possibile scaricare { $path }: { $error }
ui-workspace = Workspace
ui-no-files = Ancora nessun file.
ui-download-label = Scarica { $path }
ui-download = Scarica
ui-send-pick = Errore: scegli un mittente e un destinatario
ui-send-title = Invia un messaggio come…
ui-from = Da
ui-to = A
ui-message-text = Testo del messaggio
ui-message-placeholder = messaggio
ui-send = Invia
ui-log = Registro eventi
ui-log-raw = Mostra eventi grezzi
ui-log-label = Registro eventi, dal più recente

# Tabella dei messaggi
ui-fate-by-fault = per un guasto
ui-fate-by-rule = per la regola di guasto { $rule }
ui-fate-unread = non letto
ui-fate-read-at = letto a #{ $seq }
ui-fate-delivered = consegnato, { $read }
ui-fate-dropped = scartato { $by }
ui-fate-held = trattenuto { $by } ({ $how }), non ancora arrivato
ui-fate-released = { $how } { $by }, arrivato a #{ $at }, { $read }
ui-fate-duplicate = duplicato { $by } (questa è la copia), { $read }
ui-fate-delayed = ritardato
ui-fate-reordered = riordinato

# Il meccanismo (src/ui/machinery_view.rs)
ui-machinery = Il meccanismo
ui-machinery-intro = Una macchina a stati per entrambi i protocolli; due tracker indicizzati per request_id; il roster come config.json. Scegli una voce di un tracker per metterla sulla FSM.
ui-machinery-intro-file = Una macchina a stati per ogni protocollo del file; un tracker per protocollo, indicizzato per request_id; il roster come config.json. Scegli una voce di un tracker per metterla sulla FSM.
ui-trackers = Tracker
ui-fsm-label = L'unica macchina a stati, pending → approved | rejected, con la richiesta { $id }: { $state }
ui-fsm-label-empty = L'unica macchina a stati, pending → approved | rejected; ancora nessuna richiesta
ui-fsm-empty = Ancora nessuna richiesta: la shutdown_request del lead o il plan_approval di un compagno ne crea una, in stato pending.
ui-fsm-last = { $fsm } (la richiesta toccata per ultima)
ui-tracker-label = tracker { $name }
ui-cut-members = { $shown } di { $total } membri mostrati
ui-cut-messages = { $shown } di { $total } messaggi mostrati
ui-sentence = { $text }.
ui-messages-caption = I messaggi finora, dal più recente: { $total } al passo { $shown } di { $len }.
ui-col-seq = N.
ui-col-time = Tempo
ui-col-from = Da
ui-col-to = A
ui-col-type = Tipo
ui-col-said = Cosa è stato detto
ui-col-fate = Esito
ui-no-messages = Ancora nessun messaggio.

# Il diagramma (src/ui/diagram_view.rs)
ui-diagram-label = Diagramma di sequenza: { $agents } agenti, { $messages } messaggi, { $requests } richieste; { $shown } di { $len } eventi mostrati
ui-zoom-out = Riduci
ui-zoom-in = Ingrandisci
ui-fit = Adatta larghezza
ui-diagram-region = Diagramma (scorrevole)
ui-table-toggle = Messaggi in tabella
ui-zoom-group = Zoom del diagramma
ui-fsm-moved = Richiesta { $id } ({ $kind }, { $requester } → { $addressee }): { $from } → { $to } per mano di { $by } a { $at }.
ui-fsm-waiting = Richiesta { $id } ({ $kind }, { $requester } → { $addressee }): { $state }, in attesa della risposta di { $addressee }.
ui-run-cost = L'esecuzione finora: { $calls } chiamate al modello, { $spend }.
ui-budget = Budget per esecuzione
ui-budget-amount = Importo del budget
ui-budget-unit = Unità del budget
ui-budget-none = nessuno
ui-budget-tokens = token
ui-budget-dollars = dollari USA
ui-budget-note = Prima di ogni chiamata al modello, il massimo che potrebbe spendere — il suo prompt (circa quattro caratteri per token) e il max_tokens della risposta — si somma a quanto l'esecuzione ha speso; se supererebbe il budget, la chiamata non viene fatta e l'esecuzione si ferma, come con Ferma. Così un'esecuzione non spende mai più del suo budget. Un budget in dollari richiede il prezzo del modello qui sotto; i conteggi del modello scriptato sono stime e non hanno prezzo.
ui-budget-not-a-number = il budget '{ $value }' non è un numero; scrivi un numero intero di token o un importo in dollari, o lascialo vuoto per nessun budget
ui-budget-not-positive = un budget deve essere maggiore di zero (lascialo vuoto per nessun budget)
ui-budget-not-whole = un budget in token è un numero intero di token, come 50000
ui-budget-too-large = un budget così grande non limita nulla; lascialo vuoto per nessun budget
ui-prices = Prezzi (dollari USA per milione di token)
ui-prices-note = Conservati in questo browser. Un modello non elencato mostra solo i suoi token, mai un prezzo.
ui-price-input = Ingresso
ui-price-output = Uscita
ui-price-cache-read = Lettura cache
ui-price-cache-write = Scrittura cache
ui-price-taken = prezzo rilevato il { $date }
ui-price-remove = Rimuovi
ui-price-model = Id del modello
ui-price-add = Aggiungi un prezzo
ui-price-reset = Ripristina i prezzi predefiniti
ui-price-no-model = un prezzo richiede l'id del modello (per esempio claude-sonnet-4-5)
ui-price-not-a-number = il prezzo ({ $field }) '{ $value }' non è un numero di dollari per milione di token
ui-price-out-of-range = il prezzo ({ $field }) deve essere tra 0 e 1000 dollari per milione di token
ui-price-bad-date = la data in cui un prezzo è stato rilevato va scritta AAAA-MM-GG, come 2026-11-27
