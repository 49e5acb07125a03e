import type { Clock } from "../../clock/index.js";
import type { SimMerchant, SimReply } from "../types.js";
import type { ProductCatalogue } from "./catalogue.js";
import { merchantCurrency } from "./invoices-currency.js";
import { parseDecimal } from "./invoices-decimal.js";
import {
  type InvoiceRequest,
  type ItemRequest,
  invoiceRequestSchema,
  type SettingRequest,
  withoutIgnoredItems,
} from "./invoices-schema.js";
import {
  DEFAULT_INVOICE_BASE_URL,
  type InvoiceItem,
  type InvoicePayment,
  type InvoiceSetting,
  type InvoiceStore,
} from "./invoices-store.js";
import { detailedAmount, discountText, itemsSubtotal, readDiscount } from "./invoices-totals.js";
import { fieldError, guarded, moneyOf, parseRequest } from "./invoices-validation.js";
import { invoiceView } from "./invoices-view.js";

/** POST /v1/invoices: validates a quick or detailed invoice, stores it and answers 201. */

export { InvoiceStore } from "./invoices-store.js";

export interface InvoiceContext {
  merchant: SimMerchant;
  clock: Clock;
  store: InvoiceStore;
  /** Public address invoice links start with; the link is `<baseUrl>/<id>`. */
  baseUrl?: string;
  /** When given, an item's product_id must name a product in the merchant's catalogue. */
  catalogue?: ProductCatalogue;
}

type Shape = { type: "quick"; amount: string } | { type: "detailed"; items: ItemRequest[] };

/** Which kind of invoice the body asks for (items sent next to amount and description are gone by now). */
function shapeOf(request: InvoiceRequest): Shape {
  const { description, amount, items } = request;
  if (description !== undefined && amount !== undefined) return { type: "quick", amount };
  if (items === undefined) {
    if (description === undefined && amount === undefined) {
      throw fieldError("items", "required when description and amount are both absent");
    }
    throw fieldError(description === undefined ? "description" : "amount", "required when items are absent");
  }
  if (items.length === 0) throw fieldError("items", "must have at least one item");
  return { type: "detailed", items };
}

/** An empty payments array counts as not sent. */
function checkPayments(request: InvoiceRequest): void {
  const { status } = request;
  const sent = (request.payments?.length ?? 0) > 0;
  if ((status === "paid" || status === "refund") && !sent) {
    throw fieldError("payments", `required when status is ${status}`);
  }
  if ((status === "sent" || status === "void") && sent) {
    throw fieldError("payments", `must not be sent when status is ${status}`);
  }
}

function acceptedMethods(
  merchant: SimMerchant,
  setting: SettingRequest,
): InvoiceSetting["acceptedPaymentMethods"] {
  const { card = merchant.card, bank_transfer, cash, wallet, e_signature } = setting.accepted_payment_methods;
  const field = "setting.accepted_payment_methods";
  if (card && !merchant.card)
    throw fieldError(`${field}.card`, "this account does not support card payments");
  if (wallet && !merchant.wallet) {
    throw fieldError(`${field}.wallet`, "this account does not support wallet payments");
  }
  return { card, bank_transfer, cash, wallet, e_signature };
}

function pricedItems(
  ctx: InvoiceContext,
  items: readonly ItemRequest[],
  currency: string,
): Omit<InvoiceItem, "id">[] {
  return items.map((item, index) => {
    const productId = item.product_id ?? null;
    if (productId !== null && ctx.catalogue && !ctx.catalogue.find(ctx.merchant, productId)) {
      throw fieldError(`items[${index}].product_id`, "no such product");
    }
    return {
      productId,
      description: item.description,
      qty: parseDecimal(item.qty),
      amountMinor: moneyOf(`items[${index}].amount`, item.amount, currency),
    };
  });
}

function payments(request: InvoiceRequest, currency: string): Omit<InvoicePayment, "id">[] {
  return (request.payments ?? []).map((payment, index) => ({
    paymentDate: payment.payment_date,
    transactionId: payment.transaction_id ?? "",
    amountMinor: moneyOf(`payments[${index}].amount`, payment.amount, currency),
    note: payment.note ?? "",
    paymentType: payment.payment_type,
    status: payment.status,
  }));
}

export function createInvoice(ctx: InvoiceContext, body: unknown): SimReply {
  return guarded(() => {
    const request = parseRequest(invoiceRequestSchema, withoutIgnoredItems(body));
    const shape = shapeOf(request);
    checkPayments(request);
    const currency = merchantCurrency(ctx.merchant, request.currency);
    const { setting } = request;
    const acceptedPaymentMethods = acceptedMethods(ctx.merchant, setting);
    const items = shape.type === "detailed" ? pricedItems(ctx, shape.items, currency) : [];
    const base = shape.type === "quick" ? moneyOf("amount", shape.amount, currency) : itemsSubtotal(items);
    const discount = readDiscount(setting.discount_type, setting.discount, currency, base);
    const now = ctx.clock.now();
    const invoice = ctx.store.create(
      ctx.merchant.id,
      {
        number: request.number,
        amountMinor: shape.type === "quick" ? base : detailedAmount(base, discount),
        currency,
        termsConditions: request.terms_conditions ?? "",
        note: request.note ?? null,
        date: request.date ?? now,
        status: request.status,
        type: shape.type,
        client: request.client,
        title: request.title ?? "",
        description: request.description ?? null,
        items,
        payments: payments(request, currency),
        setting: {
          tax: setting.tax,
          discount: discountText(discount, currency),
          discountType: setting.discount_type,
          language: setting.language,
          acceptedPaymentMethods,
        },
        createdAt: now,
      },
      ctx.baseUrl ?? DEFAULT_INVOICE_BASE_URL,
    );
    return { status: 201, body: { status: "SUCCESS", invoice: invoiceView(invoice) } };
  });
}
