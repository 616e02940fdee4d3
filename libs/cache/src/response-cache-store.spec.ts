import { MemoryResponseCacheStore } from './response-cache-store';

describe('in-process response cache store', () => {
  it('serves an entry until its TTL has passed', async () => {
    let now = 1_000_000;
    const store = new MemoryResponseCacheStore(1024, () => now);
    await store.set('a', 'answer', 10);
    now += 9_999;
    expect(await store.get('a')).toBe('answer');
    now += 1;
    expect(await store.get('a')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('drops the least recently used entries to stay within its size', async () => {
    const store = new MemoryResponseCacheStore(10);
    await store.set('a', 'aaaa', 60);
    await store.set('b', 'bbbb', 60);
    expect(await store.get('a')).toBe('aaaa');
    await store.set('c', 'cccc', 60);
    expect(await store.get('b')).toBeUndefined();
    expect(await store.get('a')).toBe('aaaa');
    expect(await store.get('c')).toBe('cccc');
  });

  it('never keeps an entry larger than the whole store, and replaces one written again', async () => {
    const store = new MemoryResponseCacheStore(5);
    await store.set('big', 'x'.repeat(6), 60);
    expect(await store.get('big')).toBeUndefined();
    await store.set('a', 'one', 60);
    await store.set('a', 'two', 60);
    expect(await store.get('a')).toBe('two');
    expect(store.size).toBe(1);
  });
});
