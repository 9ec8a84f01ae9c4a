# Loading a language's messages (src/ui/i18n_view.rs): the banner when they
# could not be fetched. { $language } and { $current } are languages' own
# names (English, 中文, 日本語, Italiano).

lang-unavailable = { $language } could not be loaded ({ $error }). The page stays in { $current }.
lang-error-status = the server answered { $status }
lang-error-network = the network request failed
lang-error-timeout = no answer within { $seconds } s
lang-error-empty = the file { $file } holds no messages
