import type { FastifyInstance } from "fastify";
import type { SimulatorCore } from "../core.js";
import { captureState, restoreState } from "./snapshot.js";
import { encodeState, readStateFile, StateFileError } from "./state-file.js";
import { StateSaver } from "./state-saver.js";

/**
 * Keeps the simulator's state in a JSON file: loads it now (a missing file is a first start), then
 * saves after every request that may have changed something, after held requests are applied, on
 * reset, on close, and when the process exits without closing it. `requestedKey` is the default merchant key the caller asked for: the file's
 * default merchant must have it, since engines configured with either key would otherwise disagree.
 */
export function keepStateIn(
  app: FastifyInstance,
  core: SimulatorCore,
  path: string,
  requestedKey: string | undefined,
): void {
  const saved = readStateFile(path);
  if (saved) {
    const savedKey = saved.merchants.defaultApiKey.toLowerCase();
    if (requestedKey !== undefined && requestedKey.toLowerCase() !== savedKey) {
      throw new StateFileError(
        `the simulator state file ${path} belongs to default merchant ${savedKey}, not ${requestedKey.toLowerCase()}: ` +
          "leave the key unset, ask for that one, or use another file",
      );
    }
    try {
      restoreState(core, saved);
    } catch (error) {
      throw new StateFileError(
        `the simulator state file ${path} is inconsistent: ${(error as Error).message}`,
      );
    }
  }
  const saver = new StateSaver(path, () => encodeState(captureState(core)), core.logger);
  core.persistence = saver;
  app.addHook("onResponse", (_request, _reply, done) => {
    saver.changed();
    done();
  });
  // A process that exits without closing the simulator (process.exit, an uncaught exception) still
  // saves what changed within the window; only a kill or a power loss can lose it.
  const saveOnExit = () => {
    try {
      saver.flushSync();
    } catch (error) {
      core.logger.error({ err: error, path }, "could not save the simulator state on exit");
    }
  };
  process.on("exit", saveOnExit);
  app.addHook("onClose", () => {
    process.off("exit", saveOnExit);
    return saver.flush();
  });
}
