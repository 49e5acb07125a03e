import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { afterEach, expect, it } from "vitest";

/** scripts/gateway.ts: environment, printed lines, and both address families on one port. */
const KEY = "6f9619ff-8b86-4011-b42d-00c04fc964ff";
let child: ChildProcess | undefined;

afterEach(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
  child = undefined;
});

function run(env: Record<string, string>): ChildProcess {
  child = spawn(process.execPath, ["--import", "tsx", "scripts/gateway.ts"], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return child;
}

it("prints its URL and the default merchant's key, and serves v1, v3 and /_sim", async () => {
  const gateway = run({ GATEWAY_SIM_PORT: "0", GATEWAY_SIM_API_KEY: KEY });
  const lines: string[] = [];
  for await (const line of createInterface({ input: gateway.stdout! })) {
    lines.push(line);
    if (lines.length === 3) break;
  }
  const url = /^gateway simulator listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] ?? "")?.[1];
  expect(url).toBeDefined();
  expect(lines[1]).toBe(`default merchant api key: ${KEY}`);
  expect(lines[2]).toMatch(/^seed: \d+$/);
  const status = await fetch(`${url}/v3/CheckStatus`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `token=${KEY}&orderId=none`,
  });
  expect(await status.json()).toEqual({ result: 0 });
  const authorize = await fetch(`${url}/v1/Authorization/Authorize`, {
    method: "POST",
    headers: { api_key: KEY },
  });
  expect(authorize.status).toBe(200);
  expect((await fetch(`${url}/_sim/clock`)).status).toBe(200);
});

it("refuses a bad environment with a message naming the variable", async () => {
  const gateway = run({ GATEWAY_SIM_PORT: "not-a-port", GATEWAY_SIM_API_KEY: "nope" });
  let stderr = "";
  gateway.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const [code] = await once(gateway, "exit");
  expect(code).toBe(1);
  expect(stderr).toMatch(/GATEWAY_SIM_PORT/);
  expect(stderr).toMatch(/GATEWAY_SIM_API_KEY: expected a GUID/);
});

it("names GATEWAY_SIM_PORT in one line when its port is busy", async () => {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  const address = taken.address();
  const port = typeof address === "object" && address ? address.port : 0;
  try {
    const gateway = run({ GATEWAY_SIM_PORT: String(port) });
    let stderr = "";
    gateway.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const [code] = await once(gateway, "exit");
    expect(code).toBe(1);
    expect(stderr).toBe(
      `error: GATEWAY_SIM_PORT ${port} is in use (listen EADDRINUSE: address already in use 127.0.0.1:${port}); ` +
        "set GATEWAY_SIM_PORT to a free port\n",
    );
  } finally {
    taken.close();
  }
});
