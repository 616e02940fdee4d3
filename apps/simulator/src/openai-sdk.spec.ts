import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from './simulator';

// The official SDK is the strictest client we have: its stream accumulator throws on a missing
// role, finish_reason or tool-call id/type/name, so these tests pin the wire format to it.
describe('the official openai SDK against the simulator', () => {
  let sim: RunningSimulator;
  let client: OpenAI;

  beforeAll(async () => {
    sim = await startSimulator();
    client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sk-sdk', maxRetries: 0 });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('accumulates a streamed text reply into a final completion with usage', async () => {
    const stream = client.chat.completions.stream({
      model: 'sim-small',
      messages: [{ role: 'user', content: 'stream me please' }],
      stream_options: { include_usage: true },
    });
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]?.message.content).toBe('Simulated reply from sim-small: stream me please');
    expect(final.choices[0]?.finish_reason).toBe('stop');
    expect(final.usage).toEqual(expect.objectContaining({ prompt_tokens: 4, completion_tokens: 7, total_tokens: 11 }));
  });

  it('accumulates streamed tool calls with parsed arguments', async () => {
    const directive = JSON.stringify({
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Paris', days: [1, 2] } },
        { name: 'get_time', arguments: { zone: 'CET' } },
      ],
    });
    const stream = client.chat.completions.stream({
      model: 'sim-small',
      messages: [{ role: 'user', content: `<sim>${directive}</sim>` }],
      tools: [
        { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } },
      ],
    });
    const final = await stream.finalChatCompletion();
    const calls = final.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => (call.type === 'function' ? [call.function.name, JSON.parse(call.function.arguments)] : []))).toEqual([
      ['get_weather', { city: 'Paris', days: [1, 2] }],
      ['get_time', { zone: 'CET' }],
    ]);
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('maps planned errors to the SDK error classes', async () => {
    const directive = JSON.stringify({ error: { status: 429, message: 'slow down', retryAfterSeconds: 1 } });
    const request = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: `<sim>${directive}</sim>` }] });
    await expect(request).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    const unauthenticated = client.models.list({ headers: { authorization: 'Basic not-a-bearer' } });
    await expect(unauthenticated).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    await expect(client.models.list()).resolves.toBeDefined();
  });

  it('raises an APIError for an in-stream error', async () => {
    const directive = JSON.stringify({ text: 'a b c', streamErrorAfterChunks: 1 });
    const stream = await client.chat.completions.create({
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: `<sim>${directive}</sim>` }],
    });
    const consume = async (): Promise<void> => {
      for await (const _chunk of stream) {
        // drain
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(OpenAI.APIError);
  });
});
