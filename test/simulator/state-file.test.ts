import { spawnSync } from "node:child_process";
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ControllableClock } from "../../src/clock/index.js";
import { Sim, START, waitFor } from "./harness.js";

/** Simulator-only: GATEWAY_SIM_STATE_FILE / the stateFile option keeps the state across restarts. */
const EXIT_AFTER_CHANGE = fileURLToPath(new URL("./exit-after-change.ts", import.meta.url));
/** Windows has no POSIX modes to check. */
const posixModes = process.platform !== "win32";
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;
let dir: string;
let stateFile: string;
const running: Sim[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "sim-state-"));
  stateFile = join(dir, "state.json");
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((sim) => sim.close()));
  await rm(dir, { recursive: true, force: true });
});

/** The same seed every time: without the saved generator, a restart would hand out the same ids again. */
async function start(options: { defaultApiKey?: string } = {}): Promise<Sim> {
  const sim = await Sim.start({ stateFile, seed: 42, clock: new ControllableClock(START), ...options });
  running.push(sim);
  return sim;
}

async function stop(sim: Sim): Promise<void> {
  running.splice(running.indexOf(sim), 1);
  await sim.close();
}

async function bearerOf(sim: Sim): Promise<string> {
  return (await sim.v1("/v1/Authorization/Authorize", {})).body.bearer_token!;
}

async function invoice(sim: Sim, bearer: string): Promise<{ id: number; number: string }> {
  const response = await sim.post<{ invoice: { id: number; number: string } }>(
    "/v1/invoices",
    { amount: "10.00", description: "consulting" },
    { authorization: `Bearer ${bearer}` },
  );
  expect(response.status, response.text).toBe(201);
  return response.body.invoice;
}

/** Every transaction id the ledger shows (a checkout's payment is listed twice, hence the set). */
const transactionIds = async (sim: Sim) => {
  const ledger = await sim.ledger();
  return new Set([
    ...ledger.payments.map((payment) => payment.transaction_id),
    ...ledger.refunds.map((refund) => refund.refund_transaction_id),
    ...ledger.checkouts.map((checkout) => checkout.transaction_id),
  ]);
};

describe("a restart on the same state file", () => {
  it("remembers payments, tokens, bearers and invoices, and hands out no id twice", async () => {
    const first = await start();
    const { token, transactionId } = await first.enroll({ kind: "recurring", orderId: "enroll" });
    const bearer = await bearerOf(first);
    const firstInvoice = await invoice(first, bearer);
    const added = await first.post("/_sim/products", { name: "Saffron", sku: "SAF-1", price: 12.5 });
    expect(added.status, added.text).toBe(201);
    const products = (await first.get("/v1/products?page_size=100", { authorization: `Bearer ${bearer}` }))
      .body;
    expect(JSON.stringify(products)).toContain('"sku":"SAF-1"');
    const invoices = (await first.ledger()).invoices;
    expect(invoices).toHaveLength(1);
    const before = await transactionIds(first);
    const checkoutsBefore = (await first.ledger()).checkouts.map((checkout) => checkout.checkout_id);
    await stop(first);

    const second = await start();
    expect(second.apiKey).toBe(first.apiKey);
    const status = await second.legacy("CheckStatus", { orderId: "enroll" });
    expect(status.body.payment).toMatchObject({
      transactionID: transactionId,
      paymentstate: "SUCCESS",
      token,
    });

    const charge = await second.legacy("GetnewPayment", { cardToken: token, orderId: "after" });
    expect(charge.body.result).toBe(1);
    const url = await second.addTransaction({ orderId: "new-checkout" });
    expect(checkoutsBefore).not.toContain(url.split("/").at(-1));
    const after = await transactionIds(second);
    expect([...before].every((id) => after.has(id))).toBe(true);
    expect(after.size).toBe(before.size + 2);

    // The bearer still works, and invoices and products read back exactly as they were.
    expect(
      (await second.get("/v1/products?page_size=100", { authorization: `Bearer ${bearer}` })).body,
    ).toEqual(products);
    expect((await second.ledger()).invoices).toEqual(invoices);
    const secondInvoice = await invoice(second, bearer);
    expect(secondInvoice.id).toBe(firstInvoice.id + 1);
    expect(secondInvoice.number).not.toBe(firstInvoice.number);
  });

  it("saves after changes without waiting for close, atomically", async () => {
    const sim = await start();
    await sim.enroll({ kind: "autosave", orderId: "saved-early" });
    await waitFor(async () => {
      const text = await readFile(stateFile, "utf8").catch(() => "");
      return text.includes('"saved-early"') ? true : undefined;
    });
    expect(JSON.parse(await readFile(stateFile, "utf8")).version).toBe(1);
    expect(await readdir(dir)).toEqual(["state.json"]);
  });

  // It holds card tokens and the merchant's API key, like the engine's other secret files.
  it.runIf(posixModes)("is readable by its owner only, a looser file made so by the next save", async () => {
    const first = await start();
    await first.enroll({ kind: "autosave", orderId: "first" });
    await stop(first);
    expect(await modeOf(stateFile)).toBe(0o600);

    await chmod(stateFile, 0o644);
    const second = await start();
    await second.enroll({ kind: "autosave", orderId: "second" });
    await waitFor(async () => {
      const text = await readFile(stateFile, "utf8").catch(() => "");
      return text.includes('"second"') ? true : undefined;
    });
    expect(await modeOf(stateFile)).toBe(0o600);
  });

  it("saves a change still waiting in the window when the process exits without closing it", async () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", EXIT_AFTER_CHANGE, stateFile], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(child.status, child.stderr).toBe(0);
    const saved = JSON.parse(await readFile(stateFile, "utf8")) as {
      merchants: { merchants: { name: string }[] };
    };
    expect(saved.merchants.merchants.map((merchant) => merchant.name)).toContain("saved-on-exit");
    expect(await readdir(dir)).toEqual(["state.json"]);
    if (posixModes) expect(await modeOf(stateFile)).toBe(0o600);
  });

  it("keeps requests a delayed_apply fault is holding, and applies them when due", async () => {
    const first = await start();
    const { token } = await first.enroll({ kind: "autosave" });
    await first.post("/_sim/faults", { operation: "GetnewPayment", kind: "delayed_apply", delay_ms: 60_000 });
    await expect(
      first.legacy("GetnewPayment", { cardToken: token, orderId: "held", amount: "4" }),
    ).rejects.toThrow();
    await stop(first);

    const second = await start();
    expect((await second.legacy("CheckStatus", { orderId: "held" })).body).toEqual({ result: 0 });
    expect((await second.get<{ faults: unknown[] }>("/_sim/faults")).body.faults).toEqual([]);
    second.clock.advance({ minutes: 1 });
    expect((await second.legacy("CheckStatus", { orderId: "held" })).body.payment?.paymentstate).toBe(
      "SUCCESS",
    );
  });

  it("POST /_sim/reset empties the file too; ids still never repeat", async () => {
    const first = await start();
    await first.enroll({ orderId: "forgotten" });
    const before = await transactionIds(first);
    await first.post("/_sim/reset", {});
    const saved = JSON.parse(await readFile(stateFile, "utf8"));
    expect(saved.payments).toEqual([]);
    expect(saved.tokens).toEqual([]);
    await stop(first);

    const second = await start();
    expect((await second.legacy("CheckStatus", { orderId: "forgotten" })).body).toEqual({ result: 0 });
    await second.addTransaction({ orderId: "fresh" });
    const [fresh] = await transactionIds(second);
    expect(before.has(fresh!)).toBe(false);
  });
});

describe("a state file that cannot be used", () => {
  it.each([
    { problem: "not JSON", content: "{not json", message: /is not valid JSON/ },
    { problem: "another shape", content: '{"version":1}', message: /is not a simulator state: ids: / },
    { problem: "another version", content: '{"version":2}', message: /is not a simulator state: version: / },
  ])("$problem: start fails naming the file", async ({ content, message }) => {
    await writeFile(stateFile, content);
    const failure = start();
    await expect(failure).rejects.toThrow(message);
    await expect(failure).rejects.toThrow(stateFile);
  });

  it("a directory in its place: start fails naming the file", async () => {
    await expect(Sim.start({ stateFile: dir })).rejects.toThrow(
      `cannot read the simulator state file ${dir}`,
    );
  });

  it("a default merchant key other than the file's: start fails naming both", async () => {
    const first = await start();
    await stop(first);
    const other = "00000000-0000-4000-8000-000000000001";
    await expect(start({ defaultApiKey: other })).rejects.toThrow(
      `the simulator state file ${stateFile} belongs to default merchant ${first.apiKey}, not ${other}`,
    );
    const same = await start({ defaultApiKey: first.apiKey.toUpperCase() });
    expect(same.apiKey).toBe(first.apiKey);
  });
});
