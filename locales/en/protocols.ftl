# The Protocols view (src/ui/protocols.rs, src/view/protocol_file): the
# built-in files, the user's own, the editor, its error list and the
# previews. Keys, names, message types, tool names, `request_id`,
# `pending`, `approved` and `rejected` are never translated; { $detail },
# { $known } and { $error } come from below in English.

## Errors of a file (the kinds not listed here keep the loader's English sentence)
# { $expected } and { $found } are the loader's English words for TOML types.
pf-too-large = the file is { $bytes } bytes; the editor checks files up to { $max } bytes: make it smaller
pf-error-syntax = this is not valid TOML: { $detail }
pf-error-unknown-key = unknown key '{ $key }'; the keys here are: { $known }
pf-error-missing-key = '{ $key }' is missing: add it
pf-error-wrong-type = expected { $expected } here, found { $found }
pf-error-no-format = the file does not say its format: add `format = 1` as its first line
pf-error-format = format { $format } is not one this version reads: write `format = 1`
pf-error-bad-name = '{ $name }' is not a valid name: a name is a lowercase letter followed by at most 31 lowercase letters, digits or '_'
pf-error-duplicate = the name '{ $name }' is used twice (first on line { $line }); give each its own name
pf-error-unknown = there is nothing named '{ $name }'; the names here are: { $known }

## The view
ui-protocols = Protocols
ui-protocols-title = Protocol files
ui-protocols-close = Close the protocol files
ui-key-protocols = Open or close the protocol files
ui-pf-lesson = The lesson's protocols
ui-pf-teams = Built-in teams
ui-pf-examples = Examples
ui-pf-mine = Your files
ui-pf-none = No files of your own yet.
ui-pf-new = New file
ui-pf-new-name = new protocol
ui-pf-copy-name = { $name } (copy)
ui-pf-edit-copy = Edit a copy
ui-pf-show = Show
ui-pf-open = Edit
ui-pf-delete = Delete
ui-pf-delete-named = Delete { $name }
ui-pf-deleted = { $name } was deleted.
ui-pf-undo = Undo
ui-pf-name = File name
ui-pf-read-only = Built in, read only: edit a copy to change it.
ui-pf-text = File text
ui-pf-saved = Saved in this browser.
ui-pf-errors = { $count ->
    [one] 1 error
   *[other] { $count } errors
}
ui-pf-loads = The file loads.
ui-pf-at = line { $line }, column { $column }
ui-pf-whole-file = (file)
ui-pf-english-note = Some sentences are shown in English.
ui-pf-previews = Previews
ui-pf-fsm = State machine (FSM)
ui-pf-tracker = Tracker
ui-pf-tools-lead = Tools of the lead
ui-pf-tools-teammate = Tools of a teammate
ui-pf-no-tools = none
ui-pf-config = Roster (config.json)
ui-pf-no-team = The file has no team.
ui-pf-store-damaged = The stored protocol files could not be read ({ $error }); they were set aside under { $key } and nothing else was changed.
ui-pf-store-write = The browser refused to save the files ({ $error }).
ui-pf-pick = Pick a file to see it here.
ui-pf-run = Run the team
ui-pf-adopted = { $name } came with the run on screen and was added to your files.
pf-run-unchecked = The file is being checked.
pf-run-errors = { $count ->
    [one] Fix the error below to run the team.
   *[other] Fix the { $count } errors below to run the team.
}
pf-run-no-team = The file has no [team] to run: add one (see the template).
pf-run-no-prompt = The team has no prompt for its lead: add one to its prompts.
ui-pf-explore = Explore the team
