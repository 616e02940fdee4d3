import type { RunningSimulator } from '../../apps/simulator/src';
import { driverFor, type DialectClient } from './dialect-clients';

/** One column of a translation matrix: a model served over one upstream wire (a public API or a cloud's). */
export interface MatrixUpstream {
  /** The simulator's name for the wire it received (`anthropic`, `bedrock-converse`, `vertex-gemini`, …). */
  protocol: string;
  /** How the upstream keeps reasoning across turns, for the signed-history check. */
  reasoning: 'openai' | 'anthropic' | 'gemini' | 'openai-responses' | 'bedrock-converse';
  model: string;
  upstreamModel: string;
  /** How the path the upstream received starts. */
  path: string;
}

export const DIALECTS = ['openai', 'anthropic', 'gemini', 'openai-responses'] as const;

export interface MatrixContext {
  sim: RunningSimulator;
  gatewayUrl: string;
  key: string;
}

/**
 * The cases every cell of a matrix runs — a prompt plain and streamed, a tool loop plain and
 * streamed, thinking kept valid across a tool loop — asserting what the client got and what the
 * upstream received. `context` is read when the cases run (after beforeAll).
 */
export function defineMatrixCases(context: () => MatrixContext, upstreams: readonly MatrixUpstream[]): void {
  const pairs = DIALECTS.flatMap((dialect) => upstreams.map((upstream) => [`${dialect} → ${upstream.protocol}`, dialect, upstream] as const));
  const marker = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
  const received = (m: string) => context().sim.requests().filter((r) => r.protocol !== 'control' && JSON.stringify(r.body).includes(m));
  const client = (dialect: DialectClient['dialect']) => driverFor(dialect, context().gatewayUrl, context().key);

  describe.each(pairs)('%s', (_name, dialect, upstream) => {
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
      context().sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
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
      context().sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } });
      const driver = client(dialect);
      const first = await driver.startTool(upstream.model, `Weather in Oslo? ${m}`, { stream: false, thinking: true });
      expect(first.calls).toEqual([expect.objectContaining({ name: 'get_weather', args: { city: 'Oslo' } })]);
      // A thinking budget has no Chat Completions form, and gpt-4o-mini does not reason: the
      // request goes without it (with a warning) rather than failing. Effort passes through.
      const thinks = !(upstream.reasoning === 'openai' && dialect !== 'openai');
      expect(first.reply.thinking).toMatch(thinks ? /^Considering: / : /^$/);
      const final = await driver.finishTool(upstream.model, { temp_c: -3 }, { stream: true, thinking: true });
      expect(final.text).toBe('Tool results received: {"temp_c":-3}');
      const [, second] = received(m);
      expect(second).toBeDefined();
      // The upstream got its own signature back, untouched, with thinking still on (the simulator
      // verifies signatures and would have answered 400 on a tampered one).
      assertSignedHistory(upstream.reasoning, dialect, second!.body as Record<string, any>);
    });
  });
}

function assertSignedHistory(reasoning: MatrixUpstream['reasoning'], dialect: string, body: Record<string, any>): void {
  if (reasoning === 'anthropic') {
    expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: expect.any(Number) });
    const assistant = body['messages'].find((msg: any) => msg.role === 'assistant');
    expect(assistant.content[0]).toEqual({ type: 'thinking', thinking: expect.stringMatching(/^Considering: /), signature: expect.any(String) });
    expect(assistant.content[0].signature).not.toMatch(/^rosetta-sig/);
  } else if (reasoning === 'bedrock-converse') {
    expect(body['additionalModelRequestFields']).toEqual({ thinking: { type: 'enabled', budget_tokens: expect.any(Number) } });
    const assistant = body['messages'].find((msg: any) => msg.role === 'assistant');
    expect(assistant.content[0]).toEqual({ reasoningContent: { reasoningText: { text: expect.stringMatching(/^Considering: /), signature: expect.any(String) } } });
    expect(assistant.content[0].reasoningContent.reasoningText.signature).not.toMatch(/^rosetta-sig/);
  } else if (reasoning === 'gemini') {
    const model = body['contents'].find((c: any) => c.role === 'model');
    const signed = model.parts.filter((p: any) => p.thoughtSignature);
    expect(signed.length).toBeGreaterThan(0);
    for (const part of signed) expect(part.thoughtSignature).not.toMatch(/^rosetta-sig/);
    expect(body['generationConfig']['thinkingConfig']).toEqual(expect.objectContaining({ includeThoughts: true }));
  } else if (reasoning === 'openai-responses') {
    // OpenAI's own reasoning item came back byte for byte (the simulator verifies it), and
    // the effort travelled (a budget as the nearest effort).
    expect(body['reasoning']).toEqual(expect.objectContaining({ effort: 'low' }));
    const items = body['input'].filter((item: any) => item.type === 'reasoning');
    expect(items).toEqual([expect.objectContaining({ encrypted_content: expect.any(String) })]);
    expect(items[0].encrypted_content).not.toMatch(/^rosetta-sig/);
  } else if (dialect === 'openai') {
    expect(body['reasoning_effort']).toBe('low');
  } else {
    expect(body).not.toHaveProperty('reasoning_effort');
  }
}
