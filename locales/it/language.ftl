# Il caricamento dei messaggi di una lingua (src/ui/i18n_view.rs): il banner
# quando non è stato possibile scaricarli. { $language } e { $current } sono
# i nomi che le lingue danno a sé stesse (English, 中文, 日本語, Italiano).

lang-unavailable = Impossibile caricare { $language } ({ $error }). La pagina resta in { $current }.
lang-error-status = il server ha risposto { $status }
lang-error-network = la richiesta di rete non è riuscita
lang-error-timeout = nessuna risposta entro { $seconds } s
lang-error-empty = il file { $file } non contiene messaggi
