import { thinkingSignature } from './signatures';
import { startSimulator, type RunningSimulator } from './simulator';

const HEADERS = { 'x-goog-api-key': 'gk-sim', 'content-type': 'application/json' };

async function generate(sim: RunningSimulator, body: unknown, options: { model?: string; method?: string; query?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  const { model = 'gemini-sim', method = 'generateContent', query = '', headers = HEADERS } = options;
  return fetch(`${sim.url}/v1beta/models/${model}:${method}${query}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function json(response: Response, status = 200): Promise<any> {
  expect(response.status).toBe(status);
  return (await response.json()) as unknown;
}

function userText(text: string): { role: string; parts: Array<{ text: string }> } {
  return { role: 'user', parts: [{ text }] };
}

/** Splits a `?alt=sse` body into its JSON payloads; each event is one `data:` line ended by CRLF CRLF. */
function sseChunks(text: string): any[] {
  expect(text.endsWith('\r\n\r\n')).toBe(true);
  return text
    .split('\r\n\r\n')
    .filter((frame) => frame !== '')
    .map((frame) => {
      expect(frame.startsWith('data: ')).toBe(true);
      expect(/[\r\n]/.test(frame)).toBe(false);
      return JSON.parse(frame.slice('data: '.length)) as unknown;
    });
}

/**
 * Reads a streamed JSON array the way python-api-core does: the first character must be `[`,
 * then each top-level object is cut out by brace depth, skipping braces inside strings.
 */
function scanJsonArray(text: string): any[] {
  expect(text[0]).toBe('[');
  const objects: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  let escaped = false;
  for (let i = 1; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (char === '\\') escaped = true;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (char === '}') {
      depth -= 1;
      if (depth === 0) objects.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  return objects;
}

const WEATHER_DECLARATION = {
  name: 'get_weather',
  description: 'Get weather',
  parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' }, days: { type: 'INTEGER' } }, required: ['city', 'days'] },
};

const response = (parts: unknown[], usage: Record<string, number>, finishReason = 'STOP', model = 'gemini-sim'): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
  usageMetadata: usage,
  modelVersion: model,
  responseId: expect.stringMatching(/^[A-Za-z0-9]+$/),
});

describe('Gemini generateContent', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('returns a GenerateContentResponse exactly in the Gemini shape', async () => {
    const res = await generate(sim, { systemInstruction: { parts: [{ text: 'Be terse.' }] }, contents: [userText('Hello there, simulator')] });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await json(res)).toEqual(
      response([{ text: 'Simulated reply from gemini-sim: Hello there, simulator' }], { promptTokenCount: 8, candidatesTokenCount: 7, totalTokenCount: 15 }),
    );
  });

  it('takes the model from the URL path, including one with a slash, and accepts ?key=', async () => {
    const res = await generate(sim, { contents: [userText('hi')] }, { model: 'tuned/gemini-x', query: '?key=gk-query', headers: { 'content-type': 'application/json' } });
    expect(await json(res)).toEqual(response([{ text: 'Simulated reply from tuned/gemini-x: hi' }], { promptTokenCount: 1, candidatesTokenCount: 5, totalTokenCount: 6 }, 'STOP', 'tuned/gemini-x'));
  });

  it('calls a function without an id and finishes with STOP; ANY + allowedFunctionNames picks the named one', async () => {
    const any = await json(
      await generate(sim, { contents: [userText('weather?')], tools: [{ functionDeclarations: [WEATHER_DECLARATION] }], toolConfig: { functionCallingConfig: { mode: 'ANY' } } }),
    );
    expect(any).toEqual(
      response([{ functionCall: { name: 'get_weather', args: { city: 'example', days: 1 } } }], {
        promptTokenCount: 2,
        candidatesTokenCount: Math.ceil('{"city":"example","days":1}'.length / 4),
        totalTokenCount: 2 + 7,
      }),
    );
    const named = await json(
      await generate(sim, {
        contents: [userText('x')],
        tools: [{ functionDeclarations: [WEATHER_DECLARATION, { name: 'other' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['other'] } },
      }),
    );
    expect(named.candidates[0].content.parts).toEqual([{ functionCall: { name: 'other', args: {} } }]);
    const auto = await json(await generate(sim, { contents: [userText('x')], tools: [{ functionDeclarations: [WEATHER_DECLARATION] }] }));
    expect(auto.candidates[0].content.parts).toEqual([{ text: 'Simulated reply from gemini-sim: x' }]);
  });

  it('acknowledges function responses: output when present, else the whole response, strings unquoted', async () => {
    const body = await json(
      await generate(sim, {
        contents: [
          userText('weather, time and mood?'),
          {
            role: 'model',
            parts: [
              { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
              { functionCall: { name: 'get_time', args: {} } },
              { functionCall: { name: 'get_mood' } },
            ],
          },
          {
            role: 'user',
            parts: [
              { functionResponse: { name: 'get_weather', response: { output: { temp_c: 18 } } } },
              { functionResponse: { name: 'get_time', response: { time: 'noon' } } },
              { functionResponse: { name: 'get_mood', response: { output: 'happy' } } },
            ],
          },
        ],
      }),
    );
    expect(body.candidates[0].content.parts).toEqual([{ text: 'Tool results received: {"temp_c":18}; {"time":"noon"}; happy' }]);
  });

  it('reports MAX_TOKENS, SAFETY and cached tokens', async () => {
    const capped = await json(await generate(sim, { contents: [userText('a b c')], generationConfig: { maxOutputTokens: 2 } }));
    expect(capped).toEqual(response([{ text: 'Simulated reply ' }], { promptTokenCount: 2, candidatesTokenCount: 2, totalTokenCount: 4 }, 'MAX_TOKENS'));
    sim.script({ match: 'marker-safety-g1', reply: { text: 'No.', finish: 'content_filter', usage: { input: 100, output: 1, cached: 40 } } });
    const filtered = await json(await generate(sim, { contents: [userText('marker-safety-g1')] }));
    expect(filtered).toEqual(
      response([{ text: 'No.' }], { promptTokenCount: 100, candidatesTokenCount: 1, totalTokenCount: 101, cachedContentTokenCount: 40 }, 'SAFETY'),
    );
  });

  it('returns thought parts with includeThoughts and signs the first text part', async () => {
    const body = await json(
      await generate(sim, { contents: [userText('Is it warm in Rome today?')], generationConfig: { thinkingConfig: { includeThoughts: true } } }),
    );
    const text = 'Simulated reply from gemini-sim: Is it warm in Rome today?';
    expect(body).toEqual(
      response(
        [
          { text: 'Considering: Is it warm in Rome today?', thought: true },
          { text, thoughtSignature: thinkingSignature('gemini', text) },
        ],
        { promptTokenCount: 7, candidatesTokenCount: 10, thoughtsTokenCount: 7, totalTokenCount: 24 },
      ),
    );
  });

  it('thinks silently with a thinking budget, signing the first functionCall part by its name', async () => {
    const body = await json(
      await generate(sim, {
        contents: [userText('weather?')],
        tools: [{ functionDeclarations: [WEATHER_DECLARATION] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY' } },
        generationConfig: { thinkingConfig: { thinkingBudget: 512 } },
      }),
    );
    expect(body.candidates[0].content.parts).toEqual([
      { functionCall: { name: 'get_weather', args: { city: 'example', days: 1 } }, thoughtSignature: thinkingSignature('gemini', 'get_weather') },
    ]);
    expect(body.usageMetadata).toEqual({ promptTokenCount: 2, candidatesTokenCount: 7, thoughtsTokenCount: 2, totalTokenCount: 11 });
  });

  it('accepts snake_case members throughout the request', async () => {
    const body = await json(
      await generate(sim, {
        system_instruction: { parts: [{ text: 'abcd' }] },
        contents: [{ role: 'user', parts: [{ text: 'one two STOP three' }, { inline_data: { mime_type: 'image/png', data: 'iVBORw0KGgo=' } }] }],
        generation_config: { max_output_tokens: 50, stop_sequences: ['STOP'], thinking_config: { include_thoughts: true } },
      }),
    );
    expect(body.candidates[0].content.parts).toEqual([
      { text: 'Considering: one two STOP three', thought: true },
      { text: 'Simulated reply from gemini-sim: one two ', thoughtSignature: thinkingSignature('gemini', 'Simulated reply from gemini-sim: one two ') },
    ]);
    expect(body.candidates[0].finishReason).toBe('STOP');
    const tools = await json(
      await generate(sim, {
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        tools: [{ function_declarations: [{ name: 'lookup', parameters_json_schema: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'other' }] }],
        tool_config: { function_calling_config: { mode: 'ANY', allowed_function_names: ['lookup'] } },
      }),
    );
    expect(tools.candidates[0].content.parts).toEqual([{ functionCall: { name: 'lookup', args: { q: 'example' } } }]);
    const followUp = await json(
      await generate(sim, {
        contents: [
          userText('x'),
          { role: 'model', parts: [{ function_call: { name: 'lookup', args: { q: 'a' } } }] },
          { role: 'user', parts: [{ function_response: { name: 'lookup', response: { output: 'found it' } } }] },
        ],
      }),
    );
    expect(followUp.candidates[0].content.parts).toEqual([{ text: 'Tool results received: found it' }]);
  });

  it('counts tokens like the prompt usage of generateContent', async () => {
    const request = { systemInstruction: { parts: [{ text: 'Be terse.' }] }, contents: [userText('Hello there, simulator')] };
    expect(await json(await generate(sim, request, { method: 'countTokens' }))).toEqual({ totalTokens: 8 });
    expect(await json(await generate(sim, { generateContentRequest: { model: 'models/gemini-sim', ...request } }, { method: 'countTokens' }))).toEqual({ totalTokens: 8 });
  });

  it('records requests with protocol gemini, the query string, headers and parsed body', async () => {
    sim.reset();
    const body = { contents: [userText('record me')] };
    await (await generate(sim, body, { method: 'streamGenerateContent', query: '?alt=sse' })).text();
    expect(sim.requests()).toEqual([
      {
        id: expect.stringMatching(/^req_sim_/),
        protocol: 'gemini',
        method: 'POST',
        path: '/v1beta/models/gemini-sim:streamGenerateContent?alt=sse',
        headers: expect.objectContaining({ 'x-goog-api-key': 'gk-sim' }),
        body,
        receivedAt: expect.any(String),
      },
    ]);
  });
});

describe('Gemini errors and authentication', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  it('rejects a request without an API key with 403 PERMISSION_DENIED', async () => {
    const res = await generate(sim, { contents: [userText('hi')] }, { headers: { 'content-type': 'application/json' } });
    expect(await json(res, 403)).toEqual({ error: { code: 403, message: expect.stringContaining('API Key'), status: 'PERMISSION_DENIED' } });
  });

  it('rejects malformed JSON, missing contents and unknown part fields with 400 INVALID_ARGUMENT', async () => {
    const malformed = await fetch(`${sim.url}/v1beta/models/m:generateContent`, { method: 'POST', headers: HEADERS, body: '{"contents":' });
    expect(await json(malformed, 400)).toEqual({ error: { code: 400, message: expect.stringMatching(/^Invalid JSON payload received\./), status: 'INVALID_ARGUMENT' } });
    expect(await json(await generate(sim, { contents: [] }), 400)).toEqual({
      error: { code: 400, message: '* GenerateContentRequest.contents: contents is not specified', status: 'INVALID_ARGUMENT' },
    });
    const unknown = await generate(sim, { contents: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });
    expect(await json(unknown, 400)).toEqual({
      error: { code: 400, message: `Invalid JSON payload received. Unknown name "type" at 'contents[0].parts[0]': Cannot find field.`, status: 'INVALID_ARGUMENT' },
    });
  });

  it.each([
    [400, 'INVALID_ARGUMENT'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ])('renders a planned %d as %s', async (code, status) => {
    const directive = JSON.stringify({ error: { status: code, message: `planned ${code}` } });
    expect(await json(await generate(sim, { contents: [userText(`<sim>${directive}</sim>`)] }), code)).toEqual({ error: { code, message: `planned ${code}`, status } });
  });

  it('gives a retry delay as retry-after and google.rpc.RetryInfo', async () => {
    const directive = JSON.stringify({ error: { status: 429, message: 'Resource has been exhausted', retryAfterSeconds: 7 } });
    const res = await generate(sim, { contents: [userText(`<sim>${directive}</sim>`)] });
    expect(res.headers.get('retry-after')).toBe('7');
    expect(await json(res, 429)).toEqual({
      error: {
        code: 429,
        message: 'Resource has been exhausted',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' }],
      },
    });
  });
});

describe('Gemini streamGenerateContent', () => {
  let sim: RunningSimulator;

  beforeAll(async () => {
    sim = await startSimulator();
  });
  afterAll(async () => {
    await sim.close();
  });

  const stream = (body: unknown, query = '?alt=sse'): Promise<Response> => generate(sim, body, { method: 'streamGenerateContent', query });

  it('with alt=sse streams data-only events with CRLF, text increments, and finish + usage on the last chunk', async () => {
    const res = await stream({ contents: [userText('Hi there')] });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const tokens = ['Simulated ', 'reply ', 'from ', 'gemini-sim: ', 'Hi ', 'there'];
    const chunk = (text: string, index: number): Record<string, unknown> => {
      const finish = index === tokens.length - 1 ? { finishReason: 'STOP' } : {};
      return {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, ...finish, index: 0 }],
        usageMetadata: { promptTokenCount: 2, candidatesTokenCount: index + 1, totalTokenCount: 2 + index + 1 },
        modelVersion: 'gemini-sim',
        responseId: expect.any(String),
      };
    };
    const chunks = sseChunks(await res.text());
    expect(chunks).toEqual(tokens.map(chunk));
    expect(new Set(chunks.map((c) => c.responseId)).size).toBe(1);
  });

  it('delivers functionCall parts whole in one chunk, without ids', async () => {
    const directive = JSON.stringify({ text: 'Checking.', toolCalls: [{ id: 'ignored', name: 'a', arguments: { x: [1, 2] } }, { name: 'b', arguments: {} }] });
    const chunks = sseChunks(await (await stream({ contents: [userText(`<sim>${directive}</sim>`)] })).text());
    expect(chunks.map((c) => c.candidates[0].content.parts)).toEqual([
      [{ text: 'Checking.' }],
      [{ functionCall: { name: 'a', args: { x: [1, 2] } } }, { functionCall: { name: 'b', args: {} } }],
    ]);
    expect(chunks[1].candidates[0].finishReason).toBe('STOP');
  });

  it('without alt streams one pretty-printed JSON array, element by element', async () => {
    const res = await stream({ contents: [userText('Hi there')] }, '');
    expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
    const text = await res.text();
    expect(text.startsWith('[{\n  "candidates": [\n')).toBe(true);
    expect(text.endsWith('}\n]')).toBe(true);
    expect(text.split('\n,\r\n')).toHaveLength(6);
    const parsed = JSON.parse(text) as any[];
    expect(scanJsonArray(text)).toEqual(parsed);
    expect(parsed.map((c) => c.candidates[0].content.parts[0].text).join('')).toBe('Simulated reply from gemini-sim: Hi there');
    expect(parsed.map((c) => c.candidates[0].finishReason)).toEqual([undefined, undefined, undefined, undefined, undefined, 'STOP']);
    const sse = sseChunks(await (await stream({ contents: [userText('Hi there')] })).text());
    const withoutIds = (chunks: any[]): unknown[] => chunks.map(({ responseId: _id, ...rest }) => rest);
    expect(withoutIds(parsed)).toEqual(withoutIds(sse));
  });

  it('streams thoughts first and signs the first text chunk over the whole reply text', async () => {
    const chunks = sseChunks(await (await stream({ contents: [userText('a b')], generationConfig: { thinkingConfig: { includeThoughts: true } } })).text());
    const text = 'Simulated reply from gemini-sim: a b';
    expect(chunks.map((c) => c.candidates[0].content.parts)).toEqual([
      [{ text: 'Considering: ', thought: true }],
      [{ text: 'a ', thought: true }],
      [{ text: 'b', thought: true }],
      [{ text: 'Simulated ', thoughtSignature: thinkingSignature('gemini', text) }],
      ...['reply ', 'from ', 'gemini-sim: ', 'a ', 'b'].map((piece) => [{ text: piece }]),
    ]);
    expect(chunks.map((c) => c.usageMetadata.thoughtsTokenCount)).toEqual([1, 2, 3, 3, 3, 3, 3, 3, 3]);
    expect(chunks[chunks.length - 1].usageMetadata).toEqual({ promptTokenCount: 1, candidatesTokenCount: 6, thoughtsTokenCount: 3, totalTokenCount: 10 });
  });

  it('writes an error chunk after N content chunks with alt=sse', async () => {
    sim.script({ match: 'marker-gem-err-h2', reply: { text: 'one two three four', streamErrorAfterChunks: 2 } });
    const chunks = sseChunks(await (await stream({ contents: [userText('marker-gem-err-h2')] })).text());
    expect(chunks.map((c) => c.candidates?.[0].content.parts[0].text ?? c)).toEqual([
      'one ',
      'two ',
      { error: { code: 500, message: 'The simulator was scripted to fail this stream.', status: 'INTERNAL' } },
    ]);
  });

  it('closes the JSON array after an error element, also when it fails before any chunk', async () => {
    sim.script({ match: 'marker-gem-err-i3', reply: { text: 'one two three', streamErrorAfterChunks: 1 } });
    const failed = JSON.parse(await (await stream({ contents: [userText('marker-gem-err-i3')] }, '')).text()) as any[];
    expect(failed).toHaveLength(2);
    expect(failed[1]).toEqual({ error: { code: 500, message: 'The simulator was scripted to fail this stream.', status: 'INTERNAL' } });
    sim.script({ match: 'marker-gem-err-j4', reply: { text: 'one two', streamErrorAfterChunks: 0 } });
    const immediate = JSON.parse(await (await stream({ contents: [userText('marker-gem-err-j4')] }, '')).text()) as unknown;
    expect(immediate).toEqual([{ error: { code: 500, message: 'The simulator was scripted to fail this stream.', status: 'INTERNAL' } }]);
  });
});
