import { relations } from "drizzle-orm";
import { apiKeys, idempotencyKeys } from "./api.js";
import { chargeAttempts, charges, invoices, refunds } from "./billing.js";
import { customers, plans } from "./catalog.js";
import { events, webhookDeliveries, webhookEndpoints } from "./events.js";
import { enrollments, paymentMethods, subscriptions } from "./subscriptions.js";

/**
 * Relations for drizzle's relational queries (`db.query.subscriptions.findFirst({ with: … })`).
 * They add no constraint; the foreign keys are in the table files. subscriptions and
 * payment_methods point at each other twice, so those two pairs are named.
 */

export const plansRelations = relations(plans, ({ many }) => ({
  subscriptions: many(subscriptions),
}));

export const customersRelations = relations(customers, ({ many }) => ({
  subscriptions: many(subscriptions),
  paymentMethods: many(paymentMethods),
}));

export const subscriptionsRelations = relations(subscriptions, ({ one, many }) => ({
  customer: one(customers, { fields: [subscriptions.customerId], references: [customers.id] }),
  plan: one(plans, { fields: [subscriptions.planId], references: [plans.id] }),
  paymentMethod: one(paymentMethods, {
    fields: [subscriptions.paymentMethodId],
    references: [paymentMethods.id],
    relationName: "current_payment_method",
  }),
  paymentMethods: many(paymentMethods, { relationName: "subscription_payment_methods" }),
  enrollments: many(enrollments),
  charges: many(charges),
}));

export const paymentMethodsRelations = relations(paymentMethods, ({ one }) => ({
  customer: one(customers, { fields: [paymentMethods.customerId], references: [customers.id] }),
  subscription: one(subscriptions, {
    fields: [paymentMethods.subscriptionId],
    references: [subscriptions.id],
    relationName: "subscription_payment_methods",
  }),
  enrollment: one(enrollments, { fields: [paymentMethods.enrollmentId], references: [enrollments.id] }),
}));

export const enrollmentsRelations = relations(enrollments, ({ one }) => ({
  subscription: one(subscriptions, { fields: [enrollments.subscriptionId], references: [subscriptions.id] }),
}));

export const chargesRelations = relations(charges, ({ one, many }) => ({
  subscription: one(subscriptions, { fields: [charges.subscriptionId], references: [subscriptions.id] }),
  attempts: many(chargeAttempts),
  invoice: one(invoices),
  refunds: many(refunds),
}));

export const chargeAttemptsRelations = relations(chargeAttempts, ({ one }) => ({
  charge: one(charges, { fields: [chargeAttempts.chargeId], references: [charges.id] }),
}));

export const invoicesRelations = relations(invoices, ({ one }) => ({
  charge: one(charges, { fields: [invoices.chargeId], references: [charges.id] }),
}));

export const refundsRelations = relations(refunds, ({ one }) => ({
  charge: one(charges, { fields: [refunds.chargeId], references: [charges.id] }),
  chargeAttempt: one(chargeAttempts, { fields: [refunds.chargeAttemptId], references: [chargeAttempts.id] }),
}));

export const eventsRelations = relations(events, ({ one }) => ({
  subscription: one(subscriptions, { fields: [events.subscriptionId], references: [subscriptions.id] }),
  customer: one(customers, { fields: [events.customerId], references: [customers.id] }),
  charge: one(charges, { fields: [events.chargeId], references: [charges.id] }),
}));

export const webhookEndpointsRelations = relations(webhookEndpoints, ({ many }) => ({
  deliveries: many(webhookDeliveries),
}));

export const webhookDeliveriesRelations = relations(webhookDeliveries, ({ one }) => ({
  endpoint: one(webhookEndpoints, {
    fields: [webhookDeliveries.endpointId],
    references: [webhookEndpoints.id],
  }),
  event: one(events, { fields: [webhookDeliveries.eventId], references: [events.id] }),
}));

export const apiKeysRelations = relations(apiKeys, ({ many }) => ({
  idempotencyKeys: many(idempotencyKeys),
}));

export const idempotencyKeysRelations = relations(idempotencyKeys, ({ one }) => ({
  apiKey: one(apiKeys, { fields: [idempotencyKeys.apiKeyId], references: [apiKeys.id] }),
}));
