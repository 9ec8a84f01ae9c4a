# Ciò che la sessione scrive da sé nel banner degli errori (src/ui/session.rs). I nomi degli
# agenti non si traducono; { $why } ed { $error } sono le parole dell'errore di partenza.

session-fix-settings = { $why }; correggilo prima nelle Impostazioni (non è stato avviato nulla)
session-busy = c'è un'esecuzione in corso: aspetta che finisca o premi Ferma
session-file-no-prompt = il team del file di protocollo non ha un prompt per il suo lead
session-sender-gone = { $name } si è spento e non può più inviare messaggi
session-settings-not-used = le impostazioni dell'esecuzione salvata non sono state usate: { $error }. La sua traccia è mostrata; le impostazioni non sono cambiate
session-not-restored = non è stato possibile ripristinare l'esecuzione di prima del ricaricamento: { $error }

## Fornitori del modello (il menu e la riga sotto il titolo)
provider-scripted = Modello scriptato (offline)
provider-anthropic = Anthropic (la tua chiave)
provider-openai = Compatibile OpenAI (URL di base)
provider-unknown = un fornitore sconosciuto
session-also = { $first } — inoltre: { $later }
