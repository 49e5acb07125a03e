import type { Cli } from "./cli.js";

/**
 * Commands are registered cheaply and load their work only when they run. commands.ts holds the
 * commander definitions alone, importing nothing heavier than commander and a few constant lists,
 * so `billing --help` and the parsing of any command line load none of the services; each action
 * names an export of an implementation module (actions/*.ts), imported when that command runs.
 * One command therefore loads its own services, never the others'.
 */

/** A command's implementation: the Cli first, then what commander passes (arguments, options, command). */
export type ActionImpl = (cli: Cli, ...args: never[]) => unknown;

/**
 * Makes the commander action that imports `load()` when the command runs and calls its export
 * `name`: `.action(action(() => import("./actions/plans.js"), "list"))`.
 */
export type Actions = <N extends string, M extends Record<N, ActionImpl>>(
  load: () => Promise<M>,
  name: N,
) => (...args: unknown[]) => Promise<void>;
