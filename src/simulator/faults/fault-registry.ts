import { z } from "zod";
import type { SeededRandom } from "../support/random.js";

export const FAULT_OPERATIONS = [
  "AddTransaction",
  "Refund",
  "CheckStatus",
  "ValidatePayment",
  "GetnewPayment",
  "StopRecurring",
  "checkout",
  "refund_v1",
  "invoices",
  "products",
  "Authorize",
] as const;
export type FaultOperation = (typeof FAULT_OPERATIONS)[number];

export const FAULT_KINDS = [
  "latency",
  "error5xx",
  "hang",
  "malformed",
  "apply_then_drop",
  "delayed_apply",
  "bare_decline_applied",
] as const;

/**
 * The operations a delayed_apply fault can hold back: the legacy writes, whose whole input is the
 * request body, so a held request can be kept (and saved in a state file) and run later.
 */
export const DELAYABLE_OPERATIONS = ["AddTransaction", "Refund", "GetnewPayment", "StopRecurring"] as const;
export type DelayableOperation = (typeof DELAYABLE_OPERATIONS)[number];

export function isDelayable(operation: FaultOperation): operation is DelayableOperation {
  return (DELAYABLE_OPERATIONS as readonly string[]).includes(operation);
}

/** Thirty days on the simulator clock, long enough to hold a request across any billing cycle. */
const MAX_APPLY_DELAY_MS = 30 * 24 * 3_600_000;

const faultFields = z.object({
  operation: z.enum(FAULT_OPERATIONS),
  kind: z.enum(FAULT_KINDS),
  /** How many requests it hits before it is used up; unlimited when absent. */
  times: z.number().int().min(1).optional(),
  /** The chance that a request of the operation is hit (drawn from the seeded generator). */
  probability: z.number().min(0).max(1).default(1),
  latency_ms: z.number().int().min(0).max(600_000).default(1_000),
  /** The status of error5xx replies. */
  status: z.number().int().min(500).max(599).default(503),
  /** How long a delayed_apply fault holds the request, in simulator-clock milliseconds. */
  delay_ms: z.number().int().min(0).max(MAX_APPLY_DELAY_MS).default(1_000),
});

export const faultSchema = faultFields
  .refine((spec) => spec.kind !== "delayed_apply" || isDelayable(spec.operation), {
    path: ["operation"],
    message: `delayed_apply applies only to ${DELAYABLE_OPERATIONS.join(", ")}`,
  })
  // Only GetnewPayment has a decline reply whose documented fields can be left out.
  .refine((spec) => spec.kind !== "bare_decline_applied" || spec.operation === "GetnewPayment", {
    path: ["operation"],
    message: "bare_decline_applied applies only to GetnewPayment",
  });

export type FaultSpec = z.output<typeof faultSchema>;

export interface Fault extends FaultSpec {
  id: number;
  /** Requests it has hit so far. */
  hits: number;
}

/** Faults by operation; with none registered for an operation, take() is a single map miss. */
export class FaultRegistry {
  private readonly byOperation = new Map<FaultOperation, Fault[]>();
  private nextId = 1;

  constructor(private readonly random: SeededRandom) {}

  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: this.nextId++, hits: 0 };
    const list = this.byOperation.get(spec.operation);
    if (list) list.push(fault);
    else this.byOperation.set(spec.operation, [fault]);
    return fault;
  }

  /** The fault that hits this request, if any: the first registered one whose dice roll says so. */
  take(operation: FaultOperation): Fault | undefined {
    const list = this.byOperation.get(operation);
    if (!list) return undefined;
    for (const fault of list) {
      if (fault.probability < 1 && this.random.next() >= fault.probability) continue;
      fault.hits++;
      if (fault.times !== undefined && fault.hits >= fault.times) this.remove(fault);
      return fault;
    }
    return undefined;
  }

  remove(fault: Fault): boolean {
    const list = this.byOperation.get(fault.operation);
    const index = list?.indexOf(fault) ?? -1;
    if (!list || index < 0) return false;
    list.splice(index, 1);
    if (list.length === 0) this.byOperation.delete(fault.operation);
    return true;
  }

  removeById(id: number): boolean {
    const fault = this.list().find((candidate) => candidate.id === id);
    return fault ? this.remove(fault) : false;
  }

  list(): Fault[] {
    return [...this.byOperation.values()].flat().sort((a, b) => a.id - b.id);
  }

  clear(): void {
    this.byOperation.clear();
  }
}
