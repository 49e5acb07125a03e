import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature } from "../../src/webhooks/index.js";

const secret = "whsec_test_secret_0123456789";
const rawBody = JSON.stringify({ id: "evt_1", type: "charge.succeeded", data: { amount: 100 } });
const signedAt = 1_750_000_000;
const now = new Date(signedAt * 1000);
const at = (offsetSeconds: number) => new Date((signedAt + offsetSeconds) * 1000);

describe("webhook signatures", () => {
  it("verifies what it signed, and documents the format", () => {
    const header = signWebhook({ secret, rawBody, timestamp: signedAt });

    const expected = createHmac("sha256", secret).update(`${signedAt}.${rawBody}`).digest("hex");
    expect(header).toBe(`t=${signedAt},v1=${expected}`);
    expect(verifyWebhookSignature({ secret, header, rawBody, now })).toEqual({
      ok: true,
      timestamp: signedAt,
    });
  });

  it("accepts a body given as bytes, and any of several v1 signatures", () => {
    const header = signWebhook({ secret, rawBody: Buffer.from(rawBody), timestamp: signedAt });
    const rotating = `t=${signedAt},v1=${"0".repeat(64)},${header.split(",")[1]},v0=ignored`;

    expect(verifyWebhookSignature({ secret, header: rotating, rawBody: Buffer.from(rawBody), now }).ok).toBe(
      true,
    );
  });

  it("rejects a tampered body", () => {
    const header = signWebhook({ secret, rawBody, timestamp: signedAt });

    const result = verifyWebhookSignature({ secret, header, rawBody: rawBody.replace("100", "1000"), now });

    expect(result).toEqual({ ok: false, reason: "bad_signature" });
  });

  it("rejects the wrong secret", () => {
    const header = signWebhook({ secret: "whsec_someone_else_entirely", rawBody, timestamp: signedAt });

    expect(verifyWebhookSignature({ secret, header, rawBody, now })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it("rejects a timestamp beyond the tolerance, either side, and accepts one at its edge", () => {
    const header = signWebhook({ secret, rawBody, timestamp: signedAt });

    expect(verifyWebhookSignature({ secret, header, rawBody, now: at(300) }).ok).toBe(true);
    expect(verifyWebhookSignature({ secret, header, rawBody, now: at(301) })).toEqual({
      ok: false,
      reason: "stale_timestamp",
    });
    expect(verifyWebhookSignature({ secret, header, rawBody, now: at(-301) }).ok).toBe(false);
    expect(
      verifyWebhookSignature({ secret, header, rawBody, now: at(3600), toleranceSeconds: 7200 }).ok,
    ).toBe(true);
  });

  it("cannot be made fresh by changing t, since t is signed", () => {
    const header = signWebhook({ secret, rawBody, timestamp: signedAt });
    const replayed = header.replace(`t=${signedAt}`, `t=${signedAt + 3600}`);

    expect(verifyWebhookSignature({ secret, header: replayed, rawBody, now: at(3600) })).toEqual({
      ok: false,
      reason: "bad_signature",
    });
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["repeated", ["t=1,v1=ab", "t=1,v1=ab"]],
    ["without t", `v1=${"a".repeat(64)}`],
    ["without v1", `t=${signedAt}`],
    ["with two t", `t=${signedAt},t=${signedAt},v1=${"a".repeat(64)}`],
    ["with a non-numeric t", `t=soon,v1=${"a".repeat(64)}`],
    ["with a short v1", `t=${signedAt},v1=abc`],
    ["with a non-hex v1", `t=${signedAt},v1=${"z".repeat(64)}`],
    ["without key=value pairs", "garbage"],
  ])("rejects a header %s as malformed", (_label, header) => {
    expect(verifyWebhookSignature({ secret, header, rawBody, now })).toEqual({
      ok: false,
      reason: "malformed_header",
    });
  });
});
