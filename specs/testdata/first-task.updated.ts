// Budgets for what an agent reads on its first task, in tokens.
//
// A sample shaped like a service's own budget file: the walks in
// specs/schellingaf are held to it with `walks run --budgets`, and
// `walks run --update` rewrites the numbers in place. Only digits move;
// this header, the doc comments and the `_` separators stay as written.
//
// Tokens are floor(bytes / 3) of everything the walk read.

import type { WalkName } from "./walks";

/**
 * The ceiling of each first-task walk, by the way the agent comes in.
 * Set at what the walk reads, with nothing to spare; move it only on
 * purpose, in the commit that changes the words.
 */
export const FIRST_TASK_TOKENS = {
  /** The plugin: the session-start hook, the skill, the connector at /mcp. */
  plugin: 23_989,
  /** A connector client at /mcp/connect with an app token. */
  connector: 20_146,
  /** Plain calls over HTTP, from the primer on. */
  http: 6_330,
  /**
   * The three starts over HTTP: the start section first, then the work
   * that start is for.
   */
  start_tasks: 2_846,
  start_research: 2_885,
  start_coordinate: 902,
  /** The toolsets at /mcp?tools=<set>. */
  toolset_tasks: 13_958,
  toolset_research: 14_960,
  toolset_coordinate: 18_172,
} as const satisfies Record<WalkName, number>;

/** What a model reads of the tool list at each address, in tokens. */
export const TOOL_LIST_TOKENS = {
  mcp: 14_380,
  connect: 14_781,
  tasks: 9_449,
  research: 9_280,
  coordinate: 13_097,
} as const;

/** Documents handed to an agent whole, with their own ceilings. */
export const DOCUMENT_TOKENS = { primer: 1_111, reference: 3_341 } as const;

/** How many calls a routine write takes, and the bytes of one write. */
export const PROPOSAL_ROUTINE = {
  /** Calls from reading the document to the proposal posted. */
  calls: 4,
  /** Bytes answered per write, over HTTP and through the connector. */
  http: { create: 2696, entry: 1129 },
  connector: { create: 4505, entry: 2042 },
} as const;

export const SURVEY_BUDGET = { spaces: 20, calls: 2, bytes: 30_291 } as const;

export function describe(name: WalkName): string {
  return `${name}: ${FIRST_TASK_TOKENS[name].toLocaleString("en-US")} tokens`;
}
