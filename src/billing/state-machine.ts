/**
 * The shared shape of the billing state machines (subscription, charge, payment attempt). Each
 * machine is one explicit table of allowed moves so that the rules can be read, reviewed and tested
 * in one place instead of being spread over `if` statements in workers.
 */
export type TransitionTable<S extends string> = { readonly [From in S]: readonly S[] };

export class IllegalTransitionError extends Error {
  constructor(
    readonly subject: string,
    readonly from: string,
    readonly to: string,
  ) {
    super(`cannot move a ${subject} from ${from} to ${to}`);
    this.name = "IllegalTransitionError";
  }
}

export function allowsTransition<S extends string>(table: TransitionTable<S>, from: S, to: S): boolean {
  return table[from].includes(to);
}

export function isTerminal<S extends string>(table: TransitionTable<S>, state: S): boolean {
  return table[state].length === 0;
}
