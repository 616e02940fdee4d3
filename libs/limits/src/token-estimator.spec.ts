import { estimatePromptTokens } from './token-estimator';

describe('estimatePromptTokens', () => {
  it('counts text with the tokenizer plus per-message overhead', () => {
    const one = estimatePromptTokens({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hello world, how are you?' }] }] });
    expect(one).toBe(3 + 4 + 7);
  });

  it('grows with tools, tool calls and images', () => {
    const base = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }] };
    const withTools = estimatePromptTokens({ ...base, tools: [{ name: 'get_weather', parameters: { type: 'object' } }] });
    const withImage = estimatePromptTokens({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }],
    });
    expect(withTools).toBeGreaterThan(estimatePromptTokens(base));
    expect(withImage).toBe(estimatePromptTokens(base) + 1000);
  });
});
