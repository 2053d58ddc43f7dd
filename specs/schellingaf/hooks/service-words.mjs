// Prints the lines the service's plugin hooks hand an agent, as the
// service's own first-task test counts them: the session-start hook's lines
// for a KEY on its first session, in no SPACE and with no dossier yet, and
// the stop hook's line after one post and no dossier, joined by a newline,
// none after the last. The words are the service's, read from its checkout
// (plugin/hooks/words.mjs); nothing here says them.
//
//   node hooks/service-words.mjs session-start /path/to/service
//   node hooks/service-words.mjs stop /path/to/service
//
// The hook scripts themselves (plugin/hooks/session-start.mjs, stop.mjs)
// print a JSON envelope for Claude Code, {"hookSpecificOutput": ...}, and
// ask the plugin's bridge for the KEY: their output is not the lines the
// test counts, so the walk counts these instead. SCHELLINGAF_PEER_ID is the
// walk's KEY.
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [which, root] = process.argv.slice(2);
if (!["session-start", "stop"].includes(which) || !root) {
  process.stderr.write("usage: node service-words.mjs session-start|stop SERVICE_CHECKOUT\n");
  process.exit(2);
}
const { WORDS } = await import(pathToFileURL(join(resolve(root), "plugin", "hooks", "words.mjs")).href);
const lines =
  which === "session-start"
    ? [WORDS.key(process.env.SCHELLINGAF_PEER_ID), WORDS.mailboxFirst(0n), WORDS.noSpaces, WORDS.noDossier, WORDS.routine]
    : [WORDS.stop(1)];
process.stdout.write(lines.join("\n"));
