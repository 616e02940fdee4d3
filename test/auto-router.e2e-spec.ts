import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { RunningSimulator } from '../apps/simulator/src';
import { adminCall, type GatewayProcess } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';

/** rosetta/auto: the Mixture of Models, live, in every dialect, with its decision explained. */
describe('rosetta/auto', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;

  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway, key } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const route = async (body: Record<string, unknown>, k = key, query = '') => {
    const res = await fetch(`${gateway.url}/v1/route${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${k}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const ask = (content: string, extra: Record<string, unknown> = {}) => ({ model: 'rosetta/auto', messages: [{ role: 'user', content }], ...extra });

  it('explains a decision without calling an upstream: signals with confidences, scored candidates, filters', async () => {
    const before = sim.requests().length;
    const { status, body } = await route(ask('Write a Python function that returns the nth Fibonacci number.'));
    expect(status).toBe(200);
    expect(sim.requests().length).toBe(before);
    expect(body).toEqual(expect.objectContaining({ dialect: 'openai', model: 'rosetta/auto', chosen: expect.stringMatching(/^rosetta\//), route: expect.stringContaining('model=') }));
    expect(body.decision.signals).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'code', value: true, confidence: expect.any(Number) })]));
    expect(body.decision.candidates.length).toBeGreaterThan(5);
    for (const c of body.decision.candidates) expect(c).toEqual(expect.objectContaining({ id: expect.any(String), quality: expect.any(Number), costUsd: expect.any(Number), score: expect.any(Number) }));
    expect(body.filters).toEqual(expect.arrayContaining([{ model: 'rosetta/llama-3.3-70b', eligible: [], excluded_by: 'configured' }]));
    expect(body.attempts[0].model).toBe(body.chosen);
  });

  it('asks about rosetta/auto when the body names no model, as chat does (in every dialect)', async () => {
    const prompt = 'Write a Python function that returns the nth Fibonacci number.';
    const named = await route(ask(prompt));
    const unnamed = await route({ messages: [{ role: 'user', content: prompt }] });
    expect(unnamed.status).toBe(200);
    expect({ model: unnamed.body.model, chosen: unnamed.body.chosen }).toEqual({ model: 'rosetta/auto', chosen: named.body.chosen });
    const gemini = await route({ contents: [{ role: 'user', parts: [{ text: prompt }] }] });
    expect({ status: gemini.status, dialect: gemini.body.dialect, model: gemini.body.model }).toEqual({ status: 200, dialect: 'gemini', model: 'rosetta/auto' });
  });

  it('accepts a body of each dialect', async () => {
    const gemini = await route({ model: 'rosetta/auto', contents: [{ role: 'user', parts: [{ text: 'Translate "good morning" to French.' }] }] });
    expect(gemini.body.dialect).toBe('gemini');
    const anthropic = await route({ model: 'rosetta/auto', max_tokens: 100, system: 'terse', messages: [{ role: 'user', content: 'hi' }] }, key, '?dialect=anthropic');
    expect(anthropic.body.dialect).toBe('anthropic');
    expect(anthropic.body.chosen).toMatch(/^rosetta\//);
  });

  it('the knob moves the choice from cost-saving to quality-first, as a request field and as a key default', async () => {
    const prompt = 'Prove that the square root of 2 is irrational, step by step.';
    const cheap = await route(ask(prompt, { route_knob: 0 }));
    const best = await route(ask(prompt, { route_knob: 1 }));
    const cost = (b: any, id: string) => b.decision.candidates.find((c: any) => c.id === id).costUsd;
    const quality = (b: any, id: string) => b.decision.candidates.find((c: any) => c.id === id).quality;
    expect(cost(best.body, best.body.chosen)).toBeGreaterThan(cost(cheap.body, cheap.body.chosen));
    expect(quality(best.body, best.body.chosen)).toBeGreaterThan(quality(cheap.body, cheap.body.chosen));
    const frugal = await adminCall(gateway, 'POST', '/admin/keys', { name: 'frugal', plan: 'enterprise', route_knob: 0 });
    expect(frugal.body.route_knob).toBe(0);
    expect((await route(ask(prompt), frugal.body.key)).body.chosen).toBe(cheap.body.chosen);
    expect((await route(ask(prompt, { route_knob: 2 }))).status).toBe(400);
  });

  it('applies hard filters first: the models pool, tools, and provider preferences', async () => {
    const pool = await route(ask('hello', { models: ['rosetta/claude-haiku-4-5', 'rosetta/gpt-4o-mini'] }));
    expect(['rosetta/claude-haiku-4-5', 'rosetta/gpt-4o-mini']).toContain(pool.body.chosen);
    const only = await route(ask('hello', { provider_only: ['gemini'] }));
    expect(only.body.chosen).toMatch(/^rosetta\/gemini-/);
  });

  it('answers in all three dialects with the served model in the body and the decision in x-rosetta-route', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const a = await openai.chat.completions.create({ model: 'rosetta/auto', messages: [{ role: 'user', content: 'Say hi' }] }).withResponse();
    expect(a.data.model).toMatch(/^rosetta\/(?!auto)/);
    expect(a.data.model).toBe(a.response.headers.get('x-rosetta-model'));
    expect(a.response.headers.get('x-rosetta-route')).toMatch(/^model=rosetta\/.+; mode=(single|cascade); knob=/);

    const anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    const b = await anthropic.messages.stream({ model: 'rosetta/auto', max_tokens: 64, messages: [{ role: 'user', content: 'Say hi' }] }).finalMessage();
    expect(b.model).toMatch(/^rosetta\/(?!auto)/);
    expect(b.content[0]).toEqual(expect.objectContaining({ type: 'text', text: expect.stringContaining('Simulated reply from') }));

    const gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } });
    const c = await gemini.models.generateContent({ model: 'rosetta/auto', contents: 'Say hi' });
    expect(c.modelVersion).toMatch(/^rosetta\/(?!auto)/);
    expect(c.text).toContain('Simulated reply from');
  });

  describe('cascade mode: cheap models first, escalating when their answers disagree', () => {
    // Two cheap candidates and a strong one, and a multiple-choice question (answers comparable)
    // hard enough that a cheap model alone is not capable of it, so the cheap ones probe first.
    const pool = { models: ['rosetta/gemini-2.5-flash-lite', 'rosetta/gpt-4o-mini', 'rosetta/claude-sonnet-4-5'], route_knob: 0.5 };
    const question = (m: string) =>
      `Which sorting algorithm has the best worst-case time complexity? (${m})\nA) Quicksort\nB) Heapsort\nC) Bubble sort\nD) Insertion sort\nAnswer with a single letter.`;
    const send = (m: string) =>
      fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(ask(question(m), pool)),
      });

    it('plans the cascade', async () => {
      const explained = await route(ask(question('plan'), pool));
      expect(explained.body.decision.mode).toBe('cascade');
      expect(explained.body.decision.plan).toEqual(['rosetta/gemini-2.5-flash-lite', 'rosetta/gpt-4o-mini', 'rosetta/claude-sonnet-4-5']);
      // An easy question needs no probe: the cheapest capable model answers it alone.
      const easy = await route(ask('Which planet is largest?\nA) Mars\nB) Jupiter\nC) Venus\nD) Mercury\nAnswer with a single letter.', pool));
      expect(easy.body.decision).toEqual(expect.objectContaining({ mode: 'single', plan: ['rosetta/gemini-2.5-flash-lite'] }));
    });

    // Fixed markers, not timestamps: the marker is part of the routed prompt, and a changing one
    // sometimes read as another category and lost the cascade.
    it('accepts when the two cheap answers agree: two models activated, both charged', async () => {
      const m = 'cascade-marker-agree';
      sim.script({ match: m, reply: { text: 'B' } });
      const res = await send(m);
      const body = (await res.json()) as any;
      expect(res.headers.get('x-rosetta-route')!.split('activated=')[1]).toBe('rosetta/gemini-2.5-flash-lite>rosetta/gpt-4o-mini');
      expect(body.choices[0].message.content).toBe('B');
      const row = (await adminCall(gateway, 'GET', `/admin/requests/${res.headers.get('x-request-id')}`)).body;
      expect(row.attempts).toBe(2);
      expect(row.input_tokens).toBeGreaterThan(body.usage.prompt_tokens);
    });

    it('escalates to the strong model when they disagree, and charges all three', async () => {
      const m = 'cascade-marker-disagree';
      sim.script({ match: m, model: 'gemini-2.5-flash-lite', reply: { text: 'A' } });
      sim.script({ match: m, model: 'gpt-4o-mini', reply: { text: 'C' } });
      sim.script({ match: m, model: 'claude-sonnet-4-5', reply: { text: 'B' } });
      const res = await send(m);
      const body = (await res.json()) as any;
      expect(res.headers.get('x-rosetta-route')!.split('activated=')[1]).toBe('rosetta/gemini-2.5-flash-lite>rosetta/gpt-4o-mini>rosetta/claude-sonnet-4-5');
      expect(body.model).toBe('rosetta/claude-sonnet-4-5');
      expect(body.choices[0].message.content).toBe('B');
      const row = (await adminCall(gateway, 'GET', `/admin/requests/${res.headers.get('x-request-id')}`)).body;
      expect(row).toEqual(expect.objectContaining({ attempts: 3, served_model: 'rosetta/claude-sonnet-4-5' }));
      const sonnetOnly = body.usage.prompt_tokens * 3e-6 + body.usage.completion_tokens * 15e-6;
      expect(Number(row.cost_usd)).toBeGreaterThan(sonnetOnly);
    });

    // docs/decisions/0012: a stream cascades when its probes settle it before the first byte.
    const streamed = (r: { protocol: string; path: string; body: unknown }) =>
      r.protocol === 'gemini' ? r.path.includes('streamGenerateContent') : (r.body as { stream?: boolean }).stream === true;
    const streamAsk = async (m: string) => {
      const openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
      const params = { ...ask(question(m), pool), stream: true, stream_options: { include_usage: true } } as unknown as OpenAI.ChatCompletionCreateParamsStreaming;
      const before = sim.requests().length;
      const { data, response } = await openai.chat.completions.create(params).withResponse();
      let text = '';
      let model = '';
      let cost: number | undefined;
      for await (const chunk of data) {
        text += chunk.choices[0]?.delta?.content ?? '';
        model = chunk.model;
        if (chunk.usage) cost = (chunk.usage as { cost?: number }).cost;
      }
      const upstream = sim.requests().slice(before).map((r) => [r.protocol, streamed(r)]);
      const row = (await adminCall(gateway, 'GET', `/admin/requests/${response.headers.get('x-request-id')}`)).body;
      return { text, model, cost, upstream, row, activated: response.headers.get('x-rosetta-route')!.split('activated=')[1] };
    };

    it('streams: agreeing probes, called without streaming, are replayed as the stream and both charged', async () => {
      const m = 'cascade-marker-stream-agree';
      sim.script({ match: m, reply: { text: 'B' } });
      const got = await streamAsk(m);
      expect(got).toEqual(expect.objectContaining({ text: 'B', model: 'rosetta/gemini-2.5-flash-lite', activated: 'rosetta/gemini-2.5-flash-lite>rosetta/gpt-4o-mini' }));
      expect(got.upstream).toEqual([
        ['gemini', false],
        ['openai', false],
      ]);
      expect(got.row).toEqual(expect.objectContaining({ attempts: 2, streamed: true, served_model: 'rosetta/gemini-2.5-flash-lite' }));
      expect(Number(got.row.cost_usd)).toBeCloseTo(got.cost!, 9);
    });

    it('streams: when the probes disagree the strong model streams, and the ledger charges all three', async () => {
      const m = 'cascade-marker-stream-disagree';
      sim.script({ match: m, model: 'gemini-2.5-flash-lite', reply: { text: 'A' } });
      sim.script({ match: m, model: 'gpt-4o-mini', reply: { text: 'C' } });
      sim.script({ match: m, model: 'claude-sonnet-4-5', reply: { text: 'B' } });
      const got = await streamAsk(m);
      expect(got).toEqual(expect.objectContaining({ text: 'B', model: 'rosetta/claude-sonnet-4-5', activated: 'rosetta/gemini-2.5-flash-lite>rosetta/gpt-4o-mini>rosetta/claude-sonnet-4-5' }));
      expect(got.upstream).toEqual([
        ['gemini', false],
        ['openai', false],
        ['anthropic', true],
      ]);
      expect(got.row).toEqual(expect.objectContaining({ attempts: 3, streamed: true, served_model: 'rosetta/claude-sonnet-4-5' }));
      expect(Number(got.row.cost_usd)).toBeCloseTo(got.cost!, 9);
      const sonnetOnly = got.row.output_tokens * 15e-6;
      expect(Number(got.row.cost_usd)).toBeGreaterThan(sonnetOnly);
    });

    it('a request with tools is answered by one model, streamed or not', async () => {
      const tools = [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }];
      const body = await route({ ...ask(question('tools'), pool), tools });
      expect(body.body.decision.mode).toBe('single');
      expect((await route({ ...ask('Hello!', pool), stream: true })).body.decision.mode).toBe('single');
      expect((await route({ ...ask(question('streamed'), pool), stream: true })).body.decision.mode).toBe('cascade');
    });
  });
});
