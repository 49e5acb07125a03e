/** Who pays: customers, unique by e-mail; and the merchant's settings for what they are sent. */
export {
  type CreateCustomerOptions,
  type CreateCustomerResult,
  createCustomer,
} from "./create-customer.js";
export {
  type CustomerInput,
  CustomerInputError,
  customerInputSchema,
  normaliseEmail,
  parseCustomerInput,
} from "./customer-input.js";
export type { Customer } from "./customer-record.js";
export { customerUpdateSchema } from "./customer-update-input.js";
export { findCustomerByEmail } from "./find-customer-by-email.js";
export { getCustomer } from "./get-customer.js";
export { CUSTOMER_LANGUAGES, type CustomerLanguage } from "./languages.js";
export {
  type CustomerPage,
  type ListCustomersOptions,
  listCustomers,
  listCustomersOptions,
} from "./list-customers.js";
export { type MerchantSettings, saveMerchantSettings } from "./merchant-settings.js";
export { updateCustomer } from "./update-customer.js";
