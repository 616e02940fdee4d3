import { capCost, costUsd, toUsageRow, UsageDraft } from './usage-entry';

describe('usage cost', () => {
  const pricing = { prompt: '0.000001', completion: '0.000005', input_cache_read: '0.0000001', input_cache_write: '0.00000125' };

  it('prices plain input, cached input, cache writes and output at their own rates', () => {
    expect(costUsd({ inputTokens: 1000, outputTokens: 200 }, pricing)).toBeCloseTo(1000 * 1e-6 + 200 * 5e-6, 12);
    expect(costUsd({ inputTokens: 1000, outputTokens: 0, cachedInputTokens: 800, cacheCreationInputTokens: 100 }, pricing)).toBeCloseTo(
      100 * 1e-6 + 800 * 1e-7 + 100 * 1.25e-6,
      12,
    );
    expect(costUsd({ inputTokens: 10, outputTokens: 10 }, { prompt: '0', completion: '0', request: '0.002' })).toBe(0.002);
  });

  it('costs nothing without usage or pricing, and rows carry latency and tokens', () => {
    // text-embedding-3-small's price: the float product is 2.4000000000000003e-7 before rounding.
    expect(JSON.stringify({ cost: costUsd({ inputTokens: 12, outputTokens: 0 }, { prompt: '0.00000002', completion: '0' }) })).toBe('{"cost":2.4e-7}');
    expect(costUsd(undefined, pricing)).toBe(0);
    const draft = new UsageDraft({ requestId: 'r', dialect: 'openai', startedAt: 1000 });
    draft.planned('rosetta/gpt-4o-mini', true, undefined);
    draft.attempted(2, 'openai');
    draft.reported({ inputTokens: 3, outputTokens: 4, reasoningTokens: 1 });
    const row = toUsageRow(draft, 200, 1600);
    expect(row).toEqual(expect.objectContaining({ requestId: 'r', status: 200, latencyMs: 600, inputTokens: 3, outputTokens: 4, reasoningTokens: 1, attempts: 2, streamed: true, costUsd: 0 }));
  });

  it('fills a draft through its steps: the first token and the first usage count, a later failure names the cause', () => {
    const draft = new UsageDraft({ requestId: 'r', dialect: 'anthropic', startedAt: 1000 });
    draft.firstToken(1250);
    draft.firstToken(1900);
    draft.cutShort(100, 41);
    draft.reported({ inputTokens: 120, outputTokens: 30 });
    draft.cutShort(100, 4000);
    draft.disconnected();
    draft.failed('upstream_error');
    draft.disconnected();
    expect(toUsageRow(draft, 499, 2000)).toEqual(expect.objectContaining({ ttftMs: 250, inputTokens: 120, outputTokens: 30, errorType: 'upstream_error' }));

    const cut = new UsageDraft({ requestId: 'c', dialect: 'openai', startedAt: 0 });
    cut.cutShort(100, 41);
    expect(toUsageRow(cut, 200, 10)).toEqual(expect.objectContaining({ inputTokens: 100, outputTokens: 11 }));
  });
});

describe('a request abandoned by its client (issue 26)', () => {
  const pricing = { prompt: '0.000001', completion: '0.000005' };
  const draft = (): UsageDraft => {
    const d = new UsageDraft({ requestId: 'r', dialect: 'openai', startedAt: 1000 });
    d.planned('rosetta/gpt-4o-mini', false, undefined, 1200);
    return d;
  };

  it('charges the estimated prompt at the attempted model\'s prices once a call went out', () => {
    const d = draft();
    d.attempted(1, 'openai', 'rosetta/gpt-4o-mini', pricing);
    d.disconnected();
    d.abandoned();
    expect(toUsageRow(d, 499, 1500)).toEqual(
      expect.objectContaining({ errorType: 'client_disconnected', servedModel: 'rosetta/gpt-4o-mini', inputTokens: 1200, outputTokens: 0, costUsd: 0.0012 }),
    );
  });

  it('charges nothing when no call went out, and keeps what a cut stream already charged', () => {
    const early = draft();
    early.disconnected();
    early.abandoned();
    expect(toUsageRow(early, 499, 1500)).toEqual(expect.objectContaining({ inputTokens: 0, costUsd: 0 }));

    const cut = draft();
    cut.attempted(1, 'openai', 'rosetta/gpt-4o-mini', pricing);
    cut.served('rosetta/gpt-4o-mini', 'openai', pricing);
    cut.cutShort(1200, 400);
    cut.disconnected();
    cut.abandoned();
    expect(toUsageRow(cut, 200, 1500)).toEqual(expect.objectContaining({ inputTokens: 1200, outputTokens: 100, costUsd: 0.0017 }));
  });

  it('leaves a request that failed for another reason as it was', () => {
    const d = draft();
    d.attempted(1, 'openai', 'rosetta/gpt-4o-mini', pricing);
    d.failed('upstream_error');
    d.disconnected();
    d.abandoned();
    expect(toUsageRow(d, 502, 1500)).toEqual(expect.objectContaining({ errorType: 'upstream_error', inputTokens: 0, costUsd: 0 }));
  });
});

describe('a charge past its budget hold (issue 26)', () => {
  it('charges at most the cap and records what the usage cost beyond it', () => {
    const d = new UsageDraft({ requestId: 'r', dialect: 'openai', startedAt: 1000 });
    d.served('rosetta/gpt-4o-mini', 'openai', { prompt: '0.00000015', completion: '0.0000006' });
    d.reported({ inputTokens: 2_000_000_000, outputTokens: 0 });
    d.chargeCapUsd = 0.02;
    expect(toUsageRow(d, 200, 1500)).toEqual(expect.objectContaining({ costUsd: 0.02, unchargedUsd: 299.98 }));
  });

  it('leaves a cost within the cap, or without one, as it is', () => {
    expect(capCost(0.01, 0.02)).toEqual({ charged: 0.01 });
    expect(capCost(5, undefined)).toEqual({ charged: 5 });
  });
});

describe('response cache rows', () => {
  const pricing = { prompt: '0.000001', completion: '0.000005', input_cache_read: '0.0000001', input_cache_write: '0.00000125' };

  it('records a hit at cost 0 with what it saved, and its tokens as the answer had them', () => {
    const draft = new UsageDraft({ requestId: 'r', dialect: 'anthropic', startedAt: 1000 });
    draft.planned('rosetta/gpt-4o-mini', false, 'cache hit', 12);
    draft.cacheHit('rosetta/gpt-4o-mini', 'openai', { inputTokens: 12, outputTokens: 30, cachedInputTokens: 4 }, 0.00016);
    expect(toUsageRow(draft, 200, 1005)).toMatchObject({ cache: 'hit', costUsd: 0, savedUsd: 0.00016, inputTokens: 12, outputTokens: 30, cachedTokens: 4, attempts: 0, route: 'cache hit' });
  });

  it('records a miss at its real cost, with prompt-cache reads and writes apart', () => {
    const draft = new UsageDraft({ requestId: 'r', dialect: 'openai', startedAt: 1000 });
    draft.cacheMiss();
    draft.served('rosetta/claude-sonnet-4-5', 'anthropic', pricing);
    draft.reported({ inputTokens: 1000, outputTokens: 10, cachedInputTokens: 800, cacheCreationInputTokens: 100 });
    const row = toUsageRow(draft, 200, 1005);
    expect(row).toMatchObject({ cache: 'miss', savedUsd: null, cachedTokens: 800, cacheWriteTokens: 100 });
    expect(row.costUsd).toBeCloseTo(100 * 1e-6 + 800 * 1e-7 + 100 * 1.25e-6 + 10 * 5e-6, 12);
  });

  it('leaves the cache columns empty for a key without one', () => {
    const draft = new UsageDraft({ requestId: 'r', dialect: 'openai', startedAt: 1000 });
    expect(toUsageRow(draft, 200, 1005)).toMatchObject({ cache: null, savedUsd: null, cacheWriteTokens: 0 });
  });
});
