/** Refusals of the portal's services, mapped to HTTP by the API (src/api/domain-errors.ts). */
export class PortalCustomerNotFoundError extends Error {
  override name = "PortalCustomerNotFoundError";
  constructor(readonly customerId: string) {
    super(`no customer ${customerId}`);
  }
}
