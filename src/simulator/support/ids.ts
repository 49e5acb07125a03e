import { SeededRandom } from "./random.js";

export interface IdState {
  random: number;
  transactionIds: string[];
}

/** Prefix bytes whose base64 is "+/+/", so every card token carries `+` and `/` as well as `=` and `|`. */
const TOKEN_MARK = Buffer.from([0xfb, 0xff, 0xbf]);

/**
 * Makes every identifier the simulator hands out. Transaction ids never repeat during the life of a
 * simulator, even across /_sim/reset, so an engine database that outlives a reset cannot collide.
 */
export class IdFactory {
  private transactionIds = new Set<string>();

  constructor(private random: SeededRandom) {}

  /** What a restarted simulator needs to go on without repeating an id: the stream and the ids issued. */
  snapshot(): IdState {
    return { random: this.random.position, transactionIds: [...this.transactionIds] };
  }

  restore(state: IdState): void {
    this.random = new SeededRandom(state.random);
    this.transactionIds = new Set(state.transactionIds);
  }

  /** A 12-digit bank transaction id, shared by payments and refunds. */
  transactionId(): string {
    for (;;) {
      const id = `${1 + this.random.int(9)}${this.random.digits(11)}`;
      if (!this.transactionIds.has(id)) {
        this.transactionIds.add(id);
        return id;
      }
    }
  }

  authCode(): string {
    return this.random.digits(6);
  }

  guid(): string {
    const hex = this.random.bytes(16).toString("hex");
    const variant = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  checkoutId(): string {
    return this.random.bytes(12).toString("hex");
  }

  /** Base64 of random bytes, a `|` separator and a second base64 part: `+`, `/`, `=`, `|` all appear. */
  cardToken(): string {
    const head = this.random.bytes(16).toString("base64");
    const tail = Buffer.concat([TOKEN_MARK, this.random.bytes(4)]).toString("base64");
    return `${head}|${tail}`;
  }

  bearer(): string {
    return this.random.bytes(32).toString("base64url");
  }
}
