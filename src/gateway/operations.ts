/**
 * Every gateway operation the client performs, with the one fact retry and error handling need:
 * whether it can move money (or create something payable). Those are never repeated by the client,
 * and a failure without a definite answer leaves their outcome unknown.
 */
export const GATEWAY_OPERATIONS = {
  "v1.checkout": { moneyMoving: true },
  "v1.refund": { moneyMoving: true },
  "v1.createInvoice": { moneyMoving: true },
  "v1.listProducts": { moneyMoving: false },
  "v1.authorize": { moneyMoving: false },
  "legacy.addTransaction": { moneyMoving: true },
  "legacy.refund": { moneyMoving: true },
  "legacy.checkStatus": { moneyMoving: false },
  "legacy.validatePayment": { moneyMoving: false },
  "legacy.getNewPayment": { moneyMoving: true },
  "legacy.stopRecurring": { moneyMoving: true },
} as const satisfies Record<string, { moneyMoving: boolean }>;

export type GatewayOperation = keyof typeof GATEWAY_OPERATIONS;

export function isMoneyMoving(operation: GatewayOperation): boolean {
  return GATEWAY_OPERATIONS[operation].moneyMoving;
}
