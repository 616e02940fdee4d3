import { MemoryRateLimitStore } from './memory-rate-limit-store';
import { storeContract } from './__fixtures__/store-contract';

describe('MemoryRateLimitStore', () => {
  let store: MemoryRateLimitStore;
  beforeEach(() => {
    store = new MemoryRateLimitStore();
  });

  describe('contract (one instance, as a single replica)', () => {
    storeContract(() => ({ a: store, b: store }));
  });

  it('forgets idle keys so memory stays bounded', async () => {
    const now = 1_000_000;
    for (let i = 0; i < 500; i++) await store.hit(`idle-${i}`, 10, 1_000, now);
    expect(store.size).toBe(500);
    for (let i = 0; i < 1_000; i++) await store.hit('busy', 1_000_000, 1_000, now + 5_000);
    expect(store.size).toBe(1);
  });

  it('keeps entries ordered when times arrive out of order', async () => {
    await store.hit('k', 2, 10_000, 5_000);
    await store.hit('k', 2, 10_000, 4_000);
    // Full: the 4,000 entry is the oldest and frees the first slot.
    expect(await store.hit('k', 2, 10_000, 5_000)).toMatchObject({ allowed: false, resetMs: 9_000, windowResetMs: 10_000 });
    expect((await store.hit('k', 2, 10_000, 14_000)).allowed).toBe(true);
    expect((await store.hit('k', 2, 10_000, 14_000)).allowed).toBe(false);
  });
});
