import type { RunningSimulator } from '../apps/simulator/src';
import { driverFor, type DialectClient } from './support/dialect-clients';
import type { GatewayProcess } from './support/gateway-process';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * The whole 4 × 4 matrix: each official SDK as the client (the openai package twice: chat
 * completions and the Responses API), each provider protocol as the upstream (the simulator,
 * which checks pairing rules and signatures like the real APIs), plain, streamed and in a tool
 * loop, asserting what the client got and what the upstream received.
 */
const DIALECTS = ['openai', 'anthropic', 'gemini', 'openai-responses'] as const;
const UPSTREAMS = [
  { protocol: 'openai', model: 'rosetta/gpt-4o-mini', upstreamModel: 'gpt-4o-mini', path: '/v1/chat/completions' },
  { protocol: 'anthropic', model: 'rosetta/claude-haiku-4-5', upstreamModel: 'claude-haiku-4-5', path: '/v1/messages' },
  { protocol: 'gemini', model: 'rosetta/gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', path: '/v1beta/models/gemini-2.5-flash:' },
  { protocol: 'openai-responses', model: RESPONSES_MODEL, upstreamModel: 'gpt-5-codex', path: '/v1/responses' },
] as const;
const PAIRS = DIALECTS.flatMap((dialect) => UPSTREAMS.map((upstream) => [`${dialect} → ${upstream.protocol}`, dialect, upstream] as const));

describe('translation matrix: 4 client dialects × 4 upstream protocols', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;

  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway, key } = stack);
    await addResponsesUpstream(gateway, sim.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const marker = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
  const received = (m: string) => sim.requests().filter((r) => r.protocol !== 'control' && JSON.stringify(r.body).includes(m));
  const client = (dialect: DialectClient['dialect']) => driverFor(dialect, gateway.url, key);

  describe.each(PAIRS)('%s', (_name, dialect, upstream) => {
    it.each([false, true])('answers a prompt (stream=%s) with the served model and usage', async (stream) => {
      const m = marker('plain');
      const reply = await client(dialect).ask(upstream.model, `Say hello ${m}`, { stream });
      expect(reply.text).toBe(`Simulated reply from ${upstream.upstreamModel}: Say hello ${m}`);
      expect(reply.model).toBe(upstream.model);
      expect(['stop', 'end_turn', 'STOP']).toContain(reply.finish);
      expect(reply.usage.output).toBe(reply.text.split(' ').length);
      expect(reply.usage.input).toBeGreaterThan(0);
      const [request] = received(m);
      expect(request).toEqual(expect.objectContaining({ protocol: upstream.protocol }));
      expect(request!.path.startsWith(upstream.path)).toBe(true);
    });

    it.each([false, true])('runs a tool loop (stream=%s) with arguments, ids and results intact', async (stream) => {
      const m = marker('tool');
      sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
      const driver = client(dialect);
      const first = await driver.startTool(upstream.model, `Weather in Paris? ${m}`, { stream });
      expect(first.calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Paris' } })]);
      expect(['tool_calls', 'tool_use', 'STOP']).toContain(first.reply.finish);
      if (dialect !== 'gemini') expect(first.calls[0]!.id).toEqual(expect.any(String));

      const final = await driver.finishTool(upstream.model, { temp_c: 18 }, { stream });
      expect(final.text).toBe('Tool results received: {"temp_c":18}');
      // The upstream saw the whole history in its own protocol, and accepted it (the simulator
      // rejects unpaired tool results just as the real APIs do).
      const requests = received(m);
      expect(requests).toHaveLength(2);
      const history = JSON.stringify(requests[1]!.body);
      expect(history).toContain('get_weather');
      expect(history).toContain('Paris');
      expect(history).toContain('temp_c');
    });

    it('keeps thinking and its signature valid across a tool loop', async () => {
      const m = marker('think');
      sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } });
      const driver = client(dialect);
      const first = await driver.startTool(upstream.model, `Weather in Oslo? ${m}`, { stream: false, thinking: true });
      expect(first.calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Oslo' } })]);
      // A thinking budget has no Chat Completions form, and gpt-4o-mini does not reason: the
      // request goes without it (with a warning) rather than failing. Effort passes through.
      const thinks = !(upstream.protocol === 'openai' && dialect !== 'openai');
      expect(first.reply.thinking).toMatch(thinks ? /^Considering: / : /^$/);
      const final = await driver.finishTool(upstream.model, { temp_c: -3 }, { stream: true, thinking: true });
      expect(final.text).toBe('Tool results received: {"temp_c":-3}');
      const [, second] = received(m);
      expect(second).toBeDefined();
      // The upstream got its own signature back, untouched, with thinking still on (the simulator
      // verifies signatures and would have answered 400 on a tampered one).
      assertSignedHistory(upstream.protocol, dialect, second!.body as Record<string, any>);
    });
  });

  function assertSignedHistory(protocol: string, dialect: string, body: Record<string, any>): void {
    if (protocol === 'anthropic') {
      expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: expect.any(Number) });
      const assistant = body['messages'].find((msg: any) => msg.role === 'assistant');
      expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: expect.stringMatching(/^Considering: /), signature: expect.any(String) });
      expect(assistant.content[0].signature).not.toMatch(/^rosetta-sig/);
    } else if (protocol === 'gemini') {
      const model = body['contents'].find((c: any) => c.role === 'model');
      const signed = model.parts.filter((p: any) => p.thoughtSignature);
      expect(signed.length).toBeGreaterThan(0);
      for (const part of signed) expect(part.thoughtSignature).not.toMatch(/^rosetta-sig/);
      expect(body['generationConfig']['thinkingConfig']).toEqual(expect.objectContaining({ includeThoughts: true }));
    } else if (protocol === 'openai-responses') {
      // OpenAI's own reasoning item came back byte for byte (the simulator verifies it), and
      // the effort travelled (a budget as the nearest effort).
      expect(body['reasoning']).toEqual(expect.objectContaining({ effort: 'low' }));
      const reasoning = body['input'].filter((item: any) => item.type === 'reasoning');
      expect(reasoning).toEqual([expect.objectContaining({ encrypted_content: expect.any(String) })]);
      expect(reasoning[0].encrypted_content).not.toMatch(/^rosetta-sig/);
    } else if (dialect === 'openai') {
      expect(body['reasoning_effort']).toBe('low');
    } else {
      expect(body).not.toHaveProperty('reasoning_effort');
    }
  }

  it('count_tokens answers for dialect B and countTokens for dialect C', async () => {
    const b = await fetch(`${gateway.url}/v1/messages/count_tokens`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: 'rosetta/claude-haiku-4-5', messages: [{ role: 'user', content: 'hello world, how are you?' }] }),
    });
    expect(b.status).toBe(200);
    expect(await b.json()).toEqual({ input_tokens: 14 });
    const c = await fetch(`${gateway.url}/v1beta/models/rosetta/gemini-2.5-flash:countTokens`, {
      method: 'POST',
      headers: { 'x-goog-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hello world, how are you?' }] }] }),
    });
    expect(c.status).toBe(200);
    expect(await c.json()).toEqual({ totalTokens: 14 });
  });
});
