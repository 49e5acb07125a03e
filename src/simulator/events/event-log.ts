/** The merchant notifications the simulator produced, as the ledger shows them. */
export interface WebhookRecord {
  interface: "v1" | "legacy";
  transaction_id: string;
  order_id: string | null;
  method: "GET";
  /** The full URL called, query string included. */
  url: string;
  params: Record<string, string>;
  state: "pending" | "delivered" | "failed";
  response_status: number | null;
  error: string | null;
  at: string;
}

export interface RedirectRecord {
  interface: "v1" | "legacy";
  checkout_id: string;
  transaction_id: string;
  order_id: string | null;
  status: "SUCCESS" | "FAILURE";
  /** null when the client stays on the default result screen. */
  url: string | null;
  /** "payment" when the card was processed, "reopen" when a finished checkout was opened again. */
  reason: "payment" | "reopen";
  at: string;
}

/** Push notifications are recorded, never sent. Their content is not shown by the spec; this is ours. */
export interface PushRecord {
  push_token: string;
  transaction_id: string;
  order_id: string | null;
  status: "SUCCESS" | "FAILURE";
  message: string;
  at: string;
}

export class EventLog {
  readonly webhooks: WebhookRecord[] = [];
  readonly redirects: RedirectRecord[] = [];
  readonly pushes: PushRecord[] = [];

  clear(): void {
    this.webhooks.length = 0;
    this.redirects.length = 0;
    this.pushes.length = 0;
  }
}
