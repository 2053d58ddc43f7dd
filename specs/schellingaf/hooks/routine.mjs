// The proposal routine as the server serves it, for proposal_http.yaml
// and proposal_connector.yaml:
// the calls are read from the reference's proposing-a-change section, as
// the service's test reads them (test/first-task.test.ts at 1db30c23), and
// the two writes' bodies are its templates filled, so that a changed
// routine changes the walk. Prints one JSON object; a routine that cannot
// be followed is one line on stderr naming the step, exit 1.
//
//   node hooks/routine.mjs read URL METHODS
//     GETs URL/reference?section=proposing-a-change with no header but an
//     empty Accept (the test reads it with app.request and no header) and
//     prints {calls, seek, profile, create, entry, version}: each call
//     {method, path, json?} (json the template as written), version the
//     template step 3 gives the first version. METHODS are the methods the
//     walk's four steps send, comma-separated: a routine with others fails.
//   node hooks/routine.mjs draft TEXT
//     reads the calls propose_change drafted in TEXT (lines "N. TOOL
//     {arguments}"), as the test reads them, and prints {seek, profile,
//     create, entry}, each {name, args}: four, in the order the walk's
//     steps send them, or one line naming what differs, exit 1.
//   node hooks/routine.mjs draft-create ARGS OWNER FIXTURE
//   node hooks/routine.mjs draft-entry ARGS FIXTURE
//     print call 3's arguments with the owner call 2 read and the
//     proposal's title, description, version and tasks, or call 4's with
//     its title and body, as the test fills them.
//   node hooks/routine.mjs create TEMPLATE VERSION SLUG OWNER FIXTURE
//   node hooks/routine.mjs entry TEMPLATE SLUG FIXTURE
//     print the body of the create (title, description, the version with
//     the proposal's text, the tasks) or of the entry (the body): the
//     template's placeholders filled (<slug>, <owner>, <title>), each …
//     a field given here, in the template's order.
import { readFileSync } from "node:fs";

const fail = (line) => {
  process.stderr.write(`routine.mjs: ${line}\n`);
  process.exit(1);
};

/** Every call a step makes on every run: `METHOD path`, with `{json}` when
 *  it follows; a sentence that starts "If" is a call only some runs make. */
function callsIn(steps, n) {
  const line = steps.get(n);
  if (line === undefined) fail(`proposing-a-change has no step ${n}.`);
  const always = line.split(/(?<=\.) (?=[A-Z])/).filter((s) => !s.startsWith("If ")).join(" ");
  return [...always.matchAll(/`(GET|POST|PUT|PATCH|DELETE) ([^`\s]+)`(?: with `(\{[^`]*\})`)?/g)].map(([, method, path, json]) => ({ method, path, json }));
}

/** A template filled: placeholders replaced, each … the field given. */
function fill(template, slug, owner, title, given, what) {
  let parsed;
  try {
    parsed = JSON.parse(template.replaceAll("…", "null").replaceAll("<slug>", slug).replaceAll("<owner>", owner).replaceAll("<title>", title));
  } catch (e) {
    fail(`${what}: the template is not JSON once filled: ${e.message}`);
  }
  for (const [field, value] of Object.entries(parsed)) {
    if (value === null && !(field in given)) fail(`${what}: the reference leaves ${field} to fill, and nothing here fills it.`);
  }
  return { ...parsed, ...given };
}

const [mode, ...args] = process.argv.slice(2);
if (mode === "read") {
  const [url, methods] = args;
  const res = await fetch(new URL("/reference?section=proposing-a-change", url), { headers: { accept: "" } });
  if (res.status !== 200) fail(`GET /reference?section=proposing-a-change answered ${res.status}.`);
  const served = await res.text();
  const steps = new Map([...served.matchAll(/^(\d)\. (.*)$/gm)].map(([, n, line]) => [Number(n), line]));
  const routine = [1, 2, 3, 4, 5].flatMap((n) => callsIn(steps, n));
  const round1 = callsIn(steps, 1);
  const [create] = callsIn(steps, 2);
  const [entry] = callsIn(steps, 5);
  if (round1.length !== 2) fail(`proposing-a-change step 1 makes ${round1.length} calls, not the seek and the profile.`);
  if (!create?.json) fail("proposing-a-change step 2 names no call with a body: no create to send.");
  if (!entry?.json) fail("proposing-a-change step 5 names no call with a body: no entry to send.");
  if (routine.length !== 4) fail(`the routine takes ${routine.length} calls, not the four this walk sends: ${routine.map((c) => `${c.method} ${c.path}`).join(", ")}.`);
  const version = /`(\{"title":"Version 1[^`]*\})`/.exec(steps.get(3) ?? "");
  if (!version) fail("proposing-a-change step 3 gives no version template.");
  const [seek, profile] = round1;
  const sent = [seek, profile, create, entry].map((c) => c.method).join(",");
  if (methods && sent !== methods) fail(`the routine's calls are ${sent}, and the walk's steps send ${methods}.`);
  process.stdout.write(JSON.stringify({ calls: routine.length, seek, profile, create, entry, version: version[1] }));
} else if (mode === "create") {
  const [template, versionTemplate, slug, owner, fixture] = args;
  const p = JSON.parse(readFileSync(fixture, "utf8"));
  const version = fill(versionTemplate, slug, owner, p.title, { body: p.version }, "step 3's version");
  process.stdout.write(JSON.stringify(fill(template, slug, owner, p.title, { title: p.title, description: p.description, version, tasks: p.tasks }, "step 2's create")));
} else if (mode === "entry") {
  const [template, slug, fixture] = args;
  const p = JSON.parse(readFileSync(fixture, "utf8"));
  process.stdout.write(JSON.stringify(fill(template, slug, "", p.title, { body: p.entry }, "step 5's entry")));
} else if (mode === "draft") {
  // The calls propose_change drafts, one a line "N. TOOL {arguments}".
  const [text] = args;
  const calls = [...text.matchAll(/^(\d+)\. (schellingaf_[a-z_]+) (\{.*\})$/gm)].map(([, , name, json]) => ({ name, args: JSON.parse(json) }));
  const want = ["schellingaf_seek", "schellingaf_spaces", "schellingaf_space_control", "schellingaf_post"];
  if (calls.map((c) => c.name).join(",") !== want.join(",")) {
    fail(`propose_change drafts ${calls.length} calls, ${calls.map((c) => c.name).join(", ") || "none"}; the walk's four steps send ${want.join(", ")}.`);
  }
  if (!Array.isArray(calls[2].args.members) || calls[2].args.members.length === 0) fail("propose_change's call 3 names no member to fill with the owner call 2 reads.");
  const [seek, profile, create, entry] = calls;
  process.stdout.write(JSON.stringify({ seek, profile, create, entry }));
} else if (mode === "draft-create") {
  // Call 3, its placeholders filled: the owner call 2 read, the proposal's title, description, version and tasks.
  const [json, owner, fixture] = args;
  const p = JSON.parse(readFileSync(fixture, "utf8"));
  const drafted = JSON.parse(json);
  drafted.members[0].peer_id = owner;
  process.stdout.write(JSON.stringify({
    ...drafted, title: p.title, description: p.description,
    version: { ...drafted.version, title: `Version 1: ${p.title}`, body: p.version }, tasks: p.tasks,
  }));
} else if (mode === "draft-entry") {
  const [json, fixture] = args;
  const p = JSON.parse(readFileSync(fixture, "utf8"));
  process.stdout.write(JSON.stringify({ ...JSON.parse(json), title: `Proposal: ${p.title}`, body: p.entry }));
} else {
  process.stderr.write("usage: node routine.mjs read URL METHODS | draft TEXT | draft-create ARGS OWNER FIXTURE | draft-entry ARGS FIXTURE | create TEMPLATE VERSION SLUG OWNER FIXTURE | entry TEMPLATE SLUG FIXTURE\n");
  process.exit(2);
}
