/**
 * The ops pages' JSON (/ops/data.json and the dashboard's chart data) in the API's snake_case. The
 * read models keep their TypeScript camelCase; keys are renamed once, while serialising, so a new
 * field needs nothing here. Only keys change: values (statuses, currency codes) are data.
 */

type SnakeKey<K extends string> = K extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeKey<Tail>}`
  : K;

/** The shape JSON.parse gives back for a T serialised by snakeJson. */
export type SnakeCased<T> = T extends { toJSON(): infer J }
  ? J
  : T extends readonly (infer Item)[]
    ? SnakeCased<Item>[]
    : T extends object
      ? { [K in keyof T as K extends string ? SnakeKey<K> : K]: SnakeCased<T[K]> }
      : T;

const snakeKey = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function snakeJson(value: unknown): string {
  // The replacer sees each value after its toJSON (a luxon DateTime is an ISO string by then) and
  // before its members, so renaming a plain object's own keys here reaches every level.
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === "object" && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).map(([k, v]) => [snakeKey(k), v]))
      : member,
  );
}
