import { adminCall } from './support/gateway-process';
import { callDialect, readStream, type Dialect } from './support/dialect-wire';
import { startStack, type Stack } from './support/stack';

/**
 * Same-protocol stream pass-through (docs/decisions/0017): an OpenAI client served by an OpenAI
 * upstream, an Anthropic client by an Anthropic upstream, a Gemini client by a Gemini upstream and a
 * Responses client by a Responses upstream get the upstream's frames as it sent them — only the envelope the client must see differently is changed — while the ledger is
 * exact, and a cut or stalled stream still ends with the dialect's in-stream error.
 */
const TIMEOUTS = { UPSTREAM_FIRST_BYTE_TIMEOUT_MS: '2000', UPSTREAM_IDLE_TIMEOUT_MS: '1500', UPSTREAM_FALLBACK_FIRST_BYTE_MS: '1000' };
const HANG_GUARD_MS = 15_000;
const PACED = { tokensPerSecond: 20 };
const LONG_TEXT = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');
const OPENAI_PRICE = { prompt: 0.15e-6, completion: 0.6e-6 };

function sseFrames(body: string): string[] {
  return body.split(/\r?\n\r?\n/).filter((frame) => frame !== '');
}

describe('same-protocol stream pass-through', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack(TIMEOUTS);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const unique = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;

  /** The upstream request the gateway made for `marker`, sent again straight to the simulator: the frames the upstream sends. */
  async function upstreamFrames(marker: string, headers: Record<string, string>): Promise<string[]> {
    const sent = stack.sim.requests().find((r) => JSON.stringify(r.body).includes(marker));
    expect(sent).toBeDefined();
    const res = await fetch(`${stack.sim.url}${sent!.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(sent!.body) });
    return sseFrames(await res.text());
  }

  const row = async (id: string | null | undefined) => (await adminCall(stack.gateway, 'GET', `/admin/requests/${id}`)).body;

  it('OpenAI → OpenAI: each chunk is the upstream chunk after the gateway envelope, the usage chunk carries the cost, and the ledger is exact', async () => {
    const marker = unique('pass-openai');
    stack.sim.script({ match: marker, reply: { text: 'Pass this through untouched, please.', usage: { input: 12, output: 7 } } });
    const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: marker }] }),
    });
    const requestId = res.headers.get('x-request-id');
    const client = sseFrames(await res.text());
    const upstream = await upstreamFrames(marker, { authorization: 'Bearer sk-openai-operator-000000' });

    const envelope = `data: {"id":"chatcmpl-${requestId!.replace(/^req_/, '')}","object":"chat.completion.chunk","created":`;
    const after = (frame: string) => frame.slice(frame.indexOf('"system_fingerprint"'));
    expect(client).toHaveLength(upstream.length);
    // Role, content and finish chunks: the upstream's bytes after the envelope, which names the served model.
    for (const [i, frame] of client.slice(0, -2).entries()) {
      expect(frame.startsWith(envelope)).toBe(true);
      expect(frame).toContain('"model":"rosetta/gpt-4o-mini",');
      expect(after(frame)).toEqual(after(upstream[i]!));
    }
    const usageChunk = JSON.parse(client.at(-2)!.slice('data: '.length)) as { usage: Record<string, unknown> };
    const upstreamUsage = (JSON.parse(upstream.at(-2)!.slice('data: '.length)) as { usage: Record<string, unknown> }).usage;
    const cost = 12 * OPENAI_PRICE.prompt + 7 * OPENAI_PRICE.completion;
    expect(usageChunk.usage).toEqual({ ...upstreamUsage, cost: expect.closeTo(cost, 12) });
    expect(client.at(-1)).toEqual('data: [DONE]');

    const recorded = await row(requestId);
    expect(recorded).toEqual(expect.objectContaining({ status: 200, streamed: true, provider: 'openai', served_model: 'rosetta/gpt-4o-mini', input_tokens: 12, output_tokens: 7, error_type: null }));
    expect(Number(recorded.cost_usd)).toBeCloseTo(cost, 12);
    expect(recorded.ttft_ms).toEqual(expect.any(Number));
  });

  it('OpenAI → OpenAI without include_usage: no usage reaches the client, the ledger still has it', async () => {
    const marker = unique('pass-openai-nousage');
    stack.sim.script({ match: marker, reply: { text: 'No usage for you.', usage: { input: 9, output: 4 } } });
    const exchange = await callDialect(stack.gateway.url, stack.key, { dialect: 'openai', model: 'rosetta/gpt-4o-mini', text: marker, stream: true }, HANG_GUARD_MS);
    const client = sseFrames(exchange.body);
    expect(client.filter((frame) => frame.includes('"usage":{'))).toEqual([]);
    expect(readStream('openai', exchange.body)).toEqual({ kind: 'finished', text: 'No usage for you.', finish: 'stop' });
    expect(await row(exchange.headers?.get('x-request-id'))).toEqual(expect.objectContaining({ status: 200, input_tokens: 9, output_tokens: 4 }));
  });

  it('Anthropic → Anthropic: every event after message_start is the upstream event byte for byte', async () => {
    const marker = unique('pass-anthropic');
    stack.sim.script({ match: marker, reply: { text: 'Forwarded as sent.', usage: { input: 15, output: 5 } } });
    const exchange = await callDialect(stack.gateway.url, stack.key, { dialect: 'anthropic', model: 'rosetta/claude-haiku-4-5', text: marker, stream: true }, HANG_GUARD_MS);
    const requestId = exchange.headers?.get('x-request-id');
    const client = sseFrames(exchange.body);
    const upstream = await upstreamFrames(marker, { 'x-api-key': 'sk-ant-operator-000000', 'anthropic-version': '2023-06-01' });

    expect(client.slice(1)).toEqual(upstream.slice(1));
    const start = JSON.parse(client[0]!.split('data: ')[1]!) as { message: Record<string, unknown> };
    const upstreamStart = JSON.parse(upstream[0]!.split('data: ')[1]!) as { message: Record<string, unknown> };
    expect(start.message).toEqual({ ...upstreamStart.message, id: `msg_${requestId!.replace(/^req_/, '')}`, model: 'rosetta/claude-haiku-4-5' });
    expect(await row(requestId)).toEqual(expect.objectContaining({ status: 200, streamed: true, provider: 'anthropic', input_tokens: 15, output_tokens: 5, error_type: null }));
  });

  it.each([
    ['?alt=sse', true],
    ['a JSON array', false],
  ])('Gemini → Gemini with %s: each chunk is the upstream chunk up to the envelope, which names the gateway id and the served model', async (_framing, sse) => {
    const marker = unique('pass-gemini');
    stack.sim.script({ match: marker, reply: { text: 'Gemini chunks, forwarded.', usage: { input: 11, output: 6 } } });
    const method = sse ? 'streamGenerateContent?alt=sse' : 'streamGenerateContent';
    const res = await fetch(`${stack.gateway.url}/v1beta/models/rosetta/gemini-2.5-flash:${method}`, {
      method: 'POST',
      headers: { 'x-goog-api-key': stack.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: marker }] }] }),
    });
    const requestId = res.headers.get('x-request-id')!;
    const body = await res.text();
    const upstream = (await upstreamFrames(marker, { 'x-goog-api-key': 'gemini-operator-000000' })).map((frame) => frame.replace(/^data: /, ''));
    const client = sse ? sseFrames(body).map((frame) => frame.replace(/^data: /, '')) : (JSON.parse(body) as unknown[]).map((chunk) => JSON.stringify(chunk));

    const head = (json: string) => json.slice(0, json.indexOf('"modelVersion"'));
    expect(client).toHaveLength(upstream.length);
    for (const [i, chunk] of client.entries()) {
      expect(head(chunk)).toEqual(head(upstream[i]!));
      expect(chunk.slice(head(chunk).length)).toEqual(`"modelVersion":"rosetta/gemini-2.5-flash","responseId":"${requestId}"}`);
    }
    expect(res.headers.get('content-type')).toContain(sse ? 'text/event-stream' : 'application/json');
    expect(await row(requestId)).toEqual(expect.objectContaining({ status: 200, streamed: true, provider: 'gemini', input_tokens: 11, output_tokens: 6, error_type: null }));
  });

  it('Responses → Responses: events are the upstream events with the gateway ids, the stored answer continues the conversation', async () => {
    const marker = unique('pass-responses');
    stack.sim.script({ match: marker, reply: { text: 'Responses events, relayed.', usage: { input: 14, output: 5 } } });
    const post = (body: Record<string, unknown>) =>
      fetch(`${stack.gateway.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const res = await post({ model: 'rosetta/gpt-5-codex', stream: true, input: marker });
    const requestId = res.headers.get('x-request-id');
    const client = sseFrames(await res.text());
    const upstream = await upstreamFrames(marker, { authorization: 'Bearer sk-openai-operator-000000' });
    const data = (frame: string) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as Record<string, any>;

    const created = data(client[0]!)['response'] as Record<string, any>;
    expect(created).toEqual(expect.objectContaining({ model: 'rosetta/gpt-5-codex', store: true, status: 'in_progress' }));
    const ours = new RegExp(`^msg_${created['id'].slice('resp_'.length)}_0$`);
    // The upstream's ids are its own each time it answers: compare the events with every item id set aside.
    const anyId = (frame: string) => frame.replace(/"item_id":"[^"]+"/g, '"item_id":"…"').replace(/"id":"msg_[^"]+"/g, '"id":"…"');
    expect(client).toHaveLength(upstream.length);
    // After the two opening events (the gateway's response object), up to the terminal one.
    for (const [i, frame] of client.slice(2, -1).entries()) {
      expect(anyId(frame)).toEqual(anyId(upstream[i + 2]!));
      const event = data(frame);
      expect(event['item_id'] ?? event['item']['id']).toMatch(ours);
    }
    const completed = data(client.at(-1)!);
    expect(completed).toEqual(expect.objectContaining({ type: 'response.completed', sequence_number: data(upstream.at(-1)!)['sequence_number'] }));
    expect(completed['response']).toEqual(expect.objectContaining({ id: created['id'], status: 'completed', usage: expect.objectContaining({ input_tokens: 14, output_tokens: 5, cost: expect.any(Number) }) }));
    expect(await row(requestId)).toEqual(expect.objectContaining({ status: 200, streamed: true, provider: 'openai-responses', input_tokens: 14, output_tokens: 5, error_type: null }));

    // The stored answer is what the client saw, and the next turn sends it on without the gateway's ids.
    const stored = await fetch(`${stack.gateway.url}/v1/responses/${created['id']}`, { headers: { authorization: `Bearer ${stack.key}` } });
    expect(((await stored.json()) as Record<string, any>)['output']).toEqual(completed['response']['output']);
    const next = unique('pass-responses-next');
    stack.sim.script({ match: next, reply: { text: 'Second turn.' } });
    const second = await post({ model: 'rosetta/gpt-5-codex', previous_response_id: created['id'], input: next });
    expect(second.status).toBe(200);
    const sent = stack.sim.requests().find((r) => JSON.stringify(r.body).includes(next))!.body as { input: Array<Record<string, any>> };
    const carried = sent.input.find((item) => item['type'] === 'message' && item['role'] === 'assistant');
    expect(carried).toEqual(expect.objectContaining({ content: [expect.objectContaining({ text: 'Responses events, relayed.' })] }));
    expect(carried!['id']).toBeUndefined();
  });

  it('Responses → Responses with reasoning and a tool call: the gateway ids, no encrypted reasoning unasked, a streamed second turn the upstream gets in its own terms', async () => {
    const marker = unique('pass-responses-tools');
    stack.sim.script({ match: marker, reply: { thinking: { text: 'Look it up.', signature: 'enc-sig-1' }, toolCalls: [{ id: 'call_w1', name: 'get_weather', arguments: { city: 'Lima' } }] }, times: 1 });
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }];
    const post = (body: Record<string, unknown>) =>
      fetch(`${stack.gateway.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'rosetta/gpt-5-codex', stream: true, tools, ...body }) });
    const data = (frame: string) => JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as Record<string, any>;
    const first = sseFrames(await (await post({ input: marker })).text()).map(data);

    expect(first.map((e) => e['sequence_number'])).toEqual(first.map((_, i) => i));
    const id = first[0]!['response']['id'] as string;
    const suffix = id.slice('resp_'.length);
    const completed = first.at(-1)!;
    expect(completed['type']).toBe('response.completed');
    expect(completed['response']['output'].map((item: Record<string, any>) => [item['type'], item['id']])).toEqual([
      ['reasoning', `rs_${suffix}_0`],
      ['function_call', `fc_${suffix}_1`],
    ]);
    expect(completed['response']['output'][1]).toEqual(expect.objectContaining({ call_id: 'call_w1', name: 'get_weather', arguments: '{"city":"Lima"}' }));
    for (const event of first) if (typeof event['item_id'] === 'string') expect(event['item_id']).toMatch(new RegExp(`^(rs|fc)_${suffix}_[01]$`));
    expect(JSON.stringify(first)).not.toContain('encrypted_content');

    const next = unique('pass-responses-tools-next');
    stack.sim.script({ match: next, reply: { text: 'Sunny in Lima.' } });
    const second = sseFrames(await (await post({ previous_response_id: id, input: [{ type: 'function_call_output', call_id: 'call_w1', output: `sunny ${next}` }] })).text()).map(data);
    expect(second.at(-1)!['response']).toEqual(expect.objectContaining({ status: 'completed', previous_response_id: id }));
    const sent = stack.sim.requests().find((r) => JSON.stringify(r.body).includes(next))!.body as { input: Array<Record<string, any>> };
    // The upstream gets its own reasoning back (with its encrypted content) and the call, without the gateway's ids.
    expect(sent.input.map((item) => [item['type'], item['id'] ?? null])).toEqual([
      ['message', null],
      ['reasoning', null],
      ['function_call', null],
      ['function_call_output', null],
    ]);
    expect(sent.input[1]!['encrypted_content']).toEqual(expect.any(String));
  });

  it.each<[Dialect, string]>([
    ['openai', 'rosetta/gpt-4o-mini'],
    ['anthropic', 'rosetta/claude-haiku-4-5'],
    ['gemini', 'rosetta/gemini-2.5-flash'],
    ['openai-responses', 'rosetta/gpt-5-codex'],
  ])('%s: a stream cut or stalled after its first chunks ends with the in-stream error, charged for what was relayed', async (dialect, model) => {
    for (const fault of [{ dropConnectionAfterChunks: 2 }, { fault: { kind: 'stall' as const, afterChunks: 2 } }]) {
      const marker = unique(`pass-cut-${dialect}`);
      stack.sim.script({ match: marker, reply: { text: LONG_TEXT, ...PACED, ...fault } });
      const exchange = await callDialect(stack.gateway.url, stack.key, { dialect, model, text: marker, stream: true }, HANG_GUARD_MS);
      expect(exchange.failure).toBeUndefined();
      const ending = readStream(dialect, exchange.body);
      expect(ending).toEqual(expect.objectContaining({ kind: 'error' }));
      expect(ending.kind === 'error' && ending.text.length).toBeGreaterThan(0);
      const recorded = await row(exchange.headers?.get('x-request-id'));
      expect(recorded).toEqual(expect.objectContaining({ status: 200, streamed: true, error_type: expect.any(String) }));
      expect(recorded.output_tokens).toBeGreaterThan(0);
    }
  });

  it('a failure before the first content byte still falls back', async () => {
    const marker = unique('pass-fallback');
    stack.sim.script({ match: marker, model: 'gpt-4o-mini', reply: { dropConnectionAfterChunks: 0 } });
    stack.sim.script({ match: marker, model: 'gpt-4.1-mini', reply: { text: 'The fallback answered.' } });
    const exchange = await callDialect(stack.gateway.url, stack.key, { dialect: 'openai', model: 'rosetta/gpt-4o-mini', fallbacks: ['rosetta/gpt-4.1-mini'], text: marker, stream: true }, HANG_GUARD_MS);
    expect(readStream('openai', exchange.body)).toEqual({ kind: 'finished', text: 'The fallback answered.', finish: 'stop' });
    expect(exchange.headers?.get('x-rosetta-model')).toBe('rosetta/gpt-4.1-mini');
  });
});
