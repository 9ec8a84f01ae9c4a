# What the page's shell says: the error banner (src/ui/session.rs) and the model line.
# Agent names are never translated; { $why } and { $error } are the
# underlying error's own words.

session-fix-settings = { $why }; fix it in Settings first (nothing was started)
session-busy = a run is in progress: wait for it to finish, or press Stop
session-file-no-prompt = the protocol file's team has no prompt for its lead
session-sender-gone = { $name } has shut down and can no longer send messages
session-settings-not-used = the stored run's settings were not used: { $error }. Its trace is shown; the settings are unchanged
session-not-restored = the run from before the reload could not be restored: { $error }

## Model providers (the menu and the line under the title)
provider-scripted = Scripted (offline)
provider-anthropic = Anthropic (your key)
provider-openai = OpenAI-compatible (base URL)
provider-unknown = an unknown provider
session-also = { $first } — also: { $later }
