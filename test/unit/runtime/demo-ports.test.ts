import { describe, expect, it } from "vitest";
import { demoPorts } from "../../../src/runtime/demo/ports.js";

/** The demo's engine takes the caller's port settings, and free ports for those it has none of. */
describe("demoPorts", () => {
  it("takes PORT, HOST, GATEWAY_SIM_PORT and EMBEDDED_POSTGRES_PORT as set, and nothing else", async () => {
    const env = {
      PORT: "5310",
      HOST: "0.0.0.0",
      GATEWAY_SIM_PORT: "5311",
      EMBEDDED_POSTGRES_PORT: "5312",
      DATABASE_URL: "postgres://elsewhere/db",
      GATEWAY_BASE_URL: "https://gateway.example",
    };
    expect(await demoPorts(env)).toEqual({
      PORT: "5310",
      HOST: "0.0.0.0",
      GATEWAY_SIM_PORT: "5311",
      EMBEDDED_POSTGRES_PORT: "5312",
    });
  });

  it("picks free ports on loopback for those unset or empty, never the defaults 3000, 4010 or 54329", async () => {
    const ports = await demoPorts({ PORT: "", GATEWAY_SIM_PORT: "5311" });
    expect(ports).toMatchObject({ PORT: "0", HOST: "127.0.0.1", GATEWAY_SIM_PORT: "5311" });
    const postgres = Number(ports.EMBEDDED_POSTGRES_PORT);
    expect(postgres).toBeGreaterThan(0);
    expect(postgres).not.toBe(54329);
    expect((await demoPorts({})).GATEWAY_SIM_PORT).toBe("0");
  });
});
