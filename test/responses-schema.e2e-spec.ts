import type { RunningSimulator } from '../apps/simulator/src';
import { responseProblems, streamEventProblems } from './support/open-responses-schema';
import { addResponsesUpstream, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * Every Responses object and stream event the gateway writes, checked against the published Open
 * Responses OpenAPI document (test/support/open-responses), whichever protocol the upstream speaks.
 */
describe('Responses objects against the published Open Responses schema', () => {
  let stack: Stack;
  let sim: RunningSimulator;

  beforeAll(async () => {
    stack = await startStack();
    sim = stack.sim;
    await addResponsesUpstream(stack.gateway, sim.url);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const UPSTREAMS: Array<[string, string]> = [
    ['openai', 'rosetta/gpt-4o-mini'],
    ['anthropic', 'rosetta/claude-haiku-4-5'],
    ['gemini', 'rosetta/gemini-2.5-flash'],
    ['openai-responses', RESPONSES_MODEL],
  ];
  const PARAMETERS = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  // A function tool as a client may send it: no `strict`, and one without a description.
  const TOOLS = [
    { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: PARAMETERS },
    { type: 'function', name: 'get_time', parameters: PARAMETERS },
  ];
  const ECHOED_TOOLS = [
    { type: 'function', name: 'get_weather', description: 'Weather for a city', parameters: PARAMETERS, strict: true },
    { type: 'function', name: 'get_time', description: null, parameters: PARAMETERS, strict: true },
  ];

  const post = (body: Record<string, unknown>) =>
    fetch(`${stack.gateway.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  const body = (model: string, m: string, stream: boolean) => ({ model, input: `Weather in Rome? ${m}`, tools: TOOLS, presence_penalty: 0.5, frequency_penalty: 0.25, stream });

  /** The `data` of each SSE frame, parsed. */
  const events = (text: string): Array<Record<string, any>> =>
    text
      .split('\n\n')
      .map((frame) => frame.split('\n').find((line) => line.startsWith('data: ')))
      .filter((line): line is string => line !== undefined)
      .map((line) => JSON.parse(line.slice('data: '.length)));

  describe.each(UPSTREAMS)('over %s', (protocol, model) => {
    it('answers with a response object the schema accepts, echoing penalties and tools in the response shape', async () => {
      const m = `schema-${protocol}-${Math.random().toString(36).slice(2, 8)}`;
      sim.script({ match: m, reply: { text: 'It is sunny.' } });
      const res = await post(body(model, m, false));
      expect(res.status).toBe(200);
      const response = (await res.json()) as Record<string, any>;
      expect(responseProblems(response)).toEqual([]);
      expect({ status: response['status'], presence_penalty: response['presence_penalty'], frequency_penalty: response['frequency_penalty'], tools: response['tools'] }).toEqual({
        status: 'completed',
        presence_penalty: 0.5,
        frequency_penalty: 0.25,
        tools: ECHOED_TOOLS,
      });
      expect(response['completed_at']).toBeGreaterThanOrEqual(response['created_at']);
      // The stored copy, as GET /v1/responses/{id} serves it, is the same object.
      const stored = await fetch(`${stack.gateway.url}/v1/responses/${String(response['id'])}`, { headers: { authorization: `Bearer ${stack.key}` } });
      expect(await stored.json()).toEqual(response);
      // The penalties reach an upstream that takes them, Responses included, instead of being dropped.
      const upstream = sim.requests().find((r) => r.protocol !== 'control' && JSON.stringify(r.body).includes(m))!.body as Record<string, unknown>;
      const penalties = protocol === 'openai' || protocol === 'openai-responses' ? { presence_penalty: 0.5, frequency_penalty: 0.25 } : {};
      expect({ presence_penalty: upstream['presence_penalty'], frequency_penalty: upstream['frequency_penalty'] }).toEqual({ presence_penalty: undefined, frequency_penalty: undefined, ...penalties });
    });

    it('streams events the schema accepts, each response snapshot included', async () => {
      const m = `schema-stream-${protocol}-${Math.random().toString(36).slice(2, 8)}`;
      sim.script({ match: m, reply: { text: 'Let me look.', toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] } });
      const res = await post(body(model, m, true));
      expect(res.status).toBe(200);
      const all = events(await res.text());
      expect(all.flatMap((event) => streamEventProblems(event))).toEqual([]);
      const snapshots = all.filter((e) => ['response.created', 'response.in_progress', 'response.completed'].includes(e['type'])).map((e) => e['response'] as Record<string, any>);
      expect(snapshots.map((r) => [r['status'], r['completed_at'] === null, r['presence_penalty'], r['frequency_penalty'], r['tools']])).toEqual([
        ['in_progress', true, 0.5, 0.25, ECHOED_TOOLS],
        ['in_progress', true, 0.5, 0.25, ECHOED_TOOLS],
        ['completed', false, 0.5, 0.25, ECHOED_TOOLS],
      ]);
    });

    it.each([
      ['cut short by max tokens, after reasoning', { text: 'one two three', thinking: { text: 'pondering' }, finish: 'length' as const }, 'response.incomplete'],
      ['failing mid-stream', { text: 'one two three four', streamErrorAfterChunks: 1 }, 'response.failed'],
    ])('streams an answer %s with events the schema accepts', async (_, reply, last) => {
      const m = `schema-end-${protocol}-${Math.random().toString(36).slice(2, 8)}`;
      sim.script({ match: m, reply });
      const res = await post({ ...body(model, m, true), reasoning: { effort: 'low', summary: 'auto' } });
      expect(res.status).toBe(200);
      const all = events(await res.text());
      expect(all.flatMap((event) => streamEventProblems(event))).toEqual([]);
      const end = all.at(-1)!;
      expect({ type: end['type'], completed_at: end['response']['completed_at'] }).toEqual({ type: last, completed_at: null });
    });
  });

  it('refuses a penalty out of range with a 400 naming the field', async () => {
    const res = await post({ model: 'rosetta/gpt-4o-mini', input: 'hi', presence_penalty: 3 });
    expect(res.status).toBe(400);
    const error = ((await res.json()) as { error: Record<string, unknown> }).error;
    expect({ type: error['type'], param: error['param'] }).toEqual({ type: 'invalid_request_error', param: 'presence_penalty' });
  });
});
