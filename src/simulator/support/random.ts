/**
 * A small seeded pseudo-random generator (mulberry32). The simulator draws every id, token and
 * fault roll from it, so a run with a given seed is reproducible; it is not for cryptography.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Where the stream stands; a generator built on it continues the same stream (a state file keeps it). */
  get position(): number {
    return this.state >>> 0;
  }

  uint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4_294_967_296;
  }

  /** An integer in [0, maxExclusive). */
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  bytes(count: number): Buffer {
    const out = Buffer.alloc(count);
    for (let i = 0; i < count; i += 4) {
      const word = this.uint32();
      for (let j = 0; j < 4 && i + j < count; j++) out[i + j] = (word >>> (8 * j)) & 0xff;
    }
    return out;
  }

  digits(count: number): string {
    let out = "";
    for (let i = 0; i < count; i++) out += String(this.int(10));
    return out;
  }
}
