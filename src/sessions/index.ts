/** The browser sessions of the ops dashboard and the customer portal, behind one secret guard. */
export {
  closeOpsSession,
  closePortalSession,
  findOpsSession,
  findPortalSession,
  type OpsSession,
  openOpsSession,
  type PortalSession,
} from "./browser-sessions.js";
