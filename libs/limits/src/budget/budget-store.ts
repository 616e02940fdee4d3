/**
 * Where budget counters live. Per budget occurrence (a key's or team's day, month or total) the
 * store keeps what was spent and what is held by requests in flight. `reserve` checks every
 * scope it is given and holds the amount in all of them, or in none, as one atomic step; so
 * concurrent requests on any number of replicas sharing the store never hold or spend past a
 * limit. A hold is settled to the real cost when its request ends, or expires after `holdTtlMs`
 * (a replica that died mid-request) and is then released.
 */
export interface BudgetCounter {
  /** Store key of this budget occurrence. */
  key: string;
  /** Limit in nano-dollars. */
  limit: number;
  /** When the occurrence ends (epoch ms), so its counter can expire; null for `total`. */
  expiresAt: number | null;
}

export type ReserveOutcome =
  | { status: 'held' }
  /** `index` is the first counter that cannot take the amount; spent and held are its figures. */
  | { status: 'refused'; index: number; spent: number; held: number }
  /** The counter has never been loaded (new period, or the store was emptied): seed it, then retry. */
  | { status: 'unseeded'; index: number };

export interface BudgetStore {
  reserve(counters: BudgetCounter[], amount: number, holdId: string, now: number, holdTtlMs: number): Promise<ReserveOutcome>;
  /**
   * Replaces the hold by the actual amount (charged even when the hold had expired). Call once per
   * hold. Answers each counter's spend after the charge (-1: not seeded), read in the same atomic
   * step, so exactly one settle sees a threshold crossed.
   */
  settle(counters: BudgetCounter[], holdId: string, actual: number): Promise<number[]>;
  /** Sets a counter's spend unless it is already set (first use in a period). */
  seed(counter: BudgetCounter, spent: number): Promise<void>;
  /** Spent and held, or null when the counter is not seeded. */
  read(key: string, now: number): Promise<{ spent: number; held: number } | null>;
}

interface Counter {
  spent: number;
  held: number;
  holds: Map<string, { amount: number; expires: number }>;
  expiresAt: number | null;
}

/** One process (no Redis): the same semantics in memory. */
export class MemoryBudgetStore implements BudgetStore {
  private readonly counters = new Map<string, Counter>();

  async reserve(counters: BudgetCounter[], amount: number, holdId: string, now: number, holdTtlMs: number): Promise<ReserveOutcome> {
    for (const [index, c] of counters.entries()) {
      const counter = this.live(c.key, now);
      if (!counter) return { status: 'unseeded', index };
      this.sweep(counter, now);
      if (counter.spent + counter.held + amount > c.limit) return { status: 'refused', index, spent: counter.spent, held: counter.held };
    }
    for (const c of counters) {
      const counter = this.counters.get(c.key)!;
      counter.held += amount;
      counter.holds.set(holdId, { amount, expires: now + holdTtlMs });
    }
    return { status: 'held' };
  }

  async settle(counters: BudgetCounter[], holdId: string, actual: number): Promise<number[]> {
    const after: number[] = [];
    for (const c of counters) {
      const counter = this.counters.get(c.key);
      if (!counter) {
        after.push(-1);
        continue;
      }
      const hold = counter.holds.get(holdId);
      if (hold) {
        counter.holds.delete(holdId);
        counter.held -= hold.amount;
      }
      counter.spent += actual;
      after.push(counter.spent);
    }
    return after;
  }

  async seed(counter: BudgetCounter, spent: number): Promise<void> {
    if (this.counters.has(counter.key)) return;
    this.counters.set(counter.key, { spent, held: 0, holds: new Map(), expiresAt: counter.expiresAt });
  }

  async read(key: string, now: number): Promise<{ spent: number; held: number } | null> {
    const counter = this.live(key, now);
    if (!counter) return null;
    this.sweep(counter, now);
    return { spent: counter.spent, held: counter.held };
  }

  private live(key: string, now: number): Counter | undefined {
    const counter = this.counters.get(key);
    if (counter && counter.expiresAt !== null && counter.expiresAt <= now) {
      this.counters.delete(key);
      return undefined;
    }
    return counter;
  }

  private sweep(counter: Counter, now: number): void {
    for (const [id, hold] of counter.holds) {
      if (hold.expires > now) continue;
      counter.holds.delete(id);
      counter.held -= hold.amount;
    }
  }
}
