import { randomUUID } from 'node:crypto';
import type { RateLimitStore, ReserveResult, WindowResult } from '../rate-limit-store';

/** Two handles on the same shared state (two replicas), or the same instance twice. */
export interface StorePair {
  a: RateLimitStore;
  b: RateLimitStore;
}

const WINDOW = 60_000;
/** A minute boundary: 1_700_000_040_000 is a whole number of minutes since the epoch. */
const BOUNDARY = 1_700_000_040_000;

const newKey = () => `k-${randomUUID()}`;
const allowedCount = (results: WindowResult[]) => results.filter((r) => r.allowed).length;

/** The semantics every RateLimitStore must share, run against each implementation. */
export function storeContract(pair: () => StorePair): void {
  it('admits exactly the limit out of 130 concurrent hits split across two handles', async () => {
    const { a, b } = pair();
    const key = newKey();
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 130 }, (_, i) => (i % 2 ? a : b).hit(key, 100, WINDOW, now)));
    expect(allowedCount(results)).toBe(100);
    for (const refused of results.filter((r) => !r.allowed)) {
      expect(refused).toMatchObject({ used: 100, remaining: 0, limit: 100 });
      expect(refused.resetMs).toBe(WINDOW);
    }
    expect(await a.peek(key, 100, WINDOW, now)).toMatchObject({ allowed: false, used: 100, remaining: 0 });
  });

  it('never records a refused hit', async () => {
    const { a, b } = pair();
    const key = newKey();
    for (let i = 0; i < 5; i++) expect((await a.hit(key, 5, WINDOW, BOUNDARY + i)).allowed).toBe(true);
    for (let i = 0; i < 50; i++) expect((await b.hit(key, 5, WINDOW, BOUNDARY + 10 + i)).allowed).toBe(false);
    // The first two hits expire; the refusals must not have taken their place.
    const later = BOUNDARY + WINDOW + 1;
    const results = await Promise.all(Array.from({ length: 4 }, () => a.hit(key, 5, WINDOW, later)));
    expect(allowedCount(results)).toBe(2);
  });

  it('slides: a burst straddling a minute boundary still sees exactly the limit', async () => {
    const { a, b } = pair();
    const key = newKey();
    const early = await Promise.all(Array.from({ length: 60 }, () => a.hit(key, 100, WINDOW, BOUNDARY - 10_000)));
    const late = await Promise.all(Array.from({ length: 40 }, () => b.hit(key, 100, WINDOW, BOUNDARY - 500)));
    expect(allowedCount([...early, ...late])).toBe(100);

    // A fixed per-minute counter would start afresh here; the sliding window does not.
    const afterBoundary = await Promise.all(Array.from({ length: 20 }, () => a.hit(key, 100, WINDOW, BOUNDARY + 500)));
    expect(allowedCount(afterBoundary)).toBe(0);
    expect(afterBoundary[0]).toMatchObject({ used: 100, remaining: 0, resetMs: 49_500, windowResetMs: 59_000 });

    // The 60 early hits leave the window exactly one window after they were made.
    expect(allowedCount(await Promise.all(Array.from({ length: 5 }, () => b.hit(key, 100, WINDOW, BOUNDARY + 49_999))))).toBe(0);
    const freed = await Promise.all(Array.from({ length: 70 }, () => b.hit(key, 100, WINDOW, BOUNDARY + 50_000)));
    expect(allowedCount(freed)).toBe(60);
    expect(allowedCount(await Promise.all(Array.from({ length: 5 }, () => a.hit(key, 100, WINDOW, BOUNDARY + 59_499))))).toBe(0);
    expect(allowedCount(await Promise.all(Array.from({ length: 50 }, () => a.hit(key, 100, WINDOW, BOUNDARY + 59_500))))).toBe(40);
  });

  it('reports time until one more unit fits and until the window is empty', async () => {
    const { a } = pair();
    const key = newKey();
    await a.hit(key, 3, WINDOW, BOUNDARY);
    const second = await a.hit(key, 3, WINDOW, BOUNDARY + 1_000);
    expect(second).toMatchObject({ allowed: true, used: 2, remaining: 1, resetMs: 0, windowResetMs: WINDOW });
    await a.hit(key, 3, WINDOW, BOUNDARY + 2_000);
    const refused = await a.hit(key, 3, WINDOW, BOUNDARY + 3_000);
    expect(refused).toMatchObject({ allowed: false, used: 3, remaining: 0, resetMs: WINDOW - 3_000, windowResetMs: WINDOW - 1_000 });
    expect(await a.peek(newKey(), 3, WINDOW, BOUNDARY)).toEqual({ allowed: true, used: 0, remaining: 3, resetMs: 0, windowResetMs: 0, limit: 3 });
  });

  it('never lets concurrent reservations from two handles exceed the token limit', async () => {
    const { a, b } = pair();
    const key = newKey();
    const now = Date.now();
    const equal = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).reserve(key, 100, 1_000, WINDOW, now)));
    expect(allowedCount(equal)).toBe(10);
    expect(equal.filter((r) => r.allowed).every((r) => typeof r.reservationId === 'string')).toBe(true);
    expect(equal.filter((r) => !r.allowed).every((r) => r.reservationId === undefined)).toBe(true);

    const mixedKey = newKey();
    const amounts = Array.from({ length: 60 }, (_, i) => 37 + ((i * 53) % 211));
    const mixed = await Promise.all(amounts.map((amount, i) => (i % 2 ? a : b).reserve(mixedKey, amount, 2_500, WINDOW, now)));
    const admitted = amounts.filter((_, i) => mixed[i]!.allowed).reduce((sum, n) => sum + n, 0);
    expect(admitted).toBeLessThanOrEqual(2_500);
    // Everything refused really did not fit at that moment, and the books are exact.
    const used = (await a.peek(mixedKey, 2_500, WINDOW, now)).used;
    expect(used).toBe(admitted);
    // Usage only grows here, so each refused amount must still not fit on top of the final total.
    const refused = amounts.filter((_, i) => !mixed[i]!.allowed);
    expect(refused.length).toBeGreaterThan(0);
    for (const amount of refused) expect(admitted + amount).toBeGreaterThan(2_500);
  });

  it('settles to the actual usage, returning unused tokens so a new reservation fits', async () => {
    const { a, b } = pair();
    const key = newKey();
    const now = BOUNDARY;
    const first = await a.reserve(key, 600, 1_000, WINDOW, now);
    expect(first).toMatchObject({ allowed: true, used: 600, remaining: 400 });
    const tooMuch: ReserveResult = await b.reserve(key, 600, 1_000, WINDOW, now + 1);
    expect(tooMuch).toMatchObject({ allowed: false, used: 600, remaining: 400, resetMs: 0 });
    expect(tooMuch.retryAfterMs).toBe(WINDOW - 1);

    await b.settle(key, first.reservationId!, 200, WINDOW, now + 2);
    expect((await a.peek(key, 1_000, WINDOW, now + 3)).used).toBe(200);
    const second = await b.reserve(key, 600, 1_000, WINDOW, now + 4);
    expect(second).toMatchObject({ allowed: true, used: 800 });

    // Actual usage may exceed the reservation (estimates are estimates).
    await a.settle(key, second.reservationId!, 900, WINDOW, now + 5);
    expect((await a.peek(key, 1_000, WINDOW, now + 6)).used).toBe(1_100);
    expect((await a.reserve(key, 1, 1_000, WINDOW, now + 7)).allowed).toBe(false);
    // The settled amount keeps the reservation's timestamp: it leaves with it.
    expect((await a.peek(key, 1_000, WINDOW, now + WINDOW)).used).toBe(900);
    expect((await a.peek(key, 1_000, WINDOW, now + WINDOW + 4)).used).toBe(0);
  });

  it('settles once: repeats, unknown ids and negative actuals change nothing else', async () => {
    const { a, b } = pair();
    const key = newKey();
    const now = BOUNDARY;
    const r1 = await a.reserve(key, 500, 1_000, WINDOW, now);
    const r2 = await a.reserve(key, 300, 1_000, WINDOW, now);
    await a.settle(key, r1.reservationId!, 100, WINDOW, now + 1);
    await b.settle(key, r1.reservationId!, 0, WINDOW, now + 2);
    await a.settle(key, r1.reservationId!, 999, WINDOW, now + 3);
    expect((await a.peek(key, 1_000, WINDOW, now + 4)).used).toBe(400);
    await b.settle(key, r2.reservationId!, -50, WINDOW, now + 5);
    await b.settle(key, r2.reservationId!, 300, WINDOW, now + 6);
    expect((await a.peek(key, 1_000, WINDOW, now + 7)).used).toBe(100);
    await a.settle(key, 'no-such-reservation', 10, WINDOW, now + 8);
    await a.settle(newKey(), r1.reservationId!, 10, WINDOW, now + 8);
    expect((await a.peek(key, 1_000, WINDOW, now + 9)).used).toBe(100);
  });

  it('refuses a reservation larger than the whole limit, even on an empty window', async () => {
    const { a } = pair();
    const key = newKey();
    const huge = await a.reserve(key, 1_001, 1_000, WINDOW, BOUNDARY);
    expect(huge).toMatchObject({ allowed: false, used: 0, remaining: 1_000 });
    expect(huge.retryAfterMs).toBeUndefined();
    expect(huge.reservationId).toBeUndefined();
    expect((await a.reserve(key, 1_000, 1_000, WINDOW, BOUNDARY)).allowed).toBe(true);
    const zero = await a.reserve(key, 0, 1_000, WINDOW, BOUNDARY);
    expect(zero.allowed).toBe(true);
    expect(zero.reservationId).toBeDefined();
  });

  it('says how long until a refused amount would fit', async () => {
    const { a } = pair();
    const key = newKey();
    await a.reserve(key, 600, 1_000, WINDOW, BOUNDARY);
    await a.reserve(key, 300, 1_000, WINDOW, BOUNDARY + 10_000);
    const refused = await a.reserve(key, 500, 1_000, WINDOW, BOUNDARY + 20_000);
    expect(refused).toMatchObject({ allowed: false, used: 900, remaining: 100, resetMs: 0, windowResetMs: 50_000 });
    expect(refused.retryAfterMs).toBe(40_000);
    const needsBoth = await a.reserve(key, 950, 1_000, WINDOW, BOUNDARY + 20_000);
    expect(needsBoth.retryAfterMs).toBe(50_000);
  });
}
