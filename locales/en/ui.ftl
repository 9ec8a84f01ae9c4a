# The page (header, controls, panels, settings, dialogs).
ui-model = Model: { $label }
