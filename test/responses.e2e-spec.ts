import OpenAI from 'openai';
import type { RunningSimulator } from '../apps/simulator/src';
import { createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { query } from './support/services';
import { addResponsesUpstream, OPERATOR_KEYS, RESPONSES_MODEL, startStack, type Stack } from './support/stack';

/**
 * The Responses API with the official openai package: the event stream as the SDK accumulates
 * it, conversations kept server-side (previous_response_id, item_reference) and continued in
 * another protocol or on another replica, stateless turns, the stored routes, and errors.
 */
describe('OpenAI Responses API', () => {
  let stack: Stack;
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let client: OpenAI;
  const others: GatewayProcess[] = [];

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway } = stack);
    await addResponsesUpstream(gateway, sim.url);
    client = new OpenAI({ apiKey: stack.key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await Promise.all(others.map((g) => g.stop()));
    await stack?.stop();
  });

  const marker = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
  const received = (m: string) => sim.requests().filter((r) => r.protocol !== 'control' && JSON.stringify(r.body).includes(m)).map((r) => ({ ...r, body: r.body as Record<string, any> }));

  it('answers plainly with a response object the SDK reads', async () => {
    const m = marker('plain');
    const response = await client.responses.create({ model: 'rosetta/claude-haiku-4-5', instructions: 'Be brief.', input: `Say hi ${m}`, metadata: { ticket: '42' } });
    expect(response).toEqual(
      expect.objectContaining({
        id: expect.stringMatching(/^resp_[0-9a-f]{32}$/),
        object: 'response',
        status: 'completed',
        model: 'rosetta/claude-haiku-4-5',
        instructions: 'Be brief.',
        metadata: { ticket: '42' },
        store: true,
        error: null,
        incomplete_details: null,
      }),
    );
    expect(response.output_text).toBe(`Simulated reply from claude-haiku-4-5: Say hi ${m}`);
    expect(response.output).toEqual([
      { id: expect.stringMatching(/^msg_/), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: response.output_text }] },
    ]);
    expect(response.usage).toEqual(
      expect.objectContaining({
        input_tokens: expect.any(Number),
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: response.output_text.split(' ').length,
        output_tokens_details: { reasoning_tokens: 0 },
      }),
    );
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
    const [upstream] = received(m);
    expect(upstream!.protocol).toBe('anthropic');
    expect(JSON.stringify(upstream!.body['system'])).toContain('Be brief.');
  });

  it('streams the exact event sequence with rising sequence numbers', async () => {
    const m = marker('stream');
    sim.script({ match: m, reply: { text: 'one two three', thinking: { text: 'pondering' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Rome' } }] } });
    const stream = await client.responses.create({
      model: 'rosetta/gpt-4o-mini',
      input: `Weather? ${m}`,
      stream: true,
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }],
    });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type).filter((t, i, all) => t !== all[i - 1]);
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const created = events[0] as OpenAI.Responses.ResponseCreatedEvent;
    expect(created.response).toEqual(expect.objectContaining({ status: 'in_progress', output: [], usage: null, model: 'rosetta/gpt-4o-mini' }));
    const done = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(done.response.output.map((item) => item.type)).toEqual(['reasoning', 'message', 'function_call']);
    expect(done.response.output[2]).toEqual(expect.objectContaining({ type: 'function_call', name: 'get_weather', arguments: '{"city":"Rome"}', status: 'completed' }));
    // The one word of thinking ('pondering') counts as reasoning, inside the output tokens.
    expect(done.response.usage).toEqual(expect.objectContaining({ input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 1 } }));
    const argsDone = events.find((e) => e.type === 'response.function_call_arguments.done') as OpenAI.Responses.ResponseFunctionCallArgumentsDoneEvent;
    expect(argsDone).toEqual(expect.objectContaining({ item_id: done.response.output[2]!.id, output_index: 2, name: 'get_weather', arguments: '{"city":"Rome"}' }));
  });

  it('streams reasoning summaries from an upstream that thinks, and responses.stream() finishes', async () => {
    const m = marker('think');
    sim.script({ match: m, reply: { text: 'done', thinking: { text: 'first I think' } } });
    const events: string[] = [];
    const runner = client.responses.stream({ model: 'rosetta/claude-haiku-4-5', input: `Think ${m}`, reasoning: { effort: 'medium', summary: 'auto' } });
    runner.on('event', (e) => events.push(e.type));
    const final = await runner.finalResponse();
    expect(final.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
    expect(final.output[0]).toEqual(expect.objectContaining({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'first I think' }] }));
    // Without `include`, the encrypted content stays with the gateway.
    expect(final.output[0]).not.toHaveProperty('encrypted_content');
    expect(events).toEqual(expect.arrayContaining(['response.reasoning_summary_part.added', 'response.reasoning_summary_text.delta', 'response.reasoning_summary_text.done', 'response.reasoning_summary_part.done']));
    expect(final.output_text).toBe('done');
  });

  it('continues a tool loop with previous_response_id, the next turn in another protocol', async () => {
    const m = marker('loop');
    sim.script({ match: m, reply: { thinking: { text: 'use the tool' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Lima' } }] }, times: 1 });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: false }];
    const first = await client.responses.create({ model: 'rosetta/claude-haiku-4-5', input: `Weather in Lima? ${m}`, tools, reasoning: { effort: 'low' } });
    const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call')!;
    expect(call).toEqual(expect.objectContaining({ name: 'get_weather', arguments: '{"city":"Lima"}' }));
    const second = await client.responses.create({
      model: 'rosetta/gemini-2.5-flash',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temp_c":21}' }],
      tools,
    });
    expect(second.output_text).toBe('Tool results received: {"temp_c":21}');
    expect(second.previous_response_id).toBe(first.id);
    // Gemini received the whole conversation in its own shape: the question, the call, the result.
    const [, gemini] = received(m);
    expect(gemini!.protocol).toBe('gemini');
    const contents = JSON.stringify(gemini!.body['contents']);
    expect(contents).toContain(`Weather in Lima? ${m}`);
    expect(contents).toContain('"functionCall"');
    expect(contents).toContain('"functionResponse"');
  });

  it('rebuilds item references (as the AI SDK sends them) and lists input items', async () => {
    const m = marker('ref');
    const first = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: `Remember ${m}` });
    const second = await client.responses.create({
      model: 'rosetta/gpt-4o-mini',
      input: [{ role: 'user', content: `Remember ${m}` }, { type: 'item_reference', id: first.output[0]!.id! }, { role: 'user', content: 'What did you say?' }],
    });
    const upstream = received(m).at(-1)!;
    expect(upstream.body['messages']).toEqual([
      { role: 'user', content: `Remember ${m}` },
      expect.objectContaining({ role: 'assistant', content: first.output_text }),
      { role: 'user', content: 'What did you say?' },
    ]);
    const items = await client.responses.inputItems.list(second.id, { order: 'asc' });
    expect(items.data.map((item) => item.type)).toEqual(['message', 'message', 'message']);
    expect(items.data[1]).toEqual(expect.objectContaining({ id: first.output[0]!.id, role: 'assistant' }));
  });

  it('works statelessly: store false is never retrievable and passes reasoning back through the client', async () => {
    const m = marker('stateless');
    sim.script({ match: m, reply: { thinking: { text: 'plan' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Bern' } }] }, times: 1 });
    const tools: OpenAI.Responses.Tool[] = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} }, strict: false }];
    const input: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: `Bern? ${m}` }];
    const first = await client.responses.create({ model: RESPONSES_MODEL, input, tools, store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low' } });
    const reasoning = first.output.find((item) => item.type === 'reasoning') as OpenAI.Responses.ResponseReasoningItem;
    expect(reasoning.encrypted_content).toEqual(expect.any(String));
    await expect(client.responses.retrieve(first.id)).rejects.toMatchObject({ status: 404 });
    const call = first.output.find((item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call')!;
    input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]), { type: 'function_call_output', call_id: call.call_id, output: 'sunny' });
    const second = await client.responses.create({ model: RESPONSES_MODEL, input, tools, store: false, include: ['reasoning.encrypted_content'], reasoning: { effort: 'low' } });
    expect(second.output_text).toBe('Tool results received: sunny');
    // The Responses upstream got its reasoning back byte for byte (the simulator verifies it), statelessly.
    const sent = received(m).at(-1)!.body;
    expect(sent['store']).toBe(false);
    expect(sent['input'].find((item: { type?: string }) => item.type === 'reasoning').encrypted_content).toBe(reasoning.encrypted_content);
  });

  it('serves GET, input_items and DELETE for the owning key only, and expired answers are gone', async () => {
    const response = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'keep me' });
    expect(await client.responses.retrieve(response.id)).toEqual(expect.objectContaining({ id: response.id, output_text: response.output_text, status: 'completed' }));
    const stranger = new OpenAI({ apiKey: (await createKey(gateway, 'enterprise')).key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    await expect(stranger.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404, error: expect.objectContaining({ message: `Response with id '${response.id}' not found.` }) });
    await expect(stranger.responses.delete(response.id)).rejects.toMatchObject({ status: 404 });
    await expect(stranger.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'x', previous_response_id: response.id })).rejects.toMatchObject({ status: 400, param: 'previous_response_id' });
    const deleted = await fetch(`${gateway.url}/v1/responses/${response.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${stack.key}` } });
    expect(await deleted.json()).toEqual({ id: response.id, object: 'response.deleted', deleted: true });
    await expect(client.responses.retrieve(response.id)).rejects.toMatchObject({ status: 404 });

    const old = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'expire me' });
    await query(stack.db.url, "UPDATE stored_answers SET expires_at = now() - interval '1 second' WHERE id = $1", [old.id]);
    await expect(client.responses.retrieve(old.id)).rejects.toMatchObject({ status: 404 });
  });

  it('another replica continues a conversation the moment the first one answered', async () => {
    const other = await startGateway({ DATABASE_URL: stack.db.url, OPENAI_BASE_URL: `${sim.url}/v1`, ANTHROPIC_BASE_URL: sim.url, GEMINI_BASE_URL: sim.url, ...OPERATOR_KEYS });
    others.push(other);
    const second = new OpenAI({ apiKey: stack.key, baseURL: `${other.url}/v1`, maxRetries: 0 });
    const m = marker('replica');
    const stream = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: `First ${m}`, stream: true });
    let id = '';
    for await (const event of stream) if (event.type === 'response.completed') id = event.response.id;
    const next = await second.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'Second', previous_response_id: id });
    expect(next.output_text).toBe('Simulated reply from gpt-4o-mini: Second');
    expect(received(m).at(-1)!.body['messages']).toHaveLength(3);
  });

  it('counts input tokens, the stored conversation included', async () => {
    const first = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: 'A question of some length, to be counted' });
    const alone = await client.responses.inputTokens.count({ model: 'rosetta/gpt-4o-mini', input: 'Next' });
    const continued = await client.responses.inputTokens.count({ model: 'rosetta/gpt-4o-mini', input: 'Next', previous_response_id: first.id });
    expect(alone).toEqual({ object: 'response.input_tokens', input_tokens: expect.any(Number) });
    expect(continued.input_tokens).toBeGreaterThan(alone.input_tokens + first.usage!.output_tokens);
  });

  it('answers bad bodies with 400s naming the field, in OpenAI’s envelope', async () => {
    const post = (body: unknown) => fetch(`${gateway.url}/v1/responses`, { method: 'POST', headers: { authorization: `Bearer ${stack.key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const cases: Array<[unknown, string]> = [
      [{ model: 'rosetta/gpt-4o-mini', input: 5 }, 'input'],
      [{ model: 'rosetta/gpt-4o-mini', input: [{ type: 'function_call', name: 'f' }] }, 'input[0].call_id'],
      [{ model: 'rosetta/gpt-4o-mini', input: 'x', previous_response_id: 'resp_0123' }, 'previous_response_id'],
      [{ model: 'rosetta/gpt-4o-mini', input: [{ type: 'item_reference', id: 'msg_nope' }] }, 'input[0].id'],
      [{ model: 'rosetta/gpt-4o-mini', input: 'x', tools: [{ type: 'function' }] }, 'tools[0].name'],
      [{ model: 'rosetta/gpt-4o-mini', input: 'x', reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
      [{ model: 'rosetta/gpt-4o-mini', input: 'x', background: true }, 'background'],
      [{ model: 'rosetta/gpt-4o-mini', input: 'x', text: { format: { type: 'yaml' } } }, 'text.format.type'],
    ];
    for (const [body, param] of cases) {
      const res = await post(body);
      expect({ param, status: res.status }).toEqual({ param, status: 400 });
      const json = await res.json();
      expect(json).toEqual({ error: expect.objectContaining({ type: 'invalid_request_error', param }), request_id: expect.stringMatching(/^req_/) });
    }
  });

  it('writes one ledger row per response, plain or streamed, with the dialect, the usage and its cost', async () => {
    const m = marker('ledger');
    const { data: plain, response: plainHttp } = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: `Bill me ${m}` }).withResponse();
    const { data: stream, response: streamHttp } = await client.responses.create({ model: 'rosetta/gpt-4o-mini', input: `Bill me too ${m}`, stream: true }).withResponse();
    let streamed: OpenAI.Responses.Response | undefined;
    for await (const event of stream) if (event.type === 'response.completed') streamed = event.response;
    await gateway.stop('SIGTERM'); // flushes the ledger
    const row = async (requestId: string | null) =>
      query<Record<string, unknown>>(stack.db.url, 'SELECT dialect, served_model, status, streamed, input_tokens, output_tokens, cost_usd::float8 > 0 AS costed FROM request_log WHERE request_id = $1', [requestId]);
    const expected = (usage: OpenAI.Responses.ResponseUsage, isStream: boolean) => [
      { dialect: 'openai-responses', served_model: 'rosetta/gpt-4o-mini', status: 200, streamed: isStream, input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, costed: true },
    ];
    expect(await row(plainHttp.headers.get('x-request-id'))).toEqual(expected(plain.usage!, false));
    expect(await row(streamHttp.headers.get('x-request-id'))).toEqual(expected(streamed!.usage!, true));
  });
});
