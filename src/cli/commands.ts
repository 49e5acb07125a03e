import { Argument, type Command, Option } from "commander";
import { CHARGE_STATES } from "../billing/charge-states.js";
import { MESSAGE_KINDS, MESSAGE_STATUSES } from "../billing/customer-messages.js";
import { COUPON_DURATIONS } from "../billing/discount.js";
import type { FeatureKind } from "../billing/entitlements.js";
import { INTERVAL_UNITS } from "../billing/interval-units.js";
import type { CollectionMethod } from "../billing/payment-link.js";
import { PRORATION_BEHAVIORS } from "../billing/proration-behaviors.js";
import type { RefundReason, RefundStatus } from "../billing/refund-state.js";
import { SUBSCRIPTION_STATES } from "../billing/subscription-states.js";
import { CUSTOMER_LANGUAGES } from "../customers/languages.js";
import type { DocumentLanguage } from "../documents/index.js";
import { IMPORT_COLUMNS } from "../imports/columns.js";
import type { Actions } from "./actions.js";
import { registerMeters } from "./meters-command.js";
import { choiceList, integer, uuid } from "./options.js";
import { priceOptions } from "./tier-option.js";
import { registerUsagePrices } from "./usage-prices-command.js";

/**
 * billing/payment-link.ts's COLLECTION_METHODS, spelt out: that module loads the dunning rules (and
 * zod), which the help should not pay for. The type keeps the two lists from drifting apart.
 */
const COLLECTION_METHODS = [
  "charge_automatically",
  "send_payment_link",
] as const satisfies readonly CollectionMethod[];

/**
 * The refunds table's statuses and reasons (db/schema/enums.ts, which loads drizzle), spelt out as
 * well; billing/refund-state.ts's types, which the refunds table's rows must match, keep them in step.
 */
const REFUND_STATUSES = [
  "requested",
  "completed",
  "under_processing",
  "failed",
  "unknown",
] as const satisfies readonly RefundStatus[];
const REFUND_REASONS = ["requested", "duplicate"] as const satisfies readonly RefundReason[];

/** customer-documents' DOCUMENT_LANGUAGES, spelt out too: that module loads the documents' renderers. */
const DOCUMENT_LANGUAGES = ["en", "ar", "bilingual"] as const satisfies readonly DocumentLanguage[];

/**
 * Every command's definition: its name, arguments, options and help text, and the action that
 * names its implementation in actions/ (see actions.ts). Only definitions live here, in one module
 * so that reading a command line loads few: what this file imports is what every `billing` call
 * pays for, so it stays commander, the option parsers and the constant lists the help shows.
 */

function registerMigrate(program: Command, action: Actions): void {
  program
    .command("migrate")
    .description(
      "create the database if missing and apply pending migrations (every engine process also does)",
    )
    .action(action(() => import("./actions/migrate.js"), "run"));
}

function registerPlans(program: Command, action: Actions): void {
  const plans = program.command("plans").description("the plan catalogue");
  const load = () => import("./actions/plans.js");

  const create = plans
    .command("create")
    .description("create a plan; prints it with its id")
    .requiredOption("--name <name>", "name shown to customers")
    .option(
      "--amount <amount>",
      'a decimal such as "100.00": the price of one period (flat), of one unit (per_unit) or of one package (package); not with tiered or volume',
    )
    .requiredOption("--currency <code>", "ISO 4217 code, e.g. QAR");
  priceOptions(create, {
    modelHelp: "how the price grows with the quantity; any but flat needs --billing-mode autosave",
    defaultModel: "flat",
    tierExample: "--tier 10:5.00 --tier inf:4.00",
  })
    .addOption(
      new Option("--interval <unit>", "length unit of a period")
        .choices(INTERVAL_UNITS)
        .makeOptionMandatory(),
    )
    .option("--interval-count <n>", "units per period", integer(1, 365), 1)
    .option("--trial-days <n>", "free days before the first charge", integer(0, 730), 0)
    .addOption(
      new Option(
        "--billing-mode <mode>",
        "recurring: the card token is charged the amount it was enrolled for; autosave: any amount (needed for plan changes, coupons and any price model but flat)",
      )
        .choices(["recurring", "autosave"])
        .default("recurring"),
    )
    .addOption(
      new Option(
        "--collection-method <method>",
        "how its subscriptions pay unless they say otherwise: charge_automatically (the saved card, default) or send_payment_link (a payment link per charge)",
      ).choices(COLLECTION_METHODS),
    )
    .option(
      "--trial-without-card",
      "the trial starts without a card; its subscriptions pay by payment link (needs --trial-days of 1 or more)",
    )
    .action(action(load, "create"));

  plans
    .command("list")
    .description("list the plans that take new subscriptions, oldest first")
    .option("--archived", "include archived plans")
    .action(action(load, "list"));

  plans
    .command("show")
    .description("show one plan, archived or not")
    .argument("<id>", "plan id", uuid)
    .action(action(load, "show"));

  const edit = () => import("./actions/plan-edit.js");
  plans
    .command("update")
    .description(
      "change what a plan's subscriptions do not pay: its name, product, and what new subscriptions start with; " +
        "never its price, interval or billing mode (a new price is a new plan)",
    )
    .argument("<id>", "plan id", uuid)
    .option("--name <name>", "name shown to customers")
    .option(
      "--trial-days <n>",
      "free days of the subscriptions that start from now on; started ones keep theirs",
      integer(0, 730),
    )
    .option("--product-id <id>", "the gateway product of its invoice items")
    .option("--no-product-id", "link no gateway product")
    .addOption(
      new Option(
        "--collection-method <method>",
        "how new subscriptions pay unless they say otherwise",
      ).choices(COLLECTION_METHODS),
    )
    .option("--trial-without-card", "new subscriptions start their trial without a card (needs a trial)")
    .option("--no-trial-without-card", "new subscriptions save a card before their trial")
    .action(action(edit, "update"));

  plans
    .command("archive")
    .description(
      "stop a plan from taking new subscriptions; those on it keep billing, scheduled changes onto it still happen",
    )
    .argument("<id>", "plan id", uuid)
    .action(action(edit, "archive"));

  plans
    .command("unarchive")
    .description("let an archived plan take new subscriptions again")
    .argument("<id>", "plan id", uuid)
    .action(action(edit, "unarchive"));
}

function registerCoupons(program: Command, action: Actions): void {
  const coupons = program.command("coupons").description("discount codes, redeemed on subscriptions");
  const load = () => import("./actions/coupons.js");

  coupons
    .command("create")
    .description("create a coupon: --percent-off, or --amount-off with --currency; prints it with its id")
    .requiredOption("--code <code>", "what customers type; stored upper-case")
    .option("--name <name>", "what it is for")
    .option("--percent-off <n>", "whole percent off each period covered", integer(1, 99))
    .option("--amount-off <amount>", 'fixed amount off each period covered, a decimal such as "10.00"')
    .option("--currency <code>", "the fixed amount's currency, e.g. QAR")
    .addOption(
      new Option("--duration <duration>", "which periods it covers")
        .choices(COUPON_DURATIONS)
        .makeOptionMandatory(),
    )
    .option("--duration-periods <n>", "how many periods (repeating only)", integer(1, 1200))
    .option("--max-redemptions <n>", "how many subscriptions may redeem it", integer(1, 1_000_000_000))
    .option("--expires-at <time>", "ISO 8601 instant with an offset (billing clock): no redemption from then")
    .action(action(load, "create"));

  coupons
    .command("list")
    .description("list the coupons that can be redeemed, oldest first")
    .option("--archived", "include archived coupons")
    .action(action(load, "list"));

  coupons
    .command("show")
    .description("show one coupon")
    .argument("<coupon>", "coupon id or code")
    .action(action(load, "show"));

  coupons
    .command("archive")
    .description("stop a coupon from being redeemed; discounts already redeemed run their course")
    .argument("<coupon>", "coupon id or code")
    .action(action(load, "archive"));
}

function registerAddons(program: Command, action: Actions): void {
  const addons = program
    .command("addons")
    .description("recurring prices sold beside plans, each billed as its own line of a period's charge");
  const load = () => import("./actions/addons.js");

  const create = addons
    .command("create")
    .description("create an add-on; prints it with its id")
    .requiredOption("--code <code>", "names it in every command: 1-64 of a-z, 0-9, _ . -; never changes")
    .requiredOption("--name <name>", "shown on the charge's line")
    .option(
      "--amount <amount>",
      'a decimal such as "10.00": the price of one period (flat), of one unit (per_unit) or of one package (package); not with tiered or volume',
    )
    .requiredOption("--currency <code>", "ISO 4217 code, e.g. QAR; only subscriptions billed in it take it");
  priceOptions(create, { modelHelp: "how the price grows with the quantity", defaultModel: "flat" }).action(
    action(load, "create"),
  );

  addons
    .command("list")
    .description("list the add-ons that can be attached, oldest first")
    .option("--archived", "include archived add-ons")
    .action(action(load, "list"));

  addons
    .command("archive")
    .description("attach an add-on to nothing new; subscriptions that carry it keep it")
    .argument("<code>", "add-on code")
    .action(action(load, "archive"));
}

/** `subscriptions addons …`, under the subscriptions command (registered before it). */
function registerSubscriptionAddons(program: Command, action: Actions): void {
  const subscriptions = program.commands.find((command) => command.name() === "subscriptions");
  if (!subscriptions) throw new Error("register the subscriptions command before its add-ons");
  const load = () => import("./actions/addons.js");
  const onSubscription = subscriptions
    .command("addons")
    .description("the add-ons a subscription carries, billed from its next period charged (no proration)");
  onSubscription
    .command("set")
    .description("attach an add-on, or change its quantity (the same quantity changes nothing)")
    .argument("<id>", "subscription id", uuid)
    .argument("<code>", "add-on code")
    .requiredOption("--quantity <n>", "units of the add-on", integer(1, 1_000_000))
    .action(action(load, "setOnSubscription"));
  onSubscription
    .command("remove")
    .description("take an add-on off; later periods are charged without it")
    .argument("<id>", "subscription id", uuid)
    .argument("<code>", "add-on code")
    .action(action(load, "removeFromSubscription"));
  onSubscription
    .command("list")
    .description("list the add-ons a subscription carries, with their quantity and period price")
    .argument("<id>", "subscription id", uuid)
    .action(action(load, "listOnSubscription"));
}

function registerCustomers(program: Command, action: Actions): void {
  const customers = program.command("customers").description("who pays");
  const load = () => import("./actions/customers.js");

  customers
    .command("create")
    .description("create a customer; an existing e-mail gives back that customer (created: false)")
    .requiredOption("--email <email>", "unique per customer")
    .option("--name <name>", "name for the checkout page and invoices")
    .option("--phone <phone>", "with country code, e.g. +97455555555")
    .addOption(new Option("--language <code>", "language of the checkout page").choices(CUSTOMER_LANGUAGES))
    .action(action(load, "create"));

  customers.command("list").description("list customers, oldest first").action(action(load, "list"));

  customers
    .command("show")
    .description("show one customer")
    .argument("<id>", "customer id", uuid)
    .action(action(load, "show"));

  customers
    .command("update")
    .description(
      "change a customer's name or phone, and how they are written to: language, time zone, the message kinds they do not want",
    )
    .argument("<id>", "customer id", uuid)
    .option("--name <name>", "name for the checkout page and invoices")
    .option("--phone <phone>", "with country code, e.g. +97455555555")
    .addOption(
      new Option("--language <code>", "language of the checkout page, messages and documents").choices(
        CUSTOMER_LANGUAGES,
      ),
    )
    .option("--time-zone <zone>", "IANA zone of the dates in their messages, e.g. Asia/Qatar")
    .option(
      "--opt-out <kinds>",
      `stop sending these message kinds, comma-separated: ${MESSAGE_KINDS.join(", ")}`,
      choiceList(MESSAGE_KINDS),
    )
    .option("--opt-in <kinds>", "send these message kinds again, comma-separated", choiceList(MESSAGE_KINDS))
    .action(action(load, "update"));

  customers
    .command("entitlements")
    .description(
      "show what a customer may use now, as GET /v1/customers/:id/entitlements answers " +
        "(--json: that answer), with the subscriptions each feature comes from",
    )
    .argument("<id>", "customer id", uuid)
    .action(action(() => import("./actions/entitlements.js"), "show"));
}

function registerPortalLink(program: Command, action: Actions): void {
  program
    .command("portal-link")
    .description(
      "print a single-use link into the customer portal (subscriptions, card, cancellation), " +
        "valid for PORTAL_LINK_MINUTES",
    )
    .requiredOption("--customer <id|email>", "the customer's id or e-mail")
    .action(action(() => import("./actions/portal.js"), "create"));
}

function registerEnroll(program: Command, action: Actions): void {
  program
    .command("enroll")
    .description(
      "subscribe a customer to a plan and print the checkout link where the card is saved " +
        "(none for a subscription paying by link, which starts at once); " +
        "or, with --csv, enroll every row of a file (email,name,phone,plan[,collection_method]), safe to run again",
    )
    .option("--customer <id>", "customer id", uuid)
    .option("--plan <id>", "plan id", uuid)
    .option(
      "--csv <file>",
      "bulk: a CSV with the header email,name,phone,plan (plan is a plan id), and optionally collection_method and quantity",
    )
    .option("--quantity <n>", "units of the plan (seats), 1 by default", integer(1, 1_000_000))
    .option("--out <file>", "bulk: where to write the checkout links (default <file>.links.csv)")
    .option(
      "--allow-duplicate",
      "subscribe although the customer already has a subscription to the plan that is not canceled",
    )
    .option(
      "--coupon <code>",
      "redeem this coupon on the new subscription (autosave plans, or a subscription paying by link)",
    )
    .addOption(
      new Option(
        "--collection-method <method>",
        "charge_automatically: the card is saved at a checkout first; send_payment_link: no card, it starts at once and each charge goes out as a payment link (default: the plan's)",
      ).choices(COLLECTION_METHODS),
    )
    .action(action(() => import("./actions/enroll.js"), "run"));
}

function registerImport(program: Command, action: Actions): void {
  program
    .command("import")
    .description(
      "import subscriptions moving from another billing system with the card tokens the gateway " +
        "already issued; tokens are sealed on the way in; safe to run again on the same file",
    )
    .requiredOption(
      "--csv <file>",
      `a CSV with the header ${IMPORT_COLUMNS.join(",")} (email, plan, card_token required)`,
    )
    .option("--dry-run", "validate and report; write nothing")
    .action(action(() => import("./actions/import.js"), "run"));
}

function registerSubscriptions(program: Command, action: Actions): void {
  const subscriptions = program.command("subscriptions").description("customers' subscriptions to plans");
  const reads = () => import("./actions/subscriptions.js");

  subscriptions
    .command("list")
    .description("list subscriptions, oldest first")
    .addOption(new Option("--status <status>", "only this status").choices(SUBSCRIPTION_STATES))
    .option("--customer <id>", "only this customer's", uuid)
    .action(action(reads, "list"));

  subscriptions
    .command("show")
    .description("show one subscription")
    .argument("<id>", "subscription id", uuid)
    .action(action(reads, "show"));

  subscriptions
    .command("upcoming")
    .description(
      "preview the next charge as the billing tick will create it: lines, discount, credit, total, tax",
    )
    .argument("<id>", "subscription id", uuid)
    .action(action(reads, "upcoming"));

  subscriptions
    .command("cancel")
    .description("cancel a subscription now (its open charges too), or at the end of the paid period")
    .argument("<id>", "subscription id", uuid)
    .option("--at-period-end", "keep it until the period paid for ends")
    .action(action(() => import("./actions/subscription-cancel.js"), "cancel"));

  subscriptions
    .command("resume")
    .description(
      "keep a subscription that was set to cancel at period end, or resume a paused one " +
        "(billing restarts at the next period boundary)",
    )
    .argument("<id>", "subscription id", uuid)
    .action(action(() => import("./actions/subscription-cancel.js"), "resume"));

  const planChange = () => import("./actions/plan-change.js");
  subscriptions
    .command("change-plan")
    .description(
      "move a subscription to another plan of its currency, another quantity (seats), or both: prorated now (the difference charged at once, or kept as credit), at the period's end, or with no proration",
    )
    .argument("<id>", "subscription id", uuid)
    .option("--plan <id>", "the new plan's id (default: the current plan)", uuid)
    .option("--quantity <n>", "the new quantity (default: the current one)", integer(1, 1_000_000))
    .addOption(
      new Option("--proration <behavior>", "how the change is billed (default PRORATION_BEHAVIOR)").choices(
        PRORATION_BEHAVIORS,
      ),
    )
    .action(action(planChange, "change"));

  const oneOffs = () => import("./actions/one-off-charges.js");
  subscriptions
    .command("charge-once")
    .description(
      "charge the customer once (a set-up fee, an overage, a service): now as a charge of its own, or with --next-bill as a line of the next period's charge",
    )
    .argument("<id>", "subscription id", uuid)
    .requiredOption("--description <text>", "what the customer sees on the charge and the receipt")
    .requiredOption("--amount <decimal>", 'price of one unit in the subscription\'s currency, e.g. "150.00"')
    .option("--quantity <n>", "units (default 1)", integer(1, 1_000_000))
    .option("--next-bill", "add it to the next period's charge instead of charging now")
    .action(action(oneOffs, "create"));

  subscriptions
    .command("one-off-charges")
    .description("list a subscription's one-off charges, newest first")
    .argument("<id>", "subscription id", uuid)
    .action(action(oneOffs, "list"));

  subscriptions
    .command("cancel-one-off")
    .description("cancel a one-off charge still waiting for the next bill")
    .argument("<id>", "subscription id", uuid)
    .argument("<one-off-id>", "one-off charge id", uuid)
    .action(action(oneOffs, "cancel"));

  subscriptions
    .command("cancel-plan-change")
    .description("take back the plan change scheduled for the end of the period")
    .argument("<id>", "subscription id", uuid)
    .action(action(planChange, "cancelScheduled"));

  subscriptions
    .command("set-collection-method")
    .description(
      "switch how a subscription pays: charge_automatically (needs a card the gateway lets us charge) " +
        "or send_payment_link (its waiting charges go out as payment links at once)",
    )
    .argument("<id>", "subscription id", uuid)
    .addArgument(new Argument("<method>", "the new collection method").choices(COLLECTION_METHODS))
    .action(action(() => import("./actions/collection-method.js"), "set"));

  const discount = () => import("./actions/subscription-discount.js");
  subscriptions
    .command("apply-coupon")
    .description("redeem a coupon on a subscription: its discount comes off each period's charge it covers")
    .argument("<id>", "subscription id", uuid)
    .requiredOption("--coupon <code>", "the coupon's code")
    .action(action(discount, "apply"));

  subscriptions
    .command("remove-discount")
    .description("end a subscription's discount now; later periods are charged in full")
    .argument("<id>", "subscription id", uuid)
    .action(action(discount, "remove"));

  subscriptions
    .command("credit")
    .description(
      "give the customer credit, taken off the subscription's next charges (part of a payment back: " +
        "the gateway refunds only whole payments); the event log keeps the grant and its reason",
    )
    .argument("<id>", "subscription id", uuid)
    .requiredOption("--amount <amount>", 'the credit in the plan\'s currency, a decimal such as "10.00"')
    .requiredOption("--reason <text>", "why, up to 300 characters; kept in the event log")
    .action(action(() => import("./actions/subscription-credit.js"), "grant"));
}

function registerCharges(program: Command, action: Actions): void {
  const charges = program
    .command("charges")
    .description("what subscriptions owe per period, and its collection");
  const reads = () => import("./actions/charges.js");
  const collection = () => import("./actions/charge-collection.js");

  charges
    .command("list")
    .description("list charges, oldest first")
    .option("--subscription <id>", "only this subscription's", uuid)
    .addOption(new Option("--status <status>", "only this status").choices(CHARGE_STATES))
    .action(action(reads, "list"));

  charges
    .command("show")
    .description("show one charge")
    .argument("<id>", "charge id", uuid)
    .action(action(reads, "show"));

  charges
    .command("retry")
    .description(
      "collect a charge now, before its scheduled retry (an uncollectible one too, e.g. after a new card)",
    )
    .argument("<id>", "charge id", uuid)
    .action(action(collection, "retry"));

  charges
    .command("reconcile")
    .description(
      "settle a charge held for review (needs_review) from CheckStatus on its attempt; never charges the card",
    )
    .argument("<id>", "charge id", uuid)
    .action(action(collection, "reconcile"));

  charges
    .command("refund")
    .description("return the whole payment of a paid charge through the gateway")
    .argument("<id>", "charge id", uuid)
    .action(action(collection, "refund"));
}

function registerRefunds(program: Command, action: Actions): void {
  const refunds = program
    .command("refunds")
    .description("money returned to customers: refunds of paid charges and of duplicate payments");
  const load = () => import("./actions/refunds.js");

  refunds
    .command("list")
    .description("list refunds, oldest first")
    .option("--charge <id>", "only this charge's", uuid)
    .addOption(new Option("--status <status>", "only this status").choices(REFUND_STATUSES))
    .addOption(new Option("--reason <reason>", "only this reason").choices(REFUND_REASONS))
    .action(action(load, "list"));

  refunds
    .command("show")
    .description("show one refund")
    .argument("<id>", "refund id", uuid)
    .action(action(load, "show"));
}

function registerDocuments(program: Command, action: Actions): void {
  const load = () => import("./actions/documents.js");
  const pdf = "also write the PDF the customer gets to this file";
  const lang = () =>
    new Option(
      "--lang <language>",
      "the PDF's language (default: both when RECEIPT_BILINGUAL is set, else the customer's)",
    ).choices(DOCUMENT_LANGUAGES);

  program
    .command("receipts")
    .description("the numbered receipts of paid charges")
    .command("show")
    .description("show a paid charge's receipt: its number, amounts and the signed links its customer opens")
    .argument("<charge-id>", "the paid charge's id", uuid)
    .option("--pdf <file>", pdf)
    .addOption(lang())
    .action(action(load, "showReceipt"));

  program
    .command("credit-notes")
    .description("the numbered credit notes of refunds the gateway accepted")
    .command("show")
    .description("show a refund's credit note: its number, amounts and the signed links its customer opens")
    .argument("<refund-id>", "the refund's id", uuid)
    .option("--pdf <file>", pdf)
    .addOption(lang())
    .action(action(load, "showCreditNote"));
}

function registerMessages(program: Command, action: Actions): void {
  const messages = program
    .command("messages")
    .description("the e-mails written to customers (receipts, payment notices, …) and how far each got");
  const load = () => import("./actions/messages.js");

  messages
    .command("list")
    .description("list messages, newest first")
    .option("--customer <id>", "only this customer's", uuid)
    .addOption(new Option("--status <status>", "only this status").choices(MESSAGE_STATUSES))
    .addOption(new Option("--kind <kind>", "only this kind").choices(MESSAGE_KINDS))
    .option("--limit <n>", "how many", integer(1, 500), 50)
    .action(action(load, "list"));

  messages
    .command("show")
    .description("show a message: its headers, status and text body")
    .argument("<id>", "message id", uuid)
    .option("--html", "print its HTML body instead")
    .action(action(load, "show"));

  messages
    .command("resend")
    .description(
      "send a message again: a new message to the customer's e-mail as it is now, sent by the worker",
    )
    .argument("<id>", "message id", uuid)
    .action(action(load, "resend"));
}

function registerInvoices(program: Command, action: Actions): void {
  const invoices = program
    .command("invoices")
    .description("gateway invoices sent for charges still unpaid when dunning ended");
  const load = () => import("./actions/invoices.js");

  invoices
    .command("list")
    .description("list invoices, oldest first")
    .option("--subscription <id>", "only this subscription's", uuid)
    .action(action(load, "list"));

  invoices
    .command("show")
    .description("show one invoice")
    .argument("<id>", "invoice id", uuid)
    .action(action(load, "show"));
}

function registerDunning(program: Command, action: Actions): void {
  const dunning = program.command("dunning").description("collecting charges whose payment failed");

  dunning
    .command("run")
    .description("collect now the retrying charges whose retry is due (or all of them with --all)")
    .option("--dry-run", "only list the charges that would be collected")
    .option("--all", "every retrying charge, not only those due")
    .option("--subscription <id>", "only this subscription's charges", uuid)
    .option("--customer <id>", "only this customer's charges", uuid)
    .action(action(() => import("./actions/dunning.js"), "run"));
}

function registerStatus(program: Command, action: Actions): void {
  program
    .command("status")
    .description("whether the engine can collect: database, queue, gateway, billing tick, circuit breaker")
    .action(action(() => import("./actions/status.js"), "run"));
}

function registerBreaker(program: Command, action: Actions): void {
  const breaker = program
    .command("breaker")
    .description("the gateway circuit breaker: collection pauses by itself on systemic gateway failure");
  const load = () => import("./actions/breaker.js");

  breaker
    .command("status")
    .description("show whether collection is paused, and why")
    .action(action(load, "status"));

  breaker
    .command("resume")
    .description("close the breaker and resume collection, after checking the gateway")
    .option("--note <text>", "what was checked or fixed, kept in the event log")
    .action(action(load, "resume"));
}

function registerClock(program: Command, action: Actions): void {
  const clock = program
    .command("clock")
    .description("the engine's controllable billing clock (BILLING_CLOCK=controllable)");
  const load = () => import("./actions/clock.js");

  clock.command("show").description("print the billing time").action(action(load, "show"));

  clock
    .command("advance")
    .description("move the billing time forwards, e.g. `billing clock advance 1mo` or `P1M`")
    .argument("<duration>", "ISO 8601 duration (P1M, P1D, PT12H) or 1y, 1mo, 2w, 30d, 12h, 15min, 30s")
    .action(action(load, "advance"));

  clock
    .command("set")
    .description("put the billing time at an instant; an earlier one only with --force")
    .argument("<time>", "ISO 8601 timestamp with an offset, e.g. 2026-03-01T00:00:00Z")
    .option("--force", "move the billing time backwards, to before what the engine has billed")
    .action(action(load, "set"));
}

function registerKeys(program: Command, action: Actions): void {
  const keys = program.command("keys").description("API keys of the merchant API");
  const load = () => import("./actions/keys.js");

  keys
    .command("create")
    .description("create an API key; the key is printed this once and cannot be shown again")
    .requiredOption("--name <name>", "what the key is for, e.g. the client's name")
    .option("--read-only", "a key that may only read (GET), for dashboards and reports")
    .option(
      "--allow <operation>",
      'a key that may read and do only this write, e.g. "POST /v1/charges/:id/refund" (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .action(action(load, "create"));

  keys
    .command("list")
    .description("list API keys, oldest first, revoked ones included (only their prefix is shown)")
    .action(action(load, "list"));

  keys
    .command("revoke")
    .description("stop a key from authenticating, at once (its dashboard sessions end too)")
    .argument("<id>", "key id (from keys list)", uuid)
    .action(action(load, "revoke"));
}

/** The engine's parts as separate long-running processes (actions/processes.ts). */
function registerProcesses(program: Command, action: Actions): void {
  const load = () => import("./actions/processes.js");

  program
    .command("serve")
    .description("run the HTTP server (health, gateway callbacks, merchant API)")
    .action(action(load, "serve"));

  program
    .command("worker")
    .description("run the workers: charges, invoices, token deactivation")
    .action(action(load, "worker"));

  program
    .command("scheduler")
    .description(
      "run the billing scheduler (a tick every BILLING_TICK_SECONDS); --once runs one tick and exits",
    )
    .option("--once", "run one billing tick now, print what it did, and exit")
    .action(action(load, "scheduler"));

  program
    .command("gateway")
    .description("run the gateway simulator alone (as `npm run gateway`); point GATEWAY_BASE_URL at it")
    .option("--port <n>", "port, 0 for any free one (default GATEWAY_SIM_PORT, 4010)", integer(0, 65_535))
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--seed <n>", "seed of ids, tokens and fault rolls (default random)", integer(0, 2 ** 32 - 1))
    .action(action(load, "gateway"));
}

/** Registers every command on `program`, in the order `billing --help` lists them. */
/** billing/entitlements.ts's FEATURE_KINDS, spelt out: the help should not load that module. */
const FEATURE_KINDS = ["boolean", "limit"] as const satisfies readonly FeatureKind[];

/** `features …`, and `plans features …` under the plans command (registered before it). */
function registerFeatures(program: Command, action: Actions): void {
  const features = program
    .command("features")
    .description("what plans give their subscribers (entitlements)");
  const load = () => import("./actions/features.js");

  features
    .command("create")
    .description("create a feature: a switch (boolean) or a limit; prints it")
    .requiredOption("--code <code>", "what your application asks about: a-z, 0-9, _ . -; never changes")
    .requiredOption("--name <name>", "what it is, for people")
    .addOption(
      new Option("--kind <kind>", "a switch, or a number").choices(FEATURE_KINDS).makeOptionMandatory(),
    )
    .action(action(load, "create"));

  features
    .command("list")
    .description("list features, oldest first")
    .option("--archived", "include archived features")
    .action(action(load, "list"));

  features
    .command("archive")
    .description("stop every plan from granting a feature; its customers are told (entitlements.changed)")
    .argument("<code>", "feature code")
    .action(action(load, "archive"));

  const plans = program.commands.find((command) => command.name() === "plans");
  if (!plans) throw new Error("register the plans command before the features");
  const onPlans = plans.command("features").description("the features a plan includes");
  onPlans
    .command("set")
    .description("include a feature in a plan, or change its limit; its customers are told")
    .argument("<plan>", "plan id", uuid)
    .argument("<code>", "feature code")
    .option("--limit <n>", "a limit feature's limit", integer(0, Number.MAX_SAFE_INTEGER))
    .option("--unlimited", "a limit feature without limit")
    .action(action(load, "setOnPlan"));
  onPlans
    .command("unset")
    .description("take a feature off a plan; its customers are told")
    .argument("<plan>", "plan id", uuid)
    .argument("<code>", "feature code")
    .action(action(load, "unsetOnPlan"));
  onPlans
    .command("list")
    .description("list the features a plan includes, by code")
    .argument("<plan>", "plan id", uuid)
    .action(action(load, "listOnPlan"));
}

export function registerCommands(program: Command, action: Actions): void {
  registerMigrate(program, action);
  registerPlans(program, action);
  registerUsagePrices(program, action);
  registerCoupons(program, action);
  registerAddons(program, action);
  registerFeatures(program, action);
  registerCustomers(program, action);
  registerPortalLink(program, action);
  registerEnroll(program, action);
  registerImport(program, action);
  registerSubscriptions(program, action);
  registerSubscriptionAddons(program, action);
  registerCharges(program, action);
  registerRefunds(program, action);
  registerDocuments(program, action);
  registerInvoices(program, action);
  registerDunning(program, action);
  registerMessages(program, action);
  registerStatus(program, action);
  registerBreaker(program, action);
  registerClock(program, action);
  registerKeys(program, action);
  registerMeters(program, action);
  registerProcesses(program, action);
}
