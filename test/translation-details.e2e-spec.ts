import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import type { RunningSimulator } from '../apps/simulator/src';
import { AnthropicDriver, OpenAIDriver } from './support/dialect-clients';
import { adminCall, type GatewayProcess } from './support/gateway-process';
import { startStack, type Stack } from './support/stack';

/** The details peers get wrong, each checked on both sides of the gateway. */
describe('translation details', () => {
  let sim: RunningSimulator;
  let gateway: GatewayProcess;
  let key: string;
  let openai: OpenAI;
  let anthropic: Anthropic;
  let gemini: GoogleGenAI;

  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
    ({ sim, gateway, key } = stack);
    openai = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    gemini = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gateway.url, fetch: (input, init) => fetch(input, init) } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const marker = (name: string) => `${name}-${Math.random().toString(36).slice(2, 10)}`;
  const upstreamBody = (m: string): Record<string, any> => sim.requests().filter((r) => JSON.stringify(r.body).includes(m)).at(-1)!.body as Record<string, any>;
  const upstreamRequest = (m: string) => sim.requests().filter((r) => JSON.stringify(r.body).includes(m)).at(-1)!;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${gateway.url}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  describe('model listing', () => {
    it('both the OpenAI and Anthropic SDKs list models', async () => {
      const ids: string[] = [];
      for await (const model of openai.models.list()) ids.push(model.id);
      expect(ids).toEqual(expect.arrayContaining(['rosetta/auto', 'rosetta/gpt-4o-mini', 'rosetta/claude-haiku-4-5', 'rosetta/gemini-2.5-flash']));
      const page = await anthropic.models.list();
      expect(page.data.map((m) => m.id)).toEqual(ids);
      expect(page.data[1]).toEqual(expect.objectContaining({ type: 'model', display_name: 'GPT-4o mini', created_at: expect.any(String) }));
    });

    it('GET /v1/models/{id} takes a slash-bearing id or the integer id; errors per the id rules', async () => {
      const get = (id: string) => fetch(`${gateway.url}/v1/models/${id}`, { headers: { 'x-api-key': key } });
      const byName = (await (await get('rosetta/claude-haiku-4-5')).json()) as any;
      expect(byName).toEqual(expect.objectContaining({ id: expect.any(Number), model_name: 'rosetta/claude-haiku-4-5', context_length: 200000 }));
      expect(((await (await get(String(byName.id))).json()) as any).model_name).toBe('rosetta/claude-haiku-4-5');
      expect((await get('rosetta/nope')).status).toBe(404);
      expect((await get('gpt-4o')).status).toBe(400);
    });

    it('Gemini lists models in its own shape', async () => {
      const names: string[] = [];
      for await (const model of await gemini.models.list()) names.push(model.name!);
      expect(names).toContain('models/rosetta/gemini-2.5-flash');
    });
  });

  it('answers with the gateway\'s own ids in each dialect\'s shape, whichever upstream served (issue 27)', async () => {
    const m = marker('ids');
    const chat = await openai.chat.completions.create({ model: 'rosetta/claude-haiku-4-5', messages: [{ role: 'user', content: m }] }).withResponse();
    const message = await anthropic.messages.create({ model: 'rosetta/gemini-2.5-flash', max_tokens: 50, messages: [{ role: 'user', content: m }] }).withResponse();
    const generated = await post(`/v1beta/models/rosetta/gpt-4o-mini:generateContent`, { contents: [{ role: 'user', parts: [{ text: m }] }] });
    const requestId = (res: { headers: Headers }) => res.headers.get('x-request-id')!.replace(/^req_/, '');
    expect(chat.data.id).toBe(`chatcmpl-${requestId(chat.response)}`);
    expect(message.data.id).toBe(`msg_${requestId(message.response)}`);
    expect(((await generated.json()) as any).responseId).toBe(generated.headers.get('x-request-id'));
  });

  describe('dialect C specifics', () => {
    it('streams a JSON array without alt=sse, and accepts snake_case members', async () => {
      const m = marker('array');
      const res = await post('/v1beta/models/rosetta/claude-haiku-4-5:streamGenerateContent', {
        contents: [{ role: 'user', parts: [{ text: `Array please ${m}` }] }],
        generation_config: { max_output_tokens: 100, stop_sequences: ['zzz'] },
      }, { 'x-goog-api-key': key });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('application/json');
      const chunks = JSON.parse(await res.text()) as any[];
      const text = chunks.map((c) => c.candidates?.[0]?.content?.parts?.map((p: any) => p.text ?? '').join('') ?? '').join('');
      expect(text).toBe(`Simulated reply from claude-haiku-4-5: Array please ${m}`);
      expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
      expect(chunks.at(-1).usageMetadata.candidatesTokenCount).toBe(text.split(' ').length);
      expect(upstreamBody(m)).toEqual(expect.objectContaining({ max_tokens: 100, stop_sequences: ['zzz'] }));
    });

    it('ignores a body model and takes the model from the path', async () => {
      const m = marker('pathmodel');
      const res = await post('/v1beta/models/rosetta/gpt-4o-mini:generateContent', { model: 'rosetta/claude-haiku-4-5', contents: [{ parts: [{ text: m }] }] }, { 'x-goog-api-key': key });
      expect(((await res.json()) as any).modelVersion).toBe('rosetta/gpt-4o-mini');
      expect(upstreamRequest(m).protocol).toBe('openai');
    });
  });

  describe('same-protocol fast path keeps what the canonical model does not know', () => {
    it('dialect B → Anthropic: unknown fields and the version/beta headers arrive', async () => {
      const m = marker('fastb');
      await anthropic.messages.create(
        // @ts-expect-error a field the SDK does not model
        { model: 'rosetta/claude-haiku-4-5', max_tokens: 64, messages: [{ role: 'user', content: m }], context_management: { edits: [] }, provider_sort: 'price' },
        { headers: { 'anthropic-beta': 'tools-2025-01-01' } },
      );
      const request = upstreamRequest(m);
      expect(request.body).toEqual(expect.objectContaining({ context_management: { edits: [] }, model: 'claude-haiku-4-5' }));
      expect(request.body).not.toHaveProperty('provider_sort');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.headers['anthropic-beta']).toBe('tools-2025-01-01');
      expect(request.headers['x-api-key']).toBe('sk-ant-operator-000000');
    });

    it('dialect C → Gemini: safety settings and cachedContent arrive', async () => {
      const m = marker('fastc');
      await post('/v1beta/models/rosetta/gemini-2.5-flash:generateContent', {
        contents: [{ role: 'user', parts: [{ text: m }] }],
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        cachedContent: 'cachedContents/abc',
        provider_zdr: false,
      }, { 'x-goog-api-key': key });
      const body = upstreamBody(m);
      expect(body['safetySettings']).toEqual([{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }]);
      expect(body['cachedContent']).toBe('cachedContents/abc');
      expect(body).not.toHaveProperty('provider_zdr');
      expect(upstreamRequest(m).headers['x-goog-api-key']).toBe('gemini-operator-000000');
    });
  });

  it('dialect B: a tool loop that switches from Gemini to Anthropic with thinking on completes without thinking', async () => {
    const driver = new AnthropicDriver(gateway.url, key);
    const m = marker('switch');
    sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } });
    const first = await driver.startTool('rosetta/gemini-2.5-flash', `Weather in Oslo? ${m}`, { stream: false, thinking: true });
    expect(first.calls.map((c) => c.name)).toEqual(['get_weather']);
    expect(first.reply.thinking).not.toBe('');
    const final = await driver.finishTool('rosetta/claude-haiku-4-5', { temp_c: -3 }, { stream: true, thinking: true });
    expect(final.finish).toBe('end_turn');
    expect(upstreamRequest(m).path).toMatch(/\/v1\/messages$/);
    const body = upstreamBody(m);
    // Gemini's reasoning cannot go to Anthropic; without it the tool turn is unsigned, so thinking is off.
    expect(body['thinking']).toEqual({ type: 'disabled' });
    const assistant = (body['messages'] as Array<{ role: string; content: Array<{ type: string }> }>)[1]!;
    expect(assistant.content.map((b) => b.type)).not.toContain('thinking');
  });

  it('dialect A: a tool loop started on another model continues on Gemini 3 with the documented dummy signature', async () => {
    const put = await adminCall(gateway, 'PUT', '/admin/providers/gemini3', {
      protocol: 'gemini',
      base_url: sim.url,
      api_key: 'gemini3-operator-key',
      endpoints: [{ model: 'rosetta/gemini-3-pro-preview', upstream_model: 'gemini-3-pro-preview', context_length: 1000000, max_completion_tokens: 65536, pricing: { prompt: '0.000002', completion: '0.000012' } }],
    });
    expect(put.status).toBe(200);
    const driver = new OpenAIDriver(gateway.url, key);
    const m = marker('g3');
    sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] } });
    const first = await driver.startTool('rosetta/gpt-4o-mini', `Weather in Oslo? ${m}`, { stream: false });
    expect(first.calls.map((c) => c.name)).toEqual(['get_weather']);
    // The simulator, like Gemini 3, refuses an unsigned function call in the current turn.
    const final = await driver.finishTool('rosetta/gemini-3-pro-preview', { temp_c: -3 }, { stream: true });
    expect(final.text).toBe('Tool results received: {"temp_c":-3}');
    const model = (upstreamBody(m)['contents'] as Array<{ role: string; parts: Array<Record<string, unknown>> }>).find((c) => c.role === 'model')!;
    expect(model.parts.find((p) => p['functionCall'])!['thoughtSignature']).toBe('skip_thought_signature_validator');
  });

  describe('finish reasons and limits, mapped faithfully', () => {
    it('max tokens is a length stop in every dialect', async () => {
      const m = marker('len');
      const a = await openai.chat.completions.create({ model: 'rosetta/claude-haiku-4-5', max_tokens: 3, messages: [{ role: 'user', content: `one two three four ${m}` }] });
      expect(a.choices[0]!.finish_reason).toBe('length');
      expect(upstreamBody(m)['max_tokens']).toBe(3);
      const b = await anthropic.messages.create({ model: 'rosetta/gemini-2.5-flash', max_tokens: 3, messages: [{ role: 'user', content: `one two three ${m}` }] });
      expect(b.stop_reason).toBe('max_tokens');
      expect(upstreamBody(m)['generationConfig']['maxOutputTokens']).toBe(3);
      const c = await gemini.models.generateContent({ model: 'rosetta/gpt-4o-mini', contents: `one two three ${m}`, config: { maxOutputTokens: 3 } });
      expect(c.candidates![0]!.finishReason).toBe('MAX_TOKENS');
    });

    it('a stop sequence reports which one fired where the dialect can say it', async () => {
      const m = marker('stopseq');
      sim.script({ match: m, reply: { text: 'alpha beta STOPHERE gamma' } });
      const b = await anthropic.messages.create({ model: 'rosetta/claude-haiku-4-5', max_tokens: 50, stop_sequences: ['STOPHERE'], messages: [{ role: 'user', content: m }] });
      expect(b.stop_reason).toBe('stop_sequence');
      expect(b.stop_sequence).toBe('STOPHERE');
      expect(b.content).toEqual([{ type: 'text', text: 'alpha beta ', citations: null }].map(({ citations: _c, ...rest }) => expect.objectContaining(rest)));
      const a = await openai.chat.completions.create({ model: 'rosetta/claude-haiku-4-5', stop: ['STOPHERE'], messages: [{ role: 'user', content: m }] });
      expect(a.choices[0]!.finish_reason).toBe('stop');
    });

    it('a safety stop is content_filter / refusal / SAFETY', async () => {
      const m = marker('filter');
      sim.script({ match: m, reply: { text: 'partial', finish: 'content_filter' } });
      const a = await openai.chat.completions.create({ model: 'rosetta/gemini-2.5-flash', messages: [{ role: 'user', content: m }] });
      expect(a.choices[0]!.finish_reason).toBe('content_filter');
      const b = await anthropic.messages.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 50, messages: [{ role: 'user', content: m }] });
      expect(b.stop_reason).toBe('refusal');
      const c = await gemini.models.generateContent({ model: 'rosetta/claude-haiku-4-5', contents: m });
      expect(c.candidates![0]!.finishReason).toBe('SAFETY');
    });
  });

  describe('system prompts, images and dropped features', () => {
    it('mid-conversation system messages reach Anthropic as the top-level system, with a warning', async () => {
      const m = marker('sys');
      const { response } = await openai.chat.completions
        .create({
          model: 'rosetta/claude-haiku-4-5',
          messages: [
            { role: 'system', content: 'Be terse.' },
            { role: 'user', content: 'first' },
            { role: 'assistant', content: 'ok' },
            { role: 'developer', content: 'Now be formal.' },
            { role: 'user', content: m },
          ],
        })
        .withResponse();
      const body = upstreamBody(m);
      expect(body['system']).toEqual([{ type: 'text', text: 'Be terse.' }, { type: 'text', text: 'Now be formal.' }]);
      expect(body['messages'].map((msg: any) => msg.role)).toEqual(['user', 'assistant', 'user']);
      expect(response.headers.get('x-rosetta-warnings')).toContain('system');
    });

    it('an image reaches each upstream in its own form', async () => {
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      for (const model of ['rosetta/claude-haiku-4-5', 'rosetta/gemini-2.5-flash']) {
        const m = marker('img');
        await openai.chat.completions.create({
          model,
          messages: [{ role: 'user', content: [{ type: 'text', text: m }, { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } }] }],
        });
        const body = upstreamBody(m);
        if (model.includes('claude')) {
          expect(body['messages'][0]['content']).toContainEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } });
        } else {
          expect(body['contents'][0]['parts']).toContainEqual({ inlineData: { mimeType: 'image/png', data: png } });
        }
      }
    });

    it('a thinking budget reaches a reasoning Chat Completions model as an effort, and a non-reasoning one not at all', async () => {
      const cases: Array<[string, string | undefined, string]> = [
        ['rosetta/o4-mini', 'medium', 'reasoning_effort "medium"'],
        ['rosetta/gpt-4o-mini', undefined, 'does not reason'],
      ];
      for (const [model, effort, warning] of cases) {
        const m = marker('budget');
        const { response } = await anthropic.messages
          .create({ model, max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4096 }, messages: [{ role: 'user', content: m }] })
          .withResponse();
        expect(upstreamBody(m)['reasoning_effort']).toBe(effort);
        expect(response.headers.get('x-rosetta-warnings')).toContain(warning);
      }
    });

    it('a feature the upstream cannot honour is dropped with x-rosetta-warnings, or refused with provider_require_parameters', async () => {
      const m = marker('topk');
      const ok = await post('/v1/messages', { model: 'rosetta/gpt-4o-mini', max_tokens: 20, top_k: 5, messages: [{ role: 'user', content: m }] }, { 'anthropic-version': '2023-06-01' });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-rosetta-warnings')).toContain('top_k');
      expect(upstreamBody(m)).not.toHaveProperty('top_k');
      const refused = await post('/v1/messages', { model: 'rosetta/gpt-4o-mini', max_tokens: 20, top_k: 5, provider_require_parameters: true, messages: [{ role: 'user', content: 'x' }] }, { 'anthropic-version': '2023-06-01' });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        type: 'error',
        error: { type: 'invalid_request_error', message: "No endpoint of 'rosetta/gpt-4o-mini' satisfies provider_require_parameters (unsupported: top_k)" },
        request_id: refused.headers.get('x-request-id'),
      });
    });
  });

  describe('errors before and inside streams, in the client dialect', () => {
    it('an upstream 500 before the stream is an upstream_error in each envelope', async () => {
      const m = marker('err500');
      sim.script({ match: m, reply: { error: { status: 500, message: 'kaboom' } } });
      const b = await anthropic.messages.create({ model: 'rosetta/gpt-4o-mini', max_tokens: 10, messages: [{ role: 'user', content: m }] }).catch((e) => e);
      expect(b).toBeInstanceOf(Anthropic.InternalServerError);
      expect(b.status).toBe(502);
      expect(b.error).toEqual({ type: 'error', error: { type: 'upstream_error', message: 'Upstream service error: kaboom' }, request_id: expect.any(String) });
      const c = await gemini.models.generateContent({ model: 'rosetta/claude-haiku-4-5', contents: m }).catch((e) => e);
      expect(c.status).toBe(502);
      expect(String(c.message)).toContain('Upstream service error');
    });

    it('an error after the stream started is sent in the dialect in-stream form', async () => {
      const m = marker('midb');
      sim.script({ match: m, reply: { text: 'one two three four five six', streamErrorAfterChunks: 2 } });
      const stream = anthropic.messages.stream({ model: 'rosetta/gemini-2.5-flash', max_tokens: 50, messages: [{ role: 'user', content: m }] });
      const error = await stream.finalMessage().catch((e) => e);
      expect(error).toBeInstanceOf(Anthropic.APIError);
      expect(String(error.message)).toContain('Upstream service error');

      const mc = marker('midc');
      sim.script({ match: mc, reply: { text: 'one two three four five six', streamErrorAfterChunks: 2 } });
      const chunks: string[] = [];
      const geminiError = await (async () => {
        for await (const chunk of await gemini.models.generateContentStream({ model: 'rosetta/claude-haiku-4-5', contents: mc })) chunks.push(chunk.text ?? '');
      })().catch((e) => e);
      expect(chunks.join('')).toBe('one two ');
      expect(geminiError).toBeInstanceOf(Error);
    });
  });

  it('usage with cache and reasoning tokens is reported in the client dialect, streams included', async () => {
    const m = marker('usage');
    sim.script({ match: m, reply: { text: 'cached answer', usage: { input: 1000, output: 2, cached: 800 } } });
    const stream = await openai.chat.completions.create({ model: 'rosetta/claude-haiku-4-5', messages: [{ role: 'user', content: m }], stream: true, stream_options: { include_usage: true } });
    let usage: any;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toEqual(expect.objectContaining({ prompt_tokens: 1000, completion_tokens: 2, total_tokens: 1002, prompt_tokens_details: expect.objectContaining({ cached_tokens: 800 }) }));
    const b = await anthropic.messages.stream({ model: 'rosetta/gemini-2.5-flash', max_tokens: 20, messages: [{ role: 'user', content: m }] }).finalMessage();
    expect(b.usage).toEqual(expect.objectContaining({ input_tokens: 200, cache_read_input_tokens: 800, output_tokens: 2 }));
  });
});
