/**
 * A simulator process that exits right after a change, for state-file.test.ts. Run as a child
 * process (`node --import tsx test/simulator/exit-after-change.ts <state file>`): it starts the
 * simulator on the state file, adds a merchant named "saved-on-exit" and calls process.exit(0) as
 * soon as the answer arrives, within the 250 ms a change waits before it is written.
 */
import { startSimulator } from "../../src/simulator/index.js";

const stateFile = process.argv[2];
if (!stateFile) throw new Error("usage: exit-after-change.ts <state file>");
const sim = await startSimulator({ stateFile, seed: 7 });
const response = await fetch(`${sim.url}/_sim/merchants`, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ name: "saved-on-exit" }),
});
if (response.status !== 201) throw new Error(`POST /_sim/merchants answered ${response.status}`);
process.exit(0);
