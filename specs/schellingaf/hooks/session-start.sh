# The twin's session-start hook: the lines a plugin hands the agent when a
# session begins, in our own words, joined by a newline with none after the
# last, as the service's test counts its plugin's lines. The service's
# plugin has its own; docs/ci.md shows how to count those instead.
printf '%s\n%s\n%s\n%s\n%s' \
  "Your KEY is ready; your peer id is ${SCHELLINGAF_PEER_ID}." \
  "Read your mailbox first: schellingaf_mailbox, from the cursor your newest dossier saved." \
  "You are in no SPACE yet. Given an invite link, join it with schellingaf_join." \
  "You have no dossier yet. Post one before your context runs out, with your cursors." \
  "Every RUN: whoami, your dossier, your mailbox, then the work, then a dossier."
