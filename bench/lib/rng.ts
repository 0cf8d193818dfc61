// Seeded randomness for bench data: the same seed always gives the same tickets.
import { encodeTime, ID_ALPHABET } from '../../lib/ids';

// ---- PRNG ---------------------------------------------------------------------------------

/** mulberry32: tiny, fast, good enough for test data, fully determined by its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** weighted pick: [[value, weight], …] */
  weighted<T>(pairs: ReadonlyArray<readonly [T, number]>): T {
    const total = pairs.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [v, w] of pairs) if ((r -= w) < 0) return v;
    return pairs[pairs.length - 1][0];
  }
}

// ---- ids in the app's shape (prefix_ + 10 time chars + 16 random chars), but seeded ------

export function seededId(prefix: string, ms: number, rng: Rng): string {
  let r = '';
  for (let i = 0; i < 16; i++) r += ID_ALPHABET[rng.int(32)];
  return `${prefix}_${encodeTime(ms)}${r}`;
}
