import Anthropic from '@anthropic-ai/sdk';
import { verifyThinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

// The official SDK dispatches on `event:` names, requires message_start first and addresses blocks
// by index; its MessageStream parses input_json_delta fragments into `input`. These tests pin the
// simulator's wire format to it.
describe('the official Anthropic SDK against the simulator', () => {
  let sim: RunningSimulator;
  let client: Anthropic;

  const weatherTool: Anthropic.Tool = {
    name: 'get_weather',
    description: 'Get weather',
    input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  };

  beforeAll(async () => {
    sim = await startSimulator();
    client = new Anthropic({ apiKey: 'sk-ant-sdk', baseURL: sim.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('creates a message', async () => {
    const message = await client.messages.create({ model: 'claude-sim', max_tokens: 100, messages: [{ role: 'user', content: 'Hello SDK' }] });
    expect(message.content).toEqual([{ type: 'text', text: 'Simulated reply from claude-sim: Hello SDK', citations: null }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toEqual({
      input_tokens: 3,
      output_tokens: 6,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
      service_tier: 'standard',
    });
    const recorded = sim.requests().at(-1);
    expect(recorded?.headers).toEqual(expect.objectContaining({ 'x-api-key': 'sk-ant-sdk', 'anthropic-version': '2023-06-01' }));
  });

  it('accumulates a streamed tool call into a final message with parsed input', async () => {
    const directive = JSON.stringify({ text: 'Let me check.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } }] });
    const stream = client.messages.stream({
      model: 'claude-sim',
      max_tokens: 200,
      tools: [weatherTool],
      messages: [{ role: 'user', content: `<sim>${directive}</sim>` }],
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_sim_/), name: 'get_weather', input: { city: 'Paris', days: [1, 2] } },
    ]);
    expect(final.stop_reason).toBe('tool_use');
    expect(final.usage.output_tokens).toBe(3 + Math.ceil('{"city":"Paris","days":[1,2]}'.length / 4));
  });

  it('returns signed thinking, and the signed history is accepted on the next turn', async () => {
    const params = {
      model: 'claude-sim',
      max_tokens: 4096,
      thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      tools: [weatherTool],
      tool_choice: { type: 'any' as const },
    };
    const question: Anthropic.MessageParam = { role: 'user', content: 'What is the weather in Paris?' };
    const first = await client.messages.stream({ ...params, messages: [question] }).finalMessage();
    const [thinking, toolUse] = first.content;
    if (thinking?.type !== 'thinking' || toolUse?.type !== 'tool_use') throw new Error('expected thinking then tool_use');
    expect(thinking.thinking).toBe('Considering: What is the weather in Paris?');
    expect(verifyThinkingSignature('anthropic', thinking.thinking, thinking.signature)).toBe(true);
    expect(toolUse.input).toEqual({ city: 'example' });

    const second = await client.messages.create({
      ...params,
      tool_choice: { type: 'auto' },
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: '18C and sunny' }] },
      ],
    });
    expect(second.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(second.content[1]).toEqual({ type: 'text', text: 'Tool results received: 18C and sunny', citations: null });

    const tampered = client.messages.create({
      ...params,
      messages: [
        question,
        { role: 'assistant', content: [{ ...thinking, thinking: 'edited' }, toolUse] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'x' }] },
      ],
    });
    await expect(tampered).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('maps errors to the SDK error classes', async () => {
    const directive = JSON.stringify({ error: { status: 429, message: 'slow down', retryAfterSeconds: 1 } });
    const limited = client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: `<sim>${directive}</sim>` }] });
    await expect(limited).rejects.toBeInstanceOf(Anthropic.RateLimitError);
    const overloaded = JSON.stringify({ error: { status: 529, message: 'Overloaded' } });
    const busy = client.messages.create({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: `<sim>${overloaded}</sim>` }] });
    await expect(busy).rejects.toMatchObject({ status: 529, error: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
    const unauthenticated = client.messages.create(
      { model: 'm', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
      { headers: { 'x-api-key': null } },
    );
    await expect(unauthenticated).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
    const noMaxTokens = client.messages.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] } as unknown as Anthropic.MessageCreateParamsNonStreaming);
    await expect(noMaxTokens).rejects.toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('raises an APIError for an in-stream error event', async () => {
    const directive = JSON.stringify({ text: 'a b c', streamErrorAfterChunks: 1 });
    const stream = client.messages.stream({ model: 'm', max_tokens: 10, messages: [{ role: 'user', content: `<sim>${directive}</sim>` }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
  });

  it('counts tokens', async () => {
    const counted = await client.messages.countTokens({ model: 'm', messages: [{ role: 'user', content: 'Hello SDK' }] });
    expect(counted).toEqual({ input_tokens: 3 });
  });
});
