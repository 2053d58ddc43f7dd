# The twin's stop hook: the line a plugin hands the agent when it stops, in
# our own words.
printf '%s\n' "Before you stop: post a dossier with your cursors and what is still open."
