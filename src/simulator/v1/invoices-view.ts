import { toDecimalString } from "../../money/index.js";
import type { Invoice } from "./invoice.js";
import { formatDecimal } from "./invoices-decimal.js";
import { wireDateTime } from "./invoices-validation.js";

/**
 * The `invoice` member of the POST /v1/invoices reply ("Invoice (v1, response)"). Decimals go out
 * as strings with the currency's decimals ("100.00", "1.250", "500") because a JSON number cannot
 * promise that exactness to every client. Strings the spec does not mark nullable are "" when not
 * sent; note and description are null.
 */

/** "credit" → "Credit": the spec capitalises payment_type and status in responses. */
const capitalise = (value: string): string => value.charAt(0).toUpperCase() + value.slice(1);

export function invoiceView(invoice: Invoice) {
  const money = (minor: number) => toDecimalString(minor, invoice.currency);
  const { setting, client } = invoice;
  return {
    id: invoice.id,
    number: invoice.number,
    amount: money(invoice.amountMinor),
    currency: invoice.currency,
    terms_conditions: invoice.termsConditions,
    note: invoice.note,
    date: wireDateTime(invoice.date),
    status: invoice.status,
    type: invoice.type,
    client: client && {
      id: client.id,
      name: client.name,
      address: client.address,
      phone: client.phone,
      email: client.email,
      notes: null,
    },
    title: invoice.title,
    link: invoice.link,
    description: invoice.description,
    items: invoice.items.map((item) => ({
      id: item.id,
      product_id: item.productId,
      description: item.description,
      // The spec's example item type is a service; the simulator sells nothing else.
      type: "service",
      qty: formatDecimal(item.qty),
      amount: money(item.amountMinor),
    })),
    payments: invoice.payments.map((payment) => ({
      id: payment.id,
      payment_date: wireDateTime(payment.paymentDate),
      transaction_id: payment.transactionId,
      amount: money(payment.amountMinor),
      note: payment.note,
      payment_type: capitalise(payment.paymentType),
      status: capitalise(payment.status),
    })),
    setting: {
      tax: setting.tax,
      discount: setting.discount,
      discount_type: setting.discountType,
      language: setting.language,
      accepted_payment_methods: { ...setting.acceptedPaymentMethods },
    },
  };
}

export type InvoiceView = ReturnType<typeof invoiceView>;
