import { thinkingSignature, verifyThinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

const HEADERS = { 'x-api-key': 'sk-ant-sim', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' };

async function messages(sim: RunningSimulator, body: unknown, headers: Record<string, string> = HEADERS, path = '/v1/messages'): Promise<Response> {
  return fetch(`${sim.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function json(response: Response, status = 200): Promise<Record<string, any>> {
  expect(response.status).toBe(status);
  return (await response.json()) as Record<string, any>;
}

function user(content: unknown): { role: string; content: unknown } {
  return { role: 'user', content };
}

interface SseEvent {
  event: string;
  data: Record<string, any>;
}

/** Parses an Anthropic SSE body; every frame must be `event:` + `data:` with matching type. */
function events(text: string): SseEvent[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      const lines = frame.split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/^event: [a-z_]+$/);
      expect(lines[1]?.startsWith('data: ')).toBe(true);
      const event = (lines[0] ?? '').slice('event: '.length);
      const data = JSON.parse((lines[1] ?? '').slice('data: '.length)) as Record<string, any>;
      expect(data['type']).toBe(event);
      return { event, data };
    });
}

const WEATHER_TOOL = {
  name: 'get_weather',
  description: 'Get weather',
  input_schema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city', 'days'] },
};

const NO_CACHE_WRITE = { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 };
const USAGE_ZEROES = { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: NO_CACHE_WRITE, service_tier: 'standard' };

describe('Anthropic Messages (non-streaming)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('returns a message exactly in the Anthropic shape', async () => {
    const response = await messages(sim, {
      model: 'claude-sim',
      max_tokens: 100,
      system: 'Be terse.',
      messages: [user('Hello there, simulator')],
    });
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('request-id')).toMatch(/^req_sim_/);
    expect(await json(response)).toEqual({
      id: expect.stringMatching(/^msg_sim_[A-Za-z0-9]+$/),
      type: 'message',
      role: 'assistant',
      model: 'claude-sim',
      content: [{ type: 'text', text: 'Simulated reply from claude-sim: Hello there, simulator', citations: null }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 8, output_tokens: 7, ...USAGE_ZEROES }, // ceil((9 + 22) chars / 4)
    });
  });

  it('reads system blocks and block content, ignoring image and document blocks for text', async () => {
    const response = await messages(sim, {
      model: 'm',
      max_tokens: 100,
      system: [{ type: 'text', text: 'abcd' }],
      messages: [
        user([
          { type: 'text', text: 'look at this' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
          { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' } },
        ]),
      ],
    });
    const body = await json(response);
    expect(body['content']).toEqual([{ type: 'text', text: 'Simulated reply from m: look at this', citations: null }]);
    expect(body['usage']).toEqual({ input_tokens: 4, output_tokens: 7, ...USAGE_ZEROES }); // ceil(16 / 4)
  });

  it('produces signed default thinking when thinking is enabled', async () => {
    const response = await messages(sim, {
      model: 'm',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [user('one two three four five six seven eight nine ten')],
    });
    const body = await json(response);
    const thinkingText = 'Considering: one two three four five six seven eight';
    expect(body['content']).toEqual([
      { type: 'thinking', thinking: thinkingText, signature: thinkingSignature('anthropic', thinkingText) },
      { type: 'text', text: 'Simulated reply from m: one two three four five six seven eight nine ten', citations: null },
    ]);
    expect(verifyThinkingSignature('anthropic', thinkingText, body['content'][0].signature)).toBe(true);
    expect(body['usage']).toEqual({ input_tokens: 12, output_tokens: 9 + 14, ...USAGE_ZEROES }); // ceil(47 / 4); thinking 9 + text 14
  });

  it('keeps a scripted thinking signature', async () => {
    sim.script({ match: 'marker-sig-a1', reply: { text: 'ok', thinking: { text: 'hmm', signature: 'c2NyaXB0ZWQ=' } } });
    const body = await json(await messages(sim, { model: 'm', max_tokens: 50, messages: [user('marker-sig-a1')] }));
    expect(body['content'][0]).toEqual({ type: 'thinking', thinking: 'hmm', signature: 'c2NyaXB0ZWQ=' });
  });

  it('calls the first tool with synthesised input for tool_choice any, and the named tool for type tool', async () => {
    const any = await json(
      await messages(sim, { model: 'm', max_tokens: 100, tools: [WEATHER_TOOL], tool_choice: { type: 'any' }, messages: [user('weather?')] }),
    );
    expect(any['content']).toEqual([
      { type: 'tool_use', id: expect.stringMatching(/^toolu_sim_[A-Za-z0-9]+$/), name: 'get_weather', input: { city: 'example', days: 1 } },
    ]);
    expect(any['stop_reason']).toBe('tool_use');
    expect(any['usage']['output_tokens']).toBe(Math.ceil('{"city":"example","days":1}'.length / 4));
    const named = await json(
      await messages(sim, {
        model: 'm',
        max_tokens: 100,
        tools: [WEATHER_TOOL, { name: 'other', input_schema: { type: 'object' } }],
        tool_choice: { type: 'tool', name: 'other' },
        messages: [user('x')],
      }),
    );
    expect(named['content']).toEqual([{ type: 'tool_use', id: expect.any(String), name: 'other', input: {} }]);
    const auto = await json(await messages(sim, { model: 'm', max_tokens: 100, tools: [WEATHER_TOOL], messages: [user('x')] }));
    expect(auto['content']).toEqual([{ type: 'text', text: 'Simulated reply from m: x', citations: null }]);
  });

  it('acknowledges tool results (string and block content, is_error) with the default text', async () => {
    const response = await messages(sim, {
      model: 'm',
      max_tokens: 100,
      tools: [WEATHER_TOOL],
      tool_choice: { type: 'any' },
      messages: [
        user('weather in Paris and Rome?'),
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        user([
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"temp_c":18}' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'unavailable' }], is_error: true },
        ]),
      ],
    });
    const body = await json(response);
    expect(body['content']).toEqual([{ type: 'text', text: 'Tool results received: {"temp_c":18}; unavailable', citations: null }]);
    expect(body['stop_reason']).toBe('end_turn');
  });

  it('reports stop_sequence with the matched sequence, and max_tokens', async () => {
    const stopped = await json(
      await messages(sim, { model: 'm', max_tokens: 100, stop_sequences: ['nothing', 'STOP'], messages: [user('alpha STOP beta')] }),
    );
    expect(stopped['content']).toEqual([{ type: 'text', text: 'Simulated reply from m: alpha ', citations: null }]);
    expect([stopped['stop_reason'], stopped['stop_sequence']]).toEqual(['stop_sequence', 'STOP']);
    const capped = await json(await messages(sim, { model: 'm', max_tokens: 2, messages: [user('a b c')] }));
    expect(capped['content']).toEqual([{ type: 'text', text: 'Simulated reply ', citations: null }]);
    expect([capped['stop_reason'], capped['stop_sequence'], capped['usage']['output_tokens']]).toEqual(['max_tokens', null, 2]);
  });

  it('maps content_filter to refusal and scripted cached tokens to cache_read_input_tokens', async () => {
    sim.script({ match: 'marker-refuse-b2', reply: { text: 'No.', finish: 'content_filter', usage: { input: 100, output: 1, cached: 40 } } });
    const body = await json(await messages(sim, { model: 'm', max_tokens: 10, messages: [user('marker-refuse-b2')] }));
    expect(body['stop_reason']).toBe('refusal');
    expect(body['usage']).toEqual({ input_tokens: 60, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 40, cache_creation: NO_CACHE_WRITE, service_tier: 'standard' });
  });

  it('keeps only the first tool use when disable_parallel_tool_use is set', async () => {
    const directive = JSON.stringify({ toolCalls: [{ name: 'a', arguments: {} }, { name: 'b', arguments: {} }] });
    const body = await json(
      await messages(sim, {
        model: 'm',
        max_tokens: 100,
        tool_choice: { type: 'auto', disable_parallel_tool_use: true },
        messages: [user(`<sim>${directive}</sim>`)],
      }),
    );
    expect(body['content'].map((block: { name: string }) => block.name)).toEqual(['a']);
  });

  it('counts tokens the same way as the usage of a create call', async () => {
    const request = { model: 'm', system: 'Be terse.', messages: [user('Hello there, simulator')] };
    const counted = await json(await messages(sim, request, HEADERS, '/v1/messages/count_tokens'));
    expect(counted).toEqual({ input_tokens: 8 });
    const created = await json(await messages(sim, { ...request, max_tokens: 10 }));
    expect(created['usage']['input_tokens']).toBe(8);
  });

  it('records requests with protocol anthropic, the query string, headers and parsed body', async () => {
    sim.reset();
    const body = { model: 'm', max_tokens: 5, messages: [user('record me marker-rec-c3')] };
    await messages(sim, body, { ...HEADERS, 'anthropic-beta': 'prompt-caching-2024-07-31' }, '/v1/messages?beta=true');
    expect(sim.requests()).toEqual([
      {
        id: expect.stringMatching(/^req_sim_/),
        protocol: 'anthropic',
        method: 'POST',
        path: '/v1/messages?beta=true',
        headers: expect.objectContaining({ 'x-api-key': 'sk-ant-sim', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'prompt-caching-2024-07-31' }),
        body,
        receivedAt: expect.any(String),
      },
    ]);
  });
});

describe('Anthropic Messages errors and authentication', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  const envelope = (type: string, message: unknown = expect.any(String)): Record<string, unknown> => ({
    type: 'error',
    error: { type, message },
    request_id: expect.stringMatching(/^req_sim_/),
  });

  it('requires x-api-key or a bearer token', async () => {
    const body = { model: 'm', max_tokens: 5, messages: [user('hi')] };
    const { 'x-api-key': _key, ...noKey } = HEADERS;
    expect(await json(await messages(sim, body, noKey), 401)).toEqual(envelope('authentication_error', 'x-api-key header is required'));
    const bearer = await messages(sim, body, { ...noKey, authorization: 'Bearer sk-ant-oauth' });
    expect(bearer.status).toBe(200);
  });

  it('requires the anthropic-version header', async () => {
    const { 'anthropic-version': _version, ...noVersion } = HEADERS;
    const response = await messages(sim, { model: 'm', max_tokens: 5, messages: [user('hi')] }, noVersion);
    expect(await json(response, 400)).toEqual(envelope('invalid_request_error', 'anthropic-version: header is required'));
  });

  it('requires max_tokens and rejects malformed JSON and unknown block types', async () => {
    expect(await json(await messages(sim, { model: 'm', messages: [user('hi')] }), 400)).toEqual(
      envelope('invalid_request_error', 'max_tokens: Field required'),
    );
    const malformed = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: HEADERS, body: '{"model":' });
    expect(await json(malformed, 400)).toEqual(envelope('invalid_request_error', expect.stringContaining('invalid JSON')));
    const badBlock = await messages(sim, { model: 'm', max_tokens: 5, messages: [user([{ type: 'image_url', image_url: { url: 'x' } }])] });
    expect(await json(badBlock, 400)).toEqual(envelope('invalid_request_error', expect.stringMatching(/^messages\.0\.content\.0: Input tag 'image_url'/)));
  });

  it.each([
    [429, 'rate_limit_error', { 'retry-after': '7' }],
    [500, 'api_error', {}],
    [529, 'overloaded_error', {}],
    [400, 'invalid_request_error', {}],
  ])('renders a planned %d as %s', async (status, type, headers) => {
    const retry = status === 429 ? { retryAfterSeconds: 7 } : {};
    const directive = JSON.stringify({ error: { status, message: `planned ${status}`, ...retry } });
    const response = await messages(sim, { model: 'm', max_tokens: 5, messages: [user(`<sim>${directive}</sim>`)] });
    for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name)).toBe(value);
    expect(await json(response, status)).toEqual(envelope(type, `planned ${status}`));
  });

  it('reports a bad <sim> directive as invalid_request_error', async () => {
    const response = await messages(sim, { model: 'm', max_tokens: 5, messages: [user('<sim>{"txt":1}</sim>')] });
    expect(await json(response, 400)).toEqual(envelope('invalid_request_error', 'Invalid <sim> directive: reply.txt is not a known field'));
  });
});

describe('Anthropic Messages (streaming)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('streams the exact event sequence for a text reply', async () => {
    const response = await messages(sim, { model: 'claude-sim', max_tokens: 100, stream: true, messages: [user('Hi there')] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const tokens = ['Simulated ', 'reply ', 'from ', 'claude-sim: ', 'Hi ', 'there'];
    expect(events(await response.text())).toEqual([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: expect.stringMatching(/^msg_sim_/),
            type: 'message',
            role: 'assistant',
            model: 'claude-sim',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 2, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: NO_CACHE_WRITE },
          },
        },
      },
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'ping', data: { type: 'ping' } },
      ...tokens.map((text) => ({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
      })),
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 6 } },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  });

  it('streams thinking (deltas then signature), text and tool_use with input_json_delta fragments', async () => {
    const directive = JSON.stringify({ text: 'Checking.', toolCalls: [{ id: 'toolu_fixed', name: 'get_weather', arguments: { city: 'Paris' } }] });
    const response = await messages(sim, {
      model: 'm',
      max_tokens: 2048,
      stream: true,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      messages: [user(`go <sim>${directive}</sim>`)],
    });
    const all = events(await response.text());
    const thinkingText = `Considering: go <sim>${directive}</sim>`;
    expect(all.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      ...Array<string>(4).fill('content_block_delta'), // "Considering: ", "go ", "<sim>…</sim>" and the signature
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      ...Array<string>(all.length - 15).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = (index: number): Array<Record<string, any>> =>
      all.filter((e) => e.event === 'content_block_delta' && e.data['index'] === index).map((e) => e.data['delta']);
    expect(deltas(0).slice(-1)).toEqual([{ type: 'signature_delta', signature: thinkingSignature('anthropic', thinkingText) }]);
    expect(deltas(0).slice(0, -1).map((delta) => delta['thinking']).join('')).toBe(thinkingText);
    expect(deltas(1)).toEqual([{ type: 'text_delta', text: 'Checking.' }]);
    const starts = all.filter((e) => e.event === 'content_block_start').map((e) => e.data['content_block']);
    expect(starts).toEqual([
      { type: 'thinking', thinking: '' },
      { type: 'text', text: '' },
      { type: 'tool_use', id: 'toolu_fixed', name: 'get_weather', input: {} },
    ]);
    const fragments = deltas(2);
    expect(fragments[0]).toEqual({ type: 'input_json_delta', partial_json: '' });
    expect(fragments.slice(1).length).toBeGreaterThanOrEqual(2);
    expect(fragments.every((delta) => delta['type'] === 'input_json_delta')).toBe(true);
    expect(JSON.parse(fragments.map((delta) => delta['partial_json']).join(''))).toEqual({ city: 'Paris' });
    const final = all[all.length - 2]?.data;
    expect(final).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 3 + 1 + Math.ceil('{"city":"Paris"}'.length / 4) },
    });
  });

  it('reports the stop sequence in message_delta', async () => {
    const response = await messages(sim, { model: 'm', max_tokens: 100, stream: true, stop_sequences: ['STOP'], messages: [user('a STOP b')] });
    const all = events(await response.text());
    expect(all[all.length - 2]?.data['delta']).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'STOP' });
  });

  it('writes event: error after N content chunks and ends the stream', async () => {
    sim.script({ match: 'marker-stream-err-d4', reply: { text: 'one two three four', streamErrorAfterChunks: 2 } });
    const response = await messages(sim, { model: 'm', max_tokens: 100, stream: true, messages: [user('marker-stream-err-d4')] });
    const all = events(await response.text());
    expect(all.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'error']);
    expect(all[all.length - 1]?.data).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('answers a planned error with an HTTP status before any stream starts', async () => {
    sim.script({ match: 'marker-529-e5', reply: { error: { status: 529, message: 'Overloaded' } } });
    const response = await messages(sim, { model: 'm', max_tokens: 100, stream: true, messages: [user('marker-529-e5')] });
    expect(response.status).toBe(529);
    expect(await response.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: expect.any(String) });
  });
});
