/** One-off charges: a set-up fee, an overage, a service, charged once now or on the next bill. */
export { cancelOneOffCharge, listOneOffCharges } from "./cancel-one-off.js";
export { createOneOffCharge, type OneOffBody, type OneOffCharge, oneOffBody } from "./create-one-off.js";
export { OneOffInputError, OneOffRefusal, type OneOffRefusalCode } from "./errors.js";
export { markOneOffsBilled, waitingOneOffs } from "./waiting-one-offs.js";
