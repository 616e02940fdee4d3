import { PromptCacheStore } from './prompt-cache-store';

describe('PromptCacheStore', () => {
  let now: number;
  beforeEach(() => {
    now = 0;
  });

  it('reads renew an entry; an entry expires once its lifetime has passed unread', () => {
    const store = new PromptCacheStore(() => now);
    store.write('p', 'h', 1500, 1000);
    now = 900;
    expect(store.read('p', 'h')).toBe(1500);
    now = 1800;
    expect(store.has('p', 'h')).toBe(true);
    now = 1900;
    expect([store.has('p', 'h'), store.read('p', 'h'), store.size()]).toEqual([false, undefined, 0]);
  });

  it('a shorter write does not cut an entry\'s longer lifetime', () => {
    const store = new PromptCacheStore(() => now);
    store.write('p', 'h', 1500, 10_000);
    store.write('p', 'h', 1500, 1000);
    now = 5000;
    expect(store.read('p', 'h')).toBe(1500);
  });

  it('partitions do not share entries', () => {
    const store = new PromptCacheStore(() => now);
    store.write('a', 'h', 1500, 1000);
    expect([store.has('a', 'h'), store.has('b', 'h')]).toEqual([true, false]);
  });

  it('beyond its capacity it drops the least recently used entry', () => {
    const store = new PromptCacheStore(() => now, 2);
    store.write('p', 'first', 1, 1000);
    store.write('p', 'second', 2, 1000);
    store.read('p', 'first');
    store.write('p', 'third', 3, 1000);
    expect(['first', 'second', 'third'].map((hash) => store.has('p', hash))).toEqual([true, false, true]);
    store.clear();
    expect(store.size()).toBe(0);
  });
});
