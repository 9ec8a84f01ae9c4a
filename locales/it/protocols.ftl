# La vista dei protocolli (src/ui/protocols.rs, src/view/protocol_file).
# Chiavi, nomi, tipi di messaggio, nomi degli strumenti, `request_id`,
# `pending`, `approved` e `rejected` non si traducono; { $detail },
# { $known } e { $error } arrivano dal basso in inglese.

## Errori di un file (i tipi non elencati tengono la frase inglese del caricatore)
pf-too-large = il file è di { $bytes } byte; l'editor controlla file fino a { $max } byte: rendilo più piccolo
pf-error-syntax = questo non è TOML valido: { $detail }
pf-error-unknown-key = chiave sconosciuta '{ $key }'; le chiavi qui sono: { $known }
pf-error-missing-key = manca '{ $key }': aggiungila
pf-error-wrong-type = qui serve { $expected }, trovato { $found }
pf-error-no-format = il file non dice il suo formato: aggiungi `format = 1` come prima riga
pf-error-format = il formato { $format } non è uno che questa versione legge: scrivi `format = 1`
pf-error-bad-name = '{ $name }' non è un nome valido: un nome è una lettera minuscola seguita da al più 31 lettere minuscole, cifre o '_'
pf-error-duplicate = il nome '{ $name }' è usato due volte (la prima alla riga { $line }); dai a ciascuno il suo nome
pf-error-unknown = non c'è niente che si chiami '{ $name }'; i nomi qui sono: { $known }

## La vista
ui-protocols = Protocolli
ui-protocols-title = File di protocollo
ui-protocols-close = Chiudi i file di protocollo
ui-key-protocols = Apri o chiudi i file di protocollo
ui-pf-lesson = I protocolli della lezione
ui-pf-teams = Team integrati
ui-pf-examples = Esempi
ui-pf-mine = I tuoi file
ui-pf-none = Ancora nessun file tuo.
ui-pf-new = Nuovo file
ui-pf-new-name = nuovo protocollo
ui-pf-copy-name = { $name } (copia)
ui-pf-edit-copy = Modifica una copia
ui-pf-show = Mostra
ui-pf-open = Modifica
ui-pf-delete = Elimina
ui-pf-delete-named = Elimina { $name }
ui-pf-deleted = { $name } è stato eliminato.
ui-pf-undo = Annulla
ui-pf-name = Nome del file
ui-pf-read-only = Integrato, solo lettura: modifica una copia per cambiarlo.
ui-pf-text = Testo del file
ui-pf-saved = Salvato in questo browser.
ui-pf-errors = { $count ->
    [one] 1 errore
   *[other] { $count } errori
}
ui-pf-loads = Il file si carica.
ui-pf-at = riga { $line }, colonna { $column }
ui-pf-whole-file = (file)
ui-pf-english-note = Alcune frasi sono mostrate in inglese.
ui-pf-previews = Anteprime
ui-pf-fsm = Macchina a stati (FSM)
ui-pf-tracker = Tracker
ui-pf-tools-lead = Strumenti del lead
ui-pf-tools-teammate = Strumenti di un compagno
ui-pf-no-tools = nessuno
ui-pf-config = Elenco del team (config.json)
ui-pf-no-team = Il file non ha un team.
ui-pf-store-damaged = I file di protocollo salvati non si leggono ({ $error }); sono stati messi da parte in { $key } e nient'altro è cambiato.
ui-pf-store-write = Il browser ha rifiutato di salvare i file ({ $error }).
ui-pf-pick = Scegli un file per vederlo qui.
ui-pf-run = Esegui il team
ui-pf-adopted = { $name } è arrivato con l'esecuzione sullo schermo ed è stato aggiunto ai tuoi file.
pf-run-unchecked = Il file è in controllo.
pf-run-errors = { $count ->
    [one] Correggi l'errore qui sotto per eseguire il team.
   *[other] Correggi i { $count } errori qui sotto per eseguire il team.
}
pf-run-no-team = Il file non ha un [team] da eseguire: aggiungine uno (vedi il modello).
pf-run-no-prompt = Il team non ha un prompt per il suo lead: aggiungine uno ai prompts.
ui-pf-explore = Esplora il team
