/** The next charge of a subscription, previewed exactly as the billing tick will create it. */
export { type NoUpcomingCharge, type UpcomingCharge, upcomingCharge } from "./upcoming-charge.js";
