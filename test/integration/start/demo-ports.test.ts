import { afterAll, describe, expect, it } from "vitest";
import { findFreePort } from "../../../src/infra/index.js";
import { type DemoEngine, startDemoEngine } from "../../../src/runtime/demo/engine.js";

/**
 * `npm run demo` kept off the ports a user's own engine uses: the engine it starts (and its
 * in-process simulator) listens where PORT and GATEWAY_SIM_PORT say, and the simulator sends the
 * customer back to that PORT.
 */

let demo: DemoEngine | undefined;
const saved = { PORT: process.env.PORT, GATEWAY_SIM_PORT: process.env.GATEWAY_SIM_PORT };
afterAll(async () => {
  await demo?.close();
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe("the demo's engine", () => {
  it("listens on PORT and runs its simulator on GATEWAY_SIM_PORT", async () => {
    const port = await findFreePort();
    const simulatorPort = await findFreePort();
    process.env.PORT = String(port);
    process.env.GATEWAY_SIM_PORT = String(simulatorPort);
    demo = await startDemoEngine({ name: "demo-ports", start: "2026-01-01T00:00:00Z" });

    expect(demo.engine.url).toBe(`http://127.0.0.1:${port}`);
    expect(demo.simulator.url).toBe(`http://127.0.0.1:${simulatorPort}`);
    expect(demo.engine.ctx.publicUrl).toBe(`http://localhost:${port}`);
    expect((await fetch(`${demo.engine.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
