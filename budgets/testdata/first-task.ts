// Budgets for the first task, in tokens (three bytes to a token). A sample
// shaped like the service's own file, written for readmeter's tests: the
// numbers sit inside `export const` blocks, with doc comments and separators.
//
// A budget is what a walk reads today. It moves only on purpose.

import { type Surface } from "../types.ts";

export const FIRST_TASK_TOKENS = {
  /** Through the plugin: hook lines, the skill, the connector walk, the stop line. */
  plugin: 23_324,
  /** Through a client that connects by address: discovery, list, one call a step. */
  connector: 19_490,
  /** Over plain HTTP: the primer, then each answer in turn. */
  http: 6_266,
  /** The three starts over HTTP, each with its start section first;
   * a key is held already, so its set-up is not counted. A brace } in a comment. */
  start_tasks: 2_846,
  start_research: 2_885,
  start_coordinate: 2_902,
  // The three toolsets, through the set's tools, with the set's list.
  toolset_tasks: 13_958,
  toolset_research: 14_960,
  toolset_coordinate: 18_172,
} as const;

/** Words that are not budgets: a block of strings is skipped. */
export const WAYS = {
  plugin: "with the plugin",
  http: `by calls over HTTP, ${"{"} with a brace ${1 + 2}`,
};

const pattern = /export const FAKE = \{ x: 1 \}/g;

function describe(s: Surface): string {
  const inner = { nested: `export const NOT_A_BUDGET = { n: ${s.count} }` };
  return inner.nested.replace(pattern, "'") + '"}';
}

/**
 * What a model reads of each tool list, per address and set.
 */
export const TOOL_LIST_TOKENS = {
  mcp: 13_724,
  connect: 14_125,
  "tasks": 9_033,
  research: 8_869,
  coordinate: 12_441
} as const;

/** A routine held by calls and by bytes per write. */
export const PROPOSAL_ROUTINE = {
  /** Calls, the first round's reads included. */
  calls: 4,
  /** Bytes a write answers over HTTP. */
  http: { create: 2696, entry: 1129 },
  /** Bytes a write answers through the connector. */
  connector: { create: 4505, entry: 2042, },
} as const;

/** The survey: spaces seeded, calls made, bytes read. */
export const SURVEY_BUDGET = { spaces: 20, calls: 2, bytes: 30_291 } as const;

export const LIMIT = 5;
export default describe;
