# The twin's stop hook: the line a plugin hands the agent when it stops, in
# our own words, with no newline after it, as the service's test counts it.
printf '%s' "Before you stop: post a dossier with your cursors and what is still open."
