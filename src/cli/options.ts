import { InvalidArgumentError } from "commander";
import { z } from "zod";

/** Argument parsers for commander: a bad value is refused with the option named by commander. */

export function uuid(value: string): string {
  if (!z.uuid().safeParse(value).success) throw new InvalidArgumentError("expected an id (a uuid).");
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
