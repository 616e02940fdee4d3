import Anthropic from '@anthropic-ai/sdk';
import { startStack, type Stack } from './support/stack';

/** What a caller meets with a near-miss model id or a doubled base path, and an operator's opt-in aliases for clients' own default ids. */
describe('model ids: did you mean, and MODEL_ALIASES', () => {
  let plain: Stack;
  let aliased: Stack;

  beforeAll(async () => {
    [plain, aliased] = await Promise.all([startStack(), startStack({ MODEL_ALIASES: 'claude-opus-*=rosetta/claude-haiku-4-5,gemini-3*=rosetta/gemini-2.5-flash' })]);
  });

  afterAll(async () => {
    await Promise.all([plain?.stop(), aliased?.stop()]);
  });

  const chat = (stack: Stack, model: string) =>
    fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });

  it('answers a near-miss id with a 404 that says what was meant', async () => {
    const res = await chat(plain, 'rosetta/claude-haiku-4.5');
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).error).toMatchObject({ type: 'model_registry_error', message: "Model 'rosetta/claude-haiku-4.5' not found; did you mean 'rosetta/claude-haiku-4-5'?" });
  });

  it("keeps a client's own id a 400 without aliases, and maps it with them", async () => {
    expect((await chat(plain, 'claude-opus-4-1-20250805')).status).toBe(400);
    const client = new Anthropic({ apiKey: aliased.key, baseURL: aliased.gateway.url, maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-opus-4-1-20250805', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] });
    expect(message.model).toBe('rosetta/claude-haiku-4-5');
    const gemini = await fetch(`${aliased.gateway.url}/v1beta/models/gemini-3-pro-preview:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': aliased.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }),
    });
    expect(gemini.status).toBe(200);
    expect(((await gemini.json()) as any).modelVersion).toBe('rosetta/gemini-2.5-flash');
  });

  it('answers a doubled base path with a hint, in the dialect of the route it meant', async () => {
    const post = (path: string, headers: Record<string, string>) =>
      fetch(`${plain.gateway.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    const anthropic = await post('/v1/v1/messages', { 'x-api-key': plain.key });
    expect(anthropic.status).toBe(404);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error', message: expect.stringContaining('call /v1/messages instead') } });
    const gemini = await post('/v1beta/v1beta/models/rosetta/gemini-2.5-flash:generateContent', { 'x-goog-api-key': plain.key });
    expect(gemini.status).toBe(404);
    expect(await gemini.json()).toMatchObject({ error: { code: 404, status: 'NOT_FOUND', message: expect.stringContaining('call /v1beta/models/rosetta/gemini-2.5-flash:generateContent instead') } });
    const openai = await post('/v1/v1/chat/completions', { authorization: `Bearer ${plain.key}` });
    const openaiMessage = ((await openai.json()) as any).error.message as string;
    expect(openaiMessage).toContain('call /v1/chat/completions instead');
    // The OpenAI SDK's base URL keeps /v1 (it adds only the route), unlike Anthropic's.
    expect(openaiMessage).toContain('followed by /v1 once');
    expect(openaiMessage).not.toContain('without /v1');
  });
});
