/** Refusals of the portal's services, mapped to problems by src/problems/domain-problems.ts. */
export class PortalCustomerNotFoundError extends Error {
  override name = "PortalCustomerNotFoundError";
  constructor(readonly customerId: string) {
    super(`no customer ${customerId}`);
  }
}
