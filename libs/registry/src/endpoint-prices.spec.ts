import { endpointPricing, perMillionTokens, shiftDecimal } from './endpoint-prices';

const refusal = (fn: () => unknown): { param?: string; message: string } => {
  try {
    fn();
  } catch (error) {
    return { param: (error as { param?: string }).param, message: (error as Error).message };
  }
  throw new Error('expected a refusal');
};

describe('endpoint prices', () => {
  it('takes USD per million tokens, numbers or decimal strings, and stores exact per-token strings', () => {
    expect(endpointPricing({ usd_per_million_tokens: { prompt: 0.15, completion: '0.60', input_cache_read: 0.075 } }, 'endpoints[0]')).toEqual({
      prompt: '0.00000015',
      completion: '0.0000006',
      input_cache_read: '0.000000075',
    });
    expect(endpointPricing({ usd_per_million_tokens: { prompt: 600, completion: 0 }, usd_per_image: 0.01, usd_per_request: '0.005' }, 'e')).toEqual({
      prompt: '0.0006',
      completion: '0',
      image: '0.01',
      request: '0.005',
    });
  });

  it('keeps per-token pricing (the catalog, older files) as it is when it is in a real range', () => {
    expect(endpointPricing({ pricing: { prompt: '0.00000015', completion: '6e-7' } }, 'e')).toEqual({ prompt: '0.00000015', completion: '6e-7' });
  });

  it("refuses the issue's mistake — a per-million habit in the per-token field — saying what to write", () => {
    expect(refusal(() => endpointPricing({ pricing: { prompt: '0.1', completion: '0.4' } }, 'providers[0].endpoints[1]'))).toEqual({
      param: 'providers[0].endpoints[1].pricing.prompt',
      message: 'providers[0].endpoints[1].pricing.prompt: "0.1" USD per token is 100000 USD per million tokens, above any provider\'s price (at most 1000) (pricing is USD per token; for 0.1 USD per million tokens write usd_per_million_tokens: {"prompt": 0.1})',
    });
  });

  it('refuses a per-token value typed into the per-million field, and a price above any provider', () => {
    expect(refusal(() => endpointPricing({ usd_per_million_tokens: { prompt: '0.00000015', completion: 0 } }, 'endpoints[0]'))).toEqual({
      param: 'endpoints[0].usd_per_million_tokens.prompt',
      message: "endpoints[0].usd_per_million_tokens.prompt: 0.00000015 USD per million tokens, below any provider's price (at least 0.001, or 0 for free) — was a per-token price written here?",
    });
    expect(refusal(() => endpointPricing({ usd_per_million_tokens: { prompt: 1, completion: 2500 } }, 'e')).param).toBe('e.usd_per_million_tokens.completion');
    expect(refusal(() => endpointPricing({ usd_per_million_tokens: { prompt: 1, completion: 1 }, usd_per_request: 50 }, 'e')).param).toBe('e.usd_per_request');
  });

  it('needs exactly one of the two forms', () => {
    expect(refusal(() => endpointPricing({}, 'endpoints[0]')).param).toBe('endpoints[0].usd_per_million_tokens');
    expect(refusal(() => endpointPricing({ usd_per_million_tokens: { prompt: 1, completion: 1 }, pricing: { prompt: '0', completion: '0' } }, 'endpoints[0]')).message).toContain('not both');
    expect(refusal(() => endpointPricing({ usd_per_million_tokens: { prompt: -1, completion: 1 } }, 'e')).param).toBe('e.usd_per_million_tokens.prompt');
  });

  it('moves decimal points exactly, both ways', () => {
    expect(['0', '1', '0.15', '2.5', '1000', '0.001'].map((v) => shiftDecimal(v, 6))).toEqual(['0', '0.000001', '0.00000015', '0.0000025', '0.001', '0.000000001']);
    expect(['0', '0.000001', '0.00000015', '0.0000025', '0.001', '1.25e-7'].map(perMillionTokens)).toEqual(['0', '1', '0.15', '2.5', '1000', '0.125']);
  });
});
