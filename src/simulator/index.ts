export { createSimulatorApp, type SimulatorApp } from "./app.js";
export {
  type CollectionRule,
  DECLINES,
  type Decline,
  SIMULATED_CARDS,
  type SimulatedCard,
} from "./cards/simulated-cards.js";
export { SimulatorCore, type SimulatorOptions } from "./core.js";
export { FAULT_KINDS, FAULT_OPERATIONS, type FaultOperation } from "./faults/fault-registry.js";
export type { MerchantAccount, MerchantSettings } from "./merchants/merchant.js";
export type { RateCounters } from "./rate/rate-limits.js";
export { type RunningSimulator, type StartSimulatorOptions, startSimulator } from "./server.js";
export { StateFileError } from "./state/state-file.js";
export type { SimMerchant, SimReply } from "./types.js";
