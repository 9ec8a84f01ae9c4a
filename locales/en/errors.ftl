# The page's own errors (src/ui/error_words.rs): share links, browser
# storage, imported files, downloads, stored runs. Field names, event kinds,
# scenario ids and what an error carries from below ({ $error },
# { $detail }, { $problem }, { $expected }, { $found }) are never translated.

## Share links
error-link-encoding = the link is damaged (not base64url text); copy the whole link
error-link-compression = the link's trace could not be unpacked (it is not deflate data); copy the whole link
error-link-too-big = the link's trace could not be unpacked: it grows past { $limit } MB, more than any trace a link can carry
error-link-not-text = the link's trace could not be unpacked: it is not text
error-link-seed = the link's seed '{ $seed }' is not a whole number from 0 to 18446744073709551615
error-link-trace = the link's trace is not valid: { $error }
error-link-faults = the link's fault rules are not valid: { $error }
error-link-budget = the link's budget is not valid: { $error }
error-link-too-long = this run is too large to share as a link ({ $count } characters); export it as JSON instead
error-share-running = The share link appears when the run ends.
error-share-empty = The share link appears once something has run.
error-share-no-address = The page's address cannot be read, so no link can be made.

## Browser storage
error-storage-unavailable = browser storage is unavailable here; export the trace as JSON to keep it
error-storage-write = browser storage refused the run ({ $error }): delete saved runs, or export the trace as JSON
error-storage-corrupt = a stored run could not be read ({ $error }); it was left untouched
error-storage-list = the list of saved runs is damaged ({ $error }); use "Clear saved runs" to start a new list
error-storage-key = browser storage refused to change the remembered key ({ $error }); the key is still used for this tab
error-storage-gone = that saved run is no longer stored (another tab may have deleted it)

## Downloads and stored runs
error-download = the browser could not prepare the file ({ $error })
error-snapshot-faults = a fault rule is not valid: { $error }
error-snapshot-scenario = the scenario '{ $id }' is not one this version has
error-snapshot-prompts = the run has { $count } prompts; the most kept is { $limit }

## Imported traces
error-import-event = event { $entry }
error-import-the-trace = the trace
error-import-too-large = the file is { $size } MiB, over the import limit of { $cap } MiB
error-import-empty = the file is empty; expected a trace exported as JSON
error-import-not-json = the file is not valid JSON: { $detail } at line { $line }, column { $column }
error-import-not-trace = the file is JSON but not a trace: expected an object with version, team_name, seed and entries, found { $found }
error-import-no-version = the file has no "version" field, so it is not a trace export; this build reads trace format version { $versions }
error-import-version = trace format version { $found } is not supported; this build reads version { $versions }
error-import-missing-field = { $place } is missing the required field '{ $field }'
error-import-bad-field = { $place } has an invalid field '{ $field }': { $problem }
error-import-kind = event { $entry } has the unknown kind '{ $kind }'; { $expected }
error-import-sequence = event at position { $index } is numbered { $seq }; events must be numbered 0, 1, 2, ... in order
error-import-time = event { $seq } happens at { $at }, before the previous event at { $previous }; time cannot go backwards
error-import-protocol = event { $seq } breaks the protocol rules: { $error }
error-import-recorded-file = the protocol file '{ $name }' this trace records does not load: line { $line }, column { $column }: { $error }
error-import-different-file = this trace ran under { $recorded } ({ $summary }); the file loaded now differs: { $difference }
