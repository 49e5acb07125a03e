import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { toDecimalString, toMinor } from "../../money/index.js";
import { simulatedCard } from "../cards/simulated-cards.js";
import type { SimulatorCore } from "../core.js";
import { isoOf } from "../support/time.js";
import { describeZodError } from "../support/zod-error.js";
import { type CardToken, tokenExpiresAt } from "../tokens/token-store.js";

/**
 * POST /_sim/tokens (simulator only): mints up to 10,000 card tokens in one request, each exactly as
 * a recurring (or autosave) enrollment paid on the hosted page would leave it: same token shape,
 * same kind, amount and currency binding, same lifetime (six months or the card's expiry), so
 * GetnewPayment, CheckStatus and StopRecurring treat them alike. No checkout, no void payment: it
 * exists so that a benchmark or a development database can hold 100,000 subscriptions in seconds
 * (import them with `billing import`). The api_key header picks the merchant (default without one).
 */
const MAX_TOKENS = 10_000;

const mintSchema = z
  .object({
    count: z.number().int().min(1).max(MAX_TOKENS),
    card_number: z
      .string()
      .regex(/^\d{12,19}$/)
      .default("4111111111111111"),
    expiry: z
      .string()
      .regex(/^(0[1-9]|1[0-2])\/\d\d$/, "expected MM/YY")
      .default("12/30"),
    kind: z.enum(["recurring", "autosave"]).default("recurring"),
    amount: z
      .string()
      .regex(/^\d+(\.\d+)?$/, "expected a decimal string such as 49.00")
      .default("49.00"),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .default("QAR"),
    customer_email: z.email().optional(),
  })
  .strict();

export function registerTokenMintRoute(app: FastifyInstance, core: SimulatorCore): void {
  app.post("/_sim/tokens", (request, reply) => {
    const key = request.headers.api_key;
    const merchant = typeof key === "string" ? core.merchants.find(key) : core.merchants.defaultMerchant;
    if (!merchant) return reply.code(404).send({ error: "unknown api_key" });
    const parsed = mintSchema.safeParse(request.body ?? {});
    if (!parsed.success) return reply.code(400).send({ error: describeZodError(parsed.error) });
    const input = parsed.data;
    const card = simulatedCard(input.card_number);
    if (!card) return reply.code(400).send({ error: "card_number: not a card number (Luhn)" });
    let amountMinor: number;
    try {
      amountMinor = toMinor(input.amount, input.currency);
    } catch (error) {
      return reply.code(400).send({ error: `amount: ${(error as Error).message}` });
    }
    const [month, year] = input.expiry.split("/").map(Number) as [number, number];
    const now = core.now();
    const expiresAt = tokenExpiresAt(now, card, { month, twoDigitYear: year });
    if (expiresAt <= now) return reply.code(400).send({ error: "expiry: the card has expired" });

    const minted: CardToken[] = [];
    for (let i = 0; i < input.count; i += 1) {
      const token: CardToken = {
        token: core.ids.cardToken(),
        merchantId: merchant.id,
        kind: input.kind,
        amountMinor: input.kind === "recurring" ? amountMinor : null,
        currency: input.currency,
        card,
        cardLast4: input.card_number.slice(-4),
        customer: { email: input.customer_email ?? null, name: null, phone: null },
        sourceTransactionId: `minted-${core.ids.cardToken().slice(0, 8)}`,
        issuedAt: now,
        expiresAt,
        deactivatedAt: null,
        collections: 0,
      };
      core.tokens.add(token);
      minted.push(token);
    }
    return reply.code(201).send({
      tokens: minted.map((token) => ({
        card_token: token.token,
        kind: token.kind,
        amount: token.amountMinor === null ? null : toDecimalString(token.amountMinor, token.currency),
        currency: token.currency,
        masked_card: `${input.card_number.slice(0, 6)}******${token.cardLast4}`,
        expiry: input.expiry,
        expires_at: isoOf(token.expiresAt),
      })),
    });
  });
}
