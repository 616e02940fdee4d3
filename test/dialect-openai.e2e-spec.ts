import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../apps/simulator/src';
import { adminCall, createKey, startGateway, type GatewayProcess } from './support/gateway-process';
import { createTestDatabase, TEST_REDIS_URL } from './support/services';

const OPERATOR_KEY = 'sk-operator-secret-key-0123456789';

describe('dialect A (OpenAI chat completions) end to end with the official SDK', () => {
  let sim: RunningSimulator;
  let db: { url: string; drop(): Promise<void> };
  let gateway: GatewayProcess;
  let key: string;
  let client: OpenAI;

  const marker = (name: string): string => `${name}-${Math.random().toString(36).slice(2, 10)}`;
  const upstreamRequests = (m: string) => sim.requests().filter((r) => JSON.stringify(r.body).includes(m));

  beforeAll(async () => {
    sim = await startSimulator();
    db = await createTestDatabase();
    gateway = await startGateway({
      DATABASE_URL: db.url,
      REDIS_URL: TEST_REDIS_URL,
      OPENAI_BASE_URL: `${sim.url}/v1`,
      OPENAI_API_KEY: OPERATOR_KEY,
    });
    key = (await createKey(gateway, 'pro')).key;
    client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
  });

  afterAll(async () => {
    await gateway?.stop();
    await sim?.close();
    await db?.drop();
  });

  it('tells an SDK whose base URL lacks /v1 what to set, in the 404 it reads', async () => {
    const bare = new OpenAI({ apiKey: key, baseURL: gateway.url, maxRetries: 0 });
    const error = (await bare.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.message).toBe(
      '404 Unknown route: POST /chat/completions; the base URL should end in /v1: call /v1/chat/completions instead (for OpenAI\'s SDKs and Codex, set the base URL to http://<gateway>/v1)',
    );
  });

  it('answers a plain request, reporting the served model, usage and routing headers', async () => {
    const m = marker('plain');
    const { data, response } = await client.chat.completions
      .create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: `Say hello ${m}` }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.model).toBe('rosetta/gpt-4o-mini');
    expect(data.choices[0]!.message.content).toBe(`Simulated reply from gpt-4o-mini: Say hello ${m}`);
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);
    // The simulator counts one token per word of its reply.
    expect(data.usage!.completion_tokens).toBe(data.choices[0]!.message.content!.split(' ').length);
    expect(response.headers.get('x-rosetta-model')).toBe('rosetta/gpt-4o-mini');
    expect(response.headers.get('x-rosetta-provider')).toBe('openai');
    expect(response.headers.get('x-rosetta-attempts')).toBe('1');
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);

    const [upstream] = upstreamRequests(m);
    expect(upstream!.path).toBe('/v1/chat/completions');
    expect((upstream!.body as { model: string }).model).toBe('gpt-4o-mini');
    expect(upstream!.headers['authorization']).toBe(`Bearer ${OPERATOR_KEY}`);
    expect(JSON.stringify(upstream!.headers)).not.toContain(key);
  });

  it('streams text with usage, and always asks the upstream for usage', async () => {
    const m = marker('stream');
    const stream = await client.chat.completions.create({
      model: 'rosetta/gpt-4o-mini',
      messages: [{ role: 'user', content: `Stream please ${m}` }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | undefined | null;
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
      expect(chunk.model).toBe('rosetta/gpt-4o-mini');
    }
    expect(text).toBe(`Simulated reply from gpt-4o-mini: Stream please ${m}`);
    expect(finish).toBe('stop');
    const words = text.split(' ').length;
    expect(usage).toEqual(expect.objectContaining({ completion_tokens: words, total_tokens: usage!.prompt_tokens + words }));
    const [upstream] = upstreamRequests(m);
    expect(upstream!.body).toEqual(expect.objectContaining({ stream: true, stream_options: { include_usage: true } }));
  });

  it('adds include_usage upstream even when the client did not ask, and omits the usage chunk for it', async () => {
    const m = marker('nousage');
    const stream = await client.chat.completions.create({
      model: 'rosetta/gpt-4o-mini',
      messages: [{ role: 'user', content: `Hi ${m}` }],
      stream: true,
    });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.some((c) => c.usage)).toBe(false);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect((upstreamRequests(m)[0]!.body as Record<string, unknown>)['stream_options']).toEqual({ include_usage: true });
  });

  it('works with the SDK stream helper (finalChatCompletion)', async () => {
    const m = marker('helper');
    const runner = client.chat.completions.stream({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: `Help ${m}` }] });
    const final = await runner.finalChatCompletion();
    expect(final.choices[0]!.message.content).toBe(`Simulated reply from gpt-4o-mini: Help ${m}`);
    expect(final.choices[0]!.finish_reason).toBe('stop');
  });

  const weatherTool: OpenAI.ChatCompletionTool = {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  };

  it.each([false, true])('runs a tool call and its result follow-up (stream=%s)', async (stream) => {
    const m = marker('tool');
    sim.script({ match: m, reply: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: `Weather in Paris? ${m}` }];
    let call: OpenAI.ChatCompletionMessageToolCall;
    if (stream) {
      const final = await client.chat.completions
        .stream({ model: 'rosetta/gpt-4o-mini', messages, tools: [weatherTool], stream_options: { include_usage: true } })
        .finalChatCompletion();
      expect(final.choices[0]!.finish_reason).toBe('tool_calls');
      call = final.choices[0]!.message.tool_calls![0]!;
      messages.push(final.choices[0]!.message as OpenAI.ChatCompletionAssistantMessageParam);
    } else {
      const first = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages, tools: [weatherTool] });
      expect(first.choices[0]!.finish_reason).toBe('tool_calls');
      call = first.choices[0]!.message.tool_calls![0]!;
      messages.push(first.choices[0]!.message);
    }
    expect(call.type).toBe('function');
    if (call.type !== 'function') throw new Error('expected a function tool call');
    expect(call.function.name).toBe('get_weather');
    expect(JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });

    messages.push({ role: 'tool', tool_call_id: call.id, content: '{"temp_c":18}' });
    const second = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages, tools: [weatherTool] });
    expect(second.choices[0]!.message.content).toBe('Tool results received: {"temp_c":18}');

    const upstream = upstreamRequests(m).at(-1)!.body as { messages: Array<Record<string, unknown>>; tools: unknown[] };
    expect(upstream.tools).toEqual([weatherTool]);
    expect(upstream.messages.slice(1)).toEqual([
      expect.objectContaining({
        role: 'assistant',
        tool_calls: [{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: call.function.arguments } }],
      }),
      { role: 'tool', tool_call_id: call.id, content: '{"temp_c":18}' },
    ]);
  });

  it('forwards unknown fields untouched and strips routing fields', async () => {
    const m = marker('passthrough');
    await client.chat.completions.create({
      model: 'rosetta/gpt-4o-mini',
      messages: [{ role: 'user', content: `Pass ${m}` }],
      logit_bias: { '50256': -100 },
      // @ts-expect-error fields the SDK does not model must still reach the upstream
      foo_unknown: { nested: [1, 2, 3] },
      provider_sort: 'price',
      models: ['rosetta/gpt-4o-mini'],
    });
    const body = upstreamRequests(m)[0]!.body as Record<string, unknown>;
    expect(body['logit_bias']).toEqual({ '50256': -100 });
    expect(body['foo_unknown']).toEqual({ nested: [1, 2, 3] });
    expect(body).not.toHaveProperty('provider_sort');
    expect(body).not.toHaveProperty('models');
  });

  describe('model id rules', () => {
    it.each([
      ['gpt-4o', ''],
      ['rosetta', ''],
      ['rosetta/', ''],
      ['rosetta/rosetta', ''],
      // The interface's message, and the id the caller most likely meant when the namespace has it.
      ['openai/gpt-4o-mini', "; did you mean 'rosetta/gpt-4o-mini'? (an operator can map a client's own model ids with MODEL_ALIASES)"],
      ['gpt-4o-mini', "; did you mean 'rosetta/gpt-4o-mini'? (an operator can map a client's own model ids with MODEL_ALIASES)"],
    ])('rejects %p with 400', async (model, hint) => {
      const error = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      expect(error.status).toBe(400);
      expect(error.error).toEqual({
        message: `invalid model '${model}': only rosetta/* models are supported${hint}`,
        type: 'invalid_request_error',
        code: null,
        param: 'model',
      });
    });

    it('answers 404 model_registry_error for an unknown model, and checks models[] too', async () => {
      const error = await client.chat.completions.create({ model: 'rosetta/nope', messages: [{ role: 'user', content: 'x' }] }).catch((e) => e);
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error.error).toEqual(expect.objectContaining({ type: 'model_registry_error', message: "Model 'rosetta/nope' not found" }));

      const chain = await client.chat.completions
        // @ts-expect-error routing field
        .create({ model: 'rosetta/gpt-4o-mini', models: ['rosetta/gpt-4o-mini', 'bad'], messages: [{ role: 'user', content: 'x' }] })
        .catch((e) => e);
      expect(chain.status).toBe(400);
      expect(chain.error).toEqual(expect.objectContaining({ param: 'models[1]', message: "invalid model 'bad': only rosetta/* models are supported" }));
    });
  });

  describe('bad input gets a 400 naming the field, never a 500', () => {
    const post = async (body: string, headers: Record<string, string> = {}) => {
      const res = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
        body,
      });
      return { status: res.status, body: (await res.json()) as any, requestId: res.headers.get('x-request-id') };
    };

    it('malformed JSON', async () => {
      const res = await post('{"model": "rosetta/gpt-4o-mini", "messages": [');
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
      expect(res.body.error.message).toMatch(/^Malformed JSON in request body/);
      expect(res.body.request_id).toBe(res.requestId);
    });

    it.each([
      [{ model: 'rosetta/gpt-4o-mini' }, 'messages', "Missing required field 'messages'"],
      [{ model: null, messages: [{ role: 'user', content: 'x' }] }, 'model', undefined],
      [{ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], temperature: 'hot' }, 'temperature', undefined],
      [{ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }, { role: 'robot', content: 'y' }] }, 'messages[1].role', undefined],
      [{ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'tool', content: 'y' }] }, 'messages[0].tool_call_id', undefined],
      [{ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 5 }] }, 'messages[0].content', undefined],
      [{ model: 'rosetta/gpt-4o-mini', messages: 'hello' }, 'messages', undefined],
      [{ model: 42, messages: [{ role: 'user', content: 'x' }] }, 'model', undefined],
      [{ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], max_tokens: -3 }, 'max_tokens', undefined],
    ])('%j → param %s', async (body, param, message) => {
      const res = await post(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.body.error.type).toBe('invalid_request_error');
      expect(res.body.error.param).toBe(param);
      expect(res.body.error.message).toContain(`'${param}'`);
      if (message) expect(res.body.error.message).toBe(message);
    });

    it('a body without model goes to rosetta/auto, the default model', async () => {
      const res = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ messages: [{ role: 'user', content: 'Say hello' }] }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-rosetta-route')).toBeTruthy();
      const body = (await res.json()) as any;
      expect(body.model).toBe(res.headers.get('x-rosetta-model'));
    });

    it('a body over the limit is 413', async () => {
      const res = await post(JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: 'x'.repeat(11 * 1024 * 1024) }] }));
      expect(res.status).toBe(413);
      expect(res.body.error.type).toBe('request_too_large');
    });

    it('a JSON array body is rejected', async () => {
      const res = await post('[1,2]');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toBe('The request body must be a JSON object');
    });
  });

  it('answers a path variant (trailing slash) the same way as the exact path', async () => {
    const call = (path: string, body: unknown, auth = `Bearer ${key}`) =>
      fetch(`${gateway.url}${path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const m = marker('variant');
    const body = { model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: `Say hi ${m}` }] };
    const [exact, variant] = await Promise.all([call('/v1/chat/completions', body), call('/v1/chat/completions/', body)]);
    expect([exact.status, variant.status]).toEqual([200, 200]);
    const [a, b] = (await Promise.all([exact.json(), variant.json()])) as Array<{ choices: Array<{ message: { content: string } }> }>;
    expect(b!.choices[0]!.message.content).toBe(a!.choices[0]!.message.content);
    expect(variant.headers.get('x-rosetta-model')).toBe('rosetta/gpt-4o-mini');
    expect(variant.headers.get('x-ratelimit-limit-requests')).toBe(exact.headers.get('x-ratelimit-limit-requests'));
    expect(upstreamRequests(m)).toHaveLength(2);

    const invalid = { model: 'rosetta/gpt-4o-mini', messages: [{ role: 'robot', content: 'x' }] };
    const errors = await Promise.all([call('/v1/chat/completions', invalid), call('/v1/chat/completions/', invalid)]);
    const [e1, e2] = (await Promise.all(errors.map((r) => r.json()))) as Array<{ error: Record<string, unknown> }>;
    expect(errors.map((r) => r.status)).toEqual([400, 400]);
    expect(e2!.error).toEqual(e1!.error);

    const unauthenticated = await Promise.all([call('/v1/chat/completions', body, 'Bearer nope'), call('/v1/chat/completions/', body, 'Bearer nope')]);
    expect(unauthenticated.map((r) => r.status)).toEqual([401, 401]);
  });

  describe('upstream failures', () => {
    it('maps an upstream 500 to 502 upstream_error without leaking the operator key or URL', async () => {
      const m = marker('boom');
      sim.script({ match: m, reply: { error: { status: 500, message: `exploded with key ${OPERATOR_KEY} at ${sim.url}/internal` } } });
      const error = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: m }] }).catch((e) => e);
      expect(error.status).toBe(502);
      expect(error.error.type).toBe('upstream_error');
      expect(error.error.message).toMatch(/^Upstream service error: /);
      expect(JSON.stringify(error.error)).not.toContain(OPERATOR_KEY);
      expect(JSON.stringify(error.error)).not.toContain(sim.url);
    });

    it('passes an upstream 429 through with its retry hints', async () => {
      const m = marker('limited');
      sim.script({ match: m, reply: { error: { status: 429, message: 'slow down', retryAfterSeconds: 7 } } });
      const res = await fetch(`${gateway.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: m }] }),
      });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(((await res.json()) as any).error).toEqual(expect.objectContaining({ type: 'upstream_error', message: 'Upstream service error: slow down' }));
    });

    it('sends an error inside a started stream in the dialect form', async () => {
      const m = marker('midstream');
      sim.script({ match: m, reply: { text: 'one two three four five', streamErrorAfterChunks: 2 } });
      const stream = await client.chat.completions.create({ model: 'rosetta/gpt-4o-mini', messages: [{ role: 'user', content: m }], stream: true });
      let text = '';
      const error = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((e) => e);
      expect(text).toBe('one two ');
      expect(error).toBeInstanceOf(OpenAI.APIError);
      expect(String(error.message)).toContain('Upstream service error');
    });
  });

  it('says the admin token is wrong with a 401', async () => {
    const res = await adminCall(gateway, 'GET', '/admin/keys', undefined, 'wrong-token-wrong-token');
    expect(res.status).toBe(401);
    expect(res.body.error.type).toBe('authentication_error');
  });
});
