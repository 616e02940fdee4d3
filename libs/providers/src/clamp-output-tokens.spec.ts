import { clampOutputTokens } from './upstream-call';

describe('clampOutputTokens', () => {
  const anthropic = { fields: [['max_tokens']], budget: [['thinking', 'budget_tokens']] };
  const bedrock = { fields: [['inferenceConfig', 'maxTokens']], budget: [['additionalModelRequestFields', 'thinking', 'budget_tokens']] };
  const clamp = (spec: typeof anthropic, value: Record<string, unknown>, cap: number) => clampOutputTokens(spec.fields, { value, warnings: [] }, cap, spec.budget);

  it('lowers the cap and, below it, a thinking budget that would reach it (Claude refuses budget >= max_tokens)', () => {
    const body = { max_tokens: 32000, thinking: { type: 'enabled', budget_tokens: 31999 }, messages: [] };
    const { value, warnings } = clamp(anthropic, body, 16384);
    expect(value).toEqual({ max_tokens: 16384, thinking: { type: 'enabled', budget_tokens: 15360 }, messages: [] });
    expect(warnings.map((w) => w.feature)).toEqual(['max_tokens', 'thinking']);
    expect(body.thinking.budget_tokens).toBe(31999);
  });

  it('the same three levels deep for Converse, and thinking off where no budget of 1024 fits below the cap', () => {
    const body = { inferenceConfig: { maxTokens: 8192 }, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 4096 }, top_k: 5 } };
    expect(clamp(bedrock, body, 4096).value).toEqual({ inferenceConfig: { maxTokens: 4096 }, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 3072 }, top_k: 5 } });
    const tight = clamp(bedrock, body, 1024);
    expect(tight.value).toEqual({ inferenceConfig: { maxTokens: 1024 }, additionalModelRequestFields: { thinking: { type: 'disabled' }, top_k: 5 } });
    expect(tight.warnings[1]?.message).toContain('thinking disabled');
  });

  it('leaves a body within the cap, and a budget already below it, untouched (the same object)', () => {
    const converted = { value: { max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 } }, warnings: [] };
    expect(clampOutputTokens(anthropic.fields, converted, 8000, anthropic.budget)).toBe(converted);
    expect(clampOutputTokens(anthropic.fields, converted, undefined, anthropic.budget)).toBe(converted);
  });
});
