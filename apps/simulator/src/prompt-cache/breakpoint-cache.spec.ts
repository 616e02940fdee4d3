import { applyBreakpointCache, LOOKBACK_BLOCKS, minimumCacheableTokens } from './breakpoint-cache';
import { PromptCacheStore } from './prompt-cache-store';
import type { CacheSegment, CacheTtl } from './prompt-cache-types';

/** A block of `tokens` tokens (four characters each) named `name`, with an optional breakpoint. */
function block(name: string, tokens: number, breakpoint?: CacheTtl): CacheSegment {
  return breakpoint ? { identity: name, chars: tokens * 4, breakpoint } : { identity: name, chars: tokens * 4 };
}

/** A conversation of `turns` 100-token blocks after a 1,000-token system block, the last one marked. */
function conversation(turns: number, ttl: CacheTtl = '5m'): CacheSegment[] {
  const blocks = [block('system', 1000)];
  for (let i = 1; i <= turns; i += 1) blocks.push(block(`turn-${i}`, 100, i === turns ? ttl : undefined));
  return blocks;
}

describe('the breakpoint prompt cache (Anthropic, Bedrock)', () => {
  let now: number;
  let store: PromptCacheStore;
  const run = (segments: CacheSegment[], options: { partition?: string; minTokens?: number } = {}) =>
    applyBreakpointCache({ store, partition: options.partition ?? 'key|model', segments, minTokens: options.minTokens ?? 1024 });
  const minutes = (n: number): void => {
    now += n * 60_000;
  };

  beforeEach(() => {
    now = 1_000_000;
    store = new PromptCacheStore(() => now);
  });

  it('writes the prefix up to a breakpoint, then reads it; the tokens after it stay input', () => {
    const segments = [block('tools', 600), block('system', 600, '5m'), block('question', 50)];
    expect(run(segments)).toEqual({ read: 0, write: { fiveMinute: 1200, oneHour: 0 } });
    expect(run(segments)).toEqual({ read: 1200, write: { fiveMinute: 0, oneHour: 0 } });
    expect(run([...segments.slice(0, 2), block('another question', 70)])).toEqual({ read: 1200, write: { fiveMinute: 0, oneHour: 0 } });
  });

  it('a change anywhere before the breakpoint misses: the prefix is hashed, not the block', () => {
    run([block('tools', 600), block('system', 600, '5m')]);
    expect(run([block('tools v2', 600), block('system', 600, '5m')])).toEqual({ read: 0, write: { fiveMinute: 1200, oneHour: 0 } });
  });

  it('without a breakpoint nothing is read or written', () => {
    const segments = [block('system', 5000), block('question', 10)];
    expect(run(segments)).toEqual({ read: 0, write: { fiveMinute: 0, oneHour: 0 } });
    expect(run(segments)).toEqual({ read: 0, write: { fiveMinute: 0, oneHour: 0 } });
    expect(store.size()).toBe(0);
  });

  it('prefixes below the minimum are neither written nor read; the minimum is 2048 for Haiku, 1024 otherwise', () => {
    expect([minimumCacheableTokens('claude-sonnet-4-5'), minimumCacheableTokens('claude-3-5-haiku-20241022'), minimumCacheableTokens('us.anthropic.claude-haiku-4-5-20251001-v1:0')]).toEqual([1024, 2048, 2048]);
    const short = [block('system', 1023, '5m'), block('question', 10)];
    expect(run(short)).toEqual({ read: 0, write: { fiveMinute: 0, oneHour: 0 } });
    expect(run(short)).toEqual({ read: 0, write: { fiveMinute: 0, oneHour: 0 } });
    const forHaiku = [block('system', 1500, '5m')];
    expect(run(forHaiku, { minTokens: 2048 })).toEqual({ read: 0, write: { fiveMinute: 0, oneHour: 0 } });
    expect(run([block('system', 1024, '5m')])).toEqual({ read: 0, write: { fiveMinute: 1024, oneHour: 0 } });
  });

  it('an early breakpoint below the minimum is skipped; a later one writes from the start', () => {
    const segments = [block('tools', 500, '5m'), block('system', 700, '5m'), block('question', 10)];
    expect(run(segments)).toEqual({ read: 0, write: { fiveMinute: 1200, oneHour: 0 } });
    expect(run(segments)).toEqual({ read: 1200, write: { fiveMinute: 0, oneHour: 0 } });
  });

  it('with several breakpoints it reads the longest cached one and writes the rest, each stretch under its own TTL', () => {
    const first = [block('tools', 1100, '1h'), block('system', 200, '5m'), block('turn 1', 300, '5m')];
    expect(run(first)).toEqual({ read: 0, write: { fiveMinute: 500, oneHour: 1100 } });
    const second = [block('tools', 1100, '1h'), block('system v2', 200, '5m'), block('turn 1', 300, '5m')];
    expect(run(second)).toEqual({ read: 1100, write: { fiveMinute: 500, oneHour: 0 } });
    expect(run(second)).toEqual({ read: 1600, write: { fiveMinute: 0, oneHour: 0 } });
  });

  it('finds the previous turn up to 20 blocks before a moving breakpoint, and not further', () => {
    expect(run(conversation(1)).write.fiveMinute).toBe(1100);
    // The next turn adds two blocks and moves the only breakpoint to its end.
    expect(run(conversation(3))).toEqual({ read: 1100, write: { fiveMinute: 200, oneHour: 0 } });
    // LOOKBACK_BLOCKS new blocks: the cached prefix is just within reach.
    expect(run(conversation(3 + LOOKBACK_BLOCKS))).toEqual({ read: 1300, write: { fiveMinute: LOOKBACK_BLOCKS * 100, oneHour: 0 } });
    // One block more than that: out of reach, so the whole prefix is written again.
    const far = 3 + 2 * LOOKBACK_BLOCKS + 1;
    expect(run(conversation(far))).toEqual({ read: 0, write: { fiveMinute: 1000 + far * 100, oneHour: 0 } });
  });

  it('entries live five minutes, and every read renews them', () => {
    const segments = [block('system', 2000, '5m')];
    run(segments);
    minutes(4);
    expect(run(segments).read).toBe(2000);
    minutes(4);
    expect(run(segments).read).toBe(2000);
    minutes(5);
    expect(run(segments)).toEqual({ read: 0, write: { fiveMinute: 2000, oneHour: 0 } });
  });

  it('a 1-hour breakpoint outlives five minutes but not an hour', () => {
    const segments = [block('system', 2000, '1h')];
    expect(run(segments).write.oneHour).toBe(2000);
    minutes(59);
    expect(run(segments).read).toBe(2000);
    minutes(61);
    expect(run(segments)).toEqual({ read: 0, write: { fiveMinute: 0, oneHour: 2000 } });
  });

  it('reading a 5-minute entry at a 1-hour breakpoint extends it to the hour', () => {
    run([block('system', 2000, '5m')]);
    expect(run([block('system', 2000, '1h')])).toEqual({ read: 2000, write: { fiveMinute: 0, oneHour: 0 } });
    minutes(50);
    expect(run([block('system', 2000, '5m')]).read).toBe(2000);
  });

  it('keeps each credential and model apart', () => {
    const segments = [block('system', 2000, '5m')];
    run(segments, { partition: 'key-a|model' });
    expect(run(segments, { partition: 'key-b|model' }).read).toBe(0);
    expect(run(segments, { partition: 'key-a|other-model' }).read).toBe(0);
    expect(run(segments, { partition: 'key-a|model' }).read).toBe(2000);
  });

  it('reports read + write as at most the prompt, the rest of it being input', () => {
    const segments = [block('tools', 0), block('system', 1500, '5m'), block('turn 1', 37), block('turn 2', 11, '5m'), block('question', 9)];
    const first = run(segments);
    expect(first.read + first.write.fiveMinute).toBe(1548);
    const second = run(segments);
    expect(second).toEqual({ read: 1548, write: { fiveMinute: 0, oneHour: 0 } });
  });
});
