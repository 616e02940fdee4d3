import { startSimulator, type RunningSimulator } from './simulator';

const AUTH = { authorization: 'Bearer sk-sim-test', 'content-type': 'application/json' };

async function chat(sim: RunningSimulator, body: unknown, headers: Record<string, string> = AUTH): Promise<Response> {
  return fetch(`${sim.url}/v1/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body) });
}

interface Completion {
  choices: Array<{
    message: { content: string | null; tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }> };
    finish_reason: string;
  }>;
  usage: { completion_tokens: number; completion_tokens_details: { reasoning_tokens: number } };
}

async function completion(response: Response): Promise<Completion> {
  expect(response.status).toBe(200);
  return (await response.json()) as Completion;
}

function user(text: string): { role: string; content: string } {
  return { role: 'user', content: text };
}

const WEATHER_TOOL = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Get weather',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer' }, metric: { type: 'boolean' }, note: { type: 'string' } },
      required: ['city', 'days', 'metric'],
    },
  },
};

describe('OpenAI chat completions (non-streaming)', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('returns a chat.completion exactly in the OpenAI shape', async () => {
    const response = await chat(sim, { model: 'gpt-4o', messages: [user('Hello there, simulator')] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      id: expect.stringMatching(/^chatcmpl-sim-[A-Za-z0-9]+$/),
      object: 'chat.completion',
      created: expect.any(Number),
      model: 'gpt-4o',
      system_fingerprint: expect.any(String),
      service_tier: 'default',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Simulated reply from gpt-4o: Hello there, simulator',
            refusal: null,
            annotations: [],
          },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: 6, // ceil(22 chars / 4)
        completion_tokens: 7,
        total_tokens: 13,
        prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    });
  });

  it('echoes only the first 24 words and reads array-of-parts content', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    const response = await chat(sim, {
      model: 'm',
      messages: [{ role: 'user', content: [{ type: 'text', text: words }, { type: 'image_url', image_url: { url: 'data:x' } }] }],
    });
    const body = await completion(response);
    expect(body.choices[0]?.message.content).toBe(`Simulated reply from m: ${words.split(' ').slice(0, 24).join(' ')}`);
  });

  it('calls the first tool with schema-synthesised arguments when tool_choice is required', async () => {
    const response = await chat(sim, {
      model: 'gpt-4o',
      messages: [user('weather?')],
      tools: [WEATHER_TOOL, { type: 'function', function: { name: 'other' } }],
      tool_choice: 'required',
    });
    const body = await completion(response);
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        refusal: null,
        annotations: [],
        tool_calls: [
          {
            id: expect.stringMatching(/^call_[A-Za-z0-9]+$/),
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"example","days":1,"metric":true}' },
          },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(body.usage.completion_tokens).toBe(Math.ceil('{"city":"example","days":1,"metric":true}'.length / 4));
  });

  it('calls the tool named by tool_choice, and answers in text when tool_choice is auto', async () => {
    const tools = [WEATHER_TOOL, { type: 'function', function: { name: 'other', parameters: { type: 'object' } } }];
    const named = await chat(sim, {
      model: 'm',
      messages: [user('x')],
      tools,
      tool_choice: { type: 'function', function: { name: 'other' } },
    });
    expect((await completion(named)).choices[0]?.message.tool_calls?.[0]?.function).toEqual({ name: 'other', arguments: '{}' });
    const auto = await chat(sim, { model: 'm', messages: [user('x')], tools, tool_choice: 'auto' });
    expect((await completion(auto)).choices[0]?.message).toEqual(expect.objectContaining({ content: 'Simulated reply from m: x' }));
  });

  it('acknowledges trailing tool results with the default text', async () => {
    const response = await chat(sim, {
      model: 'm',
      messages: [
        user('weather in Paris and Rome?'),
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '{"temp_c":18}' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '{"temp_c":24}' }] },
      ],
      tools: [WEATHER_TOOL],
      tool_choice: 'required',
    });
    const body = await completion(response);
    expect(body.choices[0]?.message.content).toBe('Tool results received: {"temp_c":18}; {"temp_c":24}');
    expect(body.choices[0]?.finish_reason).toBe('stop');
  });

  it('truncates to max_tokens and finishes with length', async () => {
    const response = await chat(sim, { model: 'm', messages: [user('one two three four five')], max_tokens: 3 });
    const body = await completion(response);
    expect(body.choices[0]?.message.content).toBe('Simulated reply from ');
    expect(body.choices[0]?.finish_reason).toBe('length');
    expect(body.usage.completion_tokens).toBe(3);
  });

  it('cuts the text before a stop sequence and reports stop', async () => {
    const response = await chat(sim, {
      model: 'm',
      messages: [user('alpha beta STOP gamma')],
      stop: ['nothing', 'STOP'],
      max_completion_tokens: 100,
    });
    const body = await completion(response);
    expect(body.choices[0]?.message.content).toBe('Simulated reply from m: alpha beta ');
    expect(body.choices[0]?.finish_reason).toBe('stop');
  });

  it('answers with a scripted reply when the marker occurs in the last user message', async () => {
    sim.script({
      match: 'marker-7f3a',
      reply: { text: 'Scripted answer', usage: { input: 100, output: 5, cached: 40 }, thinking: { text: 'let me think' } },
    });
    const response = await chat(sim, { model: 'm', messages: [user('first'), user('please marker-7f3a now')] });
    const body = await completion(response);
    expect(body.choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'Scripted answer',
      reasoning_content: 'let me think',
      refusal: null,
      annotations: [],
    });
    expect(body.usage).toEqual(
      expect.objectContaining({
        prompt_tokens: 100,
        completion_tokens: 5,
        total_tokens: 105,
        prompt_tokens_details: { cached_tokens: 40, audio_tokens: 0 },
      }),
    );
    expect(body.usage.completion_tokens_details.reasoning_tokens).toBe(3);
  });

  it('does not apply a script whose marker is only in an earlier user message', async () => {
    sim.script({ match: 'marker-old-91', reply: { text: 'should not appear' } });
    const response = await chat(sim, { model: 'm', messages: [user('marker-old-91'), user('fresh')] });
    expect((await completion(response)).choices[0]?.message.content).toBe('Simulated reply from m: fresh');
  });

  it('follows an inline <sim> directive', async () => {
    const directive = JSON.stringify({
      toolCalls: [{ id: 'call_fixed', name: 'lookup', arguments: { q: 'x' } }],
      text: 'Looking it up.',
    });
    const response = await chat(sim, { model: 'm', messages: [user(`go <sim>${directive}</sim>`)] });
    const body = await completion(response);
    expect(body.choices[0]?.message.content).toBe('Looking it up.');
    expect(body.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_fixed', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
    ]);
    expect(body.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('keeps only the first tool call when parallel_tool_calls is false', async () => {
    const directive = JSON.stringify({ toolCalls: [{ name: 'a', arguments: {} }, { name: 'b', arguments: {} }] });
    const response = await chat(sim, { model: 'm', parallel_tool_calls: false, messages: [user(`<sim>${directive}</sim>`)] });
    const calls = (await completion(response)).choices[0]?.message.tool_calls;
    expect(calls?.map((call) => call.function.name)).toEqual(['a']);
  });

  it('reports an invalid directive as a 400 naming the field', async () => {
    const response = await chat(sim, { model: 'm', messages: [user('<sim>{"txt":"typo"}</sim>')] });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe('Invalid <sim> directive: reply.txt is not a known field');
  });

  it('renders a scripted 500 as a server_error envelope', async () => {
    sim.script({ match: 'marker-500-c1', reply: { error: { status: 500, message: 'upstream exploded' } } });
    const response = await chat(sim, { model: 'm', messages: [user('marker-500-c1')] });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      error: { message: 'upstream exploded', type: 'server_error', param: null, code: null },
    });
  });

  it('renders a scripted 429 with rate_limit_exceeded and retry-after', async () => {
    const directive = JSON.stringify({ error: { status: 429, message: 'Rate limit reached', retryAfterSeconds: 7 } });
    const response = await chat(sim, { model: 'm', messages: [user(`<sim>${directive}</sim>`)] });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('7');
    expect(await response.json()).toEqual({
      error: { message: 'Rate limit reached', type: 'invalid_request_error', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('rejects a request without a bearer token with 401 invalid_api_key', async () => {
    const response = await chat(sim, { model: 'm', messages: [user('hi')] }, { 'content-type': 'application/json' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      error: { message: expect.any(String), type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
    });
  });

  it('rejects malformed JSON and a missing messages field with 400', async () => {
    const malformed = await fetch(`${sim.url}/chat/completions`, { method: 'POST', headers: AUTH, body: '{"model":' });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      error: { message: expect.stringContaining('could not parse the JSON body'), type: 'invalid_request_error', param: null, code: null },
    });
    const missing = await chat(sim, { model: 'm' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({
      error: {
        message: "Missing required parameter: 'messages'.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'missing_required_parameter',
      },
    });
  });

  it('lists models on both /v1/models and /models', async () => {
    for (const path of ['/v1/models', '/models']) {
      const response = await fetch(`${sim.url}${path}`, { headers: AUTH });
      const body = (await response.json()) as { object: string; data: unknown[] };
      expect(body.object).toBe('list');
      expect(body.data.length).toBeGreaterThan(1);
      expect(body.data[0]).toEqual({ id: 'sim-small', object: 'model', created: expect.any(Number), owned_by: 'simulator' });
    }
  });
});
