import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, REDACTED, redact, redactText } from "../../../src/logger/index.js";

const apiKey = "2b5e3d5c-8f7a-4e61-9d0b-0c1f2a3b4c5d";
const cardToken = "q+Zx/9Lm=|Abc+def/==";

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger({ level: "debug" }, stream), lines };
}

describe("redaction", () => {
  it("hides secrets by key name in nested objects, whatever the casing", () => {
    const out = redact({
      headers: { api_key: apiKey, Authorization: `Bearer abc.def`, "content-type": "application/json" },
      body: { token: apiKey, cardToken, CARDTOKEN: cardToken, amount: "10.00" },
      items: [{ card_token: cardToken }],
    });
    expect(JSON.stringify(out)).not.toContain(apiKey);
    expect(JSON.stringify(out)).not.toContain(cardToken);
    expect(out.headers["content-type"]).toBe("application/json");
    expect(out.body.amount).toBe("10.00");
    expect(out.body.cardToken).toBe(REDACTED);
  });

  it("hides secrets inside query strings, form bodies, headers and JSON text", () => {
    const texts = [
      `https://merchant.example/ok?transid=1&orderId=2&token=${encodeURIComponent(cardToken)}`,
      `token=${apiKey}&cardToken=${encodeURIComponent(cardToken)}&amount=1.00`,
      "Authorization: Bearer eyJhbGciOi.abc.def",
      JSON.stringify({ token: apiKey, card_token: cardToken }),
      `api_key=${apiKey}`,
    ];
    for (const text of texts) {
      const out = redactText(text);
      expect(out).not.toContain(apiKey);
      expect(out).not.toContain(encodeURIComponent(cardToken));
      expect(out).not.toContain(cardToken);
      expect(out).not.toContain("eyJhbGciOi");
      expect(out).toContain(REDACTED);
    }
    expect(redactText("transid=1&orderId=2")).toBe("transid=1&orderId=2");
  });

  it("keeps secrets out of real log lines", () => {
    const { logger, lines } = capture();
    logger.info(
      { request: { headers: { api_key: apiKey }, url: `/v3/x?token=${apiKey}` } },
      `sent token=${apiKey}`,
    );
    logger.error(
      { err: Object.assign(new Error(`failed with Bearer ${apiKey}`), { cardToken }) },
      "gateway call failed",
    );
    const text = lines.join("\n");
    expect(lines).toHaveLength(2);
    expect(text).not.toContain(apiKey);
    expect(text).not.toContain(cardToken);
    expect(text).toContain("gateway call failed");
  });
});

describe("createLogger", () => {
  it("falls back instead of throwing on a level pino does not know (the settings check reports it)", () => {
    expect(createLogger({ level: "loud" }).level).toBe("info");
    expect(createLogger({ level: "constructor", fallbackLevel: "warn" }).level).toBe("warn");
    expect(createLogger({ level: "", fallbackLevel: "error" }).level).toBe("error");
    expect(createLogger({ level: "debug", fallbackLevel: "warn" }).level).toBe("debug");
    expect(createLogger({ level: "silent" }).level).toBe("silent");
  });
});
