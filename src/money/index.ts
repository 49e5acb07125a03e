export { CURRENCY_EXPONENTS, exponentOf, isCurrency, UnknownCurrencyError } from "./currencies.js";
export {
  addMoney,
  formatMoney,
  type Money,
  MoneyFormatError,
  money,
  type ParseOptions,
  parseMoney,
  toDecimalString,
  toMinor,
} from "./money.js";
