import {
  closeSync,
  fchmodSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { describeZodError } from "../support/zod-error.js";
import { type SimulatorState, stateSchema } from "./state-schema.js";

/**
 * The file holds card tokens and the merchant API key, so it is the owner's alone (0600), like the
 * engine's other secret files. The mode is set on the temporary file before any text goes in, and
 * the rename puts that file in place, so a file left looser by an older version is replaced by a
 * tight one on the next save. chmod as well as the open mode: a leftover temporary file keeps its
 * own mode when opened again.
 */
const OWNER_ONLY = 0o600;

/** A state file that cannot be used; the message names the file and what is wrong with it. */
export class StateFileError extends Error {}

/** Reads and checks the state file; undefined when it does not exist yet (the first start). */
export function readStateFile(path: string): SimulatorState | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateFileError(`cannot read the simulator state file ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(
      `the simulator state file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const parsed = stateSchema.safeParse(json);
  if (!parsed.success) {
    throw new StateFileError(
      `the simulator state file ${path} is not a simulator state: ${describeZodError(parsed.error)}`,
    );
  }
  return parsed.data;
}

export function encodeState(state: SimulatorState): string {
  return JSON.stringify(stateSchema.encode(state));
}

/**
 * Replaces the file atomically: the text goes to a temporary file beside it, reaches the disk, and
 * is renamed over the old one, so a crash mid-write leaves the previous state, never half of one.
 */
export async function writeStateFile(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  const handle = await open(temporary, "w", OWNER_ONLY);
  try {
    await handle.chmod(OWNER_ONLY);
    await handle.writeFile(text, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** writeStateFile for a process that is exiting, where nothing asynchronous runs any more. */
export function writeStateFileSync(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.exit.tmp`;
  const fd = openSync(temporary, "w", OWNER_ONLY);
  try {
    fchmodSync(fd, OWNER_ONLY);
    writeSync(fd, text, null, "utf8");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
