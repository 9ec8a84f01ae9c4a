# Gli errori della pagina (src/ui/error_words.rs): link di condivisione, memoria del browser,
# file importati, download, esecuzioni salvate. Nomi dei campi, tipi di evento, ID degli scenari
# e ciò che un errore porta dagli strati sotto ({ $error }, { $detail }, { $problem },
# { $expected }, { $found }) non si traducono.

## Link di condivisione
error-link-encoding = il link è danneggiato (non è testo base64url); copia il link intero
error-link-compression = la traccia del link non si può decomprimere (non sono dati deflate); copia il link intero
error-link-too-big = la traccia del link non si può decomprimere: supera { $limit } MB, più di qualunque traccia un link possa portare
error-link-not-text = la traccia del link non si può decomprimere: non è testo
error-link-seed = il seed del link '{ $seed }' non è un numero intero da 0 a 18446744073709551615
error-link-trace = la traccia del link non è valida: { $error }
error-link-faults = le regole di guasto del link non sono valide: { $error }
error-link-budget = il budget del link non è valido: { $error }
error-link-too-long = questa esecuzione è troppo grande per un link ({ $count } caratteri); esportala invece come JSON
error-share-running = Il link di condivisione compare quando l'esecuzione finisce.
error-share-empty = Il link di condivisione compare dopo che qualcosa è stato eseguito.
error-share-no-address = L'indirizzo della pagina non si può leggere, quindi non si può creare un link.

## Memoria del browser
error-storage-unavailable = la memoria del browser non è disponibile qui; esporta la traccia come JSON per conservarla
error-storage-write = la memoria del browser ha rifiutato l'esecuzione ({ $error }): elimina qualche esecuzione salvata o esporta la traccia come JSON
error-storage-corrupt = non è stato possibile leggere un'esecuzione salvata ({ $error }); è stata lasciata com'era
error-storage-list = l'elenco delle esecuzioni salvate è danneggiato ({ $error }); usa "Cancella esecuzioni salvate" per iniziare un nuovo elenco
error-storage-key = la memoria del browser ha rifiutato di cambiare la chiave ricordata ({ $error }); la chiave resta in uso in questa scheda
error-storage-gone = quell'esecuzione salvata non c'è più (forse un'altra scheda l'ha eliminata)

## Download ed esecuzioni salvate
error-download = il browser non è riuscito a preparare il file ({ $error })
error-snapshot-faults = una regola di guasto non è valida: { $error }
error-snapshot-scenario = lo scenario '{ $id }' non esiste in questa versione
error-snapshot-prompts = l'esecuzione ha { $count } prompt; se ne conservano al massimo { $limit }

## Tracce importate
error-import-event = l'evento { $entry }
error-import-the-trace = la traccia
error-import-too-large = il file è di { $size } MiB, oltre il limite di importazione di { $cap } MiB
error-import-empty = il file è vuoto; serve una traccia esportata come JSON
error-import-not-json = il file non è JSON valido: { $detail } alla riga { $line }, colonna { $column }
error-import-not-trace = il file è JSON ma non una traccia: serve un oggetto con version, team_name, seed ed entries, trovato { $found }
error-import-no-version = il file non ha il campo "version", quindi non è una traccia esportata; questa build legge la versione { $versions } del formato
error-import-version = la versione { $found } del formato della traccia non è supportata; questa build legge la versione { $versions }
error-import-missing-field = { $place }: manca il campo obbligatorio '{ $field }'
error-import-bad-field = { $place } ha un campo '{ $field }' non valido: { $problem }
error-import-kind = l'evento { $entry } ha il tipo sconosciuto '{ $kind }'; { $expected }
error-import-sequence = l'evento in posizione { $index } ha il numero { $seq }; gli eventi devono essere numerati 0, 1, 2, ... in ordine
error-import-time = l'evento { $seq } avviene a { $at }, prima dell'evento precedente a { $previous }; il tempo non può tornare indietro
error-import-protocol = l'evento { $seq } viola le regole del protocollo: { $error }
error-import-recorded-file = il file di protocollo '{ $name }' registrato in questa traccia non si carica: riga { $line }, colonna { $column }: { $error }
error-import-different-file = questa traccia è stata eseguita con { $recorded } ({ $summary }); il file caricato ora è diverso: { $difference }
