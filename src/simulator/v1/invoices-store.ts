import type { Invoice, InvoiceItem, InvoicePayment } from "./invoice.js";
import { ClientBook, type ClientDetails, type StoredClient } from "./invoices-clients.js";
import { fieldError, wireDateTime } from "./invoices-validation.js";
import { type InvoiceView, invoiceView } from "./invoices-view.js";

/** Where invoice links point unless the server passes its own public address. */
export const DEFAULT_INVOICE_BASE_URL = "http://127.0.0.1/invoices";

/** A validated invoice before the store gives it ids, a number and a client. */
export interface InvoiceDraft
  extends Omit<Invoice, "id" | "merchantId" | "number" | "client" | "link" | "items" | "payments"> {
  readonly number: string | undefined;
  readonly client: ClientDetails | undefined;
  readonly items: readonly Omit<InvoiceItem, "id">[];
  readonly payments: readonly Omit<InvoicePayment, "id">[];
}

export type LedgerEntry = InvoiceView & { merchant_id: number; created_at: string };

/** An invoice as saved: its client by id, as invoices share the client book's objects. */
export type SavedInvoice = Omit<Invoice, "client"> & { readonly clientId: number | null };

export interface InvoiceState {
  invoices: SavedInvoice[];
  clients: { nextId: number; clients: StoredClient[] };
  numbering: { merchantId: number; next: number }[];
  nextInvoiceId: number;
  nextItemId: number;
  nextPaymentId: number;
}

/** Per-merchant numbering: the numbers in use and where generated numbers continue from. */
interface Numbering {
  readonly used: Set<string>;
  next: number;
}

/** Every invoice the simulator has issued, with their clients; ids are global, numbers per merchant. */
export class InvoiceStore {
  private readonly invoices: Invoice[] = [];
  private readonly numbering = new Map<number, Numbering>();
  private readonly clients = new ClientBook();
  private nextInvoiceId = 1;
  private nextItemId = 1;
  private nextPaymentId = 1;

  clear(): void {
    this.invoices.length = 0;
    this.numbering.clear();
    this.clients.clear();
    this.nextInvoiceId = 1;
    this.nextItemId = 1;
    this.nextPaymentId = 1;
  }

  snapshot(): InvoiceState {
    return {
      invoices: this.invoices.map(({ client, ...invoice }) => ({ ...invoice, clientId: client?.id ?? null })),
      clients: this.clients.snapshot(),
      numbering: [...this.numbering].map(([merchantId, { next }]) => ({ merchantId, next })),
      nextInvoiceId: this.nextInvoiceId,
      nextItemId: this.nextItemId,
      nextPaymentId: this.nextPaymentId,
    };
  }

  restore(state: InvoiceState): void {
    this.clear();
    this.clients.restore(state.clients);
    for (const { clientId, ...saved } of state.invoices) {
      const client = clientId === null ? null : this.clients.find(clientId);
      if (client === undefined) throw new RangeError(`invoice ${saved.id} names unknown client ${clientId}`);
      this.invoices.push({ ...saved, client });
      this.numberingOf(saved.merchantId).used.add(saved.number);
    }
    for (const { merchantId, next } of state.numbering) this.numberingOf(merchantId).next = next;
    this.nextInvoiceId = state.nextInvoiceId;
    this.nextItemId = state.nextItemId;
    this.nextPaymentId = state.nextPaymentId;
  }

  /** The next invoice id will be above `id` (ids already above it are left as they are). */
  skipIdsThrough(id: number): void {
    this.nextInvoiceId = Math.max(this.nextInvoiceId, id + 1);
  }

  /** The ledger: every invoice as its response body, plus who issued it and when. */
  all(): LedgerEntry[] {
    return this.invoices.map((invoice) => ({
      ...invoiceView(invoice),
      merchant_id: invoice.merchantId,
      created_at: wireDateTime(invoice.createdAt),
    }));
  }

  /** Stores a draft; a taken number or a conflicting client is refused before anything changes. */
  create(merchantId: number, draft: InvoiceDraft, baseUrl: string): Invoice {
    const numbering = this.numberingOf(merchantId);
    if (draft.number !== undefined && numbering.used.has(draft.number)) {
      throw fieldError("number", "already exists");
    }
    const client = draft.client ? this.clients.upsert(merchantId, draft.client) : null;
    const number = draft.number ?? this.generateNumber(numbering);
    numbering.used.add(number);
    const id = this.nextInvoiceId++;
    const invoice: Invoice = {
      ...draft,
      id,
      merchantId,
      number,
      client,
      link: `${baseUrl.replace(/\/+$/, "")}/${id}`,
      items: draft.items.map((item) => ({ ...item, id: this.nextItemId++ })),
      payments: draft.payments.map((payment) => ({ ...payment, id: this.nextPaymentId++ })),
    };
    this.invoices.push(invoice);
    return invoice;
  }

  private numberingOf(merchantId: number): Numbering {
    let numbering = this.numbering.get(merchantId);
    if (!numbering) {
      numbering = { used: new Set(), next: 1 };
      this.numbering.set(merchantId, numbering);
    }
    return numbering;
  }

  /** INV-000001, INV-000002, …, skipping numbers a merchant already chose for itself. */
  private generateNumber(numbering: Numbering): string {
    let number: string;
    do number = `INV-${String(numbering.next++).padStart(6, "0")}`;
    while (numbering.used.has(number));
    return number;
  }
}

export type { Invoice, InvoiceItem, InvoicePayment, InvoiceSetting, PaymentMethod } from "./invoice.js";
