export { CURRENCY_EXPONENTS, exponentOf, isCurrency, UnknownCurrencyError } from "./currencies.js";
export {
  formatMoney,
  type Money,
  MoneyFormatError,
  money,
  type ParseOptions,
  toDecimalString,
  toMinor,
} from "./money.js";
