import type { FastifyInstance } from "fastify";
import type { SimulatorCore } from "../core.js";
import type { FaultOperation } from "../faults/fault-registry.js";
import { runOperation } from "../faults/run-operation.js";
import type { MerchantAccount } from "../merchants/merchant.js";
import type { SimReply } from "../types.js";
import { addTransaction } from "./add-transaction.js";
import { authenticateLegacy } from "./auth.js";
import { checkStatus, validatePayment } from "./check-status.js";
import { legacyFailure } from "./codes.js";
import { LegacyFields } from "./fields.js";
import { getNewPayment } from "./get-new-payment.js";
import { legacyRefund } from "./refund.js";
import { stopRecurring } from "./stop-recurring.js";

type LegacyHandler = (core: SimulatorCore, merchant: MerchantAccount, fields: LegacyFields) => SimReply;

const OPERATIONS: [FaultOperation, LegacyHandler][] = [
  ["AddTransaction", addTransaction],
  ["Refund", legacyRefund],
  ["CheckStatus", checkStatus],
  ["ValidatePayment", validatePayment],
  ["GetnewPayment", getNewPayment],
  ["StopRecurring", stopRecurring],
];

/** The v3 interface: POST with a form-encoded or JSON body; every reply is HTTP 200 with `result`. */
export function registerLegacyRoutes(app: FastifyInstance, core: SimulatorCore): void {
  for (const [operation, handler] of OPERATIONS) {
    app.post(`/v3/${operation}`, (request, reply) =>
      runOperation(core, operation, request, reply, () => {
        const fields = new LegacyFields(request.body);
        const auth = authenticateLegacy(core, fields);
        return "code" in auth ? legacyFailure(auth.code) : handler(core, auth.merchant, fields);
      }),
    );
  }
}
