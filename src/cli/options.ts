import { InvalidArgumentError } from "commander";

/**
 * Argument parsers for commander: a bad value is refused with the option named by commander. They
 * run while the command line is read, before any command's modules load, so they stay plain: no
 * zod here (loading it costs more than the rest of `billing --help`).
 */

/** zod's z.uuid() pattern (RFC 9562 versions 1-8, the nil and max ids): the ids the services accept. */
const UUID =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export function uuid(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError("expected an id (a uuid).");
  return value;
}

export function integer(min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return number;
  };
}

/**
 * A list of values, each one of `choices`, given comma-separated or by repeating the option
 * (`--opt-out receipt,payment_due`, `--opt-out receipt --opt-out payment_due`).
 */
export function choiceList<T extends string>(choices: readonly T[]) {
  return (value: string, previous: T[] = []): T[] => {
    const items = value.split(",").map((item) => item.trim());
    if (items.some((item) => !(choices as readonly string[]).includes(item))) {
      throw new InvalidArgumentError(`expected one or more of ${choices.join(", ")}, separated by commas.`);
    }
    return [...new Set([...previous, ...(items as T[])])];
  };
}
